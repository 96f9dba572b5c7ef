/**
 * The query files name many nodes below a pattern's root by wildcards pinned down with fields or
 * tokens (`(_ !operator left: right:)` for an assignment, `(_ "*" declarator:)` for a pointer
 * declarator), because tree-sitter compiles those much faster (src/lang/queries). These cases hold
 * the shapes each such wildcard must accept, next to look-alikes it must not: a binary or compound
 * assignment, a template string, a function prototype, a member under ERROR.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { extractFacts } from "../../src/lang/extract.js";
import type { FileFacts } from "../../src/lang/extract-types.js";
import type { LanguageId } from "../../src/lang/registry.js";

function facts(language: LanguageId, source: string): FileFacts {
  return extractFacts(language, Buffer.from(source));
}

/** `kind scope/name`, one per symbol, in document order. */
function symbols(f: FileFacts): string[] {
  return f.symbols.map((s) => `${s.kind} ${[...s.scope, s.name].join("/")}`);
}

function imports(f: FileFacts): string[] {
  return f.imports.map((i) => `${i.source}: ${i.names.map((n) => (n.alias ? `${n.name} as ${n.alias}` : n.name)).join(",")}${i.alias ? ` as ${i.alias}` : ""}`);
}

function refs(f: FileFacts, kind: string): string[] {
  return f.references.filter((r) => r.kind === kind).map((r) => (r.qualifier ? `${r.qualifier}.${r.name}` : r.name));
}

test("TS: assignments of functions are definitions; binary and compound look-alikes are not", () => {
  const f = facts(
    "typescript",
    [
      "X.prototype.m = function () {};",
      "exports.f = () => 1;",
      "g = function () {};",
      "a.b + function () {};",
      "a.c += () => 1;",
      "h(function () {});",
      "i++;",
      "new K(() => 1);",
      "",
    ].join("\n"),
  );
  assert.deepEqual(symbols(f), ["method X/m", "function f", "function g"]);
});

test("TS: a public field holding a function is a method, also where error recovery leaves it under ERROR", () => {
  const f = facts("typescript", "class A {\n  x = () => 1;\n  #p = function () {};\n  y = 2;\n  m() {}\n}\n");
  assert.deepEqual(symbols(f), ["class A", "method A/x", "method A/#p", "field A/y", "method A/m"]);
  const broken = facts("typescript", "class A { x = () => 1\n  foo(: { z = () => 2 }\n");
  assert.ok(broken.has_errors);
  assert.ok(symbols(broken).includes("method x"), symbols(broken).join("; "));
});

test("TS: top-level and exported variables by declaration kind; loop variables are not symbols", () => {
  const f = facts(
    "typescript",
    [
      "const C = 1;",
      "let v = 2;",
      "var w = 3;",
      "export const E = 4;",
      "export let F = 5;",
      "declare const D: number;",
      "namespace N { export const K = 1; }",
      "for (const x of y) {}",
      "type T = { a: string; b(): void };",
      "",
    ].join("\n"),
  );
  assert.deepEqual(symbols(f), [
    "constant C",
    "variable v",
    "variable w",
    "constant E",
    "variable F",
    "constant D",
    "namespace N",
    "constant N/K",
    "type_alias T",
    "field T/a",
    "method T/b",
  ]);
});

test("JS: require and import() with a string literal are imports; a template string or a second argument is not", () => {
  const f = facts(
    "javascript",
    [
      'const x = require("m");',
      "const { a, b: c } = require('n');",
      'require("side");',
      "const t = require(`tpl`);",
      'const u = require("two", 1);',
      'import("dyn");',
      'import d, { e as g } from "es";',
      'export * from "re";',
      "",
    ].join("\n"),
  );
  assert.deepEqual(imports(f), ["m:  as x", "n: a,b as c", "side: ", "dyn: ", "es: default as d,e as g", "re: *"]);
});

test("JS/TS: calls, writes and JSX names through member expressions keep their qualifier", () => {
  const f = facts("tsx", "a.b.c(); new d.E(); f.g = 1; h.i += 2; j(); const X = () => <k.L><M /></k.L>;\n");
  assert.deepEqual(refs(f, "call"), ["a.b.c", "d.E", "j", "k.L", "M"]);
  assert.deepEqual(refs(f, "write"), ["f.g", "h.i"]);
});

