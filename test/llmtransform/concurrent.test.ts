/**
 * Issue 18.1: two llmtransform calls on the same file with the same expected_checksum, launched
 * together, must never both report "applied" (one edit would be silently lost). Real processes:
 * pairs of workers running llmtransform's function, released at the same instant, and pairs of
 * the built bin.
 */
import assert from "node:assert/strict";
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { checksum } from "../../src/text/checksum.js";
import { DIST, runTool, tempDir } from "../support/run.js";

interface Reply {
  id: number;
  status: string;
  code?: string;
  written?: boolean;
}

function startWorker(): Promise<{ child: ChildProcess; run: (job: { id: number; root: string; file: string; expected: string; insert: string }) => Promise<Reply> }> {
  const child = fork(join(DIST, "test", "support", "llmtransform-race-worker.js"), [], { env: { ...process.env, LLMTOOLS_RACE_WORKER: "1" }, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const waiting = new Map<number, (r: Reply) => void>();
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("message", (m: Reply | { ready: true }) => {
      if ("ready" in m) {
        resolve({
          child,
          run: (job) =>
            new Promise((res) => {
              waiting.set(job.id, res);
              child.send(job);
            }),
        });
        return;
      }
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
    });
  });
}

/** One trial's verdict: exactly one writer applied and the file holds exactly its edit. */
function judge(file: string, base: Buffer, a: Reply, b: Reply): "ok" | "lost" | "bad" {
  const applied = [a, b].filter((r) => r.status === "ok" && r.written);
  if (applied.length === 2) return "lost";
  if (applied.length !== 1) return "bad";
  const loser = applied[0] === a ? b : a;
  if (loser.status !== "error" || !["LLMTRANSFORM_E101", "LLMTRANSFORM_E109"].includes(loser.code ?? "")) return "bad";
  const winner = applied[0] === a ? "A" : "B";
  return readFileSync(file).equals(Buffer.concat([Buffer.from(winner), base])) ? "ok" : "bad";
}

describe("llmtransform: concurrent writers with the same expected checksum", () => {
  test("240 trials of two processes released together: 0 lost updates, the loser says why", async () => {
    const root = tempDir("llmtransform-concurrent-");
    const PAIRS = 4;
    const TRIALS = 240;
    const workers = await Promise.all(Array.from({ length: PAIRS * 2 }, () => startWorker()));
    const verdicts = { ok: 0, lost: 0, bad: 0 };
    let next = 0;
    try {
      await Promise.all(
        Array.from({ length: PAIRS }, async (_, p) => {
          const [wa, wb] = [workers[2 * p], workers[2 * p + 1]];
          while (next < TRIALS) {
            const id = next++;
            // Mostly small files; every 8th trial 1 MB, where the old write lost most often.
            const base = Buffer.from(id % 8 === 0 ? `big ${id}\n`.repeat(100_000) : `export const v${id} = ${id};\n`.repeat(40));
            const rel = `f${id}.ts`;
            writeFileSync(join(root, rel), base);
            const job = { root, file: rel, expected: checksum(base) };
            const [a, b] = await Promise.all([wa!.run({ ...job, id, insert: "A" }), wb!.run({ ...job, id, insert: "B" })]);
            verdicts[judge(join(root, rel), base, a, b)]++;
          }
        }),
      );
    } finally {
      for (const w of workers) w.child.kill();
    }
    assert.deepEqual(verdicts, { ok: TRIALS, lost: 0, bad: 0 });
  });

  test("8 pairs of the built bin launched together: exactly one applies each time", async () => {
    const root = tempDir("llmtransform-concurrent-bin-");
    const PAIRS = 8;
    const results = await Promise.all(
      Array.from({ length: PAIRS }, async (_, i) => {
        const base = Buffer.from(`line ${i}\n`.repeat(200));
        const rel = `b${i}.txt`;
        writeFileSync(join(root, rel), base);
        const req = (ins: string): string => JSON.stringify({ file_path: rel, expected_checksum: checksum(base), edits: [{ byte_start: 0, byte_end: 0, new_content: ins }] });
        const [a, b] = await Promise.all([
          runTool("llmtransform", ["--root", root], { cwd: root, input: req("A") }),
          runTool("llmtransform", ["--root", root], { cwd: root, input: req("B") }),
        ]);
        const asReply = (r: typeof a): Reply => {
          const env = r.json as { status: string; error?: { code: string }; result?: { written: boolean } };
          return { id: i, status: env.status, code: env.error?.code, written: env.result?.written };
        };
        return judge(join(root, rel), base, asReply(a), asReply(b));
      }),
    );
    assert.deepEqual(results.filter((r) => r !== "ok"), []);
  });
});
