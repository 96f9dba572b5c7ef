/**
 * A cold index resolves references by unit (resolveUnit), reading each row's inputs as one key
 * string and reusing a file's earlier outcome for the same key; every outcome must be the one
 * the resolver gives the row read whole (resolveRef), also for a column holding a NUL, which
 * makes the key ambiguous (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { openDb } from "../../src/graph/db.js";
import { type RefRow, Resolver } from "../../src/graph/resolve.js";
import { runTool, tempDir } from "../support/run.js";

describe("resolution by unit", () => {
  it("gives every reference the outcome of resolving it alone, NUL in a column included", async () => {
    const root = tempDir("magellan-unit-");
    writeFileSync(
      join(root, "box.ts"),
      "export class Box {\n  helper(): number {\n    return 1;\n  }\n  run(): number {\n    return this.helper() + this.helper();\n  }\n}\n\nexport function helper(): number {\n  return 2;\n}\nhelper();\n",
    );
    const dbPath = join(root, "code.db");
    const r = await runTool("magellan", ["index", "--root", root, "--db", dbPath, "--threads", "1"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const db = openDb(dbPath, { write: true });
    try {
      // After `this.helper()`, in its file: the same inputs but for a NUL in the qualifier or the
      // name. Split at NUL, "this\0x" would read as `this` and resolve to Box.helper.
      const src = db.prepare("SELECT id FROM refs WHERE name = 'helper' AND qualifier = 'this' ORDER BY id LIMIT 1").pluck().get() as number;
      const copy = db.prepare(
        "INSERT INTO refs(file_id, name, kind, qualifier, caller_symbol_id, byte_start, byte_end, start_line, start_col, end_line, end_col) SELECT file_id, ?, kind, ?, caller_symbol_id, byte_start, byte_end, start_line, start_col, end_line, end_col FROM refs WHERE id = ?",
      );
      copy.run("helper", "this\0x", src);
      copy.run("helper\0x", "this", src);
      copy.run("helper", "this", src);
      const all = db.prepare("SELECT id, file_id, name, kind, qualifier, caller_symbol_id, arity, receiver_type FROM refs ORDER BY id").all() as RefRow[];
      const resolver = new Resolver(db, root);
      const unit = resolver.resolveUnit(0, Math.max(...all.map((x) => x.id)));
      assert.equal(unit.count, all.length);
      const got = new Map(unit.ids.map((id, i) => [id, [unit.hows[i], unit.targets[i] ?? null, unit.candidates[i] ?? null]]));
      const alone = new Resolver(db, root);
      let resolvedThis = 0;
      for (const ref of all) {
        const o = alone.resolveRef(ref);
        const want = o.how === "unresolved" ? undefined : [o.how, o.target, o.candidates ? JSON.stringify(o.candidates) : null];
        assert.deepEqual(got.get(ref.id), want, `${JSON.stringify(ref.name)} ${JSON.stringify(ref.qualifier)}`);
        if (ref.qualifier === "this" && ref.name === "helper" && want !== undefined) resolvedThis++;
      }
      assert.equal(resolvedThis, 3, "both `this.helper()` calls and the clean copy");
      // The copy with a NUL resolves otherwise (a guess, not `this`): read as `this`, it would not.
      const nul = all.find((x) => x.qualifier === "this\0x") as RefRow;
      assert.notDeepEqual(got.get(nul.id), got.get(src));
    } finally {
      db.close();
    }
  });
});
