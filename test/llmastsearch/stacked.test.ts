import assert from "node:assert/strict";
import { test } from "node:test";
import { runTool } from "../support/run.js";
import { checkMatches, type Data, fixtureCopy } from "./helpers.js";

test("one match per node, as ast-grep: a field with stacked decorators is reported once, with every decorator among its captures", async () => {
  const root = fixtureCopy("decorators");
  const r = await runTool("llmastsearch", ["--root", root, "-q", "(public_field_definition decorator: (decorator) @d name: (_) @n) @f"]);
  assert.equal(r.code, 0, r.stdout);
  const data = (r.json as { data: Data }).data;
  checkMatches(root, data);
  // id, email (2 decorators), displayName, createdAt (3 decorators); age has none.
  const fields = data.matches.map((m) => m.captures.find((c) => c.name === "n")?.content);
  assert.deepEqual(fields, ["id", "email", "displayName", "createdAt"]);
  assert.equal(new Set(data.matches.map((m) => m.span.span_id)).size, data.matches.length, "no node twice");
  const created = data.matches[3];
  assert.deepEqual(
    created?.captures.filter((c) => c.name === "d").map((c) => c.content),
    ["@CreateDateColumn()", "@Index()", '@Column({ type: "timestamptz" })'],
  );
  assert.equal(data.total_matches, 4);
});
