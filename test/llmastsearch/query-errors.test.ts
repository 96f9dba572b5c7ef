import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runTool } from "../support/run.js";
import { fixtureCopy } from "./helpers.js";

interface ErrorEnv {
  data: { code: string; error: string; message: string; remediation: string; span: { file_path: string; byte_start: number; byte_end: number; start_line: number } };
  diagnostics: { code: string; span?: unknown }[];
}

async function fault(root: string, query: string, extra: string[] = []): Promise<ErrorEnv> {
  const r = await runTool("llmastsearch", ["--root", root, ...extra, "-q", query]);
  assert.equal(r.code, 1, `a broken query is a failure, never an empty success: ${r.stdout}`);
  const env = r.json as ErrorEnv;
  assert.equal(env.diagnostics[0]?.code, env.data.code);
  assert.equal(env.data.span.file_path, "<query>");
  return env;
}

/** The part of the query text the error's span points at. */
function pointed(query: string, env: ErrorEnv): string {
  return Buffer.from(query, "utf8").subarray(env.data.span.byte_start, env.data.span.byte_end).toString("utf8");
}

test("each fault kind of a query that does not compile, located in the query, with grammar suggestions", async () => {
  const root = fixtureCopy("langs");
  const rust = ["-l", "rust"];

  const syntax = "(function_item name: (identifier) @name";
  let e = await fault(root, syntax, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E100");
  assert.equal(e.data.error, "query_syntax");
  assert.equal(e.data.span.byte_start, Buffer.byteLength(syntax));

  const stray = "(function_item )) @f";
  e = await fault(root, stray, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E100");
  assert.equal(pointed(stray, e), ")");

  // A non-ASCII comment before the fault: the span is in bytes of the query text.
  const nodeType = "; é ü\n(functon_item) @f";
  e = await fault(root, nodeType, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E101");
  assert.equal(pointed(nodeType, e), "functon_item");
  assert.equal(e.data.span.start_line, 2);
  assert.match(e.data.remediation, /Closest Rust node types: function_item/);

  const anon = '(function_item "fnx") @f';
  e = await fault(root, anon, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E101");
  assert.equal(pointed(anon, e), '"fnx"');
  assert.match(e.data.remediation, /\bfn\b/);

  const field = "(function_item nme: (identifier) @n)";
  e = await fault(root, field, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E102");
  assert.equal(pointed(field, e), "nme");
  assert.match(e.data.remediation, /Fields of 'function_item': body, name, parameters/);
  assert.match(e.data.remediation, /closest: name/);

  const capture = '(function_item name: (identifier) @name (#eq? @nme "main"))';
  e = await fault(root, capture, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E103");
  assert.equal(pointed(capture, e), "@nme");
  assert.match(e.data.remediation, /@name/);

  const structure = "(function_item (struct_item) @s)";
  e = await fault(root, structure, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E104");
  assert.equal(e.data.error, "query_impossible_structure");
  assert.equal(pointed(structure, e), "(struct_item");
  assert.match(e.data.remediation, /'function_item' has fields: body, name/);

  const predicate = "((identifier) @x (#frobnicate? @x))";
  e = await fault(root, predicate, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E105");
  assert.equal(pointed(predicate, e), "#frobnicate?");

  const arity = "((identifier) @x (#eq? @x))";
  e = await fault(root, arity, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E105");
  assert.equal(pointed(arity, e), "#eq?");

  // After the pattern's closing parenthesis, tree-sitter makes the predicate a pattern of its own that tests nothing.
  const outside = '(identifier) @x (#eq? @x "main")';
  e = await fault(root, outside, rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E105");
  assert.equal(pointed(outside, e), '(#eq? @x "main")');
  assert.match(e.data.remediation, /\(\(identifier\) @x \(#eq\? @x "main"\)\)/);
  // The query it suggests is the user's own, and runs.
  const other = '(identifier) @i (#match? @i "^f")';
  e = await fault(root, other, rust);
  assert.match(e.data.remediation, /\(\(identifier\) @i \(#match\? @i "\^f"\)\)/);

  e = await fault(root, "(function_item)", rust);
  assert.equal(e.data.code, "LLMASTSEARCH_E106");
});

test("the same faults in other grammars name that grammar's node types", async () => {
  const root = fixtureCopy("langs");
  const cases: [string, string, RegExp][] = [
    ["python", "(functiondefinition) @f", /function_definition/],
    ["typescript", "(clas_declaration) @c", /class_declaration/],
    ["go", "(func_declaration) @f", /function_declaration/],
    ["java", "(method_declaraton) @m", /method_declaration/],
    ["c", "(function_defintion) @f", /function_definition/],
    ["cpp", "(class_specifer) @c", /class_specifier/],
    ["javascript", "(arrow_fn) @a", /arrow_function/],
    ["tsx", "(jsx_elemnt) @j", /jsx_element/],
  ];
  for (const [lang, q, near] of cases) {
    const e = await fault(root, q, ["-l", lang]);
    assert.equal(e.data.code, "LLMASTSEARCH_E101", lang);
    assert.match(e.data.remediation, near, lang);
  }
});

test("a node type named as another grammar names it is answered with this grammar's name for the construct, not with look-alike words", async () => {
  const root = fixtureCopy("langs");
  // The query an agent carries over from one language to the next: edit distance alone offered
  // `crate, label, self` for Rust's `(call)` and `_expression, call_expression` for Go's
  // `(if_expression)`.
  const cases: [string, string, string][] = [
    ["rust", "(call) @c", "call_expression"],
    ["go", "(call) @c", "call_expression"],
    ["java", "(import) @i", "import_declaration"],
    ["rust", "(if_statement) @i", "if_expression"],
    ["go", "(if_expression) @i", "if_statement"],
    ["python", "(call_expression) @c", "call"],
    ["python", "(lambda_expression) @l", "lambda"],
    ["rust", "(closure) @c", "closure_expression"],
    ["cpp", "(lambda) @l", "lambda_expression"],
    ["cpp", "(class) @c", "class_specifier"],
    ["python", "(function) @f", "function_definition"],
    ["rust", "(use) @u", "use_declaration"],
    // Typos keep their nearest spelling first.
    ["rust", "(functon_item) @f", "function_item"],
    ["go", "(funcion_declaration) @f", "function_declaration"],
  ];
  for (const [lang, q, want] of cases) {
    const e = await fault(root, q, ["-l", lang]);
    assert.equal(e.data.code, "LLMASTSEARCH_E101", q);
    const near = (/node types: ([^.]*)\./.exec(e.data.remediation)?.[1] ?? "").split(", ");
    const head = want.split("_")[0] ?? want;
    const at = near.indexOf(want);
    // Found, and only names of the same construct (sharing its first word) before it.
    assert.ok(at >= 0 && near.slice(0, at).every((n) => n.split("_").includes(head)), `${lang} ${q}: ${e.data.remediation}`);
  }
});

test("a #match? regex that does not compile points at its string and says how to write it, not which predicates exist", async () => {
  // `#match? @n "pass_obj("` (a call pasted as a regex): the span was the whole query and the
  // remediation listed the supported predicates, none of them the fault.
  const root = fixtureCopy("langs");
  for (const [query, regex] of [
    ['((identifier) @n (#match? @n "["))', '"["'],
    ['((identifier) @n (#eq? @n "x") (#not-match? @n "ok") (#match? @n "pass_obj("))', '"pass_obj("'],
    ['((identifier) @n (#match? @n "*a"))', '"*a"'],
  ] as const) {
    const e = await fault(root, query, ["-l", "python"]);
    assert.equal(e.data.code, "LLMASTSEARCH_E105", query);
    assert.equal(pointed(query, e), regex, query);
    assert.match(e.data.remediation, /Fix that regular expression.*#eq\?/, query);
    assert.doesNotMatch(e.data.remediation, /Supported predicates/, query);
  }
});

test("--query-file: the span names the query file", async () => {
  const root = fixtureCopy("langs");
  writeFileSync(join(root, "bad.scm"), "; finds functions\n(function_item\n  nam: (identifier) @n)\n");
  const r = await runTool("llmastsearch", ["--root", root, "-l", "rust", "--query-file", join(root, "bad.scm")]);
  assert.equal(r.code, 1);
  const env = r.json as ErrorEnv;
  assert.equal(env.data.code, "LLMASTSEARCH_E102");
  assert.equal(env.data.span.file_path, "bad.scm");
  assert.equal(env.data.span.start_line, 3);
  const ok = await runTool("llmastsearch", ["--root", root, "--query-file", join(root, "bad.scm"), "-q", "(x) @x"]);
  assert.equal(ok.code, 2, "--query and --query-file together are a usage error");
});

test("a query whose matching runs past --timeout skips the file with the reason, partial, exit 4, instead of running for minutes", async () => {
  const root = fixtureCopy("langs");
  // A module of many statements: four wildcard siblings are combinatorial for tree-sitter's cursor
  // (on flask's 65 KB app.py one fewer took 17 s, this one ran past two minutes).
  const body = Array.from({ length: 400 }, (_, i) => `x${i} = ${i}\nprint(x${i})\n`).join("");
  writeFileSync(join(root, "big.py"), body);
  const t0 = Date.now();
  const r = await runTool("llmastsearch", ["--root", root, "-l", "python", "--timeout", "300", "-q", "(module (_) @a (_) @b (_) @c (_) @d (_) @e)", "big.py"], { cwd: root });
  assert.equal(r.code, 4, r.stdout);
  assert.ok(Date.now() - t0 < 20_000, `took ${Date.now() - t0} ms`);
  const env = r.json as { partial: boolean; diagnostics?: { message: string }[] };
  assert.equal(env.partial, true);
  assert.ok(env.diagnostics?.some((d) => /1 file\(s\) skipped, the query ran past the 300 ms budget per file \(--timeout.*: big\.py/.test(d.message)), r.stdout);
  // Within its budget, the same file is searched whole.
  const ok = await runTool("llmastsearch", ["--root", root, "-l", "python", "--timeout", "60000", "-q", "(module (expression_statement) @a)", "big.py"], { cwd: root });
  assert.equal(ok.code, 0, ok.stdout);
  // (One match per node, as ast-grep: the module, with its 800 statements captured.)
  const d = (ok.json as { data: { match_count: number; matches: { captures: unknown[] }[] } }).data;
  assert.equal(d.match_count, 1);
  assert.equal(d.matches[0]?.captures.length, 800);
});

test("a parse that runs past --timeout skips the file too, with its own reason, instead of holding the search for half a minute", async () => {
  const root = fixtureCopy("langs");
  // tree-sitter's error recovery is quadratic on generic call signatures it cannot read: these
  // 8,000 (170 KB) took 32 s to parse before the budget held for the parse.
  writeFileSync(join(root, "slow.ts"), `export interface Overloads {\n${"  a: B\n  <K>(k: K): K\n".repeat(8000)}}\n`);
  writeFileSync(join(root, "fine.ts"), "export const fine = 1;\n");
  const t0 = Date.now();
  const r = await runTool("llmastsearch", ["--root", root, "--timeout", "500", "-j", "1", "-q", "(lexical_declaration) @d", "slow.ts", "fine.ts"], { cwd: root });
  assert.ok(Date.now() - t0 < 15_000, `took ${Date.now() - t0} ms`);
  assert.equal(r.code, 4, r.stdout);
  const env = r.json as { partial: boolean; data: { match_count: number }; diagnostics?: { message: string }[] };
  assert.equal(env.partial, true);
  assert.equal(env.data.match_count, 1, "the other file is searched");
  assert.ok(env.diagnostics?.some((d) => /1 file\(s\) skipped, tree-sitter's parse ran past the 500 ms budget per file \(--timeout.*: slow\.ts/.test(d.message)), r.stdout);
});

test("the query may come first, as ast-grep's and ripgrep's pattern does; a first argument that names a file stays a path, and none is still E108", async () => {
  const root = fixtureCopy("langs");
  const q = "(function_item name: (identifier) @name)";
  const flag = await runTool("llmastsearch", ["--root", root, "-q", q, "-l", "rust"], { cwd: root });
  const first = await runTool("llmastsearch", ["--root", root, q, "-l", "rust"], { cwd: root });
  assert.equal(first.code, 0, first.stdout);
  const names = (r: typeof flag) => ((r.json as { data: { matches: { captures: { content: string }[] }[] } }).data.matches.map((m) => m.captures[0]?.content));
  assert.ok(names(flag).length > 0);
  assert.deepEqual(names(first), names(flag));
  // A file named like a query is a path.
  writeFileSync(join(root, "(odd).rs"), "fn odd() {}\n");
  const path = await runTool("llmastsearch", ["--root", root, "(odd).rs"], { cwd: root });
  assert.equal(path.code, 2, path.stdout);
  assert.equal((path.json as ErrorEnv).data.code, "LLMASTSEARCH_E108");
});

test("a --glob ripgrep cannot parse is refused with rg's reason (E109, exit 2), as llmsearch and ast-grep refuse it, not answered as 'no file matched'", async () => {
  const root = fixtureCopy("langs");
  for (const glob of ["*.{rs", "[z-a].rs", "!"]) {
    const r = await runTool("llmastsearch", ["--root", root, "-q", "(function_item) @f", "-g", glob], { cwd: root });
    assert.equal(r.code, 2, `${glob}: ${r.stdout}`);
    const env = r.json as ErrorEnv;
    assert.equal(env.data.code, "LLMASTSEARCH_E109", glob);
    const rg = spawnSync("rg", ["--files", "-g", glob], { cwd: root, encoding: "utf8" });
    if (glob === "!") {
      // rg takes a bare '!' as excluding every file: llmsearch refuses it, and so does this.
      assert.equal(rg.stdout, "", "rg lists nothing");
      assert.match(env.data.message, /'!' with nothing to exclude/);
    } else {
      assert.equal(rg.status, 2, `rg refuses ${glob}`);
      const reason = /error parsing glob '[^']*': (.*)/.exec(rg.stderr)?.[1];
      assert.ok(reason !== undefined && env.data.message.endsWith(`: ${reason}`), `${env.data.message} / ${rg.stderr}`);
    }
  }
});
