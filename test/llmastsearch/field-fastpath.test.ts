import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { languageOfFile, parserFor, type LanguageId } from "../../src/lang/registry.js";
import { compileQuery } from "../../src/tools/llmastsearch/query.js";
import { fieldChildMatches, scanFile, type ScanFile } from "../../src/tools/llmastsearch/scan.js";
import { FIXTURES } from "./helpers.js";

/** One-field patterns per language, each of a form the fast path takes. */
const PATTERNS: Partial<Record<LanguageId, string[]>> = {
  typescript: [
    "(class_declaration name: (type_identifier) @name)",
    "(class_declaration name: (type_identifier) @name) @class",
    "(function_declaration name: (identifier)) @fn",
    "(call_expression function: (member_expression) @callee)",
    "(binary_expression left: (binary_expression) @left) @expr",
    "(binary_expression right: (identifier) @right) @expr",
    "(ternary_expression alternative: (identifier) @alt) @t",
    "(import_statement source: (string) @src)",
    "(member_expression object: (identifier) @o)",
    "[(function_declaration name: (identifier) @name) (method_definition name: (property_identifier) @name)]",
    "[(class_declaration name: (type_identifier) @n) @c (interface_declaration name: (type_identifier) @n) @c (type_alias_declaration name: (type_identifier)) @c]",
  ],
  javascript: [
    "(function_declaration name: (identifier) @n)",
    "(call_expression function: (identifier) @f) @call",
    "(export_specifier name: (identifier) @n)",
    "(export_specifier alias: (identifier) @a) @spec",
    "(import_specifier name: (identifier)) @spec",
    "(arrow_function body: (parenthesized_expression) @b)",
  ],
  python: [
    "(function_definition name: (identifier) @n)",
    "(class_definition name: (identifier) @n) @c",
    "(call function: (attribute) @f)",
    "(attribute object: (identifier) @o)",
    "(function_definition body: (block)) @f",
    "[(class_definition name: (identifier) @n) (function_definition name: (identifier) @n)]",
  ],
  rust: [
    "(function_item name: (identifier) @n)",
    "(struct_item name: (type_identifier) @n) @s",
    "(call_expression function: (scoped_identifier) @f)",
    "(field_expression value: (self) @v)",
    "(impl_item type: (generic_type) @t)",
  ],
  go: [
    "(function_declaration name: (identifier) @n)",
    "(method_declaration name: (field_identifier) @n) @m",
    "(call_expression function: (selector_expression) @f)",
    "(type_spec name: (type_identifier) @n)",
    "[(function_declaration name: (identifier) @n) (method_declaration name: (field_identifier) @n)]",
  ],
  java: [
    "(class_declaration name: (identifier) @n)",
    "(method_declaration name: (identifier) @n) @m",
    "(method_invocation object: (object_creation_expression) @o)",
    "(field_access object: (this)) @f",
    "[(class_declaration name: (identifier) @n) (method_declaration name: (identifier) @n) (constructor_declaration name: (identifier) @n)]",
  ],
  c: [
    "(function_definition declarator: (function_declarator) @d)",
    "(function_declarator declarator: (identifier) @n)",
    "(conditional_expression alternative: (conditional_expression) @a) @c",
  ],
  cpp: [
    "(class_specifier name: (type_identifier) @n)",
    "(function_definition declarator: (function_declarator) @d)",
    "(call_expression function: (field_expression) @f)",
    "(field_expression argument: (identifier) @a)",
  ],
};
PATTERNS.tsx = PATTERNS.typescript;

function files(): ScanFile[] {
  const out: ScanFile[] = [];
  for (const dir of ["langs", "fields", "decorators"]) {
    for (const f of readdirSync(join(FIXTURES, dir)).sort()) {
      const abs = join(FIXTURES, dir, f);
      const lang = languageOfFile(f, abs);
      if (lang) out.push({ abs, rel: `${dir}/${f}`, language: lang.id });
    }
  }
  return out;
}

type Raw = { pattern: number; captures: { name: string; node: { id: number } }[] };
const rawKey = (ms: Raw[]): string[] => ms.map((m) => `${m.pattern}:${m.captures.map((c) => `${c.name}=${c.node.id}`).join(",")}`);

