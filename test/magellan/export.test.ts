import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { ExportRecordSchema, GraphExportSchema } from "../../src/contract/tools/magellan.js";
import { z } from "zod";
import { runTool, tempDir } from "../support/run.js";
import { indexed, mg } from "./support.js";

describe("magellan export", () => {
  let root = "";
  before(async () => {
    root = await indexed("multi", ["ts"]);
  });

  it("json: seed 01 GraphExport 2.0.0 in data, edges and collisions included", async () => {
    const { r, env } = await mg(root, ["export", "--format", "json"]);
    assert.equal(r.code, 0);
    const g = GraphExportSchema.parse(env.data);
    assert.equal(g.version, "2.0.0");
    assert.ok(g.files.every((f) => /^sha256:[0-9a-f]{64}$/.test(f.hash)));
    const call = g.calls.find((c) => c.callee === "double");
    assert.equal(call?.caller, "method");
    assert.equal(call?.resolution, "imported");
    assert.ok(g.symbols.some((s) => s.canonical_fqn.endsWith("::ts/app.ts::Class Shapes.Outer")));
    assert.ok(g.collisions.some((c) => c.field === "fqn"));
  });

  it("jsonl: the Version record first, then one valid record per line", async () => {
    const { r } = await mg(root, ["export", "--format", "jsonl"], { raw: true });
    assert.equal(r.code, 0);
    const lines = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as { type: string });
    assert.deepEqual(lines[0], { type: "Version", version: "2.0.0" });
    for (const l of lines) ExportRecordSchema.parse(l);
    const types = new Set(lines.map((l) => l.type));
    for (const t of ["File", "Symbol", "Reference", "Call"]) assert.ok(types.has(t), t);
  });

  it("the same tree exports byte for byte the same whatever the number of threads that indexed it", async () => {
    // 120 files: the first chunk of the pool heavy, so with several workers it finishes last.
    const tree = tempDir("mg-threads-");
    for (let i = 0; i < 120; i++) {
      const body = i < 24 ? Array.from({ length: 600 }, (_, k) => `export function f${i}_${k}(x: number): number { return x + ${k}; }`).join("\n") : `export function g${i}(): number { return ${i}; }`;
      // An overloaded `dup` in every file: its collision record carries the symbols' row numbers.
      writeFileSync(join(tree, `m${String(i).padStart(3, "0")}.ts`), `${body}\nexport function dup(): number;\nexport function dup(): number { return ${i}; }\n`);
    }
    const outs: string[] = [];
    for (const threads of ["1", "3"]) {
      const db = join(tree, `t${threads}.db`);
      const ix = await mg(tree, ["index", "--root", tree, "--db", db, "--threads", threads]);
      assert.equal(ix.r.code, 0, ix.r.stdout);
      const { r } = await mg(tree, ["export", "--format", "jsonl", "--root", tree, "--db", db], { raw: true });
      assert.equal(r.code, 0);
      outs.push(r.stdout);
    }
    assert.match(outs[0] as string, /"type":"Collision"/);
    assert.equal(outs[1], outs[0]);
  });

  it("csv: the version header comment, a header row, quoted cells; --output writes the file", async () => {
    const { env } = await mg(root, ["export", "--format", "csv", "--output", "graph.csv"]);
    assert.equal(env.data.output, join(root, "graph.csv"));
    const text = readFileSync(join(root, "graph.csv"), "utf8");
    const lines = text.split("\n");
    assert.equal(lines[0], "# Magellan Export Version: 2.0.0");
    assert.match(lines[1] as string, /^type,path,hash,symbol_id,/);
    assert.ok(lines.some((l) => l.startsWith("Symbol,") && l.includes("Shapes.Outer")));
    const out = await mg(root, ["export", "--format", "csv", "--output", "../escape.csv"]);
    assert.equal(out.r.code, 2);
    assert.equal(out.env.data.code, "MAGELLAN_E001");
  });

  it("an export path obeys the writers' rules: not in .git/ or .magellan/, not over a source file or the index; a new directory is made", async () => {
    const tree = tempDir("mg-export-paths-");
    mkdirSync(join(tree, ".git", "hooks"), { recursive: true });
    writeFileSync(join(tree, "app.py"), "def main():\n    return 1\n");
    symlinkSync(join(tree, ".git"), join(tree, "gitlink"));
    await mg(tree, ["index"]);
    const db = join(tree, ".magellan", "code.db");
    const before = readFileSync(db);
    for (const [args, code] of [
      [["export", "--format", "json", "--output", ".git/hooks/pre-commit"], "MAGELLAN_E010"],
      [["export", "--format", "json", "--output", "gitlink/evil.json"], "MAGELLAN_E010"],
      [["export", "--format", "json", "--output", ".magellan/code.db"], "MAGELLAN_E010"],
      [["export", "--format", "json", "--output", "app.py"], "MAGELLAN_E010"],
      [["impact", "--export", "app.py"], "MAGELLAN_E010"],
      [["impact", "--export", ".git/x.json"], "MAGELLAN_E010"],
    ] as const) {
      const r = await runTool("magellan", [...args, "--root", tree], { cwd: tree, schema: z.unknown() });
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}`);
      assert.equal((r.json as { data: { code: string } }).data.code, code, args.join(" "));
    }
    assert.equal(existsSync(join(tree, ".git", "hooks", "pre-commit")), false);
    assert.equal(existsSync(join(tree, ".git", "evil.json")), false);
    assert.equal(readFileSync(join(tree, "app.py"), "utf8"), "def main():\n    return 1\n");
    assert.ok(readFileSync(db).equals(before), "the index was not touched");
    const fresh = await mg(tree, ["export", "--format", "json", "--output", "out/graphs/g.json"]);
    assert.equal(fresh.r.code, 0, fresh.r.stdout);
    assert.equal((JSON.parse(readFileSync(join(tree, "out/graphs/g.json"), "utf8")) as { version: string }).version, "2.0.0");
    const deflt = await runTool("magellan", ["impact", "--export", "--root", tree], { cwd: tree, schema: z.unknown() });
    assert.equal(deflt.code, 0, deflt.stdout);
    assert.ok(existsSync(join(tree, ".magellan", "impact_graph.json")));
  });
});
