/**
 * `using` as a name in TypeScript (src/lang/preprocess.ts): tree-sitter-typescript reads every
 * `using` as TS 5.2's declaration keyword, and drizzle-kit's `(.., using?: string, ..) => {` turned
 * the rest of jsonStatements.ts into ERROR nodes: three exported functions were lost.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { processFile } from "../../src/graph/process-file.js";
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

test("a module path holding `using` keeps its name in the dependencies; a spread of a value named using parses (kysely's using-node.ts)", () => {
  // `'./using-node.js'` was handed to the parser as `'./_sing-node.js'`, and the impact graph,
  // which reads a specifier from the parsed text, had kysely's 7 importers of it unresolved.
  const dir = join(REPO_ROOT, "test", "fixtures", "lang", "ts-using");
  const importer = processFile({ abs: join(dir, "delete-query-node.ts"), rel: "delete-query-node.ts", language: "typescript", maxBytes: 1 << 20, rootName: "x" });
  assert.equal(importer.kind, "indexed");
  const specs = importer.kind === "indexed" ? (importer.rows.deps ?? []).map((d) => d.spec) : [];
  assert.deepEqual(specs, ["../util/object-utils.js", "./using-node.js", "./operation-node.js"]);
  // `...using` (a spread) was left to the parser, which read a using declaration and lost
  // cloneWithTables' body: the file was parse-recovered.
  const bytes = readFileSync(join(dir, "using-node.ts"));
  const f = extractFacts("typescript", bytes);
  assert.equal(f.has_errors, false);
  assert.ok(f.references.filter((r) => r.name === "freeze" && r.kind === "call").length >= 4);
  const node = processFile({ abs: join(dir, "using-node.ts"), rel: "using-node.ts", language: "typescript", maxBytes: 1 << 20, rootName: "x" });
  assert.ok(node.kind === "indexed");
  assert.deepEqual(node.kind === "indexed" ? (node.rows.deps ?? []).map((d) => d.spec) : [], ["../util/object-utils.js", "./operation-node.js", "./join-node.js"]);
});
