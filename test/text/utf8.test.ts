import assert from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import { test } from "node:test";
import { firstInvalidUtf8 } from "../../src/text/utf8.js";

test("firstInvalidUtf8: -1 exactly when node's validator accepts, else the first byte past a valid prefix", () => {
  // Deterministic pseudo-random bytes biased to lead and continuation bytes.
  let seed = 12345;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let t = 0; t < 100_000; t++) {
    const n = 1 + Math.floor(rnd() * 10);
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      const r = rnd();
      b[i] = r < 0.3 ? Math.floor(rnd() * 128) : r < 0.6 ? 0x80 + Math.floor(rnd() * 64) : 0xc0 + Math.floor(rnd() * 64);
    }
    const at = firstInvalidUtf8(b);
    assert.equal(at === -1, isUtf8(b), b.toString("hex"));
    if (at >= 0) assert.ok(isUtf8(b.subarray(0, at)), `prefix before ${at} of ${b.toString("hex")}`);
  }
  // The classic faults: overlong, surrogate, past U+10FFFF, truncated, lone continuation.
  for (const hex of ["c0af", "e0808f", "eda080", "f4908080", "e282", "80", "ff"]) assert.equal(firstInvalidUtf8(Buffer.from(`41${hex}`, "hex")), 1, hex);
  assert.equal(firstInvalidUtf8(Buffer.from("été 😀", "utf8")), -1);
});
