/**
 * The warm daemon on a ~3,500-file TypeScript project (typeorm's sources, github:typeorm/typeorm,
 * taken from a git mirror: DAEMON_BENCH_REPO=<bare git dir> or /work/.mirror/typeorm+typeorm/repo,
 * extracted once into .bench-corpus/typeorm). Whole processes, same run, same machine:
 * - `magellan find` through the daemon vs `node -e 0` (target <= 1.3x);
 * - `llmsearch` through the daemon vs `rg --json` (target <= 1.6x);
 * - a saved file's new symbol findable: p95 over 50 saves (target <= 200 ms), asked through the
 *   socket as a long-lived client would, as fast as it answers;
 * - the daemon's RSS after that workload (target <= 600 MB), and its growth per MB of source
 *   (a daemon on src/ alone against one on the whole tree).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { CORPUS_DIR } from "./corpus.js";
import { type BenchRow, ourBin, timeCommand } from "./lib.js";
import { request } from "../src/server/client.cjs";

const MIRROR = process.env.DAEMON_BENCH_REPO ?? "/work/.mirror/typeorm+typeorm/repo";

function corpus(): string | undefined {
  const dir = join(CORPUS_DIR, "typeorm");
  if (existsSync(join(dir, "src"))) return dir;
  if (!existsSync(MIRROR)) return undefined;
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync("git", ["--git-dir", MIRROR, "archive", "--format=tar", "HEAD"], { maxBuffer: 1 << 30 });
  execFileSync("tar", ["x", "-C", dir], { input: tar });
  // Its own work tree, so that it is the workspace root of every tool run inside it.
  mkdirSync(join(dir, ".git"), { recursive: true });
  return dir;
}

function sourceBytes(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /\.(ts|tsx|js|mjs|cjs)$/.test(e.name)) {
        files++;
        bytes += statSync(p).size;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

/** JSON.parse that names what it could not read. */
function parse<T>(what: string, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new Error(`${what}: ${(e as Error).message}: ${text.slice(0, 300)}`);
  }
}

function llmtools(args: string[]): Record<string, unknown> {
  const r = spawnSync(ourBin("llmtools"), args, { encoding: "utf8" });
  return parse<{ data: Record<string, unknown> }>(`llmtools ${args.join(" ")}`, r.stdout).data;
}

function ensureIndexed(root: string): void {
  if (existsSync(join(root, ".magellan", "code.db"))) return;
  process.stderr.write(`bench: indexing ${root} (once)\n`);
  execFileSync(ourBin("magellan"), ["index", "--root", root, "--no-daemon"], { stdio: ["ignore", "ignore", "inherit"], maxBuffer: 1 << 30 });
}

interface Cmd {
  cmd: string;
  args: string[];
  env?: Record<string, string>;
}

/**
 * Median whole-process wall times of commands run in turn (A, B, C, A, B, C, ...) after one
 * warm-up each, so that all see the same machine load: on a shared machine, back-to-back series
 * can differ by 2x on load alone. `load` is the 1-minute load average when they were done;
 * `best` the fastest run of each, which on a busy machine says more about the work itself than
 * a median that waits on other jobs.
 */
function alternate(cmds: readonly Cmd[], cwd: string, runs: number): { ms: number[]; best: number[]; firstStdout: string; load: number } {
  const times = cmds.map((): number[] => []);
  let firstStdout = "";
  const once = (c: Cmd): { ms: number; stdout: string } => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(c.cmd, c.args, { cwd, encoding: "utf8", maxBuffer: 1 << 30, env: c.env ? { ...process.env, ...c.env } : process.env });
    if (r.error) throw r.error;
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: r.stdout };
  };
  for (const c of cmds) once(c);
  for (let i = 0; i < runs; i++) {
    for (const [j, c] of cmds.entries()) {
      const x = once(c);
      (times[j] as number[]).push(x.ms);
      if (j === 0) firstStdout = x.stdout;
    }
  }
  return { ms: times.map((t) => percentile(t, 50)), best: times.map((t) => Math.min(...t)), firstStdout, load: loadavg()[0] as number };
}

/** The fastest runs of ours and of the peer, and their ratio. */
function best(ours: number | undefined, peer: number | undefined): string {
  if (ours === undefined || peer === undefined) return "n/a";
  return `${ours.toFixed(0)} vs ${peer.toFixed(0)} ms (${(ours / peer).toFixed(2)}x)`;
}

