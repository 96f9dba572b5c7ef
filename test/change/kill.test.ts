/**
 * Kill safety: a process SIGKILLed at a random moment of a 20-file commitChange leaves, after
 * recoverChanges, every file wholly before or wholly after, and all of them the same way.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { commitChange, listOperations, recoverChanges } from "../../src/change/index.js";
import { ToolError } from "../../src/contract/errors.js";
import { z } from "zod";
import { DIST, runTool, tempDir } from "../support/run.js";

const N = 20;
const WORKER = join(DIST, "test", "support", "change-kill-worker.js");
const before = (i: number): string => `export const v${i} = "before";\n`.repeat(20);
const after = (i: number): string => `export const v${i} = "after";\n`.repeat(21);

/**
 * The kills test the order of writes, not the disk: on tmpfs (when there is one) the 40 fsyncs of
 * each of the 50 commits cost nothing and the test runs in seconds.
 */
const SHM = existsSync("/dev/shm") ? "/dev/shm" : undefined;

function workspace(): string {
  const root = SHM ? realpathSync(mkdtempSync(join(SHM, "llmtools-change-kill-"))) : tempDir("change-kill-");
  mkdirSync(join(root, "pkg"));
  for (let i = 0; i < N; i++) writeFileSync(join(root, "pkg", `m${String(i).padStart(2, "0")}.ts`), before(i));
  return root;
}

/** "before" / "after" per file, "torn" for anything else. */
function states(root: string): string[] {
  return Array.from({ length: N }, (_, i) => {
    const text = readFileSync(join(root, "pkg", `m${String(i).padStart(2, "0")}.ts`), "utf8");
    return text === before(i) ? "before" : text === after(i) ? "after" : "torn";
  });
}

/**
 * Runs the worker and kills it `kill.ms` after it says "go", or as soon as it reports the
 * `kill.renamed`-th rename (never, without `kill`). Returns the timings it reported.
 */
