/**
 * A Java rename (magellan's index engine) renames the Javadoc links to the member
 * (test/fixtures/splice-rename/java-javadoc, commons-io's ProxyInputStream shape). Renaming
 * `ProxyInputStream.beforeRead` left `{@link #beforeRead(int)}` naming a method that no longer
 * exists: javac compiles it, javadoc (doclint) fails. Links of the renamed class's own file, links
 * written `Cls#m`, and only the overload whose parameter types a link names; another class's
 * same-named method keeps its links (real javac with -Xdoclint:reference checks the result).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { runTool, tempDir } from "../support/run.js";
import { copyFixture } from "./rename-helpers.js";

const DIR = "src/org/acme/input";

function javaFiles(root: string, dir = "src"): string[] {
  return readdirSync(join(root, dir)).flatMap((f) => (statSync(join(root, dir, f)).isDirectory() ? javaFiles(root, join(dir, f)) : f.endsWith(".java") ? [join(root, dir, f)] : []));
}

/** javac with doclint's reference checks: a link to a member that does not exist is an error. */
function doclint(root: string): string {
  const r = spawnSync("javac", ["-Xdoclint:reference", "-d", tempDir("javadoc-classes-"), ...javaFiles(root)], { encoding: "utf8" });
  return r.status === 0 ? "" : `${r.stdout}${r.stderr}`;
}

/** Renames the method `name` of `file` declared on `line`. */
async function rename(root: string, file: string, name: string, line: number, to: string): Promise<void> {
  assert.equal((await runTool("magellan", ["index", "--root", root], { cwd: root })).code, 0);
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  const id = d.prepare("SELECT s.symbol_id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name = ? AND s.start_line = ?").pluck().get(`${DIR}/${file}`, name, line) as string;
  d.close();
  const r = await runTool("splice", ["rename", "--symbol-id", id, "--to", to, "--root", root], { cwd: root });
  assert.equal((r.json as { status: string }).status, "ok", r.stdout);
}

const read = (root: string, file: string): string => readFileSync(join(root, DIR, file), "utf8");

it("Java: a method's Javadoc links are renamed with it, not another class's same-named method's", async () => {
  const root = copyFixture("java-javadoc");
  assert.equal(doclint(root), "");
  await rename(root, "ProxyInputStream.java", "beforeRead", 24, "beforeReading");
  assert.match(read(root, "ProxyInputStream.java"), /through \{@link #beforeReading\(int\)\} before a read/);
  assert.doesNotMatch(read(root, "ProxyInputStream.java"), /beforeRead\b/);
  assert.match(read(root, "ThrottledInputStream.java"), /\{@link ProxyInputStream#beforeReading\(int\)\}/);
  assert.match(read(root, "ThrottledInputStream.java"), /protected void beforeReading\(/);
  assert.match(read(root, "ProxyReader.java"), /its own \{@link #beforeRead\(int\)\}/);
  assert.equal(doclint(root), "");
});

it("Java: only the overload whose parameter types a link names", async () => {
  const root = copyFixture("java-javadoc");
  await rename(root, "ProxyInputStream.java", "read", 41, "readPrefix");
  const text = read(root, "ProxyInputStream.java");
  assert.match(text, /@see #readPrefix\(byte\[\], int\)/);
  assert.match(text, /see \{@link #readPrefix\(byte\[\], int\)\} for a prefix/);
  assert.match(text, /\{@link #read\(byte\[\]\)\} reads into all of it/);
  assert.equal(doclint(root), "");
});
