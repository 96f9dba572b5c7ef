/**
 * llmsearch vs `rg --json`, same pattern, same root, same run: whole-process median wall time
 * on the project's own node_modules (thousands of real files: bundles, .d.ts, Markdown, binaries).
 * Target: median <= 2x ripgrep's. Peak RSS is also compared between a subset and the whole
 * corpus: it must not grow with the corpus (file contents are not retained).
 */
import { join } from "node:path";
import { type BenchRow, REPO_ROOT, ourBin, timeCommand } from "./lib.js";

interface Case {
  name: string;
  ours: string[];
  rg: string[];
}

const CASES: Case[] = [
  { name: "regex, moderate matches", ours: ["--pattern", "throw new \\w+Error"], rg: ["throw new \\w+Error"] },
  { name: "literal, few matches", ours: ["--pattern", "createRequire"], rg: ["createRequire"] },
  { name: "case-insensitive", ours: ["--ignore-case", "--pattern", "usestate"], rg: ["--ignore-case", "usestate"] },
];

function rgCount(stdout: string): number {
  let n = 0;
  for (const line of stdout.split("\n")) {
    if (!line.startsWith('{"type":"match"')) continue;
    n += (JSON.parse(line) as { data: { submatches: unknown[] } }).data.submatches.length;
  }
  return n;
}

export async function run(): Promise<BenchRow[]> {
  const corpus = join(REPO_ROOT, "node_modules");
  const rows: BenchRow[] = [];
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  for (const c of CASES) {
    // Interleave-free but back to back, so both see the same machine state.
    const peer = timeCommand("rg", ["--json", ...c.rg, "."], { cwd: corpus, runs });
    const ours = timeCommand(ourBin("llmsearch"), ["--root", corpus, ...c.ours], { cwd: corpus, runs });
    const total = (JSON.parse(ours.stdout) as { data: { total_count: number } }).data.total_count;
    const theirs = rgCount(peer.stdout);
    rows.push({
      suite: "llmsearch",
      case: c.name,
      ours: ours.medianMs,
      peer: "rg --json",
      peerMs: peer.medianMs,
      maxRatio: 2,
      peakRssMb: ours.peakRssMb,
      note: `${total} matches (rg ${theirs})${total === theirs ? "" : " MISMATCH"}; rg peak ${peer.peakRssMb?.toFixed(0) ?? "?"} MB`,
    });
  }
  // Memory must not grow with the corpus: one package versus all of node_modules.
  const subset = join(corpus, "typescript");
  const small = timeCommand(ourBin("llmsearch"), ["--root", subset, "--pattern", "createRequire"], { runs: 3 });
  const large = timeCommand(ourBin("llmsearch"), ["--root", corpus, "--pattern", "createRequire"], { runs: 3 });
  rows.push({
    suite: "llmsearch",
    case: "peak RSS: typescript/ vs all node_modules",
    ours: large.peakRssMb ?? NaN,
    unit: "MB",
    peakRssMb: large.peakRssMb,
    note: `subset ${small.peakRssMb?.toFixed(0) ?? "?"} MB -> whole ${large.peakRssMb?.toFixed(0) ?? "?"} MB (growth x${((large.peakRssMb ?? 0) / (small.peakRssMb ?? 1)).toFixed(2)})`,
  });
  return rows;
}
