/**
 * reachable, slice and paths follow the edges a run takes that no reference shows: a call tied to
 * a base's method runs an override (requests' Session.send calls `adapter.send(...)`, tied to
 * BaseAdapter.send, and HTTPAdapter.send is the code that runs), an interface's or a trait's
 * method runs its implementations, and a C++ method declared in its class runs where it is
 * defined (spdlog's `logger::flush` in logger.h reached nothing: its body is in logger-inl.h).
 * Each such edge is labelled `dispatch` in the evidence; cycles do not follow them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

interface Sym {
  symbol_id: string;
  name: string;
  display_fqn: string;
  depth?: number;
}
interface Evidence {
  by_resolution: Record<string, number>;
  edges?: { from: string; to: string; resolution: Record<string, number>; kinds: Record<string, number> }[];
}

async function indexedTree(name: string, files: Record<string, string>): Promise<string> {
  const root = writeTree(tempDir(`magellan-dispatch-${name}-`), files);
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return root;
}

async function reached(root: string, symbol: string, extra: string[] = []): Promise<{ symbols: Sym[]; evidence: Evidence }> {
  const { r, env } = await mg(root, ["reachable", "--symbol", symbol, ...extra]);
  assert.equal(r.code, 0, r.stdout);
  return env.data as unknown as { symbols: Sym[]; evidence: Evidence };
}

async function pathOf(root: string, from: string, to: string): Promise<string[]> {
  const { r, env } = await mg(root, ["paths", "--from", from, "--to", to]);
  assert.equal(r.code, 0, r.stdout);
  const d = env.data as unknown as { paths: { symbols: Sym[] }[] };
  return d.paths[0]?.symbols.map((s) => s.display_fqn) ?? [];
}

describe("dispatch edges", () => {
  it("Python: a call tied to the base's method reaches the overrides below it, nearest on each branch", async () => {
    const root = await indexedTree("py", {
      "pkg/__init__.py": "",
      "pkg/adapters.py": [
        "class BaseAdapter:",
        "    def __init__(self):",
        "        self.config = {}",
        "",
        "    def send(self, request):",
        "        raise NotImplementedError",
        "",
        "class HTTPAdapter(BaseAdapter):",
        "    def __init__(self):",
        "        super().__init__()",
        "",
        "    def send(self, request):",
        "        return self.build(request)",
        "",
        "    def build(self, request):",
        "        return request",
        "",
        "class RetryingAdapter(HTTPAdapter):",
        "    def send(self, request):",
        "        return request",
        "",
        "class Plain(BaseAdapter):",
        "    pass",
        "",
        "class Logged(Plain):",
        "    def __init__(self):",
        "        self.lines = []",
        "",
        "    def send(self, request):",
        "        return None",
        "",
        "class Unrelated:",
        "    def send(self, request):",
        "        return None",
        "",
      ].join("\n"),
      "pkg/sessions.py": [
        "from pkg.adapters import BaseAdapter",
        "",
        "class Session:",
        "    def __init__(self, adapter: BaseAdapter):",
        "        self.adapter: BaseAdapter = adapter",
        "",
        "    def get(self, url):",
        "        return self.adapter.send(url)",
        "",
      ].join("\n"),
    });
    assert.deepEqual(await pathOf(root, "Session.get", "HTTPAdapter.send"), ["pkg.sessions.Session.get", "pkg.adapters.BaseAdapter.send", "pkg.adapters.HTTPAdapter.send"]);
    const r = await reached(root, "Session.get");
    const names = r.symbols.map((s) => s.display_fqn).sort();
    // Logged overrides through Plain, which declares no send; RetryingAdapter is reached through
    // HTTPAdapter.send; Unrelated's send is no override.
    assert.deepEqual(names, [
      "pkg.adapters.BaseAdapter.send",
      "pkg.adapters.HTTPAdapter.build",
      "pkg.adapters.HTTPAdapter.send",
      "pkg.adapters.Logged.send",
      "pkg.adapters.RetryingAdapter.send",
    ]);
    const base = r.symbols.find((s) => s.display_fqn === "pkg.adapters.BaseAdapter.send") as Sym;
    const dispatched = (r.evidence.edges ?? []).filter((e) => e.resolution.dispatch);
    assert.deepEqual(dispatched.map((e) => e.kinds), [{ dispatch: 1 }, { dispatch: 1 }, { dispatch: 1 }]);
    assert.equal(dispatched.filter((e) => e.from === base.symbol_id).length, 2);
    assert.equal(r.evidence.by_resolution.dispatch, 3);
    // Backwards: what may run HTTPAdapter.send includes the callers of the base's method.
    const back = await mg(root, ["slice", "--symbol", "HTTPAdapter.send", "--direction", "backward"]);
    assert.ok((back.env.data as unknown as { symbols: Sym[] }).symbols.some((s) => s.display_fqn === "pkg.sessions.Session.get"), back.r.stdout);
    // A constructor does not dispatch: the base's, called by super(), leads to no other subclass's.
    const init = (await reached(root, "HTTPAdapter.__init__")).symbols.map((s) => s.display_fqn);
    assert.deepEqual(init, ["pkg.adapters.BaseAdapter.__init__"]);
    // A cycle is not made of guesses: none here.
    const cycles = await mg(root, ["cycles", "--level", "symbol"]);
    assert.equal((cycles.env.data as unknown as { count: number }).count, 0);
  });

  it("C++: a method declared in its class reaches its out-of-line definition, and a virtual one the overrides (and their definitions)", async () => {
    const root = await indexedTree("cpp", {
      "include/sink.h": ["#pragma once", "namespace lg {", "class sink {", "public:", "  virtual ~sink() = default;", "  virtual void flush() = 0;", "};", "}", ""].join("\n"),
      "include/file_sink.h": [
        "#pragma once",
        '#include "sink.h"',
        "namespace lg {",
        "class file_sink : public sink {",
        "public:",
        "  void flush() override;",
        "private:",
        "  void sync_();",
        "};",
        "}",
        "",
      ].join("\n"),
      "include/file_sink-inl.h": ['#include "file_sink.h"', "namespace lg {", "void file_sink::flush() { sync_(); }", "void file_sink::sync_() {}", "}", ""].join("\n"),
      "include/logger.h": [
        "#pragma once",
        '#include "sink.h"',
        "namespace lg {",
        "class logger {",
        "public:",
        "  void flush();",
        "  void flush_all();",
        "private:",
        "  sink *sink_;",
        "  std::shared_ptr<sink> shared_;",
        "};",
        "}",
        "",
      ].join("\n"),
      "include/logger-inl.h": ['#include "logger.h"', "namespace lg {", "void logger::flush() { sink_->flush(); }", "void logger::flush_all() { shared_->flush(); }", "}", ""].join("\n"),
    });
    const found = await mg(root, ["find", "--name", "flush", "--path", "include/logger.h"]);
    const decl = (found.env.data as unknown as { matches: Sym[] }).matches[0] as Sym;
    const r = await reached(root, decl.symbol_id);
    const names = r.symbols.map((s) => `${s.display_fqn}@${s.depth}`);
    assert.ok(names.includes("include/logger-inl::lg::logger::flush@1"), names.join("\n"));
    assert.ok(names.includes("include/sink::lg::sink::flush@2"), names.join("\n"));
    assert.ok(names.includes("include/file_sink::lg::file_sink::flush@3"), names.join("\n"));
    assert.ok(names.includes("include/file_sink-inl::lg::file_sink::flush@4"), names.join("\n"));
    assert.ok(names.some((n) => n.startsWith("include/file_sink-inl::lg::file_sink::sync_@") || n.startsWith("include/file_sink::lg::file_sink::sync_@")), names.join("\n"));
    // A member held by a smart pointer is used as what it points to.
    const all = (await reached(root, "include/logger-inl::lg::logger::flush_all")).symbols.map((s) => s.display_fqn);
    assert.ok(all.includes("include/sink::lg::sink::flush"), all.join("\n"));
  });

  it("Go, Rust, Java and TypeScript: an interface's or a trait's method reaches its implementations", async () => {
    const root = await indexedTree("langs", {
      "go.mod": "module example.com/d\n\ngo 1.22\n",
      "flags.go": [
        "package d",
        "",
        "type Flag interface {",
        "\tApply() error",
        "\tNames() []string",
        "}",
        "",
        "type BoolFlag struct{}",
        "",
        "func (f *BoolFlag) Apply() error { return nil }",
        "func (f *BoolFlag) Names() []string { return nil }",
        "",
        "type Half struct{}",
        "",
        "func (h *Half) Apply() error { return nil }",
        "",
        "func Run(fs []Flag) {",
        "\tfor _, f := range fs {",
        "\t\tf.Apply()",
        "\t}",
        "}",
        "",
      ].join("\n"),
      "Cargo.toml": '[package]\nname = "d"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": [
        "pub trait Render {",
        "    fn render(&self) -> String;",
        "}",
        "",
        "pub struct Page;",
        "",
        "impl Render for Page {",
        "    fn render(&self) -> String { String::new() }",
        "}",
        "",
        "pub fn show(r: &dyn Render) -> String {",
        "    r.render()",
        "}",
        "",
      ].join("\n"),
      "src/main/java/d/Shape.java": "package d;\n\npublic interface Shape {\n  double area();\n}\n",
      "src/main/java/d/Square.java": "package d;\n\npublic class Square implements Shape {\n  public double area() { return 1; }\n}\n",
      "src/main/java/d/Report.java": "package d;\n\npublic class Report {\n  public double total(Shape s) {\n    return s.area();\n  }\n}\n",
      "web/store.ts": [
        "export interface Store {",
        "  load(key: string): string;",
        "}",
        "",
        "export class MemoryStore implements Store {",
        "  load(key: string): string { return key; }",
        "}",
        "",
        "export function read(s: Store): string {",
        "  return s.load('k');",
        "}",
        "",
      ].join("\n"),
    });
    assert.deepEqual(await pathOf(root, "Run", "BoolFlag.Apply"), ["Run", "Flag.Apply", "BoolFlag.Apply"]);
    // Half lacks Names: it does not implement Flag.
    assert.deepEqual(await pathOf(root, "Run", "Half.Apply"), []);
    assert.deepEqual(await pathOf(root, "show", "crate::<Page as Render>::render"), ["crate::show", "crate::Render::render", "crate::<Page as Render>::render"]);
    assert.deepEqual(await pathOf(root, "Report.total", "Square.area"), ["d.Report.total", "d.Shape.area", "d.Square.area"]);
    assert.deepEqual(await pathOf(root, "read", "MemoryStore.load"), ["web/store.read", "web/store.Store.load", "web/store.MemoryStore.load"]);
  });
});