test("C: file-scope declarators of every supported shape are variables; prototypes are not", () => {
  const f = facts(
    "c",
    [
      "int a, *b, **c, d[3], e[2][2], *f[2], (*g)(int);",
      "int h = 1, *i = 0, j[2] = {0}, (*k)(void) = 0;",
      "int p(void);",
      "extern int q;",
      "struct S { int m; int *n; int o[2]; int (*fp)(void); };",
      "typedef int (*cb)(int);",
      "#ifdef X",
      "static int r;",
      "#endif",
      "",
    ].join("\n"),
  );
  assert.deepEqual(symbols(f), [
    "variable a",
    "variable b",
    "variable c",
    "variable d",
    "variable e",
    "variable f",
    "variable g",
    "variable h",
    "variable i",
    "variable j",
    "variable k",
    "variable q",
    "struct S",
    "field S/m",
    "field S/n",
    "field S/o",
    "field S/fp",
    "type_alias cb",
    "variable r",
  ]);
});

test("C++: methods through pointer and reference declarators, conversion operators, template specializations", () => {
  const f = facts(
    "cpp",
    [
      "class A {",
      "  int *f();",
      "  A &g() { return *this; }",
      "  operator bool() const;",
      "};",
      "int **A::h() { return 0; }",
      "template <class T> struct B<T *> {};",
      "int *free_fn() { return 0; }",
      "",
    ].join("\n"),
  );
  assert.deepEqual(symbols(f), ["class A", "method A/f", "method A/g", "method A/operator bool", "method A/h", "struct B", "function free_fn"]);
});

test("Python: decorated functions and classes, class attributes; compound assignments are not definitions", () => {
  const f = facts(
    "python",
    ["@dec", "def f(): pass", "@dec", "class C:", "    X = 1", "    def m(self): pass", "Y = 1", "Y += 1", "if Y:", "    Z = 2", ""].join("\n"),
  );
  assert.deepEqual(symbols(f), ["function f", "class C", "field C/X", "method C/m", "constant Y", "variable Z"]);
  assert.deepEqual(refs(f, "call"), ["dec", "dec"]);
});

test("Rust: generic and scoped calls, field writes, impls of generic and scoped types, trait methods", () => {
  const f = facts(
    "rust",
    [
      "impl<T> Foo<T> { fn a(&self) {} }",
      "impl m::Bar for n::Baz { fn b(&self) {} }",
      "trait T { fn c(&self); fn d(&self) {} }",
      "fn e() { f::<u8>(); g::h::<u8>(); s.i::<u8>(); s.j = 1; s.k += 1; }",
      "",
    ].join("\n"),
  );
  // A trait impl of a scoped type matches both the scoped-type pattern and the general one; it is
  // one impl, named by the first (it was two, and its methods went to one of them).
  assert.deepEqual(symbols(f), [
    "impl Foo",
    "method Foo/a",
    "impl <Baz as m::Bar>",
    "method <Baz as m::Bar>/b",
    "trait T",
    "method T/c",
    "method T/d",
    "function e",
  ]);
  assert.deepEqual(refs(f, "call"), ["f", "g.h", "s.i"]);
  assert.deepEqual(refs(f, "write"), ["s.j", "s.k"]);
});

test("a member incremented or decremented is written, as a bare name is (TS, JS, Java, Go, C, C++)", () => {
  // `this.n++` was a read while `n++` and `this.n += 2` were writes: an agent looking for what
  // mutates a field missed every member increment.
  const cases: [LanguageId, string, string[]][] = [
    ["typescript", "class K { n = 0; inc(): void { this.n++; k.m--; this.#p++; } }\n", ["this.n", "k.m", "this.#p"]],
    ["javascript", "function f(k) { k.n++; --k.m; }\n", ["k.n", "k.m"]],
    ["java", "class K { int n; void inc(K k) { this.n++; --k.n; } }\n", ["this.n", "k.n"]],
    ["go", "package p\n\nfunc (s *S) Inc() { s.n++; s.m-- }\n", ["s.n", "s.m"]],
    ["c", "void inc(struct s *p) { p->n++; --p->m; }\n", ["p.n", "p.m"]],
    ["cpp", "void inc(S *p) { p->n++; --p->m; }\n", ["p.n", "p.m"]],
  ];
  for (const [language, source, written] of cases) assert.deepEqual(refs(facts(language, source), "write"), written, language);
});