async function run(root: string, mode: string, kill?: { ms: number } | { renamed: number }, pauseMs = 3): Promise<{ renaming: number; done: number } | undefined> {
  const child = spawn(process.execPath, [WORKER, root, String(N), mode], {
    env: { ...process.env, LLMTOOLS_KILL_WORKER: "1", LLMTOOLS_CHANGE_TEST_PAUSE_MS: String(pauseMs) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  let killer: Promise<void> | undefined;
  child.stdout.on("data", (b: Buffer) => {
    out += b.toString();
    if (kill === undefined || killer !== undefined) return;
    if ("ms" in kill && out.includes("go\n")) killer = sleep(kill.ms).then(() => void child.kill("SIGKILL"));
    if ("renamed" in kill && out.includes(`renamed ${kill.renamed}\n`)) {
      child.kill("SIGKILL");
      killer = Promise.resolve();
    }
  });
  await new Promise((resolve) => child.on("close", resolve));
  await killer;
  const r = /renaming ([\d.]+)/.exec(out);
  const d = /done ([\d.]+)/.exec(out);
  return r && d ? { renaming: Number(r[1]), done: Number(d[1]) } : undefined;
}

describe("change pipeline: SIGKILL during a 20-file commit", () => {
  for (const mode of ["backup", "plain"]) {
    test(`${mode}: 25 kills at random moments, then recoverChanges: all files before or all after, no temp left`, async () => {
      // How long one commit and its prepare phase take here, so that the kills spread over all of it.
      const probe = workspace();
      const timing = await run(probe, mode);
      assert.ok(timing, "the un-killed commit finished");
      assert.deepEqual(new Set(states(probe)), new Set(["after"]));
      rmSync(probe, { recursive: true, force: true });
      const TRIALS = 25;
      const tally = { before: 0, after: 0, mixedAtKill: 0 };
      const trials = Array.from({ length: TRIALS }, (_, t) => t);
      for (let batch = 0; batch < TRIALS; batch += 9) {
        await Promise.all(
          trials.slice(batch, batch + 9).map(async (t) => {
            const root = workspace();
            // Half at a random time over the whole commit (locks, journal, backups, temps, renames,
            // done); half right after a random rename, where files of both versions are on disk.
            const u = Math.random();
            await run(root, mode, t % 2 === 0 ? { ms: u * timing.done * 1.1 } : { renamed: Math.floor(u * (N - 1)) });
            const atKill = states(root);
            assert.ok(!atKill.includes("torn"), `trial ${t}: a torn file right after the kill: ${atKill.join(",")}`);
            if (new Set(atKill).size > 1) tally.mixedAtKill++;
            recoverChanges(root);
            const s = new Set(states(root));
            assert.equal(s.size, 1, `trial ${t}: after recovery the files are mixed: ${states(root).join(",")}`);
            tally[[...s][0] as "before" | "after"]++;
            const leftovers = readdirSync(join(root, "pkg")).filter((f) => f.endsWith(".tmp"));
            assert.deepEqual(leftovers, [], `trial ${t}: temp files left`);
            for (const op of listOperations(root)) assert.ok(["done", "rolled_back"].includes(op.status), `trial ${t}: ${op.status}`);
            rmSync(root, { recursive: true, force: true });
          }),
        );
      }
      // The kills did land in the middle of the renames, and on both sides of the point of no return.
      assert.ok(tally.mixedAtKill > 0, JSON.stringify(tally));
      assert.ok(tally.before > 0 && tally.after > 0, JSON.stringify(tally));
      process.stderr.write(`kill test (${mode}): renames from ${timing.renaming} ms, done at ${timing.done} ms; ${JSON.stringify(tally)}\n`);
    });
  }

  test("the next commitChange (any file, any tool) finishes a dead writer's change before its own", async () => {
    const root = workspace();
    writeFileSync(join(root, "other.txt"), "o\n");
    await run(root, "backup", { renamed: 6 }, 200);
    assert.equal(new Set(states(root)).size, 2, "the kill left both versions on disk");
    await commitChange({ root, tool: "llmtransform", command: "edit other.txt", files: [{ path: "other.txt", before: Buffer.from("o\n"), after: Buffer.from("p\n") }] });
    assert.deepEqual(new Set(states(root)), new Set(["after"]));
    assert.equal(listOperations(root)[0]?.status, "done");
    rmSync(root, { recursive: true, force: true });
  });

  test("a file changed by another program after the kill: recovery refuses to guess (E013 naming it), marks the operation, and does not block later writes", async () => {
    const root = workspace();
    await run(root, "plain", { renamed: 3 }, 200);
    const at = states(root);
    const victim = at.lastIndexOf("before");
    assert.ok(victim > 3, at.join(","));
    const name = `pkg/m${String(victim).padStart(2, "0")}.ts`;
    writeFileSync(join(root, name), "an editor saved this meanwhile\n");
    assert.throws(
      () => recoverChanges(root, "splice"),
      (e: unknown) => e instanceof ToolError && e.code === "SPLICE_E013" && e.message.includes(name) && Boolean(e.remediation),
    );
    assert.equal(listOperations(root)[0]?.status, "recovery_failed");
    assert.equal(readFileSync(join(root, name), "utf8"), "an editor saved this meanwhile\n", "the other program's bytes are kept");
    assert.deepEqual(recoverChanges(root), { recovered: [] });
    rmSync(root, { recursive: true, force: true });
  });

  test("an unrecoverable change stops the next writer of one of its files (E013), not a writer of other files", async () => {
    for (const sameFile of [true, false]) {
      const root = workspace();
      writeFileSync(join(root, "other.txt"), "o\n");
      await run(root, "plain", { renamed: 3 }, 200);
      const victim = states(root).lastIndexOf("before");
      assert.ok(victim > 3);
      const name = `pkg/m${String(victim).padStart(2, "0")}.ts`;
      const theirs = Buffer.from("an editor saved this meanwhile\n");
      writeFileSync(join(root, name), theirs);
      const next = commitChange({
        root,
        tool: "llmtransform",
        command: "edit",
        files: [sameFile ? { path: name, before: theirs, after: Buffer.from("x\n") } : { path: "other.txt", before: Buffer.from("o\n"), after: Buffer.from("p\n") }],
      });
      if (sameFile) {
        await assert.rejects(next, (e: unknown) => e instanceof ToolError && e.code === "LLMTRANSFORM_E013" && e.message.includes(name));
        assert.deepEqual(readFileSync(join(root, name)), theirs);
      } else {
        await next;
        assert.equal(readFileSync(join(root, "other.txt"), "utf8"), "p\n");
      }
      assert.equal(listOperations(root).find((o) => o.command === "kill-test")?.status, "recovery_failed");
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("splice too: an unrecoverable change stops an edit of one of its files (E013), and an edit of another file goes on with a warning", async () => {
    for (const sameFile of [false, true]) {
      const root = workspace();
      writeFileSync(join(root, "other.txt"), "o\n");
      await run(root, "plain", { renamed: 3 }, 200);
      const victim = states(root).lastIndexOf("before");
      const name = `pkg/m${String(victim).padStart(2, "0")}.ts`;
      const theirs = "an editor saved this meanwhile\n";
      writeFileSync(join(root, name), theirs);
      const r = await runTool("splice", ["edit", "--file", sameFile ? name : "other.txt", "--old", sameFile ? "editor" : "o", "--new", sameFile ? "ed" : "p"], { cwd: root, schema: z.unknown() });
      const env = r.json as { status: string; error?: { code: string }; diagnostics?: { code: string; message: string }[] };
      if (sameFile) {
        assert.equal(env.error?.code, "SPLICE_E013", r.stdout);
        assert.equal(readFileSync(join(root, name), "utf8"), theirs);
      } else {
        assert.equal(env.status, "ok", r.stdout);
        assert.equal(readFileSync(join(root, "other.txt"), "utf8"), "p\n");
        assert.ok(env.diagnostics?.some((d) => d.code === "SPLICE_E013" && /could not be completed/.test(d.message)), r.stdout);
      }
      rmSync(root, { recursive: true, force: true });
    }
  });
});
