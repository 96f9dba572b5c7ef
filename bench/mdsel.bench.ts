/**
 * mdsel: `mdsel index` of a large real-world Markdown document, whole process (start-up, read,
 * parse, index, JSON out). Target (issue 6): <= 150 ms for ~1 MB. The document is gatsby's
 * CHANGELOG.md (~650 KB, lerna-generated release notes: headings, lists, links), fetched from
 * the npm registry into .bench-corpus/markdown/ on first use.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPUS_DIR } from "./corpus.js";
import { type BenchRow, ourBin, timeCommand } from "./lib.js";

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

export async function run(): Promise<BenchRow[]> {
  const file = markdownCorpus();
  const kb = Math.round(statSync(file).size / 1024);
  // A private cache directory: the cold row must parse, the warm row must hit.
  const cacheDir = mkdtempSync(join(tmpdir(), "mdsel-bench-cache-"));
  process.env.MDSEL_CACHE_DIR = cacheDir;
  const t = timeCommand(process.execPath, [ourBin("mdsel"), "index", "--no-cache", file], { runs: 3, warmup: 0 });
  if (t.status !== 0) throw new Error(`mdsel index exited ${t.status}`);
  const doc = (JSON.parse(t.stdout) as { data: { documents: { headings: unknown[] }[] } }).data.documents[0];
  const warm = timeCommand(process.execPath, [ourBin("mdsel"), "index", file], { runs: 5, warmup: 1 });
  if (warm.status !== 0) throw new Error(`mdsel index (cached) exited ${warm.status}`);
  const sel = timeCommand(process.execPath, [ourBin("mdsel"), "select", "changelog::heading:h2[0]", file], { runs: 5, warmup: 0 });
  if (sel.status !== 0) throw new Error(`mdsel select exited ${sel.status}`);
  rmSync(cacheDir, { recursive: true, force: true });
  // Bare node start-up, for scale: on a loaded box every row inflates by the same factor.
  const bare = timeCommand(process.execPath, ["-e", "0"], { runs: 5, warmup: 1 });
  const small = timeCommand(process.execPath, [ourBin("mdsel"), "index", join(CORPUS_DIR, "..", "test", "fixtures", "mdsel", "seed", "README.md")], { runs: 5, warmup: 1 });
  return [
    {
      suite: "mdsel",
      case: `index ${SPEC} CHANGELOG.md (${kb} KB, ${doc?.headings.length ?? 0} headings), cold parse`,
      ours: t.medianMs,
      maxMs: 150,
      peakRssMb: t.peakRssMb,
      note: "whole process; micromark (mdast-util-from-markdown) parse dominates",
    },
    {
      suite: "mdsel",
      case: `index, same file, parsed model cached (${kb} KB)`,
      ours: warm.medianMs,
      peakRssMb: warm.peakRssMb,
      note: "second look: content-hash cache hit, no parser loaded",
    },
    { suite: "mdsel", case: `select one h2, same file, cached (${kb} KB)`, ours: sel.medianMs, peakRssMb: sel.peakRssMb },
    { suite: "mdsel", case: "index a 0.5 KB README (start-up cost)", ours: small.medianMs, peakRssMb: small.peakRssMb },
    { suite: "mdsel", case: "baseline: bare `node -e 0` (machine load scale)", ours: bare.medianMs, peakRssMb: bare.peakRssMb },
  ];
}
