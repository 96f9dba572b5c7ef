import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runTool } from "../support/run.js";
import { scanFile } from "../../src/tools/llmastsearch/scan.js";
import { checkMatches, type Data, realCode } from "./helpers.js";

test("parallel and single-threaded runs give the same matches in the same order", async () => {
  const root = realCode();
  const query = "[(function_declaration name: (identifier) @name) (method_definition name: (property_identifier) @name)]";
  const one = await runTool("llmastsearch", ["--root", root, "-q", query, "-j", "1"]);
  const many = await runTool("llmastsearch", ["--root", root, "-q", query, "-j", "4"]);
  assert.equal(one.code, 0, one.stdout);
  const a = (one.json as { data: Data }).data;
  const b = (many.json as { data: Data }).data;
  assert.ok(a.files_searched >= 24, `enough files to go parallel (${a.files_searched})`);
  assert.ok(a.match_count > 50, `real code has many functions (${a.match_count})`);
  assert.deepEqual(b, a);
  checkMatches(root, a);
});

test("the kind fast path finds exactly what the query engine finds", () => {
  const root = realCode();
  const files = readdirSync(join(root, "zod-core")).filter((f) => f.endsWith(".ts"));
  assert.ok(files.length > 5);
  for (const query of ["(function_declaration) @f", "[(class_declaration) (interface_declaration) (type_alias_declaration)] @t"]) {
    for (const f of files) {
      const file = { abs: join(root, "zod-core", f), rel: `zod-core/${f}`, language: "typescript" as const };
      const opts = { source: { text: query, origin: "<query>" }, context: 0, maxFileBytes: 1 << 24 };
      const fast = scanFile(file, opts);
      const slow = scanFile(file, { ...opts, noFastPath: true });
      assert.deepEqual(fast, slow, `${query} on ${f}`);
    }
  }
});
