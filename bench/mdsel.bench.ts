/**
 * mdsel: `mdsel index` of a large real-world Markdown document, whole process (start-up, read,
 * parse, index, JSON out), with no cache of any kind: every run parses. Target (issue 6):
 * <= 150 ms. The document is gatsby 5.14.0's CHANGELOG.md (633 KB, 2,067 headings;
 * lerna-generated release notes: headings, lists, links), fetched from the npm registry into
 * .bench-corpus/markdown/ on first use.
 *
 * The runs alternate with a bare `node -e 0`, so both see the same machine load; the ratio
 * to that baseline is reported because the box this runs on is often shared.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR } from "./corpus.js";
import { type BenchRow, ourBin, REPO_ROOT, timeCommand, type Timed } from "./lib.js";

const SPEC = "gatsby@5.14.0";

/** Unpacks `SPEC`'s CHANGELOG.md once and returns its path. */
function markdownCorpus(): string {
  const dir = join(CORPUS_DIR, "markdown", SPEC.replace("@", "-"));
  const file = join(dir, "CHANGELOG.md");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const tgz = execFileSync("npm", ["pack", SPEC, "--silent", "--pack-destination", dir], { encoding: "utf8" }).trim().split("\n").pop() as string;
  execFileSync("tar", ["xzf", join(dir, tgz), "-C", dir, "--strip-components=1", "package/CHANGELOG.md"]);
  return file;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Runs each command once per round, in turn, so load spikes hit them alike. */
function interleaved(cmds: [string, string[]][], rounds: number): Timed[] {
  const out: Timed[] = cmds.map(() => ({ medianMs: 0, runs: [], stdout: "", status: 0 }));
  for (const [cmd, args] of cmds) timeCommand(cmd, args, { runs: 1, warmup: 0, cwd: REPO_ROOT }); // page cache, not a parse cache
  for (let r = 0; r < rounds; r++) {
    cmds.forEach(([cmd, args], i) => {
      const t = timeCommand(cmd, args, { runs: 1, warmup: 0, cwd: REPO_ROOT });
      const o = out[i] as Timed;
      o.runs.push(t.medianMs);
      o.peakRssMb = Math.max(o.peakRssMb ?? 0, t.peakRssMb ?? 0) || undefined;
      o.stdout = t.stdout;
      o.status = t.status;
    });
  }
  for (const o of out) o.medianMs = median(o.runs);
  return out;
}

export async function run(): Promise<BenchRow[]> {
  const file = markdownCorpus();
  const kb = Math.round(statSync(file).size / 1024);
  const readme = join(REPO_ROOT, "test", "fixtures", "mdsel", "seed", "README.md");
  // The parser's floor: start node, load markdown-it, run its block parser over the file, exit.
  const floorScript = `const md=require("markdown-it")({html:true});md.block.parse(require("fs").readFileSync(${JSON.stringify(file)},"utf8"),md,{},[])`;
  const [bare, floor, index, select, small] = interleaved(
    [
      [process.execPath, ["-e", "0"]],
      [process.execPath, ["-e", floorScript]],
      [ourBin("mdsel"), ["index", file]],
      [ourBin("mdsel"), ["select", "changelog::heading:h2[0]", file]],
      [ourBin("mdsel"), ["index", readme]],
    ],
    7,
  ) as [Timed, Timed, Timed, Timed, Timed];
  for (const [name, t] of [["markdown-it floor", floor], ["index", index], ["select", select], ["index README", small]] as const) {
    if (t.status !== 0) throw new Error(`mdsel ${name} exited ${t.status}`);
  }
  const doc = (JSON.parse(index.stdout) as { data: { documents: { headings: unknown[] }[] } }).data.documents[0];
  const x = (t: Timed): string => `${(t.medianMs / bare.medianMs).toFixed(1)}x bare node start-up`;
  return [
    {
      suite: "mdsel",
      case: `index ${SPEC} CHANGELOG.md (${kb} KB, ${doc?.headings.length ?? 0} headings), cold: no cache, every run parses`,
      ours: index.medianMs,
      maxMs: 150,
      peakRssMb: index.peakRssMb,
      note: `whole process; markdown-it block parse; ${x(index)}`,
    },
    { suite: "mdsel", case: `select one h2 section, same file (${kb} KB), cold`, ours: select.medianMs, peakRssMb: select.peakRssMb, note: x(select) },
    {
      suite: "mdsel",
      case: `floor: node + require("markdown-it") + its block parse of the same file, nothing else`,
      ours: floor.medianMs,
      peakRssMb: floor.peakRssMb,
      note: `${x(floor)}; what any markdown-it based tool pays before doing anything`,
    },
    { suite: "mdsel", case: "index a 0.5 KB README (start-up cost)", ours: small.medianMs, peakRssMb: small.peakRssMb, note: x(small) },
    { suite: "mdsel", case: "baseline: bare `node -e 0` (machine load scale)", ours: bare.medianMs, peakRssMb: bare.peakRssMb },
  ];
}
