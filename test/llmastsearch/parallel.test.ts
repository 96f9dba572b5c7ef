import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";
import { scanFile } from "../../src/tools/llmastsearch/scan.js";
import { checkMatches, type Data } from "./helpers.js";

/** Real JavaScript and TypeScript from node_modules, copied so the walk sees a plain folder. */
function realCode(): string {
  const root = tempDir("llmastsearch-real-");
  const take = (pkgDir: string, dest: string, ext: RegExp, max: number): void => {
    mkdirSync(join(root, dest), { recursive: true });
    const files = readdirSync(pkgDir).filter((f) => ext.test(f)).sort().slice(0, max);
    for (const f of files) cpSync(join(pkgDir, f), join(root, dest, f));
  };
  take(join(REPO_ROOT, "node_modules", "commander", "lib"), "commander", /\.js$/, 20);
  take(join(REPO_ROOT, "node_modules", "commander", "typings"), "commander-types", /\.d\.ts$/, 5);
  take(join(REPO_ROOT, "node_modules", "zod", "v4", "core"), "zod-core", /\.ts$/, 30);
  take(join(REPO_ROOT, "node_modules", "ignore"), "ignore", /\.(js|d\.ts)$/, 5);
  return root;
}

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
