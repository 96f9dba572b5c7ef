/**
 * Java overloads of one arity, which magellan's index (the Java rename engine) cannot tell apart:
 * it does not read parameter types. Renaming `Out.put(int)` beside `Out.put(long)` renamed the
 * declaration only and kept `o.put(7)`, which then called put(long): javac compiled it, the result
 * said validated, the program printed another line. And renaming gson's `JsonWriter.value(float)`
 * took all seven `value(…)` of its subclass as overrides. Real javac runs the programs.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { runTool, tempDir } from "../support/run.js";

const DIR = "src/main/java/p";

function project(files: Record<string, string>): string {
  const root = tempDir("splice-java-overloads-");
  execFileSync("git", ["init", "-q", root]);
  mkdirSync(join(root, DIR), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, DIR, name), text);
  return root;
}

/** Compiles and runs p.Use; its output. */
function run(root: string, files: string[]): string {
  const out = tempDir("splice-java-overloads-classes-");
  execFileSync("javac", ["-d", out, ...files.map((f) => join(root, DIR, f))]);
  return spawnSync("java", ["-cp", out, "p.Use"], { encoding: "utf8" }).stdout;
}

async function idOf(root: string, file: string, line: number): Promise<string> {
  assert.equal((await runTool("magellan", ["index", "--root", root], { cwd: root })).code, 0);
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  const id = d.prepare("SELECT s.symbol_id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name_start_line = ?").pluck().get(`${DIR}/${file}`, line) as string;
  d.close();
  return id;
}

const OUT = `package p;

public class Out {
  public void put(long v) {
    System.out.println("long " + v);
  }

  public void put(int v) {
    System.out.println("int " + v);
  }
}
`;
const USE = `package p;

public class Use {
  public static void main(String[] args) {
    Out o = new Out();
    o.put(7);
  }
}
`;

it("Java: renaming one overload does not keep a call its argument count fits without a word: refused (SPLICE_E203) naming it, renamed with --allow-heuristic", async () => {
  const root = project({ "Out.java": OUT, "Use.java": USE });
  assert.equal(run(root, ["Out.java", "Use.java"]), "int 7\n");
  const id = await idOf(root, "Out.java", 8);
  const r = await runTool("splice", ["rename", "--symbol-id", id, "--to", "putInt", "--root", root], { cwd: root });
  assert.equal(r.code, 1, r.stdout);
  const err = (r.json as { error: { code: string; message: string } }).error;
  assert.equal(err.code, "SPLICE_E203");
  assert.match(err.message, /src\/main\/java\/p\/Use\.java:6\b/);
  assert.equal(readFileSync(join(root, DIR, "Out.java"), "utf8"), OUT, "nothing written");
  const ok = await runTool("splice", ["rename", "--symbol-id", id, "--to", "putInt", "--allow-heuristic", "--root", root], { cwd: root });
  assert.equal(ok.code, 0, ok.stdout);
  assert.match(readFileSync(join(root, DIR, "Use.java"), "utf8"), /o\.putInt\(7\);/);
  assert.equal(run(root, ["Out.java", "Use.java"]), "int 7\n", "the program does what it did");
});

it("Java: a method is renamed with the override of its own parameter types, not the subclass's other overloads of its arity", async () => {
  const sub = `package p;

public class Sub extends Out {
  @Override
  public void put(long v) {
    System.out.println("sub long " + v);
  }

  @Override
  public void put(int v) {
    System.out.println("sub int " + v);
  }
}
`;
  const use = USE.replace("Out o = new Out();", "Out o = new Sub();").replace("o.put(7);", "o.put(7L);");
  const root = project({ "Out.java": OUT, "Sub.java": sub, "Use.java": use });
  assert.equal(run(root, ["Out.java", "Sub.java", "Use.java"]), "sub long 7\n");
  const id = await idOf(root, "Out.java", 4);
  // o.put(7L) is tied by name to one of the overloads: --allow-heuristic takes it, and javac
  // checks that it was put(long)'s.
  const r = await runTool("splice", ["rename", "--symbol-id", id, "--to", "putLong", "--allow-heuristic", "--root", root], { cwd: root });
  assert.equal(r.code, 0, r.stdout);
  const text = readFileSync(join(root, DIR, "Sub.java"), "utf8");
  assert.match(text, /public void putLong\(long v\)/);
  assert.match(text, /public void put\(int v\)/, "the other overload is no override of put(long)");
  assert.match(JSON.stringify(r.json), /renamed with the methods of the same name it overrides or that override it: src\/main\/java\/p\/Sub\.java:4 Sub\.put/);
  assert.equal(run(root, ["Out.java", "Sub.java", "Use.java"]), "sub long 7\n");
});
