/**
 * Property: on random small files and random patterns (empty-matching ones included), the match
 * set of llmsearch's searcher equals ripgrep's (`rg --json`, line mode). ripgrep must be
 * installed: without it this test fails, it does not skip.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { compilePattern } from "../../src/tools/llmsearch/pattern.js";
import { findMatches, prepare } from "../../src/tools/llmsearch/scan.js";
import { runTool, tempDir } from "../support/run.js";

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces whose meaning ripgrep (Rust regex) and the translated JavaScript RegExp share.
const PIECES = ["a", "b", "ab", "x*", "a?", "b+", ".", "[ab]", "[^a]", "(a|)", "(|b)", "\\s*", "a{0,2}", "\\w*", "\\W", " ", "é", "(a|b)*", "\\d?"];
// 🐙 is outside the BMP: a surrogate pair in JavaScript, where V8 lets `^$` match between its halves.
const CHARS = ["a", "b", "x", " ", "\n", "\n", "é", "1", "-", "🐙"];

function randomPattern(r: () => number): string {
  // Anchors only at the ends: rg 13 answers `^$^` or `a\bb`-style mixes with quirks of its own.
  const n = Math.floor(r() * 3);
  let p = r() < 0.25 ? "^" : "";
  for (let i = 0; i < n; i++) p += PIECES[Math.floor(r() * PIECES.length)] as string;
  if (r() < 0.25 || p === "" || p === "^") p += "$";
  return p;
}

function randomFile(r: () => number): string {
  const n = Math.floor(r() * 24);
  let s = "";
  for (let i = 0; i < n; i++) s += CHARS[Math.floor(r() * CHARS.length)] as string;
  return s;
}

function rgMatches(dir: string, pattern: string, extra: string[] = []): Set<string> {
  const r = spawnSync("rg", ["--json", "--no-config", "--hidden", "--no-ignore", ...extra, "-e", pattern, "."], { cwd: dir, encoding: "utf8" });
  assert.ok(!r.error, `ripgrep (rg) is required for this test and could not run: ${String(r.error)}`);
  assert.ok(r.status === 0 || r.status === 1, `rg failed (${r.status}) on ${pattern}: ${r.stderr}`);
  const out = new Set<string>();
  for (const line of r.stdout.split("\n")) {
    if (!line) continue;
    const msg = JSON.parse(line) as { type: string; data: { path: { text: string }; absolute_offset: number; submatches: { start: number; end: number }[] } };
    if (msg.type !== "match") continue;
    const path = msg.data.path.text.replace(/^\.\//, "");
    const bytes = readFileSync(join(dir, path));
    for (const sm of msg.data.submatches) {
      // rg 13 (Rust regex before 1.9) also reports empty matches between the bytes of one UTF-8
      // character; rg 14 no longer does, nor do we: a span never splits a character.
      const at = msg.data.absolute_offset + sm.start;
      if (sm.start === sm.end && ((bytes[at] ?? 0) & 0xc0) === 0x80) continue;
      out.add(`${path}:${msg.data.absolute_offset + sm.start}:${msg.data.absolute_offset + sm.end}`);
    }
  }
  return out;
}

/**
 * 30 random files, the first four of the shapes that caused phantom matches: empty, newline-terminated, blank lines.
 * `eol` ends their lines ("\r\n": a Windows checkout).
 */
function randomFiles(r: () => number, prefix: string, eol = "\n"): { dir: string; files: string[] } {
  const dir = tempDir(prefix);
  const files: string[] = [];
  for (let i = 0; i < 30; i++) {
    const name = `f${String(i).padStart(2, "0")}.txt`;
    const text = i === 0 ? "" : i === 1 ? "x\n" : i === 2 ? "x\n\n" : i === 3 ? "x" : randomFile(r);
    writeFileSync(join(dir, name), text.replaceAll("\n", eol));
    files.push(name);
  }
  return { dir, files };
}

