import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { AstPayload, AstQueryPayload, SymbolsPayload } from "../../src/contract/tools/codeintel.js";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

const LANGS = join(REPO_ROOT, "test", "fixtures", "llmastsearch", "langs");

interface Env<T> {
  tool: string;
  command: string;
  partial: boolean;
  data: T;
  diagnostics?: { code: string; level: string; message: string }[];
}

function plainCopy(): string {
  const dir = tempDir("codeintel-");
  cpSync(LANGS, dir, { recursive: true });
  return dir;
}

const sha = (s: string): string => createHash("sha256").update(s, "utf8").digest("hex");

/** 1-based (line, col) of a byte offset, computed here independently. */
function pos1(bytes: Buffer, offset: number): [number, number] {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line += 1;
      start = i + 1;
    }
  }
  return [line, offset - start + 1];
}

/** Byte offset of a 1-based (line, col). */
function offsetOf(bytes: Buffer, line: number, col: number): number {
  let l = 1;
  let i = 0;
  while (l < line) if (bytes[i++] === 0x0a) l++;
  return i + col - 1;
}

const SCHEMA = (name: string) => ({ name, version: 1, compatible: { min: 1, max: 1 } });

test("magellan symbols: docdex.symbols for every language of the registry, v1 symbol ids", async () => {
  const root = plainCopy();
  const expected: Record<string, string[]> = {
    "lib.rs": ["struct:Ring", "method:with_capacity", "method:push", "function:main"],
    "app.py": ["class:Inventory", "method:add", "method:save", "function:load"],
    "util.c": ["function:clamp", "function:count_char"],
    "shapes.cpp": ["class:Circle", "method:area", "function:total"],
    "Greeter.java": ["class:Greeter", "method:greet", "method:main"],
    "server.js": ["function:route", "function:dispatch"],
    "store.ts": ["interface:Entry", "class:Store", "method:set", "method:get", "function:makeStore"],
    "Button.tsx": ["function:Button", "function:App"],
    "main.go": ["struct:Point", "method:Add", "function:main"],
  };
  const repo = sha(`path:${root}`);
  for (const [file, wanted] of Object.entries(expected)) {
    const r = await runTool("magellan", ["symbols", "--file", file, "--root", root]);
    assert.equal(r.code, 0, r.stdout);
    const env = r.json as Env<SymbolsPayload>;
    assert.equal(env.command, "symbols");
    const d = env.data;
    assert.deepEqual(d.schema, SCHEMA("docdex.symbols"));
    assert.equal(d.repo_id, repo, "outside git: sha256 of path:<absolute root>");
    assert.equal(d.file, file);
    assert.deepEqual(d.outcome, { status: "ok" });
    const got = d.symbols.map((s) => `${s.kind}:${s.name}`);
    for (const w of wanted) assert.ok(got.includes(w), `${file}: ${w} in ${got.join(", ")}`);
    const bytes = readFileSync(join(root, file));
    for (const s of d.symbols) {
      const { start_line, start_col, end_line, end_col } = s.range;
      assert.equal(s.symbol_id, `${repo}:${file}#${start_line}:${start_col}-${end_line}:${end_col}:${s.kind}:${s.name}`);
      const text = bytes.subarray(offsetOf(bytes, start_line, start_col), offsetOf(bytes, end_line, end_col)).toString("utf8");
      assert.ok(text.includes(s.name), `${file}: the range of ${s.name} holds its name: ${text}`);
    }
    assert.equal(new Set(d.symbols.map((s) => s.symbol_id)).size, d.symbols.length);
  }
});

test("a file that defines no symbol says so (a header of prototypes, an empty module)", async () => {
  const root = plainCopy();
  writeFileSync(join(root, "protos.h"), "int g(int);\n");
  writeFileSync(join(root, "empty.py"), "");
  for (const file of ["protos.h", "empty.py"]) {
    const r = await runTool("magellan", ["symbols", "--file", file, "--root", root]);
    assert.equal(r.code, 0, r.stdout);
    const env = r.json as Env<SymbolsPayload> & { diagnostics?: { level: string; code: string; message: string }[] };
    assert.deepEqual(env.data.symbols, []);
    assert.ok(env.diagnostics?.some((d) => d.level === "note" && d.code === "MAGELLAN_E110" && /defines no symbol/.test(d.message)), r.stdout);
  }
});

