/**
 * How often magellan's call targets agree with the TypeScript language service, without and with
 * --precise. Not part of `npm run bench` (it needs a real project and takes its program build):
 *
 *   magellan index --root R
 *   node dist/bench/precise-agreement.js R [--every k]
 *
 * Population: the call references in TS/JS files whose definition, per the language service
 * (getDefinitionAtPosition, the project's tsconfig), is the name of a symbol of the index. For
 * each, magellan agrees when its target is that symbol: the heuristic target from the index, and
 * `callers --symbol-id S --precise` (run in process for every symbol S of the population): the
 * call site must be listed with S as its target. Calls whose definition lies
 * outside the root (libraries, lib.d.ts) or is no indexed symbol (a local, a parameter) are
 * counted apart.
 */
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { PRECISE_EXTENSIONS, PreciseTs, preciseFor } from "../src/graph/precise/typescript.js";
import { refs } from "../src/tools/magellan/queries.js";

const args = process.argv.slice(2);
const root = resolve(args[0] ?? ".");
const every = Number(args[args.indexOf("--every") + 1] ?? 1) || 1;
const db = new Database(join(root, ".magellan", "code.db"), { readonly: true });

const calls = db
  .prepare(
    `SELECT f.path, r.byte_start, r.name, r.target_symbol_id, r.resolution FROM refs r JOIN files f ON f.id = r.file_id
     WHERE r.kind = 'call' ORDER BY f.path, r.byte_start`,
  )
  .all() as { path: string; byte_start: number; name: string; target_symbol_id: string | null; resolution: string }[];
const byNameStart = db.prepare("SELECT s.symbol_id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name_byte_start = ? ORDER BY s.byte_end - s.byte_start LIMIT 1").pluck();

/** per symbol, the call sites the language service ties to it */
const expected = new Map<string, string[]>();
const ls = new PreciseTs(root);
const t0 = Date.now();
const tally = { calls: 0, asked: 0, no_definition: 0, outside_root: 0, not_a_symbol: 0, population: 0, heuristic_agree: 0, precise_agree: 0 };
const byResolution: Record<string, { n: number; agree: number }> = {};
let i = 0;
for (const c of calls) {
  if (!PRECISE_EXTENSIONS.test(c.path)) continue;
  tally.calls++;
  if (i++ % every !== 0) continue;
  tally.asked++;
  const d = ls.definition(c.path, c.byte_start);
  if (!d) {
    tally.no_definition++;
    continue;
  }
  if (d.path === undefined) {
    tally.outside_root++;
    continue;
  }
  const truth = byNameStart.get(d.path, d.byte) as string | undefined;
  if (!truth) {
    tally.not_a_symbol++;
    continue;
  }
  tally.population++;
  const agree = c.target_symbol_id === truth;
  if (agree) tally.heuristic_agree++;
  const b = (byResolution[c.resolution] ??= { n: 0, agree: 0 });
  b.n++;
  if (agree) b.agree++;
  // callers --precise asks the service about the references named like the symbol (and those
  // already tied to it): a call through a renamed import (`import { f as g }`) is not asked.
  const list = (expected.get(truth) ?? []) as string[];
  list.push(`${c.path}:${c.byte_start}`);
  expected.set(truth, list);
}
// --precise as an agent gets it: `callers --symbol-id S --precise` for each symbol, each call site
// the language service ties to S must be listed with S as its target.
const t1 = Date.now();
for (const [sid, sites] of [...expected.entries()].sort()) {
  const a = refs({ root, symbolId: sid, direction: "in", referenceKinds: ["call"], limit: 1_000_000, precise: preciseFor });
  const listed = new Set(
    (a.data.references as { span: { file_path: string; byte_start: number }; target_symbol_id?: string }[])
      .filter((r) => r.target_symbol_id === sid)
      .map((r) => `${r.span.file_path}:${r.span.byte_start}`),
  );
  for (const site of sites) if (listed.has(site)) tally.precise_agree++;
}
const preciseSeconds = (Date.now() - t1) / 1000;
const pct = (a: number, b: number): string => (b === 0 ? "-" : `${((a / b) * 100).toFixed(1)}%`);
process.stdout.write(
  `${JSON.stringify(
    {
      root,
      ...tally,
      heuristic_agreement: pct(tally.heuristic_agree, tally.population),
      precise_agreement: pct(tally.precise_agree, tally.population),
      by_heuristic_resolution: Object.fromEntries(Object.entries(byResolution).map(([k, v]) => [k, `${v.agree}/${v.n} (${pct(v.agree, v.n)})`])),
      seconds: (Date.now() - t0) / 1000,
      precise_callers_seconds: preciseSeconds,
      symbols_asked: expected.size,
    },
    null,
    2,
  )}\n`,
);
