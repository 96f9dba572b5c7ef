import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { walkFiles } from "../../src/text/walk.js";
import { tempDir, writeTree } from "../support/run.js";

/** ripgrep's own file list for the same tree and flags: the peer our walk must agree with. */
function rgFiles(root: string, args: string[] = []): string[] {
  const out = execFileSync("rg", ["--files", ...args], { cwd: root, encoding: "utf8" });
  return out
    .split("\n")
    .filter(Boolean)
    .map((p) => p.replace(/^\.\//, ""))
    .sort();
}

function ours(root: string, opts: Partial<Parameters<typeof walkFiles>[0]> = {}): string[] {
  return walkFiles({ root, ...opts }).map((e) => e.rel);
}

function sampleRepo(): string {
  const root = tempDir("walk-");
  execFileSync("git", ["init", "-q"], { cwd: root });
  writeTree(root, {
    ".gitignore": "*.log\nbuild/\n/top-only.txt\n!keep.log\ndocs/**/*.tmp\n",
    "a.ts": "",
    "keep.log": "",
    "drop.log": "",
    "top-only.txt": "",
    "sub/top-only.txt": "",
    "build/out.js": "",
    "src/build/x.ts": "",
    "src/.gitignore": "generated/\n!important.gen.ts\n*.gen.ts\n",
    "src/generated/g.ts": "",
    "src/a.gen.ts": "",
    "src/important.gen.ts": "",
    "src/main.rs": "",
    "docs/a/b/c.tmp": "",
    "docs/a/b/c.md": "",
    ".hidden/file.ts": "",
    ".env": "",
    ".ignore": "secret/\n",
    "secret/s.ts": "",
    "deep/nested/dir/file.rs": "",
  });
  return root;
}

test("gitignore walk equals ripgrep's file list (nested, negation, anchored, **, .ignore)", () => {
  const root = sampleRepo();
  assert.deepEqual(ours(root), rgFiles(root));
  assert.ok(!ours(root).includes("src/generated/g.ts"));
  assert.ok(ours(root).includes("keep.log"));
  assert.ok(ours(root).includes("sub/top-only.txt"));
});

test("--hidden and --no-ignore agree with ripgrep too", () => {
  const root = sampleRepo();
  assert.deepEqual(ours(root, { hidden: true }), rgFiles(root, ["--hidden"]).filter((p) => !p.startsWith(".git/")));
  assert.deepEqual(ours(root, { noIgnore: true }), rgFiles(root, ["--no-ignore"]));
});

test("--glob: whitelist, ** and negation, later glob wins, as ripgrep", () => {
  const root = sampleRepo();
  for (const globs of [["**/*.rs"], ["*.ts"], ["*.ts", "!src/**"], ["!*.md"], ["src/**", "!*.rs"], ["!src", "*.rs"], ["*.log"], [".env"], ["src/*.gen.ts"], ["*.tmp"]]) {
    const args = globs.flatMap((g) => ["--glob", g]);
    assert.deepEqual(ours(root, { globs }), rgFiles(root, args), `globs ${globs.join(" ")}`);
  }
});

test(".gitignore counts only inside a git work tree; .ignore always (ripgrep's default)", () => {
  const root = tempDir("walk-nogit-");
  writeTree(root, { ".gitignore": "*.log\n", ".ignore": "*.tmp\n", "a.log": "", "b.tmp": "", "c.ts": "" });
  assert.deepEqual(ours(root), ["a.log", "c.ts"]);
  assert.deepEqual(ours(root), rgFiles(root));
});

test(".rgignore is read too, over .ignore and .gitignore (a negation there re-includes), as ripgrep", () => {
  const root = tempDir("walk-rgignore-");
  execFileSync("git", ["init", "-q"], { cwd: root });
  writeTree(root, { ".gitignore": "*.log\n", ".ignore": "*.tmp\n", ".rgignore": "rg.txt\n!keep.log\n", "rg.txt": "", "keep.log": "", "drop.log": "", "b.tmp": "", "c.ts": "", "sub/.rgignore": "*.ts\n", "sub/d.ts": "", "sub/e.md": "" });
  assert.deepEqual(ours(root), ["c.ts", "keep.log", "sub/e.md"]);
  assert.deepEqual(ours(root), rgFiles(root));
  assert.deepEqual(ours(root, { noIgnore: true }), rgFiles(root, ["--no-ignore"]));
});

test("symlinks met during the walk are skipped and reported", () => {
  const root = sampleRepo();
  const outside = tempDir("walk-outside-");
  writeFileSync(join(outside, "x.ts"), "");
  symlinkSync(outside, join(root, "link-out"));
  symlinkSync(join(root, "a.ts"), join(root, "link-in.ts"));
  const skipped: string[] = [];
  const files = walkFiles({ root, onSkip: (rel, why) => skipped.push(`${rel}:${why}`) }).map((e) => e.rel);
  assert.ok(!files.some((f) => f.startsWith("link")));
  assert.deepEqual(skipped.sort(), ["link-in.ts:symlink", "link-out:symlink"]);
  assert.deepEqual(files, rgFiles(root));
});

test("start paths: an explicit file is always taken, duplicates listed once", () => {
  const root = sampleRepo();
  const files = ours(root, { start: [join(root, "drop.log"), join(root, "src"), join(root, "src/main.rs")] });
  assert.ok(files.includes("drop.log"));
  assert.equal(files.filter((f) => f === "src/main.rs").length, 1);
  assert.ok(files.every((f) => f === "drop.log" || f.startsWith("src/")));
});
