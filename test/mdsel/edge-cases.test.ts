/** Hostile and odd input: CRLF, BOM, multi-byte text, invalid UTF-8, binary, huge, empty, no headings. */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { decodeBytes } from "../../src/text/decode.js";
import { LineIndex } from "../../src/text/lines.js";
import { makeSpan } from "../../src/text/span.js";
import { byteLineIndex, spanMaker } from "../../src/tools/mdsel/document.js";
import { selectCommand } from "../../src/tools/mdsel/select-command.js";
import type { MdselDocumentIndex } from "../../src/contract/tools/mdsel.js";
import { tempDir } from "../support/run.js";
import { index, mdsel, select, type SelectData } from "./helpers.js";

const CRLF_DOC = "\ufeff# Tétle 😀\r\n\r\nHéllo wörld\r\n\r\n## Two\r\n\r\n```\r\n# not heading\r\n```\r\n\r\nSetext ü\r\n--------\r\n\r\n- a\r\n- b 😀 c\r\n";

describe("edge cases", () => {
  it("CRLF + BOM + multi-byte: every span is exact, bytes.subarray(start, end) is the content", async () => {
    const dir = tempDir("mdsel-crlf-");
    const file = join(dir, "crlf.md");
    writeFileSync(file, CRLF_DOC, "utf8");
    const bytes = readFileSync(file);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const sels = ["crlf::root", "crlf::heading:h1[0]", "crlf::heading:h2[0]", "crlf::heading:h2[1]", "crlf::section[1]/block:code[0]", "crlf::block:list[0]", "crlf::block:paragraph[2]", "crlf::root/page[0]"];
    const { code, env } = await select([...sels, "crlf.md"], { cwd: dir });
    assert.equal(code, 0, JSON.stringify(env.errors));
    const matches = env.data!.matches;
    assert.equal(matches.length, sels.length);
    for (const m of matches) {
      assert.equal(bytes.subarray(m.span.byte_start, m.span.byte_end).toString("utf8"), m.content, m.selector);
      for (const c of m.children_available) {
        const child = await selectCommand({ cwd: dir, root: dir }, { selectors: [c.selector], files: ["crlf.md"] });
        assert.equal(bytes.subarray(c.span.byte_start, c.span.byte_end).toString("utf8"), child.data!.matches[0]!.content, c.selector);
      }
    }
    const root = matches[0]!;
    assert.equal(root.span.byte_start, 3, "the BOM is not content, but offsets count it");
    assert.ok(root.content.startsWith("# Tétle 😀\r\n"));
    const h2 = matches[2]!;
    assert.equal(h2.content, "## Two\r\n\r\n```\r\n# not heading\r\n```");
    assert.deepEqual([h2.span.start_line, h2.span.start_col, h2.span.end_line, h2.span.end_col], [5, 0, 9, 3]);
    assert.equal(matches[3]!.content, "Setext ü\r\n--------\r\n\r\n- a\r\n- b 😀 c", "setext heading over CRLF");
    assert.equal(matches[6]!.content, "b 😀 c");
    const idx = await index(["crlf.md"], { cwd: dir });
    assert.deepEqual(idx.env.data!.documents[0]!.headings.map((h) => h.text), ["Tétle 😀", "Two", "Setext ü"]);
  });

  it("previews cut at 80 UTF-16 units end between graphemes: no lone surrogate (jq rejects it), no half flag", async () => {
    const dir = tempDir("mdsel-emoji-");
    const thanks = "We shipped v2.0! Thanks to everyone who tested the betas and filed bug reports 🎉 See you soon.";
    const world = "Maintained by the docs team and friends from around the world, with love from 🇫🇷 and 🇯🇵.";
    assert.deepEqual([thanks.indexOf("🎉"), world.indexOf("🇫🇷")], [79, 78], "unit 80 falls inside the emoji, and between the flag's two letters");
    writeFileSync(join(dir, "notes.md"), `# Release notes 🎉\n\n${thanks}\n\n${world}\n`);
    const { code, env, stdout } = await mdsel<SelectData>(["select", "notes::heading:h1[0]", "notes.md"], { cwd: dir });
    assert.equal(code, 0, JSON.stringify(env.errors));
    assert.doesNotMatch(stdout, /\\ud[89a-f][0-9a-f]{2}/i, "a surrogate escape in the JSON is half a character");
    assert.deepEqual(
      env.data!.matches[0]!.children_available.map((c) => c.preview),
      [thanks.slice(0, 79), world.slice(0, 78)],
    );
  });

  it("invalid UTF-8: PARSE_ERROR with the byte offset, exit 1", async () => {
    const dir = tempDir("mdsel-bad-");
    writeFileSync(join(dir, "bad.md"), Buffer.from([0x23, 0x20, 0x41, 0x0a, 0x62, 0xff, 0xfe, 0x0a]));
    const { code, env } = await index(["bad.md"], { cwd: dir });
    assert.equal(code, 1);
    assert.equal(env.data, null);
    const e = env.errors![0]!;
    assert.deepEqual([e.type, e.code, e.file], ["PARSE_ERROR", "MDSEL_E101", "bad.md"]);
    assert.match(e.message, /Invalid UTF-8 in bad\.md at byte 5 \(line 2, column 1\)/);
  });

  it("binary file (NUL byte, e.g. UTF-16): PARSE_ERROR MDSEL_E006", async () => {
    const dir = tempDir("mdsel-bin-");
    writeFileSync(join(dir, "u16.md"), Buffer.from("# Hi\n", "utf16le"));
    const { code, env } = await select(["u16::root", "u16.md"], { cwd: dir });
    assert.equal(code, 1);
    assert.deepEqual(env.errors!.map((e) => [e.type, e.code]), [["PARSE_ERROR", "MDSEL_E006"]]);
    assert.match(env.errors![0]!.message, /NUL byte at offset 1/);
  });

  it("huge file: over the default 5 MB limit or --max-bytes, refused before reading", async () => {
    const dir = tempDir("mdsel-huge-");
    const big = join(dir, "big.md");
    writeFileSync(big, "# x\n");
    truncateSync(big, 6 * 1024 * 1024); // sparse: costs no disk, but stat says 6 MB
    const { code, env } = await index(["big.md"], { cwd: dir });
    assert.equal(code, 1);
    assert.deepEqual([env.errors![0]!.type, env.errors![0]!.code], ["PROCESSING_ERROR", "MDSEL_E007"]);
    assert.match(env.errors![0]!.message, /is 6291456 bytes, the limit is 5242880/);
    writeFileSync(join(dir, "small.md"), "# Small\n\nA paragraph that is long enough.\n");
    const limited = await index(["--max-bytes", "10", "small.md"], { cwd: dir });
    assert.equal(limited.code, 1);
    assert.match(limited.env.errors![0]!.message, /limit is 10/);
  });

  it("a device or pipe: read up to the limit, so /dev/zero is refused as too large and a FIFO is indexed", async () => {
    const zero = await index(["--max-bytes", "100000", "/dev/zero"]);
    assert.equal(zero.code, 1);
    assert.deepEqual([zero.env.errors![0]!.type, zero.env.errors![0]!.code], ["PROCESSING_ERROR", "MDSEL_E007"]);
    assert.match(zero.env.errors![0]!.message, /\/dev\/zero is more than 100000 bytes, the limit is 100000/);
    // A named pipe (as `<(cmd)` gives) is taken as a file by select too, and read to its end.
    const dir = tempDir("mdsel-fifo-");
    const fifo = join(dir, "piped");
    execFileSync("mkfifo", [fifo]);
    const writer = spawn("sh", ["-c", 'printf "# Piped\\n\\nText here.\\n" > "$1"', "sh", fifo]);
    const written = new Promise((done) => writer.on("close", done));
    const { code, env } = await select(["heading:h1[0]", fifo], { cwd: dir });
    await written;
    assert.equal(code, 0, JSON.stringify(env.errors));
    assert.equal(env.data!.matches[0]!.content, "# Piped\n\nText here.");
  });

  it("empty file: root null and a warning; whitespace-only likewise", async () => {
    const dir = tempDir("mdsel-empty-");
    writeFileSync(join(dir, "empty.md"), "");
    writeFileSync(join(dir, "blank.md"), "\n\n   \n");
    const { code, env } = await index(["empty.md", "blank.md"], { cwd: dir });
    assert.equal(code, 0);
    for (const d of env.data!.documents) {
      assert.equal(d.root, null);
      assert.deepEqual(d.headings, []);
    }
    assert.deepEqual(env.warnings, ["empty.md has no content", "blank.md has no content"]);
    const sel = await select(["empty::heading:h1[0]", "empty.md"], { cwd: dir });
    assert.equal(sel.code, 1);
    assert.equal(sel.env.data!.unresolved[0]!.reason, "Not found: document has no h1 headings");
  });

  it("no headings: blocks still addressable, heading selectors suggest what exists", async () => {
    const dir = tempDir("mdsel-flat-");
    writeFileSync(join(dir, "flat.md"), "Just text.\n\n```\ncode\n```\n\n- list\n");
    const idx = await index(["flat.md"], { cwd: dir });
    assert.equal(idx.code, 0);
    assert.deepEqual(idx.env.data!.documents[0]!.headings, []);
    assert.deepEqual(idx.env.data!.documents[0]!.blocks, { paragraphs: 2, code_blocks: 1, lists: 1, tables: 0, blockquotes: 0 });
    assert.deepEqual(idx.env.warnings, ["flat.md has no headings; select its blocks from flat::root"]);
    const r = await selectCommand({ cwd: dir, root: dir }, { selectors: ["flat::heading:h2[0]", "flat::block:code[0]"], files: ["flat.md"] });
    assert.equal(r.outcome, "partial");
    assert.equal(r.data!.matches[0]!.content, "```\ncode\n```");
    assert.deepEqual(r.data!.unresolved[0]!.suggestions, ["flat::block:code[0]", "flat::block:list[0]", "flat::block:paragraph[0]", "flat::block:paragraph[1]"]);
  });

  it("YAML front matter is not a heading; headings inside list items and quotes are not sections", async () => {
    const dir = tempDir("mdsel-fm-");
    writeFileSync(join(dir, "fm.md"), "---\r\ntitle: Not a heading\r\n---\r\n\r\n# Real\r\n\r\n- ## In a list\r\n\r\n> # In a quote\r\n\r\n---\r\n\r\nAfter a rule.\r\n");
    const bytes = readFileSync(join(dir, "fm.md"));
    const r = await selectCommand({ cwd: dir, root: dir }, { selectors: ["fm::section[0]", "fm::section[1]", "fm::block:list[0]"], files: ["fm.md"] });
    assert.equal(r.data!.matches[0]!.content, "# Real\r\n\r\n- ## In a list\r\n\r\n> # In a quote\r\n\r\n---\r\n\r\nAfter a rule.");
    assert.equal(r.data!.unresolved[0]!.reason, "Index out of range: document has 1 section");
    const list = r.data!.matches[1]!;
    assert.equal(list.content, "- ## In a list");
    assert.equal(bytes.subarray(list.span.byte_start, list.span.byte_end).toString("utf8"), list.content);
  });

  it("CR-only line endings (classic Mac OS exports): front matter is masked and lines are counted at each CR, as in the LF copy", async () => {
    const dir = tempDir("mdsel-cr-");
    const post = "---\nlayout: post\ntitle: Release 1.2\n# not a heading\n---\n\n# Release 1.2\n\nThe release fixes two bugs.\n\n## Changes\n\n- Fixed the parser\n- Added `--cr`\n\n```sh\nnpm i pkg\n```\n";
    writeFileSync(join(dir, "lf.md"), post);
    writeFileSync(join(dir, "cr.md"), post.replace(/\n/g, "\r"));
    const shape = (d: MdselDocumentIndex) => ({
      headings: d.headings.map((h) => [h.selector.replace(/^\w+::/, ""), h.text, h.span.start_line, h.span.start_col, h.span.end_line, h.span.end_col, h.span.byte_start, h.span.byte_end]),
      blocks: d.blocks,
    });
    const lf = (await index(["lf.md"], { cwd: dir })).env.data!.documents[0]!;
    const cr = (await index(["cr.md"], { cwd: dir })).env.data!.documents[0]!;
    assert.deepEqual(shape(lf).headings.map((h) => h.slice(0, 3)), [["heading:h1[0]", "Release 1.2", 7], ["heading:h2[0]", "Changes", 11]]);
    assert.deepEqual(shape(cr), shape(lf));
    const sels = ["section[1]/block:list[0]", "block:code[0]", "block:paragraph[0]", "heading:h2[0]"];
    const pick = async (ns: string) => (await select([...sels.map((x) => `${ns}::${x}`), `${ns}.md`], { cwd: dir })).env.data!.matches;
    const [lfSel, crSel] = [await pick("lf"), await pick("cr")];
    const bytes = readFileSync(join(dir, "cr.md"));
    for (const [i, m] of crSel.entries()) {
      const l = lfSel[i]!;
      assert.equal(m.content, l.content.replace(/\n/g, "\r"), sels[i]);
      assert.equal(bytes.subarray(m.span.byte_start, m.span.byte_end).toString("utf8"), m.content, sels[i]);
      assert.deepEqual([m.span.start_line, m.span.start_col, m.span.end_line, m.span.end_col], [l.span.start_line, l.span.start_col, l.span.end_line, l.span.end_col], sels[i]);
    }
  });

  it("spans (one-shot span ids) are exactly src/text/span.ts makeSpan's, multi-byte paths and text included", () => {
    const bytes = Buffer.from(CRLF_DOC, "utf8");
    const decoded = decodeBytes(bytes);
    const lines = new LineIndex(bytes);
    for (const path of ["crlf.md", "docs/Größe 😀.md", "/abs/path/x.md"]) {
      const span = spanMaker(path, decoded, byteLineIndex(decoded, bytes));
      for (const [a, b] of [[0, 0], [0, decoded.text.length], [1, 9], [5, 40], [decoded.text.length, decoded.text.length]] as const) {
        assert.deepEqual(span(a, b), makeSpan(path, decoded.toByte(a), decoded.toByte(b), lines), `${path} ${a}..${b}`);
      }
      assert.throws(() => span(9, 1), RangeError);
    }
    // Line starts found from the decoded text give the line numbers and columns the shared LineIndex
    // finds from the bytes, at every byte offset.
    for (const text of [CRLF_DOC, "\uFEFFé\n\n😀 x\r\ny\n", "no newline", "", "\n"]) {
      const b = Buffer.from(text, "utf8");
      const ours = byteLineIndex(decodeBytes(b), b);
      const ref = new LineIndex(b);
      for (let off = 0; off <= b.length; off++) {
        const line = ours.lineOf(off);
        assert.deepEqual({ line, col: off - ours.lineStart(line) }, ref.position(off), `${JSON.stringify(text)} at ${off}`);
      }
    }
  });

  it("a file named twice (README.md ./README.md, or with its directory) is one document, not 'readme' and 'readme_2'", async () => {
    const dir = tempDir("mdsel-twice-");
    writeFileSync(join(dir, "README.md"), "# Title\n\n## Part\n\nText.\n");
    for (const args of [["README.md", "./README.md"], ["README.md", "."]]) {
      const { code, env } = await index(args, { cwd: dir });
      assert.equal(code, 0, JSON.stringify(env));
      const docs = (env.data as { documents: { namespace: string }[] }).documents;
      assert.deepEqual(docs.map((d) => d.namespace), ["readme"], args.join(" "));
      assert.equal(env.warnings, undefined, JSON.stringify(env.warnings));
    }
    const s = await select(["readme::heading:h2[0]", "README.md", "./README.md"], { cwd: dir });
    assert.equal(s.code, 0);
    assert.equal(s.env.data!.matches.length, 1);
  });
});
