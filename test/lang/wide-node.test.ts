/**
 * A node with tens of thousands of children (a data array, an embedded blob) makes every window's
 * search walk all of them (extract.ts wideNode): such a tree is searched once, whole. These tests
 * check which trees count as wide, on real grammars, and that the facts do not change.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { extractFacts, wideNode } from "../../src/lang/extract.js";
import { languageForPath, parse, type LanguageId } from "../../src/lang/registry.js";
import { sourceFiles } from "./fixtures.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

function numbers(n: number): string {
  return Array.from({ length: n }, (_, i) => String((i * 7919) % 1000)).join(", ");
}

test("an array of 25,000 numbers (50,000 children with the commas) is the wide node of a JavaScript, TypeScript, Python or C file; 9,000 (18,000) is not", () => {
  const cases: [LanguageId, (xs: string) => string, string][] = [
    ["javascript", (xs) => `function before() { return 1; }\nexport const TABLE = [${xs}];\n`, "array"],
    ["typescript", (xs) => `export const TABLE: number[] = [${xs}];\nexport function after(): number { return TABLE[0]; }\n`, "array"],
    ["python", (xs) => `TABLE = [${xs}]\n\ndef after():\n    return TABLE[0]\n`, "list"],
    ["c", (xs) => `static const unsigned char blob[] = {${xs}};\nint after(void) { return blob[0]; }\n`, "initializer_list"],
  ];
  for (const [language, text, type] of cases) {
    const wide = parse(language, text(numbers(25_000)));
    // (The window is far below the array's length, so the search goes down to it.)
    assert.equal(wideNode(wide.rootNode, 4096)?.type, type, language);
    // A file shorter than the window is searched whole anyway: not looked into.
    assert.equal(wideNode(wide.rootNode, 1 << 30), null, language);
    const narrow = parse(language, text(numbers(9_000)));
    assert.equal(wideNode(narrow.rootNode, 4096), null, language);
  }
});

test("no file of the fixtures or of src/lang has a wide node, even with a window of 64 characters", () => {
  let n = 0;
  for (const f of [...sourceFiles(join(REPO, "test", "fixtures")), ...sourceFiles(join(REPO, "src", "lang"))]) {
    const language = languageForPath(f)?.id;
    if (!language) continue;
    assert.equal(wideNode(parse(language, readFileSync(f, "utf8")).rootNode, 64), null, f);
    n++;
  }
  assert.ok(n > 30, `${n} files`);
});

test("a file with a wide node and windows far smaller than it: the facts of one pass, references in and after the array kept", () => {
  const src = Buffer.from(
    `import { pick } from "./pick";\nexport const HANDLERS = [${Array.from({ length: 21_000 }, (_, i) => (i % 5000 === 0 ? `pick(${i})` : String(i % 10))).join(", ")}];\nexport function after() { return pick(HANDLERS.length); }\n`,
  );
  delete process.env.MAGELLAN_MATCH_WINDOW;
  const whole = extractFacts("javascript", src);
  try {
    process.env.MAGELLAN_MATCH_WINDOW = "2048";
    assert.deepEqual(extractFacts("javascript", src), whole);
  } finally {
    delete process.env.MAGELLAN_MATCH_WINDOW;
  }
  const picks = whole.references.filter((r) => r.name === "pick");
  // pick(0), pick(5000), ... pick(20000) in the array, and the one in after(): 6 calls (and the import's own).
  assert.ok(picks.length >= 6, JSON.stringify(picks.length));
  assert.ok(whole.symbols.some((s) => s.name === "after"));
});

test("a tree nested 30,000 deep (an else-if chain) is looked into without recursion", () => {
  const text = `int f(int x) {\n  if (x == 0) { return 0; }\n${Array.from({ length: 30_000 }, (_, i) => `  else if (x == ${i + 1}) { return ${i}; }\n`).join("")}  return -1;\n}\n`;
  const tree = parse("c", text);
  // (A recursive walk overflowed the stack here, and the file was lost as extract_failed.)
  assert.equal(wideNode(tree.rootNode, 64), null);
});
