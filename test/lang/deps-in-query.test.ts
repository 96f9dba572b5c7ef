/**
 * C, C++, Go, Java, Python and Rust dependencies (deps.scm) are matched in extraction's own query
 * pass and handed to extractDeps, instead of a second pass of deps.scm alone: every file of every
 * fixture tree must give exactly the dependencies of the separate pass, through the fast (raw)
 * matches, the public ones, and window by window (real tree-sitter).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { extractDeps } from "../../src/lang/deps.js";
import { type DepMatch, depsInQuery, extractFromTree } from "../../src/lang/extract.js";
import { maskForParse } from "../../src/lang/preprocess.js";
import { type LanguageId, languageForPath, parse, refineLanguage } from "../../src/lang/registry.js";
import { type DecodedText, decodeBytes } from "../../src/text/decode.js";
import { sourceFiles } from "./fixtures.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

function files(): { language: LanguageId; decoded: DecodedText; text: string; label: string }[] {
  const out: { language: LanguageId; decoded: DecodedText; text: string; label: string }[] = [];
  for (const p of sourceFiles(join(REPO, "test", "fixtures"))) {
    const decoded = decodeBytes(readFileSync(p));
    const language = refineLanguage((languageForPath(p) as { id: LanguageId }).id, p, decoded.text);
    if (depsInQuery(language)) out.push({ language, decoded, text: decoded.text, label: p.slice(REPO.length) });
  }
  return out;
}

/** Runs `fn` with the given environment variables set, then restores them. */
function withEnv<T>(env: Record<string, string>, fn: () => T): T {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

test("dependencies matched in extraction's pass are those of deps.scm's own pass, in every mode", () => {
  const all = files();
  const languages = new Set(all.map((f) => f.language));
  assert.deepEqual([...languages].sort(), ["c", "cpp", "go", "java", "python", "rust"], "every language of the fast path has fixtures");
  const modes: [string, Record<string, string>][] = [
    ["raw matches", {}],
    ["public matches", { MAGELLAN_PUBLIC_MATCHES: "1" }],
    ["windows of 64 units", { MAGELLAN_MATCH_WINDOW: "64" }],
  ];
  let withDeps = 0;
  for (const f of all) {
    const tree = parse(f.language, maskForParse(f.language, f.text));
    try {
      const separate = extractDeps(f.language, tree, f.text);
      if (separate.length > 0) withDeps++;
      for (const [mode, env] of modes) {
        const given: DepMatch[] = [];
        const facts = withEnv(env, () => extractFromTree(f.language, tree, f.decoded, given));
        assert.ok(facts.language === f.language);
        assert.deepEqual(extractDeps(f.language, tree, f.text, given), separate, `${f.label} (${mode})`);
      }
    } finally {
      (tree as unknown as { delete?: () => void }).delete?.();
    }
  }
  assert.ok(withDeps >= 30, `only ${withDeps} fixture files have dependencies: the comparison would prove little`);
});
