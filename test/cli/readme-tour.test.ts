/**
 * The README's tour is what the current version prints. Its commands run, in order, in a copy of
 * the repository the tour describes (test/fixtures/readme-tour); every key the README shows must
 * be in the real answer, and every value it shows whole (not cut with "…", not a clock or a run
 * id) must be that answer's value. A field renamed or a count changed without the README fails
 * here, which is how the tour went stale before (references 17 where the index now stores 13).
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { binPath, REPO_ROOT } from "../support/run.js";

const TOOLS = ["magellan", "llmsearch", "llmastsearch", "llmtransform", "llmfilewrite", "mdsel", "splice", "llmtools"];
/** Values that differ on every run. */
const VOLATILE = new Set(["timestamp", "execution_id", "duration_ms"]);

interface Step {
  command: string;
  expected: string[];
}

/** The console blocks of the README's "A tour" section, as commands and the lines shown after each. */
function tourSteps(): Step[][] {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## A tour\n");
  assert.ok(start >= 0, "README has a '## A tour' section");
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks: Step[][] = [];
  for (const m of section.matchAll(/```console\n([\s\S]*?)```/g)) {
    const steps: Step[] = [];
    for (const line of (m[1] as string).split("\n")) {
      if (line.startsWith("$ ")) steps.push({ command: line.slice(2), expected: [] });
      else if (line.trim() !== "") steps.at(-1)?.expected.push(line);
    }
    blocks.push(steps);
  }
  return blocks;
}

/** Every key of a JSON answer, and every key=value of its scalars (and empty arrays). */
function flatten(value: unknown, keys: Set<string>, pairs: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) flatten(v, keys, pairs);
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) {
    keys.add(k);
    if (v === null || typeof v !== "object") pairs.add(`${k}=${JSON.stringify(v)}`);
    else if (Array.isArray(v) && v.length === 0) pairs.add(`${k}=[]`);
    flatten(v, keys, pairs);
  }
}

test("README: every sample of the tour is what the tools print on the tour's repository", () => {
  const root = mkdtempSync(join(tmpdir(), "readme-tour-"));
  try {
    const work = join(root, "demo");
    cpSync(join(REPO_ROOT, "test/fixtures/readme-tour"), work, { recursive: true });
    execFileSync("git", ["init", "-q", "."], { cwd: work });
    // The commands as `npm link` puts them on the PATH.
    const bin = join(root, "bin");
    mkdirSync(bin);
    for (const tool of TOOLS) {
      // (mdsel's is a shell script; the others are Node scripts.)
      const target = binPath(tool);
      writeFileSync(join(bin, tool), `#!/bin/sh\nexec ${/\.c?js$/.test(target) ? `"${process.execPath}" ` : ""}"${target}" "$@"\n`);
      chmodSync(join(bin, tool), 0o755);
    }
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
    delete env.LLMTOOLS_DAEMON;
    const blocks = tourSteps();
    assert.ok(blocks.length >= 5, `the tour has its console blocks (${blocks.length})`);
    let checked = 0;
    const wrong: string[] = [];
    for (const steps of blocks) {
      // A block that shows no output (the daemon's) demonstrates nothing to compare.
      if (steps.every((s) => s.expected.length === 0)) continue;
      let lastCode = 0;
      for (const [i, { command, expected }] of steps.entries()) {
        if (command.trim() === "echo $?") {
          assert.equal(expected.join("\n").trim(), String(lastCode), `exit code before 'echo $?'`);
          continue;
        }
        const r = spawnSync("bash", ["-c", command], { cwd: work, env, encoding: "utf8", timeout: 60_000 });
        lastCode = r.status ?? -1;
        // The exit code is the one the README names (`# exit 1`), the one a following `echo $?`
        // shows (checked there), or 0.
        const exit = /#\s*exit (\d+)/.exec(command);
        if (steps[i + 1]?.command.trim() !== "echo $?") assert.equal(lastCode, exit ? Number(exit[1]) : 0, `${command}\n${r.stderr}`);
        if (expected.length === 0) continue;
        // The README's tour ran in /tmp/demo.
        const shown = expected.join("\n").replaceAll("/tmp/demo", work);
        const keys = new Set<string>();
        const pairs = new Set<string>();
        flatten(JSON.parse(r.stdout), keys, pairs);
        for (const k of shown.matchAll(/"([A-Za-z_]+)":/g)) if (!keys.has(k[1] as string)) wrong.push(`${command}: the README shows "${k[1]}", the answer has no such key`);
        for (const p of shown.matchAll(/"([A-Za-z_]+)":\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null|\[\])/g)) {
          const [, key, text] = p as unknown as [string, string, string];
          if (VOLATILE.has(key) || text.includes("…")) continue;
          const want = `${key}=${JSON.stringify(JSON.parse(text))}`;
          if (!pairs.has(want)) wrong.push(`${command}: the README shows ${key}: ${text}; the answer has ${[...pairs].filter((x) => x.startsWith(`${key}=`)).join(", ") || "none"}`);
          checked++;
        }
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(checked >= 60, `values compared: ${checked}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