/** What a figure was measured beside: the load, and a bare node's start-up in the same run. */
function context(load: number, nodeMs: number | undefined): string {
  return `load ${load.toFixed(1)}${nodeMs === undefined ? "" : `, node -e 0 ${nodeMs.toFixed(0)} ms`}`;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Saves a new file (as an editor would) and asks the daemon until the new symbol is found. */
async function saveToFindable(root: string, sock: string, saves: number): Promise<number[]> {
  const times: number[] = [];
  const file = join(root, "src", "bench-saved.ts");
  for (let i = 0; i < saves; i++) {
    const name = `benchSaved${Date.now().toString(36)}${i}`;
    const t0 = performance.now();
    writeFileSync(file, `export function ${name}(x: number): number {\n  return x + ${i};\n}\n`);
    for (;;) {
      const a = await request(sock, "magellan", ["find", "--name", name], root);
      // Not found yet is an error answer (MAGELLAN_E104, exit 1) without matches.
      const n = parse<{ data: { matches?: unknown[] } }>("magellan find", a.stdout.toString("utf8")).data.matches?.length ?? 0;
      if (a.code === 0 && n > 0) break;
      if (performance.now() - t0 > 10_000) throw new Error(`${name} not findable after 10 s`);
    }
    times.push(performance.now() - t0);
    // Saves a human pace apart would each start from a quiet watcher.
    await new Promise((r) => setTimeout(r, 50));
  }
  rmSync(file, { force: true });
  return times;
}

export async function run(): Promise<BenchRow[]> {
  const root = corpus();
  if (root === undefined) {
    return [{ suite: "daemon", case: "(skipped)", ours: NaN, note: `no typeorm mirror at ${MIRROR} (set DAEMON_BENCH_REPO)` }];
  }
  const runs = Number(process.env.BENCH_RUNS ?? 15);
  const size = sourceBytes(root);
  ensureIndexed(root);
  const rows: BenchRow[] = [];
  llmtools(["daemon", "stop", "--root", root]);
  const started = llmtools(["daemon", "start", "--root", root, "--idle-timeout", "600"]);
  const sock = started.socket as string;
  try {
    // As the bins start node: without NODE_EXTRA_CA_CERTS, which Node 20 parses at start-up.
    const node: Cmd = { cmd: "env", args: ["-u", "NODE_EXTRA_CA_CERTS", process.execPath, "-e", "0"] };
    const findArgs = ["find", "--name", "EntityManager"];
    // The same client talking through `net` instead of Node's pipe handles (src/server/client.cts), for scale.
    const find = alternate([{ cmd: ourBin("magellan"), args: findArgs }, { cmd: ourBin("magellan"), args: findArgs, env: { LLMTOOLS_DAEMON_NET: "1" } }, node], root, runs);
    const [findMs, findNetMs, nodeMs] = find.ms as [number, number, number];
    const findCold = timeCommand(ourBin("magellan"), [...findArgs, "--no-daemon"], { cwd: root, runs: 5 });
    rows.push({
      suite: "daemon",
      case: "magellan find via daemon",
      ours: findMs,
      peer: "node -e 0",
      peerMs: nodeMs,
      maxRatio: 1.3,
      note: `${size.files} files; ${context(find.load, undefined)}; best ${best(find.best[0], find.best[2])}; through net instead of pipe handles ${findNetMs.toFixed(0)} ms; without daemon ${findCold.medianMs.toFixed(0)} ms`,
    });
    for (const [label, pattern] of [
      ["llmsearch via daemon, literal", "createQueryBuilder"],
      ["llmsearch via daemon, regex", "throw new \\w+Error"],
    ] as const) {
      const t = alternate([{ cmd: ourBin("llmsearch"), args: ["--pattern", pattern] }, { cmd: "rg", args: ["--json", pattern, "."] }, node], root, runs);
      const [ms, rgMs, nodeHere] = t.ms as [number, number, number];
      const cold = timeCommand(ourBin("llmsearch"), ["--pattern", pattern, "--no-daemon"], { cwd: root, runs: 5 });
      const total = parse<{ data: { total_count: number } }>(`llmsearch ${pattern}`, t.firstStdout).data.total_count;
      rows.push({
        suite: "daemon",
        case: label,
        ours: ms,
        peer: "rg --json",
        peerMs: rgMs,
        maxRatio: 1.6,
        note: `${total} matches, ${(Buffer.byteLength(t.firstStdout) / 1024).toFixed(0)} KB of JSON; ${context(t.load, nodeHere)}; best ${best(t.best[0], t.best[1])}; without daemon ${cold.medianMs.toFixed(0)} ms`,
      });
    }
    const saves = await saveToFindable(root, sock, Number(process.env.DAEMON_BENCH_SAVES ?? 50));
    rows.push({
      suite: "daemon",
      case: "saved file's symbol findable, p95 of 50",
      ours: percentile(saves, 95),
      maxMs: 200,
      note: `p50 ${percentile(saves, 50).toFixed(0)} ms, max ${Math.max(...saves).toFixed(0)} ms`,
    });
    const whole = llmtools(["daemon", "status", "--root", root]);
    const rssWhole = (whole.rss_bytes as number) / 2 ** 20;

    // Growth per MB of source: a daemon for src/ alone, after the same workload.
    const sub = join(CORPUS_DIR, "typeorm-src");
    if (!existsSync(join(sub, "src"))) {
      mkdirSync(join(sub, ".git"), { recursive: true });
      cpSync(join(root, "src"), join(sub, "src"), { recursive: true });
    }
    ensureIndexed(sub);
    const subSize = sourceBytes(sub);
    llmtools(["daemon", "start", "--root", sub, "--idle-timeout", "600"]);
    timeCommand(ourBin("magellan"), ["find", "--name", "EntityManager"], { cwd: sub, runs: 3 });
    timeCommand(ourBin("llmsearch"), ["--pattern", "createQueryBuilder"], { cwd: sub, runs: 3 });
    const small = llmtools(["daemon", "status", "--root", sub]);
    llmtools(["daemon", "stop", "--root", sub]);
    const rssSmall = (small.rss_bytes as number) / 2 ** 20;
    const mb = (size.bytes - subSize.bytes) / 2 ** 20;
    rows.push({
      suite: "daemon",
      case: "daemon RSS after the workload",
      ours: rssWhole,
      unit: " MB",
      maxMs: 600,
      note: `target <= 600 MB; ${(size.bytes / 2 ** 20).toFixed(1)} MB of source; src/ alone (${(subSize.bytes / 2 ** 20).toFixed(1)} MB): ${rssSmall.toFixed(0)} MB; growth ${((rssWhole - rssSmall) / mb).toFixed(1)} MB RSS per MB of source`,
    });
  } finally {
    llmtools(["daemon", "stop", "--root", root]);
  }
  return rows;
}
