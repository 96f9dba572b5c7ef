/**
 * llmastsearch on the warm cache with its watcher standing in for the stats: answers equal cold
 * parses right after edits that only the watcher can see (same size, mtime put back).
 */
import assert from "node:assert/strict";
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { search, type SearchRequest } from "../../src/tools/llmastsearch/search.js";
import { useWarmCache, WarmCache } from "../../src/text/warm-cache.js";
import { fixtureCopy } from "./helpers.js";

async function both(req: SearchRequest, warm: WarmCache): Promise<{ cold: string; warm: string }> {
  // The warm search first, right after the change: its barrier is what must catch it.
  useWarmCache(warm);
  let hot: string;
  try {
    hot = JSON.stringify(await search(req));
  } finally {
    useWarmCache(undefined);
  }
  return { cold: JSON.stringify(await search(req)), warm: hot };
}

test("warm llmastsearch trusting its watcher answers as cold parses do, right after edits only the watcher sees", async () => {
  const root = fixtureCopy("langs");
  const old = new Date(Date.now() - 3600_000);
  for (const f of readdirSync(root)) utimesSync(join(root, f), old, old);
  const warm = new WarmCache({ watch: true, barrierTimeoutMs: 10_000 });
  try {
    const req: SearchRequest = { root, query: { text: "(function_declaration name: (identifier) @name)", origin: "--query" }, threads: 1 };
    for (let i = 0; i < 50 && warm.stats().trusted_hits === 0; i++) {
      const r = await both(req, warm);
      assert.equal(r.warm, r.cold, `warming ${i}`);
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.ok(warm.stats().trusted_hits > 0, `the watcher took over: ${JSON.stringify(warm.stats())}`);
    const ts = readdirSync(root).find((f) => f.endsWith(".ts"));
    assert.ok(ts, "the fixture has a TypeScript file");
    const p = join(root, ts);
    const size = statSync(p).size;
    for (let k = 0; k < 20; k++) {
      const text = `function edited${k % 10}() {}\n`;
      writeFileSync(p, text.padEnd(size, " "));
      utimesSync(p, old, old);
      const r = await both(req, warm);
      assert.equal(r.warm, r.cold, `edit ${k}`);
      assert.match(r.warm, new RegExp(`edited${k % 10}`));
    }
    writeFileSync(join(root, "extra.ts"), "function brandNew() {}\n");
    const added = await both(req, warm);
    assert.equal(added.warm, added.cold);
    assert.match(added.warm, /brandNew/);
    rmSync(join(root, "extra.ts"));
    const removed = await both(req, warm);
    assert.equal(removed.warm, removed.cold);
    assert.doesNotMatch(removed.warm, /brandNew/);
    assert.equal(warm.stats().watch?.barrier_timeouts, 0);
  } finally {
    await warm.close();
  }
});
