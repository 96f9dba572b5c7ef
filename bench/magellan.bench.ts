/**
 * magellan's speed targets (issue 3), side by side with universal-ctags in one run, on a copy of
 * the real TypeScript corpus outside any git work tree (so both tools walk the same files).
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countLines, typescriptCorpus } from "./corpus.js";
import { type BenchRow, ourBin, timeCommand } from "./lib.js";

function once(cmd: string, args: string[], cwd?: string): { ms: number; rssMb?: number; status: number | null; stdout: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", cmd, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const kb = Number((r.stderr.trim().split("\n").pop() ?? "").trim());
  return { ms, rssMb: Number.isFinite(kb) ? kb / 1024 : undefined, status: r.status, stdout: r.stdout };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

export async function run(): Promise<BenchRow[]> {
  const src = typescriptCorpus();
  const work = mkdtempSync(join(tmpdir(), "magellan-bench-"));
  const root = join(work, "tree");
  cpSync(src, root, { recursive: true, filter: (p) => !p.endsWith(".tgz") });
  const db = join(work, "code.db");
  const bin = ourBin("magellan");
  const rows: BenchRow[] = [];
  try {
    const { files, lines } = countLines(root, [".ts", ".js", ".mjs", ".cjs"]);
    // Cold index vs ctags, alternating so both see the same machine load.
    const ours: number[] = [];
    const theirs: number[] = [];
    let peak = 0;
    let ctagsPeak = 0;
    let summary = "";
    for (let i = 0; i < 2; i++) {
      const c = once("ctags", ["-R", "--output-format=json", "-f", join(work, "tags.json"), "."], root);
      theirs.push(c.ms);
      ctagsPeak = Math.max(ctagsPeak, c.rssMb ?? 0);
      const m = once(process.execPath, [bin, "index", "--rebuild", "--root", root, "--db", db], root);
      if (m.status !== 0) throw new Error(`magellan index failed: ${m.stdout.slice(0, 2000)}`);
      ours.push(m.ms);
      peak = Math.max(peak, m.rssMb ?? 0);
      const d = (JSON.parse(m.stdout) as { data: Record<string, number> }).data;
      summary = `${d.files} files, ${d.symbols} symbols, ${d.references} refs, ${d.calls} calls`;
    }
    rows.push({
      suite: "magellan",
      case: `cold index (${files} files, ${lines} lines of TS/JS)`,
      ours: median(ours),
      peer: "ctags -R --output-format=json",
      peerMs: median(theirs),
      maxRatio: 4,
      peakRssMb: peak,
      note: `${summary}; ctags peak RSS ${ctagsPeak.toFixed(0)} MB`,
    });

    // Re-index after one file changed, whole process.
    const victim = join(root, "effect", "src", "Option.ts");
    const re: number[] = [];
    let changed = "";
    for (let i = 0; i < 5; i++) {
      appendFileSync(victim, `\n// bench edit ${i}\n`);
      const m = once(process.execPath, [bin, "index", "--root", root, "--db", db], root);
      re.push(m.ms);
      const d = (JSON.parse(m.stdout) as { data: Record<string, number> }).data;
      changed = `${d.files_indexed} file re-indexed, ${d.references_resolved} refs re-resolved`;
    }
    rows.push({ suite: "magellan", case: "re-index after one file changed (whole process)", ours: median(re), maxMs: 300, note: changed });

    // find --name, whole process.
    const f = timeCommand(process.execPath, [bin, "find", "--name", "flatMap", "--db", db, "--root", root], { runs: 7 });
    const n = (JSON.parse(f.stdout) as { data: { count: number } }).data.count;
    rows.push({ suite: "magellan", case: "find --name (whole process)", ours: f.medianMs, maxMs: 100, note: `${n} matches` });

    // find in-process, on the same index.
    const { find } = (await import("../src/tools/magellan/queries.js")) as typeof import("../src/tools/magellan/queries.js");
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      find({ name: i % 2 ? "flatMap" : "map", db, root });
      times.push(performance.now() - t0);
    }
    rows.push({ suite: "magellan", case: "find --name (in-process, median of 60)", ours: median(times.slice(10)), maxMs: 5 });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
