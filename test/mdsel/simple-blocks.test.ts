/**
 * The simple block scanner must give exactly what markdown-it gives (same nodes, same texts)
 * on every document it takes on, and must give up on every other. Real changelogs from the
 * installed packages plus constructed edge cases; test/mdsel/differential.ts is the large sweep.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { RawNode } from "../../src/tools/mdsel/block-marks.js";
import { maskFrontMatter } from "../../src/tools/mdsel/document.js";
import { parseBlocks } from "../../src/tools/mdsel/parse.js";
import { scanSimple } from "../../src/tools/mdsel/simple-blocks.js";
import { REPO_ROOT } from "../support/run.js";

/** A node without its parser handle (`tok` is a token index for markdown-it, the node index for the scanner). */
const shape = (n: RawNode): unknown[] => [n.kind, n.start, n.end, n.parent, n.depth, n.task];

/** Asserts that the scanner takes `md` on and agrees with markdown-it on every node and every text mdsel prints. */
async function agrees(md: string, label: string): Promise<void> {
  const src = maskFrontMatter(md);
  assert.ok(scanSimple(src.replace(/\r\n?/g, "\n")), `${label}: the simple scanner should take this document on`);
  const ref = await parseBlocks(src, { simple: false });
  const got = await parseBlocks(src);
  assert.deepEqual(got.nodes.map(shape), ref.nodes.map(shape), `${label}: nodes`);
  ref.nodes.forEach((n, i) => {
    const g = got.nodes[i]!;
    assert.equal(got.blockText(g.tok, 80), ref.blockText(n.tok, 80), `${label}: preview of the ${n.kind} at ${n.start}`);
    assert.equal(got.inlineText(g.tok), ref.inlineText(n.tok), `${label}: text of the ${n.kind} at ${n.start}`);
  });
  assert.equal(got.docText(200), ref.docText(200), `${label}: document text`);
}

describe("simple block scanner", () => {
  it("agrees with markdown-it on real changelogs and READMEs of installed packages", async () => {
    for (const rel of ["acorn/CHANGELOG.md", "minimist/CHANGELOG.md", "which/CHANGELOG.md", "prelude-ls/CHANGELOG.md", "typescript/SECURITY.md", "esquery/README.md"]) {
      await agrees(readFileSync(join(REPO_ROOT, "node_modules", rel), "utf8"), rel);
    }
  });

  it("agrees on headings: closing sequences, trailing spaces, empty, not-headings", async () => {
    await agrees("# Title #\n## Sub ##   \n### ###\n#\n#foo\n####### seven\n## a # b ##\n#\tTab\n   ### indented\n", "headings");
  });

  it("agrees on nested lists, lazy lines, loose items, marker changes, lists ended by headings", async () => {
    const md = [
      "- `@scope/pkg`",
      "  - fix: one ([PR #1](https://x/1) by a@b.c)",
      "  - feat: two",
      "lazy continuation of two",
      "    - three levels",
      "      - four levels",
      "- next top item",
      "",
      "  second paragraph of the item",
      "",
      "* other marker starts a new list",
      "+ and another",
      "## Heading ends the list",
      "- item",
      "# heading interrupts",
      "text",
      "- list interrupts a paragraph",
      "-    wide marker gap",
      "- [ ] task item",
      "- [x] done item",
      "  [link](url) starts a paragraph",
      "",
      "    continuation indented past the paragraph",
      "",
    ].join("\n");
    await agrees(md, "lists");
    await agrees(md.replace(/\n/g, "\r\n"), "lists, CRLF");
  });

  it("agrees on HTML comments: one line, several lines, in a list, ending a paragraph", async () => {
    await agrees("<!-- one -->\n\n<!--\nmany\nlines -->\ntext\n<!-- ends the paragraph -->\n- item\n  <!-- in the item -->\n\n  <!-- unclosed\n", "comments");
  });

  it("agrees on front matter, a document without a final newline, and one ending in spaces", async () => {
    await agrees("---\ntitle: x\n---\n# A\n\npara", "front matter");
    await agrees("# A\n\n- b\n   ", "trailing spaces");
    await agrees("", "empty");
  });

  it("gives up on every other block, so markdown-it decides those", () => {
    const refused = [
      "> quote",
      "```\ncode\n```",
      "~~~\ncode\n~~~",
      "1. ordered",
      "text\n2) ordered",
      "---",
      "text\n===",
      "a | b\n--|--",
      "* * *",
      "[ref]: /url",
      "<div>\nhtml\n</div>",
      "    indented code",
      "- item\n\n      indented code in an item",
      "-",
      "- ",
      "\t# tab indent",
      "-\tfoo",
      "-      code after a wide marker gap",
    ];
    for (const md of refused) assert.equal(scanSimple(md), null, JSON.stringify(md));
  });
});
