/**
 * `#match?` takes the Rust regex syntax tree-sitter's own engine and ast-grep take: inline flags,
 * `\p{..}` classes and POSIX classes. node-tree-sitter compiles the text with `new RegExp(text)`:
 * `(?i)` was refused, and `\p{Lu}` and `[[:upper:]]` silently matched nothing. Each answer is
 * also compared with ast-grep's (the same regex in a rule) on the same file.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT, runTool } from "../support/run.js";
import { checkMatches, type Data, fixtureCopy, names } from "./helpers.js";

async function q(root: string, query: string): Promise<Data> {
  const r = await runTool("llmastsearch", ["--root", root, "-l", "python", "-q", query]);
  assert.equal(r.code, 0, r.stdout);
  const d = (r.json as { data: Data }).data;
  checkMatches(root, d);
  return d;
}

/** ast-grep's identifiers whose text matches `regex`, as start byte offsets. */
function astGrep(root: string, regex: string): number[] {
  const rule = join(root, "rule.yml");
  writeFileSync(rule, `id: x\nlanguage: python\nrule:\n  kind: identifier\n  regex: ${JSON.stringify(regex)}\n`);
  const r = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "ast-grep"), ["scan", "-r", rule, "--json=compact", "exceptions.py"], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { range: { byteOffset: { start: number } } }[]).map((m) => m.range.byteOffset.start).sort((a, b) => a - b);
}

const CASES: [string, string[]][] = [
  ["(?i)^session$", ["Session", "session"]],
  ["^\\p{Lu}\\w+Error$", ["BaseHTTPError", "ConnectionError", "HTTPError", "IOError", "ÉchecError"]],
  ["^[[:upper:]_]+$", ["CA", "DEFAULT_RETRIES"]],
  // Rust regex 1.10's word boundaries (ast-grep's too); `new RegExp` read `\>` as '>' and matched nothing.
  ["Error\\>", ["BaseHTTPError", "ConnectionError", "HTTPError", "IOError", "ÉchecError"]],
  ["\\b{start}HTTP", ["HTTPError"]],
  ["\\<Error", []],
  // \w is Unicode in Rust; the binding's RegExp (no u flag) took ASCII only and missed ÉchecError.
  ["^\\w+Error$", ["BaseHTTPError", "ConnectionError", "HTTPError", "IOError", "ÉchecError"]],
  ["^\\W", []],
  ["\\bchec", []],
];

for (const [regex, expected] of CASES) {
  test(`#match? "${regex}" means what it means to tree-sitter and ast-grep`, async () => {
    const root = fixtureCopy("rust-regex");
    const d = await q(root, `((identifier) @i (#match? @i ${JSON.stringify(regex)}))`);
    assert.deepEqual([...new Set(names(d, "i"))].sort(), expected);
    assert.deepEqual(d.matches.map((m) => m.span.byte_start).sort((a, b) => a - b), astGrep(root, regex));
    // The negation keeps every other identifier.
    const all = await q(root, "((identifier) @i)");
    const not = await q(root, `((identifier) @i (#not-match? @i ${JSON.stringify(regex)}))`);
    assert.equal(not.matches.length, all.matches.length - d.matches.length);
  });
}

test("a Rust-syntax regex that does not compile is a located predicate error", async () => {
  const root = fixtureCopy("rust-regex");
  const r = await runTool("llmastsearch", ["--root", root, "-l", "python", "-q", '((identifier) @i (#match? @i "(?i)[oops"))']);
  assert.equal(r.code, 1, r.stdout);
  const data = (r.json as { data: { code: string; message: string; span: { start_col: number } } }).data;
  assert.equal(data.code, "LLMASTSEARCH_E105");
  assert.match(data.message, /#match\?.*\(\?i\)\[oops/);
  // The span is the regex's string, not its predicate's name.
  assert.equal(data.span.start_col, 29);
});
