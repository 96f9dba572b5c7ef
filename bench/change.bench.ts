/**
 * The change pipeline (src/change/): what the per-file lock, the re-read under the lock and the
 * journal cost per commit, side by side with the bare temp+fsync+rename write that llmtransform
 * used before it (src/text/atomic.ts) on the same files in the same run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitChange } from "../src/change/index.js";
import { acquireLocks, releaseLocks } from "../src/change/lock.js";
import { atomicWriteFileSync } from "../src/text/atomic.js";
import { type BenchRow, REPO_ROOT } from "./lib.js";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function timeAsync(runs: number, f: (i: number) => Promise<void> | void): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f(i);
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "change-bench-"));
  try {
    const rows: BenchRow[] = [];
    const file = join(dir, "a.ts");

    // The lock alone: create + release of one lock file.
    const lockOnly = await timeAsync(500, async () => {
      const got = await acquireLocks("bench", [file], 1000, (p) => p);
      releaseLocks(got.locks);
    });
    rows.push({ suite: "change", case: "per-file lock: acquire + release", ours: lockOnly * 1000, unit: "µs", note: "O_EXCL lock file in the per-user lock dir" });

    for (const [label, size] of [["2 KB", 2048], ["5 MB", 5 * 1024 * 1024]] as const) {
      const source = readFileSync(join(REPO_ROOT, "node_modules/typescript/lib/typescript.js")).subarray(0, size);
      const versions = [source, Buffer.concat([Buffer.from("// edited\n"), source])];
      writeFileSync(file, versions[0] as Buffer);
      const runs = size > 1e6 ? 15 : 100;
      const bare = await timeAsync(runs, (i) => atomicWriteFileSync(file, versions[(i + 1) % 2] as Buffer));
      writeFileSync(file, versions[0] as Buffer);
      const ours = await timeAsync(runs, async (i) => {
        await commitChange({ root: dir, tool: "bench", command: "edit", files: [{ path: "a.ts", before: versions[i % 2] as Buffer, after: versions[(i + 1) % 2] as Buffer }] });
      });
      rows.push({
        suite: "change",
        case: `single-file commit, ${label} (lock + re-read + temp/fsync/rename)`,
        ours,
        peer: "bare atomic write",
        peerMs: bare,
        note: "peer = src/text/atomic.ts without lock or re-read",
      });
    }

    // 20 files, journaled with backups (what splice does).
    const names = Array.from({ length: 20 }, (_, i) => `m${i}.ts`);
    const text = (i: number, v: number): Buffer => Buffer.from(`export const v${i} = ${v};\n`.repeat(50));
    names.forEach((n, i) => writeFileSync(join(dir, n), text(i, 0)));
    const bare20 = await timeAsync(10, (r) => names.forEach((n, i) => atomicWriteFileSync(join(dir, n), text(i, r + 1))));
    names.forEach((n, i) => writeFileSync(join(dir, n), text(i, 0)));
    const journaled = await timeAsync(10, async (r) => {
      await commitChange({ root: dir, tool: "bench", command: "rename", backup: true, files: names.map((n, i) => ({ path: n, before: text(i, r), after: text(i, r + 1) })) });
    });
    rows.push({ suite: "change", case: "20-file commit with journal + backups", ours: journaled, peer: "20 bare atomic writes", peerMs: bare20, note: "3 journal writes + 20 backups, all fsynced" });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
