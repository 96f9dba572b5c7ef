/**
 * Extraction accuracy against universal-ctags (issue 3): one row per language whose real-project
 * checkout exists, recall of ctags' definitions (same file, name, line) with precision in the
 * note; target recall >= 98%. Corpora: $EXTRACT_CORPORA (default /work/corpora)/<language> and
 * .bench-corpus/<language>; they are not in the repository (see docs/extraction.md).
 *
 * Also one speed row: single-thread extraction of the TypeScript bench corpus beside
 * `ctags -R --output-format=json` on the same tree (the graph indexes on worker threads).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { measureAccuracy, SETUPS } from "./accuracy.js";
import { CORPUS_DIR, countLines, typescriptCorpus } from "./corpus.js";
import { timeCommand, type BenchRow } from "./lib.js";
import { extractFacts } from "../src/lang/extract.js";
import { languageForPath } from "../src/lang/registry.js";

function corpusDirs(): [string, string][] {
  const roots = [process.env.EXTRACT_CORPORA ?? "/work/corpora", CORPUS_DIR];
  const out: [string, string][] = [];
  for (const language of Object.keys(SETUPS)) {
    for (const r of roots) {
      const d = join(r, language);
      if (existsSync(d) && statSync(d).isDirectory()) {
        out.push([language, d]);
        break;
      }
    }
  }
  return out;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile() && languageForPath(p)?.id === "typescript") out.push(p);
    }
  };
  visit(dir);
  return out;
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dirs = corpusDirs();
  if (dirs.length === 0) {
    rows.push({ suite: "extract-accuracy", case: "(no corpora)", ours: NaN, note: "no /work/corpora/<language> or .bench-corpus/<language> checkout" });
  }
  for (const [language, dir] of dirs) {
    const r = measureAccuracy(language, dir, 0);
    rows.push({
      suite: "extract-accuracy",
      case: `${language} recall vs ctags`,
      ours: r.recall * 100,
      unit: "%",
      note:
        `recall ${pct(r.recall)} / precision ${pct(r.precision)}; ctags ${r.ctagsDefs}, ours ${r.ourDefs}, matched ${r.matched}, ` +
        `${r.files} files${r.localsLeftOut ? `, ${r.localsLeftOut} ctags locals left out` : ""}` +
        `${r.heuristicLeftOut ? `, ${r.heuristicLeftOut} ctags heuristic tags left out` : ""}` +
        `${r.ctagsErrors ? `, ${r.ctagsErrors} ctags errors (not declarations per the TS parser) left out` : ""}; target recall >= 98%`,
    });
  }

  // Speed: single-thread extraction of the TypeScript corpus, ctags on the same tree.
  const corpus = typescriptCorpus();
  const { files, lines } = countLines(corpus, [".ts"]);
  const ctags = timeCommand("ctags", ["-R", "--output-format=json", "-f", "/dev/null", corpus], { runs: 1, warmup: 0 });
  const paths = tsFiles(corpus);
  const t0 = process.hrtime.bigint();
  let symbols = 0;
  let references = 0;
  for (const p of paths) {
    const bytes = readFileSync(p);
    if (bytes.length > 4 * 1024 * 1024) continue;
    const f = extractFacts("typescript", bytes);
    symbols += f.symbols.length;
    references += f.references.length;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  rows.push({
    suite: "extract-accuracy",
    case: "extractFacts, 1 thread, TS corpus",
    ours: ms,
    peer: "ctags -R --output-format=json",
    peerMs: ctags.medianMs,
    note: `${files} files, ${lines} lines; ${symbols} symbols, ${references} references (ctags: definitions only); informational: the cold-index target is magellan's, on worker threads`,
  });
  return rows;
}
