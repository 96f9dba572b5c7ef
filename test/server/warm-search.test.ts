/**
 * llmsearch through a real daemon whose warm cache trusts its watcher: a change saved right
 * before the call (no pause) is in the answer, which is the cold run's byte for byte (execution
 * id and timestamp aside). The daemon answers from trusted entries here (the test fails when the
 * cache ignores the watcher's events); the client's start-up gives the events time to arrive, so
 * the barrier itself is exercised by the in-process tests (test/llmsearch/warm-watch.test.ts),
 * which search with no gap at all.
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";
import { normal } from "./helpers.js";

const FIXTURE = join(REPO_ROOT, "test", "fixtures", "server", "ws");
const ENV = { LLMTOOLS_DAEMON_IDLE_TIMEOUT: "120" };
let root = "";

after(async () => {
  if (root) await runTool("llmtools", ["daemon", "stop", "--root", root], { env: ENV });
});

test("llmsearch through the daemon sees each change saved right before it (edits with the mtime put back, new, deleted and renamed files)", async () => {
  root = tempDir("llmtools-warm-search-");
  cpSync(FIXTURE, root, { recursive: true });
  mkdirSync(join(root, ".git"));
  const started = await runTool("llmtools", ["daemon", "start", "--root", root], { env: ENV });
  assert.equal(started.code, 0, started.stdout + started.stderr);
  const args = ["-e", "warmProbe\\w*", "--count"];
  const compare = async (label: string): Promise<string> => {
    const warm = await runTool("llmsearch", args, { cwd: root, env: ENV });
    const cold = await runTool("llmsearch", [...args, "--no-daemon"], { cwd: root, env: ENV });
    assert.equal(normal(warm.stdout), normal(cold.stdout), label);
    assert.equal(warm.stderr, "", `${label}: answered by the daemon`);
    return warm.stdout;
  };
  // The first calls fill the cache and set up the watches; later ones trust them.
  for (let i = 0; i < 3; i++) await compare(`warm-up ${i}`);
  const file = join(root, "src", "probe.ts");
  writeFileSync(file, "export const warmProbe0 = 0;\n");
  const old = statSync(join(root, "src", "area.ts")).mtime;
  for (let i = 1; i <= 12; i++) {
    switch (i % 4) {
      case 0: {
        // Same size, mtime put back: a stat of the file alone would not see it.
        writeFileSync(file, `export const warmProbe${i % 10} = ${i % 10};\n`);
        utimesSync(file, old, old);
        break;
      }
      case 1:
        writeFileSync(join(root, "src", `extra${i}.ts`), `export const warmProbeExtra${i} = 1;\n`);
        break;
      case 2:
        rmSync(join(root, "src", `extra${i - 1}.ts`));
        break;
      case 3:
        renameSync(file, join(root, "src", "util", "probe.ts"));
        renameSync(join(root, "src", "util", "probe.ts"), file);
        writeFileSync(join(root, "src", "util", `moved${i}.ts`), `export const warmProbeMoved${i} = 1;\n`);
        break;
    }
    const out = await compare(`change ${i}`);
    if (i % 4 === 1) assert.match(out, new RegExp(`extra${i}\\.ts`), `change ${i}: the new file is counted`);
  }
});

test("llmsearch through the daemon reads git's global excludes of the caller's HOME as they are now, not as the daemon first read them", async () => {
  const ws = tempDir("llmtools-warm-excl-");
  mkdirSync(join(ws, ".git"));
  writeFileSync(join(ws, "app.ts"), "needle\n");
  writeFileSync(join(ws, "debug.log"), "needle\n");
  const homeA = tempDir("llmtools-home-a-");
  const homeB = tempDir("llmtools-home-b-");
  writeFileSync(join(homeA, ".gitconfig"), "[core]\n\texcludesFile = ~/ignore\n");
  writeFileSync(join(homeA, "ignore"), "*.log\n");
  const env = (home: string): Record<string, string> => ({ ...ENV, HOME: home, XDG_CONFIG_HOME: join(home, ".config") });
  const started = await runTool("llmtools", ["daemon", "start", "--root", ws], { env: env(homeA) });
  assert.equal(started.code, 0, started.stdout + started.stderr);
  try {
    const files = async (home: string, label: string): Promise<string> => {
      const warm = await runTool("llmsearch", ["-l", "needle"], { cwd: ws, env: env(home) });
      const cold = await runTool("llmsearch", ["-l", "needle", "--no-daemon"], { cwd: ws, env: env(home) });
      assert.equal(warm.stderr, "", `${label}: answered by the daemon`);
      assert.equal(normal(warm.stdout), normal(cold.stdout), label);
      return (JSON.parse(warm.stdout) as { data: { files: { file_path: string }[] } }).data.files.map((f) => f.file_path).join(",");
    };
    assert.equal(await files(homeA, "home A"), "app.ts");
    assert.equal(await files(homeB, "home B, no global excludes"), "app.ts,debug.log");
    writeFileSync(join(homeA, "ignore"), "*.ts\n");
    assert.equal(await files(homeA, "home A, its excludes file edited"), "debug.log");
  } finally {
    await runTool("llmtools", ["daemon", "stop", "--root", ws], { env: ENV });
  }
});
