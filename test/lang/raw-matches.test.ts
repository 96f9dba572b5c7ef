import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { queryFor } from "../../src/lang/extract.js";
import { maskForParse } from "../../src/lang/preprocess.js";
import { rawMatchList, rawMatches, rawMatchesSupported } from "../../src/lang/raw-matches.js";
import { type LanguageId, languageForPath, parse } from "../../src/lang/registry.js";
import { decodeBytes } from "../../src/text/decode.js";
import * as F from "./fixtures.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** Real code of every language: the fixtures, the magellan fixture trees and this project's own sources. */
function samples(): { language: LanguageId; text: string; label: string }[] {
  const out: { language: LanguageId; text: string; label: string }[] = [
    { language: "typescript", text: F.TS, label: "F.TS" },
    { language: "tsx", text: F.TSX, label: "F.TSX" },
    { language: "javascript", text: F.JSX, label: "F.JSX" },
    { language: "python", text: F.PY, label: "F.PY" },
    { language: "rust", text: F.RS, label: "F.RS" },
    { language: "go", text: F.GO, label: "F.GO" },
    { language: "java", text: F.JAVA, label: "F.JAVA" },
    { language: "c", text: F.C, label: "F.C" },
    { language: "cpp", text: F.CPP, label: "F.CPP" },
    // Non-ASCII names and an ERROR node.
    { language: "typescript", text: "const é = 1;\nfunction 😀x() { return é }\nclass { broken(\n", label: "unicode+error" },
  ];
  const walk = (dir: string): void => {
    for (const p of F.sourceFiles(dir)) out.push({ language: (languageForPath(p) as { id: LanguageId }).id, text: decodeBytes(readFileSync(p)).text, label: p.slice(REPO.length) });
  };
  walk(join(REPO, "test", "fixtures", "magellan"));
  walk(join(REPO, "src", "graph"));
  walk(join(REPO, "src", "lang"));
  return out;
}

test("node-tree-sitter's private query surface is there: extraction takes the fast path", () => {
  // If an upgrade of tree-sitter changes it, extraction silently falls back to matches() (slower):
  // this test is what says so.
  assert.equal(rawMatchesSupported(), true);
});

test("rawMatches gives exactly what Query.matches gives: patterns, capture names, node positions, types and parents", () => {
  let compared = 0;
  for (const s of samples()) {
    const tree = parse(s.language, maskForParse(s.language, s.text));
    const query = queryFor(s.language);
    const expected = query.matches(tree.rootNode);
    const actual = rawMatches(query, tree);
    // What extraction reads in place for references: the same names, starts and ends.
    const list = rawMatchList(query, tree);
    assert.equal(actual.length, expected.length, `${s.label}: match count`);
    assert.equal(list.length, expected.length, `${s.label}: match count of the list`);
    for (let i = 0; i < expected.length; i++) {
      const e = expected[i]!;
      const a = actual[i]!;
      assert.equal(a.pattern, e.pattern, `${s.label}: pattern of match ${i}`);
      assert.deepEqual([list.pattern(i), list.captureCount(i)], [e.pattern, e.captures.length], `${s.label}: pattern and capture count of match ${i} in the list`);
      assert.deepEqual(
        a.captures.map((c) => c.name),
        e.captures.map((c) => c.name),
        `${s.label}: capture names of match ${i}`,
      );
      for (let k = 0; k < e.captures.length; k++) {
        const en = e.captures[k]!.node;
        const an = a.captures[k]!.node;
        const where = `${s.label}: match ${i} capture ${e.captures[k]!.name}`;
        assert.equal(an.startIndex, en.startIndex, `${where} start`);
        assert.equal(an.endIndex, en.endIndex, `${where} end`);
        assert.equal(an.typeId, en.typeId, `${where} type`);
        assert.equal(an.text, en.text, `${where} text`);
        assert.equal(an.namedChildCount, en.namedChildCount, `${where} named children`);
        assert.equal(list.node(i, k).startIndex, en.startIndex, `${where} node in the list`);
        assert.deepEqual([list.name(i, k), list.start(i, k), list.end(i, k)], [e.captures[k]!.name, en.startIndex, en.endIndex], `${where} in the list`);
        const ep = en.parent;
        const ap = an.parent;
        assert.equal(ap === null, ep === null, `${where} has a parent`);
        if (ep && ap) assert.deepEqual([ap.startIndex, ap.endIndex, ap.typeId], [ep.startIndex, ep.endIndex, ep.typeId], `${where} parent`);
        assert.equal(an.parentKey(), ep ? `${ep.startIndex}:${ep.endIndex}:${ep.typeId}` : undefined, `${where} parent key`);
        compared++;
      }
    }
  }
  assert.ok(compared > 5000, `compared ${compared} captures`);
});
