/**
 * Faults found by reading magellan's answers on repositories it had not seen (sharkdp/bat,
 * apache/commons-lang, urfave/cli, libuv/libuv, gabime/spdlog) against their code. Each tree
 * copies the shape of the real case in a few short files (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg, refLines } from "./support.js";

async function tree(files: Record<string, string>): Promise<string> {
  const root = writeTree(tempDir("mg-unseen-"), files);
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return root;
}

const CARGO = '[package]\nname = "b"\nversion = "0.1.0"\n';

describe("shapes of unseen repositories (bat, commons-lang, urfave/cli, libuv, spdlog)", () => {
  it("Rust: a call inside a macro's arguments is a call, with its receiver (bat's assert_eq!(test.syntax_for_file(..), ..))", async () => {
    const root = await tree({
      "Cargo.toml": CARGO,
      "src/lib.rs": [
        "struct Test { x: Inner }",
        "struct Inner;",
        "impl Inner { fn depth(&self) -> usize { 1 } }",
        "impl Test {",
        "    fn new() -> Self { Test { x: Inner } }",
        "    fn syntax_for_file(&self, s: &str) -> usize { s.len() }",
        "    fn check(&self) { assert_eq!(self.syntax_for_file(\"a\"), self.x.depth()); }",
        "}",
        "fn helper(n: usize) -> usize { n }",
        "fn syntax_for_file() {}",
        "#[test]",
        "fn detects() {",
        "    let test = Test::new();",
        "    let pair = 1;",
        "    assert_eq!(test.syntax_for_file(\"x\"), helper(2));",
        "    assert_eq!(pair, (1, 2));",
        "    println!(\"{}\", Test::new().syntax_for_file(\"y\"));",
        "}",
        "",
      ].join("\n"),
    });
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.name NOT IN ('assert_eq', 'println')"), [
      "src/lib.rs:5 .Test exact crate::Test",
      "src/lib.rs:6 s.len unresolved -",
      "src/lib.rs:7 self.syntax_for_file exact crate::Test::syntax_for_file",
      "src/lib.rs:7 self.x.depth exact crate::Inner::depth",
      "src/lib.rs:13 Test.new exact crate::Test::new",
      "src/lib.rs:15 test.syntax_for_file exact crate::Test::syntax_for_file",
      "src/lib.rs:15 .helper exact crate::helper",
      // A tuple after a comma is no call of `pair`; a call on a call's value is a method's, not the free function's.
      "src/lib.rs:17 Test.new exact crate::Test::new",
      "src/lib.rs:17 ().syntax_for_file heuristic crate::Test::syntax_for_file",
    ]);
  });

  it("Rust: an impl for a type named by its path is one symbol, which holds its methods (bat's impl From<Input> for input::Input)", async () => {
    const root = await tree({
      "Cargo.toml": CARGO,
      "src/lib.rs": [
        "mod input { pub struct Input; }",
        "struct Input;",
        "impl From<input::Input> for Input {",
        "    fn from(i: input::Input) -> Self { Input }",
        "}",
        "impl<'a> From<Input> for input::Input<'a> {",
        "    fn from(i: Input) -> Self { input::Input }",
        "}",
        "impl std::fmt::Display for input::Input {",
        "    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }",
        "}",
        "",
      ].join("\n"),
    });
    const { env } = await mg(root, ["query", "--file", "src/lib.rs"]);
    const symbols = (env.data.symbols as { kind: string; display_fqn: string }[]).filter((s) => s.kind === "Impl" || s.kind === "Method");
    assert.deepEqual(
      symbols.map((s) => s.display_fqn),
      [
        "crate::<Input as From<input::Input>>",
        "crate::<Input as From<input::Input>>::from",
        "crate::<Input as From<Input>>",
        "crate::<Input as From<Input>>::from",
        "crate::<Input as std::fmt::Display>",
        "crate::<Input as std::fmt::Display>::fmt",
      ],
    );
    // A trait impl's method is found by its type's name too (bat's InteractivePrinter::print_line
    // is `<InteractivePrinter as Printer>::print_line`), also where the trait is a path.
    const found = async (name: string): Promise<string[]> => ((await mg(root, ["find", "--name", name])).env.data.matches as { display_fqn: string }[]).map((m) => m.display_fqn);
    assert.deepEqual(await found("Input::fmt"), ["crate::<Input as std::fmt::Display>::fmt"]);
    assert.deepEqual(await found("crate::Input.fmt"), ["crate::<Input as std::fmt::Display>::fmt"]);
  });

  it("Rust: Type::method() reaches the method of the type's trait impl, in its own file too (bat's StyleComponentList::from_str)", async () => {
    const root = await tree({
      "Cargo.toml": CARGO,
      "src/lib.rs": [
        "use std::str::FromStr;",
        "pub struct A;",
        "pub struct AList;",
        "impl FromStr for A { type Err = (); fn from_str(s: &str) -> Result<Self, ()> { Ok(A) } }",
        "impl FromStr for AList { type Err = (); fn from_str(s: &str) -> Result<Self, ()> { Ok(AList) } }",
        "impl AList { fn default() -> Self { AList } }",
        "impl Default for AList { fn default() -> Self { AList } }",
        "#[cfg(test)]",
        "mod tests {",
        "    use super::*;",
        "    fn t() { let y = AList::from_str(\"x\"); let z = AList::default(); }",
        "}",
        "",
      ].join("\n"),
    });
    // (An inherent method comes before a trait's.)
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.qualifier = 'AList'"), [
      "src/lib.rs:11 AList.from_str exact crate::<AList as FromStr>::from_str",
      "src/lib.rs:11 AList.default exact crate::AList::default",
    ]);
  });

  it("callees of a class says that its methods make the calls (httpx's callees --name Client answered 'references nothing')", async () => {
    const root = await tree({ "client.py": "def send():\n    return 1\n\n\nclass Client:\n    def get(self):\n        return send()\n" });
    const { r, env } = await mg(root, ["callees", "--name", "Client"]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.data.count, 0);
    assert.match(env.diagnostics?.map((d) => d.message).join("\n") ?? "", /'Client' is a class: the calls and references in its body are its methods'/);
    assert.equal((await mg(root, ["callees", "--name", "Client.get"])).env.data.count, 1);
  });

  it("Rust: `&raw` borrowing a variable named raw is no raw borrow (bat's match &raw { in build/syntax_mapping.rs)", async () => {
    const root = await tree({
      "Cargo.toml": CARGO,
      "src/lib.rs": [
        "struct Matcher;",
        "impl Matcher {",
        "    fn try_from(raw: &str) -> usize {",
        "        match &raw { _ => f(&raw, &raw const X) }",
        "    }",
        "}",
        "enum Segment { Text(String) }",
        "impl Segment {",
        "    fn is_text(&self) -> bool { true }",
        "}",
        "",
      ].join("\n"),
    });
    const { env } = await mg(root, ["query", "--file", "src/lib.rs"]);
    assert.deepEqual(
      (env.data.symbols as { kind: string; display_fqn: string }[]).map((s) => `${s.kind} ${s.display_fqn}`),
      ["Struct crate::Matcher", "Impl crate::Matcher", "Method crate::Matcher::try_from", "Enum crate::Segment", "EnumMember crate::Segment::Text", "Impl crate::Segment", "Method crate::Segment::is_text"],
    );
  });

  it("TypeScript: a package of the repository imported by its name reaches its files (zod's tests: import * as z from \"zod/v4\")", async () => {
    const root = await tree({
      "package.json": JSON.stringify({ private: true, workspaces: ["packages/*"] }),
      "packages/zod/package.json": JSON.stringify({
        name: "zod",
        exports: { ".": { "@zod/source": "./src/index.ts", types: "./index.d.cts", import: "./index.js" }, "./v4": { types: "./dist/v4/index.d.ts", import: "./dist/v4/index.js" } },
      }),
      "packages/zod/src/index.ts": "export function object() { return 1; }\n",
      "packages/zod/src/v4/index.ts": "export function string() { return 2; }\n",
      "packages/zod/src/v4/tests/a.test.ts": 'import * as z from "zod/v4";\nimport { object } from "zod";\nz.string();\nobject();\n',
      "packages/app/package.json": JSON.stringify({ name: "@acme/app", main: "./lib/main.js" }),
      "packages/app/src/main.ts": "export function run() { return 3; }\n",
      "packages/cli/index.ts": 'import { run } from "@acme/app";\nimport { x } from "lodash";\nrun();\nx();\n',
    });
    assert.deepEqual(refLines(root, "r.kind = 'call'"), [
      "packages/cli/index.ts:3 .run imported packages/app/src/main.run",
      "packages/cli/index.ts:4 .x unresolved -",
      "packages/zod/src/v4/tests/a.test.ts:3 z.string imported packages/zod/src/v4/index.string",
      "packages/zod/src/v4/tests/a.test.ts:4 .object imported packages/zod/src/index.object",
    ]);
  });

  it("C/C++: a macro around a function's head (libuv's UV_UNUSED(static void f(..)) {) or after its parameters (spdlog's int pid() SPDLOG_NOEXCEPT {) leaves the function", async () => {
    const root = await tree({
      "src/internal.h": [
        "#define UV_UNUSED(declaration) __attribute__((unused)) declaration",
        "UV_UNUSED(static void uv__update_time(int* loop)) {",
        "  *loop = 1;",
        "}",
        "HEAP_EXPORT(struct heap_node* heap_min(const struct heap* heap)) {",
        "  return heap->min;",
        "}",
        "void caller(int* loop) {",
        "  ASSERT(check(loop));",
        "  uv__update_time(loop);",
        "}",
        "",
      ].join("\n"),
      "os.cpp": [
        "namespace os {",
        "SPDLOG_INLINE int pid() SPDLOG_NOEXCEPT {",
        "    return 1;",
        "}",
        "struct source_loc {",
        "    SPDLOG_CONSTEXPR bool empty() const SPDLOG_NOEXCEPT { return line == 0; }",
        "    int line{0};",
        "};",
        "size_t max_size() { return (size_t) SIZE_MAX; }",
        "}",
        "",
      ].join("\n"),
    });
    const names = async (file: string): Promise<string[]> => {
      const { env } = await mg(root, ["query", "--file", file]);
      return (env.data.symbols as { kind: string; display_fqn: string }[]).filter((s) => s.kind !== "Macro").map((s) => `${s.kind} ${s.display_fqn}`);
    };
    assert.deepEqual(await names("src/internal.h"), ["Function src/internal.uv__update_time", "Function src/internal.heap_min", "Function src/internal.caller"]);
    assert.deepEqual(await names("os.cpp"), ["Namespace os::os", "Function os::os::pid", "Struct os::os::source_loc", "Method os::os::source_loc::empty", "Field os::os::source_loc::line", "Function os::os::max_size"]);
    assert.deepEqual(refLines(root, "r.name IN ('uv__update_time', 'SIZE_MAX', 'check')"), ["os.cpp:9 .SIZE_MAX unresolved -", "src/internal.h:9 .check unresolved -", "src/internal.h:10 .uv__update_time exact src/internal.uv__update_time"]);
  });
});
