/**
 * File-scope variables behind nested declarators (symbols.scm spells the shapes out, as queries
 * cannot recurse): a pointer to a two-dimensional array, with and without an initializer, was
 * missing (cJSON's `static const char *merges[15][3] = {...}`), so `merge_count`'s reference to
 * it had no target.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { extractFacts } from "../../src/lang/extract.js";
import { REPO_ROOT } from "../support/run.js";

const FILE = join(REPO_ROOT, "test", "fixtures", "lang", "c-declarators", "merge_tests.c");

for (const language of ["c", "cpp"] as const) {
  test(`${language}: pointers to 2-D arrays at file scope are variables`, () => {
    const bytes = readFileSync(FILE);
    const f = extractFacts(language, bytes);
    assert.equal(f.has_errors, false);
    assert.deepEqual(
      f.symbols.map((s) => `${s.kind} ${s.name}`),
      ["variable merges", "variable patches", "variable names", "function merge_count"],
    );
    for (const s of f.symbols) assert.equal(bytes.subarray(s.name_range.byte_start, s.name_range.byte_end).toString(), s.name);
  });
}

for (const language of ["c", "cpp"] as const) {
  test(`${language}: function pointers that return pointers are fields, type aliases and variables`, () => {
    const bytes = readFileSync(join(REPO_ROOT, "test", "fixtures", "lang", "c-declarators", "hooks.c"));
    const f = extractFacts(language, bytes);
    const names = f.symbols.map((s) => `${s.kind} ${s.name}`);
    // Before, only `deallocate` (returning void, not a pointer) of the fields was kept.
    for (const want of ["field allocate", "field deallocate", "field reallocate", "field names", "type_alias alloc_t", "variable global_alloc", "variable name_source", "variable global_hooks"]) {
      assert.ok(names.includes(want), `${want} missing from ${names.join(", ")}`);
    }
    for (const s of f.symbols) assert.equal(bytes.subarray(s.name_range.byte_start, s.name_range.byte_end).toString(), s.name);
  });
}

test("cpp: a destructor is a method, not a constructor", () => {
  const bytes = Buffer.from("struct Counter {\n  Counter();\n  ~Counter();\n  Counter(int n) {}\n  ~Counter2() {}\n  void add(int);\n};\n");
  const f = extractFacts("cpp", bytes);
  assert.deepEqual(
    f.symbols.map((s) => `${s.kind} ${s.name}`),
    ["struct Counter", "constructor Counter", "method ~Counter", "constructor Counter", "method ~Counter2", "method add"],
  );
});
