/**
 * `using` as a name in TypeScript (src/lang/preprocess.ts): tree-sitter-typescript reads every
 * `using` as TS 5.2's declaration keyword, and drizzle-kit's `(.., using?: string, ..) => {` turned
 * the rest of jsonStatements.ts into ERROR nodes: three exported functions were lost.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { extractFacts } from "../../src/lang/extract.js";
import { maskForParse } from "../../src/lang/preprocess.js";
import { REPO_ROOT } from "../support/run.js";

const FILE = join(REPO_ROOT, "test", "fixtures", "lang", "ts-using", "jsonStatements.ts");

test("a parameter or property named using does not end the parse; a using declaration still is one", () => {
  const bytes = readFileSync(FILE);
  const f = extractFacts("typescript", bytes);
  assert.equal(f.has_errors, false);
  assert.deepEqual(
    f.symbols.map((s) => `${s.kind} ${[...s.scope, s.name].join(".")}`),
    [
      "function preparePgCreateViewJson",
      "function prepareMySqlCreateViewJson",
      "class IndexBuilder",
      "field IndexBuilder.config",
      "constructor IndexBuilder.constructor",
      "method IndexBuilder.method",
      "function withResource",
    ],
  );
  // Names are read from the file: the property read is `using`, not the parser's stand-in.
  for (const s of f.symbols) assert.equal(bytes.subarray(s.name_range.byte_start, s.name_range.byte_end).toString(), s.name);
  assert.ok(f.references.some((r) => r.name === "using" && r.kind === "read"));
  assert.ok(f.references.some((r) => r.name === "openHandle" && r.kind === "call"));
  // Only the names are replaced, at the same length; the declaration keyword and strings stay.
  const text = bytes.toString("utf8");
  const masked = maskForParse("typescript", text);
  assert.equal(masked.length, text.length);
  assert.ok(masked.includes("\tusing handle = openHandle();"));
  assert.ok(masked.includes("IndexConfig['using']"));
  assert.ok(!/[(,]\s*using\?/.test(masked));
  assert.equal(maskForParse("javascript", "f(using, x)"), "f(using, x)", "tree-sitter-javascript reads such names");
});
