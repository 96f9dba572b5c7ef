/**
 * ripgrep's finer ignore flags (--no-ignore-vcs, --no-ignore-dot, --no-ignore-exclude,
 * --no-ignore-global, -u/-uu/-uuu), --glob-case-insensitive, and the flags taken because they
 * cannot change the answer (--crlf, --sort path, -P for lookaround): each compared with rg 13 on
 * the same tree, as --files lists and as search answers.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import type { LlmsearchData, LlmsearchFileListData } from "../../src/contract/tools/llmsearch.js";
import { rgJson, rgPaths, rgRun } from "../support/rg.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";
let env: Record<string, string> = {};

before(() => {
  const home = tempDir("llmsearch-ignflags-home-");
  writeTree(home, { ".gitconfig": "[core]\n\texcludesFile = ~/global-ignore\n", "global-ignore": "*.glob\n" });
  env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  root = tempDir("llmsearch-ignflags-");
  spawnSync("git", ["init", "-q"], { cwd: root });
  writeTree(root, {
    ".gitignore": "*.log\n",
    ".ignore": "*.dot\n",
    "sub/.gitignore": "*.sub\n",
    "sub/.ignore": "!keep.log\n",
    "a.txt": "foo\n",
    "b.log": "foo\n",
    "c.dot": "foo\n",
    "d.glob": "foo\n",
    "e.excl": "foo\n",
    "F.TXT": "foo foo_bar\r\n",
    ".hidden.txt": "foo\n",
    "bin.dat": "\0foo\n",
    "sub/x.sub": "foo\n",
    "sub/keep.log": "foo\n",
    "sub/y.log": "foo\n",
  });
  writeTree(root, { ".git/info/exclude": "*.excl\n" });
});

async function files(args: string[]): Promise<string[]> {
  const r = await runTool("llmsearch", ["--root", root, "--files", ...args], { cwd: root, env });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stdout}`);
  return [...(r.json as { data: LlmsearchFileListData }).data.files].sort();
}

async function spans(args: string[]): Promise<string[]> {
  const r = await runTool("llmsearch", ["--root", root, ...args], { cwd: root, env });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stdout}`);
  return (r.json as { data: LlmsearchData }).data.matches.map((m) => `${m.span.file_path}:${m.span.byte_start}:${m.span.byte_end}`).sort();
}

const notGit = (p: string): boolean => !p.startsWith(".git/");

const rgEnv = (): void => {
  Object.assign(process.env, env);
};

test("--no-ignore-vcs, --no-ignore-dot, --no-ignore-exclude, --no-ignore-global and -u, -uu, -uuu walk as rg's", async () => {
  rgEnv();
  for (const flags of [
    [],
    ["--no-ignore-vcs"],
    ["--no-ignore-dot"],
    ["--no-ignore-exclude"],
    ["--no-ignore-global"],
    ["--no-ignore-vcs", "--no-ignore-dot"],
    ["-u"],
    ["-uu"],
    ["--unrestricted", "--unrestricted"],
  ]) {
    // With --hidden rg walks .git too; llmsearch never does (docs/llmsearch.md).
    assert.deepEqual(await files(flags), rgPaths(root, ["--files", ...flags, "."]).filter(notGit), flags.join(" "));
    assert.deepEqual(await spans(["foo", ...flags]), [...rgJson(root, ["foo", ...flags, "."]).spans].filter(notGit).sort(), `search ${flags.join(" ")}`);
  }
  // -uuu also searches binary files as text, as rg -a.
  assert.deepEqual(await spans(["foo", "-uuu"]), [...rgJson(root, ["foo", "-uuu", "."]).spans].filter(notGit).sort());
  assert.ok((await spans(["foo", "-uuu"])).includes("bin.dat:1:4"));
});

test("--glob-case-insensitive, --crlf, --sort path, --sort-files and -P give rg's answer", async () => {
  rgEnv();
  for (const args of [
    ["--glob-case-insensitive", "-g", "*.txt", "foo"],
    ["--glob-case-insensitive", "-g", "!*.TXT", "foo"],
    ["--crlf", "foo$"],
    ["--sort", "path", "foo"],
    ["--sort-files", "foo"],
    ["-P", "foo(?!_)"],
  ]) {
    assert.deepEqual(await spans(args), [...rgJson(root, [...args, "."]).spans].sort(), args.join(" "));
  }
  const refused = await runTool("llmsearch", ["--root", root, "--sort", "modified", "foo"], { cwd: root, env });
  assert.equal(refused.code, 2);
});

test("--files-without-match lists the searched files without a match, as rg's (binary files left out, as rg leaves them when it walks)", async () => {
  rgEnv();
  for (const args of [["foo"], ["bar"], ["-v", "foo"], ["-w", "foo_bar"], ["foo", "sub"]]) {
    const r = await runTool("llmsearch", ["--root", root, "--files-without-match", ...args], { cwd: root, env });
    assert.equal(r.code, 0, r.stdout);
    const data = (r.json as { data: { files_without_match: string[]; file_count: number } }).data;
    const rg = rgPaths(root, ["--files-without-match", ...args, ...(args.includes("sub") ? [] : ["."])]);
    assert.deepEqual(data.files_without_match, rg, args.join(" "));
    assert.equal(data.file_count, rg.length);
  }
});

test("-L follows symbolic links as rg -L does (a loop skipped), never out of the root", async () => {
  const dir = tempDir("llmsearch-follow-");
  spawnSync("git", ["init", "-q"], { cwd: dir });
  writeTree(dir, { "real/a.txt": "foo\n", "real/deep/b.txt": "foo\n", "z.txt": "foo\n", ".gitignore": "ignored/\n", "ignored/c.txt": "foo\n" });
  symlinkSync("real", join(dir, "link"));
  symlinkSync("real/a.txt", join(dir, "file-link.txt"));
  symlinkSync(".", join(dir, "real", "deep", "loop"));
  symlinkSync("..", join(dir, "real", "up"));
  symlinkSync("nowhere", join(dir, "dead"));
  symlinkSync("ignored", join(dir, "to-ignored"));
  const ours = async (args: string[]): Promise<{ files: string[]; spans: string[] }> => {
    const f = await runTool("llmsearch", ["--root", dir, "--files", ...args], { cwd: dir });
    const s = await runTool("llmsearch", ["--root", dir, "foo", ...args], { cwd: dir });
    return {
      files: [...(f.json as { data: LlmsearchFileListData }).data.files].sort(),
      spans: (s.json as { data: LlmsearchData }).data.matches.map((m) => `${m.span.file_path}:${m.span.byte_start}:${m.span.byte_end}`).sort(),
    };
  };
  // rg exits 2 here, having said what it did not follow (the dangling link, each loop).
  const rg = (args: string[]): { files: string[]; spans: string[] } => {
    const f = rgRun(dir, ["--files", ...args]);
    const j = rgRun(dir, ["--json", "foo", ...args]);
    const spans: string[] = [];
    for (const line of j.stdout.split("\n").filter(Boolean)) {
      const o = JSON.parse(line) as { type: string; data: { path: { text: string }; absolute_offset: number; submatches: { start: number; end: number }[] } };
      if (o.type !== "match") continue;
      for (const m of o.data.submatches) spans.push(`${o.data.path.text.replace(/^\.\//, "")}:${o.data.absolute_offset + m.start}:${o.data.absolute_offset + m.end}`);
    }
    return { files: f.stdout.split("\n").filter(Boolean).map((l) => l.replace(/^\.\//, "")).sort(), spans: spans.sort() };
  };
  for (const args of [[], ["-L"], ["--follow"], ["-L", "link"], ["-L", "--max-depth", "2"]]) {
    const got = await ours(args);
    const want = rg([...args, ...(args.includes("link") ? [] : ["."])]);
    assert.deepEqual(got.files, want.files, `--files ${args.join(" ")}`);
    assert.deepEqual(got.spans, want.spans, `search ${args.join(" ")}`);
  }
  assert.ok((await ours(["-L"])).files.includes("link/deep/b.txt"));
  // A link out of the root is not followed (rg, which has no root, would).
  const outside = tempDir("llmsearch-follow-out-");
  writeTree(outside, { "secret.txt": "foo\n" });
  symlinkSync(outside, join(dir, "out"));
  assert.ok(!(await ours(["-L"])).files.some((f) => f.startsWith("out/")));
});
