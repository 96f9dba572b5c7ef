/**
 * A `!` rule in an ignore file brings in a hidden path, as in ripgrep, whose own repository
 * does it: its .ignore holds `!/.github/`, so `rg --files` lists .github/workflows/ci.yml without
 * --hidden; drizzle-kit's .gitignore (`/*` then `!.gitignore`) lists itself. Hidden paths that
 * no rule whitelists (.cargo/, kit/.eslintrc.yaml) stay out.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { REPO_ROOT, runTool } from "../support/run.js";

const FIXTURE = join(REPO_ROOT, "test", "fixtures", "llmsearch", "ignore-whitelist");

async function files(args: string[]): Promise<string[]> {
  const r = await runTool("llmsearch", ["--root", FIXTURE, "--files", ...args]);
  assert.equal(r.code, 0, r.stdout);
  return ((r.json as { data: { files: string[] } }).data.files).slice().sort();
}

test("a whitelisting ignore rule takes a hidden path, as ripgrep does", async () => {
  const want = [".github/FUNDING.yml", ".github/workflows/ci.yml", "kit/.gitignore", "kit/package.json", "kit/src/index.ts", "src/main.rs"];
  assert.deepEqual(await files([]), want);
  // A search reads the same files: the workflow's match is reported.
  const r = await runTool("llmsearch", ["--root", FIXTURE, "-e", "ubuntu-latest"]);
  assert.deepEqual(
    (r.json as { data: { matches: { span: { file_path: string } }[] } }).data.matches.map((m) => m.span.file_path),
    [".github/workflows/ci.yml"],
  );
  // --hidden adds the hidden paths no rule names; an ignored one (kit/.eslintrc.yaml, under `/*`)
  // stays out either way.
  assert.deepEqual(await files(["--hidden"]), [".cargo/config.toml", ".ignore", ...want].sort());
  const rg = spawnSync("rg", ["--files"], { cwd: FIXTURE, encoding: "utf8" });
  if (!rg.error) assert.deepEqual(rg.stdout.split("\n").filter(Boolean).sort(), want, "rg --files agrees");
});
