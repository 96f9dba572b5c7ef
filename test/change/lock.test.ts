/**
 * The per-file locks, with real processes holding them: a live holder makes a writer wait and
 * then fail with a clear "busy" error; a killed holder's lock is taken over at once; a recycled
 * pid is not mistaken for the owner; two multi-file writers locking in opposite orders do not
 * deadlock.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { commitChange } from "../../src/change/index.js";
import { isZombie, lockDir, lockKey, ownerAlive, processStart } from "../../src/change/lock.js";
import { ToolError } from "../../src/contract/errors.js";
import { DIST, tempDir } from "../support/run.js";

const b = (s: string): Buffer => Buffer.from(s);

/** A separate process that takes the lock of `file` through the pipeline's lock module and keeps it until its stdin closes. */
async function holder(file: string): Promise<ChildProcess> {
  const script = `
    const m = await import(${JSON.stringify(join(DIST, "src/change/lock.js"))});
    const got = m.acquireLocksSync("splice", [${JSON.stringify(file)}], 5000, (p) => p);
    process.stdout.write("held\\n");
    process.stdin.on("data", () => undefined);
    process.stdin.on("end", () => { m.releaseLocks(got.locks); process.exit(0); });
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout?.once("data", resolve));
  return child;
}

async function busy(p: Promise<unknown>): Promise<ToolError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ToolError && e.code.endsWith("_E011"), String(e));
    return e;
  }
  assert.fail("expected a busy error");
}

describe("change pipeline: locks shared by every writer process", () => {
  test("a live holder: the writer waits its timeout, fails busy naming the holder, and succeeds once the holder is done", async () => {
    const root = tempDir("change-lock-live-");
    writeFileSync(join(root, "a.txt"), "a\n");
    const h = await holder(join(root, "a.txt"));
    const t0 = Date.now();
    const e = await busy(commitChange({ root, tool: "llmtransform", command: "x", files: [{ path: "a.txt", before: b("a\n"), after: b("b\n") }] }, { lockTimeoutMs: 300 }));
    assert.ok(Date.now() - t0 >= 290, "it waited for the holder");
    assert.equal(e.code, "LLMTRANSFORM_E011");
    assert.match(e.message, new RegExp(`a\\.txt is being written by process ${h.pid}`));
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "a\n");
    // Released while we wait: the write goes through.
    const pending = commitChange({ root, tool: "llmtransform", command: "x", files: [{ path: "a.txt", before: b("a\n"), after: b("b\n") }] }, { lockTimeoutMs: 5000 });
    h.stdin?.end();
    await pending;
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "b\n");
  });

  test("a holder killed with SIGKILL: its lock is taken over at once", async () => {
    const root = tempDir("change-lock-dead-");
    writeFileSync(join(root, "a.txt"), "a\n");
    const h = await holder(join(root, "a.txt"));
    h.kill("SIGKILL");
    await new Promise((resolve) => h.on("close", resolve));
    const t0 = Date.now();
    await commitChange({ root, tool: "splice", command: "x", files: [{ path: "a.txt", before: b("a\n"), after: b("b\n") }] }, { lockTimeoutMs: 2000 });
    assert.ok(Date.now() - t0 < 1000);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "b\n");
  });

  test("a lock whose pid now belongs to another process (different start time) is stale", async () => {
    const root = tempDir("change-lock-reuse-");
    writeFileSync(join(root, "a.txt"), "a\n");
    const start = processStart(process.ppid);
    assert.ok(start, "this test needs /proc");
    // Our parent is alive, but it is not the process that took this lock.
    const lock = join(lockDir("splice"), `${lockKey(join(root, "a.txt"))}.lock`);
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, start: String(Number(start) + 1), host: (await import("node:os")).hostname(), token: "x", file: join(root, "a.txt"), time: new Date().toISOString() }));
    await commitChange({ root, tool: "splice", command: "x", files: [{ path: "a.txt", before: b("a\n"), after: b("b\n") }] }, { lockTimeoutMs: 500 });
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "b\n");
  });

  test("two multi-file writers naming the same files in opposite orders: no deadlock, exactly one applies", async () => {
    const root = tempDir("change-lock-order-");
    const names = Array.from({ length: 8 }, (_, i) => `m${i}.txt`);
    for (const n of names) writeFileSync(join(root, n), `${n}\n`);
    const plan = (tag: string, order: string[]) => ({ root, tool: "splice", command: tag, files: order.map((n) => ({ path: n, before: b(`${n}\n`), after: b(`${n} ${tag}\n`) })) });
    for (let round = 0; round < 10; round++) {
      for (const n of names) writeFileSync(join(root, n), `${n}\n`);
      const results = await Promise.allSettled([commitChange(plan("X", names), { lockTimeoutMs: 5000 }), commitChange(plan("Y", [...names].reverse()), { lockTimeoutMs: 5000 })]);
      const ok = results.filter((r) => r.status === "fulfilled");
      assert.equal(ok.length, 1, `round ${round}: ${results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok")).join(" | ")}`);
      const tags = new Set(names.map((n) => readFileSync(join(root, n), "utf8").split(" ")[1]));
      assert.equal(tags.size, 1, "all files carry the same writer's version");
    }
  });

  test("a lock file left empty by a writer killed between create and write is taken over once it is 5 s old", async () => {
    const root = tempDir("change-lock-empty-");
    writeFileSync(join(root, "a.txt"), "a\n");
    const lock = join(lockDir("splice"), `${lockKey(join(root, "a.txt"))}.lock`);
    writeFileSync(lock, "");
    await busy(commitChange({ root, tool: "splice", command: "x", files: [{ path: "a.txt", before: b("a\n"), after: b("b\n") }] }, { lockTimeoutMs: 100 }));
    const old = new Date(Date.now() - 6000);
    utimesSync(lock, old, old);
    await commitChange({ root, tool: "splice", command: "x", files: [{ path: "a.txt", before: b("a\n"), after: b("b\n") }] }, { lockTimeoutMs: 100 });
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "b\n");
  });

  test("a lock directory others can write is refused (someone could plant or remove locks)", async () => {
    const root = tempDir("change-lock-dir-");
    writeFileSync(join(root, "a.txt"), "a\n");
    const shared = tempDir("change-lock-shared-");
    chmodSync(shared, 0o777);
    const saved = process.env.LLMTOOLS_LOCK_DIR;
    process.env.LLMTOOLS_LOCK_DIR = shared;
    try {
      const e = await busy(commitChange({ root, tool: "llmfilewrite", command: "x", files: [{ path: "a.txt", before: b("a\n"), after: b("b\n") }] }));
      assert.match(e.message, /not a private directory/);
      assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "a\n");
    } finally {
      if (saved === undefined) delete process.env.LLMTOOLS_LOCK_DIR;
      else process.env.LLMTOOLS_LOCK_DIR = saved;
    }
  });

  test("a writer that was killed and never reaped (a zombie) is not alive: its locks and journal can be taken over", async () => {
    // `sleep 1 &` under a shell that then becomes `sleep 15`: nobody waits for the first sleep.
    // (It must outlive the exec: a shell may reap a child that ended before.)
    const parent = spawn("sh", ["-c", "sleep 1 & echo $!; exec sleep 15"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout?.once("data", (d: Buffer) => resolve(d.toString().trim()))));
      let start: string | null = null;
      for (let i = 0; i < 500 && !isZombie(pid); i++) {
        start ??= processStart(pid);
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(isZombie(pid), `pid ${pid} did not become a zombie`);
      assert.equal(ownerAlive({ pid, start: start ?? processStart(pid) }), false);
      // Its parent is alive, and said so.
      assert.equal(ownerAlive({ pid: parent.pid as number, start: processStart(parent.pid as number) }), true);
    } finally {
      parent.kill("SIGKILL");
    }
  });
});
