/**
 * SIGKILL at random moments of a 20-file splice change: after `splice recover`, every file is
 * wholly before or wholly after, and never a mix across files. The kill moments are spread over
 * the second half of a measured run, where the journal and the writes happen.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { binPath, tempDir } from "../support/run.js";

const FILES = 20;
const TRIALS = 50;

function state(dir: string): string {
  const seen = new Set<string>();
  for (let i = 0; i < FILES; i++) {
    const t = readFileSync(join(dir, "notes", `n${String(i).padStart(2, "0")}.txt`), "utf8");
    assert.match(t, /^value = (OLD|NEW)\nend\n$/, `file ${i} is torn: ${JSON.stringify(t)}`);
    seen.add(t.includes("OLD") ? "OLD" : "NEW");
  }
  assert.equal(seen.size, 1, `files mix OLD and NEW: ${[...seen].join(",")}`);
  return [...seen][0] as string;
}

test(`SIGKILL during a ${FILES}-file change, ${TRIALS} times: after recovery all files are before or all after`, async () => {
  const dir = tempDir("splice-kill-");
  spawnSync("git", ["init", "-q", dir]);
  mkdirSync(join(dir, "notes"));
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, "notes", `n${String(i).padStart(2, "0")}.txt`), "value = OLD\nend\n");
  const bin = binPath("splice");
  const args = (from: string, to: string): string[] => ["apply-files", "--glob", "notes/*.txt", "--find", from, "--replace", to, "--include-comments-strings"];
  // The pipeline's test hook pauses after each rename, so that the commit (where the journal
  // decides before or after) is a long part of a run and kills land on both sides of it.
  const env = { ...process.env, LLMTOOLS_CHANGE_TEST_PAUSE_MS: "15" };
  // A warm run's length (the first run of a build also writes its code cache).
  let runMs = 0;
  for (const [from, to] of [["OLD", "NEW"], ["NEW", "OLD"], ["OLD", "NEW"]] as const) {
    const t0 = Date.now();
    const full = spawnSync(bin, args(from, to), { cwd: dir, encoding: "utf8", env });
    runMs = Date.now() - t0;
    assert.equal(full.status, 0, full.stdout);
  }
  assert.equal(state(dir), "NEW");
  let seed = 42;
  const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const outcomes = { before: 0, after: 0 };
  // Runs get slower or faster with the machine's load: when ten kills in a row landed on one
  // side, the next ones move towards the other.
  let scale = 1;
  let streak = { side: "", n: 0 };
  for (let k = 0; k < TRIALS; k++) {
    const from = state(dir);
    const to = from === "OLD" ? "NEW" : "OLD";
    const child = spawn(bin, args(from, to), { cwd: dir, stdio: "ignore", env });
    const closed = new Promise((r) => child.on("close", r));
    if (streak.n >= 10) scale *= streak.side === "before" ? 1.15 : 0.87;
    const delay = Math.floor(runMs * scale * (0.4 + 0.7 * random()));
    await new Promise((r) => setTimeout(r, delay));
    child.kill("SIGKILL");
    await closed;
    const rec = spawnSync(bin, ["recover"], { cwd: dir, encoding: "utf8" });
    assert.equal(rec.status, 0, rec.stdout);
    const now = state(dir);
    const side = now === from ? "before" : "after";
    outcomes[side]++;
    streak = streak.side === side ? { side, n: streak.n + 1 } : { side, n: 1 };
  }
  // Both outcomes occurred: the kills landed before and after the commit point.
  assert.ok(outcomes.before > 0 && outcomes.after > 0, JSON.stringify(outcomes));
});
