import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import v8 from "node:v8";
import { test } from "node:test";
import { holdYoungGeneration } from "../../src/tools/llmastsearch/scan.js";
import { runTool, tempDir } from "../support/run.js";
import { realCode } from "./helpers.js";

const newSpace = (): number => (v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space") as v8.HeapSpaceInfo).space_size;

/** Objects that survive scavenges, which is what makes V8 grow the young generation. */
function churn(): number {
  const keep: { i: number; s: string }[] = [];
  for (let i = 0; i < 400_000; i++) {
    keep.push({ i, s: `x${i}` });
    if (keep.length > 50_000) keep.splice(0, 25_000);
  }
  return keep.length;
}

test("while a search holds the young generation it keeps its initial size, and grows again once the last hold is released", () => {
  const initial = newSpace();
  const first = holdYoungGeneration();
  const second = holdYoungGeneration();
  churn();
  assert.equal(newSpace(), initial, "held: no growth");
  first();
  first();
  churn();
  assert.equal(newSpace(), initial, "one of two concurrent holds released (twice): still held");
  second();
  churn();
  churn();
  assert.ok(newSpace() > initial, `released: V8 grows it again (${newSpace()} > ${initial})`);
});

test("the installed bin runs V8 in lite mode (smaller isolates), and says nothing about it on stderr", async () => {
  const root = realCode();
  const probe = join(tempDir("llmastsearch-argv-"), "argv.cjs");
  const seen = `${probe}.json`;
  // Preloaded into the bin's own process: records the flags node was started with.
  writeFileSync(probe, `require("node:fs").writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.execArgv));\n`);
  const query = ["--root", root, "-q", "(function_declaration name: (identifier) @n)", "--no-daemon"];
  const probed = await runTool("llmastsearch", query, { env: { NODE_OPTIONS: `--require ${probe}` } });
  assert.equal(probed.code, 0, probed.stderr);
  const argv = JSON.parse(readFileSync(seen, "utf8")) as string[];
  assert.ok(argv.includes("--lite-mode"), `node's flags: ${argv.join(" ")}`);
  const plain = await runTool("llmastsearch", query);
  assert.equal(plain.code, 0);
  assert.ok((plain.json as { data: { match_count: number } }).data.match_count > 0);
  assert.equal(plain.stderr, "", "no V8 warning (lite mode turns WebAssembly off: --no-expose-wasm says so first)");
});
