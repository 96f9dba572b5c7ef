/**
 * llmastsearch stops when its caller goes: the daemon and the MCP server give each request an
 * AbortSignal (src/contract/cancel.ts), set when the client's connection closes or the MCP call
 * is cancelled. The daemon's wiring of that signal is what test/server/daemon.test.ts checks with
 * llmsearch; here the search itself is asked, with the signal the daemon would give it.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { provideCancelSignal } from "../../src/contract/cancel.js";
import type { ToolError } from "../../src/contract/errors.js";
import { search } from "../../src/tools/llmastsearch/search.js";
import { treeCache } from "../../src/tools/llmastsearch/warm.js";
import { useWarmCache, WarmCache } from "../../src/text/warm-cache.js";
import { tempDir } from "../support/run.js";

/** Ten files on which three wildcard siblings are combinatorial (see below). */
function slowTree(): string {
  const root = tempDir("ast-cancel-");
  mkdirSync(join(root, "slow"));
  for (let k = 0; k < 10; k++) writeFileSync(join(root, "slow", `s${k}.ts`), Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};\n`).join(""));
  return root;
}

/**
 * The combinatorial search over slowTree(), its caller gone after 0.5 s: cancelled within 6 s
 * (the file it was on runs to its 1.5 s budget, and no other is begun; all ten take 15 s).
 */
async function cancelledInTime(root: string): Promise<void> {
  const caller = new AbortController();
  provideCancelSignal(() => caller.signal);
  try {
    const t0 = Date.now();
    setTimeout(() => caller.abort(), 500);
    await assert.rejects(
      search({ root, cwd: root, query: { text: "(program (_) @a (_) @b (_) @c)", origin: "--query" }, paths: ["slow"], threads: 1, timeoutMs: 1500 }),
      (e: ToolError) => e.error === "cancelled" && e.code === "LLMASTSEARCH_E019",
    );
    assert.ok(Date.now() - t0 < 6000, `stopped after ${Date.now() - t0} ms`);
  } finally {
    provideCancelSignal(() => undefined);
  }
}

test("a search whose caller went away begins no further file", async () => {
  // Three wildcard siblings over 400 statements are combinatorial: each file runs to the 1.5 s budget.
  await cancelledInTime(slowTree());
});

test("in a long-lived process, the files whose trees are kept are not matched past the caller's going either", async () => {
  const root = slowTree();
  const warm = new WarmCache({ racyMs: 0 });
  useWarmCache(warm);
  try {
    // A first query keeps the ten trees, as the daemon and the MCP server keep them between queries.
    await search({ root, cwd: root, query: { text: "(program) @p", origin: "--query" }, paths: ["slow"], threads: 1 });
    assert.equal(treeCache()?.stats().trees, 10);
    // (Matched at once from kept trees, all ten ran to their budget.)
    await cancelledInTime(root);
  } finally {
    useWarmCache(undefined);
    await warm.close();
  }
});
