/**
 * Resolution faults found by reading magellan's answers on three repositories it had not seen
 * (pallets/click, junegunn/fzf, square/javapoet) against their code. Each tree below copies the
 * shape of the real case in a few short files (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg, refLines, withIndex } from "./support.js";

async function tree(files: Record<string, string>): Promise<string> {
  const root = writeTree(tempDir("mg-sweep-"), files);
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return root;
}

const GO_TUI = `package tui

type BorderShape int

const (
\tBorderNone BorderShape = iota
\tBorderRounded
)

func (s BorderShape) Visible() bool {
\treturn s != BorderNone
}
`;

const CLICK_PY: Record<string, string> = {
  "src/click/__init__.py": "",
  "src/click/types.py": `import typing as t

_T = t.TypeVar("_T")


class ParamType(t.Generic[_T]):
    name: str

    def to_info_dict(self):
        return {"name": self.name}

    def fail(self, message):
        raise ValueError(message)


class FuncParamType(ParamType[_T], t.Generic[_T]):
    def to_info_dict(self):
        return {"func": 1, **super().to_info_dict()}

    def convert(self, value):
        self.fail(value)
`,
  "src/click/exceptions.py": `class ClickException(Exception):
    def __init__(self, message):
        super().__init__(message)


class UsageError(ClickException):
    def __init__(self, message, ctx=None):
        super().__init__(message)
        self.ctx = ctx
`,
  "src/click/testing.py": `import io


class BytesIOCopy(io.BytesIO):
    def __init__(self, copy_to):
        super().__init__()
        self.copy_to = copy_to

    def flush(self):
        super().flush()
`,
  "src/click/_termui_impl.py": `class _PagerWriter:
    def __init__(self, stream):
        self._stream = stream

    def flush(self):
        pass


def get_pager_file(stream):
    writer = _PagerWriter(stream)
    try:
        yield writer
    finally:
        writer.flush()
`,
};

describe("real-world shapes (click, fzf, javapoet)", () => {
  it("Go: a field or parameter of a defined non-struct type (type BorderShape int) reaches that type's methods", async () => {
    const root = await tree({
      "go.mod": "module github.com/junegunn/fzf\n\ngo 1.23\n",
      "src/tui/tui.go": GO_TUI,
      "src/options.go": "package fzf\n\ntype previewOpts struct {\n\tsize int\n}\n\nfunc (o *previewOpts) Visible() bool {\n\treturn o.size > 0\n}\n",
      "src/terminal.go": `package fzf

import "github.com/junegunn/fzf/src/tui"

type Terminal struct {
	inputBorderShape tui.BorderShape
	previewOpts      previewOpts
}

func (t *Terminal) resizeIfNeeded() bool {
	return t.inputBorderShape.Visible() && t.previewOpts.Visible()
}

func hasTop(shape tui.BorderShape) bool {
	return shape.Visible()
}
`,
    });
    const visible = "r.name = 'Visible' AND f.path = 'src/terminal.go'";
    assert.deepEqual(refLines(root, visible), [
      "src/terminal.go:11 t.inputBorderShape.Visible imported src/tui.BorderShape.Visible",
      "src/terminal.go:11 t.previewOpts.Visible heuristic src.previewOpts.Visible",
      "src/terminal.go:15 shape.Visible imported src/tui.BorderShape.Visible",
    ]);
    // The type gone (its methods stay, on a receiver type no symbol has): as a rebuild resolves.
    writeFileSync(join(root, "src/tui/tui.go"), GO_TUI.replace("type BorderShape int\n", ""));
    await assertIncrementalMatchesRebuild(root, "type-gone");
    writeFileSync(join(root, "src/tui/tui.go"), GO_TUI);
    await assertIncrementalMatchesRebuild(root, "type-back");
    assert.equal(refLines(root, visible)[0], "src/terminal.go:11 t.inputBorderShape.Visible imported src/tui.BorderShape.Visible");
  });
  it("Python: a generic base (class FuncParamType(ParamType[T], t.Generic[T])) is a base: super() and self reach ParamType's methods", async () => {
    const root = await tree(CLICK_PY);
    assert.deepEqual(refLines(root, "r.kind = 'call' AND f.path = 'src/click/types.py' AND r.qualifier IN ('super()', 'self')"), [
      "src/click/types.py:18 super().to_info_dict exact click.types.ParamType.to_info_dict",
      "src/click/types.py:21 self.fail exact click.types.ParamType.fail",
    ]);
  });

  it("Python: super().__init__ is the base's __init__; a member of a library base (Exception, io.BytesIO) is no guess among the repository's", async () => {
    const root = await tree(CLICK_PY);
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.qualifier = 'super()' AND f.path != 'src/click/types.py'"), [
      "src/click/exceptions.py:3 super().__init__ unresolved -",
      "src/click/exceptions.py:8 super().__init__ exact click.exceptions.ClickException.__init__",
      "src/click/testing.py:6 super().__init__ unresolved -",
      "src/click/testing.py:10 super().flush unresolved -",
    ]);
  });

  it("Python: a private class (writer = _PagerWriter(stream)) types the local it initialises", async () => {
    const root = await tree(CLICK_PY);
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.qualifier = 'writer'"), ["src/click/_termui_impl.py:14 writer.flush exact click._termui_impl._PagerWriter.flush"]);
  });
  it("Java: a method's own name in its body is the class's overloads (the first of the call's count, a guess); a constructor's is the class", async () => {
    const root = await tree({
      "src/main/java/com/squareup/javapoet/JavaFile.java": `package com.squareup.javapoet;

import java.io.File;
import java.nio.file.Path;
import java.util.Set;

public final class JavaFile {
  public void writeTo(Appendable out) {
  }

  public void writeTo(Path directory) {
  }

  public void writeTo(File directory) {
    writeTo(directory.toPath());
  }

  private void fillAlwaysQualifiedNames(TypeSpec spec, Set<String> names) {
    fillAlwaysQualifiedNames(spec, names);
  }
}
`,
      "src/main/java/com/squareup/javapoet/ClassName.java": `package com.squareup.javapoet;

public final class ClassName {
  private ClassName(String packageName, ClassName enclosingClassName, String simpleName) {
  }

  public ClassName nestedClass(String name) {
    return new ClassName("p", this, name);
  }
}
`,
    });
    const lines = withIndex(root, (d) =>
      d
        .prepare(
          `SELECT f.path || ':' || r.start_line || ' ' || r.kind || ' ' || r.name || ' ' || r.resolution || ' ' || coalesce(s.kind_normalized || '@' || s.start_line, '-')
           FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.symbol_id = r.target_symbol_id
           WHERE r.name IN ('writeTo', 'fillAlwaysQualifiedNames', 'ClassName') ORDER BY f.path, r.byte_start`,
        )
        .pluck()
        .all(),
    );
    assert.deepEqual(lines, [
      // (ClassName.java: the constructor's parameter type, a return type and `new ClassName` are the class, in its file.)
      "src/main/java/com/squareup/javapoet/ClassName.java:4 type ClassName exact class@3",
      "src/main/java/com/squareup/javapoet/ClassName.java:7 type ClassName exact class@3",
      "src/main/java/com/squareup/javapoet/ClassName.java:8 call ClassName exact class@3",
      // Three writeTo of one argument: which one, the argument's type says; the first, as a guess.
      "src/main/java/com/squareup/javapoet/JavaFile.java:15 call writeTo heuristic method@8",
      // One of that name: recursion, stated.
      "src/main/java/com/squareup/javapoet/JavaFile.java:19 call fillAlwaysQualifiedNames exact method@18",
    ]);
  });
  it("a root-relative file that does not exist, named from outside the root, is a file not in the index, not a path outside the root", async () => {
    const root = await tree({ "src/click/core.py": "def main():\n    pass\n" });
    const elsewhere = tempDir("mg-sweep-cwd-");
    const missing = await mg(root, ["query", "--file", "src/click/nope.py", "--root", root], { cwd: elsewhere });
    assert.equal(missing.r.code, 1, missing.r.stdout);
    assert.equal(missing.env.data.code, "MAGELLAN_E105");
    assert.match(String(missing.env.data.message), /did you mean: src\/click\/core\.py/);
    // (An existing root-relative path answered from there already; `../` still says "from here".)
    assert.equal((await mg(root, ["query", "--file", "src/click/core.py", "--root", root], { cwd: elsewhere })).r.code, 0);
    const up = await mg(root, ["query", "--file", "../core.py", "--root", root], { cwd: elsewhere });
    assert.equal(up.env.data.code, "MAGELLAN_E001", up.r.stdout);
  });
});
