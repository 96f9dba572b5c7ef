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
import { assertIncrementalMatchesRebuild, mg, refLines } from "./support.js";

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
});
