/**
 * Precise refs in the daemon on a real project: how long the worker takes to build its program,
 * the daemon's RSS before and after, and the time of `callers --name N` through the warm daemon
 * by default (precise), with --no-precise and with --precise, interleaved, beside the in-process
 * `--precise` run (which builds the program each time). Not part of `npm run bench` (it needs a
 * real project and its index):
 *
 *   magellan index --root R
 *   node dist/bench/precise-daemon.js R --name broadcastBeforeInsertEvent [--rounds 3] [--also NAME]
 *
 * Every figure is printed with the load average and the time of `node -e 0` beside it: the
 * machine is shared, and both say how much to trust it.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { ourBin as binPath } from "./lib.js";

const args = process.argv.slice(2);
const root = resolve(args[0] ?? ".");
const opt = (flag: string, fallback: string): string => {
  const i = args.indexOf(flag);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const name = opt("--name", "");
const rounds = Number(opt("--rounds", "3"));
const also = opt("--also", "");
if (!name) {
  process.stderr.write("usage: node dist/bench/precise-daemon.js ROOT --name NAME [--rounds 3] [--also NAME]\n");
  process.exit(2);
}

function run(tool: string, argv: string[]): { ms: number; json: Record<string, unknown> } {
  const t0 = performance.now();
  const r = spawnSync(binPath(tool), argv, { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const ms = Math.round(performance.now() - t0);
  return { ms, json: JSON.parse(r.stdout) as Record<string, unknown> };
}

function nodeZero(): number {
  const t0 = performance.now();
  spawnSync(process.execPath, ["-e", "0"]);
  return Math.round(performance.now() - t0);
}

const machine = (): string => `load ${loadavg()[0]?.toFixed(2)}, node -e 0 ${nodeZero()} ms`;

interface Status {
  rss_bytes: number;
  precise: { workers: { state: string; build_ms?: number; heap_used_bytes?: number }[]; fallbacks: number; memory_restarts: number };
}
const status = (): Status => (run("llmtools", ["daemon", "status", "--root", root]).json as { data: Status }).data;
const mb = (b: number): number => Math.round(b / 1048576);

function answer(label: string, argv: string[]): void {
  const { ms, json } = run("magellan", argv);
  const data = json.data as { references?: { resolution: string }[]; precise?: { status: string; asked: number } };
  const labels = [...new Set((data.references ?? []).map((r) => r.resolution))].join(",");
  process.stdout.write(`${label.padEnd(34)} ${String(ms).padStart(6)} ms  precise=${data.precise?.status ?? "-"} asked=${data.precise?.asked ?? 0} labels=${labels}  (${machine()})\n`);
}

process.stdout.write(`${root}: ${machine()}\n`);
run("llmtools", ["daemon", "stop", "--root", root]);
run("llmtools", ["daemon", "start", "--root", root, "--idle-timeout", "900"]);
process.stdout.write(`daemon started: RSS ${mb(status().rss_bytes)} MB\n`);
answer("callers (first question)", ["callers", "--name", name]);
const t0 = Date.now();
let s = status();
while (s.precise.workers[0]?.state !== "ready") {
  if (Date.now() - t0 > 300_000) throw new Error("the language service did not get ready in 300 s");
  await new Promise((r) => setTimeout(r, 250));
  s = status();
}
const w = s.precise.workers[0];
process.stdout.write(`service built: build_ms ${w?.build_ms}, worker heap ${mb(w?.heap_used_bytes ?? 0)} MB, daemon RSS ${mb(s.rss_bytes)} MB (${machine()})\n`);
for (let i = 0; i < rounds; i++) {
  answer("callers (default: precise)", ["callers", "--name", name]);
  answer("callers --no-precise", ["callers", "--name", name, "--no-precise"]);
  answer("callers --precise", ["callers", "--name", name, "--precise"]);
}
answer("callers --precise --no-daemon", ["callers", "--name", name, "--precise", "--no-daemon"]);
if (also) {
  answer(`refs --name ${also}`, ["refs", "--name", also, "--limit", "5"]);
  answer(`refs --name ${also} (again)`, ["refs", "--name", also, "--limit", "5"]);
}
s = status();
const heap = s.precise.workers[0]?.heap_used_bytes;
process.stdout.write(
  `end: daemon RSS ${mb(s.rss_bytes)} MB, workers ${s.precise.workers.length}${heap === undefined ? "" : ` (heap ${mb(heap)} MB)`}, memory_restarts ${s.precise.memory_restarts}, fallbacks ${s.precise.fallbacks}\n`,
);
run("llmtools", ["daemon", "stop", "--root", root]);
