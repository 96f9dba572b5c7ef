/**
 * The impact graph (docs/impact.md) against dependency-cruiser on real TypeScript trees named by
 * IMPACT_BENCH_REPOS (colon-separated directories, each with its tsconfig.json and the folders
 * to cruise in IMPACT_BENCH_DIRS_<n>, default "src test"): agreement of file -> file edges both
 * ways, the whole-project graph from an existing index vs depcruise's cold run, and
 * `impact --file F --max-depth 3` in-process (p50/p95 over 200 files).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { openDb } from "../src/graph/db.js";
import { DbGraph, exportSnapshot, impactGraph, readHints } from "../src/tools/codeintel/impact.js";
import { compare } from "./impact-compare.js";
import { type BenchRow, ourBin, REPO_ROOT } from "./lib.js";

function wall(cmd: string, args: string[], cwd?: string): { ms: number; status: number | null; stderr: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 1 << 30 });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, status: r.status, stderr: r.stderr };
}

export async function run(): Promise<BenchRow[]> {
  const repos = (process.env.IMPACT_BENCH_REPOS ?? "").split(":").filter(Boolean);
  if (repos.length === 0) {
    return [{ suite: "impact", case: "(no IMPACT_BENCH_REPOS)", ours: NaN, note: "set IMPACT_BENCH_REPOS=/path/typeorm:/path/mikro-orm (see docs/impact.md)" }];
  }
  const rows: BenchRow[] = [];
  const depcruise = join(REPO_ROOT, "node_modules", ".bin", "depcruise");
  for (const [i, root] of repos.entries()) {
    const name = basename(root);
    const dirs = (process.env[`IMPACT_BENCH_DIRS_${i}`] ?? "src test").split(/\s+/).filter((d) => existsSync(join(root, d)));
    const out = join(mkdtempSync(join(tmpdir(), "impact-bench-")), "dc.json");
    const dc = wall(depcruise, ["--ts-config", "tsconfig.json", "--ts-pre-compilation-deps", "--no-config", "--output-type", "json", "--output-to", out, ...dirs], root);
    if (dc.status !== 0) throw new Error(`depcruise failed on ${name}: ${dc.stderr.slice(0, 500)}`);
    const dbPath = join(mkdtempSync(join(tmpdir(), "impact-bench-")), "code.db");
    const idx = wall(ourBin("magellan"), ["index", "--root", root, "--db", dbPath]);
    if (idx.status !== 0) throw new Error(`magellan index failed on ${name}`);
    const c = compare(dbPath, out);
    rows.push({ suite: "impact", case: `${name}: edges also in depcruise's (of ${c.ours})`, ours: c.precision * 100, unit: "%", note: `${(c.precision * 100).toFixed(2)}%: ${c.both} agree; ${c.onlyOurs.length} only magellan` });
    rows.push({ suite: "impact", case: `${name}: depcruise's edges also in magellan's (of ${c.theirs})`, ours: c.recall * 100, unit: "%", note: `${(c.recall * 100).toFixed(2)}%: ${c.onlyTheirs.length} only depcruise` });
    // Whole graph from the existing index: the CLI's export (process start included) and in-process.
    const exp = wall(ourBin("magellan"), ["impact", "--export", join(tmpdir(), `impact-${process.pid}.json`), "--root", root, "--db", dbPath]);
    rows.push({ suite: "impact", case: `${name}: whole graph from the index (magellan impact --export)`, ours: exp.ms, peer: "depcruise (cold)", peerMs: dc.ms, maxRatio: 0.1 });
    const db = openDb(dbPath, { write: false });
    const graph = new DbGraph(db, readHints(root, join(root, ".magellan"), []));
    const t0 = performance.now();
    const snap = exportSnapshot(graph, root);
    const inProc = performance.now() - t0;
    rows.push({ suite: "impact", case: `${name}: whole graph in-process (${snap.graphs.length} files)`, ours: inProc, peer: "depcruise (cold)", peerMs: dc.ms, maxRatio: 0.1 });
    const files = snap.graphs.map((g) => g.source).filter((_, k) => k % Math.max(1, Math.floor(snap.graphs.length / 200)) === 0);
    impactGraph(graph, root, { file: files[0] as string, maxDepth: 3 });
    const times: number[] = [];
    for (const f of files) {
      const s = performance.now();
      impactGraph(graph, root, { file: f, maxDepth: 3, maxEdges: 100_000 });
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const p = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
    rows.push({ suite: "impact", case: `${name}: impact --file F --max-depth 3, in-process p95 (${times.length} files)`, ours: p(0.95), maxMs: 20, note: `p50 ${p(0.5).toFixed(2)} ms, max ${p(1).toFixed(1)} ms` });
    db.close();
  }
  return rows;
}
