import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { runTool, tempDir } from "../support/run.js";

test("git's global core.excludesFile is honoured, as ripgrep honours it (and --no-ignore lifts it)", async () => {
  const home = tempDir("llmsearch-home-");
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = t\n[core]\n\texcludesFile = ~/global-ignore\n");
  writeFileSync(join(home, "global-ignore"), "*.log\nscratch/\n");
  const root = tempDir("llmsearch-excl-");
  spawnSync("git", ["init", "-q"], { cwd: root });
  mkdirSync(join(root, "scratch"));
  writeFileSync(join(root, "app.ts"), "needle\n");
  writeFileSync(join(root, "debug.log"), "needle\n");
  writeFileSync(join(root, "scratch", "notes.ts"), "needle\n");
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  const files = async (extra: string[]): Promise<string[]> => {
    const r = await runTool("llmsearch", ["--root", root, "needle", ...extra], { cwd: root, env });
    return [...new Set((r.json as { data: LlmsearchData }).data.matches.map((m) => m.span.file_path))].sort();
  };
  const rg = (extra: string[]): string[] => {
    const r = spawnSync("rg", ["--no-config", "-l", "needle", ...extra, "."], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
    return r.stdout.split("\n").filter(Boolean).map((l) => l.replace(/^\.\//, "")).sort();
  };
  assert.deepEqual(await files([]), ["app.ts"]);
  assert.deepEqual(await files([]), rg([]));
  assert.deepEqual(await files(["--no-ignore"]), rg(["--no-ignore"]));
  assert.deepEqual(await files(["--no-ignore"]), ["app.ts", "debug.log", "scratch/notes.ts"]);
});
