import assert from "node:assert/strict";
import { test } from "node:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, tempDir } from "../support/run.js";
import { checkMatches, type Data, fixtureCopy, names } from "./helpers.js";

async function q(root: string, query: string, lang = "python"): Promise<Data> {
  const r = await runTool("llmastsearch", ["--root", root, "-l", lang, "-q", query]);
  assert.equal(r.code, 0, r.stdout);
  const d = (r.json as { data: Data }).data;
  checkMatches(root, d);
  return d;
}

const DEF = "(function_definition name: (identifier) @n";

test("#eq? and #not-eq? (string and capture operands)", async () => {
  const root = fixtureCopy("langs");
  assert.deepEqual(names(await q(root, `(${DEF}) (#eq? @n "save"))`), "n"), ["save"]);
  assert.deepEqual(names(await q(root, `(${DEF}) (#not-eq? @n "save"))`), "n"), ["__init__", "add", "load"]);
  // self.items = self.items.get(...): an assignment whose two sides start with the same attribute object.
  const d = await q(root, "(assignment left: (subscript value: (attribute) @l) right: (binary_operator left: (call function: (attribute object: (attribute) @r))) (#eq? @l @r))");
  assert.deepEqual(names(d, "l"), ["self.items"]);
});

test("#match? and #not-match? use the regex on the capture's text", async () => {
  const root = fixtureCopy("langs");
  assert.deepEqual(names(await q(root, `(${DEF}) (#match? @n "^_"))`), "n"), ["__init__"]);
  assert.deepEqual(names(await q(root, `(${DEF}) (#not-match? @n "^(_|s)"))`), "n"), ["add", "load"]);
  // Ring as a path segment (Ring::with_capacity) is an identifier; as a type, a type_identifier.
  const ident = await q(root, '((identifier) @i (#match? @i "^R.n"))', "rust");
  assert.deepEqual(ident.matches.map((m) => m.span.start_line), [26]);
  const types = await q(root, '((type_identifier) @i (#match? @i "^R.n"))', "rust");
  assert.deepEqual(types.matches.map((m) => m.span.start_line), [2, 7, 9, 26]);
});

test("#any-of? keeps captures whose text is one of the strings", async () => {
  const root = fixtureCopy("langs");
  assert.deepEqual(names(await q(root, `(${DEF}) (#any-of? @n "add" "load" "missing"))`), "n"), ["add", "load"]);
  assert.deepEqual(names(await q(root, `(${DEF}) (#any-of? @n "missing"))`), "n"), []);
});

test("a .h whose code is C++ is searched with the C++ grammar; a C header with the C grammar", async () => {
  const { mkdirSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { tempDir } = await import("../support/run.js");
  const root = tempDir("llmastsearch-h-");
  mkdirSync(join(root, "inc"));
  writeFileSync(join(root, "inc/shape.h"), "#pragma once\nnamespace geo {\nclass Shape {\n public:\n  double area() const;\n};\n}\n");
  writeFileSync(join(root, "inc/util.h"), "#ifndef UTIL_H\n#define UTIL_H\nint add(int a, int b);\n#endif\n");
  const cpp = await q(root, "(class_specifier name: (type_identifier) @c)", "cpp");
  assert.deepEqual(names(cpp, "c"), ["Shape"]);
  assert.ok(cpp.matches.every((m) => m.span.file_path === "inc/shape.h"));
  const c = await q(root, "(function_declarator declarator: (identifier) @f)", "c");
  assert.deepEqual(names(c, "f"), ["add"]);
});

test("a predicate on a capture that holds no node (a ? part that matched nothing) passes, as in tree-sitter's engine, whatever the predicate", async () => {
  // starlette-shaped: some functions say what they return, some do not. node-tree-sitter kept
  // `startup` for #eq? but dropped it for #match?, #any-of?, #any-eq? and #any-match?; tree-sitter's
  // Rust binding (the CLI's) passes every text predicate on a capture without nodes.
  const root = tempDir("llmastsearch-vacuous-");
  writeFileSync(join(root, "app.py"), "def startup():\n    pass\n\ndef shutdown() -> None:\n    pass\n\ndef url_for(name: str) -> str:\n    return name\n");
  writeFileSync(join(root, "untyped.py"), "def handler(request):\n    return request\n");
  const opt = `${DEF} return_type: (type)? @r`;
  for (const [pred, want] of [
    ['#eq? @r "None"', ["handler", "shutdown", "startup"]],
    ['#match? @r "^None$"', ["handler", "shutdown", "startup"]],
    ['#match? @r "(?i)^none$"', ["handler", "shutdown", "startup"]],
    ['#any-of? @r "None" "int"', ["handler", "shutdown", "startup"]],
    ['#any-eq? @r "None"', ["handler", "shutdown", "startup"]],
    ['#any-match? @r "^None"', ["handler", "shutdown", "startup"]],
    ['#not-eq? @r "None"', ["handler", "startup", "url_for"]],
    ['#not-match? @r "^None$"', ["handler", "startup", "url_for"]],
  ] as const) {
    assert.deepEqual(names(await q(root, `${opt} (${pred}))`), "n").sort(), want, pred);
  }
  // Where the capture holds a node in every match, the predicate decides as before.
  assert.deepEqual(names(await q(root, `${DEF} return_type: (type) @r (#match? @r "^None$"))`), "n"), ["shutdown"]);
  // Between two captures it passes only when both hold no node: one without a node fails it,
  // positive or negative (the binding's `nodes_1.next().is_none() && nodes_2.next().is_none()`).
  writeFileSync(join(root, "shadow.py"), "def str(x) -> str:\n    return x\n");
  assert.deepEqual(names(await q(root, `${opt} (#eq? @n @r))`), "n").sort(), ["str"]);
  assert.deepEqual(names(await q(root, `${opt} (#not-eq? @n @r))`), "n").sort(), ["shutdown", "url_for"]);
});
