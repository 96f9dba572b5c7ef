/**
 * What an extraction worker posts: reference columns packed (kinds as bytes, qualifiers sparse)
 * come back on the main thread equal to the columns extraction made.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { type RefColumns, packRefs, unpackRefs } from "../../src/graph/facts.js";
import { processFile } from "../../src/graph/process-file.js";
import { languageForPath } from "../../src/lang/registry.js";
import { REPO_ROOT } from "../support/run.js";

const MULTI = join(REPO_ROOT, "test", "fixtures", "magellan", "multi");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

test("packed reference columns survive the trip to the main thread unchanged, for every language", () => {
  let refs = 0;
  let qualified = 0;
  const kinds = new Set<string>();
  for (const abs of files(MULTI)) {
    const rel = relative(MULTI, abs);
    const language = languageForPath(rel)?.id;
    if (!language) continue;
    const out = processFile({ abs, rel, language, maxBytes: 1 << 20, rootName: "multi" });
    assert.equal(out.kind, "indexed", rel);
    if (out.kind !== "indexed") continue;
    const cols = out.rows.refs;
    const packed = packRefs(cols);
    assert.ok("packed" in packed, `${rel}: packed`);
    // postMessage clones with the structured clone algorithm.
    const back = unpackRefs(structuredClone(packed));
    assert.deepEqual(back, cols, rel);
    refs += cols.names.length;
    qualified += cols.qualifiers.filter((q) => q !== null).length;
    for (const k of cols.kinds) kinds.add(k);
  }
  assert.ok(refs > 60 && qualified > 20, `${refs} references, ${qualified} qualified`);
  assert.deepEqual([...kinds].sort(), ["call", "import", "read", "type", "write"]);
});

test("columns with a kind the packing does not know are posted as they are", () => {
  const cols = {
    names: ["a", "b"],
    kinds: ["read", "novel"],
    qualifiers: [null, "x"],
    callers: Int32Array.from([-1, 0]),
    spans: new Int32Array(12),
  } as unknown as RefColumns;
  assert.equal(packRefs(cols), cols);
  assert.equal(unpackRefs(cols), cols);
});
