/**
 * Matches on long lines: every span's line/column and every context line against an independent
 * reading of the bytes. The line cursor used to look for the next newline again at every match,
 * which on one long line read the rest of the file each time (a 15 MB minified file with 111k
 * matches took 51 s; now 0.6 s, see docs/llmsearch.md).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { runTool, tempDir } from "../support/run.js";

function linesOf(bytes: Buffer): { starts: number[]; text: string[] } {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) starts.push(i + 1);
  const text = starts.map((s, k) => bytes.toString("utf8", s, k + 1 < starts.length ? (starts[k + 1] as number) - 1 : bytes.length).replace(/\r$/, ""));
  return { starts, text };
}

function lineOf(starts: number[], offset: number): number {
  let k = 0;
  while (k + 1 < starts.length && (starts[k + 1] as number) <= offset) k++;
  return k;
}

test("many matches on long lines: exact lines, columns and context, first line to last", async () => {
  const root = tempDir("llmsearch-long-");
  const unit = "var a=function(){return 1};";
  // A long first line, a CRLF line, a short line, a line that is the match, and a long last line
  // without a newline.
  const body = `${unit.repeat(3000)}\n${unit.repeat(5)}\r\nshort return 1 here\nreturn 1\n${"é".repeat(10)}${unit.repeat(2000)}`;
  writeFileSync(join(root, "min.js"), body);
  const bytes = Buffer.from(body);
  const { starts, text } = linesOf(bytes);
  const cases: [string[], number][] = [
    [["-F", "return 1"], 3000 + 5 + 1 + 1 + 2000],
    [["-e", "return \\d"], 3000 + 5 + 1 + 1 + 2000],
    [["-F", "return 1", "-C", "1"], 3000 + 5 + 1 + 1 + 2000],
    // A match that ends with its newline: its line is its last, the context after is the next.
    [["-U", "-e", "^return 1\\n", "-C", "1"], 1],
  ];
  for (const [args, count] of cases) {
    const r = await runTool("llmsearch", ["--root", root, ...args, "min.js"]);
    assert.equal(r.code, 0, r.stderr);
    const data = (r.json as { data: LlmsearchData }).data;
    assert.equal(data.match_count, count, args.join(" "));
    const context = args.includes("-C") ? 1 : 0;
    for (const m of data.matches) {
      const k = lineOf(starts, m.span.byte_start);
      const ke = lineOf(starts, m.span.byte_end);
      const last = bytes[m.span.byte_end - 1] === 10 ? ke - 1 : ke;
      assert.deepEqual(
        [m.span.start_line, m.span.start_col, m.span.end_line, m.span.end_col],
        [k + 1, m.span.byte_start - (starts[k] as number), ke + 1, m.span.byte_end - (starts[ke] as number)],
      );
      assert.deepEqual(m.context_before, text.slice(Math.max(0, k - context), k));
      assert.deepEqual(m.context_after, text.slice(last + 1, last + 1 + context));
    }
  }
});
