/**
 * Patch every symbol of a real-shaped file in each of the 9 languages with its own text: the
 * file must come out byte-identical (nothing planned, nothing written), whether the text is the
 * symbol's span or its whole lines with their indentation and doc comment.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { extractFacts } from "../../src/lang/extract.js";
import { languageForPath } from "../../src/lang/registry.js";
import { definitionExtent, lineStart } from "../../src/tools/splice/layout.js";
import { project, resultOf, splice } from "./helpers.js";

const CASES: [string, string][] = [
  ["rust", "src/lib.rs"],
  ["python", "inventory.py"],
  ["ts", "src/cart.ts"],
  ["tsx", "Badge.tsx"],
  ["js", "queue.js"],
  ["java", "src/shop/Cart.java"],
  ["go", "stack.go"],
  ["c", "ring.c"],
  ["cpp", "shapes.cpp"],
];

for (const [fixture, file] of CASES) {
  test(`round trip: every symbol of ${fixture}/${file} patched with its own text leaves the file byte-identical`, async () => {
    const dir = project(fixture);
    const bytes = readFileSync(join(dir, file));
    const text = bytes.toString("utf8");
    const language = languageForPath(file)?.id;
    assert.ok(language);
    const symbols = extractFacts(language, bytes).symbols.filter((s) => ["function", "method", "class", "struct", "interface", "enum", "impl", "constructor"].includes(s.kind));
    assert.ok(symbols.length >= 3, `${file}: only ${symbols.length} definitions`);
    let checked = 0;
    for (const s of symbols) {
      const span = text.slice(s.range.byte_start, s.range.byte_end);
      const ext = definitionExtent(language, text, s.range.byte_start, s.range.byte_end);
      const full = ext.full;
      // Whole lines when the definition starts its line; otherwise from where it starts.
      const lines = text.slice(/^[ \t]*$/.test(text.slice(lineStart(text, full), full)) ? lineStart(text, full) : full, ext.end);
      for (const content of [span, lines]) {
        const o = await splice(dir, { command: "patch", file, symbol: [...s.scope, s.name].join("."), kind: s.kind, content });
        if (o.status === "error" && o.error?.code === "SPLICE_E101") continue; // overloads etc: covered by --symbol-id
        assert.equal(o.status, "ok", `${s.name}: ${o.message}`);
        assert.equal(resultOf(o).files.length, 0, `${s.name}: patch with its own text changed the file:\n${JSON.stringify(resultOf(o).files)}`);
        checked++;
      }
    }
    assert.ok(checked >= 6, `${file}: only ${checked} round trips ran`);
    assert.equal(readFileSync(join(dir, file)).toString("utf8"), text);
  });
}
