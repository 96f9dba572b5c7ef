/**
 * UTF-16 files with a byte order mark are searched as ripgrep searches them (transcoded, its
 * default `--encoding auto`), and each span is in the file's own bytes, so that llmtransform can
 * take it with the match's checksum and write the new text in the file's encoding. ripgrep must
 * be installed: without it this test fails, it does not skip.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { search } from "../../src/tools/llmsearch/search.js";
import { useWarmCache, WarmCache } from "../../src/text/warm-cache.js";
import { runTool, tempDir } from "../support/run.js";

function utf16(text: string, enc: "le" | "be", bom = true): Buffer {
  const le = Buffer.from(text, "utf16le");
  const body = enc === "le" ? le : Buffer.from(le).swap16();
  return bom ? Buffer.concat([Buffer.from(enc === "le" ? [0xff, 0xfe] : [0xfe, 0xff]), body]) : body;
}

/** The text a span of a UTF-16 file stands for. */
function textAt(file: Buffer, start: number, end: number): string {
  const body = Buffer.from(file.subarray(start, end));
  return (file[0] === 0xfe ? body.swap16() : body).toString("utf16le");
}

/** A file offset as ripgrep reports it: the UTF-8 bytes of the transcoded text before it. */
function rgOffset(file: Buffer, offset: number): number {
  return Buffer.byteLength(textAt(file, 2, Math.max(2, offset)), "utf8");
}

const LE_TEXT = "café 😀 foo\r\nfoo bar\n\tFOO baz\nlast foo";
const BE_TEXT = "first line\nσ foo σ\n😀😀 foo😀\n";

function makeTree(): string {
  const root = tempDir("llmsearch-utf16-");
  writeFileSync(join(root, "le.txt"), utf16(LE_TEXT, "le"));
  writeFileSync(join(root, "be.txt"), utf16(BE_TEXT, "be"));
  // Past the first 64 KiB block: the prefilter's windows and the full read.
  writeFileSync(join(root, "big.txt"), utf16(`${"a line without it\n".repeat(5000)}foo at the end\n`, "le"));
  // A NUL character: binary, as in UTF-8, after the matches of the lines before it.
  writeFileSync(join(root, "nul.txt"), utf16("foo one\nfoo two\nbad\u0000foo\nfoo\n", "le"));
  // No BOM: nothing says it is text, and ripgrep finds it binary too.
  writeFileSync(join(root, "nobom.txt"), utf16("foo\n", "le", false));
  writeFileSync(join(root, "plain.txt"), "foo in UTF-8\n");
  return root;
}

/** As `rg --crlf`, as llmsearch searches every file (docs/llmsearch.md). */
function rgSet(root: string, pattern: string): Set<string> {
  const r = spawnSync("rg", ["--json", "--crlf", "-e", pattern, "."], { cwd: root, encoding: "utf8" });
  assert.ok(!r.error, `ripgrep (rg) is required for this test and could not run: ${String(r.error)}`);
  assert.ok(r.status === 0 || r.status === 1, `rg failed (${r.status}): ${r.stderr}`);
  const out = new Set<string>();
  for (const line of r.stdout.split("\n")) {
    if (!line) continue;
    const msg = JSON.parse(line) as { type: string; data: { path: { text: string }; absolute_offset: number; submatches: { start: number; end: number }[] } };
    if (msg.type !== "match") continue;
    for (const sm of msg.data.submatches) out.add(`${msg.data.path.text.replace(/^\.\//, "")}:${msg.data.absolute_offset + sm.start}:${msg.data.absolute_offset + sm.end}`);
  }
  return out;
}

test("UTF-16 files with a BOM: ripgrep's matches, with spans, lines, columns and checksums in the file's own bytes", async () => {
  const root = makeTree();
  for (const pattern of ["foo", "f.o", "(?i)foo", "^foo", "foo$", "😀", "σ \\w+", "\\bba[rz]\\b"]) {
    const r = await runTool("llmsearch", ["--root", root, "-e", pattern]);
    assert.equal(r.code, 0, r.stdout);
    const data = (r.json as { data: LlmsearchData }).data;
    const ours = new Set<string>();
    for (const m of data.matches) {
      const sp = m.span;
      const file = readFileSync(join(root, sp.file_path));
      if (file[0] === 0xff || file[0] === 0xfe) {
        assert.equal(textAt(file, sp.byte_start, sp.byte_end), m.matched_text, `${pattern}: ${sp.file_path} [${sp.byte_start}, ${sp.byte_end}) is the match`);
        assert.equal(sp.byte_start % 2, 0);
        // Line and column: the bytes before the span, counted in the file's lines.
        const before = textAt(file, 2, sp.byte_start).split("\n");
        assert.equal(sp.start_line, before.length, `${pattern}: line of ${sp.file_path}:${sp.byte_start}`);
        const lineStart = sp.start_line === 1 ? 0 : sp.byte_start - 2 * (before.at(-1) as string).length;
        assert.equal(sp.start_col, sp.byte_start - lineStart, `${pattern}: column of ${sp.file_path}:${sp.byte_start}`);
        ours.add(`${sp.file_path}:${rgOffset(file, sp.byte_start)}:${rgOffset(file, sp.byte_end)}`);
      } else {
        ours.add(`${sp.file_path}:${sp.byte_start}:${sp.byte_end}`);
      }
      if (m.file_checksum) assert.equal(m.file_checksum, `sha256:${createHash("sha256").update(file).digest("hex")}`);
      else assert.equal(sp.file_path, "nul.txt", "only the binary file's matches lack a checksum");
    }
    // nul.txt aside: ripgrep reports by 64 KiB buffer and so nothing of a file whose NUL is in the
    // first, where llmsearch reports the lines before it (docs/llmsearch.md, as in UTF-8).
    assert.deepEqual([...ours].filter((k) => !k.startsWith("nul.txt:")).sort(), [...rgSet(root, pattern)].sort(), pattern);
    const skipped = Object.fromEntries(data.files_skipped.map((s) => [s.file_path, s]));
    assert.equal(skipped["nobom.txt"]?.reason, "binary");
    assert.equal(skipped["nul.txt"]?.reason, "binary");
    assert.equal(skipped["le.txt"], undefined);
  }
  const r = await runTool("llmsearch", ["--root", root, "-e", "foo"]);
  const data = (r.json as { data: LlmsearchData }).data;
  assert.match(data.files_skipped.find((s) => s.file_path === "nul.txt")?.detail ?? "", /UTF-16 text with a NUL character at byte 40; 2 matches/);
  assert.deepEqual(
    data.matches.filter((m) => m.span.file_path === "be.txt").map((m) => [m.span.start_line, m.span.start_col, m.context_after]),
    [
      [2, 4, []],
      [3, 10, []],
    ],
  );
});

