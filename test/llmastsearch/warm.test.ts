import assert from "node:assert/strict";
import { writeFileSync, rmSync, utimesSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { search, type SearchRequest } from "../../src/tools/llmastsearch/search.js";
import { treeCache } from "../../src/tools/llmastsearch/warm.js";
import { useWarmCache, WarmCache } from "../../src/text/warm-cache.js";
import { fixtureCopy } from "./helpers.js";

async function both(req: SearchRequest, warm: WarmCache): Promise<{ cold: string; warm: string }> {
  useWarmCache(undefined);
  const cold = JSON.stringify(await search(req));
  useWarmCache(warm);
  try {
    return { cold, warm: JSON.stringify(await search(req)) };
  } finally {
    useWarmCache(undefined);
  }
}

test("warm llmastsearch: kept trees answer as cold parses do, and an edited, added or deleted file is seen at once", async () => {
  const root = fixtureCopy("langs");
  const old = new Date(Date.now() - 3600_000);
  for (const f of readdirSync(root)) utimesSync(join(root, f), old, old);
  const warm = new WarmCache({ racyMs: 0 });
  const queries = ["(function_declaration name: (identifier) @name)", "(class_declaration) @c", "(identifier) @id", "(comment) @c"];
  const check = async (label: string): Promise<void> => {
    for (const text of queries) {
      for (const extra of [{}, { context: 1 }, { capture: text.includes("@name") ? "name" : undefined }]) {
        const req: SearchRequest = { root, query: { text, origin: "--query" }, threads: 1, ...extra };
        const r = await both(req, warm);
        assert.equal(r.warm, r.cold, `${label}: ${text} ${JSON.stringify(extra)}`);
      }
    }
  };
  await check("first");
  useWarmCache(warm);
  const kept = treeCache()?.stats().trees ?? 0;
  useWarmCache(undefined);
  assert.ok(kept > 0, "trees were kept");
  await check("second, from kept trees");
  await new Promise((r) => setTimeout(r, 30));
  const ts = readdirSync(root).find((f) => f.endsWith(".ts"));
  assert.ok(ts, "the fixture has a TypeScript file");
  writeFileSync(join(root, ts), "function renamedAfterEdit() {}\nclass Added {}\n");
  writeFileSync(join(root, "extra.ts"), "function brandNew() {}\n");
  const r = await both({ root, query: { text: "(function_declaration name: (identifier) @name)", origin: "--query" }, threads: 1 }, warm);
  assert.equal(r.warm, r.cold);
  assert.match(r.warm, /renamedAfterEdit/);
  assert.match(r.warm, /brandNew/);
  rmSync(join(root, "extra.ts"));
  await check("after edits");
});