/** Compares each pattern's match set with rg's; returns how many patterns matched and the spans compared. */
function compareWithRg(dir: string, files: string[], patterns: string[], multiline: boolean, rgFlags: string[] = []): { nonEmpty: number; compared: number } {
  let compared = 0;
  let nonEmpty = 0;
  for (const pattern of patterns) {
    const c = prepare({ pattern: compilePattern({ pattern, multiline }), question: pattern, before: 0, after: 0, keep: 0 });
    const ours = new Set<string>();
    for (const f of files) {
      const spans = findMatches(readFileSync(join(dir, f)), c);
      for (let k = 0; k < spans.length; k += 2) ours.add(`${f}:${spans[k]}:${spans[k + 1]}`);
    }
    const theirs = rgMatches(dir, pattern, multiline ? ["-U", ...rgFlags] : rgFlags);
    const missing = [...theirs].filter((x) => !ours.has(x));
    const extra = [...ours].filter((x) => !theirs.has(x));
    assert.deepEqual({ pattern, missing, extra }, { pattern, missing: [], extra: [] });
    compared += theirs.size;
    if (theirs.size > 0) nonEmpty++;
  }
  return { nonEmpty, compared };
}

test("the match set equals ripgrep's on 120 random patterns x 30 random files, empty matches included", () => {
  const r = rng(20261125);
  const { dir, files } = randomFiles(r, "llmsearch-prop-");
  const patterns = ["^$", "x*", "^", "$", "a*", ...Array.from({ length: 115 }, () => randomPattern(r))];
  const { nonEmpty, compared } = compareWithRg(dir, files, patterns, false);
  assert.ok(nonEmpty > 60 && compared > 1000, `the random cases exercise matches (${nonEmpty} patterns matched, ${compared} spans)`);
});

test("in CRLF files the match set equals rg --crlf's on 120 random patterns x 30 random files: `$` before the \\r\\n, no match takes the \\r", () => {
  const r = rng(20261127);
  const { dir, files } = randomFiles(r, "llmsearch-prop-crlf-", "\r\n");
  const patterns = ["^$", "x*", "^", "$", ".*", "\\s$", "\\W", "[^a]+$", ...Array.from({ length: 112 }, () => randomPattern(r))];
  const { nonEmpty, compared } = compareWithRg(dir, files, patterns, false, ["--crlf"]);
  assert.ok(nonEmpty > 60 && compared > 1000, `the random cases exercise matches (${nonEmpty} patterns matched, ${compared} spans)`);
});

test("with --multiline too, the match set equals ripgrep's on 120 random patterns that may span lines x 30 random files", () => {
  const r = rng(20261126);
  const { dir, files } = randomFiles(r, "llmsearch-prop-u-");
  const multi = ["\\n", "a\\n", "\\nb", "\\s", "[^a]", "\\n*", "(a|\\n)"];
  const randomMulti = (): string => {
    let p = "";
    for (let i = 0, n = 1 + Math.floor(r() * 3); i < n; i++) p += (r() < 0.4 ? multi[Math.floor(r() * multi.length)] : PIECES[Math.floor(r() * PIECES.length)]) as string;
    return p;
  };
  const patterns = ["^$", "x*", "^", "$", "\\n", "a\\nb", ...Array.from({ length: 114 }, randomMulti)];
  const { compared } = compareWithRg(dir, files, patterns, true);
  assert.ok(compared > 1000, `the random cases exercise matches (${compared} spans)`);
});

test("no phantom empty match after the final newline: '^$' and 'x*' on \"x\\n\" as ripgrep (the CLI, end to end)", async () => {
  const root = tempDir("llmsearch-phantom-");
  writeFileSync(join(root, "x.txt"), "x\n");
  writeFileSync(join(root, "empty.txt"), "");
  const count = async (pattern: string): Promise<number> => {
    const out = await runTool("llmsearch", ["--root", root, "-e", pattern]);
    return (out.json as { data: { total_count: number } }).data.total_count;
  };
  assert.equal(await count("^$"), 0);
  assert.equal(await count("x*"), 1);
  assert.equal(await count("^"), 1);
});
