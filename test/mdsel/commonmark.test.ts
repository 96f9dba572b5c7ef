/** CommonMark constructs whose block boundaries are easy to get wrong: every span is checked byte for byte. */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { MdselSelectMatch } from "../../src/contract/tools/mdsel.js";
import { indexCommand } from "../../src/tools/mdsel/index-command.js";
import { selectCommand } from "../../src/tools/mdsel/select-command.js";
import { tempDir } from "../support/run.js";
import { index, select } from "./helpers.js";

/** Writes `md` as doc.md and resolves the selectors; each match's span must be its content. */
async function sel(md: string, selectors: string[]): Promise<{ matches: MdselSelectMatch[]; reasons: string[] }> {
  const dir = tempDir("mdsel-cm-");
  writeFileSync(join(dir, "doc.md"), md);
  const bytes = readFileSync(join(dir, "doc.md"));
  const r = await selectCommand({ cwd: dir, root: dir }, { selectors, files: ["doc.md"] });
  const matches = r.data!.matches;
  for (const m of matches) {
    assert.equal(bytes.subarray(m.span.byte_start, m.span.byte_end).toString("utf8"), m.content, m.selector);
    for (const c of m.children_available) {
      const child = await selectCommand({ cwd: dir, root: dir }, { selectors: [c.selector], files: ["doc.md"] });
      assert.deepEqual(child.data!.matches[0]?.span, c.span, `child ${c.selector}`);
    }
  }
  return { matches, reasons: r.data!.unresolved.map((u) => u.reason) };
}

async function headingTexts(md: string): Promise<string[]> {
  const dir = tempDir("mdsel-cmh-");
  writeFileSync(join(dir, "doc.md"), md);
  const r = await indexCommand({ cwd: dir, root: dir }, { files: ["doc.md"] });
  return r.data!.documents[0]!.headings.map((h) => h.text);
}

