import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT, tempDir } from "../support/run.js";
import { languageForPath, parserFor, type LanguageId } from "../../src/lang/registry.js";
import { mayMatch, regexLiteral, requiredTokens } from "../../src/tools/llmastsearch/prefilter.js";
import { compileQuery } from "../../src/tools/llmastsearch/query.js";
import { scanFile, type ScanFile } from "../../src/tools/llmastsearch/scan.js";
import { FIXTURES } from "./helpers.js";

test("required tokens come from each grammar's rules: keywords a node always spans, nothing for aliases, tokens or scanner strings", () => {
  assert.ok(requiredTokens("typescript", "class_declaration").includes("class"));
  assert.ok(requiredTokens("typescript", "abstract_class_declaration").includes("abstract"));
  assert.ok(requiredTokens("rust", "function_item").includes("fn"));
  assert.ok(requiredTokens("go", "function_declaration").includes("func"));
  assert.ok(requiredTokens("java", "class_declaration").includes("class"));
  assert.deepEqual(requiredTokens("python", "function_definition"), ["def"]);
  // Keywords only: error recovery makes up missing brackets (an unclosed class at the end of a file).
  assert.deepEqual(requiredTokens("typescript", "class_declaration"), ["class"]);
  assert.deepEqual(requiredTokens("typescript", "arrow_function"), []);
  // type_identifier is an alias other rules' text stands for; identifier a pattern; call_expression has no keyword.
  assert.deepEqual(requiredTokens("typescript", "type_identifier"), []);
  assert.deepEqual(requiredTokens("typescript", "identifier"), []);
  assert.deepEqual(requiredTokens("typescript", "call_expression"), []);
  // A supertype is any of its subtypes: only what all of them share.
  assert.deepEqual(requiredTokens("typescript", "declaration"), []);
});

/** Real code of several languages: the fixtures plus JavaScript and TypeScript from node_modules. */
function realFiles(): ScanFile[] {
  const out: ScanFile[] = [];
  const add = (dir: string, relDir: string, max: number): void => {
    for (const f of readdirSync(dir).sort().slice(0, max)) {
      const lang = languageForPath(f);
      if (lang) out.push({ abs: join(dir, f), rel: `${relDir}/${f}`, language: lang.id });
    }
  };
  add(join(FIXTURES, "langs"), "langs", 50);
  add(join(REPO_ROOT, "node_modules", "zod", "v4", "core"), "zod-core", 40);
  add(join(REPO_ROOT, "node_modules", "commander", "lib"), "commander", 20);
  return out;
}

test("files skipped for lacking a required token give exactly the matches a parse gives, and some are skipped", () => {
  const files = realFiles();
  const queries: [string, LanguageId[]][] = [
    ["(class_declaration name: (_) @name)", ["typescript", "javascript", "java"]],
    ["(function_declaration) @f", ["typescript", "javascript", "go"]],
    ["[(class_declaration) (interface_declaration)] @t (function_declaration) @f", ["typescript"]],
    ["((class_declaration (decorator)* @d name: (type_identifier) @n))", ["typescript"]],
    ["(function_item name: (identifier) @n)", ["rust"]],
    ["(function_definition name: (identifier) @n)", ["python"]],
    ["(class_specifier) @c", ["cpp"]],
    ['((identifier) @id (#eq? @id "ZodType"))', ["typescript", "javascript"]],
    ['(call_expression function: (identifier) @f (#eq? @f "require"))', ["javascript"]],
    ['((property_identifier) @p (#any-of? @p "parse" "safeParse" "option"))', ["typescript", "javascript"]],
    ['((identifier) @id (#any-eq? @id "Command"))', ["typescript", "javascript"]],
    ['((property_identifier) @p (#match? @p "^safe"))', ["typescript", "javascript"]],
    ['((identifier) @id (#match? @id "Error$"))', ["typescript", "javascript", "python", "rust", "go", "java"]],
  ];
  let skipped = 0;
  let matched = 0;
  for (const [text, langs] of queries) {
    for (const file of files.filter((f) => langs.includes(f.language))) {
      const source = { text, origin: "<query>" };
      const { needs } = compileQuery(file.language, source);
      assert.ok(needs, `${text} has required tokens in ${file.language}`);
      if (!mayMatch(readFileSync(file.abs), needs)) skipped++;
      const opts = { source, context: 1, maxFileBytes: 1 << 24 };
      const fast = scanFile(file, opts);
      assert.deepEqual(fast, scanFile(file, { ...opts, noPrefilter: true }), `${text} on ${file.rel}`);
      if (fast.ok) matched += fast.matches.length;
    }
  }
  assert.ok(skipped > 20, `files without the keyword are skipped (${skipped})`);
  assert.ok(matched > 50, `and the others still match (${matched})`);
});