test("UTF-16: the warm cache answers as the cold read, and -c and -l count as ripgrep", async () => {
  const root = makeTree();
  const warm = new WarmCache({ racyMs: 0 });
  for (const req of [{ pattern: "foo" }, { pattern: "😀", before: 1 }, { pattern: "foo", count: true }, { pattern: "foo", filesWithMatches: true }]) {
    useWarmCache(undefined);
    const cold = JSON.stringify(await search({ root, cwd: root, ...req }));
    useWarmCache(warm);
    try {
      for (let i = 0; i < 2; i++) assert.equal(JSON.stringify(await search({ root, cwd: root, ...req })), cold, JSON.stringify(req));
    } finally {
      useWarmCache(undefined);
    }
  }
  const counts = await runTool("llmsearch", ["--root", root, "-c", "foo"]);
  const rg = spawnSync("rg", ["-c", "foo", "."], { cwd: root, encoding: "utf8" }).stdout;
  const rgCounts = Object.fromEntries(rg.trim().split("\n").map((l) => [l.replace(/^\.\//, "").split(":")[0], Number(l.split(":").at(-1))]));
  const ourCounts = Object.fromEntries(
    (counts.json as { data: { counts: { file_path: string; count: number }[] } }).data.counts.filter((c) => c.file_path !== "nul.txt").map((c) => [c.file_path, c.count]),
  );
  assert.deepEqual(ourCounts, rgCounts);
});

test("UTF-16: a span from llmsearch edits the file in its own encoding; offsets inside the BOM, a code unit or a surrogate pair are refused", async () => {
  const root = makeTree();
  const found = await runTool("llmsearch", ["--root", root, "-F", "foo😀"]);
  const m = (found.json as { data: LlmsearchData }).data.matches[0];
  assert.ok(m?.file_checksum);
  const req = { file_path: "be.txt", expected_checksum: m.file_checksum, edits: [{ span: m.span, new_content: "bär 🎉" }] };
  const r = await runTool("llmtransform", ["--root", root], { input: JSON.stringify(req) });
  assert.equal(r.code, 0, r.stdout);
  const after = readFileSync(join(root, "be.txt"));
  assert.deepEqual(after.subarray(0, 2), Buffer.from([0xfe, 0xff]), "the BOM stays");
  assert.equal(textAt(after, 2, after.length), BE_TEXT.replace("foo😀", "bär 🎉"));
  const res = (r.json as { result: { edits: { new_span: { byte_start: number; byte_end: number; start_line: number } }[] } }).result;
  const ns = res.edits[0]?.new_span;
  assert.ok(ns);
  assert.equal(textAt(after, ns.byte_start, ns.byte_end), "bär 🎉");
  assert.equal(ns.start_line, 3);

  const le = readFileSync(join(root, "le.txt"));
  const sum = `sha256:${createHash("sha256").update(le).digest("hex")}`;
  const emoji = 2 + 2 * LE_TEXT.indexOf("😀");
  for (const [start, end] of [
    [0, 4],
    [1, 1],
    [7, 9],
    [emoji + 2, emoji + 4],
  ] as const) {
    const bad = await runTool("llmtransform", ["--root", root], { input: JSON.stringify({ file_path: "le.txt", expected_checksum: sum, edits: [{ byte_start: start, byte_end: end, new_content: "x" }] }) });
    assert.notEqual(bad.code, 0, `[${start}, ${end})`);
    assert.match(bad.stdout, /not between two characters of this UTF-16LE file/, `[${start}, ${end})`);
    assert.deepEqual(readFileSync(join(root, "le.txt")), le, "untouched");
  }
  // Line and column as the edit's position, counted in the file's bytes.
  const ok = await runTool("llmtransform", ["--root", root], {
    input: JSON.stringify({ file_path: "le.txt", expected_checksum: sum, edits: [{ start_line: 3, start_col: 2, end_line: 3, end_col: 8, new_content: "Bar" }] }),
  });
  assert.equal(ok.code, 0, ok.stdout);
  const le2 = readFileSync(join(root, "le.txt"));
  assert.equal(textAt(le2, 2, le2.length), LE_TEXT.replace("FOO", "Bar"));
});
