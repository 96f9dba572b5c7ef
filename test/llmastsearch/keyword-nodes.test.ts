import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { languageOfFile, parserFor, type LanguageId } from "../../src/lang/registry.js";
import { requiredTokens } from "../../src/tools/llmastsearch/prefilter.js";
import { vocabulary } from "../../src/tools/llmastsearch/query.js";
import { keywordNodes, scanFile, type ScanFile } from "../../src/tools/llmastsearch/scan.js";
import { REPO_ROOT, tempDir } from "../support/run.js";
import { FIXTURES } from "./helpers.js";

/** Real-shaped files of all nine languages, and this repository's own TypeScript (real code, ~100k lines). */
function files(): { abs: string; language: LanguageId }[] {
  const out: { abs: string; language: LanguageId }[] = [];
  for (const dir of ["langs", "fields", "decorators"]) {
    for (const f of readdirSync(join(FIXTURES, dir)).sort()) {
      const abs = join(FIXTURES, dir, f);
      const lang = languageOfFile(f, abs);
      if (lang) out.push({ abs, language: lang.id });
    }
  }
  for (const f of readdirSync(join(REPO_ROOT, "src"), { recursive: true, encoding: "utf8" }).sort()) {
    if (f.endsWith(".ts")) out.push({ abs: join(REPO_ROOT, "src", f), language: "typescript" });
  }
  return out;
}

test("nodes found from their keywords are exactly the walk's named nodes, for every node type that requires a keyword, in every language", () => {
  const all = files();
  assert.ok(new Set(all.map((f) => f.language)).size >= 9, "files in all nine languages");
  const keywordOf = new Map<LanguageId, Map<string, string>>();
  let compared = 0;
  let nonEmpty = 0;
  for (const file of all) {
    let types = keywordOf.get(file.language);
    if (!types) {
      types = new Map();
      for (const [type, entry] of vocabulary(file.language).byType) {
        if (entry.subtypes || type.startsWith("_")) continue;
        const k = requiredTokens(file.language, type).sort((a, b) => b.length - a.length)[0];
        if (k !== undefined) types.set(type, k);
      }
      keywordOf.set(file.language, types);
    }
    const text = readFileSync(file.abs, "utf8");
    const root = parserFor(file.language).parse(text, undefined, { bufferSize: text.length + 1 }).rootNode;
    if (root.hasError) continue;
    const walked = new Map<string, string[]>();
    for (const n of root.descendantsOfType([...types.keys()])) {
      if (!n.isNamed) continue;
      const list = walked.get(n.type) ?? [];
      list.push(`${n.id}:${n.startIndex}:${n.endIndex}`);
      walked.set(n.type, list);
    }
    for (const [type, keyword] of types) {
      const got = keywordNodes(root, text, file.language, [type], [keyword]);
      const want = walked.get(type) ?? [];
      compared++;
      if (want.length > 0) nonEmpty++;
      // Undefined is a refusal (the caller walks), never a wrong answer; it is rare.
      if (got === undefined) continue;
      assert.deepEqual(
        got.map((n) => `${n.id}:${n.startIndex}:${n.endIndex}`),
        want,
        `${type} (keyword ${JSON.stringify(keyword)}) in ${file.abs}`,
      );
    }
    // Two types at once, each from its own keyword, in one pre-order.
    const pair = [...types].filter(([t]) => walked.has(t)).slice(0, 2);
    if (pair.length === 2) {
      const got = keywordNodes(root, text, file.language, pair.map(([t]) => t), pair.map(([, k]) => k));
      const want = root.descendantsOfType(pair.map(([t]) => t)).filter((n) => n.isNamed);
      if (got !== undefined) assert.deepEqual(got.map((n) => n.id), want.map((n) => n.id), `${pair.map(([t]) => t).join("+")} in ${file.abs}`);
    }
  }
  assert.ok(compared > 10_000 && nonEmpty > 2_000, `compared ${compared} (type, file) pairs, ${nonEmpty} with nodes`);
});

test("a kind that is also a keyword's text is matched as the named node only, as the query engine does", () => {
  const dir = tempDir("kw-");
  const abs = join(dir, "c.ts");
  writeFileSync(abs, "const A = class {};\nclass B {}\nexport default class {}\n");
  const file: ScanFile = { abs, rel: "c.ts", language: "typescript" };
  const opts = { source: { text: "(class) @c", origin: "<query>" }, context: 0, maxFileBytes: 1 << 20 };
  const fast = scanFile(file, opts);
  const engine = scanFile(file, { ...opts, noFastPath: true });
  assert.deepEqual(fast, engine);
  assert.ok(fast.ok);
  assert.deepEqual(
    fast.matches.map((m) => [m.span.byte_start, m.span.byte_end]),
    [
      [10, 18],
      [46, 54],
    ],
    "the two class expressions, not the three `class` keywords",
  );
});
