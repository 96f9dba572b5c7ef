/** The parsed-model cache: same answer as a fresh parse, keyed by content, robust to damage. */
import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../support/run.js";
import { index, select } from "./helpers.js";

function bigDoc(title: string): string {
  let s = `# ${title}\n\nIntro.\n\n`;
  for (let i = 0; i < 300; i++) s += `## Part ${i}\n\nSome words about part ${i}, with *emphasis* and \`code\`.\n\n- a\n- b\n\n`;
  return s;
}

function strip(env: unknown): unknown {
  const { execution_id: _e, timestamp: _t, ...rest } = env as Record<string, unknown>;
  return rest;
}

describe("parsed-model cache", () => {
  it("a cache hit answers exactly like a parse; changed bytes are a different key; damage is ignored", async () => {
    const dir = tempDir("mdsel-cache-doc-");
    const cache = tempDir("mdsel-cache-dir-");
    const env = { MDSEL_CACHE_DIR: cache };
    writeFileSync(join(dir, "big.md"), bigDoc("First"));
    const fresh = await index(["--no-cache", "big.md"], { cwd: dir, env });
    assert.deepEqual(readdirSync(cache), [], "--no-cache writes nothing");
    const first = await index(["big.md"], { cwd: dir, env });
    const files = readdirSync(cache);
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^v\d+-[0-9a-f]{64}\.json$/);
    const hit = await index(["big.md"], { cwd: dir, env });
    assert.deepEqual(strip(first.env), strip(fresh.env));
    assert.deepEqual(strip(hit.env), strip(fresh.env));
    const sel = await select(["big::heading:h2[7]", "big.md"], { cwd: dir, env });
    assert.match(sel.env.data!.matches[0]!.content, /^## Part 7\n/);

    writeFileSync(join(dir, "big.md"), bigDoc("Second"));
    const changed = await index(["big.md"], { cwd: dir, env });
    assert.equal(changed.env.data!.documents[0]!.headings[0]!.text, "Second");
    assert.equal(readdirSync(cache).length, 2);

    for (const f of readdirSync(cache)) writeFileSync(join(cache, f), "{ not json");
    const damaged = await index(["big.md"], { cwd: dir, env });
    assert.equal(damaged.code, 0);
    assert.equal(damaged.env.data!.documents[0]!.headings[0]!.text, "Second");
  });
});
