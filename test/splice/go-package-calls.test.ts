/**
 * A Go function called by its bare name from another file of its package (the package is the
 * directory): echo's `getRawQueryParam`, defined in context.go and called from
 * query_fastpath_test.go. The index tied such calls to the function "by name only", so a delete
 * said the function "may still be used" by "uses on values whose type the index does not know"
 * (a library's method of that name looks the same), an invitation to --force for what is a
 * certain call. Fixture: test/fixtures/splice/go-package.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { project, read, resultOf, splice } from "./helpers.js";

test("Go: a delete of a function called by its bare name from the package's other files names those calls as certain uses and refuses", async () => {
  const dir = project("go-package");
  const before = read(dir, "query.go");
  const o = await splice(dir, { command: "delete", file: "query.go", symbol: "lookupQuery" });
  assert.equal(o.status, "error");
  assert.equal(o.message, "lookupQuery is still referenced 2 time(s):\n  context.go:16:8 (call, imported)\n  query_test.go:11:12 (call, imported)");
  assert.equal(read(dir, "query.go"), before);
});

test("Go: a bare call whose name two files of the package declare (one per build target) stays a guess", async () => {
  const dir = project("go-package");
  const { writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  // Two declarations of one name, each under its own build constraint.
  writeFileSync(join(dir, "query_windows.go"), '//go:build windows\n\npackage echo\n\nfunc lookupQuery(query, name string) string { return "" }\n');
  writeFileSync(join(dir, "query.go"), `//go:build !windows\n\n${read(dir, "query.go")}`);
  const o = await splice(dir, { command: "delete", file: "query_windows.go", symbol: "lookupQuery", dry_run: true });
  assert.equal(o.status, "ok", o.message);
  const step = resultOf(o).steps[0] as { remaining_references: unknown[]; name_only_references: { file: string; resolution: string }[] };
  assert.deepEqual(step.remaining_references, []);
  assert.deepEqual(
    step.name_only_references.map((r) => `${r.file}:${r.resolution}`),
    ["context.go:ambiguous", "query_test.go:ambiguous"],
  );
});
