/**
 * ripgrep's display flags, which agents type by habit, are accepted and change nothing in the
 * answer (the output is always one JSON document with paths, line numbers and columns); -o
 * changes only what rg changes with it (-c -o counts matches); the help says all of it.
 */
import assert from "node:assert/strict";
import { before, test } from "node:test";
import type { LlmsearchCountData } from "../../src/contract/tools/llmsearch.js";
import { rgCounts } from "../support/rg.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";

before(() => {
  root = tempDir("llmsearch-habits-");
  writeTree(root, { "a.txt": "foo foo\nbar\nfoo\n", "d/b.txt": "x foo\n" });
});

/** The answer without what differs between runs (execution id, time). */
async function answer(args: string[]): Promise<{ code: number; data: unknown }> {
  const r = await runTool("llmsearch", ["--root", root, ...args], { cwd: root });
  return { code: r.code, data: (r.json as { data: unknown }).data };
}

const HABITS = [["-n"], ["--line-number"], ["-N"], ["--no-line-number"], ["--heading"], ["--no-heading"], ["-H"], ["--with-filename"], ["--no-filename"], ["--column"], ["--vimgrep"], ["--json"], ["--color", "never"], ["--color=always"], ["-o"], ["--only-matching"], ["-nH", "--no-heading", "--column"]];

test("ripgrep's display flags are accepted and leave the answer as it is", async () => {
  for (const mode of [[], ["-l"], ["--count-matches"], ["-v"]]) {
    const plain = await answer([...mode, "foo"]);
    assert.equal(plain.code, 0);
    for (const habit of HABITS) assert.deepEqual(await answer([...habit, ...mode, "foo"]), plain, `${habit.join(" ")} ${mode.join(" ")}`);
  }
  const bad = await answer(["--color", "sometimes", "foo"]);
  assert.equal(bad.code, 2, "--color takes rg's values only");
});

test("-c -o counts matches, as rg -c -o does", async () => {
  const r = await runTool("llmsearch", ["--root", root, "-c", "-o", "foo"], { cwd: root });
  const data = (r.json as { data: LlmsearchCountData }).data;
  assert.equal(data.count_of, "matches");
  assert.deepEqual(new Map(data.counts.map((c) => [c.file_path, c.count])), rgCounts(root, ["-c", "-o", "foo", "."]));
  assert.notDeepEqual(rgCounts(root, ["-c", "-o", "foo", "."]), rgCounts(root, ["-c", "foo", "."]), "a line holds two matches: the counts differ");
});

test("--help lists the flags accepted and ignored, and says why", async () => {
  const help = await runTool("llmsearch", ["--help"], { raw: true });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Accepted for ripgrep habits and ignored, since the output is always this JSON document/);
  for (const flag of ["-n/--line-number", "-N/--no-line-number", "--no-heading", "-H/--with-filename", "--no-filename", "--column", "--vimgrep", "--json", "--color", "-o, --only-matching"]) {
    assert.ok(help.stdout.includes(flag), flag);
  }
  for (const flag of ["-m, --max-count", "--limit <n>", "-x, --line-regexp", "-s, --case-sensitive", "-v, --invert-match", "--max-depth", "-a, --text", "--iglob"]) assert.ok(help.stdout.includes(flag), flag);
});

test("with no path, the current directory is searched, as rg and llmastsearch do (the whole root only from the root or outside it); paths stay root-relative", async () => {
  const sub = `${root}/d`;
  const inSub = await runTool("llmsearch", ["--root", root, "foo"], { cwd: sub });
  const data = (inSub.json as { data: { match_count: number; matches: { span: { file_path: string } }[] } }).data;
  assert.equal(data.match_count, 1, JSON.stringify(data));
  assert.deepEqual([...new Set(data.matches.map((m) => m.span.file_path))], ["d/b.txt"]);
  const files = await runTool("llmsearch", ["--root", root, "--files"], { cwd: sub });
  assert.deepEqual((files.json as { data: { files: string[] } }).data.files, ["d/b.txt"]);
  const atRoot = await runTool("llmsearch", ["--root", root, "foo"], { cwd: root });
  assert.equal((atRoot.json as { data: { match_count: number } }).data.match_count, 4);
});