test("repo_id inside git is the root commit's, so two clones agree", async () => {
  const root = plainCopy();
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" }).trim();
  git(root, "init", "-q");
  git(root, "add", ".");
  git(root, "commit", "-qm", "first");
  writeFileSync(join(root, "extra.py"), "def extra():\n    pass\n");
  git(root, "add", ".");
  git(root, "commit", "-qm", "second");
  const first = git(root, "rev-list", "--max-parents=0", "HEAD");
  const clone = tempDir("codeintel-clone-");
  git(clone, "clone", "-q", root, "c");
  const a = (await runTool("magellan", ["symbols", "--file", "app.py", "--root", root])).json as Env<SymbolsPayload>;
  const b = (await runTool("magellan", ["symbols", "--file", "app.py", "--root", join(clone, "c")])).json as Env<SymbolsPayload>;
  assert.equal(a.data.repo_id, sha(`git:${first}`));
  assert.equal(b.data.repo_id, a.data.repo_id);
  assert.deepEqual(b.data.symbols, a.data.symbols);
});

test("magellan symbols: outcomes for unsupported, binary and broken files; errors for bad paths", async () => {
  const root = plainCopy();
  writeFileSync(join(root, "README.md"), "# hi\n");
  writeFileSync(join(root, "blob.rs"), Buffer.from([0x66, 0x00, 0x6e]));
  writeFileSync(join(root, "broken.py"), "def ok():\n    return 1\n\ndef broken(:\n");
  // cwd is the root: a relative --file is taken from the current directory first.
  let r = await runTool("magellan", ["symbols", "--file", "README.md", "--root", root], { cwd: root });
  assert.equal(r.code, 0);
  let env = r.json as Env<SymbolsPayload>;
  assert.deepEqual(env.data.outcome, { status: "skipped", reason: "unsupported_language" });
  assert.deepEqual(env.data.symbols, []);
  assert.ok(env.diagnostics?.some((d) => /unsupported_language/.test(d.message)), "empty says why");
  r = await runTool("magellan", ["symbols", "--file", "blob.rs", "--root", root], { cwd: root });
  env = r.json as Env<SymbolsPayload>;
  assert.equal(env.data.outcome?.status, "skipped");
  assert.equal(env.data.outcome?.reason, "binary_file");
  r = await runTool("magellan", ["symbols", "--file", "broken.py", "--root", root], { cwd: root });
  env = r.json as Env<SymbolsPayload>;
  assert.equal(env.data.outcome?.status, "ok");
  assert.equal(env.data.outcome?.reason, "syntax_errors");
  assert.ok(env.data.symbols.some((s) => s.name === "ok"));
  // A C header's extern "C" guards trip a plain parse, not extraction's: its symbols are read
  // from a tree without errors, and the outcome says so (as magellan index does).
  writeFileSync(join(root, "guarded.h"), '#ifdef __cplusplus\nextern "C" {\n#endif\nint guarded_total;\n#ifdef __cplusplus\n}\n#endif\n');
  r = await runTool("magellan", ["symbols", "--file", "guarded.h", "--root", root], { cwd: root });
  env = r.json as Env<SymbolsPayload>;
  assert.deepEqual(env.data.outcome, { status: "ok" });
  assert.deepEqual(env.data.symbols.map((s) => s.name), ["guarded_total"]);
  // Beyond a work budget: skipped with the index's reason and where, not "could not be parsed".
  writeFileSync(join(root, "deep.py"), Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}def f${i}():\n`).join("") + `${" ".repeat(300)}return 1\n`);
  r = await runTool("magellan", ["symbols", "--file", "deep.py", "--root", root], { cwd: root });
  env = r.json as Env<SymbolsPayload>;
  assert.deepEqual(env.data.outcome, { status: "skipped", reason: "too_large_to_index", error_summary: "definitions nested more than 256 deep (line 257)" });
  assert.ok(env.diagnostics?.some((d) => d.level === "warning" && /too_large_to_index/.test(d.message)));
  // A parse past its time budget is skipped with the same reason.
  writeFileSync(join(root, "slow.ts"), `export interface Overloads {\n${"  a: B\n  <K>(k: K): K\n".repeat(8000)}}\n`);
  r = await runTool("magellan", ["symbols", "--file", "slow.ts", "--root", root], { cwd: root, env: { MAGELLAN_MAX_PARSE_SECONDS: "0.5" } });
  env = r.json as Env<SymbolsPayload>;
  assert.equal(env.data.outcome?.status, "skipped");
  assert.equal(env.data.outcome?.reason, "too_large_to_index");
  assert.match(env.data.outcome?.error_summary ?? "", /tree-sitter took more than 0\.5 s/);
  // The AST payloads read the same file through the same budget.
  r = await runTool("magellan", ["ast", "--file", "slow.ts", "--root", root], { cwd: root, env: { MAGELLAN_MAX_PARSE_SECONDS: "0.5" } });
  assert.deepEqual((r.json as Env<{ outcome?: unknown }>).data.outcome, { status: "skipped", reason: "too_large_to_index", error_summary: "tree-sitter took more than 0.5 s to parse it (MAGELLAN_MAX_PARSE_SECONDS): error recovery on text it cannot read" });
  r = await runTool("magellan", ["symbols", "--file", "nope.rs", "--root", root], { cwd: root });
  assert.equal(r.code, 1);
  assert.equal((r.json as Env<{ code: string }>).data.code, "MAGELLAN_E002");
  r = await runTool("magellan", ["symbols", "--file", "../../../etc/passwd", "--root", root]);
  assert.equal(r.code, 2);
  assert.equal((r.json as Env<{ code: string }>).data.code, "MAGELLAN_E001");
});

test("magellan ast: pre-order ids, parents, fields, names, 1-based ranges; --max-nodes truncates and clamps", async () => {
  const root = plainCopy();
  const file = "lib.rs";
  const bytes = readFileSync(join(root, file));
  const r = await runTool("magellan", ["ast", "--file", file, "--root", root, "--max-nodes", "200000"]);
  assert.equal(r.code, 0, r.stdout.slice(0, 500));
  const d = (r.json as Env<AstPayload>).data;
  assert.deepEqual(d.schema, SCHEMA("docdex.ast"));
  assert.equal(d.language, "rust");
  assert.equal(d.truncated, false);
  assert.equal(d.total_nodes, d.nodes.length);
  const byId = new Map(d.nodes.map((n) => [n.id, n]));
  assert.deepEqual(d.nodes.map((n) => n.id), d.nodes.map((_, i) => i), "ids are the pre-order index");
  assert.equal(d.nodes[0]?.kind, "source_file");
  assert.equal(d.nodes[0]?.parent_id, undefined);
  for (const n of d.nodes.slice(1)) {
    const p = byId.get(n.parent_id as number);
    assert.ok(p && p.id < n.id, "a parent comes before its children");
    const start = offsetOf(bytes, n.range.start_line, n.range.start_col);
    const end = offsetOf(bytes, n.range.end_line, n.range.end_col);
    // The byte offsets beside the 1-based range name the same bytes.
    assert.deepEqual([n.byte_start, n.byte_end], [start, end]);
    assert.ok(offsetOf(bytes, p.range.start_line, p.range.start_col) <= start && end <= offsetOf(bytes, p.range.end_line, p.range.end_col));
  }
  const push = d.nodes.find((n) => n.kind === "function_item" && n.name === "push");
  assert.ok(push, "function_item named push");
  const pushName = d.nodes.find((n) => n.parent_id === push.id && n.field === "name");
  assert.equal(pushName?.kind, "identifier");
  const at = offsetOf(bytes, pushName.range.start_line, pushName.range.start_col);
  assert.equal(bytes.subarray(at, at + 4).toString(), "push");
  assert.deepEqual([pushName.range.start_line, pushName.range.start_col], pos1(bytes, bytes.indexOf("push(&mut")));
  assert.ok(d.nodes.some((n) => !n.is_named && n.kind === "fn"), "anonymous nodes are listed with is_named false");

  const t = await runTool("magellan", ["ast", "--file", file, "--root", root, "--max-nodes", "10"]);
  assert.equal(t.code, 4, "truncated is partial");
  const td = (t.json as Env<AstPayload>).data;
  assert.equal(td.nodes.length, 10);
  assert.equal(td.total_nodes, d.total_nodes);
  assert.equal(td.truncated, true);
  assert.deepEqual(td.nodes, d.nodes.slice(0, 10));
  const c = await runTool("magellan", ["ast", "--file", file, "--root", root, "--max-nodes", "0"]);
  const cenv = c.json as Env<AstPayload>;
  assert.equal(cenv.data.nodes.length, 1, "0 is clamped to 1");
  assert.ok(cenv.diagnostics?.some((x) => /applied 1/.test(x.message)));
});

test("magellan ast-query: files with the kinds, counts, samples with the ast ids, filters, clamped limits", async () => {
  const root = plainCopy();
  const run = async (...args: string[]) => {
    const r = await runTool("magellan", ["ast-query", "--root", root, ...args]);
    return { code: r.code, env: r.json as Env<AstQueryPayload> };
  };
  let { code, env } = await run("--kinds", "function_declaration,class_declaration");
  assert.equal(code, 0);
  let d = env.data;
  assert.deepEqual(d.schema, SCHEMA("docdex.ast_query"));
  assert.equal(d.repoId, sha(`path:${root}`));
  assert.deepEqual([d.kinds, d.mode, d.limit, d.sampleLimit, d.truncated], [["function_declaration", "class_declaration"], "any", 50, 25, false]);
  assert.deepEqual(d.matches.map((m) => [m.file, m.matchCount]), [["Button.tsx", 2], ["Greeter.java", 1], ["main.go", 1], ["server.js", 2], ["store.ts", 2]]);
  const store = d.matches.find((m) => m.file === "store.ts");
  assert.deepEqual(store?.samples.map((s) => [s.kind, s.name]), [["class_declaration", "Store"], ["function_declaration", "makeStore"]]);
  const ast = (await runTool("magellan", ["ast", "--root", root, "--file", "store.ts", "--max-nodes", "100000"])).json as Env<AstPayload>;
  for (const s of store?.samples ?? []) assert.deepEqual(ast.data.nodes[s.id], s, "a sample is the ast node of the same id");

  ({ env } = await run("--kinds", "class_declaration,function_declaration", "--mode", "all"));
  assert.deepEqual(env.data.matches.map((m) => m.file), ["store.ts"]);
  ({ env } = await run("--kinds", "function_declaration", "--name", "main"));
  assert.deepEqual(env.data.matches.map((m) => m.file), ["main.go"]);
  assert.equal(env.data.name, "main");
  ({ env } = await run("--kinds", "identifier", "--field", "name", "--path-prefix", "app"));
  assert.deepEqual(env.data.matches.map((m) => [m.file, m.samples.map((s) => s.name).join(",")]), [["app.py", "Inventory,__init__,add,qty,save,load"]]);
  assert.equal(env.data.field, "name");
  assert.equal(env.data.pathPrefix, "app");

  ({ code, env } = await run("--kinds", "identifier", "--limit", "2", "--sample-limit", "1"));
  assert.equal(code, 4, "truncated by --limit is partial");
  assert.equal(env.partial, true);
  d = env.data;
  assert.equal(d.truncated, true);
  assert.equal(d.matches.length, 2);
  assert.ok(d.matches.every((m) => m.samples.length === 1 && m.matchCount > 1));
  ({ env } = await run("--kinds", "identifier", "--limit", "0", "--sample-limit", "100000"));
  assert.deepEqual([env.data.limit, env.data.sampleLimit], [1, 500], "out-of-range limits are clamped and reported");
  assert.equal(env.diagnostics?.filter((x) => /applied/.test(x.message)).length, 2);
  ({ code, env } = await run("--kinds", "no_such_kind"));
  assert.equal(code, 0);
  assert.deepEqual(env.data.matches, []);
  assert.ok(env.diagnostics?.some((x) => /no node of kind no_such_kind/.test(x.message)));
  assert.ok(env.diagnostics?.some((x) => x.code === "MAGELLAN_W182" && /no_such_kind/.test(x.message)), "an unknown kind is named");
  ({ code } = await run("--kinds", "x", "--mode", "some"));
  assert.equal(code, 2);
});

test("a node tree-sitter inserted to recover (a missing `;`) is marked is_missing; ast-query counts it as MISSING, not as its kind", async () => {
  const root = tempDir("codeintel-missing-");
  // The shape of a forgotten `;` after a return, and of a real one two lines down.
  writeFileSync(join(root, "m.c"), "int f(void) {\n  return 1\n}\n\nint g(void) {\n  return 2;\n}\n");
  const r = await runTool("magellan", ["ast", "--file", "m.c", "--root", root]);
  assert.equal(r.code, 0, r.stdout.slice(0, 500));
  const d = (r.json as Env<AstPayload>).data;
  assert.equal(d.outcome?.reason, "syntax_errors");
  assert.match(d.outcome?.error_summary ?? "", /is_missing/);
  const missing = d.nodes.filter((n) => n.is_missing === true);
  assert.deepEqual(missing.map((n) => [n.kind, n.range.start_line, n.byte_start === n.byte_end]), [[";", 2, true]]);
  assert.ok(d.nodes.filter((n) => n.kind === ";" && n.is_missing === undefined).length === 1, "the real `;` carries no is_missing");
  const run = async (...args: string[]) => (await runTool("magellan", ["ast-query", "--root", root, ...args])).json as Env<AstQueryPayload>;
  const semi = await run("--kinds", ";");
  assert.deepEqual(semi.data.matches.map((m) => [m.file, m.matchCount, m.samples.map((s) => s.range.start_line)]), [["m.c", 1, [6]]]);
  const q = await run("--kinds", "MISSING");
  assert.ok(!q.diagnostics?.some((x) => x.code === "MAGELLAN_W182"), JSON.stringify(q.diagnostics));
  assert.deepEqual(q.data.matches.map((m) => [m.file, m.matchCount]), [["m.c", 1]]);
  assert.deepEqual(q.data.matches[0]?.samples, missing, "a sample is the ast node of the same id");
});

test("symbols of a .h: a C++ header is read with the C++ grammar (its class is found), a C header with C", async () => {
  const root = tempDir("codeintel-h-");
  writeFileSync(join(root, "shape.h"), "#pragma once\nnamespace geo {\nclass Shape {\n public:\n  double area() const;\n};\n}\n");
  writeFileSync(join(root, "util.h"), "#ifndef UTIL_H\n#define UTIL_H\nstruct pair { int a; int b; };\n#endif\n");
  const cpp = (await runTool("magellan", ["symbols", "--file", "shape.h", "--root", root])).json as Env<SymbolsPayload>;
  assert.deepEqual(cpp.data.outcome, { status: "ok" });
  assert.ok(cpp.data.symbols.some((s) => s.kind === "class" && s.name === "Shape"), JSON.stringify(cpp.data.symbols));
  const c = (await runTool("magellan", ["symbols", "--file", "util.h", "--root", root])).json as Env<SymbolsPayload>;
  assert.deepEqual(c.data.outcome, { status: "ok" });
  assert.ok(c.data.symbols.some((s) => s.kind === "struct" && s.name === "pair"), JSON.stringify(c.data.symbols));
});
