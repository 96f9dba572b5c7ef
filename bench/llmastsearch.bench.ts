/**
 * llmastsearch vs ast-grep on real TypeScript, the whole process timed (start-up, walk, parse,
 * match, JSON out) with its peak RSS: the ~395k-line npm corpus (bench/corpus.ts) and, when its
 * checkout is there (the daemon bench extracts it), typeorm's 3,571 .ts files, issue 18's case
 * (goal: peak RSS <= 64 MB and <= 1.5x ast-grep's wall time). Both tools search every .ts file,
 * ignore rules off, and must find the same number of matches or the row says so. Ours runs with
 * its default threads and with the other choice (-j 2 where the default is one thread, else -j 1). Each row's note holds the load average and `node -e 0`'s
 * time, measured beside it: the machine is shared, and both move every figure.
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { type BenchRow, ourBin, REPO_ROOT, type Timed, timeCommand } from "./lib.js";
import { CORPUS_DIR, countLines, typescriptCorpus } from "./corpus.js";
import { defaultThreads } from "../src/tools/llmastsearch/search.js";

const AST_GREP = join(REPO_ROOT, "node_modules", ".bin", "ast-grep");

interface Case {
  name: string;
  query: string;
  rule: string;
  /** Run on this corpus only (the case is long). */
  only?: string;
}

const CASES: Case[] = [
  { name: "kind query: all function_declaration", query: "(function_declaration) @fn", rule: "{kind: function_declaration}" },
  {
    name: "structural query: class names (query engine)",
    query: "(class_declaration name: (type_identifier) @name)",
    rule: "{kind: type_identifier, inside: {kind: class_declaration, field: name}}",
  },
  // A long answer (typeorm: 188k matches, ~120 MB of JSON): memory must stay flat, not follow it.
  { name: "every identifier (a long answer, streamed)", query: "(identifier) @i", rule: "{kind: identifier}", only: "typeorm" },
];

/** The default, and the other choice on this machine: -j 2 where the default is one thread, else -j 1. */
const THREADS: { label: string; args: string[] }[] =
  defaultThreads() === 1
    ? [
        { label: "default (1 thread)", args: [] },
        { label: "-j 2", args: ["-j", "2"] },
      ]
    : [
        { label: `default (${defaultThreads()} threads)`, args: [] },
        { label: "-j 1", args: ["-j", "1"] },
      ];

const RUNS = 5;

function summarize(runs: Timed[]): Timed {
  const all = runs.flatMap((r) => r.runs);
  const sorted = [...all].sort((x, y) => x - y);
  const last = runs[runs.length - 1] as Timed;
  const peaks = runs.map((r) => r.peakRssMb ?? 0);
  return { medianMs: sorted[Math.floor(sorted.length / 2)] as number, runs: all, peakRssMb: Math.max(...peaks) || undefined, stdout: last.stdout, status: last.status };
}

function countOurs(stdout: string): number {
  return (JSON.parse(stdout) as { data: { match_count: number } }).data.match_count;
}

function countPeer(stdout: string): number {
  return stdout.split("\n").filter((l) => l.trim().length > 0).length;
}

export async function run(): Promise<BenchRow[]> {
  const corpora: { name: string; dir: string }[] = [{ name: "effect+rxjs", dir: typescriptCorpus() }];
  const typeorm = join(CORPUS_DIR, "typeorm");
  if (existsSync(join(typeorm, "src"))) corpora.push({ name: "typeorm", dir: typeorm });
  const rows: BenchRow[] = [];
  for (const corpus of corpora) {
    const { files, lines } = countLines(corpus.dir, [".ts", ".mts", ".cts"]);
    for (const c of CASES) {
      if (c.only !== undefined && c.only !== corpus.name) continue;
      const peerArgs = ["scan", "--no-ignore", "vcs", "--no-ignore", "parent", "--inline-rules", `id: bench\nlanguage: ts\nrule: ${c.rule}`, "--json=stream", "."];
      const variants = THREADS.map((t) => ({ ...t, argv: ["--root", corpus.dir, "--no-ignore", "--language", "typescript", "--query", c.query, ...t.args], runs: [] as Timed[] }));
      const peerRuns: Timed[] = [];
      const nodeRuns: Timed[] = [];
      const loads: number[] = [];
      // Interleaved single runs after one warm-up each, so a load spike on the shared machine
      // hits every variant alike instead of one variant's whole series.
      for (const v of variants) timeCommand(ourBin("llmastsearch"), v.argv, { cwd: corpus.dir, runs: 1, warmup: 0 });
      timeCommand(AST_GREP, peerArgs, { cwd: corpus.dir, runs: 1, warmup: 0 });
      for (let i = 0; i < RUNS; i++) {
        loads.push(loadavg()[0] as number);
        nodeRuns.push(timeCommand(process.execPath, ["-e", "0"], { runs: 1, warmup: 0 }));
        for (const v of variants) v.runs.push(timeCommand(ourBin("llmastsearch"), v.argv, { cwd: corpus.dir, runs: 1, warmup: 0 }));
        peerRuns.push(timeCommand(AST_GREP, peerArgs, { cwd: corpus.dir, runs: 1, warmup: 0 }));
      }
      const peer = summarize(peerRuns);
      const b = countPeer(peer.stdout);
      const nodeMs = summarize(nodeRuns).medianMs;
      const load = [...loads].sort((x, y) => x - y)[Math.floor(loads.length / 2)] as number;
      for (const v of variants) {
        const ours = summarize(v.runs);
        const a = countOurs(ours.stdout);
        rows.push({
          suite: "llmastsearch",
          case: `${corpus.name}, ${c.name}, ${v.label}`,
          ours: ours.medianMs,
          peer: "ast-grep scan",
          peerMs: peer.medianMs,
          maxRatio: 1.5,
          peakRssMb: ours.peakRssMb,
          note: `${files} files, ${lines} lines; matches ours ${a} / ast-grep ${b}${a === b ? "" : " (DIFFER: the two tools bundle different tree-sitter-typescript versions, which recover from a few syntax errors differently)"}; runs ours ${ours.runs.map((r) => r.toFixed(0)).join("/")} ms, ast-grep ${peer.runs.map((r) => r.toFixed(0)).join("/")} ms; ast-grep peak RSS ${peer.peakRssMb?.toFixed(0) ?? "?"} MB; load average ${load.toFixed(1)}, node -e 0 ${nodeMs.toFixed(0)} ms`,
        });
      }
    }
  }
  return rows;
}
