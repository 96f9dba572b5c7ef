/**
 * A parameter or local variable named like an outer symbol is not that symbol: its reads and
 * writes are the local's, and are not kept as references (before, `int count = 3; return count;`
 * inside a function was an `exact` write and read of the file's global `count`). Uses of the outer
 * name before a positional declaration (C, Java, Go, Rust), Python's `global`, a destructuring
 * default value and a call through a local (a dynamic call, which dead-code counts) stay. Real
 * tree-sitter, real SQLite.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

const TREE: Record<string, string> = {
  "a.ts": "export let count = 0;\nexport function run(n: number) {\n  const count = n;\n  const { total = count } = {};\n  const twice = (x: number) => 2 * x;\n  return [count + total].map(twice);\n}\nexport function bump(count: number) {\n  return count;\n}\nexport function outer() {\n  return count;\n}\n",
  "b.js": "let count = 0;\nfunction run([count, rest]) {\n  return count + rest;\n}\nfunction pick(handler) {\n  return handler();\n}\nfunction hoisted() {\n  if (count) {\n    var count = 2;\n  }\n  return count;\n}\nmodule.exports = { run, pick, hoisted, get: () => count };\n",
  "c.py": "count = 0\n\ndef run(n):\n    count = n\n    return count\n\ndef bump():\n    global count\n    count += 1\n\ndef squares(xs):\n    return [count * x for count in xs]\n\ndef as_view(decorator):\n    def view():\n        return 1\n    view = decorator(view)\n    return view\n\ndef defaults(count=count):\n    return count\n\ndef matcher(x):\n    match x:\n        case [count, *rest]:\n            return count\n        case {'k': count} as whole:\n            return count, whole\n",
  "d.go": "package main\n\nvar count = 0\n\nfunc run(n int) int {\n\tprintln(count)\n\tcount := count + n\n\treturn count\n}\n\nfunc again() int {\n\tvar count = count * 2\n\treturn count\n}\n\nfunc kind(x interface{}) int {\n\tswitch count := count.(type) {\n\tcase int:\n\t\treturn count\n\t}\n\treturn count.(int)\n}\n\nfunc recv(ch chan int) int {\n\tselect {\n\tcase count := <-ch:\n\t\treturn count\n\t}\n\treturn count\n}\n",
  "e.c": "int count = 0;\nint run(int n) {\n  n = count;\n  int count = n;\n  return count;\n}\n",
  "h.cpp": "int count = 0;\nint run() {\n  int count = 1;\n  struct Local { int count; };\n  return count;\n}\nint pairs() {\n  auto [count, b] = pair();\n  return count + b;\n}\n",
  "f.java": "class F {\n  int count = 0;\n  int run(int n) {\n    int a = count;\n    int count = n;\n    return count + a;\n  }\n  int kind(Object o) {\n    if (!(o instanceof Integer count)) return 0;\n    return count;\n  }\n  int shape(Object o) {\n    return switch (o) { case Integer count -> count; case P(int count, int y) -> count + y; default -> count; };\n  }\n}\n",
  "g.rs": "static count: i32 = 0;\nfn run(n: i32) -> i32 {\n    let count = count + n;\n    count\n}\nfn pick(x: Option<i32>) -> i32 {\n    if let Some(count) = x {\n        return count;\n    }\n    match x {\n        Some(count) => count,\n        None => count,\n    }\n}\n",
};

/** Each reference named `count`: file, line, kind, resolution, and where it points. */
function countRefs(root: string): string[] {
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    return (
      d
        .prepare(
          `SELECT f.path || ':' || r.start_line || ' ' || r.kind || ' ' || r.resolution || ' ' || coalesce(t.display_fqn, '-') FROM refs r JOIN files f ON f.id = r.file_id
           LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE r.name = 'count' AND r.qualifier IS NULL ORDER BY f.path, r.byte_start`,
        )
        .pluck()
        .all() as string[]
    );
  } finally {
    d.close();
  }
}