function trees(file: ScanFile) {
  const text = readFileSync(file.abs, "utf8");
  return parserFor(file.language).parse(text).rootNode;
}

test("the field fast path gives exactly the query engine's matches, raw and shaped, on real-shaped code in every language", () => {
  const found = new Map<string, number>();
  const all = files();
  assert.ok(new Set(all.map((f) => f.language)).size >= 9, "fixtures in all nine languages");
  for (const file of all) {
    const root = trees(file);
    for (const text of PATTERNS[file.language] ?? []) {
      const compiled = compileQuery(file.language, { text, origin: "<query>" });
      assert.ok(compiled.fieldChild, `fast path taken for ${text} (${file.language})`);
      const fast = fieldChildMatches(root, compiled.fieldChild) as unknown as Raw[];
      const engine = compiled.query.matches(root) as unknown as Raw[];
      assert.deepEqual(rawKey(fast), rawKey(engine), `raw matches of ${text} on ${file.rel}`);
      const opts = { source: { text, origin: "<query>" }, context: 1, maxFileBytes: 1 << 24 };
      // The walk (however dense A is) with the prefilter against the engine without it: the
      // prefilter must not drop a file the walk would match. The default picks either by density.
      const a = scanFile(file, { ...opts, denseFastPath: true });
      const b = scanFile(file, { ...opts, noFastPath: true, noPrefilter: true });
      assert.deepEqual(a, b, `${text} on ${file.rel}`);
      assert.deepEqual(scanFile(file, opts), b, `${text} on ${file.rel}, default`);
      if (b.ok) found.set(`${file.language} ${text}`, (found.get(`${file.language} ${text}`) ?? 0) + b.matches.length);
    }
  }
  for (const [lang, list] of Object.entries(PATTERNS)) {
    if (lang === "tsx") continue;
    for (const text of list) assert.ok((found.get(`${lang} ${text}`) ?? 0) > 0, `${text} matches something in the ${lang} fixtures`);
  }
});

test("recovered code: nested, MISSING, inside ERROR, aliased, in the engine's order", () => {
  const file: ScanFile = { abs: join(FIXTURES, "fields", "broken.ts"), rel: "broken.ts", language: "typescript" };
  const root = trees(file);
  const run = (text: string) => {
    const compiled = compileQuery("typescript", { text, origin: "<query>" });
    assert.ok(compiled.fieldChild);
    const fast = fieldChildMatches(root, compiled.fieldChild);
    assert.deepEqual(rawKey(fast as unknown as Raw[]), rawKey(compiled.query.matches(root) as unknown as Raw[]), text);
    return fast;
  };
  // `base + step + extra`: the inner expression's right operand comes first in the tree, though
  // the walk meets the outer expression first.
  const rights = run("(binary_expression right: (identifier) @right) @expr").map((m) => m.captures[1]?.node.text);
  assert.deepEqual(rights.slice(0, 2), ["step", "extra"]);
  // `ready ? first : ;` recovers with a MISSING identifier; the engine matches it, so must we.
  const alt = run("(ternary_expression alternative: (identifier) @alt) @t");
  assert.equal(alt.length, 1);
  assert.equal(alt[0]?.captures[1]?.node.isMissing, true);
  // `repo.find(id) +` sits in an ERROR node.
  const callees = run("(call_expression function: (member_expression) @callee)");
  const inError = callees.filter((m) => {
    for (let n = m.captures[0]?.node.parent; n; n = n.parent) if (n.type === "ERROR") return true;
    return false;
  });
  assert.deepEqual(inError.map((m) => m.captures[0]?.node.text), ["repo.find"]);
  // A class name is an identifier aliased as type_identifier; classes nested and in recovered code.
  const names = run("(class_declaration name: (type_identifier) @name) @class").map((m) => m.captures[1]?.node.text);
  assert.deepEqual(names, ["Outer", "Inner", "Stray"]);
});

