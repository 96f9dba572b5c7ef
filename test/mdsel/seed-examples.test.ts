/** Every example of seed 05, run as written (from the fixture directory) and checked for its shape. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { index, SEED, select, spanText } from "./helpers.js";

const cwd = SEED;

describe("seed 05 examples", () => {
  it("mdsel index file1.md file2.md: IndexResponse with root, headings, blocks, summary", async () => {
    const { code, env } = await index(["README.md", "docs.md"], { cwd });
    assert.equal(code, 0);
    assert.equal(env.success, true);
    assert.equal(env.command, "index");
    assert.equal(env.tool, "mdsel");
    const data = env.data!;
    assert.equal(data.documents.length, 2);
    const readme = data.documents[0]!;
    assert.equal(readme.namespace, "readme");
    assert.equal(readme.file_path, "test/fixtures/mdsel/seed/README.md");
    assert.equal(readme.root?.selector, "readme::root");
    assert.equal(readme.root?.type, "root");
    assert.match(readme.root!.content_preview, /^Project Title This is a project/);
    const h1 = readme.headings[0]!;
    assert.deepEqual(
      { ...h1, span: undefined },
      {
        selector: "readme::heading:h1[0]",
        type: "heading:h1",
        depth: 1,
        text: "Project Title",
        content_preview: "Project Title",
        truncated: false,
        children_count: 6, // the paragraph and five h2 subsections
        word_count: 2,
        section_word_count: h1.section_word_count,
        section_truncated: false,
        span: undefined,
      },
    );
    assert.equal(readme.root!.word_count, h1.section_word_count, "the h1 section spans the whole file");
    const inst = readme.headings[1]!;
    assert.equal(inst.selector, "readme::heading:h2[0]");
    assert.equal(inst.text, "Installation");
    assert.equal(inst.children_count, 2);
    assert.equal(inst.word_count, 1);
    assert.equal(inst.section_word_count, 10); // Installation, To install the package, run:, ```bash, npm install mdsel
    assert.deepEqual(readme.blocks, { paragraphs: 8, code_blocks: 1, lists: 1, tables: 0, blockquotes: 0 });
    assert.equal(data.summary.total_documents, 2);
    assert.ok(data.summary.total_nodes > 0 && data.summary.total_selectors >= data.summary.total_nodes);
    // Every heading's span is its section, byte for byte.
    assert.equal(spanText(join(cwd, "README.md"), inst.span), "## Installation\n\nTo install the package, run:\n\n```bash\nnpm install mdsel\n```");
  });

  it('mdsel select "readme::heading:h2[0]": the section with its children', async () => {
    const { code, env } = await select(["readme::heading:h2[0]"], { cwd });
    assert.equal(code, 0);
    assert.equal(env.success, true);
    const m = env.data!.matches[0]!;
    assert.equal(m.selector, "readme::heading:h2[0]");
    assert.equal(m.type, "heading:h2");
    assert.equal(m.content, "## Installation\n\nTo install the package, run:\n\n```bash\nnpm install mdsel\n```");
    assert.equal(m.truncated, false);
    assert.equal(m.pagination, undefined);
    assert.deepEqual(
      m.children_available.map((c) => ({ selector: c.selector, type: c.type, preview: c.preview })),
      [
        { selector: "readme::heading:h2[0]/block:paragraph[0]", type: "block:paragraph", preview: "To install the package, run:" },
        { selector: "readme::heading:h2[0]/block:code[0]", type: "block:code", preview: "npm install mdsel" },
      ],
    );
    assert.deepEqual(env.data!.unresolved, []);
  });

  it('mdsel select "readme::heading:h2[0]/block:code[0]": the first code block of that section', async () => {
    const { code, env } = await select(["readme::heading:h2[0]/block:code[0]"], { cwd });
    assert.equal(code, 0);
    const m = env.data!.matches[0]!;
    assert.equal(m.type, "block:code");
    assert.equal(m.content, "```bash\nnpm install mdsel\n```");
    assert.equal(spanText(join(cwd, "README.md"), m.span), m.content);
  });

  it('mdsel select "readme::section[1]?full=true": whole section, untruncated', async () => {
    const { code, env } = await select(["readme::section[1]?full=true"], { cwd });
    assert.equal(code, 0);
    const m = env.data!.matches[0]!;
    assert.equal(m.selector, "readme::section[1]");
    assert.equal(m.type, "section");
    assert.match(m.content, /^## Installation/);
  });

  it("truncated content: docs::section[5] gives 500 words, [truncated], pagination and page children", async () => {
    const { code, env } = await select(["docs::section[5]"], { cwd });
    assert.equal(code, 0);
    const m = env.data!.matches[0]!;
    assert.equal(m.type, "section");
    assert.equal(m.truncated, true);
    assert.match(m.content, /^## API Reference\n\nThis section documents all available API methods\./);
    assert.ok(m.content.endsWith("[truncated]"));
    assert.equal(m.content.replace(/\[truncated\]$/, "").split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length, 500);
    assert.deepEqual(m.pagination, { current_page: 0, total_pages: 4, word_count: 1725, has_more: true });
    const pages = m.children_available.filter((c) => c.type === "page");
    assert.deepEqual(
      pages.map((p) => [p.selector, p.preview]),
      [
        ["docs::section[5]/page[0]", "Page 1 of 4 (500 words)"],
        ["docs::section[5]/page[1]", "Page 2 of 4 (500 words)"],
        ["docs::section[5]/page[2]", "Page 3 of 4 (500 words)"],
        ["docs::section[5]/page[3]", "Page 4 of 4 (225 words)"],
      ],
    );
  });

  it("full retrieval: docs::section[5]?full=true bypasses truncation", async () => {
    const { env } = await select(["docs::section[5]?full=true"], { cwd });
    const m = env.data!.matches[0]!;
    assert.equal(m.truncated, false);
    assert.equal(m.pagination, undefined);
    assert.equal(m.content, spanText(join(cwd, "docs.md"), m.span));
    assert.match(m.content, /### method11\(\)[\s\S]*lib\.method11\(\);\n```$/);
  });

  it("file not found: data null, FILE_NOT_FOUND, exit 1", async () => {
    const { code, env } = await index(["missing.md"], { cwd });
    assert.equal(code, 1);
    assert.equal(env.success, false);
    assert.equal(env.data, null);
    assert.deepEqual(
      env.errors!.map((e) => [e.type, e.file, e.message]),
      [["FILE_NOT_FOUND", "missing.md", "File not found: missing.md"]],
    );
  });

  it("partial success (multiple files): documents, partial_results, errors, warnings, exit 4", async () => {
    const { code, env } = await index(["README.md", "missing.md"], { cwd });
    assert.equal(code, 4);
    assert.equal(env.success, false);
    assert.deepEqual(env.data!.documents.map((d) => d.namespace), ["readme"]);
    assert.equal(env.data!.summary.total_documents, 1);
    assert.deepEqual(env.partial_results, env.data!.documents);
    assert.equal(env.errors![0]!.type, "FILE_NOT_FOUND");
    assert.deepEqual(env.warnings, ["1 of 2 files could not be processed"]);
  });

  it("selector not found with suggestions: h2[99] of a document with 5 h2 headings", async () => {
    const { code, env } = await select(["readme::heading:h2[99]"], { cwd });
    assert.equal(code, 1);
    assert.equal(env.success, false);
    assert.deepEqual(env.data!.matches, []);
    assert.deepEqual(env.data!.unresolved, [
      {
        selector: "readme::heading:h2[99]",
        reason: "Index out of range: document has 5 h2 headings",
        suggestions: ["readme::heading:h2[0]", "readme::heading:h2[1]", "readme::heading:h2[2]", "readme::heading:h2[3]", "readme::heading:h2[4]"],
      },
    ]);
    assert.deepEqual(env.unresolved_selectors, ["readme::heading:h2[99]"]);
    assert.equal(env.errors![0]!.type, "SELECTOR_NOT_FOUND");
  });

  it("invalid selector syntax: h7 names the fault, its position, and the levels that exist", async () => {
    const { code, env } = await select(["readme::heading:h7[0]"], { cwd });
    assert.equal(code, 2);
    assert.equal(env.success, false);
    assert.deepEqual(env.data, { matches: [], unresolved: [] });
    const e = env.errors![0]!;
    assert.equal(e.type, "INVALID_SELECTOR");
    assert.equal(e.selector, "readme::heading:h7[0]");
    assert.equal(e.message, "Invalid heading level 'h7' - must be h1-h6");
    assert.deepEqual(e.position, { start: 16, end: 18 });
    assert.equal("readme::heading:h7[0]".slice(16, 18), "h7");
    assert.deepEqual(e.suggestions, ["readme::heading:h1[0]", "readme::heading:h2[0]", "readme::heading:h3[0]"]);
  });
});
