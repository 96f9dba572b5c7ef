import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface BenchRow {
  suite: string;
  case: string;
  /** Our median, in ms unless `unit` says otherwise. */
  ours: number;
  unit?: string;
  peer?: string;
  peerMs?: number;
  /** Target: ours / peer must not exceed this. */
  maxRatio?: number;
  /** Target: ours must not exceed this many ms. */
  maxMs?: number;
  peakRssMb?: number;
  note?: string;
}

export interface Timed {
  medianMs: number;
  runs: number[];
  /** Peak resident set of the child, from /usr/bin/time when present. */
  peakRssMb?: number;
  stdout: string;
  status: number | null;
}

/** Median wall time of a whole process (start-up included), after `warmup` unmeasured runs. */
export function timeCommand(cmd: string, args: string[], opts: { cwd?: string; runs?: number; warmup?: number; input?: string } = {}): Timed {
  const runs: number[] = [];
  let peak = 0;
  let stdout = "";
  let status: number | null = 0;
  const total = (opts.warmup ?? 1) + (opts.runs ?? 5);
  for (let i = 0; i < total; i++) {
    const t0 = process.hrtime.bigint();
    // GNU time writes the peak RSS (KiB) to stderr with -f %M.
    const r = spawnSync("/usr/bin/time", ["-f", "%M", cmd, ...args], {
      cwd: opts.cwd,
      input: opts.input,
      maxBuffer: 1 << 30,
      encoding: "utf8",
    });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.error) throw r.error;
    if (i >= (opts.warmup ?? 1)) {
      runs.push(ms);
      const kb = Number((r.stderr.trim().split("\n").pop() ?? "").trim());
      if (Number.isFinite(kb)) peak = Math.max(peak, kb / 1024);
    }
    stdout = r.stdout;
    status = r.status;
  }
  const sorted = [...runs].sort((a, b) => a - b);
  const medianMs = sorted[Math.floor(sorted.length / 2)] as number;
  return { medianMs, runs, peakRssMb: peak || undefined, stdout, status };
}

/** The file package.json's `bin` names for a tool: what a user runs. */
export function ourBin(tool: string): string {
  const bins = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { bin: Record<string, string> }).bin;
  return join(REPO_ROOT, bins[tool] ?? join("dist", "src", "cli", `${tool}.js`));
}
