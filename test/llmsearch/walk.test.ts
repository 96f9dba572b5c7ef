/**
 * The walk decides the match set as much as the regex: it must pick the files ripgrep picks.
 * Checked against `rg --files` on a git repository built for the purpose (nested .gitignore,
 * .ignore, a start directory that an ancestor's .gitignore excludes, hidden files, globs).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { runTool, tempDir } from "../support/run.js";

function rgFiles(cwd: string, args: string[]): string[] {
  const r = spawnSync("rg", ["--files", ...args], { cwd, encoding: "utf8" });
  assert.ok(!r.error, `ripgrep (rg) is required for this test: ${String(r.error)}`);
  // ripgrep 13 --hidden walks into .git/; llmsearch never does (it is git's database, not code).
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((p) => p.replace(/^\.\//, ""))
    .filter((p) => !p.startsWith(".git/"))
    .sort();
}

async function ourFiles(root: string, args: string[]): Promise<string[]> {
  // Every file holds the letter "x": the files with a match are the files searched.
  const r = await runTool("llmsearch", ["--root", root, "--pattern", "x", "--limit", "1000000", ...args]);
  assert.equal(r.code, 0, r.stdout);
  return [...new Set((r.json as { data: LlmsearchData }).data.matches.map((m) => m.span.file_path))].sort();
}

test("walk picks the files ripgrep picks", async () => {
  const repo = tempDir("llmsearch-walk-");
  execFileSync("git", ["init", "-q", repo]);
  const files = [
    ".gitignore", "a.ts", "b.log", "vendor/v.ts", "vendor/pkg/.gitignore", "vendor/pkg/keep.ts", "vendor/pkg/dist/out.js",
    "src/.ignore", "src/main.ts", "src/gen.ts", "src/.hidden.ts", "docs/x.md", "build/b.ts",
  ];
  for (const f of files) {
    mkdirSync(join(repo, f, ".."), { recursive: true });
    writeFileSync(join(repo, f), "x\n");
  }
  writeFileSync(join(repo, ".gitignore"), "x\n*.log\nvendor/\n/build\n");
  writeFileSync(join(repo, "vendor/pkg/.gitignore"), "x\ndist/\n");
  writeFileSync(join(repo, "src/.ignore"), "x\ngen.ts\n");
  for (const [paths, flags] of [
    [[], []],
    [[], ["--hidden"]],
    [[], ["--no-ignore"]],
    [["vendor"], []],
    [[], ["--glob", "**/*.ts"]],
    [[], ["--glob", "!src/**"]],
  ] as [string[], string[]][]) {
    const rgFlags = flags.map((f) => (f === "--glob" ? "-g" : f));
    const want = rgFiles(repo, [...rgFlags, ...(paths.length ? paths : ["."])]);
    const got = await ourFiles(repo, [...flags, ...paths]);
    assert.deepEqual(got, want, `paths ${paths.join(" ")} flags ${flags.join(" ")}`);
  }
});

test("globs, types and ignore rules match case-sensitively and test the path itself, as ripgrep", async () => {
  const repo = tempDir("llmsearch-walk-case-");
  execFileSync("git", ["init", "-q", repo]);
  // A directory named like a JavaScript file (as a checkout of commander.js), C beside C++
  // (rg's cpp type is *.[ChH]: .C but not .c), and a .gitignore that names Build/ but not build/.
  // .bashrc: hidden, but named by rg's sh type, which takes it.
  const files = ["commander.js/LICENSE", "commander.js/index.js", "lib/a.c", "lib/b.C", "lib/c.cc", "Build/out.txt", "build/keep.txt", "src/main.ts", "src/README", ".bashrc", "run.sh"];
  for (const f of files) {
    mkdirSync(join(repo, f, ".."), { recursive: true });
    writeFileSync(join(repo, f), "x\n");
  }
  writeFileSync(join(repo, ".gitignore"), "x\nBuild/\n");
  for (const flags of [[], ["-t", "js"], ["-t", "cpp"], ["-t", "c"], ["-T", "js"], ["--glob", "*.js"], ["--glob", "src"], ["--glob", "!src"], ["--glob", "*.C"], ["--glob", "BUILD/**"], ["-t", "sh"]]) {
    const want = rgFiles(repo, [...flags.map((f) => (f === "--glob" ? "-g" : f)), "."]);
    const got = await ourFiles(repo, flags);
    assert.deepEqual(got, want, `flags ${flags.join(" ")}`);
  }
  // The cases above differ from one another, so the comparison shows something.
  assert.deepEqual(rgFiles(repo, ["-t", "cpp", "."]), ["lib/b.C", "lib/c.cc"]);
  assert.deepEqual(rgFiles(repo, ["-t", "js", "."]), ["commander.js/index.js"]);
  assert.deepEqual(rgFiles(repo, ["-t", "sh", "."]), [".bashrc", "run.sh"]);
  assert.ok(rgFiles(repo, ["."]).includes("build/keep.txt") && !rgFiles(repo, ["."]).includes("Build/out.txt"));
});
