/**
 * A file whose only candidate is binary still has the matches in its lines before the NUL
 * reported (`rg --json Sherlock sherlock-nul.txt` reports the same two). The answer then is not
 * empty, and it said so anyway: "all 1 candidate files were skipped; nothing was searched"
 * (E105) beside the matches.
 */
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { REPO_ROOT, runTool } from "../support/run.js";

const FIXTURE = join(REPO_ROOT, "test", "fixtures", "llmsearch", "binary-named");

test("matches before a binary file's NUL are no 'nothing was searched' answer", async () => {
  const r = await runTool("llmsearch", ["--root", FIXTURE, "-e", "Sherlock", "sherlock-nul.txt"]);
  assert.equal(r.code, 0, r.stdout);
  const env = r.json as { data: LlmsearchData; diagnostics?: { code: string }[] };
  assert.deepEqual(env.data.matches.map((m) => m.span.start_line), [1, 3]);
  assert.equal(env.data.files_skipped[0]?.reason, "binary");
  assert.deepEqual(env.diagnostics ?? [], [], "no warning beside the matches");
  // No match: the empty answer still says why.
  const none = await runTool("llmsearch", ["--root", FIXTURE, "-e", "Moriarty", "sherlock-nul.txt"]);
  assert.equal((none.json as { diagnostics?: { code: string }[] }).diagnostics?.[0]?.code, "LLMSEARCH_E105");
});
