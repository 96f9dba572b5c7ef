/**
 * The write under stress: a process killed between writing its temp file and renaming it, and a
 * second writer changing the file while llmtransform is writing. The test hook
 * LLMTRANSFORM_TEST_PAUSE_BEFORE_RENAME_MS holds the real CLI at that exact point.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { checksum } from "../../src/text/checksum.js";
import { DIST, runTool, tempDir } from "../support/run.js";

const HOOK = "LLMTRANSFORM_TEST_PAUSE_BEFORE_RENAME_MS";

function temps(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(".tmp"));
}

interface Envelope {
  status: string;
  error?: { code: string };
  result?: { written: boolean };
  diagnostics?: { code: string; message: string }[];
}

async function waitFor(cond: () => boolean, what: string, ms = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe("llmtransform: killed and concurrent writes", () => {
  test("SIGKILL right before the rename leaves the file byte-identical; the next run removes the stale temp", async () => {
    const dir = tempDir("llmtransform-kill-");
    const file = join(dir, "k.txt");
    const original = Buffer.from("keep me exactly\n".repeat(1000));
    writeFileSync(file, original);
    const request = {
      file_path: "k.txt",
      expected_checksum: checksum(original),
      edits: [{ byte_start: 0, byte_end: 4, new_content: "LOSE" }],
    };
    const child = spawn(process.execPath, [join(DIST, "src", "cli", "llmtransform.js"), "--root", dir], {
      cwd: dir,
      env: { ...process.env, [HOOK]: "60000" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_code, signal) => resolve(signal)));
    child.stdin.end(JSON.stringify(request));
    await waitFor(() => stderr.includes("paused"), "the CLI to reach the rename");
    // The new bytes are complete and synced in the temp file; the target is still the old one.
    const [temp] = temps(dir);
    assert.ok(temp, "a temp file exists while paused");
    assert.ok(readFileSync(join(dir, temp)).subarray(0, 4).equals(Buffer.from("LOSE")));
    assert.deepEqual(readFileSync(file), original);
    child.kill("SIGKILL");
    assert.equal(await exited, "SIGKILL");
    assert.deepEqual(readFileSync(file), original, "the killed run must not have replaced the file");
    assert.deepEqual(temps(dir), [temp], "the killed run's temp file is the only leftover");

    // The next real run removes the dead writer's temp file and says so.
    const r = await runTool("llmtransform", ["--root", dir], { cwd: dir, input: JSON.stringify({ ...request, edits: [{ byte_start: 0, byte_end: 4, new_content: "KEEP" }] }) });
    assert.equal(r.code, 0, r.stdout);
    const env = r.json as Envelope;
    assert.ok(env.diagnostics?.some((d) => d.code === "LLMTRANSFORM_E115" && d.message.includes(temp)));
    assert.deepEqual(temps(dir), []);
    assert.ok(readFileSync(file).subarray(0, 4).equals(Buffer.from("KEEP")));
  });

  test("a file changed by another writer during the write is not overwritten (exit 1, E109)", async () => {
    const dir = tempDir("llmtransform-race-");
    const file = join(dir, "r.txt");
    const original = Buffer.from("version one\n");
    writeFileSync(file, original);
    const request = { file_path: "r.txt", expected_checksum: checksum(original), edits: [{ byte_start: 8, byte_end: 11, new_content: "two" }] };
    const running = runTool("llmtransform", ["--root", dir], { cwd: dir, input: JSON.stringify(request), env: { [HOOK]: "2500" } });
    await waitFor(() => temps(dir).length > 0, "the temp file");
    const theirs = Buffer.from("someone else's version\n");
    writeFileSync(file, theirs);
    const r = await running;
    assert.equal(r.code, 1, r.stdout);
    const env = r.json as Envelope;
    assert.equal(env.error?.code, "LLMTRANSFORM_E109");
    assert.deepEqual(readFileSync(file), theirs, "the other writer's bytes survive");
    assert.deepEqual(temps(dir), [], "the aborted temp file is removed");
  });

  test("a temp file of a live process is left alone", async () => {
    const dir = tempDir("llmtransform-live-");
    const file = join(dir, "l.txt");
    writeFileSync(file, "x\n");
    // pid 1 is always alive
    const live = join(dir, ".l.txt.1.abcdefabcdef.tmp");
    writeFileSync(live, "in flight");
    const r = await runTool("llmtransform", ["--root", dir, "--file", "l.txt", "--expected-checksum", checksum(Buffer.from("x\n")), "--edits", "-"], {
      cwd: dir,
      input: JSON.stringify([{ byte_start: 0, byte_end: 1, new_content: "y" }]),
    });
    assert.equal(r.code, 0, r.stdout);
    assert.ok(existsSync(live));
  });
});
