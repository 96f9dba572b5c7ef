/**
 * Resolution on layouts real repositories use and the fixtures did not: each case is the smallest
 * tree that showed the fault in a repository magellan had not seen (chi, click, taxonomy, axios).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { type Match, type Ref, mg } from "./support.js";

async function tree(files: Record<string, string>): Promise<string> {
  const root = writeTree(tempDir("mg-wild-"), files);
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return root;
}

async function refsTo(root: string, name: string): Promise<Ref[]> {
  return (await mg(root, ["refs", "--name", name])).env.data.references as Ref[];
}

async function symbol(root: string, name: string): Promise<Match> {
  const found = (await mg(root, ["find", "--name", name])).env.data.matches as Match[];
  assert.equal(found.length, 1, `one symbol named ${name}`);
  return found[0] as Match;
}

describe("resolution on real-world layouts", () => {
  it("Go: an import of the module's own path (go.mod) reaches its directory; a package's files see each other", async () => {
    const root = await tree({
      "go.mod": "module example.com/m\n\ngo 1.22\n",
      "a.go": "package m\n\ntype Mux struct{}\n\nfunc (m *Mux) Serve() {}\n\nfunc New() *Mux { return &Mux{} }\n",
      "a2.go": "package m\n\nfunc use() { New().Serve() }\n",
      "sub/b.go": 'package sub\n\nimport "example.com/m"\n\nfunc F() { m.New() }\n',
    });
    const newId = (await symbol(root, "New")).symbol_id;
    const calls = (await refsTo(root, "New")).filter((r) => r.reference_kind === "call");
    const fromSub = calls.find((r) => r.span.file_path === "sub/b.go");
    assert.equal(fromSub?.target_symbol_id, newId, JSON.stringify(fromSub));
    assert.equal(fromSub?.resolution, "imported");
    // Serve is the only member of that name, in a file of the same package.
    const serve = (await refsTo(root, "Serve")).find((r) => r.reference_kind === "call");
    assert.equal(serve?.target_symbol_id, (await symbol(root, "Serve")).symbol_id, JSON.stringify(serve));
  });

  it("a member of an imported module that the repository does not hold is left unresolved, not wired to a same-named member", async () => {
    const root = await tree({
      "go.mod": "module example.com/m\n",
      "chain.go": "package m\n\ntype Middlewares []int\n\nfunc (ms Middlewares) HandlerFunc() {}\n",
      "mux.go": 'package m\n\nimport "net/http"\n\nfunc h() { http.HandlerFunc(nil) }\n',
      "app.ts": 'import * as path from "node:path";\nexport class Paths { join(a: string): string { return a; } }\nexport const p = path.join("a", "b");\n',
    });
    for (const [caller, name] of [["h", "HandlerFunc"], ["p", "join"]] as const) {
      const out = (await mg(root, ["refs", "--name", caller, "--direction", "out"])).env.data.references as Ref[];
      const call = out.find((r) => r.reference_kind === "call" && r.referenced_symbol === name);
      assert.ok(call, `a call of ${name} from ${caller}: ${JSON.stringify(out)}`);
      assert.equal(call.target_symbol_id ?? null, null, JSON.stringify(call));
      assert.equal(call.resolution, "unresolved");
    }
  });

  it("Python src layout: modules are named from below src/, and tests import the package there", async () => {
    const root = await tree({
      "pyproject.toml": '[project]\nname = "pkg"\n',
      "src/pkg/__init__.py": "from .core import hello\n",
      "src/pkg/core.py": "def hello():\n    return 1\n",
      "tests/test_a.py": "from pkg.core import hello\n\ndef test_a():\n    hello()\n",
    });
    const hello = await symbol(root, "hello");
    assert.equal(hello.display_fqn, "pkg.core.hello");
    const call = (await refsTo(root, "hello")).find((r) => r.reference_kind === "call");
    assert.equal(call?.span.file_path, "tests/test_a.py", JSON.stringify(call));
    assert.equal(call?.target_symbol_id, hello.symbol_id);
    assert.equal(call?.resolution, "imported");
  });

  it("a member of a class local to one function is not what a call elsewhere is guessed to mean", async () => {
    const root = await tree({
      "test_it.py": "def test_a(ctx):\n    return ctx.invoke(print)\n\ndef test_b():\n    class Local:\n        def invoke(self):\n            return 1\n    return Local().invoke()\n",
    });
    const local = await symbol(root, "invoke");
    assert.ok(local.flags?.includes("local"), JSON.stringify(local.flags));
    const calls = (await refsTo(root, "invoke")).filter((r) => r.reference_kind === "call");
    // Inside test_b the local class is visible; from test_a it is not.
    const inside = calls.find((r) => r.caller === "test_b");
    assert.equal(inside?.target_symbol_id, local.symbol_id, JSON.stringify(calls));
    const outside = (await mg(root, ["refs", "--name", "test_a", "--direction", "out"])).env.data.references as Ref[];
    const guess = outside.find((r) => r.referenced_symbol === "invoke");
    assert.ok(guess, JSON.stringify(outside));
    assert.notEqual(guess.target_symbol_id, local.symbol_id, JSON.stringify(guess));
  });

  it("Go: the module root's package is named by nothing more than its symbols (no '..')", async () => {
    const root = await tree({ "go.mod": "module example.com/m\n", "mux.go": "package m\n\ntype Mux struct{}\n\nfunc (m *Mux) ServeHTTP() {}\n" });
    assert.equal((await symbol(root, "ServeHTTP")).display_fqn, "Mux.ServeHTTP");
  });

  it("TS/TSX: tsconfig paths aliases (@/...) and baseUrl resolve like relative imports, through extends, comments and trailing commas", async () => {
    const root = await tree({
      "tsconfig.base.json": '{\n  // shared\n  "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./*"], "#lib": ["./lib/utils.ts"], }, },\n}\n',
      "tsconfig.json": '{ "extends": "./tsconfig.base.json", /* the app */ "include": ["**/*"] }\n',
      "lib/utils.ts": "export function cn(...xs: string[]): string { return xs.join(' '); }\n",
      "components/ui/button.tsx": 'import { cn } from "@/lib/utils";\nexport const buttonVariants = () => cn("a");\n',
      "app/page.tsx": 'import { buttonVariants } from "@/components/ui/button";\nimport { cn as c2 } from "#lib";\nimport { cn as c3 } from "lib/utils";\nexport default function Page() { return buttonVariants() + c2("x") + c3("y"); }\n',
    });
    const cn = await symbol(root, "cn");
    const calls = (await refsTo(root, "cn")).filter((r) => r.reference_kind === "call");
    // button.tsx through @/*, page.tsx through the exact alias #lib and through baseUrl.
    assert.deepEqual(calls.map((r) => r.span.file_path).sort(), ["app/page.tsx", "app/page.tsx", "components/ui/button.tsx"]);
    for (const c of calls) {
      assert.equal(c.target_symbol_id, cn.symbol_id, JSON.stringify(c));
      assert.equal(c.resolution, "imported");
    }
    const bv = (await refsTo(root, "buttonVariants")).find((r) => r.reference_kind === "call");
    assert.equal(bv?.resolution, "imported", JSON.stringify(bv));
  });

  it("Rust: crate::, super:: and self:: paths name a function exactly", async () => {
    const root = await tree({
      "Cargo.toml": '[package]\nname = "w"\nversion = "0.1.0"\n',
      "src/lib.rs":
        "pub fn run() -> u32 { 1 }\n#[cfg(test)]\nmod tests { #[test] fn t() { super::run(); } }\nmod more { fn b() { crate::run(); } fn c() { self::d(); } fn d() {} }\n",
      "src/other.rs": "pub fn run() -> u32 { 2 }\nfn e() { crate::run(); super::run(); }\n",
    });
    const runs = (await mg(root, ["find", "--name", "run"])).env.data.matches as Match[];
    const crateRun = runs.find((m) => m.display_fqn === "crate::run");
    assert.ok(crateRun, JSON.stringify(runs.map((m) => m.display_fqn)));
    const calls = (await refsTo(root, "run")).filter((r) => r.reference_kind === "call");
    for (const caller of ["t", "b", "e"]) {
      const c = calls.filter((r) => r.caller === caller);
      assert.ok(c.length > 0, `a call from ${caller}`);
      for (const x of c) assert.equal(x.target_symbol_id, crateRun.symbol_id, JSON.stringify(x));
    }
    const d = (await refsTo(root, "d")).find((r) => r.reference_kind === "call");
    assert.equal(d?.resolution, "exact", JSON.stringify(d));
  });

  it("JS: the import of a default export resolves on its import line too, not only where it is used", async () => {
    const root = await tree({
      "page.js": "export default class Page {}\n",
      "fn.js": "export default function named() {}\n",
      "main.js": "import Page from './page.js';\nimport named from './fn.js';\nexport const a = () => [new Page(), named()];\n",
    });
    for (const name of ["Page", "named"]) {
      const target = (await symbol(root, name)).symbol_id;
      const refs = await refsTo(root, name);
      const imp = refs.find((r) => r.reference_kind === "import");
      assert.equal(imp?.target_symbol_id, target, JSON.stringify(refs));
      assert.equal(imp?.resolution, "imported");
    }
  });

  it("Java: a test in the package's other source root reaches its classes; a call at the end of a long builder chain is a member call", async () => {
    // Five lines of `.addField("...")`: a receiver of over 200 characters.
    const chain = `        .addField("${"a".repeat(48)}")\n`.repeat(5);
    const root = await tree({
      "src/main/java/com/ex/TypeSpec.java":
        "package com.ex;\n\npublic final class TypeSpec {\n  public static Builder classBuilder(String n) { return new Builder(); }\n  public static final class Builder {\n    public Builder addField(String f) { return this; }\n    public Builder addMethod(String m) { return this; }\n  }\n}\n",
      "src/test/java/com/ex/TypeSpecTest.java": `package com.ex;\n\npublic class TypeSpecTest {\n  void t() {\n    TypeSpec.classBuilder("Taco")\n${chain}        .addMethod("m");\n  }\n}\n`,
    });
    const addMethod = await symbol(root, "addMethod");
    const call = (await refsTo(root, "addMethod")).find((r) => r.reference_kind === "call");
    assert.equal(call?.target_symbol_id, addMethod.symbol_id, JSON.stringify(call));
    // (A long receiver that is a chain of calls is kept without the calls' arguments, which
    // resolution follows; it was cut to its last 100 characters, `…("aaa").addField("aaa")`.)
    assert.equal(call?.qualifier, "TypeSpec.classBuilder().addField().addField().addField().addField().addField()");
  });

  it("Rust: a binary crate in a directory named with '-' (walkdir-list/main.rs), src/bin and examples are crate roots", async () => {
    const root = await tree({
      "Cargo.toml": '[workspace]\nmembers = ["walkdir-list"]\n',
      "walkdir-list/Cargo.toml": '[package]\nname = "walkdir-list"\n[[bin]]\nname = "walkdir-list"\npath = "main.rs"\n',
      "walkdir-list/main.rs": "mod opts;\nstruct Args { n: u32 }\nfn main() { crate::opts::parse(); }\n",
      "walkdir-list/opts.rs": "pub fn parse() {}\n",
      "src/bin/tool.rs": "struct Tool;\n",
      "src/bin/multi/main.rs": "struct Multi;\n",
      "examples/demo.rs": "struct Demo;\n",
      "tests/common/mod.rs": "pub fn setup() {}\n",
    });
    const fqns: Record<string, string> = { Args: "crate::Args", parse: "crate::opts::parse", Tool: "crate::Tool", Multi: "crate::Multi", Demo: "crate::Demo", setup: "crate::common::setup" };
    for (const [name, fqn] of Object.entries(fqns)) assert.equal((await symbol(root, name)).display_fqn, fqn, name);
    const call = (await refsTo(root, "parse")).find((r) => r.reference_kind === "call");
    assert.equal(call?.target_symbol_id, (await symbol(root, "parse")).symbol_id, JSON.stringify(call));
    assert.equal(call?.resolution, "exact");
  });

  it("Python: a call of a function with @overload stubs reaches the implementation; the stubs stay symbols", async () => {
    const root = await tree({
      "conv.py":
        "import typing\nfrom typing import overload\n\n@overload\ndef conv(x: int) -> int: ...\n@typing.overload\ndef conv(x: str) -> str: ...\ndef conv(x):\n    return x\n\nclass C:\n    @overload\n    def m(self, a: int) -> int: ...\n    def m(self, a):\n        return a\n    def use(self):\n        return self.m(conv(1))\n",
    });
    const convs = (await mg(root, ["find", "--name", "conv"])).env.data.matches as Match[];
    assert.equal(convs.length, 3, JSON.stringify(convs));
    const impl = convs.find((m) => m.span.start_line === 8);
    assert.ok(impl && !impl.flags?.includes("overload"), JSON.stringify(convs.map((m) => [m.span.start_line, m.flags])));
    assert.equal(convs.filter((m) => m.flags?.includes("overload")).length, 2);
    const call = (await refsTo(root, "conv")).find((r) => r.reference_kind === "call");
    assert.equal(call?.target_symbol_id, impl.symbol_id, JSON.stringify(call));
    const ms = (await mg(root, ["find", "--name", "m"])).env.data.matches as Match[];
    const mImpl = ms.find((m) => m.span.start_line === 14);
    const mCall = (await refsTo(root, "m")).find((r) => r.reference_kind === "call");
    assert.equal(mCall?.target_symbol_id, mImpl?.symbol_id, JSON.stringify(mCall));
  });

  it("TS: a call reaches an overloaded function's implementation, not its first signature", async () => {
    const root = await tree({ "f.ts": "export function f(a: string): string;\nexport function f(a: number): number;\nexport function f(a: any): any { return a; }\nexport const g = () => f(1);\n" });
    const fs = (await mg(root, ["find", "--name", "f"])).env.data.matches as Match[];
    const impl = fs.find((m) => m.span.start_line === 3);
    const call = (await refsTo(root, "f")).find((r) => r.reference_kind === "call");
    assert.equal(call?.target_symbol_id, impl?.symbol_id, JSON.stringify(call));
  });

  it("JS/TS: every form of default export is a symbol a default import reaches", async () => {
    const root = await tree({
      "obj.js": 'export default { name: "x", setup() { return 1; } };\n',
      "call.ts": "export default defineConfig({ plugins: [] }) satisfies object;\n",
      "anon.ts": "export default async () => {};\n",
      "cls.ts": "export default class Foo { m() {} }\n",
      "ident.ts": "const helper = () => 1;\nexport default helper;\n",
      "spec.js": "function helper2() {}\nexport { helper2 as default };\n",
      "use.ts":
        'import cfg from "./obj.js";\nimport conf from "./call";\nimport a from "./anon";\nimport Foo from "./cls";\nimport h from "./ident";\nimport h2 from "./spec.js";\nexport function use() { a(); h(); h2(); new Foo(); conf; return cfg.setup(); }\n',
    });
    const q = async (file: string) => (await mg(root, ["query", "--file", file])).env.data.symbols as Match[];
    const obj = await q("obj.js");
    assert.deepEqual(obj.map((s) => [s.name, s.kind, s.display_fqn, s.flags ?? []]), [
      ["default", "Constant", "obj.default", ["default_export"]],
      ["setup", "Method", "obj.default.setup", []],
    ]);
    const expected: Record<string, [string, string]> = { "call.ts": ["default", "Constant"], "anon.ts": ["default", "Function"], "cls.ts": ["Foo", "Class"], "ident.ts": ["helper", "Function"], "spec.js": ["helper2", "Function"] };
    const targets = new Map<string, string>();
    for (const [file, [name, kind]] of Object.entries(expected)) {
      const d = (await q(file)).find((s) => s.flags?.includes("default_export"));
      assert.deepEqual([d?.name, d?.kind], [name, kind], file);
      targets.set(file, d?.symbol_id as string);
    }
    const imports = ((await mg(root, ["refs", "--name", "use", "--direction", "out"])).env.data.references as Ref[]).filter((r) => r.reference_kind !== "import");
    const byName = (n: string) => imports.find((r) => r.referenced_symbol === n);
    assert.equal(byName("a")?.target_symbol_id, targets.get("anon.ts"));
    assert.equal(byName("h")?.target_symbol_id, targets.get("ident.ts"));
    assert.equal(byName("h2")?.target_symbol_id, targets.get("spec.js"));
    assert.equal(byName("conf")?.target_symbol_id, targets.get("call.ts"));
    assert.equal(byName("cfg")?.target_symbol_id, obj[0]?.symbol_id, JSON.stringify(imports));
  });

  it("a call never reaches a field where a method of that name is there (Rust, Java), nor a field at all in Rust and Java", async () => {
    const root = await tree({
      "Cargo.toml": '[package]\nname = "h"\nversion = "0.1.0"\n',
      "src/main.rs":
        "struct Opt { endianness: u8 }\nstruct Builder;\nimpl Builder { fn endianness(self, e: u8) -> Self { self } }\nfn run(b: Builder, o: Opt) { b.endianness(o.endianness); }\n",
      "src/T.java": "class T {\n  static final int URL = 1;\n  int name;\n  int name() { return name; }\n  Object f() { name(); return new URL(\"x\"); }\n}\n",
    });
    const method = (await mg(root, ["find", "--name", "endianness", "--kind", "method"])).env.data.matches as Match[];
    const call = (await refsTo(root, "endianness")).find((r) => r.reference_kind === "call");
    assert.equal(call?.target_symbol_id, method[0]?.symbol_id, JSON.stringify(call));
    const nameCall = (await refsTo(root, "name")).find((r) => r.reference_kind === "call");
    const nameMethod = (await mg(root, ["find", "--name", "name", "--kind", "method"])).env.data.matches as Match[];
    assert.equal(nameCall?.target_symbol_id, nameMethod[0]?.symbol_id, JSON.stringify(nameCall));
    // `new URL(...)` is java.net.URL, not the static field URL of the enclosing class.
    const out = (await mg(root, ["refs", "--name", "f", "--direction", "out"])).env.data.references as Ref[];
    const url = out.find((r) => r.reference_kind === "call" && r.referenced_symbol === "URL");
    assert.ok(url, "the constructor call is a reference");
    assert.equal(url.target_symbol_id ?? null, null, JSON.stringify(url));
  });

  it("Python: super().m() is never the enclosing m; a nested function is no member; a method calling its own name on another value is not stated as recursion", async () => {
    const root = await tree({
      "srv.py":
        "class Base:\n    def serve(self):\n        return 1\n\nclass Server(Base):\n    def serve(self):\n        return super().serve()\n\nclass Params:\n    def items(self):\n        return self._dict.items()\n    def walk(self, n):\n        return self.walk(n - 1)\n\ndef test_streaming(compressor):\n    def compress(body):\n        return compressor.compress(body)\n    return compress\n",
    });
    const out = async (caller: string, name: string) =>
      ((await mg(root, ["refs", "--name", caller, "--direction", "out"])).env.data.references as Ref[]).filter((r) => r.reference_kind === "call" && r.referenced_symbol === name);
    const serves = (await mg(root, ["find", "--name", "serve"])).env.data.matches as Match[];
    const own = serves.find((m) => m.parent === "Server");
    const sup = (await mg(root, ["refs", "--symbol-id", own?.symbol_id as string, "--direction", "out"])).env.data.references as Ref[];
    const superCall = sup.find((r) => r.referenced_symbol === "serve");
    assert.ok(superCall, JSON.stringify(sup));
    assert.notEqual(superCall.target_symbol_id, own?.symbol_id, "super().serve() is not the override itself");
    const items = await out("items", "items");
    assert.equal(items[0]?.target_symbol_id ?? null, null, JSON.stringify(items));
    const walk = (await mg(root, ["find", "--name", "walk"])).env.data.matches as Match[];
    assert.equal((await out("walk", "walk"))[0]?.target_symbol_id, walk[0]?.symbol_id, "self.walk() in walk is recursion");
    const compress = await out("compress", "compress");
    assert.equal(compress[0]?.target_symbol_id ?? null, null, JSON.stringify(compress));
  });

  it("C++: a qualified call reaches neither a constructor of another scope's class nor a function's local variable", async () => {
    const root = await tree({
      "m.hpp":
        "namespace impl { struct Equals { Equals(int v) {} }; }\ntemplate <typename T> void mimic() { T exception; }\nnamespace Catch { void check() { Catch::Equals(1); throw std::exception(); } }\n",
    });
    const out = (await mg(root, ["refs", "--name", "check", "--direction", "out"])).env.data.references as Ref[];
    for (const name of ["Equals", "exception"]) {
      const call = out.find((r) => r.reference_kind === "call" && r.referenced_symbol === name);
      assert.ok(call, `${name}: ${JSON.stringify(out)}`);
      assert.equal(call.target_symbol_id ?? null, null, JSON.stringify(call));
    }
  });

  it("Java: x.toString() / x.equals() on a receiver of unknown type is not pinned to the one override in the package", async () => {
    const root = await tree({
      "src/p/Reader.java": "package p;\nclass Reader {\n  @Override public String toString() { return \"r\"; }\n}\n",
      "src/p/WriterTest.java":
        "package p;\nclass WriterTest {\n  String t(java.io.StringWriter sw) { return sw.toString(); }\n  String u() { var w = make(); return w.toString(); }\n  Object make() { return null; }\n}\n",
    });
    const call = async (fn: string): Promise<Ref> => {
      const out = (await mg(root, ["refs", "--name", fn, "--direction", "out"])).env.data.references as Ref[];
      const c = out.find((r) => r.reference_kind === "call" && r.referenced_symbol === "toString");
      assert.ok(c, JSON.stringify(out));
      assert.equal(c.target_symbol_id ?? null, null, JSON.stringify(c));
      return c;
    };
    // Declared a java.io.StringWriter: a library type's method, not a guess among the package's.
    assert.equal((await call("t")).resolution, "unresolved");
    // `var`: no type written, so any override may be meant.
    assert.equal((await call("u")).resolution, "ambiguous");
  });

  it("Rust: a binary's `use my_pkg::Item` reaches the package's library crate; `Item::Variant` is a member of that item only", async () => {
    const root = await tree({
      "Cargo.toml": '[package]\nname = "my-pkg"\nversion = "0.1.0"\n\n[dependencies]\nclap = "4"\n',
      "src/lib.rs": "mod input;\npub use input::*;\npub enum IncludeMode { File, Stdin }\npub struct PrinterBuilder;\nimpl PrinterBuilder { pub fn new() -> Self { PrinterBuilder } }\n",
      "src/input.rs": "pub enum Input { Stdin(u8), File(u8) }\n",
      "src/main.rs": "use my_pkg::{IncludeMode, Input, PrinterBuilder};\nfn run() { let _ = PrinterBuilder::new(); let _ = IncludeMode::File; let _ = Input::Stdin(1); }\n",
    });
    const out = (await mg(root, ["refs", "--name", "run", "--direction", "out"])).env.data.references as Ref[];
    const of = (name: string) => out.find((r) => r.referenced_symbol === name && r.reference_kind !== "import");
    assert.equal(of("new")?.target_symbol_id, (await symbol(root, "new")).symbol_id, JSON.stringify(of("new")));
    assert.equal(of("new")?.resolution, "imported");
    const files = (await mg(root, ["find", "--name", "File"])).env.data.matches as Match[];
    assert.equal(of("File")?.target_symbol_id, files.find((m) => m.parent === "IncludeMode")?.symbol_id, JSON.stringify(of("File")));
    // Input lives in src/input.rs (re-exported): not IncludeMode::Stdin of lib.rs.
    const stdins = (await mg(root, ["find", "--name", "Stdin"])).env.data.matches as Match[];
    assert.notEqual(of("Stdin")?.target_symbol_id, stdins.find((m) => m.parent === "IncludeMode")?.symbol_id, JSON.stringify(of("Stdin")));
  });

  it("JS: `app.listen = function listen() {}` is one method of app (express), and `app.listen()` elsewhere reaches it", async () => {
    const root = await tree({
      "lib/application.js": "var app = exports = module.exports = {};\napp.listen = function listen() { return 1; };\nfunction View() {}\nView.prototype.render = function render() {};\nexports.helper = function helper() {};\n",
      "test/app.listen.js": "var express = require('../lib/application');\nfunction t() { var app = express(); return app.listen(); }\n",
    });
    const q = (await mg(root, ["query", "--file", "lib/application.js"])).env.data.symbols as Match[];
    const shape = q.map((s) => [s.name, s.kind, s.parent ?? null]);
    assert.deepEqual(
      shape.filter(([n]) => n === "listen" || n === "render" || n === "helper"),
      [
        ["listen", "Method", "app"],
        ["render", "Method", "View"],
        ["helper", "Function", null],
      ],
    );
    const listen = (await mg(root, ["find", "--name", "app.listen"])).env.data.matches as Match[];
    assert.equal(listen.length, 1);
    const call = (await refsTo(root, "listen")).find((r) => r.reference_kind === "call");
    assert.equal(call?.target_symbol_id, listen[0]?.symbol_id, JSON.stringify(call));
  });

  it("Go: buf.String() / err.Error() on a value of unknown type is not pinned to the package's one String or Error method", async () => {
    const root = await tree({
      "go.mod": "module example.com/m\n",
      "flags.go": "package m\n\ntype multi []string\n\nfunc (m *multi) String() string { return \"\" }\n",
      "use.go": 'package m\n\nimport "bytes"\n\nfunc render(buf *bytes.Buffer) string { return buf.String() }\n',
    });
    const out = (await mg(root, ["refs", "--name", "render", "--direction", "out"])).env.data.references as Ref[];
    const call = out.find((r) => r.reference_kind === "call" && r.referenced_symbol === "String");
    assert.ok(call, JSON.stringify(out));
    assert.equal(call.target_symbol_id ?? null, null, JSON.stringify(call));
  });

  it("Java/Rust: a member of a type the repository does not declare (Math.max, String::from) is unresolved, not the class's own max/from", async () => {
    const root = await tree({
      "src/p/Stream.java": "package p;\nclass Stream {\n  int max(int a) { return a; }\n  int read(int a, int b) { return Math.max(a, b); }\n}\n",
      "src/lib.rs": "pub struct Name(String);\nimpl From<&str> for Name { fn from(s: &str) -> Name { Name(String::from(s)) } }\n",
    });
    for (const [caller, name] of [["read", "max"], ["from", "from"]] as const) {
      const out = (await mg(root, ["refs", "--name", caller, "--direction", "out"])).env.data.references as Ref[];
      const call = out.find((r) => r.reference_kind === "call" && r.referenced_symbol === name);
      assert.ok(call, `${caller}: ${JSON.stringify(out)}`);
      assert.equal(call.target_symbol_id ?? null, null, JSON.stringify(call));
      assert.equal(call.resolution, "unresolved");
    }
  });

  it("TS: a reachable function-typed field stays a call's target when the only same-named methods are out of sight", async () => {
    const root = await tree({
      "vanilla.ts": "export type StoreApi = { setState: (s: number) => void };\nexport function createStore(): StoreApi { return { setState: () => {} }; }\n",
      "devtools.ts": "export function devtools(api: any) {\n  api.setState = (s: number) => s;\n  return api;\n}\n",
      "use.test.ts": 'import { createStore } from "./vanilla";\nexport function t() { const store = createStore(); store.setState(1); }\n',
    });
    const fields = (await mg(root, ["find", "--name", "setState", "--kind", "field"])).env.data.matches as Match[];
    const out = (await mg(root, ["refs", "--name", "t", "--direction", "out"])).env.data.references as Ref[];
    const call = out.find((r) => r.reference_kind === "call" && r.referenced_symbol === "setState");
    assert.equal(call?.target_symbol_id, fields.find((m) => m.span.file_path === "vanilla.ts")?.symbol_id, JSON.stringify(call));
  });

  it("Java: a statically imported value's member (base.nameKeys) is its type's, not filtered as if the value were a type", async () => {
    const root = await tree({
      "src/p/Entities.java": "package p;\nimport static p.Entities.EscapeMode.base;\npublic class Entities {\n  public enum EscapeMode { base; int count() { return 1; } }\n  int f() { return base.count(); }\n}\n",
    });
    const count = await symbol(root, "count");
    const call = (await refsTo(root, "count")).find((r) => r.reference_kind === "call");
    assert.equal(call?.target_symbol_id, count.symbol_id, JSON.stringify(call));
  });

  it("Java: a statically imported name that is a field and a method both: the call is the method's (jackson-core's MathUtils.pow10)", async () => {
    const root = await tree({
      "src/main/java/p/MathUtils.java":
        "package p;\nfinal class MathUtils {\n  private static final long[] pow10 = { 1L, 10L, 100L };\n  static long pow10(int e) { return pow10[e]; }\n}\n",
      "src/main/java/p/DoubleToDecimal.java":
        "package p;\nimport static p.MathUtils.pow10;\npublic final class DoubleToDecimal {\n  public long scale(long f, int len) { return f * pow10(len); }\n}\n",
    });
    const method = ((await mg(root, ["find", "--name", "pow10", "--kind", "method"])).env.data.matches as Match[])[0];
    const calls = (await refsTo(root, "pow10")).filter((r) => r.reference_kind === "call" && r.span.file_path.endsWith("DoubleToDecimal.java"));
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.resolution, "imported", JSON.stringify(calls));
    assert.equal(calls[0]?.target_symbol_id, method?.symbol_id, JSON.stringify(calls));
    // dead-code: the method is called.
    const dead = (await mg(root, ["dead-code"])).env.data.symbols as { name: string }[];
    assert.ok(!dead.some((s) => s.name === "pow10"), JSON.stringify(dead));
  });
});