test("a field that sometimes holds an anonymous node (`default`) matches only its named children", () => {
  const file: ScanFile = { abs: join(FIXTURES, "fields", "exports.js"), rel: "exports.js", language: "javascript" };
  const root = trees(file);
  const texts = (text: string): string[] => {
    const compiled = compileQuery("javascript", { text, origin: "<query>" });
    assert.ok(compiled.fieldChild);
    const fast = fieldChildMatches(root, compiled.fieldChild);
    assert.deepEqual(rawKey(fast as unknown as Raw[]), rawKey(compiled.query.matches(root) as unknown as Raw[]), text);
    return fast.map((m) => m.captures[m.captures.length - 1]?.node.text ?? "");
  };
  assert.deepEqual(texts("(export_specifier name: (identifier) @n)"), ["main", "assist", "other"]);
  assert.deepEqual(texts("(export_specifier alias: (identifier) @a) @spec"), ["renamed"]);
  assert.deepEqual(texts("(import_specifier name: (identifier) @n)"), ["helper", "other"]);
});

test("patterns the walk cannot answer exactly stay with the query engine", () => {
  const declined: [LanguageId, string][] = [
    // A field holding several nodes (node-types `multiple: true`).
    ["c", "(declaration declarator: (identifier) @d)"],
    ["cpp", "(requires_clause constraint: (template_function) @c)"],
    ["typescript", "(switch_case body: (expression_statement) @s)"],
    // A wildcard child could be a comment the engine gives a hidden wrapper's field.
    ["typescript", "(class_declaration name: (_) @n)"],
    // Anything beyond one node and one field child.
    ["typescript", '((class_declaration name: (type_identifier) @n) (#eq? @n "Outer"))'],
    ["typescript", "(class_declaration name: (type_identifier)? @n) @c"],
    ["typescript", "(class_declaration !type_parameters name: (type_identifier) @n)"],
    ["typescript", "(class_declaration . name: (type_identifier) @n)"],
    ["typescript", "(class_declaration name: (type_identifier))"],
    ["typescript", "(class_declaration name: (type_identifier) @n body: (class_body))"],
    // Alternations: one type twice, a capture on the whole, an alternative beyond the shape.
    ["typescript", "[(class_declaration name: (type_identifier) @n) (class_declaration body: (class_body) @n)]"],
    ["typescript", "[(class_declaration name: (type_identifier) @n) (function_declaration name: (identifier) @n)] @x"],
    ["typescript", "[(class_declaration name: (type_identifier) @n) (function_declaration) @n]"],
    // A supertype as the parent.
    ["typescript", "(declaration name: (identifier) @n)"],
  ];
  for (const [lang, text] of declined) {
    let compiled;
    try {
      compiled = compileQuery(lang, { text, origin: "<query>" });
    } catch (e) {
      assert.fail(`${text} should compile: ${(e as Error).message}`);
    }
    assert.equal(compiled.fieldChild, undefined, text);
  }
  // Why `multiple: true` is declined: C++ gives `(`, `A<T>` and `)` of `requires ( A<T> )` the field
  // `constraint` through one hidden rule; the engine matches none of them as template_function, the
  // binding's field lookup returns all three.
  const root = parserFor("cpp").parse("template<class T> requires ( A<T> ) void f();\n").rootNode;
  const q = compileQuery("cpp", { text: "(requires_clause constraint: (template_function) @c)", origin: "<query>" });
  assert.equal(q.query.matches(root).length, 0);
  const clause = root.descendantsOfType("requires_clause")[0];
  assert.deepEqual(clause?.childrenForFieldName("constraint").map((n) => n.type), ["(", "template_function", ")"]);
  // The same for a field on a repeat: the engine stops after a case's first statement.
  const ts = parserFor("typescript").parse("switch (x) { case 1: a(); b(); c(); }\n").rootNode;
  const body = compileQuery("typescript", { text: "(switch_case body: (expression_statement) @s)", origin: "<query>" });
  assert.deepEqual(body.query.matches(ts).map((m) => m.captures[0]?.node.text), ["a();"]);
  assert.equal(ts.descendantsOfType("switch_case")[0]?.childrenForFieldName("body").length, 3);
});
