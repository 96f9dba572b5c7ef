/**
 * ripgrep ranks ignore rules by their file before their directory: a `.rgignore` rule anywhere
 * decides before a `.ignore` rule, which decides before a `.gitignore` rule, however near; and a
 * nested repository's `.gitignore` scope starts at its own top. The fixture is a monorepo whose
 * root `.rgignore` asks for the packages' build output (`!packages/*\/dist/`) that
 * `packages/core/.gitignore` hides, and a vendored checkout (`vendor/zlib`, made a repository
 * here) whose `build.log` the outer `*.log` does not reach.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

const FIXTURE = join(REPO_ROOT, "test", "fixtures", "llmsearch", "ignore-precedence");

test("ignore files rank by kind before nearness, and git rules stop at a nested repository, as ripgrep", async () => {
  const repo = tempDir("llmsearch-ignore-precedence-");
  cpSync(FIXTURE, repo, { recursive: true });
  execFileSync("git", ["init", "-q", repo]);
  mkdirSync(join(repo, "vendor", "zlib", ".git"));
  const r = await runTool("llmsearch", ["--root", repo, "--files"]);
  assert.equal(r.code, 0, r.stdout);
  const got = (r.json as { data: { files: string[] } }).data.files.slice().sort();
  const want = ["packages/core/dist/index.js", "packages/core/src/index.ts", "vendor/zlib/build.log", "vendor/zlib/src/adler32.c"];
  assert.deepEqual(got, want);
  const rg = spawnSync("rg", ["--files"], { cwd: repo, encoding: "utf8" });
  if (!rg.error) assert.deepEqual(rg.stdout.split("\n").filter(Boolean).sort(), want, "rg --files agrees");
});
