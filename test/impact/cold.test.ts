/**
 * A cold index resolves the impact graph's files that need no TypeScript compiler between the
 * resolve worker's outcomes (statuses written, edges held), the rest while a worker builds the
 * last index and runs ANALYZE (statuses held too), and writes them all after. The rows must be those the one-pass path
 * (updateImpact) writes, rowids included.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "impact");

function rows(dbPath: string): unknown[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return [
      db.prepare("SELECT rowid, * FROM impact_edges ORDER BY rowid").raw().all(),
      db.prepare("SELECT id, file_id, status FROM deps ORDER BY id").raw().all(),
      db.prepare("SELECT value FROM meta WHERE key IN ('impact_configs', 'impact_pending') ORDER BY key").pluck().all(),
    ];
  } finally {
    db.close();
  }
}

describe("impact graph of a cold index", () => {
  it("resolved partly between the resolve worker's outcomes, equals the graph resolved at once", async () => {
    const root = tempDir("impact-cold-");
    // TypeScript first: its files, resolved last, have the lowest ids, so impact_configs must
    // list what they read before what the other languages' files read.
    for (const [fixture, dir] of [["ts-monorepo", "a-ts"], ["java-multi", "java"], ["py-src", "py"], ["c-compdb", "c"], ["go-work", "go"], ["rust-ws", "rs"]] as const) {
      cpSync(join(FIXTURES, fixture), join(root, dir), { recursive: true });
    }
    const index = async (db: string, threads: string): Promise<string> => {
      const r = await runTool("magellan", ["index", "--root", root, "--db", join(root, db), "--threads", threads], {
        env: { MAGELLAN_DEBUG: "1", MAGELLAN_RESOLVE_WORKERS_MIN_REFS: "0" },
      });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      return r.stderr;
    };
    // The main thread's idle time covers the whole first part on a tree this small.
    assert.match(await index("workers.db", "2"), /impact graph's first part done/);
    // One thread has no idle time: everything is resolved at the end.
    assert.match(await index("one.db", "1"), /impact graph's first part unfinished/);
    // The reference: an incremental run told that the graph is pending re-resolves every file
    // in one pass (updateImpact).
    await index("again.db", "1");
    const db = new Database(join(root, "again.db"));
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'impact_pending'").run();
    db.prepare("UPDATE deps SET status = 'pending'").run();
    db.prepare("DELETE FROM impact_edges").run();
    db.close();
    assert.doesNotMatch(await index("again.db", "1"), /impact graph's first part/);
    const want = rows(join(root, "again.db"));
    assert.ok((want[0] as unknown[]).length > 20, "edges in every language");
    for (const lang of ["a-ts", "java", "py", "c", "go", "rs"]) {
      const d = new Database(join(root, "again.db"), { readonly: true });
      const n = d.prepare("SELECT count(*) FROM impact_edges e JOIN files f ON f.id = e.source_id WHERE f.path LIKE ?").pluck().get(`${lang}/%`) as number;
      d.close();
      assert.ok(n > 0, `${lang} has edges`);
    }
    assert.deepEqual(rows(join(root, "workers.db")), want);
    assert.deepEqual(rows(join(root, "one.db")), want);
  });
});
