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
import { tempDir } from "../support/run.js";

test("a search whose caller went away begins no further file", async () => {
  const root = tempDir("ast-cancel-");
  mkdirSync(join(root, "slow"));
  // Three wildcard siblings over 400 statements are combinatorial: each file runs to the 1.5 s
  // budget, so the ten files take 15 s when nobody stops them.
  for (let k = 0; k < 10; k++) writeFileSync(join(root, "slow", `s${k}.ts`), Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};\n`).join(""));
  const caller = new AbortController();
  provideCancelSignal(() => caller.signal);
  try {
    const t0 = Date.now();
    setTimeout(() => caller.abort(), 500);
    await assert.rejects(
      search({ root, cwd: root, query: { text: "(program (_) @a (_) @b (_) @c)", origin: "--query" }, paths: ["slow"], threads: 1, timeoutMs: 1500 }),
      (e: ToolError) => e.error === "cancelled" && e.code === "LLMASTSEARCH_E019",
    );
    // The file it was on runs to its budget (1.5 s), and no other is begun.
    assert.ok(Date.now() - t0 < 6000, `stopped after ${Date.now() - t0} ms`);
  } finally {
    provideCancelSignal(() => undefined);
  }
});
