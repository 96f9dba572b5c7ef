/**
 * The splice bin as a user runs it: the line of issue 15 exactly as written on a Rust crate
 * (cargo check validates), a JSON request on stdin, a batch plan in YAML, apply-files that
 * leaves comments and strings alone, usage errors with exit 2. Every stdout is checked
 * against the contract by runTool.
 */
import assert from "node:assert/strict";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { SpliceUndoResultSchema } from "../../src/contract/tools/splice.js";
import { runTool, tempDir } from "../support/run.js";
import { project, read } from "./helpers.js";

interface Env {
  status: string;
  message: string;
  result?: { validation: string; written: boolean; checkers: { checker: string; status: string }[]; files: { file_path: string }[]; operation_id?: string; diff?: string };
  error?: { code: string };
}

test("splice patch --file src/lib.rs --symbol function_name --with new_impl.rs (cargo check validates; undo restores)", async () => {
  const dir = project("rust");
  const before = read(dir, "src/lib.rs");
  const r = await runTool("splice", ["patch", "--file", "src/lib.rs", "--symbol", "function_name", "--with", "new_impl.rs"], { cwd: dir });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const env = r.json as Env;
  assert.equal(env.result?.validation, "validated");
  assert.equal(env.result?.checkers[0]?.status, "ran");
  assert.match(env.result?.checkers[0]?.checker ?? "", /^cargo check/);
  assert.equal(read(dir, "src/lib.rs"), before.replace(/\/\/\/ Counts how often[\s\S]*?\n}\n/, read(dir, "new_impl.rs")));
  const magellan = await runTool("magellan", ["find", "--name", "function_name"], { cwd: dir });
  assert.equal(magellan.code, 0);
  const found = (magellan.json as { data: { matches: { span: { file_path: string; start_line: number } }[] } }).data.matches.find((m) => m.span.file_path === "src/lib.rs");
  assert.equal(found?.span.start_line, 7, "the index sees the patched file (the function moved up two lines)");
  const undo = await runTool("splice", ["undo", "--last"], { cwd: dir });
  assert.equal(undo.code, 0, undo.stdout);
  assert.equal(read(dir, "src/lib.rs"), before);
  // Files are named by file_path, as in every other result of the contract.
  const undone = SpliceUndoResultSchema.parse((undo.json as { result: unknown }).result);
  assert.deepEqual(undone.files.map((f) => f.file_path), ["src/lib.rs"]);
});