test("the literals of #eq?, #any-eq? and #any-of? are required, but not where the capture may hold no node", () => {
  const needs = (text: string): string[][] | undefined => compileQuery("typescript", { text, origin: "<query>" }).needs;
  assert.deepEqual(needs('((identifier) @id (#eq? @id "Repository"))'), [["Repository"]]);
  assert.deepEqual(needs('(class_declaration name: (type_identifier) @n (#eq? @n "Foo"))'), [["class", "Foo"]]);
  assert.deepEqual(needs('((identifier) @id (#any-of? @id "Foo" "Bar"))'), [["Foo"], ["Bar"]]);
  // Every predicate passes on a capture without nodes, as in tree-sitter's engine: optional or
  // alternative parts require nothing.
  assert.equal(needs('((identifier)? @id (#eq? @id "X"))'), undefined);
  assert.equal(needs('(expression_statement [(identifier) @id (number)] (#eq? @id "X"))'), undefined);
  assert.equal(needs('(expression_statement (identifier)? @id (#any-eq? @id "X"))'), undefined);
  assert.equal(needs('(expression_statement (identifier)? @id (#any-of? @id "X" "Y"))'), undefined);
  // A positive #match?'s leading literal is required where the capture holds a node.
  assert.deepEqual(needs('((identifier) @id (#match? @id "^get"))'), [["get"]]);
  assert.equal(needs('(expression_statement (identifier)? @id (#match? @id "Controller$"))'), undefined);
  // Negative predicates require nothing; a semicolon inside the string is not a comment.
  assert.equal(needs('((identifier) @id (#not-eq? @id "X"))'), undefined);
  assert.equal(needs('((identifier) @id (#not-match? @id "^X$"))'), undefined);
  assert.deepEqual(needs('; a "comment\n((identifier) @id (#eq? @id "A;B"))'), [["A;B"]]);
});

test("a regular expression's required literal is its first run of plain characters, unless an alternation may skip it", () => {
  const cases: [string, string | undefined][] = [
    ["^get", "get"],
    ["^Repository$", "Repository"],
    ["Controller$", "Controller"],
    ["^use[A-Z]", "use"],
    ["^ab?c", "a"],
    ["^x*", undefined],
    ["^a{2}", undefined],
    ["^on\\.click", "on.click"],
    ["^get\\d", "get"],
    ["get|set", undefined],
    ["^(get|set)Name", undefined],
    ["a\\|b", "a|b"],
    ["[A-Z]foo", undefined],
    ["", undefined],
  ];
  for (const [source, literal] of cases) {
    assert.equal(regexLiteral(source), literal, source);
    // What it finds is in every text the expression matches.
    if (literal !== undefined) for (const text of [`${literal}X`, `q${literal}`]) if (new RegExp(source).test(text)) assert.ok(text.includes(literal));
  }
});

test("an unclosed class at the end of a file, its brace made up by error recovery, is still found", () => {
  const dir = tempDir("llmastsearch-prefilter-");
  const abs = join(dir, "a.ts");
  writeFileSync(abs, "export class Unclosed {\n  x = 1;\n");
  const r = scanFile({ abs, rel: "a.ts", language: "typescript" }, { source: { text: "(class_declaration name: (type_identifier) @n)", origin: "<query>" }, context: 0, maxFileBytes: 1 << 20 });
  assert.ok(r.ok);
  assert.deepEqual(
    r.matches.map((m) => m.captures[0]?.content),
    ["Unclosed"],
  );
});

test("error recovery does not make up keywords: real files with a required keyword blanked out hold no node of the type", () => {
  const types: Record<string, string[]> = {
    typescript: ["class_declaration", "function_declaration", "interface_declaration", "import_statement", "method_definition", "if_statement", "return_statement"],
    javascript: ["class_declaration", "function_declaration", "import_statement", "if_statement", "return_statement"],
  };
  let checked = 0;
  for (const file of realFiles().filter((f) => f.language === "typescript" || f.language === "javascript")) {
    const original = readFileSync(file.abs, "utf8");
    for (const type of types[file.language] ?? []) {
      for (const tok of requiredTokens(file.language, type)) {
        if (!original.includes(tok)) continue;
        const text = original.split(tok).join(" ".repeat(tok.length));
        const nodes = parserFor(file.language).parse(text, undefined, { bufferSize: text.length + 1 }).rootNode.descendantsOfType(type);
        assert.equal(nodes.length, 0, `${file.rel} without "${tok}" still has a ${type}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `enough cases (${checked})`);
});

test("a query that can start at any node, or at a token, parses every file", () => {
  for (const text of ["(_) @any", "(identifier) @id", "(class_declaration) @c (call_expression) @call", '"class" @kw', '("class") @kw', '[(class_declaration) "class"] @c']) {
    assert.equal(compileQuery("typescript", { text, origin: "<query>" }).needs, undefined, text);
  }
});
