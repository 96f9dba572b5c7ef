/**
 * A search that finds no file to read says which files the ignore rules and the hidden-file rule
 * kept out under the same paths and globs, with examples, and the flag that takes them in; it
 * said "ignore rules (.gitignore, .ignore) may exclude files" whether any file was there or not.
 * Found with `llmsearch needle a/b` in a tree whose a/b holds a file listed in .git/info/exclude
 * and a directory ignored by a/b/.gitignore (rg finds nothing there either).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { runTool, tempDir } from "../support/run.js";

interface Env {
  data: { files_searched?: number; file_count?: number };
  diagnostics?: { code: string; message: string }[];
}

function tree(): string {
  const root = tempDir("llmsearch-nofiles-");
  spawnSync("git", ["init", "-q", root]);
  const files: Record<string, string> = {
    "a/b/y.txt": "needle\n",
    "a/b/c/z.txt": "needle\n",
    "a/b/.gitignore": "/c\n",
    "a/b/.env": "needle\n",
    "src/main.rs": "fn main() {}\n",
    "d/.only": "needle\n",
    ".git/info/exclude": "y.txt\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

test("no file to search: the ignored and hidden files under the paths, counted, with the flag that takes them in", async () => {
  const root = tree();
  const env = (await runTool("llmsearch", ["--root", root, "needle", "a/b"], { cwd: root })).json as Env;
  assert.equal(env.data.files_searched, 0);
  assert.equal(env.diagnostics?.[0]?.code, "LLMSEARCH_E104");
  assert.equal(
    env.diagnostics?.[0]?.message,
    "no files to search under a/b: 2 files are ignored by .gitignore, .ignore, .rgignore or .git/info/exclude rules (a/b/c/z.txt, a/b/y.txt): --no-ignore searches them; 2 files are hidden (a/b/.env, a/b/.gitignore): --hidden searches them",
  );
  // The same paths and globs: a glob no file matches, ignored or not, says so.
  const glob = (await runTool("llmsearch", ["--root", root, "needle", "-g", "*.zzz"], { cwd: root })).json as Env;
  assert.equal(glob.diagnostics?.[0]?.message, `no files to search under ${root}: no file matched --glob '*.zzz'`);
  // --files answers alike, and with --no-ignore only the hidden ones are left to name.
  const files = (await runTool("llmsearch", ["--root", root, "--files", "--no-ignore", "a/b/c"], { cwd: root })).json as Env;
  assert.equal(files.data.file_count, 1);
  const hidden = (await runTool("llmsearch", ["--root", root, "--files", "d"], { cwd: root })).json as Env;
  assert.equal(hidden.diagnostics?.[0]?.message, "no files under d: 1 file is hidden (d/.only): --hidden searches it");
});