test("--json request on stdin, a YAML batch plan, apply-files skipping comments and strings, usage errors", async () => {
  const dir = project("ts");
  const json = await runTool("splice", ["edit", "--json", "--dry-run"], { cwd: dir, input: JSON.stringify({ file: "src/format.ts", old: "return 42;", new: "return 7;" }) });
  assert.equal(json.code, 0, json.stdout);
  assert.match((json.json as Env).result?.diff ?? "", /\+ {2}return 7;/);
  assert.match(read(dir, "src/format.ts"), /return 42;/);
  writeFileSync(join(dir, "plan.yaml"), "steps:\n  - command: apply-files\n    glob: 'src/**/*.ts'\n    find: lines\n    replace: rows\n  - command: edit\n    file: src/format.ts\n    old: 'return 42;'\n    new: 'return 43;'\n");
  const batch = await runTool("splice", ["batch", "--plan", "plan.yaml"], { cwd: dir });
  assert.equal(batch.code, 0, batch.stdout);
  const cart = read(dir, "src/cart.ts");
  assert.match(cart, /private readonly rows: Line\[\] = \[\];/);
  assert.match(cart, /`\$\{this\.rows\.length\} lines, /, "code inside a template substitution changes, the template's text stays");
  assert.match(cart, /\/\*\* Adds a line, merging with an existing line of the same SKU\. \*\//, "comments stay");
  assert.match(read(dir, "src/format.ts"), /return 43;/);
  const bad = await runTool("splice", ["insert", "--file", "src/cart.ts", "--content", "x"], { cwd: dir });
  assert.equal(bad.code, 2);
  assert.equal((bad.json as Env).error?.code, "SPLICE_E000");
  const outside = await runTool("splice", ["edit", "--file", "../x.ts", "--old", "a", "--new", "b"], { cwd: dir });
  assert.equal(outside.code, 2);
  assert.equal((outside.json as Env).error?.code, "SPLICE_E001");
});

test("apply-files leaves regex literals alone, and says so when --find matched no code", async () => {
  const dir = project("ts");
  writeFileSync(join(dir, "src/sku.ts"), "export const SKU = /lines-\\d+/g;\nexport const lines = 3;\n");
  const r = await runTool("splice", ["apply-files", "--glob", "src/sku.ts", "--find", "lines", "--replace", "rows"], { cwd: dir });
  assert.equal(r.code, 0, r.stdout);
  assert.equal(read(dir, "src/sku.ts"), "export const SKU = /lines-\\d+/g;\nexport const rows = 3;\n");
  const none = await runTool("splice", ["apply-files", "--glob", "src/sku.ts", "--find", "lines", "--replace", "rows"], { cwd: dir });
  assert.equal(none.code, 0, none.stdout);
  assert.match((none.json as { message: string }).message, /--find matched no code in the 1 file\(s\) searched/);
});

test("rename across files through the TypeScript language service; the index sees the new name at once", async () => {
  const dir = project("ts");
  const r = await runTool("splice", ["rename", "--file", "src/format.ts", "--symbol", "formatPrice", "--to", "formatEuros"], { cwd: dir });
  assert.equal(r.code, 0, r.stdout);
  const env = r.json as Env & { result: { steps: { engine: string; locations: { file: string; evidence: string }[] }[] } };
  assert.equal(env.result.validation, "validated");
  assert.equal(env.result.steps[0]?.engine, "typescript-language-service");
  assert.deepEqual(env.result.steps[0]?.locations.map((l) => `${l.file}:${l.evidence}`).sort(), ["src/cart.ts:language_server", "src/cart.ts:language_server", "src/format.ts:language_server"]);
  assert.match(read(dir, "src/cart.ts"), /import \{ formatEuros \} from "\.\/format";[\s\S]*formatEuros\(this\.total\(\)\)/);
  const found = await runTool("magellan", ["find", "--name", "formatEuros"], { cwd: dir });
  assert.equal((found.json as { data: { count: number } }).data.count, 1);
});

test("a checker that is absent leaves the change unchecked; --require-checker rejects it and writes nothing", async () => {
  const dir = project("rust");
  const before = read(dir, "src/lib.rs");
  // A PATH with node and no cargo (Debian's cargo is in /usr/bin, so not /usr/bin:/bin).
  const bin = tempDir("splice-no-cargo-");
  symlinkSync(process.execPath, join(bin, "node"));
  const env = { PATH: bin };
  const args = ["edit", "--file", "src/lib.rs", "--old", "self.total += n;", "--new", "self.total += n * 1;"];
  const strict = await runTool("splice", [...args, "--require-checker"], { cwd: dir, env });
  assert.equal(strict.code, 1, strict.stdout);
  assert.equal((strict.json as Env).error?.code, "SPLICE_E111");
  assert.equal(read(dir, "src/lib.rs"), before);
  const lax = await runTool("splice", args, { cwd: dir, env });
  assert.equal(lax.code, 0, lax.stdout);
  assert.equal((lax.json as Env).result?.validation, "unchecked");
  assert.notEqual((lax.json as Env).result?.checkers[0]?.status, "ran");
});

test("rename --json takes its new name from the request alone; without one, the error names the missing field", async () => {
  const dir = project("ts");
  // The request's `to` is enough (commander demanded a --to flag beside it, and ignored its value).
  const json = await runTool("splice", ["rename", "--json", "--dry-run"], { cwd: dir, input: JSON.stringify({ file: "src/format.ts", symbol: "formatPrice", to: "renderPrice" }) });
  assert.equal(json.code, 0, json.stdout);
  assert.match((json.json as Env).result?.diff ?? "", /\+.*renderPrice/);
  const noName = await runTool("splice", ["rename", "--file", "src/format.ts", "--symbol", "formatPrice", "--dry-run"], { cwd: dir });
  assert.equal(noName.code, 2, noName.stdout);
  assert.match((noName.json as Env).message, /--to: required/);
  const badFlag = await runTool("splice", ["rename", "--file", "src/format.ts", "--symbol", "formatPrice", "--to", "x2", "--timeout-ms", "abc"], { cwd: dir });
  assert.equal(badFlag.code, 2, badFlag.stdout);
  assert.match((badFlag.json as Env).message, /--timeout-ms: /);
});

test("a symbol command on a file nested beyond the extraction budget is SPLICE_E118 with the line, not an internal error; edit still works", async () => {
  const dir = tempDir("splice-deep-");
  const deep = Array.from({ length: 300 }, (_, i) => `function f${i}() {\n`).join("") + "}\n".repeat(300);
  writeFileSync(join(dir, "deep.js"), deep);
  const r = await runTool("splice", ["delete", "--file", "deep.js", "--symbol", "f280"], { cwd: dir });
  assert.equal(r.code, 1, r.stdout);
  const e = r.json as Env & { error?: { message: string; remediation?: string } };
  assert.equal(e.error?.code, "SPLICE_E118");
  assert.match(e.error?.message ?? "", /definitions nested more than 256 deep \(line 257\)/);
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.equal(read(dir, "deep.js"), deep);
  const edit = await runTool("splice", ["edit", "--file", "deep.js", "--old", "function f280() {", "--new", "function g280() {"], { cwd: dir });
  assert.equal(edit.code, 0, edit.stdout);
  assert.match(read(dir, "deep.js"), /function g280\(\) \{/);
});

test("a symbol command on a file tree-sitter cannot parse within its time budget is SPLICE_E118 too, and the file is untouched", async () => {
  const dir = tempDir("splice-slow-");
  // tree-sitter's error recovery is quadratic on these (~16 s here): far past half a second.
  const slow = `export interface Overloads {\n${"  a: B\n  <K>(k: K): K\n".repeat(8000)}}\nexport function last() { return 1; }\n`;
  writeFileSync(join(dir, "slow.ts"), slow);
  const started = Date.now();
  const r = await runTool("splice", ["delete", "--file", "slow.ts", "--symbol", "last"], { cwd: dir, env: { MAGELLAN_MAX_PARSE_SECONDS: "0.5" } });
  assert.ok(Date.now() - started < 15_000, "the parse was not stopped");
  assert.equal(r.code, 1, r.stdout);
  const e = r.json as Env & { error?: { message: string } };
  assert.equal(e.error?.code, "SPLICE_E118");
  assert.match(e.error?.message ?? "", /tree-sitter took more than 0\.5 s to parse it/);
  assert.equal(read(dir, "slow.ts"), slow);
});
