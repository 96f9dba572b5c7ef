/**
 * -v/--invert-match as ripgrep's: the lines without a match, each one match spanning the line's
 * text without its terminator; with -c, --count-matches, -l and -m they are what is counted. Each
 * answer is compared with rg's on the same files; -U with a pattern that can match a line feed
 * is refused (ripgrep inverts runs of lines there, see docs/llmsearch.md).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import type { LlmsearchCountData, LlmsearchData, LlmsearchFilesWithMatchesData } from "../../src/contract/tools/llmsearch.js";
import { rgCounts, rgJson, rgPaths } from "../support/rg.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";

before(() => {
  root = tempDir("llmsearch-invert-");
  writeTree(root, {
    "a.txt": "foo foo\nbar\n\nfoo\nbaz\r\nqux\n",
    "all-foo.txt": "foo\nfoo\n",
    // No "foo" at all (the literal prefilter would skip it), and no final newline.
    "none.txt": "x\ny",
    "empty.txt": "",
    "bom.txt": "\ufeffbom\nfoo\n",
    "crlf.txt": "a\r\n\r\nfoo\r\nb",
  });
});

async function run(args: string[]): Promise<{ code: number; json: unknown }> {
  const r = await runTool("llmsearch", ["--root", root, ...args], { cwd: root });
  return { code: r.code, json: r.json };
}

const PATTERNS = [["foo"], ["fo+"], ["-i", "FOO"], ["-w", "foo"], ["-x", "foo"], ["$"], ["x*"], ["^b"], ["-F", "o f"], ["-U", "foo"]];

test("-v: the lines rg -v lists, each a match spanning the line without its terminator", async () => {
  for (const p of PATTERNS) {
    const args = ["-v", ...p];
    const r = await run(args);
    assert.equal(r.code, 0, args.join(" "));
    const data = (r.json as { data: LlmsearchData }).data;
    const ours = data.matches.map((m) => `${m.span.file_path}:${m.span.start_line}`).sort();
    assert.deepEqual(ours, [...rgJson(root, ["--crlf", ...args, "."]).lines].sort(), args.join(" "));
    for (const m of data.matches) {
      const bytes = readFileSync(join(root, m.span.file_path));
      const text = bytes.subarray(m.span.byte_start, m.span.byte_end).toString("utf8");
      assert.equal(m.matched_text, text);
      assert.ok(!/[\r\n]/.test(text), `${args.join(" ")}: ${JSON.stringify(text)} holds a line terminator`);
      // The whole line: a line start before it, a line end (or the end of the file) after it.
      assert.ok(m.span.byte_start === 0 || bytes[m.span.byte_start - 1] === 10 || (m.span.file_path === "bom.txt" && m.span.byte_start === 3));
      assert.ok(m.span.byte_end === bytes.length || bytes[m.span.byte_end] === 10 || (bytes[m.span.byte_end] === 13 && bytes[m.span.byte_end + 1] === 10));
      assert.equal(m.span.start_line, m.span.end_line);
    }
  }
  const some = (await run(["-v", "foo"])).json as { data: LlmsearchData };
  assert.ok(some.data.matches.some((m) => m.span.file_path === "none.txt"), "a file without the pattern's literal is all lines");
});

test("-v with -c, --count-matches, -l and -m counts the lines without a match, as rg", async () => {
  for (const p of PATTERNS) {
    for (const extra of [[], ["-m", "1"], ["-m", "2"]]) {
      const args = ["-v", ...extra, ...p];
      for (const flag of ["-c", "--count-matches"]) {
        const r = await run([flag, ...args]);
        const data = (r.json as { data: LlmsearchCountData }).data;
        assert.equal(data.count_of, "lines");
        assert.deepEqual(new Map(data.counts.map((c) => [c.file_path, c.count])), rgCounts(root, ["--crlf", flag, ...args, "."]), `${flag} ${args.join(" ")}`);
      }
      const l = await run(["-l", ...args]);
      const files = (l.json as { data: LlmsearchFilesWithMatchesData }).data.files.map((f) => f.file_path).sort();
      assert.deepEqual(files, rgPaths(root, ["--crlf", "-l", ...args, "."]), `-l ${args.join(" ")}`);
      const m = await run(args);
      assert.deepEqual(
        (m.json as { data: LlmsearchData }).data.matches.map((x) => `${x.span.file_path}:${x.span.start_line}`).sort(),
        [...rgJson(root, ["--crlf", ...args, "."]).lines].sort(),
        args.join(" "),
      );
    }
  }
});

test("-v with -U and a pattern that can match a line feed is refused (E110), not answered differently from rg", async () => {
  const r = await run(["-v", "-U", "o\\nb"]);
  assert.equal(r.code, 2);
  const data = (r.json as { data: { code: string; remediation: string } }).data;
  assert.equal(data.code, "LLMSEARCH_E110");
  assert.ok(data.remediation.length > 0);
});
