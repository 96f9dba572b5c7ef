/**
 * The match set equals ripgrep's on real code: same pattern, same ignore rules, same root;
 * compared as sets of (path, byte_start, byte_end). ripgrep must be installed: without it this
 * test fails, it does not skip.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { LlmsearchCountData, LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

const RG = "rg";

interface RgMatch {
  type: string;
  data: { path: { text?: string; bytes?: string }; absolute_offset: number; submatches: { start: number; end: number }[] };
}

function rgSet(root: string, rgArgs: string[]): Set<string> {
  const r = spawnSync(RG, ["--json", ...rgArgs], { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 });
  assert.ok(!r.error, `ripgrep (rg) is required for this test and could not run: ${String(r.error)}`);
  assert.ok(r.status === 0 || r.status === 1, `rg failed (${r.status}): ${r.stderr}`);
  const out = new Set<string>();
  for (const line of r.stdout.split("\n")) {
    if (!line) continue;
    const msg = JSON.parse(line) as RgMatch;
    if (msg.type !== "match") continue;
    // Paths are always given: without one rg would read stdin, which is a pipe here.
    const path = (msg.data.path.text ?? Buffer.from(msg.data.path.bytes ?? "", "base64").toString("utf8")).replace(/^\.\//, "");
    for (const sm of msg.data.submatches) {
      out.add(`${path}:${msg.data.absolute_offset + sm.start}:${msg.data.absolute_offset + sm.end}`);
    }
  }
  return out;
}

async function oursSet(root: string, args: string[]): Promise<{ set: Set<string>; binary: Set<string>; data: LlmsearchData }> {
  const r = await runTool("llmsearch", ["--root", root, ...args]);
  assert.ok(r.code === 0, `llmsearch exit ${r.code}: ${r.stdout.slice(0, 2000)}`);
  const data = (r.json as { data: LlmsearchData }).data;
  const set = new Set(data.matches.map((m) => `${m.span.file_path}:${m.span.byte_start}:${m.span.byte_end}`));
  const binary = new Set(data.files_skipped.filter((s) => s.reason === "binary").map((s) => s.file_path));
  return { set, binary, data };
}

function diff(a: Set<string>, b: Set<string>): string[] {
  return [...a].filter((x) => !b.has(x)).slice(0, 10);
}

// Real code, searched as positional paths under one root (as an agent would): this tool's
// sources (others change under concurrent work, racing the two runs) and installed packages (minified bundles, .d.ts files, Markdown with
// non-ASCII text). node_modules/ is ignored by the repository's .gitignore, yet named paths are
// searched, with each package's own .gitignore applied, as ripgrep does.
const PATHS = [
  "src/tools/llmsearch",
  "node_modules/zod",
  "node_modules/commander",
  "node_modules/typescript/lib/typescript.d.ts",
  "node_modules/typescript/lib/lib.es5.d.ts",
  "node_modules/typescript/lib/lib.dom.d.ts",
];

const cases: { name: string; ours: string[]; rg: string[] }[] = [
  { name: "literal", ours: ["--pattern", "function"], rg: ["function"] },
  { name: "regex with classes", ours: ["--pattern", "\\w+Error\\b"], rg: ["\\w+Error\\b"] },
  { name: "regex with quantifiers and groups", ours: ["--pattern", "(?:const|let)\\s+[A-Z][A-Za-z0-9_]*\\s*="], rg: ["(?:const|let)\\s+[A-Z][A-Za-z0-9_]*\\s*="] },
  { name: "ignore-case", ours: ["--ignore-case", "--pattern", "todo|fixme"], rg: ["--ignore-case", "todo|fixme"] },
  { name: "word", ours: ["--word", "--pattern", "string"], rg: ["--word-regexp", "string"] },
  { name: "fixed-strings", ours: ["--fixed-strings", "--pattern", ".prototype."], rg: ["--fixed-strings", ".prototype."] },
  { name: "non-ASCII", ours: ["--pattern", "[—–é…]"], rg: ["[—–é…]"] },
  { name: "anchors", ours: ["--pattern", "^\\s*return\\s+\\w+;$"], rg: ["^\\s*return\\s+\\w+;$"] },
  { name: "negated class and dot", ours: ["--pattern", "\"[^\"]{20,}\"|`.+`"], rg: ["\"[^\"]{20,}\"|`.+`"] },
  { name: "inline flag and POSIX class", ours: ["--pattern", "(?i)[[:upper:]]{3}_[[:digit:]]+"], rg: ["(?i)[[:upper:]]{3}_[[:digit:]]+"] },
];

for (const c of cases) {
  test(`rg parity: ${c.name}`, async () => {
    for (const p of PATHS) assert.ok(existsSync(join(REPO_ROOT, p)), `corpus missing: ${p}`);
    const ours = await oursSet(REPO_ROOT, [...c.ours, ...PATHS]);
    const theirs = rgSet(REPO_ROOT, [...c.rg, ...PATHS]);
    // ripgrep reports matches it met before the first NUL of a file it then calls binary;
    // llmsearch skips such a file whole and lists it in files_skipped.
    for (const k of [...theirs]) if (ours.binary.has(k.slice(0, k.indexOf(":")))) theirs.delete(k);
    assert.deepEqual(diff(ours.set, theirs), [], `${c.name}: llmsearch found matches rg did not`);
    assert.deepEqual(diff(theirs, ours.set), [], `${c.name}: rg found matches llmsearch did not`);
    assert.equal(ours.set.size, theirs.size, c.name);
    assert.equal(ours.data.match_count, ours.set.size);
    assert.ok(ours.set.size > 0, "no matches at all: the comparison proved nothing");
  });
}

/** `rg ARGS` with -c or --count-matches, as a map of path to count. */
function rgCounts(root: string, rgArgs: string[]): Map<string, number> {
  const r = spawnSync(RG, ["--no-config", "--with-filename", ...rgArgs], { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 });
  assert.ok(!r.error, `ripgrep (rg) is required for this test and could not run: ${String(r.error)}`);
  assert.ok(r.status === 0 || r.status === 1, `rg failed (${r.status}): ${r.stderr}`);
  const out = new Map<string, number>();
  for (const line of r.stdout.split("\n")) {
    if (!line) continue;
    const at = line.lastIndexOf(":");
    out.set(line.slice(0, at).replace(/^\.\//, ""), Number(line.slice(at + 1)));
  }
  return out;
}

test("rg parity: -c counts the lines with a match and --count-matches the matches, per file, as rg does", async () => {
  const root = join(REPO_ROOT, "node_modules", "commander");
  // `option` is on many lines more than once (`.option('-p, --option')`): the two counts differ.
  for (const [flag, unit] of [["-c", "lines"], ["--count-matches", "matches"]] as const) {
    const r = await runTool("llmsearch", ["--root", root, flag, "--pattern", "option"]);
    assert.equal(r.code, 0);
    const data = (r.json as { data: LlmsearchCountData }).data;
    assert.equal(data.count_of, unit);
    const theirs = rgCounts(root, [flag, "option", "."]);
    assert.deepEqual(new Map(data.counts.map((c) => [c.file_path, c.count])), theirs);
    assert.equal(data.total_count, [...theirs.values()].reduce((a, b) => a + b, 0));
  }
  const lines = (await runTool("llmsearch", ["--root", root, "-c", "option"])).json as { data: LlmsearchCountData };
  const matches = (await runTool("llmsearch", ["--root", root, "--count-matches", "option"])).json as { data: LlmsearchCountData };
  assert.ok(matches.data.total_count > lines.data.total_count, "no line holds two matches: the comparison proved nothing");
});

test("rg parity: -c with --multiline counts lines, or matches where the pattern can match a line feed, as rg does", async () => {
  const root = tempDir("llmsearch-count-");
  writeFileSync(join(root, "a.txt"), "ab\nab\n");
  writeFileSync(join(root, "b.txt"), "ab\nxb\nb\nab ab\n");
  for (const pattern of ["ab\\nab", "b\\na|b", "b\\nx|b", "ab", "b", "^", "$", "b\\s", "a[^x]", "\\W", "(?s)b.", "b."]) {
    for (const flag of ["-c", "--count-matches"]) {
      const r = await runTool("llmsearch", ["--root", root, flag, "-U", "--pattern", pattern]);
      const data = (r.json as { data: LlmsearchCountData }).data;
      assert.deepEqual(new Map(data.counts.map((c) => [c.file_path, c.count])), rgCounts(root, [flag, "-U", pattern, "."]), `${flag} -U ${pattern}`);
    }
  }
});

test("rg parity: in a CRLF file `$` matches once a line, before the \\r\\n, and no match takes the \\r (as rg --crlf)", async () => {
  const root = tempDir("llmsearch-crlf-");
  writeFileSync(join(root, "c.txt"), "foo\r\nbar  \r\nfoo bar\r\n\r\nend");
  // `\s+$` is how an agent finds trailing whitespace to delete: a span with the \r in it turned the CRLF into an LF.
  for (const pattern of [".*", "$", "^$", "x*", "bar\\s*$", "\\s$", "\\W$", "[^a]+$", "[[:space:]]+$", "\\s+$", "\\s+", "[^a]+"]) {
    const ours = await oursSet(root, ["-e", pattern, "c.txt"]);
    const theirs = rgSet(root, ["--crlf", "-e", pattern, "c.txt"]);
    assert.deepEqual([...ours.set].sort(), [...theirs].sort(), pattern);
    for (const m of ours.data.matches) assert.ok(!m.matched_text.includes("\r"), `${pattern}: ${JSON.stringify(m.matched_text)}`);
  }
  assert.equal((await oursSet(root, ["-e", ".*", "c.txt"])).set.size, 5, "one match a line");
  // With --multiline a match may take whole line ends, but `$` is still never between the \r and the \n.
  writeFileSync(join(root, "m.txt"), "a \r\nb \r\n\r\nc");
  for (const pattern of ["\\s$", "\\s+$", "[ ]$", "a\\s*$"]) {
    const ours = await oursSet(root, ["-U", "-e", pattern, "m.txt"]);
    assert.deepEqual([...ours.set].sort(), [...rgSet(root, ["-U", "--crlf", "-e", pattern, "m.txt"])].sort(), `-U ${pattern}`);
  }
  // rg --crlf refuses a \r in the pattern; here a CRLF's \r is matched by no pattern, a pure literal (no regex run) neither.
  for (const pattern of ["bar  \\r", "bar\\s+\\r"]) assert.equal((await oursSet(root, ["-e", pattern, "c.txt"])).set.size, 0, pattern);
});

test("rg parity: a UTF-8 BOM is not text: the first line, `^` and `\\A` start after it (rg strips it; its offsets are 3 less)", async () => {
  const root = tempDir("llmsearch-bom-");
  writeFileSync(join(root, "b.txt"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("foo bar\nbaz\n")]));
  // No literal (the whole file is searched), a literal (its lines are), a pure literal (no regex), \A (the whole file).
  for (const pattern of ["^", "^.", "^\\W", "\\W", ".*", "^foo", "foo", "\\Afoo", "\\A"]) {
    const ours = await oursSet(root, ["-e", pattern, "b.txt"]);
    const theirs = [...rgSet(root, ["-e", pattern, "b.txt"])].map((k) => k.replace(/:(\d+):(\d+)$/, (_, s: string, e: string) => `:${Number(s) + 3}:${Number(e) + 3}`));
    assert.deepEqual([...ours.set].sort(), theirs.sort(), pattern);
  }
  assert.deepEqual([...(await oursSet(root, ["-e", "\\Afoo", "b.txt"])).set], ["b.txt:3:6"]);
});

test("rg parity: Rust's hex escapes \\x{..}, \\u0000, \\u{..}, \\U00000000, \\U{..} and \\a, in and out of classes (\\u{e9} was refused)", async () => {
  const root = tempDir("llmsearch-escapes-");
  writeFileSync(join(root, "u.txt"), "café\nnaïve\nbell\x07ring\nx\n");
  for (const pattern of ["\\u{e9}", "\\U000000e9", "\\u00e9", "\\x{e9}", "\\U{ef}", "caf[\\u{e8}-\\u{ea}]", "[\\u00ef]v", "\\a", "[\\a]r", "\\x78"]) {
    const ours = await oursSet(root, ["--pattern", pattern, "u.txt"]);
    const theirs = rgSet(root, [pattern, "u.txt"]);
    assert.ok(theirs.size > 0, `rg found nothing for ${pattern}`);
    assert.deepEqual([...ours.set].sort(), [...theirs].sort(), pattern);
  }
  // Not a scalar value: refused with the pattern's fault, as rg refuses it.
  const bad = await runTool("llmsearch", ["--root", root, "--pattern", "\\u{d800}", "u.txt"]);
  assert.equal(bad.code, 2, bad.stdout);
});
