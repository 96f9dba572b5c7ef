import assert from "node:assert/strict";
import v8 from "node:v8";
import { test } from "node:test";
import { holdYoungGeneration } from "../../src/tools/llmastsearch/scan.js";

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
