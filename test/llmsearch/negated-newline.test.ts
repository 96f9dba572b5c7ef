/**
 * `[^\n]*`, an agent's usual "the rest of the line", names the line feed only to leave it out:
 * ripgrep 13 takes it without --multiline (and `[^\x0A]`, and a class holding the character
 * itself). llmsearch refused all three with E102 "the pattern contains a line feed, which cannot
 * match without --multiline", as if the class could match one. A class that can (`[\n]`,
 * `[a\n]`) is still refused, as rg refuses it.
 */
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { REPO_ROOT, runTool } from "../support/run.js";

const FIXTURE = join(REPO_ROOT, "test", "fixtures", "llmsearch", "negated-newline");

async function search(args: string[]): Promise<{ code: number; json: { data: LlmsearchData & { code?: string } } }> {
  const r = await runTool("llmsearch", ["--root", FIXTURE, ...args]);
  return { code: r.code, json: r.json as { data: LlmsearchData & { code?: string } } };
}

test("a negated class naming the line feed is no line feed in the pattern", async () => {
  for (const pattern of ["def [^\\n(]+", "def [^\\x0A(]+", "def [^\n(]+", "def [^\\u{a}(]+"]) {
    const r = await search(["-e", pattern]);
    assert.equal(r.code, 0, `${pattern}: ${JSON.stringify(r.json.data)}`);
    assert.deepEqual(
      r.json.data.matches.map((m) => [m.span.file_path, m.span.start_line, m.matched_text]),
      [["src/requests/hooks.py", 10, "def default_hooks"]],
      pattern,
    );
  }
  // The whole line after the docstring's first word, without its line feed.
  const rest = await search(["-e", "^This[^\\n]*"]);
  assert.deepEqual(rest.json.data.matches.map((m) => m.matched_text), ["This module provides the capabilities for the Requests hooks system."]);
});

test("a class that can match the line feed is still refused without --multiline", async () => {
  for (const pattern of ["[\\n]", "s[a\\n]", "[\\x0A]"]) {
    const r = await search(["-e", pattern]);
    assert.equal(r.code, 2, pattern);
    assert.equal(r.json.data.code, "LLMSEARCH_E102", pattern);
  }
});
