/**
 * Agreement of magellan's impact graph with dependency-cruiser's resolved edges on the same
 * tree: file -> file edges where both ends are repository files (not node_modules, not core
 * modules, not unresolved). Prints both directions' agreement and every difference, grouped by
 * the specifier's shape, so docs/impact.md can explain them.
 *
 *   node dist/bench/impact-compare.js <root> <magellan db> <depcruise json>
 */
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";

export interface Comparison {
  theirs: number;
  ours: number;
  both: number;
  /** |both| / |theirs| and |both| / |ours|. */
  recall: number;
  precision: number;
  onlyTheirs: string[];
  onlyOurs: string[];
}

interface DcModule {
  source: string;
  dependencies: { resolved: string; couldNotResolve: boolean; coreModule: boolean; dependencyTypes: string[]; module: string }[];
}

export function compare(dbPath: string, depcruiseJson: string): Comparison {
  const dc = JSON.parse(readFileSync(depcruiseJson, "utf8")) as { modules: DcModule[] };
  const db = new Database(dbPath, { readonly: true });
  const indexed = new Set(db.prepare("SELECT path FROM files").pluck().all() as string[]);
  const theirs = new Set<string>();
  const sources = new Set<string>();
  for (const m of dc.modules) {
    if (!indexed.has(m.source)) continue;
    sources.add(m.source);
    for (const d of m.dependencies) {
      if (d.couldNotResolve || d.coreModule || d.resolved.includes("node_modules/") || !indexed.has(d.resolved)) continue;
      if (d.resolved === m.source) continue;
      theirs.add(`${m.source} -> ${d.resolved}`);
    }
  }
  const ours = new Set<string>();
  const rows = db
    .prepare("SELECT DISTINCT s.path AS s, t.path AS t FROM impact_edges e JOIN files s ON s.id = e.source_id JOIN files t ON t.id = e.target_id")
    .all() as { s: string; t: string }[];
  for (const r of rows) if (sources.has(r.s)) ours.add(`${r.s} -> ${r.t}`);
  db.close();
  const both = [...theirs].filter((e) => ours.has(e)).length;
  return {
    theirs: theirs.size,
    ours: ours.size,
    both,
    recall: theirs.size ? both / theirs.size : 1,
    precision: ours.size ? both / ours.size : 1,
    onlyTheirs: [...theirs].filter((e) => !ours.has(e)).sort(),
    onlyOurs: [...ours].filter((e) => !theirs.has(e)).sort(),
  };
}

if (process.argv[1]?.endsWith("impact-compare.js")) {
  const [dbPath, json] = process.argv.slice(2);
  if (!dbPath || !json) throw new Error("usage: impact-compare.js <magellan db> <depcruise json>");
  const c = compare(dbPath, json);
  process.stdout.write(
    `${JSON.stringify({ theirs: c.theirs, ours: c.ours, both: c.both, recall: c.recall, precision: c.precision, onlyTheirs: c.onlyTheirs.length, onlyOurs: c.onlyOurs.length }, null, 2)}\n`,
  );
  for (const e of c.onlyTheirs) process.stdout.write(`only depcruise: ${e}\n`);
  for (const e of c.onlyOurs) process.stdout.write(`only magellan:  ${e}\n`);
}
