/**
 * Faults found by reading magellan's answers on repositories it had not seen (pallets/click,
 * urfave/cli, square/javapoet) against their code. Each test writes the shape of the real case in
 * a few short files (real tree-sitter, real SQLite, the real CLI).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { type Ref, mg, refLines, withIndex } from "./support.js";

describe("sweep 27: click, urfave/cli and javapoet shapes", () => {
  it("Python: a function declared `-> X | None` (PEP 604, quoted or not) returns an X, as one declared `-> Optional[X]` does (click's get_current_context)", async () => {
    const root = writeTree(tempDir("magellan-py-union-"), {
      "pkg/__init__.py": "",
      "pkg/core.py": [
        "from typing import Optional",
        "",
        "class Context:",
        "    def invoke(self) -> None:",
        "        pass",
        "",
        "class Command:",
        "    def invoke(self) -> None:",
        "        pass",
        "",
        "def current() -> Context | None:",
        "    return Context()",
        "",
        'def quoted() -> "Context | None":',
        "    return Context()",
        "",
        "def optional() -> Optional[Context]:",
        "    return Context()",
        "",
        "def either() -> Context | Command:",
        "    return Context()",
        "",
        "def use():",
        "    a = current(); a.invoke()",
        "    b = quoted(); b.invoke()",
        "    c = optional(); c.invoke()",
        "    d = either(); d.invoke()",
        "",
        "class Holder:",
        "    ctx: Context | None",
        "",
        "    def run(self):",
        "        self.ctx.invoke()",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    // a.invoke() and b.invoke() were ambiguous between the two classes' invoke; a union of two
    // classes says no one type.
    assert.deepEqual(refLines(root, "r.name = 'invoke' AND r.kind = 'call'"), [
      "pkg/core.py:24 a.invoke exact pkg.core.Context.invoke",
      "pkg/core.py:25 b.invoke exact pkg.core.Context.invoke",
      "pkg/core.py:26 c.invoke exact pkg.core.Context.invoke",
      "pkg/core.py:27 d.invoke ambiguous -",
      "pkg/core.py:33 self.ctx.invoke exact pkg.core.Context.invoke",
    ]);
    const { env } = await mg(root, ["callers", "--name", "Context.invoke"]);
    assert.deepEqual((env.data.references as Ref[]).map((r) => `${r.span.start_line} ${r.resolution}`).sort(), ["24 exact", "25 exact", "26 exact", "27 ambiguous", "33 exact"]);
  });

  it("Python: `-> t.Optional[X]` and `x: t.Optional[X]` with `import typing as t` (click writes every annotation so) are X's, as a bare Optional[X] is", async () => {
    const root = writeTree(tempDir("magellan-py-t-optional-"), {
      "pkg/__init__.py": "",
      "pkg/core.py": [
        "import typing as t",
        "",
        "class Context:",
        "    def invoke(self) -> None:",
        "        pass",
        "",
        "class Command:",
        "    def invoke(self) -> None:",
        "        pass",
        "",
        "def current() -> t.Optional[Context]:",
        "    return Context()",
        "",
        "class Holder:",
        "    ctx: t.Optional[Context] = None",
        "",
        "    def run(self):",
        "        self.ctx.invoke()",
        "",
        "def use():",
        "    a = current(); a.invoke()",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "r.name = 'invoke' AND r.kind = 'call'"), ["pkg/core.py:18 self.ctx.invoke exact pkg.core.Context.invoke", "pkg/core.py:21 a.invoke exact pkg.core.Context.invoke"]);
  });

  it("Java: a static method hides its superclass's static method of the same name, it does not override it (javapoet's ClassName.get and TypeName.get)", async () => {
    const root = writeTree(tempDir("magellan-java-static-"), {
      "src/p/TypeName.java": "package p;\n\npublic class TypeName {\n  public static TypeName get(String s) { return new TypeName(); }\n\n  public String describe() { return \"type\"; }\n}\n",
      "src/p/ClassName.java": "package p;\n\npublic class ClassName extends TypeName {\n  public static ClassName get(String s) { return new ClassName(); }\n\n  @Override\n  public String describe() { return \"class\"; }\n}\n",
      "src/p/Use.java": "package p;\n\npublic class Use {\n  public static void main(String[] args) {\n    TypeName.get(\"a\").describe();\n    ClassName.get(\"b\");\n  }\n}\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const sub = await mg(root, ["callers", "--name", "ClassName.get"]);
    assert.equal(sub.env.data.overrides, undefined, JSON.stringify(sub.env.data.overrides));
    assert.deepEqual(sub.env.diagnostics?.filter((d) => d.code === "MAGELLAN_E115") ?? [], []);
    const base = await mg(root, ["callers", "--name", "TypeName.get"]);
    assert.equal(base.env.data.overridden_by, undefined, JSON.stringify(base.env.data.overridden_by));
    assert.deepEqual(base.env.diagnostics?.filter((d) => d.code === "MAGELLAN_E115") ?? [], []);
    // An instance method still overrides; a call of TypeName.get never runs ClassName.get (paths
    // followed a dispatch edge between them).
    const describe = await mg(root, ["callers", "--name", "ClassName.describe"]);
    assert.ok(describe.env.diagnostics?.some((d) => d.code === "MAGELLAN_E115"), JSON.stringify(describe.env.diagnostics));
    const paths = await mg(root, ["paths", "--from", "TypeName.get", "--to", "ClassName.get"]);
    assert.equal((paths.env.data as { count: number }).count, 0, JSON.stringify(paths.env.data));
  });

  it("Go: a member called on a value of a pointer to a library type (t *testing.T; t.Run) is no gap in the callers of the module's same-named method (urfave/cli's Command.Run)", async () => {
    const root = writeTree(tempDir("magellan-go-library-receiver-"), {
      "go.mod": "module example.com/app\n\ngo 1.21\n",
      "command.go": "package app\n\ntype Command struct{ Name string }\n\nfunc (c *Command) Run(args []string) error { return nil }\n",
      "command_test.go": [
        "package app",
        "",
        "import (",
        '\t"io"',
        '\t"testing"',
        ")",
        "",
        "func TestRun(t *testing.T) {",
        '\tt.Run("sub", func(t *testing.T) {',
        "\t\tc := &Command{}",
        "\t\t_ = c.Run(nil)",
        "\t})",
        "}",
        "",
        "func runAll(r io.Reader) {",
        "\tr.Run()",
        "}",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const { env } = await mg(root, ["callers", "--name", "Command.Run"]);
    const data = env.data as { count: number; unresolved: { count: number; samples: { qualifier?: string; span: { start_line: number } }[] }; coverage: { ratio: number } };
    assert.equal(data.count, 1);
    // t.Run (line 9) was counted as a dynamic_receiver gap: a *testing.T is testing's. An
    // interface of a library (io.Reader) may hold one of the module's types: r.Run still counts.
    assert.deepEqual(data.unresolved.samples.map((g) => `${g.span.start_line} ${g.qualifier}`), ["16 r"]);
  });
  it("Python: graph commands take a method with @overload stubs by its name, as its implementation; a name no qualified name tells apart is not offered as one (click's Command.main)", async () => {
    const root = writeTree(tempDir("magellan-py-overload-graph-"), {
      "pkg/__init__.py": "",
      "pkg/core.py": [
        "import typing as t",
        "",
        "class Context:",
        "    def invoke(self, callback):",
        "        return callback()",
        "",
        "class Command:",
        "    @t.overload",
        "    def main(self, standalone_mode: t.Literal[True] = True) -> t.NoReturn: ...",
        "",
        "    @t.overload",
        "    def main(self, standalone_mode: bool = ...) -> t.Any: ...",
        "",
        "    def main(self, standalone_mode: bool = True) -> t.Any:",
        "        return self.invoke(Context())",
        "",
        "    def invoke(self, ctx: Context) -> t.Any:",
        "        return ctx.invoke(print)",
        "",
        "import sys",
        "",
        "if sys.platform == 'win32':",
        "    def encoding() -> str:",
        "        return 'mbcs'",
        "else:",
        "    def encoding() -> str:",
        "        return 'utf-8'",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    for (const from of ["Command.main", "pkg.core.Command.main"]) {
      const { r, env } = await mg(root, ["paths", "--from", from, "--to", "Context.invoke"]);
      assert.equal(r.code, 0, r.stdout);
      const d = env.data as { count: number; paths: { symbols: { display_fqn: string }[] }[] };
      assert.deepEqual(d.paths[0]?.symbols.map((x) => x.display_fqn), ["pkg.core.Command.main", "pkg.core.Command.invoke", "pkg.core.Context.invoke"], from);
    }
    // Two bodies of one qualified name: the remediation offers an id, not the name again.
    const { r, env } = await mg(root, ["reachable", "--symbol", "pkg.core.encoding"]);
    assert.equal(env.data.code, "MAGELLAN_E109", r.stdout);
    assert.doesNotMatch(env.data.remediation ?? "", /or a qualified name/);
    assert.match(env.data.remediation ?? "", /symbol_ids \(e\.g\. [0-9a-f]{16}, pkg\/core\.py:2[36]\)/);
  });
  it("Python: definitions of one name in the branches of an if/else or try/except are variants: neither is dead while the other lives, and callers of either list the calls (click's _compat._get_argv_encoding)", async () => {
    const root = writeTree(tempDir("magellan-py-variants-"), {
      "pkg/__init__.py": "",
      "pkg/_compat.py": [
        "import sys",
        "",
        'WIN = sys.platform.startswith("win")',
        "",
        "if WIN:",
        "",
        "    def _argv_encoding() -> str:",
        "        import locale",
        "",
        "        return locale.getpreferredencoding()",
        "",
        "else:",
        "",
        "    def _argv_encoding() -> str:",
        "        return sys.getfilesystemencoding()",
        "",
        "try:",
        "    import fast",
        "",
        "    def _speedup():",
        "        return fast.go()",
        "",
        "except ImportError:",
        "",
        "    def _speedup():",
        "        return None",
        "",
        "def _unused():",
        "    return 1",
        "",
      ].join("\n"),
      "pkg/types.py": "from ._compat import _argv_encoding, _speedup\n\n\ndef convert(value: bytes) -> str:\n    _speedup()\n    return value.decode(_argv_encoding())\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const dead = await mg(root, ["dead-code"]);
    const names = (dead.env.data.symbols as { display_fqn: string; span: { start_line: number } }[]).map((x) => `${x.display_fqn}:${x.span.start_line}`);
    assert.deepEqual(names.filter((n) => n.startsWith("pkg._compat.")), ["pkg._compat._unused:28"]);
    // The call is tied to the definition read last; the Windows one listed it with "no caller".
    const first = withIndex(root, (d) => d.prepare("SELECT symbol_id FROM symbols WHERE name = '_argv_encoding' ORDER BY byte_start").pluck().all() as string[]);
    const { env } = await mg(root, ["callers", "--symbol-id", first[0] as string]);
    assert.deepEqual((env.data.references as Ref[]).map((r) => `${r.span.file_path}:${r.span.start_line}`), ["pkg/types.py:6"]);
    assert.ok(env.diagnostics?.some((d) => d.code === "MAGELLAN_E117"), JSON.stringify(env.diagnostics));
  });

  it("Go: every name of a const spec is a constant (`KB, MB = 1 << 10, 1 << 20`: MB was no symbol, its uses unresolved); `_` declares nothing", async () => {
    const root = writeTree(tempDir("magellan-go-consts-"), {
      "go.mod": "module example.com/units\n\ngo 1.22\n",
      "units.go": "package units\n\nconst KB, MB = 1 << 10, 1 << 20\n\nconst (\n\tGB, _, TB = 1 << 30, 0, 1 << 40\n\tPB = 1 << 50\n)\n\nfunc Sum() int { return KB + MB + GB + TB + PB }\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    for (const name of ["MB", "TB"]) {
      const { r, env } = await mg(root, ["find", "--name", name]);
      assert.equal(r.code, 0, r.stdout);
      assert.deepEqual((env.data.matches as { kind_normalized: string }[]).map((m) => m.kind_normalized), ["const"]);
    }
    assert.deepEqual(refLines(root, "r.kind = 'read'"), [
      "units.go:10 .KB exact KB",
      "units.go:10 .MB exact MB",
      "units.go:10 .GB exact GB",
      "units.go:10 .TB exact TB",
      "units.go:10 .PB exact PB",
    ]);
  });
});
