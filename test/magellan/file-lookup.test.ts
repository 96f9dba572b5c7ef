import assert from "node:assert/strict";
import { join, posix } from "node:path";
import { describe, it } from "node:test";
import { openDb } from "../../src/graph/db.js";
import { SqlFileLookup } from "../../src/graph/resolve/files.js";
import { tempDir } from "../support/run.js";

/**
 * Module resolution looks files up in memory (resolve/files.ts) where it used one LIKE query per
 * lookup; a cold index must resolve exactly as before, so each answer is checked against the
 * query it replaced, on the same table, in the same order (LIKE folds ASCII case).
 */
describe("magellan resolution answers in memory as SQLite does", () => {
  it("answer as the LIKE queries over the files table did, in the same order, ASCII case folded", () => {
    const db = openDb(join(tempDir("magellan-lookup-"), "code.db"), { write: true });
    const paths = [
      "src/util.h", "include/Util.h", "lib/util.h", "src/a/util.h", "UTIL.H", "src/Ä/util.h", "src/ä/Util.h",
      "pkg/net/http/server.go", "pkg/net/http/client.go", "vendor/net/http/server.go", "net/http/x_test.go", "main.go",
      "java/com/acme/Foo.java", "test/com/acme/FooTest.java", "com/acme/Bar.java", "Com/Acme/Baz.java",
      "a_b/c%d.h", "axb/c%d.h", "x/a_b/c%d.h", "index.ts", "src/index.ts", "src/lib/index.tsx",
    ];
    // Not in path order: ids follow insertion, as in an index.
    const ins = db.prepare("INSERT INTO files(path, language, hash, size, mtime_ms, indexed_at) VALUES (?, 'c', '', 0, 0, '')");
    for (const p of [...paths].reverse()) ins.run(p);
    const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);
    const like = db.prepare("SELECT id, path FROM files WHERE path = ? OR path LIKE ? ESCAPE '\\'");
    const rows = (a: string, b: string): { id: number; path: string }[] => like.all(a, b) as { id: number; path: string }[];
    const lookup = new SqlFileLookup(db, undefined);
    const got = (f: (out: number[]) => void): number[] => {
      const out: number[] = [];
      f(out);
      return out;
    };
    const suffixes = ["util.h", "Util.h", "UTIL.H", "a/util.h", "Ä/util.h", "ä/util.h", "net/http/server.go", "acme/Foo.java", "c%d.h", "a_b/c%d.h", "index.ts", "lib/index.tsx", "nothing.h", "", "/util.h"];
    for (const s of suffixes) {
      const want = rows(s, `%/${escapeLike(s)}`).map((r) => r.id);
      assert.deepEqual(got((o) => lookup.suffixMatch(s, o)), want, `suffixMatch(${s})`);
    }
    assert.ok(got((o) => lookup.suffixMatch("util.h", o)).length >= 5, "case-folded matches are found");
    for (const [dir, ext] of [["src", ".h"], [".", ".go"], ["pkg/net/http", ".go"], ["pkg/net/http/", ".go"], ["src/a/../a", ".h"], ["com/acme", ".java"], ["nowhere", ".h"]] as const) {
      const d = posix.normalize(dir);
      const want = rows("\0", d === "." ? "%" : `${escapeLike(d)}/%`)
        .filter((r) => posix.dirname(r.path) === d && r.path.endsWith(ext))
        .map((r) => r.id);
      assert.deepEqual(got((o) => lookup.dirFiles(dir, ext, o)), want, `dirFiles(${dir}, ${ext})`);
    }
    for (const [suffix, ext] of [["net/http", ".go"], ["http", ".go"], ["com/acme", ".java"], ["Acme", ".java"], ["acme", ".java"], [".", ".go"], ["a_b", ".h"], ["", ".h"]] as const) {
      const want = rows("\0", `%${escapeLike(suffix)}/%`)
        .filter((r) => {
          const d = posix.dirname(r.path);
          return (d === suffix || d.endsWith(`/${suffix}`)) && r.path.endsWith(ext);
        })
        .map((r) => r.id);
      assert.deepEqual(got((o) => lookup.dirMatch(suffix, ext, o)), want, `dirMatch(${suffix}, ${ext})`);
    }
    for (const p of ["src/util.h", "./src/util.h", "src/a/../util.h", "SRC/util.h", "missing.h"]) {
      const want = (db.prepare("SELECT id FROM files WHERE path = ?").pluck().get(posix.normalize(p)) as number | undefined) ?? null;
      const out: number[] = [];
      assert.equal(lookup.tryPath(p, out), want !== null, `tryPath(${p})`);
      assert.deepEqual(out, want === null ? [] : [want]);
    }
    db.close();
  });
});
