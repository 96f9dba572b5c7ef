/**
 * Faults found by reading magellan's answers on repositories it had not seen (typer, hono, axios,
 * just, fzf, zlib, jsoup, leveldb) against their code. Each test writes the shape of the real case
 * in a few short files (real tree-sitter, real SQLite, the real CLI).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { type Ref, codes, mg, refLines } from "./support.js";

describe("sweep 28: typer, hono, axios, just, fzf, zlib, jsoup and leveldb shapes", () => {
  it("C++: a class named by two capitals (leveldb's `DB`) is a receiver type, not a template parameter", async () => {
    const root = writeTree(tempDir("magellan-cpp-two-caps-"), {
      "include/leveldb/db.h": ["namespace leveldb {", "class DB {", " public:", "  virtual int Write(int options, int* updates) = 0;", "};", "}", ""].join("\n"),
      "db/db_impl.h": [
        '#include "leveldb/db.h"',
        "namespace leveldb {",
        "class DBImpl : public DB {",
        " public:",
        "  int Write(int options, int* updates) override;",
        "};",
        "}",
        "",
      ].join("\n"),
      "db/corruption_test.cc": [
        '#include "db/db_impl.h"',
        "namespace leveldb {",
        "class CorruptionTest {",
        " public:",
        "  void Build() { db_->Write(1, nullptr); }",
        "  DB* db_;",
        "};",
        "void Put(DB* d) { d->Write(1, nullptr); }",
        "}",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    // Both were ambiguous between DB::Write and DBImpl::Write: `DB` was read as a template's
    // parameter, whose members say nothing.
    assert.deepEqual(refLines(root, "r.name = 'Write' AND r.kind = 'call'"), [
      "db/corruption_test.cc:5 db_.Write heuristic include/leveldb/db::leveldb::DB::Write",
      "db/corruption_test.cc:8 d.Write heuristic include/leveldb/db::leveldb::DB::Write",
    ]);
  });
  it("Rust: `use {crate::{a::A, b::{B, C}}, std::fmt};`, a braced list with no common path (just's src/lib.rs prelude), imports each item", async () => {
    const root = writeTree(tempDir("magellan-rust-use-list-"), {
      "Cargo.toml": '[package]\nname = "just"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": [
        "pub(crate) use {",
        "  crate::{",
        "    alias::Alias,",
        "    attribute::{Attribute, AttributeKind as Kind},",
        "  },",
        "  std::fmt::Display,",
        "};",
        "",
        "mod alias;",
        "mod attribute;",
        "mod analyzer;",
        "",
      ].join("\n"),
      "src/alias.rs": "pub(crate) struct Alias;\n\nimpl Alias {\n  pub(crate) fn line(&self) -> usize { 0 }\n}\n",
      "src/attribute.rs": "pub(crate) struct Attribute;\npub(crate) enum AttributeKind { Private }\n",
      "src/analyzer.rs": [
        "use super::*;",
        "",
        "pub(crate) fn analyze(alias: &Alias, attribute: Attribute) -> Kind {",
        "  alias.line();",
        "  Kind::Private",
        "}",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    // The statement held no import: every name the crate's files took from it through `use
    // super::*` was unresolved (just's 281 other `use` statements held 279 imports; now 560).
    assert.deepEqual(refLines(root, "f.path = 'src/analyzer.rs' AND r.kind IN ('type', 'call')"), [
      "src/analyzer.rs:3 .Alias imported crate::alias::Alias",
      "src/analyzer.rs:3 .Attribute imported crate::attribute::Attribute",
      "src/analyzer.rs:3 .Kind imported crate::attribute::AttributeKind",
      "src/analyzer.rs:4 alias.line imported crate::alias::Alias::line",
    ]);
  });
  it("Rust: with `autotests = false` and `[[test]] path = \"tests/lib.rs\"`, tests/*.rs are modules of that crate (just's and ripgrep's integration tests), not crates of their own", async () => {
    const manifest = (auto: boolean): string =>
      `[package]\nname = "just"\nversion = "0.1.0"\nedition = "2021"\n${auto ? "" : "autotests = false\n"}\n[[test]]\nname = "integration"\npath = "tests/lib.rs"\n`;
    const tree = (auto: boolean): Record<string, string> => ({
      "Cargo.toml": manifest(auto),
      "src/lib.rs": "pub fn unindent(s: &str) -> String { s.to_string() }\n",
      "tests/lib.rs": "use crate::test::Test;\n\nmod test;\nmod alias;\n",
      "tests/test.rs": "pub(crate) struct Test;\n\nimpl Test {\n  pub(crate) fn new() -> Self { Test }\n}\n",
      "tests/alias.rs": "use super::*;\n\n#[test]\nfn alias_nested_module() {\n  let t: Test = Test::new();\n}\n",
    });
    const off = writeTree(tempDir("magellan-rust-tests-crate-"), tree(false));
    assert.equal((await mg(off, ["index"])).r.code, 0);
    // tests/alias.rs was a crate root, its `super::*` nothing, and Test unresolved (just's 1,530
    // `.justfile(...)` calls of its tests had no receiver type).
    assert.deepEqual(refLines(off, "f.path = 'tests/alias.rs' AND r.name = 'Test' AND r.kind = 'type'"), ["tests/alias.rs:5 .Test imported crate::Test"]);
    // With discovery on, each file of tests/ is a crate of its own: alias.rs's super is nothing.
    const on = writeTree(tempDir("magellan-rust-tests-crates-"), tree(true));
    assert.equal((await mg(on, ["index"])).r.code, 0);
    assert.deepEqual(refLines(on, "f.path = 'tests/alias.rs' AND r.name = 'Test' AND r.kind = 'type'"), ["tests/alias.rs:5 .Test unresolved -"]);
  });
  it("Go: `cmd := exec.Command(...); cmd.Run()` and `exec.Command(...).Run()` are a library value's calls, not gaps in the answer for the module's own Run (fzf)", async () => {
    const root = writeTree(tempDir("magellan-go-library-value-"), {
      "go.mod": "module example.com/fz\n\ngo 1.21\n",
      "main.go": [
        "package main",
        "",
        "import (",
        '\t"os"',
        '\t"os/exec"',
        ")",
        "",
        "type Runner struct{}",
        "",
        "func (r *Runner) Run() error { return nil }",
        "",
        "func main() {",
        '\tcmd := exec.Command("man", "x")',
        "\tcmd.Stdin = os.Stdin",
        "\tif err := cmd.Run(); err != nil {",
        "\t\treturn",
        "\t}",
        '\texec.Command("tmux", "set-option", label("a(b")).Run()',
        "\tr := &Runner{}",
        "\tr.Run()",
        "}",
        "",
        "func label(s string) string { return s }",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const { env } = await mg(root, ["callers", "--name", "Runner.Run"]);
    // Both were counted as `dynamic_receiver` gaps: coverage 0.333 and partial for a complete answer.
    assert.deepEqual((env.data.references as Ref[]).map((r) => r.span.start_line), [20]);
    assert.deepEqual(env.data.coverage, { resolved: 1, ambiguous: 0, unresolved: 0, ratio: 1 });
    assert.equal(env.partial, false);
  });
  it("C++: a graph command given the name of a method declared in a header and defined in a .cc takes the definition (leveldb's `paths --from DB::Open`), not error E109", async () => {
    const root = writeTree(tempDir("magellan-cpp-halves-by-name-"), {
      "db/db_impl.h": [
        "namespace leveldb {",
        "class DBImpl {",
        " public:",
        "  static int Open(int options);",
        "  int Recover(int edit);",
        "};",
        "}",
        "",
      ].join("\n"),
      "db/db_impl.cc": [
        '#include "db/db_impl.h"',
        "namespace leveldb {",
        "int DBImpl::Recover(int edit) { return edit; }",
        "int DBImpl::Open(int options) {",
        "  DBImpl* impl = new DBImpl();",
        "  return impl->Recover(options);",
        "}",
        "}",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const { r, env } = await mg(root, ["paths", "--from", "DBImpl::Open", "--to", "DBImpl::Recover"]);
    assert.equal(r.code, 0, r.stdout);
    const paths = env.data.paths as { symbols: { display_fqn: string; span: { file_path: string; start_line: number } }[] }[];
    assert.deepEqual(
      paths.map((p) => p.symbols.map((s) => `${s.span.file_path}:${s.span.start_line}`)),
      [["db/db_impl.cc:4", "db/db_impl.h:5", "db/db_impl.cc:3"]],
    );
    // refs/callers list both halves' references; their note said "names 2 symbols ... narrow
    // with --symbol-id", as if they were two functions.
    const callers = await mg(root, ["callers", "--name", "DBImpl::Recover"]);
    assert.deepEqual((callers.env.data.references as Ref[]).map((r) => `${r.span.file_path}:${r.span.start_line}`), ["db/db_impl.cc:6"]);
    assert.ok(codes(callers.env).includes("MAGELLAN_E117"), JSON.stringify(callers.env.diagnostics));
    assert.ok(!codes(callers.env).includes("MAGELLAN_E109"), JSON.stringify(callers.env.diagnostics));
    // Two unrelated functions of one name stay a question.
    const other = writeTree(root, { "db/other.cc": "namespace leveldb {\nclass DBImpl2 {};\nint Recover(int edit) { return 0; }\n}\n" });
    assert.equal((await mg(other, ["index"])).r.code, 0);
    const again = await mg(other, ["reachable", "--symbol", "Recover"]);
    assert.equal(again.env.data.code, "MAGELLAN_E109");
  });
  it("JS/Python: a member of an array or string literal (`['get', 'set'].forEach(...)`, `', '.join(...)`) is the runtime's, not a repository method of that name (axios)", async () => {
    const root = writeTree(tempDir("magellan-literal-receiver-"), {
      "lib/InterceptorManager.js": "export default class InterceptorManager {\n  forEach(fn) {\n    this.handlers.forEach(fn);\n  }\n}\n",
      "lib/AxiosHeaders.js": [
        "import InterceptorManager from './InterceptorManager.js';",
        "",
        "export function accessors(manager) {",
        "  ['get', 'set', 'has'].forEach((m) => m);",
        "  'a,b'.concat(',c');",
        "  manager.forEach((h) => h);",
        "  new InterceptorManager().forEach((h) => h);",
        "}",
        "",
      ].join("\n"),
      "pkg/__init__.py": "",
      "pkg/text.py": "class Sep:\n    def join(self, parts):\n        return parts\n\n\ndef render(parts):\n    return ', '.join(parts)\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    // The literal's calls were `heuristic` calls of InterceptorManager.forEach and Sep.join.
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.name IN ('forEach', 'concat', 'join') AND f.path <> 'lib/InterceptorManager.js'"), [
      "lib/AxiosHeaders.js:4 ['get', 'set', 'has'].forEach unresolved -",
      "lib/AxiosHeaders.js:5 'a,b'.concat unresolved -",
      "lib/AxiosHeaders.js:6 manager.forEach heuristic lib/InterceptorManager.InterceptorManager.forEach",
      "lib/AxiosHeaders.js:7 new InterceptorManager().forEach imported lib/InterceptorManager.InterceptorManager.forEach",
      "pkg/text.py:7 ', '.join unresolved -",
    ]);
  });
  it("Java: a cast qualifier, `((TextNode) node).text()`, is a member of the type cast to, as the file imports it (jsoup)", async () => {
    const root = writeTree(tempDir("magellan-java-cast-"), {
      "src/main/java/org/jsoup/nodes/Node.java": "package org.jsoup.nodes;\n\npublic abstract class Node {\n}\n",
      "src/main/java/org/jsoup/nodes/TextNode.java": "package org.jsoup.nodes;\n\npublic class TextNode extends Node {\n    public String text() { return \"\"; }\n}\n",
      "src/main/java/org/jsoup/nodes/Comment.java": "package org.jsoup.nodes;\n\npublic class Comment extends Node {\n    public String getData() { return \"\"; }\n}\n",
      "src/main/java/org/jsoup/nodes/Element.java": "package org.jsoup.nodes;\n\npublic class Element extends Node {\n    public String text() { return \"\"; }\n}\n",
      "src/main/java/org/jsoup/parser/Token.java": [
        "package org.jsoup.parser;",
        "",
        "abstract class Token {",
        "    static final class Comment extends Token {",
        '        String getData() { return ""; }',
        "    }",
        "}",
        "",
      ].join("\n"),
      "src/main/java/org/jsoup/helper/W3CDom.java": [
        "package org.jsoup.helper;",
        "",
        "import org.jsoup.nodes.Comment;",
        "import org.jsoup.nodes.Node;",
        "import org.jsoup.nodes.TextNode;",
        "",
        "public class W3CDom {",
        "    String head(Node source, Node[] all) {",
        "        String a = ((TextNode) source).text();",
        "        String b = ((Comment) source).getData();",
        "        return ((TextNode) all[0]).text();",
        "    }",
        "}",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    // text() was ambiguous between TextNode's and Element's, getData() a guess between the two
    // Comment classes.
    assert.deepEqual(refLines(root, "f.path LIKE '%W3CDom.java' AND r.kind = 'call'"), [
      "src/main/java/org/jsoup/helper/W3CDom.java:9 ((TextNode) source).text imported org.jsoup.nodes.TextNode.text",
      "src/main/java/org/jsoup/helper/W3CDom.java:10 ((Comment) source).getData imported org.jsoup.nodes.Comment.getData",
      "src/main/java/org/jsoup/helper/W3CDom.java:11 ((TextNode) all[0]).text imported org.jsoup.nodes.TextNode.text",
    ]);
  });
});