it("the uses of a local or a parameter are not taken for an outer symbol's, in every language", async () => {
  const root = writeTree(tempDir("magellan-locals-"), TREE);
  const r = await mg(root, ["index"]);
  assert.equal(r.r.code, 0, r.r.stdout);
  assert.deepEqual(countRefs(root), [
    // In run() and bump(), count is the local or the parameter (the destructuring default on line 4
    // reads the local); outer() reads the module's.
    "a.ts:12 read exact a.count",
    // hoisted()'s `var count` is the function's, in the if's condition and after the block too.
    "b.js:14 read exact b.count",
    // `global count` names the module's variable: bump() writes it.
    "c.py:8 read exact c.count",
    "c.py:9 write exact c.count",
    // A parameter's default value is evaluated outside the function: the module's count.
    "c.py:20 read exact c.count",
    // (matcher()'s `case` captures bind count in the function: no entry.)
    // Before `count :=`, and on its right side, count is still the package's.
    "d.go:6 read exact count",
    "d.go:7 read exact count",
    // `var count = count * 2`: the right side is the package's too (the scope starts after the spec).
    "d.go:12 read exact count",
    // A type switch's `count :=` binds in its cases; the switched value and what follows the switch are the package's.
    "d.go:17 read exact count",
    "d.go:21 read exact count",
    // A select case's `count := <-ch` is the case's; after the select, the package's.
    "d.go:29 read exact count",
    // C: before the declaration, the global; in `int count = n;` and after, the local.
    "e.c:3 read exact e.count",
    // Java: the field before the local that hides it.
    "f.java:4 read exact F.count",
    // Pattern variables (instanceof, switch type and record patterns) are locals; the default arm reads the field.
    "f.java:13 read exact F.count",
    // Rust: `let count = count + n` reads the static on its right side.
    "g.rs:3 read exact crate::g::count",
    // `if let` and match-arm bindings are locals of their arm; `None => count` reads the static.
    "g.rs:12 read exact crate::g::count",
  ]);
  // A call through a parameter is the parameter's too: not an edge to anything the graph holds
  // (it was resolved `exact` to a top-level function of the same name).
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    assert.equal(d.prepare("SELECT count(*) FROM refs WHERE name = 'handler' AND kind = 'call'").pluck().get(), 0);
    // A local function is a symbol: passing it on is a reference to it.
    assert.equal(d.prepare("SELECT count(*) FROM refs r JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE r.name = 'twice' AND r.kind = 'read' AND t.name = 'twice'").pluck().get(), 1);
    // A nested function later rebound (flask's View.as_view): its uses still reach it.
    assert.equal(d.prepare("SELECT count(*) FROM refs r JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE r.name = 'view' AND t.name = 'view'").pluck().get(), 3);
    // A name bound by destructuring is a local too.
    assert.equal(d.prepare("SELECT count(*) FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = 'a.ts' AND r.name = 'total'").pluck().get(), 0);
  } finally {
    d.close();
  }
  // A local struct's field named like the function's local (h.cpp) does not undo the local: h.cpp has no entry above.
  // refs of the global say what really uses it.
  const refs = await mg(root, ["refs", "--name", "count", "--path", "e.c"]);
  assert.deepEqual((refs.env.data.references as { span: { start_line: number } }[]).map((x) => x.span.start_line), [3]);
});

it("a call through a parameter or a local function value is not a call of the top-level function of that name", async () => {
  // Each file defines `handler` and calls it once directly (the last line); every other call goes
  // through a parameter, a loop or `with`/`except` variable, or a local holding a function value.
  const root = writeTree(tempDir("magellan-local-calls-"), {
    "s.py": "def handler():\n    return 2\n\ndef param(handler):\n    handler()\n\ndef loop():\n    for handler in range(3):\n        handler()\n\ndef w():\n    with ctx() as handler:\n        handler()\n\nhandler()\n",
    "t.ts": "export function handler() {\n  return 1;\n}\nexport function p(handler: () => number) {\n  return handler();\n}\nexport function l() {\n  const handler = () => 3;\n  return handler();\n}\nhandler();\n",
    "g.go": "package main\n\nfunc handler() int { return 1 }\n\nfunc p(handler func() int) int { return handler() }\n\nfunc l() int {\n\thandler := func() int { return 2 }\n\treturn handler()\n}\n\nfunc main() { handler() }\n",
    "r.rs": "fn handler() -> i32 { 1 }\nfn p(handler: fn() -> i32) -> i32 { handler() }\nfn l() -> i32 {\n    let handler = || 3;\n    handler()\n}\nfn main() { handler(); }\n",
    "c.c": "int handler(void) { return 1; }\nint p(int (*handler)(void)) { return handler(); }\nint q(void) { int (*handler)(void) = 0; return handler(); }\nint main(void) { return handler(); }\n",
    // Java calls only methods: a parameter or local named `handler` hides no method of that name
    // (commons-lang's `final int distance = distance(a, b)` and `format(...)` beside a parameter `format`).
    "J.java": "class J {\n  int handler(int n) { return n; }\n  int p(int handler) { return handler(handler); }\n  int q() { int handler = handler(1); return handler; }\n}\n",
  });
  const r = await mg(root, ["index"]);
  assert.equal(r.r.code, 0, r.r.stdout);
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    const calls = d
      .prepare(
        `SELECT f.path || ':' || r.start_line || ' ' || r.resolution || ' ' || coalesce(t.display_fqn, '-') FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE r.name = 'handler' ORDER BY f.path, r.byte_start`,
      )
      .pluck()
      .all();
    // A local function that is a symbol (TypeScript's `const handler = () => 3`) is what its call reaches.
    assert.deepEqual(calls, ["J.java:3 exact J.handler", "J.java:4 exact J.handler", "c.c:4 exact c.handler", "g.go:12 exact handler", "r.rs:7 exact crate::r::handler", "s.py:15 exact s.handler", "t.ts:9 exact t.l.handler", "t.ts:11 exact t.handler"]);
  } finally {
    d.close();
  }
});
