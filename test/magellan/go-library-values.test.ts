/**
 * Go: a method of a library type's value gives a library value (src/graph/resolve.ts
 * returnedTypes). go-task's `resp, err := client.Do(req)` with `client *http.Client`, then
 * `resp.Header.Get(...)` and `resp.Body.Close()`, and `inf.ModTime().String()` with `inf, _ :=
 * os.Stat(p)`, were `ambiguous` among the repository's Get, Close and String methods; a
 * repository method's declared result still types the next call.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import Database from "better-sqlite3";
import { join } from "node:path";
import { copyFixture, mg } from "./support.js";

it("Go: members of what a library type's method returns are the library's, not guesses among the repository's same-named methods", async () => {
  const root = copyFixture("go-library-values");
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stderr);
  const db = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  const rows = db
    .prepare(
      `SELECT r.start_line AS line, r.qualifier AS q, r.name AS name, r.resolution AS how, s.display_fqn AS target
       FROM refs r LEFT JOIN symbols s ON s.symbol_id = r.target_symbol_id WHERE r.kind = 'call' AND r.name IN ('Get', 'String', 'Close')`,
    )
    .all() as { line: number; q: string; name: string; how: string; target: string | null }[];
  db.close();
  const at = (line: number, name: string) => rows.find((x) => x.line === line && x.name === name);
  // Library values: resp (client.Do), inf.ModTime() (os.Stat's result).
  assert.deepEqual(at(20, "Close"), { line: 20, q: "resp.Body", name: "Close", how: "unresolved", target: null });
  assert.deepEqual(at(21, "Get"), { line: 21, q: "resp.Header", name: "Get", how: "unresolved", target: null });
  assert.deepEqual(at(31, "String"), { line: 31, q: "inf.ModTime()", name: "String", how: "unresolved", target: null });
  // A repository method's result: its declared type's members.
  assert.equal(at(48, "Get")?.target, "taskfile.Vars.Get");
  assert.equal(at(48, "String")?.target, "taskfile.Cache.String");
  // callers of the repository's Get and Close list no library call.
  const { env } = await mg(root, ["callers", "--name", "Vars.Get"]);
  assert.deepEqual(
    (env.data.references ?? []).map((x) => `${x.span.start_line} ${x.resolution}`),
    ["48 exact"],
  );
});
