/**
 * ripgrep takes the complement of a set inside a class: `[\s\S]` (any character, the idiom for
 * a docstring or a block comment with -U), `[^\W_]` (a word character but `_`). A JS u-mode class
 * cannot hold `\S` or `\W`, and llmsearch refused them (E101); they are now rebuilt as an
 * alternation or lookaheads, with rg's line-mode rule (no line feed without -U) kept.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { REPO_ROOT, runTool } from "../support/run.js";

const FIXTURE = join(REPO_ROOT, "test", "fixtures", "llmsearch", "class-complements");
const TEXT = readFileSync(join(FIXTURE, "commands.py"), "latin1");

async function spans(args: string[]): Promise<[number, number][]> {
  const r = await runTool("llmsearch", ["--root", FIXTURE, "--limit", "100000", ...args]);
  assert.equal(r.code, 0, r.stdout);
  return (r.json as { data: LlmsearchData }).data.matches.map((m) => [m.span.byte_start, m.span.byte_end]);
}

/** Spans of every match of a JS regex over the (ASCII) fixture. */
function expected(re: RegExp): [number, number][] {
  return [...TEXT.matchAll(re)].map((m) => [m.index, m.index + m[0].length]);
}

test("[\\s\\S] and [^\\W_] match as in ripgrep instead of being refused", async () => {
  // Both docstrings, the multi-line one whole.
  const doc = await spans(["-U", "-e", '"""[\\s\\S]*?"""']);
  assert.deepEqual(doc, expected(/"""[\s\S]*?"""/g));
  assert.equal(doc.length, 2);
  assert.ok(TEXT.slice(...(doc[0] as [number, number])).includes("\n\n    This is the docstring"));
  // Without -U the class loses the line feed, as every class does in rg's line mode.
  assert.deepEqual(await spans(["-e", '"""[\\s\\S]*']), expected(/"""[^\n]*/g));
  // A word character other than `_`: snake_case_name is four matches.
  assert.deepEqual(await spans(["-e", "[^\\W_]+"]), expected(/[A-Za-z0-9]+/g));
  // [^\S\n ] in multiline: white space but not a line feed or a space (the indentation has none).
  assert.deepEqual(await spans(["-U", "-e", "[^\\S\\n ]+"]), []);
});
