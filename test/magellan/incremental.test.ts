import assert from "node:assert/strict";
import { type Dirent, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { spawn } from "node:child_process";
import { isDeepStrictEqual } from "node:util";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { binPath, runTool, tempDir, writeTree } from "../support/run.js";
import { acquireWriterLock } from "../../src/graph/db.js";
import type { ToolError } from "../../src/contract/errors.js";
import { FIXTURES, type Match, type Ref, assertIncrementalMatchesRebuild, codes, copyFixture, graphOf, indexed, mg } from "./support.js";

async function symbolIdOf(root: string, name: string): Promise<string> {
  const { env } = await mg(root, ["find", "--name", name]);
  return ((env.data.matches as Match[])[0] as Match).symbol_id;
}

describe("magellan incremental index, freshness and recovery", () => {
  it("re-index skips unchanged files, re-extracts changed ones, keeps unrelated ids stable", async () => {
    const root = await indexed("multi", ["ts"]);
    const again = await mg(root, ["index"]);
    assert.equal(again.env.data.mode, "incremental");
    assert.equal(again.env.data.files_indexed, 0);
    const before = await symbolIdOf(root, "Widget");
    const util = join(root, "ts/util.ts");
    writeFileSync(util, `// a new comment moves every byte\n\n${readFileSync(util, "utf8")}`);
    const third = await mg(root, ["index"]);
    assert.equal(third.env.data.files_indexed, 1);
    assert.deepEqual(third.env.data.changed_paths ?? ["ts/util.ts"], ["ts/util.ts"]);
    assert.equal(await symbolIdOf(root, "Widget"), before);
    const { env } = await mg(root, ["find", "--name", "Widget"]);
    assert.equal((env.data.matches as Match[])[0]?.span.start_line, 13);
  });

  it("a touched but unchanged file is not re-extracted (content hash decides)", async () => {
    const root = await indexed("multi", ["ts"]);
    const p = join(root, "ts/other.ts");
    writeFileSync(p, readFileSync(p));
    const r = await mg(root, ["index"]);
    assert.equal(r.env.data.files_indexed, 0);
  });

  it("edges from other files follow a renamed, removed and restored target", async () => {
    const root = await indexed("multi", ["ts"]);
    const util = join(root, "ts/util.ts");
    const original = readFileSync(util, "utf8");
    writeFileSync(util, original.replace("export function helper(", "export function helper2("));
    await mg(root, ["index"]);
    const out = await mg(root, ["refs", "--name", "method", "--direction", "out"]);
    const dbl = (out.env.data.references as Ref[]).find((x) => x.referenced_symbol === "double");
    assert.equal(dbl?.resolution, "unresolved");
    writeFileSync(util, original);
    await mg(root, ["index"]);
    const back = await mg(root, ["refs", "--name", "method", "--direction", "out"]);
    const dbl2 = (back.env.data.references as Ref[]).find((x) => x.referenced_symbol === "double");
    assert.equal(dbl2?.resolution, "imported");
    assert.equal(dbl2?.target_symbol_id, await symbolIdOf(root, "helper"));
  });

  it("a deleted file leaves the index with its symbols and edges", async () => {
    const root = await indexed("multi", ["ts"]);
    unlinkSync(join(root, "ts/other.ts"));
    const r = await mg(root, ["index"]);
    assert.equal(r.env.data.files_removed, 1);
    const miss = await mg(root, ["find", "--name", "makePanel"]);
    assert.equal(miss.r.code, 1);
    const v = await mg(root, ["validate"]);
    assert.equal(v.env.data.passed, true, JSON.stringify(v.env.data));
  });

  it("answers drawn from files changed since indexing carry STALE_INDEX; status and validate count them", async () => {
    const root = await indexed("multi", ["ts"]);
    const p = join(root, "ts/util.ts");
    writeFileSync(p, `${readFileSync(p, "utf8")}\nexport const added = 1;\n`);
    const f = await mg(root, ["find", "--name", "helper"]);
    assert.equal(f.r.code, 0);
    const stale = (f.env.diagnostics ?? []).find((d) => d.code === "MAGELLAN_E108");
    assert.ok(stale, JSON.stringify(f.env));
    assert.match(stale.message, /STALE_INDEX: ts\/util\.ts/);
    const s = await mg(root, ["status"]);
    assert.equal(s.env.data.stale_files, 1);
    unlinkSync(join(root, "ts/other.ts"));
    const v = await mg(root, ["validate"]);
    const data = v.env.data as { passed: boolean; errors: { code: string }[]; warnings: { code: string }[] };
    assert.equal(data.passed, false);
    assert.deepEqual(data.errors.map((e) => e.code), ["FILE_MISSING"]);
    assert.ok(data.warnings.some((w) => w.code === "STALE_INDEX"));
    // An answer from a file that did not change carries no warning.
    const clean = await mg(root, ["find", "--name", "Outer"]);
    assert.deepEqual(codes(clean.env), []);
  });

  it("freshness: a touch is not stale, a same-size edit is (the content hash decides)", async () => {
    const root = await indexed("multi", ["ts"]);
    const p = join(root, "ts/util.ts");
    const later = new Date(Date.now() + 5_000);
    utimesSync(p, later, later);
    const touched = await mg(root, ["find", "--name", "helper"]);
    assert.deepEqual(codes(touched.env), []);
    const text = readFileSync(p, "utf8");
    const edited = text.replace("x", "y");
    assert.equal(Buffer.byteLength(edited), Buffer.byteLength(text));
    writeFileSync(p, edited);
    const stale = await mg(root, ["find", "--name", "helper"]);
    assert.ok(codes(stale.env).includes("MAGELLAN_E108"), JSON.stringify(stale.env.diagnostics));
  });

  it("a corrupt index is refused with a clear error; index --rebuild recovers", async () => {
    const root = await indexed("multi", ["ts"]);
    const db = join(root, ".magellan/code.db");
    rmSync(`${db}-wal`, { force: true });
    rmSync(`${db}-shm`, { force: true });
    writeFileSync(db, Buffer.from("this is not an sqlite database at all, just junk ".repeat(200)));
    const f = await mg(root, ["find", "--name", "helper"]);
    assert.equal(f.r.code, 1);
    assert.equal(f.env.data.code, "MAGELLAN_E101");
    assert.match(String(f.env.data.remediation), /--rebuild/);
    const plain = await mg(root, ["index"]);
    assert.equal(plain.r.code, 1);
    const rebuilt = await mg(root, ["index", "--rebuild"]);
    assert.equal(rebuilt.r.code, 0);
    assert.equal(rebuilt.env.data.mode, "rebuild");
    const ok = await mg(root, ["find", "--name", "helper"]);
    assert.equal(ok.r.code, 0);
  });

  it("an index from another schema version is refused; a missing index says to run index", async () => {
    const root = await indexed("multi", ["ts"]);
    const db = new Database(join(root, ".magellan/code.db"));
    db.pragma("user_version = 99");
    db.close();
    const f = await mg(root, ["status"]);
    assert.equal(f.r.code, 1);
    assert.equal(f.env.data.code, "MAGELLAN_E102");
    const none = await mg(root, ["status", "--db", join(root, "nothing.db")]);
    assert.equal(none.r.code, 1);
    assert.equal(none.env.data.code, "MAGELLAN_E100");
  });

  it("a schema 1 index (no per-file counts) is migrated in place to the same totals", async () => {
    const root = await indexed("multi", ["ts"]);
    const before = (await mg(root, ["status"])).env.data;
    const db = new Database(join(root, ".magellan/code.db"));
    for (const c of ["symbol_count", "ref_count", "call_count"]) db.exec(`ALTER TABLE files DROP COLUMN ${c}`);
    db.pragma("user_version = 1");
    db.close();
    const after = await mg(root, ["status"]);
    assert.equal(after.r.code, 0, after.r.stdout);
    for (const k of ["files", "symbols", "references", "calls"]) assert.equal(after.env.data[k], before[k], k);
    assert.ok(Number(before.references) > 0 && Number(before.calls) > 0);
    assert.equal(after.env.data.db_schema_version, 6);
    // Incremental runs keep the totals right after the migration.
    const util = join(root, "ts/util.ts");
    writeFileSync(util, `${readFileSync(util, "utf8")}\nexport function addedLater(): number { return helper(); }\n`);
    const re = await mg(root, ["index"]);
    assert.equal(re.env.data.symbols, Number(before.symbols) + 1);
    assert.equal(re.env.data.calls, Number(before.calls) + 1);
  });

  it("an index at this schema version that lacks its last columns (an earlier build's) is refused to readers and completed by the next index", async () => {
    const root = await indexed("multi", ["ts"]);
    const dbPath = join(root, ".magellan/code.db");
    const before = graphOf(dbPath);
    const db = new Database(dbPath);
    for (const c of ["receiver", "declared_type"]) db.exec(`ALTER TABLE symbols DROP COLUMN ${c}`);
    db.close();
    const f = await mg(root, ["find", "--name", "helper"]);
    assert.equal(f.r.code, 1, f.r.stdout);
    assert.equal(f.env.data.code, "MAGELLAN_E102");
    const again = await mg(root, ["index"]);
    assert.equal(again.r.code, 0, again.r.stdout + again.r.stderr);
    assert.ok(isDeepStrictEqual(graphOf(dbPath), before), "the completed index equals the original");
    const ok = await mg(root, ["find", "--name", "helper"]);
    assert.equal(ok.r.code, 0, ok.r.stdout);
  });

  it("a cold run killed before its references were stored is started over by the next run", async () => {
    const root = await indexed("multi", ["ts"]);
    const before = (await mg(root, ["status"])).env.data;
    const db = new Database(join(root, ".magellan/code.db"));
    // What a kill between storing the files and storing their references leaves behind.
    db.exec("DELETE FROM refs; UPDATE meta SET value = '1' WHERE key = 'resolve_pending'");
    db.close();
    // Until a run completes, answers say the index is incomplete.
    const early = await mg(root, ["find", "--name", "helper"]);
    assert.ok((early.env.diagnostics ?? []).some((d) => d.code === "MAGELLAN_E108" && /incomplete/.test(d.message)), early.r.stdout);
    const again = await mg(root, ["index"]);
    assert.equal(again.r.code, 0, again.r.stdout);
    assert.equal(again.env.data.mode, "full");
    assert.equal(again.env.data.references, before.references);
    const refs = await mg(root, ["refs", "--name", "helper"]);
    assert.ok(!(refs.env.diagnostics ?? []).some((d) => /incomplete/.test(d.message)));
    const found = refs.env.data.references as Ref[];
    assert.ok(found.length > 0, refs.r.stdout);
    assert.ok(found.every((x) => x.resolution !== "unresolved"), "references into helper are resolved again");
  });

  it("an index another version of magellan built is read again in full; one this version built is not", async () => {
    // Its unchanged files would keep what that version extracted and resolved.
    const root = await indexed("multi", ["ts"]);
    const files = (await mg(root, ["status"])).env.data.files as number;
    const same = await mg(root, ["index"]);
    assert.equal(same.env.data.mode, "incremental");
    assert.equal(same.env.data.files_indexed, 0);
    for (const older of ["UPDATE meta SET value = '0.0.1' WHERE key = 'built_by'", "DELETE FROM meta WHERE key = 'built_by'"]) {
      const db = new Database(join(root, ".magellan/code.db"));
      // (An earlier version's mark, or none: an index from before versions were recorded.)
      db.exec(older);
      db.close();
      const again = await mg(root, ["index"]);
      assert.equal(again.r.code, 0, again.r.stdout);
      assert.equal(again.env.data.mode, "full", older);
      assert.equal(again.env.data.files_indexed, files, older);
    }
  });

  it("a full index resolved in many small units with a tiny cache (here, on workers, after a worker died) stores exactly the rows of one unit", async () => {
    const root = copyFixture("multi");
    // Every row in rowid order, ids included: units and the cache must not change what is stored or how it is numbered.
    const rows = (db: string): unknown[] => {
      const d = new Database(db, { readonly: true });
      const out = [d.prepare("SELECT * FROM refs ORDER BY id").raw().all(), d.prepare("SELECT * FROM symbols ORDER BY id").raw().all()];
      d.close();
      return out;
    };
    const run = async (db: string, env: Record<string, string>, ...args: string[]): Promise<string> => {
      const r = await runTool("magellan", ["index", "--root", root, "--db", join(root, db), ...args], { env: { MAGELLAN_DEBUG: "1", ...env } });
      assert.equal(r.code, 0, r.stdout);
      return r.stderr;
    };
    const one = await run("one.db", {}, "--threads", "1");
    assert.match(one, /resolved and stored \d+ references in 1 unit\(s\)/);
    const a = rows(join(root, "one.db"));
    assert.ok((a[0] as unknown[]).length > 50);
    // A cache of a few candidate symbols, emptied over and over (names looked up again), and
    // units of 7 references: dozens of units.
    const small = { MAGELLAN_RESOLVE_CACHE_SYMBOLS: "5", MAGELLAN_RESOLVE_UNIT_REFS: "7" };
    const here = await run("here.db", small, "--threads", "1");
    const units = Number(/in (\d+) unit\(s\)/.exec(here)?.[1]);
    assert.ok(units > 10, here);
    assert.deepEqual(rows(join(root, "here.db")), a);
    // (Pages of 3 rowids: a file's references, and its repeated ones, span several reads.)
    const workers = await run("workers.db", { ...small, MAGELLAN_RESOLVE_WORKERS_MIN_REFS: "0", MAGELLAN_RESOLVE_PAGE_REFS: "3" }, "--threads", "2");
    assert.match(workers, new RegExp(`in ${units} unit\\(s\\) on 1 worker thread`));
    assert.deepEqual(rows(join(root, "workers.db")), a);
    // One resolve worker whatever the threads (three on four cores before, two of them idle).
    const four = await run("four.db", { ...small, MAGELLAN_RESOLVE_WORKERS_MIN_REFS: "0" }, "--threads", "4");
    assert.match(four, new RegExp(`in ${units} unit\\(s\\) on 1 worker thread`));
    assert.deepEqual(rows(join(root, "four.db")), a);
    // Two workers share the units (the first one fed used to take them all, 32 at once) and
    // make the same graph.
    const two = await run("two.db", { ...small, MAGELLAN_RESOLVE_WORKERS_MIN_REFS: "0", MAGELLAN_RESOLVE_THREADS: "2" }, "--threads", "2");
    const each = /on 2 worker thread\(s\) \(units each: (\d+), (\d+)\)/.exec(two);
    assert.ok(each, two);
    assert.ok(Number(each[1]) > 0 && Number(each[2]) > 0, each[0]);
    assert.equal(Number(each[1]) + Number(each[2]), units);
    assert.deepEqual(rows(join(root, "two.db")), a);
    // The indexes built between the worker's outcomes are all there, as one thread builds them.
    const indexes = (db: string): string[] => {
      const d = new Database(db, { readonly: true });
      const out = d.prepare("SELECT name || ' ' || sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all() as string[];
      d.close();
      return out;
    };
    assert.ok(indexes(join(root, "one.db")).some((i) => i.startsWith("refs_name ")));
    assert.deepEqual(indexes(join(root, "workers.db")), indexes(join(root, "one.db")));
    // A resolve worker that runs out of its (here tiny) heap leaves its units to this thread.
    const starved = await run("starved.db", { ...small, MAGELLAN_RESOLVE_WORKERS_MIN_REFS: "0", MAGELLAN_RESOLVE_WORKER_HEAP_MB: "2" }, "--threads", "2");
    assert.match(starved, /a worker failed, the rest here/);
    assert.deepEqual(rows(join(root, "starved.db")), a);
  });

  it("a cold index resolves each file's reference in that file, even right after the same reference in another file", async () => {
    // Resolution reuses an outcome within a file (same name, kind, qualifier and caller); a file
    // that follows with the same top-level call must still get its own function.
    const root = tempDir("magellan-");
    const files = ["a", "b", "c", "d"];
    for (const f of files) writeFileSync(join(root, `${f}.ts`), `export function helper(): number {\n  return 1;\n}\nhelper();\nhelper();\n`);
    for (const threads of ["1", "2"]) {
      const db = join(root, `t${threads}.db`);
      const r = await runTool("magellan", ["index", "--root", root, "--db", db, "--threads", threads], { env: { MAGELLAN_RESOLVE_WORKERS_MIN_REFS: "0", MAGELLAN_RESOLVE_PAGE_REFS: "3" } });
      assert.equal(r.code, 0, r.stdout);
      const d = new Database(db, { readonly: true });
      const calls = d
        .prepare("SELECT f.path, r.resolution, t.path FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.symbol_id = r.target_symbol_id LEFT JOIN files t ON t.id = s.file_id WHERE r.name = 'helper' AND r.kind = 'call' ORDER BY r.id")
        .raw()
        .all();
      d.close();
      assert.deepEqual(calls, files.flatMap((f) => [[`${f}.ts`, "exact", `${f}.ts`], [`${f}.ts`, "exact", `${f}.ts`]]), `--threads ${threads}`);
    }
  });

  it("a full index resolves on worker threads (while this one stores) to exactly the graph one thread makes", async () => {
    const root = copyFixture("multi");
    const run = async (db: string, env: Record<string, string>, ...args: string[]): Promise<string> => {
      const r = await runTool("magellan", ["index", "--root", root, "--db", join(root, db), ...args], { env: { MAGELLAN_DEBUG: "1", ...env } });
      assert.equal(r.code, 0, r.stdout);
      return r.stderr;
    };
    // The fixture is far below the size where workers pay off: force them, and keep them off.
    const viaWorkers = await run("workers.db", { MAGELLAN_RESOLVE_WORKERS_MIN_REFS: "0" }, "--threads", "2");
    assert.match(viaWorkers, /on 1 worker thread\(s\)/);
    assert.doesNotMatch(viaWorkers, /a worker failed/);
    const here = await run("here.db", { MAGELLAN_RESOLVE_WORKERS_MIN_REFS: "0" }, "--threads", "1");
    assert.doesNotMatch(here, /worker thread/, "--threads 1 resolves on the main thread");
    const a = graphOf(join(root, "here.db"));
    assert.ok((a[2] as unknown[]).length > 50);
    assert.deepEqual(graphOf(join(root, "workers.db")), a);
  });

  it("incremental runs end with the graph a rebuild makes (a few files in one transaction, many through the workers)", async () => {
    const root = copyFixture("multi");
    const graph = graphOf;
    const index = async (...args: string[]): Promise<void> => {
      const r = await runTool("magellan", ["index", "--root", root, ...args]);
      assert.equal(r.code, 0, r.stdout);
    };
    const sameAsRebuild = async (what: string): Promise<void> => {
      await index();
      await index("--rebuild", "--db", join(root, "fresh.db"));
      assert.deepEqual(graph(join(root, ".magellan", "code.db")), graph(join(root, "fresh.db")), what);
    };
    await index();
    // A few files: a target renamed, a caller added, a file deleted, a Python module edited.
    const util = join(root, "ts/util.ts");
    writeFileSync(util, readFileSync(util, "utf8").replace("export function helper(", "export function helper2("));
    writeFileSync(
      join(root, "ts/extra.ts"),
      'import { helper2, later as soon } from "./util";\nimport made from "./late";\nexport function useIt(): number {\n  return helper2(1) + soon() + made();\n}\n',
    );
    rmSync(join(root, "ts/other.ts"));
    const py = join(root, "py/pkg/shapes.py");
    writeFileSync(py, `${readFileSync(py, "utf8")}\n\ndef added_late():\n    return added_late()\n`);
    await sameAsRebuild("after a few changed files");
    // More changed files than one transaction takes: they go through the worker pool.
    for (let i = 0; i < 40; i++) {
      writeFileSync(join(root, `ts/gen${i}.ts`), `import { useIt } from "./extra";\nexport function gen${i}(): number {\n  return useIt() + gen${(i + 1) % 40}();\n}\n`);
    }
    writeFileSync(util, readFileSync(util, "utf8").replace("export function helper2(", "export function helper("));
    await sameAsRebuild("after many changed files");
    // Symbols that aliased and default imports were waiting for.
    writeFileSync(util, `${readFileSync(util, "utf8")}\nexport function later(): number {\n  return 1;\n}\n`);
    writeFileSync(join(root, "ts/late.ts"), "export default function made(): number {\n  return 2;\n}\n");
    await sameAsRebuild("after aliased targets appeared");
  });

  it("switching a tree between two states (like a checkout) ends with the graph a rebuild makes, in files the switch did not touch", async () => {
    // typeorm 3432ac825 -> 281bfba42 in small: the test file is the same in both states, yet how
    // its references resolve depends on what changed elsewhere: a class named like a local
    // (`UserRepository.createQueryBuilder()`), the default export its import binds, and a module
    // its import names that did not exist before.
    const states = join(FIXTURES, "switch");
    const root = tempDir("mg-switch-");
    const files = (dir: string): string[] => (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]).filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
    const switchTo = (state: string): void => {
      const from = join(states, state);
      const want = new Set(files(from));
      for (const f of files(root)) if (!f.startsWith(".magellan") && !f.endsWith(".db") && !want.has(f)) rmSync(join(root, f));
      // Only files whose content differs are written, as git checkout does: the others keep their mtime.
      for (const f of want) {
        const text = readFileSync(join(from, f));
        const dest = join(root, f);
        if (existsSync(dest) && readFileSync(dest).equals(text)) continue;
        mkdirSync(dirname(dest), { recursive: true });
        writeFileSync(dest, text);
      }
    };
    const untouched = "test/github-issues/1780/issue-1780.test.ts";
    const refsOf = (db: string): unknown[] => (graphOf(db)[2] as { path: string }[]).filter((r) => r.path === untouched);
    switchTo("a");
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const db = join(root, ".magellan", "code.db");
    const before = refsOf(db);
    for (const state of ["b", "a"]) {
      switchTo(state);
      const inc = await mg(root, ["index"]);
      assert.equal(inc.env.data.mode, "incremental");
      // Only what the switch wrote or removed was read again (the test file is not among them).
      assert.equal((inc.env.data.files_indexed as number) + (inc.env.data.files_removed as number), 4);
      rmSync(join(root, "fresh.db"), { force: true });
      assert.equal((await mg(root, ["index", "--rebuild", "--db", join(root, "fresh.db")])).r.code, 0);
      assert.deepEqual(graphOf(db), graphOf(join(root, "fresh.db")), `after switching to ${state}`);
      const exported = async (dbPath: string): Promise<unknown> => (await mg(root, ["export", "--format", "json", "--db", dbPath, "--root", root])).env.data;
      assert.deepEqual(await exported(db), await exported(join(root, "fresh.db")), `export after switching to ${state}`);
      // The switch did change how the untouched file's references resolve (else this proves nothing).
      if (state === "b") assert.notDeepEqual(refsOf(db), before);
      else assert.deepEqual(refsOf(db), before);
    }
  });

  it("a changed file's references keep their earlier outcomes only while nothing they depend on changed", async () => {
    const root = tempDir("mg-prior-");
    writeFileSync(join(root, "b.ts"), "export function helper(): number { return 1; }\nexport function other(): number { return 2; }\n");
    writeFileSync(join(root, "z.ts"), "export function lonely(): number { return 3; }\n");
    const a = (body: string): void =>
      writeFileSync(join(root, "a.ts"), `import { helper, other } from "./b";\nexport function main(): number {\n  ${body}\n}\n`);
    a("return helper() + lonely();");
    assert.equal((await runTool("magellan", ["index", "--root", root])).code, 0);
    const db = join(root, ".magellan", "code.db");
    /** The incremental index must hold what a rebuild of the same tree holds. */
    const matchesRebuild = async (label: string): Promise<void> => {
      const r = await runTool("magellan", ["index", "--root", root]);
      assert.equal(r.code, 0, r.stdout);
      const fresh = join(root, `fresh-${label}.db`);
      assert.equal((await runTool("magellan", ["index", "--root", root, "--db", fresh])).code, 0);
      assert.deepEqual(graphOf(db), graphOf(fresh), label);
    };
    const target = async (name: string): Promise<Ref | undefined> =>
      ((await mg(root, ["refs", "--name", "main", "--direction", "out"])).env.data.references as Ref[]).find((x) => x.referenced_symbol === name);
    // Inside the body only: every symbol, file and import as it was.
    a("// a comment moves every reference\n  return helper() + other() + lonely();");
    await matchesRebuild("body");
    assert.equal((await target("other"))?.resolution, "imported");
    // The body again, and in the same run the target of an unchanged reference is renamed.
    a("// again\n  return helper() + other() + lonely();");
    writeFileSync(join(root, "b.ts"), "export function helper2(): number { return 1; }\nexport function other(): number { return 2; }\n");
    await matchesRebuild("renamed elsewhere");
    assert.equal((await target("helper"))?.resolution, "unresolved");
    // The body again, and in the same run the only definition of a called name goes away.
    a("// once more\n  return helper() + other() + lonely();");
    unlinkSync(join(root, "z.ts"));
    await matchesRebuild("deleted elsewhere");
    assert.equal((await target("lonely"))?.resolution, "unresolved");
  });

  it("an incremental run killed at any moment leaves the index as it was or as it should be, never half", async () => {
    // A tree big enough that a run of a few changed files (stored and re-resolved in one
    // transaction) lasts a while: 120 modules calling each other's exports.
    const root = tempDir("mg-kill-");
    const N = 120;
    const write = (i: number, extra: string): void =>
      writeFileSync(
        join(root, `m${i}.ts`),
        `import { f${(i + 1) % N} } from "./m${(i + 1) % N}";\nexport function f${i}(x: number): number {\n  return x > 0 ? f${(i + 1) % N}(x - 1) : ${i};\n}\n${extra}`,
      );
    for (let i = 0; i < N; i++) write(i, "");
    const first = await runTool("magellan", ["index", "--root", root]);
    assert.equal(first.code, 0, first.stdout);
    const db = join(root, ".magellan", "code.db");
    const before = graphOf(db);
    // Twenty files change: each gains a function calling its neighbour's, and loses nothing.
    for (let i = 0; i < 20; i++) write(i, `export function g${i}(): number { return f${(i + 1) % N}(1) + f${i}(2); }\n`);
    const expected = join(root, "expected.db");
    const rebuilt = await runTool("magellan", ["index", "--root", root, "--db", expected]);
    assert.equal(rebuilt.code, 0, rebuilt.stdout);
    const after = graphOf(expected);
    assert.notDeepEqual(after, before);
    // The transaction is a few tens of milliseconds of the run: kill at steps finer than that
    // until a run gets through.
    for (let delay = 60; delay <= 600; delay += 15) {
      const child = spawn(binPath("magellan"), ["index", "--root", root], { stdio: "ignore" });
      const exited = new Promise((r) => child.once("exit", r));
      await new Promise((r) => setTimeout(r, delay));
      child.kill("SIGKILL");
      await exited;
      const now = graphOf(db);
      assert.ok(isDeepStrictEqual(now, before) || isDeepStrictEqual(now, after), `killed after ${delay} ms: the index is neither the old graph nor the new one`);
      if (isDeepStrictEqual(now, after)) break;
    }
    // A lock left by the killed writer is taken over, and the run ends with the new graph.
    const again = await runTool("magellan", ["index", "--root", root]);
    assert.equal(again.code, 0, again.stdout);
    assert.deepEqual(graphOf(db), after);
  });

  it("an index that grew tenfold since it was analyzed still looks names up through its indexes", async () => {
    // First indexed nearly empty: the planner's statistics say a handful of rows.
    const root = tempDir("mg-grow-");
    writeFileSync(join(root, "a.ts"), "export function a(): number { return b(); }\nfunction b(): number { return 1; }\n");
    const first = await runTool("magellan", ["index", "--root", root]);
    assert.equal(first.code, 0, first.stdout);
    // Then real code arrives: thousands of symbols and references in one incremental run.
    const lines = Array.from({ length: 3000 }, (_, i) => `export function g${i}(x: number): number { return x > 0 ? g${(i + 1) % 3000}(x - 1) : a(); }`);
    writeFileSync(join(root, "big.ts"), `import { a } from "./a";\n${lines.join("\n")}\n`);
    const second = await runTool("magellan", ["index", "--root", root]);
    assert.equal(second.code, 0, second.stdout);
    const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
    try {
      const plan = (sql: string): string => (d.prepare(`EXPLAIN QUERY PLAN ${sql}`).all("x") as { detail: string }[]).map((r) => r.detail).join("; ");
      // Without fresh statistics SQLite scans the table for each of these (quadratic over a run).
      assert.match(plan("SELECT id, file_id, name, kind, qualifier, caller_symbol_id FROM refs WHERE name = ?"), /USING (COVERING )?INDEX refs_name/);
      assert.match(plan("SELECT symbol_id, file_id FROM symbols WHERE name = ?"), /USING (COVERING )?INDEX symbols_name/);
    } finally {
      d.close();
    }
  });

  it("a lock left by a killed writer is taken over", async () => {
    const root = await indexed("multi", ["ts"]);
    const lock = join(root, ".magellan/code.db.lock");
    writeFileSync(lock, "999999999");
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const r = await mg(root, ["index"]);
    assert.equal(r.r.code, 0, r.r.stdout);
    assert.throws(() => readFileSync(lock), /ENOENT/);
  });

  it("a lock this process holds is waited for, past a second, and one naming our pid that no run here holds is taken over", async () => {
    const root = tempDir("mg-lock-");
    const dbPath = join(root, ".magellan/code.db");
    const release = await acquireWriterLock(dbPath);
    try {
      // The daemon and the MCP server run splice's re-index and the keeper's cycle in one
      // process: the second must wait however long the first holds the lock.
      await new Promise((r) => setTimeout(r, 1200));
      await assert.rejects(acquireWriterLock(dbPath, 300), (e: ToolError) => e.error === "index_locked");
    } finally {
      release();
    }
    const again = await acquireWriterLock(dbPath, 300);
    again();
    // A dead process's lock whose pid is ours now (a container's pids start over): not ours to wait for.
    writeFileSync(`${dbPath}.lock`, String(process.pid));
    utimesSync(`${dbPath}.lock`, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const taken = await acquireWriterLock(dbPath, 300);
    taken();
    assert.equal(existsSync(`${dbPath}.lock`), false);
  });

  it("two index runs at once: one writer at a time, both succeed", async () => {
    const root = await indexed("multi", ["ts"]);
    writeFileSync(join(root, "ts/extra.ts"), "export function extra(): number { return 1; }\n");
    const [a, b] = await Promise.all([mg(root, ["index"]), mg(root, ["index"])]);
    assert.equal(a.r.code, 0, a.r.stdout);
    assert.equal(b.r.code, 0, b.r.stdout);
    assert.equal((a.env.data.files_indexed as number) + (b.env.data.files_indexed as number), 1);
  });

  it("an edited tsconfig.json or go.mod re-resolves every import, as a rebuild would (the index kept the old targets)", async () => {
    const root = writeTree(tempDir("magellan-configs-"), {
      "tsconfig.json": '{"compilerOptions":{"baseUrl":".","paths":{"@lib/*":["src/lib/*"]}}}\n',
      "src/lib/util.ts": "export function helper() { return 1; }\n",
      "src/other/util.ts": "export function helper() { return 2; }\n",
      "src/main.ts": 'import { helper } from "@lib/util";\nhelper();\n',
      "go.mod": "module example.com/one\n\ngo 1.21\n",
      "pkg/a/a.go": "package a\n\nfunc Hello() {}\n",
      "main.go": 'package main\n\nimport "example.com/one/pkg/a"\n\nfunc main() { a.Hello() }\n',
    });
    const targets = (): string[] => {
      const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
      try {
        return d
          .prepare(
            `SELECT f.path || ':' || r.start_line || ' ' || r.name || ' ' || r.resolution || ' ' || coalesce(t.display_fqn, '-') FROM refs r JOIN files f ON f.id = r.file_id
             LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE r.name IN ('helper', 'Hello') ORDER BY f.path, r.byte_start`,
          )
          .pluck()
          .all() as string[];
      } finally {
        d.close();
      }
    };
    const index = async (...args: string[]): Promise<void> => {
      const r = await runTool("magellan", ["index", "--root", root, ...args]);
      assert.equal(r.code, 0, r.stdout);
    };
    await index();
    assert.deepEqual(targets(), ["main.go:5 Hello imported pkg/a.Hello", "src/main.ts:1 helper imported src/lib/util.helper", "src/main.ts:2 helper imported src/lib/util.helper"]);
    writeFileSync(join(root, "tsconfig.json"), '{"compilerOptions":{"baseUrl":".","paths":{"@lib/*":["src/other/*"]}}}\n');
    writeFileSync(join(root, "go.mod"), "module example.com/two\n\ngo 1.21\n");
    // No source file changed: only the configurations did.
    await index();
    assert.deepEqual(targets(), ["main.go:5 Hello unresolved -", "src/main.ts:1 helper imported src/other/util.helper", "src/main.ts:2 helper imported src/other/util.helper"]);
    await index("--rebuild", "--db", join(root, "fresh.db"));
    assert.deepEqual(graphOf(join(root, ".magellan", "code.db")), graphOf(join(root, "fresh.db")));
  });

  it("a workspace folder renamed with its index: the files not read again take the new name in canonical_fqn", async () => {
    const parent = tempDir("magellan-");
    const before = join(parent, "shop");
    mkdirSync(before);
    writeTree(before, { "src/a.ts": "export function one(): number {\n  return 1;\n}\n", "src/b.ts": 'import { one } from "./a";\n\nexport const two = one() + 1;\n' });
    assert.equal((await mg(before, ["index"])).r.code, 0);
    const root = join(parent, "store");
    renameSync(before, root);
    writeFileSync(join(root, "src/b.ts"), 'import { one } from "./a";\n\nexport const three = one() + 2;\n');
    await assertIncrementalMatchesRebuild(root, "renamed-root");
    const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
    const fqns = d.prepare("SELECT canonical_fqn FROM symbols ORDER BY canonical_fqn").pluck().all() as string[];
    d.close();
    assert.ok(fqns.length > 0 && fqns.every((f) => f.startsWith("store::")), fqns.join(", "));
  });
});
