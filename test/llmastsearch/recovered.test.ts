/**
 * Matches that tree-sitter's error recovery shaped are flagged. tree-sitter-rust 0.24 reads bat's
 * `match &raw {` (a variable named `raw`) as an unfinished raw borrow; in bat's
 * build/syntax_mapping.rs the `impl_item` it then reported ran over three impl blocks, where
 * ast-grep found three, and nothing in the answer said so.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runTool } from "../support/run.js";
import { type Data, fixtureCopy } from "./helpers.js";

type Env = { data: Data; diagnostics?: { code: string; level: string; message: string }[] };

const recovered = (env: Env): { level: string; message: string } | undefined => (env.diagnostics ?? []).find((d) => d.code === "LLMASTSEARCH_W114");

test("a match in or around code the parser recovered from is flagged, with its file and count", async () => {
  const root = fixtureCopy("recovered");
  const r = await runTool("llmastsearch", ["-q", "(impl_item) @i", "--root", root], { cwd: root });
  assert.equal(r.code, 0, r.stdout);
  const env = r.json as Env;
  assert.deepEqual(env.data.matches.map((m) => m.file_path), ["clean.rs", "mapping.rs", "mapping.rs", "mapping.rs"]);
  const w = recovered(env);
  assert.ok(w, JSON.stringify(env.diagnostics));
  assert.equal(w.level, "warning");
  // The impl holding `match &raw {` only; the clean file is not named.
  assert.match(w.message, /matches in 1 file\(s\) [^:]*: mapping\.rs \(1\)$/);
});

test("no flag for matches clear of the errors, nor for a query that asks for ERROR nodes", async () => {
  const root = fixtureCopy("recovered");
  const clean = (await runTool("llmastsearch", ["-q", "(impl_item) @i", "--root", root, "clean.rs"], { cwd: root })).json as Env;
  assert.equal(clean.data.matches.length, 1);
  assert.equal(recovered(clean), undefined);
  // `is_empty` and `from_str` lie outside the broken impl.
  const fns = (await runTool("llmastsearch", ["-q", '((function_item name: (identifier) @n) (#any-of? @n "is_empty" "from_str"))', "--root", root, "mapping.rs"], { cwd: root })).json as Env;
  assert.equal(fns.data.matches.length, 2);
  assert.equal(recovered(fns), undefined, JSON.stringify(fns.diagnostics));
  const errors = (await runTool("llmastsearch", ["-q", "(ERROR) @e", "--root", root], { cwd: root })).json as Env;
  assert.ok(errors.data.matches.length > 0);
  assert.equal(recovered(errors), undefined);
});
