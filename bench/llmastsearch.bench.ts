/**
 * llmastsearch vs ast-grep on a real TypeScript code base (~395k lines, bench/corpus.ts), the
 * whole process timed (start-up, walk, parse, match, JSON out). Both search every .ts file,
 * ignore rules off (the corpus sits in a git-ignored folder of this repository), and must find
 * the same number of matches or the row says so.
 */
import { join } from "node:path";
import { type BenchRow, ourBin, REPO_ROOT, type Timed, timeCommand } from "./lib.js";
import { countLines, typescriptCorpus } from "./corpus.js";

const AST_GREP = join(REPO_ROOT, "node_modules", ".bin", "ast-grep");

interface Case {
  name: string;
  query: string;
  rule: string;
}

const CASES: Case[] = [
  { name: "kind query: all function_declaration", query: "(function_declaration) @fn", rule: "{kind: function_declaration}" },
  {
    name: "structural query: class names (query engine)",
    query: "(class_declaration name: (type_identifier) @name)",
    rule: "{kind: type_identifier, inside: {kind: class_declaration, field: name}}",
  },
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
  const corpus = typescriptCorpus();
  const { files, lines } = countLines(corpus, [".ts", ".mts", ".cts"]);
  const rows: BenchRow[] = [];
  for (const c of CASES) {
    const oursArgs = ["--root", corpus, "--no-ignore", "--language", "typescript", "--query", c.query];
    const peerArgs = ["scan", "--no-ignore", "vcs", "--no-ignore", "parent", "--inline-rules", `id: bench\nlanguage: ts\nrule: ${c.rule}`, "--json=stream", "."];
    // Interleaved single runs after one warm-up each, so a load spike on the shared machine
    // hits both tools alike instead of one tool's whole series.
    timeCommand(ourBin("llmastsearch"), oursArgs, { cwd: corpus, runs: 1, warmup: 0 });
    timeCommand(AST_GREP, peerArgs, { cwd: corpus, runs: 1, warmup: 0 });
    const oursRuns: Timed[] = [];
    const peerRuns: Timed[] = [];
    for (let i = 0; i < RUNS; i++) {
      oursRuns.push(timeCommand(ourBin("llmastsearch"), oursArgs, { cwd: corpus, runs: 1, warmup: 0 }));
      peerRuns.push(timeCommand(AST_GREP, peerArgs, { cwd: corpus, runs: 1, warmup: 0 }));
    }
    const ours = summarize(oursRuns);
    const peer = summarize(peerRuns);
    const a = countOurs(ours.stdout);
    const b = countPeer(peer.stdout);
    rows.push({
      suite: "llmastsearch",
      case: c.name,
      ours: ours.medianMs,
      peer: "ast-grep scan",
      peerMs: peer.medianMs,
      maxRatio: 1.5,
      peakRssMb: ours.peakRssMb,
      note: `${files} files, ${lines} lines; matches ours ${a} / ast-grep ${b}${a === b ? "" : " (DIFFER: the two tools bundle different tree-sitter-typescript versions, which recover from a few syntax errors differently)"}; runs ours ${ours.runs.map((r) => r.toFixed(0)).join("/")} ms, ast-grep ${peer.runs.map((r) => r.toFixed(0)).join("/")} ms`,
    });
  }
  return rows;
}