describe("CommonMark block boundaries", () => {
  it("lazy continuation: an unmarked line continues the quote's paragraph; a blank line ends the quote", async () => {
    const { matches } = await sel("> quoted\nlazy line\n\nafter\n", ["doc::block:blockquote[0]", "doc::block:blockquote[0]/block:paragraph[0]", "doc::block:paragraph[1]"]);
    assert.deepEqual(matches.map((m) => m.content), ["> quoted\nlazy line", "quoted\nlazy line", "after"]);
    assert.equal(matches[0]!.children_available[0]?.preview, "quoted lazy line");
  });

  it("nested list with an indented code block: the code belongs to the inner item, counted inside both lists", async () => {
    const md = "- outer\n\n  - inner\n\n        code line\n\n- second\n";
    const { matches } = await sel(md, ["doc::block:list[0]", "doc::block:list[1]", "doc::block:list[0]/block:code[0]", "doc::block:list[1]/block:code[0]"]);
    assert.equal(matches[0]!.content, md.trimEnd());
    assert.equal(matches[1]!.content, "- inner\n\n        code line");
    assert.equal(matches[2]!.content, "    code line", "indented code starts at its container's indent");
    assert.deepEqual(matches[3]!.span, matches[2]!.span);
    assert.deepEqual(matches[0]!.children_available.map((c) => c.selector), ["doc::block:list[0]/block:paragraph[0]", "doc::block:list[0]/block:list[0]", "doc::block:list[0]/block:paragraph[2]"]);
  });

  it("HTML block: raw until the blank line, not a paragraph, but part of the section", async () => {
    const md = "# Title\n\n<div>\n*not emphasis*\n\n# Next\n";
    const { matches, reasons } = await sel(md, ["doc::heading:h1[0]", "doc::block:paragraph[0]"]);
    assert.equal(matches[0]!.content, "# Title\n\n<div>\n*not emphasis*", "the HTML block ends at the blank line");
    assert.deepEqual(reasons, ["Not found: document has no paragraph blocks"]);
    const closed = await sel("<table>\n<tr><td>\n\n**md inside**\n\n</td></tr>\n</table>\n\ntext\n", ["doc::block:paragraph[0]", "doc::block:paragraph[1]"]);
    assert.deepEqual(closed.matches.map((m) => m.content), ["**md inside**", "text"]);
  });

  it("table with an escaped pipe: one cell, exact span; the table ends at the first blank line", async () => {
    const md = "| a | b |\n|---|:-:|\n| x \\| y | `z` |\n| 2 |\n\nafter\n";
    const { matches } = await sel(md, ["doc::block:table[0]", "doc::block:paragraph[0]", "root"]);
    assert.equal(matches[0]!.content, "| a | b |\n|---|:-:|\n| x \\| y | `z` |\n| 2 |");
    assert.equal(matches[1]!.content, "after");
    assert.equal(matches[2]!.children_available[0]?.preview, "a b x | y z 2", "cells' text, escape and code markup dropped");
  });

  it("a heading inside a blockquote or list item is that block's content, not a section", async () => {
    const md = "> # Quoted\n>\n> text\n\n- ## Listed\n\n# Real\n\nbody\n";
    const { matches, reasons } = await sel(md, ["doc::section[0]", "doc::section[1]", "doc::heading:h2[0]", "doc::block:blockquote[0]"]);
    assert.equal(matches[0]!.content, "# Real\n\nbody");
    assert.equal(matches[1]!.content, "> # Quoted\n>\n> text");
    assert.deepEqual(reasons, ["Index out of range: document has 1 section", "Not found: document has no h2 headings"]);
    assert.deepEqual(await headingTexts(md), ["Real"]);
  });

  it("setext headings: multi-line text, and `---` under a paragraph is an h2, not a rule", async () => {
    const md = "Two\nlines\n===\n\nSub *title*\n---\n\ntext\n\n---\n\nend\n";
    assert.deepEqual(await headingTexts(md), ["Two\nlines", "Sub title"]);
    const { matches } = await sel(md, ["doc::heading:h1[0]", "doc::heading:h2[0]"]);
    assert.equal(matches[0]!.content, md.trimEnd(), "the thematic break does not end the section");
    assert.equal(matches[1]!.content, "Sub *title*\n---\n\ntext\n\n---\n\nend");
  });

  it("heading text is what a reader sees: code, emphasis, links (reference ones too), images' alt, entities, escapes", async () => {
    const md = "# `run()` *now* [docs](https://x.y/ \"t\") ![logo](l.png) &amp; \\*x\\* [ref][r] [nope][missing]\n\n[r]: /u\n";
    assert.deepEqual(await headingTexts(md), ["run() now docs logo & *x* ref [nope][missing]"]);
    // Changelog-style `[version](url) (date)` headings take a shortcut; near misses must not.
    const links = "# [1.0.0](https://x/y_z) (2024-01-01)\n# [a](u) *b*\n# [c](u`) d`\n# [e](u \"t\") f\n# [g]() h\n";
    assert.deepEqual(await headingTexts(links), ["1.0.0 (2024-01-01)", "a b", "c d`", "e f", "g h"]);
  });

  it("an unclosed fence runs to the end of its container; a fence's `#` lines are code", async () => {
    const { matches } = await sel("- ```\n  # in code\n- next\n\n```\n# also code\n", ["doc::block:code[0]", "doc::block:code[1]", "doc::block:list[0]"]);
    assert.equal(matches[0]!.content, "```\n  # in code");
    assert.equal(matches[1]!.content, "```\n# also code");
    assert.equal(matches[2]!.content, "- ```\n  # in code\n- next");
    assert.deepEqual(await headingTexts("```\n# no\n```\n"), []);
  });

  it("GFM task items: the check is not paragraph text; CRLF and tabs keep spans exact", async () => {
    const md = "- [ ] open\r\n- [x]\tdone *well*\r\n- [ ]\r\n\r\n>\tquote\r\n";
    const { matches } = await sel(md, ["doc::block:list[0]", "doc::block:list[0]/block:paragraph[1]", "doc::block:list[0]/block:paragraph[2]", "doc::block:blockquote[0]/block:paragraph[0]"]);
    assert.deepEqual(matches[0]!.children_available.map((c) => c.preview), ["open", "done well", "[ ]"]);
    assert.equal(matches[1]!.content, "done *well*");
    assert.equal(matches[2]!.content, "[ ]", "a check with no text after it is not a task");
    assert.equal(matches[3]!.content, "quote");
  });

  it("link reference definitions and thematic breaks are document content: root and sections reach them", async () => {
    const md = "# A\n\ntext [r]\n\n***\n\n[r]: https://example.com\n\n\n";
    const { matches } = await sel(md, ["doc::root", "doc::heading:h1[0]"]);
    assert.equal(matches[0]!.content, md.trimEnd());
    assert.deepEqual(matches[1]!.span, matches[0]!.span);
  });

  it("CLI: a 2,000-section document made of every construct indexes and selects exactly", async () => {
    const dir = tempDir("mdsel-cm-big-");
    let md = "";
    for (let i = 0; i < 2000; i++) {
      md += `## [${i}.0.0](https://example.com/v${i}) (2024-01-01)\n\n> note ${i}\nlazy\n\n- [x] fix *${i}*\n  1. nested\n\n     \`\`\`js\n     x(${i})\n     \`\`\`\n\n| k | v |\n|---|---|\n| ${i} | \\| |\n\n`;
    }
    writeFileSync(join(dir, "big.md"), md);
    const { code, env } = await index(["big.md"], { cwd: dir });
    assert.equal(code, 0);
    const doc = env.data!.documents[0]!;
    assert.equal(doc.headings.length, 2000);
    assert.equal(doc.headings[1234]!.text, "1234.0.0 (2024-01-01)");
    assert.deepEqual(doc.blocks, { paragraphs: 6000, code_blocks: 2000, lists: 4000, tables: 2000, blockquotes: 2000 });
    const bytes = readFileSync(join(dir, "big.md"));
    const s = await select(["big::heading:h2[1999]/block:code[0]", "big::section[7]/block:table[0]"], { cwd: dir });
    assert.equal(s.code, 0);
    assert.deepEqual(s.env.data!.matches.map((m) => m.content), ["```js\n     x(1999)\n     ```", "| k | v |\n|---|---|\n| 7 | \\| |"]);
    for (const m of s.env.data!.matches) assert.equal(bytes.subarray(m.span.byte_start, m.span.byte_end).toString("utf8"), m.content);
  });
});
