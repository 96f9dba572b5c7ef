/** Each selector form against a document that has every block type, nested sections and traps. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { MdselSelectMatch } from "../../src/contract/tools/mdsel.js";
import { selectCommand } from "../../src/tools/mdsel/select-command.js";
import { FIXTURES, select, spanText } from "./helpers.js";

const DIR = join(FIXTURES, "forms");
const FILE = join(DIR, "guide.md");
const BYTES = readFileSync(FILE);
const ws = { cwd: DIR, root: DIR };

async function one(selector: string): Promise<MdselSelectMatch> {
  const r = await selectCommand(ws, { selectors: [selector], files: ["guide.md"] });
  assert.equal(r.outcome, "ok", JSON.stringify(r.errors));
  const m = r.data!.matches[0]!;
  // CONTRACT.md: the span's bytes are what the match talks about.
  const spanned = BYTES.subarray(m.span.byte_start, m.span.byte_end).toString("utf8");
  if (m.truncated) assert.ok(spanned.startsWith(m.content.replace(/\[truncated\]$/, "")));
  else assert.equal(spanned, m.content);
  for (const c of m.children_available) {
    if (c.type === "page") continue;
    const child = await selectCommand(ws, { selectors: [c.selector], files: ["guide.md"] });
    assert.equal(child.outcome, "ok", `child selector ${c.selector} must resolve`);
    assert.deepEqual(child.data!.matches[0]!.span, c.span, `child ${c.selector} span`);
  }
  return m;
}

describe("selector forms", () => {
  it("root: the whole document, children are the preamble and top-level sections", async () => {
    const m = await one("guide::root");
    assert.equal(m.type, "root");
    assert.equal(m.content, BYTES.toString("utf8").trimEnd());
    assert.deepEqual(m.children_available.map((c) => c.selector), ["guide::block:paragraph[0]", "guide::heading:h1[0]", "guide::heading:h1[1]"]);
    const bare = await one("guide::");
    assert.deepEqual(bare.span, m.span);
  });

  it("heading:hN[i]: setext headings count, ATX-looking lines in code do not, duplicates are distinct", async () => {
    const h1 = await one("guide::heading:h1[0]");
    assert.match(h1.content, /^Guide\n=====\n/);
    assert.ok(h1.content.endsWith("The duplicate heading text is its own section."), "h1 section stops before the next h1");
    const setext2 = await one("guide::heading:h2[1]");
    assert.match(setext2.content, /^Second level\n-+\n/);
    const dup0 = await one("guide::heading:h2[0]");
    const dup2 = await one("guide::heading:h2[2]");
    assert.match(dup0.content, /^## Setup\n\nFirst setup/);
    assert.match(dup2.content, /^## Setup\n\nThe duplicate heading/);
    assert.notEqual(dup0.span.byte_start, dup2.span.byte_start);
    // "# not a heading" sits in a fence; "## Heading inside a quote" is quote content, not a section.
    const all = await selectCommand(ws, { selectors: ["guide::heading:h1[2]", "guide::heading:h2[3]"], files: ["guide.md"] });
    assert.deepEqual(all.data!.unresolved.map((u) => u.reason), ["Index out of range: document has 2 h1 headings", "Index out of range: document has 3 h2 headings"]);
  });

  it("sections own their subsections up to the next heading of the same or higher level", async () => {
    const setup = await one("guide::heading:h2[0]");
    assert.match(setup.content, /### Details[\s\S]*More quote\.$/);
    assert.ok(!setup.content.includes("Second level"));
    assert.deepEqual(setup.children_available.map((c) => c.selector), [
      "guide::heading:h2[0]/block:paragraph[0]",
      "guide::heading:h2[0]/block:code[0]",
      "guide::heading:h2[0]/block:list[0]",
      "guide::heading:h2[0]/heading:h3[0]",
    ]);
    // The first code block of the section, nested ones counted in document order.
    assert.match((await one("guide::heading:h2[0]/block:code[1]")).content, /^```js\n {2}run\(\);\n {2}```$/);
    // A subsection's blocks are in the parent's scope too.
    assert.equal((await one("guide::heading:h2[0]/block:blockquote[0]")).type, "block:blockquote");
  });

  it("section[i]: counts headings of every level in document order", async () => {
    const s = await one("guide::section[2]");
    assert.equal(s.type, "section");
    assert.match(s.content, /^### Details/);
    assert.deepEqual(s.span, (await one("guide::heading:h3[0]")).span);
    const nested = await one("guide::heading:h1[0]/section[1]");
    assert.match(nested.content, /^### Details/, "section[i] inside a scope counts that scope's sections");
  });

  it("block:paragraph|code|list|table|blockquote[i], GFM tables, task lists and strikethrough", async () => {
    assert.equal((await one("guide::block:paragraph[0]")).content, "Intro paragraph before any heading.");
    assert.match((await one("guide::block:code[0]")).content, /^```sh\n# not a heading/);
    const list = await one("guide::block:list[0]");
    assert.match(list.content, /^- item one\n- item two with code:/);
    assert.deepEqual(list.children_available.map((c) => c.selector), [
      "guide::block:list[0]/block:paragraph[0]",
      "guide::block:list[0]/block:paragraph[1]",
      "guide::block:list[0]/block:code[0]",
    ]);
    const table = await one("guide::block:table[0]");
    assert.match(table.content, /^\| Name \| Value \|\n\| -+ \| -+ \|\n\| a +\| 1 +\|$/);
    const tasks = await one("guide::block:list[1]");
    assert.match(tasks.content, /^- \[x\] done task\n- \[ \] open task with ~~old~~ text$/);
    assert.equal(tasks.children_available[1]?.preview, "open task with old text", "strikethrough is parsed, its markup dropped in previews");
    const quote = await one("guide::block:blockquote[0]");
    assert.match(quote.content, /^> A quote\.\n>\n> ## Heading inside a quote\n>\n> More quote\.$/);
  });

  it("paths chain scopes; page[i] pages any node; ?full=true applies to the last node", async () => {
    const p = await one("guide::heading:h1[0]/heading:h2[0]/heading:h3[0]/block:blockquote[0]/block:paragraph[1]");
    assert.equal(p.content, "More quote.");
    const page = await one("guide::heading:h2[0]/page[0]");
    assert.equal(page.type, "page");
    assert.deepEqual(page.pagination, { current_page: 0, total_pages: 1, word_count: 32, has_more: false });
    assert.equal(page.content, (await one("guide::heading:h2[0]")).content, "a short node is one page");
    assert.equal((await one("guide::root?full=true")).truncated, false);
  });

  it("a selector without namespace applies to every document given", async () => {
    const r = await selectCommand({ cwd: FIXTURES, root: FIXTURES }, { selectors: ["heading:h1[0]"], files: ["forms/guide.md", "seed/README.md"] });
    assert.equal(r.outcome, "ok");
    assert.deepEqual(r.data!.matches.map((m) => m.selector), ["guide::heading:h1[0]", "readme::heading:h1[0]"]);
  });

  it("CLI: no files given, the namespace is looked up among the current directory's Markdown files", async () => {
    const { code, env } = await select(["readme::heading:h2[1]", "docs::heading:h1[0]/block:paragraph[0]"], { cwd: join(FIXTURES, "seed") });
    assert.equal(code, 0);
    const [usage, para] = env.data!.matches;
    assert.equal(usage?.selector, "readme::heading:h2[1]");
    assert.match(usage!.content, /^## Usage/);
    assert.equal(para?.content, "Reference documentation for the library.");
    assert.equal(spanText(join(FIXTURES, "seed", "docs.md"), para!.span), para!.content);
  });

  it("CLI: files and selectors mixed, page of a long section, span of each page exact", async () => {
    const docs = join(FIXTURES, "seed", "docs.md");
    const { code, env } = await select(["docs::section[5]/page[1]", "docs::section[5]/page[3]", docs]);
    assert.equal(code, 0);
    const [p1, p3] = env.data!.matches;
    assert.deepEqual(p1!.pagination, { current_page: 1, total_pages: 4, word_count: 1725, has_more: true });
    assert.deepEqual(p3!.pagination, { current_page: 3, total_pages: 4, word_count: 1725, has_more: false });
    assert.equal(spanText(docs, p1!.span), p1!.content);
    assert.equal(spanText(docs, p3!.span), p3!.content);
    assert.match(p3!.content, /lib\.method11\(\);\n```$/);
  });
});
