/**
 * A large file's matches are taken window by window (extract.ts), so that extraction memory does
 * not grow with the largest file. The facts must be exactly those of one pass over the file:
 * here the window is made tiny (a few hundred characters, so many matches cross a window edge) and
 * every real file of the fixtures and of src/lang is extracted both ways.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { extractFacts } from "../../src/lang/extract.js";
import { languageForPath } from "../../src/lang/registry.js";
import { sourceFiles } from "./fixtures.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Extracts every real file of the fixtures and src/lang with `env` unset and then set to
 * `value(n)` (n: the file's rank), and requires the same facts; at least 30 files, of all nine
 * languages. The variable is unset again whatever happens.
 */
function sameFactsWith(env: string, value: (n: number) => string): void {
  const all = [...sourceFiles(join(REPO, "test", "fixtures")), ...sourceFiles(join(REPO, "src", "lang"))];
  const langs = new Set<string>();
  let n = 0;
  try {
    for (const f of all) {
      const language = languageForPath(f)?.id;
      if (!language) continue;
      const bytes = readFileSync(f);
      delete process.env[env];
      const before = extractFacts(language, bytes);
      process.env[env] = value(n);
      assert.deepEqual(extractFacts(language, bytes), before, `${f.slice(REPO.length)} with ${env}=${process.env[env]}`);
      langs.add(language);
      n++;
    }
  } finally {
    delete process.env[env];
  }
  assert.ok(n > 30, `${n} files compared`);
  for (const l of ["typescript", "tsx", "javascript", "python", "rust", "go", "java", "c", "cpp"]) assert.ok(langs.has(l), `no ${l} file compared`);
}

test("windowed extraction gives exactly the facts of one pass, in every language", () => {
  sameFactsWith("MAGELLAN_MATCH_WINDOW", (n) => String(160 + (n % 211)));
});

test("a zero-width node at a window's edge (a MISSING token) is kept", () => {
  // `int f(` … : tree-sitter inserts zero-width MISSING nodes; every edge position is tried.
  const src = Buffer.from("struct S { int a; };\nint f(struct S s) { return s.a + g(s; }\nint g(struct S s) { return s.a }\n");
  delete process.env.MAGELLAN_MATCH_WINDOW;
  const whole = extractFacts("c", src);
  try {
    for (let w = 3; w < src.length; w++) {
      process.env.MAGELLAN_MATCH_WINDOW = String(w);
      assert.deepEqual(extractFacts("c", src), whole, `window ${w}`);
    }
  } finally {
    delete process.env.MAGELLAN_MATCH_WINDOW;
  }
});

test("without the binding's private matches call (the public Query.matches() path), the facts are the same, in every language", () => {
  sameFactsWith("MAGELLAN_PUBLIC_MATCHES", () => "1");
});
