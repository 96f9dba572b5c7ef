/**
 * Graph algorithms as magellan commands: reachable, dead-code, cycles, paths, condense, slice.
 * The symbol graph is loaded from the refs table (an edge per resolved reference made from inside
 * a symbol), the file graph from impact_edges; the algorithms are src/graph/algorithms.ts. Every
 * answer says what its edges rest on (resolution counts, per edge) and which references it could
 * not follow (the gap report of refs/callers/callees, over the nodes it visited).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ToolError } from "../../contract/errors.js";
import type { Diagnostic, Span } from "../../contract/schema.js";
import { type Adjacency, condense as condenseGraph, cyclic, reach, reverse, scc, simplePaths } from "../../graph/algorithms.js";
import { MAGELLAN_CODES } from "../../graph/codes.js";
import type { DB } from "../../graph/db.js";
import type { Statement } from "better-sqlite3";
import { type RefRecord, type SymbolRecord, hasFlag, isDeclaration, isStatic, sameFunction, sameParameterCount, spanOf, symbolById } from "../../graph/read.js";
import { type Answer, type Location, TOOL, withReadDb } from "./common.js";
import { exactSymbols, gapReason, refuseBlankName, unknownName } from "./queries.js";
import { isTestPath } from "../../lang/test-paths.js";

export type EdgeSet = "call" | "all";

interface Node {
  sid: string;
  name: string;
  kind: string;
  kindNormalized: string;
  fqn: string;
  path: string;
  language: string;
  flags: string[];
  parentSid: string | null;
  /** The name qualified by its enclosing scopes (`logger::flush_`): pairs a C/C++ declaration with its definition. */
  scoped: string;
  /** The types a class extends or implements, as written (comma-separated), or null. */
  bases: string | null;
  /** How many arguments a callable takes (`2`, `1-3`, `2+`) where the language has overloads (Java, C++), or null. */
  arity: string | null;
  prefixStart: number;
  nameStart: number;
  span: Span;
}

interface EdgeInfo {
  count: number;
  resolution: Record<string, number>;
  kinds: Record<string, number>;
}

interface SymbolGraph {
  nodes: Node[];
  index: Map<string, number>;
  out: Adjacency;
  edges: Map<string, EdgeInfo>;
  /** targets of resolved references made outside any symbol (module top level) */
  topLevel: Map<number, EdgeInfo>;
  edgeSet: EdgeSet;
}

/**
 * The references the graph could not tie to one symbol, read on demand: every such call, and
 * other references whose name some indexed symbol bears (a read of a parameter `x` is no gap).
 */
function gapQuery(db: DB, edgeSet: EdgeSet, where: string): Statement {
  return db.prepare(
    `SELECT r.id, r.file_id, f.path, r.name, r.kind, r.qualifier, r.caller_symbol_id, c.name AS caller_name, r.byte_start, r.byte_end, r.start_line, r.start_col,
       r.end_line, r.end_col, r.target_symbol_id, NULL AS target_display_fqn, r.resolution, r.candidates
     FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols c ON c.symbol_id = r.caller_symbol_id
     WHERE ${where} AND r.resolution IN ('ambiguous', 'unresolved') ${edgeSet === "call" ? "AND r.kind = 'call'" : ""}
       AND (r.kind = 'call' OR EXISTS (SELECT 1 FROM symbols s2 WHERE s2.name = r.name))`,
  );
}

function byPosition(a: RefRecord, b: RefRecord): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.byte_start - b.byte_start;
}

/**
 * The symbol graph of a database, kept while the database is unchanged: a long-lived process (the
 * daemon, the MCP server, a bench) pays for loading it once, and a query then costs its walk only
 * (loading typeorm's took ~200 ms a query). SQLite's data_version changes when any other
 * connection commits, so an index run in between is never answered from the old graph.
 */
const graphs = new WeakMap<DB, Map<EdgeSet, { version: number; g: SymbolGraph; reversed?: Adjacency; dispatched?: { g: SymbolGraph; reversed?: Adjacency } }>>();

/**
 * The symbol graph; `dispatched()` is it with the edges a run takes through overrides,
 * implementations and C/C++ declarations (dispatchPairs), labelled `dispatch`: reachable, slice
 * and paths walk those, dead-code has its own rules for them and cycles does not follow guesses.
 */
function symbolGraph(db: DB, edgeSet: EdgeSet): { g: SymbolGraph; reversed: () => Adjacency; dispatched: () => { g: SymbolGraph; reversed: () => Adjacency } } {
  const version = db.pragma("data_version", { simple: true }) as number;
  let perDb = graphs.get(db);
  if (!perDb) graphs.set(db, (perDb = new Map()));
  let hit = perDb.get(edgeSet);
  if (!hit || hit.version !== version) {
    hit = { version, g: loadSymbolGraph(db, edgeSet) };
    perDb.set(edgeSet, hit);
  }
  const entry = hit;
  const dispatched = (): { g: SymbolGraph; reversed: () => Adjacency } => {
    const d = (entry.dispatched ??= { g: withDispatch(entry.g) });
    return { g: d.g, reversed: () => (d.reversed ??= reverse(d.g.out)) };
  };
  return { g: entry.g, reversed: () => (entry.reversed ??= reverse(entry.g.out)), dispatched };
}

/** `g` with dispatchPairs' edges added where no reference made one. */
function withDispatch(g: SymbolGraph): SymbolGraph {
  const pairs = dispatchPairs(g).filter(([v, w]) => v !== w);
  if (pairs.length === 0) return g;
  const edges = new Map(g.edges);
  const out = g.out.map((a) => a.slice());
  for (const [v, w] of pairs) {
    const key = `${v},${w}`;
    if (edges.has(key)) continue;
    edges.set(key, { count: 1, resolution: { dispatch: 1 }, kinds: { dispatch: 1 } });
    (out[v] as number[]).push(w);
  }
  for (const a of out) a.sort((x, y) => x - y);
  return { ...g, out, edges };
}

/** The node of `n`'s enclosing symbol, if the graph has it. */
function parentOf(g: SymbolGraph, n: Node): number | undefined {
  return n.parentSid === null ? undefined : g.index.get(n.parentSid);
}

function loadSymbolGraph(db: DB, edgeSet: EdgeSet): SymbolGraph {
  const rows = db
    .prepare(
      `SELECT s.symbol_id, s.name, s.kind, s.kind_normalized, s.display_fqn, f.path, s.language, s.flags, s.parent_symbol_id, s.scoped_name, s.bases, s.arity, s.name_byte_start,
        s.byte_start, s.byte_end, s.start_line, s.start_col, s.end_line, s.end_col
       FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.byte_start, s.id`,
    )
    .all() as Record<string, unknown>[];
  const nodes: Node[] = rows.map((r) => ({
    sid: r.symbol_id as string,
    name: r.name as string,
    kind: r.kind as string,
    kindNormalized: r.kind_normalized as string,
    fqn: r.display_fqn as string,
    path: r.path as string,
    language: r.language as string,
    flags: r.flags ? (r.flags as string).split(",") : [],
    parentSid: (r.parent_symbol_id as string | null) ?? null,
    scoped: r.scoped_name as string,
    bases: (r.bases as string | null) ?? null,
    arity: (r.arity as string | null) ?? null,
    prefixStart: r.byte_start as number,
    nameStart: r.name_byte_start as number,
    span: spanOf(r.path as string, r as never),
  }));
  const index = new Map(nodes.map((n, i) => [n.sid, i]));
  const kindFilter = edgeSet === "call" ? "AND r.kind = 'call'" : "";
  const refs = db
    .prepare(
      `SELECT r.caller_symbol_id AS c, r.target_symbol_id AS t, r.kind, r.resolution FROM refs r JOIN files f ON f.id = r.file_id
       WHERE r.target_symbol_id IS NOT NULL AND r.resolution NOT IN ('ambiguous', 'unresolved') ${kindFilter} ORDER BY f.path, r.byte_start`,
    )
    .raw()
    .all() as [string | null, string, string, string][];
  const sets: Set<number>[] = nodes.map(() => new Set());
  const edges = new Map<string, EdgeInfo>();
  const topLevel = new Map<number, EdgeInfo>();
  const bump = (e: EdgeInfo, kind: string, res: string): void => {
    e.count++;
    e.resolution[res] = (e.resolution[res] ?? 0) + 1;
    e.kinds[kind] = (e.kinds[kind] ?? 0) + 1;
  };
  for (const [c, t, kind, res] of refs) {
    const w = index.get(t);
    if (w === undefined) continue;
    if (c === null) {
      let e = topLevel.get(w);
      if (!e) topLevel.set(w, (e = { count: 0, resolution: {}, kinds: {} }));
      bump(e, kind, res);
      continue;
    }
    const v = index.get(c);
    if (v === undefined) continue;
    (sets[v] as Set<number>).add(w);
    const key = `${v},${w}`;
    let e = edges.get(key);
    if (!e) edges.set(key, (e = { count: 0, resolution: {}, kinds: {} }));
    bump(e, kind, res);
  }
  const out = sets.map((s) => [...s].sort((a, b) => a - b));
  return { nodes, index, out, edges, topLevel, edgeSet };
}

function nodeOut(n: Node): Record<string, unknown> {
  return { symbol_id: n.sid, name: n.name, kind: n.kind, display_fqn: n.fqn, span: n.span };
}

/** Languages whose files of one directory are alternatives picked at build time (`_windows.go`, `//go:build`, `#ifdef`'d sources). */
const BUILD_VARIANT_LANGUAGES = new Set(["go", "c", "cpp", "rust"]);
/**
 * Languages without overloads: two same-named definitions in one scope of one file are
 * alternatives too, in C++ when they take as many arguments (`#ifdef _WIN32 ... #else ...`, Rust's `#[cfg(target_os = "macos")] fn f()`
 * beside `#[cfg(not(...))] fn f()`: bat's macOS `color_scheme_from_system` was reported dead).
 */
const SAME_FILE_VARIANT_LANGUAGES = new Set(["c", "rust", "cpp"]);

/**
 * What `starts` reach, where a symbol that is live makes its build variants live too: the
 * same-named definitions, in the same scope, of other files of its directory (cobra's
 * `preExecHookFn` in command_win.go and command_notwin.go). A reference is tied to one of them,
 * and the others would be reported dead although another build uses them. The variants and their
 * edges are read once; the function returned reaches from any starts (dead-code asks again as its
 * rules add entries).
 */
function variantReach(db: DB, g: SymbolGraph): (starts: number[]) => Map<number, number> {
  const variants = new Map<string, number[]>();
  const pythonVariant = new Set<string>();
  g.nodes.forEach((n) => {
    // Python's are a definition's alternatives in the branches of an `if` or a `try` (flag
    // `variant`), in one file.
    if (n.language === "python" && n.flags.includes("variant")) pythonVariant.add(`${n.path}\u0000${n.fqn}\u0000${n.kindNormalized}`);
  });
  g.nodes.forEach((n, v) => {
    if (n.language === "python") {
      const key = `${n.path}\u0000${n.fqn}\u0000${n.kindNormalized}`;
      if (pythonVariant.has(key)) variants.set(key, [...(variants.get(key) ?? []), v]);
      return;
    }
    if (!BUILD_VARIANT_LANGUAGES.has(n.language)) return;
    const dir = n.path.includes("/") ? n.path.slice(0, n.path.lastIndexOf("/")) : "";
    // (C++'s overloads differ in their parameters: `#ifdef`'d alternatives take as many.)
    const key = `${dir}\u0000${n.fqn}\u0000${n.kindNormalized}${n.language === "cpp" ? `\u0000${n.arity}` : ""}`;
    const list = variants.get(key);
    if (list) list.push(v);
    else variants.set(key, [v]);
  });
  for (const [k, list] of variants) {
    const first = g.nodes[list[0] as number] as Node;
    if (list.length < 2 || (!SAME_FILE_VARIANT_LANGUAGES.has(first.language) && first.language !== "python" && new Set(list.map((v) => (g.nodes[v] as Node).path)).size < 2)) variants.delete(k);
  }
  const keyOf = new Map<number, string>();
  for (const [k, list] of variants) for (const v of list) keyOf.set(v, k);
  // A use left ambiguous between build variants only (`hookFn()` with two `var hookFn`) uses them all.
  let out = g.out;
  if (keyOf.size > 0) {
    const rows = db
      .prepare(
        `SELECT r.caller_symbol_id, r.candidates FROM refs r JOIN files f ON f.id = r.file_id WHERE r.resolution = 'ambiguous' AND r.candidates IS NOT NULL
         AND r.caller_symbol_id IS NOT NULL AND f.language IN (${[...BUILD_VARIANT_LANGUAGES].map((l) => `'${l}'`).join(", ")})`,
      )
      .raw()
      .all() as [string, string][];
    for (const [caller, candidates] of rows) {
      const from = g.index.get(caller);
      const to = (JSON.parse(candidates) as string[]).map((c) => g.index.get(c));
      const key = to[0] === undefined ? undefined : keyOf.get(to[0]);
      if (from === undefined || key === undefined || to.some((t) => t === undefined || keyOf.get(t) !== key)) continue;
      if (out === g.out) out = g.out.map((a) => a.slice());
      for (const t of to) (out[from] as number[]).push(t as number);
    }
  }
  return (starts) => {
    let live = reach(out, starts).depth;
    for (let round = 0; round < 8 && keyOf.size > 0; round++) {
      const more: number[] = [];
      for (const v of live.keys()) {
        const k = keyOf.get(v);
        if (k === undefined) continue;
        for (const w of variants.get(k) ?? []) if (!live.has(w)) more.push(w);
      }
      if (more.length === 0) break;
      live = reach(out, [...live.keys(), ...more]).depth;
    }
    return live;
  };
}

function ambiguous(spec: string, rows: SymbolRecord[]): ToolError {
  const shown = rows.slice(0, 10).map((s) => `${s.display_fqn} (${s.kind}, ${s.path}:${s.start_line}, symbol_id ${s.symbol_id})`);
  // The example is one with a body (a stub reaches nothing), and a qualified name is offered only
  // when it names that one alone: click's three `Command.main` share theirs, and an agent passing
  // it back got the same refusal.
  const example = rows.find((s) => !isOverloadStub(s)) ?? (rows[0] as SymbolRecord);
  const unique = rows.filter((s) => s.display_fqn === example.display_fqn).length === 1;
  return new ToolError({
    code: MAGELLAN_CODES.ambiguous_name,
    error: "ambiguous_name",
    message: `'${spec}' names ${rows.length} symbols: ${shown.join("; ")}${rows.length > shown.length ? "; ..." : ""}`,
    remediation: unique
      ? `Pass one of their symbol_ids (e.g. ${example.symbol_id}) or a qualified name (e.g. '${example.display_fqn}').`
      : `Pass one of their symbol_ids (e.g. ${example.symbol_id}, ${example.path}:${example.start_line}); their qualified names are alike.`,
  });
}

/** A TypeScript overload signature or a Python `@overload` stub: its implementation holds the code. */
function isOverloadStub(s: SymbolRecord): boolean {
  return hasFlag(s, "overload");
}

/** A symbol named by symbol_id, qualified name or plain name; more than one is an error listing them. */
export function resolveSymbol(db: DB, spec: string): SymbolRecord {
  refuseBlankName(spec);
  if (/^[0-9a-fA-F]{16}$/.test(spec)) {
    const s = symbolById(db, spec.toLowerCase());
    if (s) return s;
  }
  const rows = exactSymbols(db, spec, undefined, 1000);
  if (rows.length === 0) throw unknownName(db, spec);
  if (rows.length === 1) return rows[0] as SymbolRecord;
  // A function's overload stubs are no other function: the one body among them is what runs
  // (click's `Command.main`, two `@t.overload` stubs and the implementation).
  const bodies = rows.filter((s) => !isOverloadStub(s));
  if (bodies.length === 1) return bodies[0] as SymbolRecord;
  // So is a C/C++ function's declaration (a header's prototype, a class body's) beside its one
  // definition: the graph leads the declaration to it. leveldb's `paths --from DB::Open` and
  // every method declared in db_impl.h and defined in db_impl.cc were refused, their qualified
  // names alike, leaving only symbol_ids.
  const defined = bodies.filter((s) => !isDeclaration(s));
  const only = defined.length === 1 ? (defined[0] as SymbolRecord) : undefined;
  if (only && bodies.every((s) => s === only || sameFunction(db, s).some((h) => h.symbol_id === only.symbol_id))) return only;
  throw ambiguous(spec, rows);
}

function usage(message: string, remediation: string): ToolError {
  return new ToolError({ code: MAGELLAN_CODES.usage, error: "invalid_arguments", message, remediation, exitCode: 2 });
}

/** What the answer's edges rest on: counts by resolution label over the listed edges, and each edge. */
function evidence(g: SymbolGraph, pairs: [number, number][], limit: number): { report: Record<string, unknown>; cut: boolean } {
  const by: Record<string, number> = {};
  const sorted = [...pairs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const edges: Record<string, unknown>[] = [];
  for (const [v, w] of sorted) {
    const e = g.edges.get(`${v},${w}`);
    if (!e) continue;
    for (const [k, n] of Object.entries(e.resolution)) by[k] = (by[k] ?? 0) + n;
    if (edges.length < limit) {
      edges.push({ from: (g.nodes[v] as Node).sid, to: (g.nodes[w] as Node).sid, count: e.count, resolution: e.resolution, kinds: e.kinds });
    }
  }
  return { report: { by_resolution: by, edge_count: sorted.length, edges }, cut: sorted.length > limit };
}

/** Edges among a set of nodes (both ends in it). */
function edgesWithin(g: SymbolGraph, set: Set<number>): [number, number][] {
  const pairs: [number, number][] = [];
  for (const v of [...set].sort((a, b) => a - b)) for (const w of g.out[v] ?? []) if (set.has(w)) pairs.push([v, w]);
  return pairs;
}

/**
 * The references the answer could not follow. Forward: those made from inside a visited symbol.
 * Backward: those that name a visited symbol and were tied to none (they may be uses of it).
 */
function gapsOf(db: DB, g: SymbolGraph, visited: Set<number>, direction: "forward" | "backward", samples: number): Record<string, unknown> {
  const list: RefRecord[] = [];
  if (direction === "forward") {
    const st = gapQuery(db, g.edgeSet, "r.caller_symbol_id = ?");
    for (const sid of new Set([...visited].map((v) => (g.nodes[v] as Node).sid))) list.push(...(st.all(sid) as RefRecord[]));
  } else {
    const st = gapQuery(db, g.edgeSet, "r.name = ?");
    for (const name of new Set([...visited].map((v) => (g.nodes[v] as Node).name))) list.push(...(st.all(name) as RefRecord[]));
  }
  return gapSummary(db, list.sort(byPosition), samples);
}

function gapSummary(db: DB, list: RefRecord[], samples: number): Record<string, unknown> {
  const byReason: Record<string, number> = {};
  const out: Record<string, unknown>[] = [];
  // Why a reference is a gap depends on its file's imports and its name or qualifier's head.
  const memo = new Map<string, string>();
  for (const r of list) {
    const key = `${r.file_id}\0${r.resolution}\0${r.kind}\0${r.qualifier ?? ""}\0${r.qualifier ? "" : r.name}`;
    let reason = memo.get(key);
    if (reason === undefined) memo.set(key, (reason = gapReason(db, r)));
    byReason[reason] = (byReason[reason] ?? 0) + 1;
    if (out.length < samples) {
      const s: Record<string, unknown> = { span: spanOf(r.path, r), name: r.name, reference_kind: r.kind, reason };
      if (r.qualifier) s.qualifier = r.qualifier;
      if (r.caller_name) s.caller = r.caller_name;
      out.push(s);
    }
  }
  return { count: list.length, by_reason: byReason, samples: out };
}

function gapWarning(u: Record<string, unknown>, what: string): Diagnostic[] {
  const count = u.count as number;
  if (count === 0) return [];
  const by = Object.entries(u.by_reason as Record<string, number>)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  return [
    {
      tool: TOOL,
      level: "warning",
      code: MAGELLAN_CODES.unresolved_references,
      message: `${count} references ${what} could not be followed (${by}): the answer may be incomplete (see data.unresolved)`,
      remediation: "Read data.unresolved.samples; each names the reason. Search the text (llmsearch) for a name to see every use.",
    },
  ];
}

function note(message: string): Diagnostic {
  return { tool: TOOL, level: "note", code: MAGELLAN_CODES.no_matches, message };
}

/** What a cut evidence list left out (an answer that is partial says why). */
function evidenceCut(ev: { report: Record<string, unknown>; cut: boolean }, limit: number): Diagnostic[] {
  return ev.cut ? [note(`evidence.edges lists ${limit} of the ${ev.report.edge_count as number} edges; raise --limit to see them all`)] : [];
}

export interface GraphRequest extends Location {
  edges?: EdgeSet;
  limit?: number;
  gapSamples?: number;
}

export interface ReachRequest extends GraphRequest {
  symbol: string;
  /** forward: what the symbol reaches; backward: what reaches it */
  direction: "forward" | "backward";
  maxDepth?: number;
}

function reachAnswer(req: ReachRequest): Answer<Record<string, unknown>> {
  return withReadDb(req, (db) => {
    const s = resolveSymbol(db, req.symbol);
    const edgeSet = req.edges ?? "all";
    const { g, reversed } = symbolGraph(db, edgeSet).dispatched();
    const start = g.index.get(s.symbol_id) as number;
    const adj = req.direction === "forward" ? g.out : reversed();
    const r = reach(adj, [start], req.maxDepth ?? Infinity);
    const limit = req.limit ?? 1000;
    const reached = [...r.depth.entries()].filter(([v]) => v !== start).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const set = new Set(r.depth.keys());
    const ev = evidence(g, edgesWithin(g, set), limit);
    const unresolved = gapsOf(db, g, set, req.direction, req.gapSamples ?? 5);
    const partial = r.cut || reached.length > limit || ev.cut;
    const diagnostics: Diagnostic[] = [...gapWarning(unresolved, req.direction === "forward" ? "made from the symbols reached" : "named like the symbols reached")];
    if (reached.length === 0) diagnostics.push(note(req.direction === "forward" ? "the symbol refers to no indexed symbol" : "no indexed symbol refers to this one"));
    if (r.cut) diagnostics.push(note(`stopped at --max-depth ${req.maxDepth}; more symbols lie beyond`));
    if (reached.length > limit) diagnostics.push(note(`more than ${limit} symbols; raise --limit to see more`));
    diagnostics.push(...evidenceCut(ev, limit));
    const data: Record<string, unknown> = {
      symbol: nodeOut(g.nodes[start] as Node),
      direction: req.direction,
      edges: edgeSet,
      count: reached.length,
      symbols: reached.slice(0, limit).map(([v, d]) => ({ ...nodeOut(g.nodes[v] as Node), depth: d })),
      evidence: ev.report,
      unresolved,
    };
    if (req.maxDepth !== undefined) data.max_depth = req.maxDepth;
    return { data, diagnostics, partial };
  });
}

export function reachable(req: Omit<ReachRequest, "direction"> & { reverse?: boolean }): Answer<Record<string, unknown>> {
  return reachAnswer({ ...req, direction: req.reverse ? "backward" : "forward" });
}

export function slice(req: ReachRequest): Answer<Record<string, unknown>> {
  return reachAnswer(req);
}

const REPORTED = new Set(["fn", "method", "class"]);
const HEADER = /\.(h|hh|hpp|hxx)$/;

/**
 * Rust attributes under which a harness or the runtime calls a function: tests (`#[test]`,
 * `#[tokio::test]`, `#[async_std::test]`, `#[wasm_bindgen_test]`, `#[test_case(..)]`, rstest's
 * `#[rstest]`, rstest_reuse's `#[template]` and `#[apply(..)]`), benches, async mains
 * (`#[tokio::main]`), and symbols exported by name (`#[no_mangle]`, `#[export_name = ..]`).
 * (zoxide's 21 `#[apply(opts)]` shell tests and its `#[rstest]` query test were dead code.)
 */
const RUST_ENTRY_ATTRIBUTE =
  /#\[[ \t]*(?:[A-Za-z_]\w*[ \t]*::[ \t]*)*(?:test|\w+_test|test_case|rstest|template|apply|bench|main|no_mangle|export_name)\b/;

/**
 * Why a symbol is an entry point, or undefined. The rules (docs/graph.md): code that others
 * outside the repository may call (exported API per language), program entries (main), tests,
 * and code a framework calls (decorated or annotated definitions, Python dunder methods).
 */
function entryRule(n: Node, g: SymbolGraph, text: (path: string) => Buffer, packages: Set<string>, headerNames: () => Set<string>): string | undefined {
  if (isTestPath(n.path)) return "test";
  if (n.name === "main" && (n.kindNormalized === "fn" || n.kindNormalized === "method")) return "main";
  if (n.flags.includes("exported") || n.flags.includes("default_export")) return "exported";
  const at = parentOf(g, n);
  const parent = at === undefined ? undefined : g.nodes[at];
  const prefix = (): string => text(n.path).subarray(n.prefixStart, n.nameStart).toString("utf8");
  switch (n.language) {
    case "python": {
      if (/^__\w+__$/.test(n.name)) return "framework";
      if (prefix().trimStart().startsWith("@")) return "framework";
      const dir = n.path.includes("/") ? n.path.slice(0, n.path.lastIndexOf("/")) : "";
      const publicName = !n.name.startsWith("_");
      if (packages.has(dir) && publicName && (parent === undefined || (parent.parentSid === null && parent.kindNormalized === "class" && !parent.name.startsWith("_")))) return "exported";
      return undefined;
    }
    case "go":
      if (n.name === "init" && parent === undefined) return "main";
      // `func _() { var x [1]struct{}; _ = x[A-0] }`, which stringer writes beside every enum, is a
      // compile-time check: no code can call it, and deleting it drops the check (fzf's only two
      // dead-code findings were its two).
      if (n.name === "_" && n.kindNormalized === "fn") return "main";
      return /^[A-Z]/.test(n.name) ? "exported" : undefined;
    case "rust": {
      // Attributes stand before the item's span (tree-sitter's attribute_item is its sibling):
      // what follows the previous item's end (`}`, `;`, the enclosing `{`), comments, multi-line
      // attributes and all (rstest's `#[rstest]` then a `#[case(..)]` per line, with comments).
      const before = text(n.path).subarray(Math.max(0, n.prefixStart - 8192), n.prefixStart).toString("utf8");
      const attributes = before.slice(Math.max(before.lastIndexOf("}"), before.lastIndexOf(";"), before.lastIndexOf("{")) + 1);
      if (RUST_ENTRY_ATTRIBUTE.test(prefix() + attributes)) return "framework";
      return /\bpub\b/.test(prefix()) ? "exported" : undefined;
    }
    case "java": {
      const p = prefix();
      if (/@\w+/.test(p)) return "framework";
      return /\bpublic\b/.test(p) ? "exported" : undefined;
    }
    case "c":
    case "cpp":
      // A destructor runs when its object goes.
      if (n.name.startsWith("~")) return "framework";
      if (HEADER.test(n.path)) return "exported";
      // `int file::write(...) {}` outside its class (fmt's os.cc): a member of a class a header
      // declares, as much the API as one defined there. (Its parent is in another file, so the
      // index links none.)
      if (n.language === "cpp" && n.kindNormalized === "method" && parent === undefined) return "exported";
      // A function with external linkage that a header of the repository declares is the API of
      // the library it belongs to (libuv's `uv_hrtime` in src/unix/core.c, declared in
      // include/uv.h: 885 of libuv's functions were reported dead). Prototypes are no symbols:
      // the headers' text says which names they declare.
      if (n.kindNormalized === "fn" && parent === undefined && !/\bstatic\b/.test(prefix()) && headerNames().has(n.name)) return "exported";
      return undefined;
    default: {
      // TypeScript/JavaScript: `export` flags above; decorators are a framework's registration.
      const p = prefix();
      if (/^\s*@/.test(p)) return "framework";
      // A function assigned to another module's object at the top level
      // (`core.globalConfig.postProcessor = (inst) => {...}` in zod's compile.ts) is handed over
      // when the module loads, and called by whoever reads the property.
      if (parent === undefined && n.kindNormalized === "fn" && /\.\s*$/.test(p)) return "top_level_reference";
      // A method or field of an exported class that is not private is the module's API, as a Java `public`
      // method or a Python public class's: its callers hold instances the index cannot follow
      // (drizzle-orm: 1,544 such methods reported dead, SQLiteDeleteBase.where among them).
      const exportedClass = parent !== undefined && parent.kindNormalized === "class" && (parent.flags.includes("exported") || parent.flags.includes("default_export"));
      if ((n.kindNormalized === "method" || n.kindNormalized === "field") && exportedClass && !n.name.startsWith("#") && !/\bprivate\b/.test(p)) return "exported";
      return undefined;
    }
  }
}

const OBJECT_LANGUAGES = new Set(["typescript", "tsx", "javascript"]);
const MEMBER_OWNERS = new Set(["class", "interface", "struct", "enum", "trait", "type"]);
const HOLDERS = new Set(["const", "var", "field", "static"]);
const CODE_KINDS = new Set(["fn", "method", "ctor"]);
type HeldRule = "object_literal" | "initializer" | "constructor" | "nested";

/**
 * Symbols that live where the code holding them does, each with the rule and the node that holds
 * it (undefined: a module's top level): a TS/JS object literal's methods (`bench("a", { first:
 * (t) => t + 1 })`, `return { onClick() {} }`), a TS/JS function in a variable's initializer
 * (`const Table = observer(function Table() {...})`), a constructor in its class, a function
 * nested in another.
 */
function heldSymbols(g: SymbolGraph): Map<number, { rule: HeldRule; holder: number | undefined }> {
  const out = new Map<number, { rule: HeldRule; holder: number | undefined }>();
  g.nodes.forEach((n, v) => {
    const p = parentOf(g, n);
    const pk = p === undefined ? undefined : (g.nodes[p] as Node).kindNormalized;
    if (n.kindNormalized === "ctor") {
      if (p !== undefined && pk !== undefined && MEMBER_OWNERS.has(pk)) out.set(v, { rule: "constructor", holder: p });
      return;
    }
    // A function defined in another that it does not call by name (which would be an edge) is
    // handed on as a value: returned (a decorator's wrapper, a middleware factory's middleware)
    // or passed as a callback.
    if (n.kindNormalized === "fn" && p !== undefined && pk !== undefined && CODE_KINDS.has(pk)) {
      out.set(v, { rule: "nested", holder: p });
      return;
    }
    if (!OBJECT_LANGUAGES.has(n.language)) return;
    if (n.kindNormalized === "method" && (pk === undefined || !MEMBER_OWNERS.has(pk))) out.set(v, { rule: "object_literal", holder: p });
    else if (n.kindNormalized === "fn" && pk !== undefined && HOLDERS.has(pk)) out.set(v, { rule: "initializer", holder: p });
  });
  return out;
}

/**
 * Each method or constructor with an arity, and the others of its class and name that a call of
 * some argument count fits as well: a call is tied to the first that fits, so a varargs
 * `get(ClassName, TypeName...)` takes javapoet's two-argument `get(type, map)` calls too.
 */
function overloadSiblings(g: SymbolGraph): Map<number, number[]> {
  const groups = new Map<string, number[]>();
  g.nodes.forEach((n, v) => {
    if (n.arity === null || n.parentSid === null || (n.kindNormalized !== "method" && n.kindNormalized !== "ctor")) return;
    const key = `${n.parentSid}\0${n.name}`;
    groups.set(key, [...(groups.get(key) ?? []), v]);
  });
  const range = (a: string): [number, number] => {
    const m = /^(\d+)(?:-(\d+)|(\+))?$/.exec(a);
    if (!m) return [0, Infinity];
    const lo = Number(m[1]);
    return [lo, m[3] ? Infinity : m[2] !== undefined ? Number(m[2]) : lo];
  };
  const out = new Map<number, number[]>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    for (const v of group) {
      const [lo, hi] = range((g.nodes[v] as Node).arity as string);
      const fits = group.filter((w) => {
        if (w === v) return false;
        const [wlo, whi] = range((g.nodes[w] as Node).arity as string);
        return Math.max(lo, wlo) <= Math.min(hi, whi);
      });
      if (fits.length > 0) out.set(v, fits);
    }
  }
  return out;
}

const CLASS_KINDS = new Set(["class", "interface", "trait", "struct"]);
/** Bases that add no method a caller dispatches to (Python's `object`, `Generic[T]`): naming one overrides nothing. */
const ROOT_BASES = new Set(["object", "Object", "Generic"]);

/** The class a base names as written (`pkg.Base[T]`, `ns::Base<int>`: Base). */
function writtenBaseName(written: string): string {
  return written.trim().replace(/[<[(].*$/, "").split(/\.|::/).pop() ?? "";
}

/** The graph's classes, interfaces, traits and structs by name. */
function classesByName(g: SymbolGraph): Map<string, number[]> {
  const classes = new Map<string, number[]>();
  g.nodes.forEach((n, v) => {
    if (CLASS_KINDS.has(n.kindNormalized)) classes.set(n.name, [...(classes.get(n.name) ?? []), v]);
  });
  return classes;
}

/**
 * Methods that override one of a base's (a method of that name in a class it extends, directly
 * or not) or may (a base the repository does not declare), or implement a Rust trait's, each
 * with its class's node (undefined: a type the repository does not declare).
 */
function overridingMethods(g: SymbolGraph): Map<number, number | undefined> {
  const classes = classesByName(g);
  const enums = new Map<string, number[]>();
  const methods = new Map<number, Set<string>>();
  g.nodes.forEach((n, v) => {
    if (n.kindNormalized === "enum") enums.set(n.name, [...(enums.get(n.name) ?? []), v]);
    const p = n.kindNormalized === "method" && !isStatic(n) ? parentOf(g, n) : undefined;
    if (p !== undefined) methods.set(p, (methods.get(p) ?? new Set()).add(n.name));
  });
  const above = new Map<number, { names: Set<string>; external: boolean }>();
  const ancestry = (c: number): { names: Set<string>; external: boolean } => {
    const known = above.get(c);
    if (known) return known;
    const out = { names: new Set<string>(), external: false };
    above.set(c, out); // (a cycle of bases ends here)
    for (const written of (g.nodes[c] as Node).bases?.split(",") ?? []) {
      const name = writtenBaseName(written);
      if (name === "" || ROOT_BASES.has(name)) continue;
      const found = (classes.get(name) ?? []).filter((b) => b !== c);
      if (found.length === 0) out.external = true;
      for (const b of found) {
        for (const m of methods.get(b) ?? []) out.names.add(m);
        const up = ancestry(b);
        for (const m of up.names) out.names.add(m);
        if (up.external) out.external = true;
      }
    }
    return out;
  };
  const out = new Map<number, number | undefined>();
  goImplementations(g, classes, out);
  g.nodes.forEach((n, v) => {
    const c = n.kindNormalized === "method" && !isStatic(n) ? parentOf(g, n) : undefined;
    if (c === undefined) return;
    const owner = g.nodes[c] as Node;
    // Rust: a method of `impl Read for Input` implements the trait's, called through it; it
    // lives while Input does (a type the repository does not declare, `u8`: always).
    const traitImpl = owner.kindNormalized === "impl" ? /^<(.+) as .+>$/.exec(owner.name) : null;
    if (traitImpl) {
      const self = (traitImpl[1] as string).replace(/<.*$/, "").split("::").pop() ?? "";
      out.set(v, (classes.get(self) ?? []).concat(enums.get(self) ?? [])[0]);
      return;
    }
    if (!CLASS_KINDS.has(owner.kindNormalized)) return;
    const a = ancestry(c);
    if (a.external || a.names.has(n.name)) out.set(v, c);
  });
  return out;
}

/**
 * Go: a method that implements an interface of the repository (its type has every method the
 * interface names, or embeds types that may bring the others) is called through the interface,
 * `requiredArg.required()` on a `requiredArgument` (urfave/cli's ArgumentBase.required and
 * FlagBase.setMultiValueParsingConfig were reported dead); it lives while its type does. Go
 * methods are declared outside their type, so the index links no parent: the type is the
 * second-to-last segment of the method's display_fqn, found in the method's directory.
 */
function goImplementations(g: SymbolGraph, classes: Map<string, number[]>, out: Map<number, number | undefined>): void {
  for (const m of goMethods(g, classes)) if (m.embeds || m.satisfies.length > 0) out.set(m.v, m.owner);
}

interface GoMethod {
  v: number;
  /** Its type's node (undefined: not found in the method's directory). */
  owner: number | undefined;
  /** The type embeds others, which may bring an interface's other methods. */
  embeds: boolean;
  /** The interfaces of the repository naming the method whose every method the type has. */
  satisfies: number[];
}

/** Go methods whose name an interface of the repository names (see goImplementations). */
function goMethods(g: SymbolGraph, classes: Map<string, number[]>): GoMethod[] {
  const dirOf = (p: string): string => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");
  const interfaces = new Map<number, Set<string>>();
  const typeMethods = new Map<string, Set<string>>();
  const mine: { v: number; type: string; key: string }[] = [];
  g.nodes.forEach((n, v) => {
    if (n.language !== "go" || n.kindNormalized !== "method") return;
    const p = parentOf(g, n);
    if (p !== undefined && (g.nodes[p] as Node).kindNormalized === "interface") {
      interfaces.set(p, (interfaces.get(p) ?? new Set()).add(n.name));
      return;
    }
    const parts = n.fqn.split(".");
    const type = parts.length >= 2 ? (parts[parts.length - 2] as string) : "";
    if (type === "") return;
    const key = `${dirOf(n.path)}\0${type}`;
    typeMethods.set(key, (typeMethods.get(key) ?? new Set()).add(n.name));
    mine.push({ v, type, key });
  });
  if (interfaces.size === 0) return [];
  const byName = new Map<string, number[]>();
  for (const [i, names] of interfaces) for (const m of names) byName.set(m, [...(byName.get(m) ?? []), i]);
  const out: GoMethod[] = [];
  for (const { v, type, key } of mine) {
    const n = g.nodes[v] as Node;
    const named = byName.get(n.name);
    if (!named) continue;
    const dir = dirOf(n.path);
    const owner = (classes.get(type) ?? []).find((c) => dirOf((g.nodes[c] as Node).path) === dir);
    const embeds = owner !== undefined && !!(g.nodes[owner] as Node).bases;
    const has = typeMethods.get(key) as Set<string>;
    out.push({ v, owner, embeds, satisfies: named.filter((i) => [...(interfaces.get(i) as Set<string>)].every((m) => has.has(m))) });
  }
  return out;
}

/** Names of constructors, which a call runs for the class it names (see dispatchPairs). */
const CONSTRUCTOR_NAMES = new Set(["__init__", "__new__", "constructor"]);

/**
 * The edges a run takes that no reference shows, as (from, to) pairs: a call tied to a method of
 * a class may run an override, the method of that name in any class below it that declares one
 * (the nearest on each branch; those below it are its own), and a call tied to an interface's or
 * a trait's method runs its implementations (requests' `adapter.send(...)` is tied to
 * BaseAdapter.send: HTTPAdapter.send, the code that runs, was reached by nothing). A C/C++
 * function declared in one place and defined in another is one function: its declaration
 * (which most calls are tied to) leads to its definitions (see read.ts's sameFunction). Bases
 * are matched by name, in the same language; a Go type implements an interface when it has every
 * method the interface names.
 */
function dispatchPairs(g: SymbolGraph): [number, number][] {
  const classes = classesByName(g);
  const members = new Map<number, Map<string, number[]>>();
  const traitImpls = new Map<string, number[]>();
  const byScoped = new Map<string, number[]>();
  g.nodes.forEach((n, v) => {
    const trait = n.kindNormalized === "impl" ? /^<.+ as (.+)>$/.exec(n.name) : null;
    if (trait) {
      const name = (trait[1] as string).replace(/<.*$/, "").split("::").pop() as string;
      traitImpls.set(name, [...(traitImpls.get(name) ?? []), v]);
    }
    const p = n.kindNormalized === "method" && !isStatic(n) ? parentOf(g, n) : undefined;
    if (p !== undefined) {
      let m = members.get(p);
      if (!m) members.set(p, (m = new Map()));
      m.set(n.name, [...(m.get(n.name) ?? []), v]);
    }
    if ((n.language === "cpp" || n.language === "c") && ["fn", "method"].includes(n.kindNormalized)) {
      const key = `${n.scoped}\0${n.kindNormalized}`;
      byScoped.set(key, [...(byScoped.get(key) ?? []), v]);
    }
  });
  const below = new Map<number, number[]>();
  g.nodes.forEach((n, d) => {
    if (!CLASS_KINDS.has(n.kindNormalized) || !n.bases) return;
    for (const written of n.bases.split(",")) {
      const name = writtenBaseName(written);
      if (name === "" || ROOT_BASES.has(name)) continue;
      for (const b of classes.get(name) ?? []) if (b !== d && (g.nodes[b] as Node).language === n.language) below.set(b, [...(below.get(b) ?? []), d]);
    }
  });
  const pairs: [number, number][] = [];
  for (const [c, names] of members) {
    const owner = g.nodes[c] as Node;
    // A Rust trait's methods run as its impls'.
    const downs = owner.kindNormalized === "trait" ? (traitImpls.get(owner.name) ?? []) : (below.get(c) ?? []);
    if (downs.length === 0) continue;
    for (const [name, ms] of names) {
      // A constructor runs for the class a call names (`Base.__init__(self)`, `super().__init__()`
      // run the base's own): no dispatch, or every subclass's would follow each super call.
      if (CONSTRUCTOR_NAMES.has(name)) continue;
      const targets: number[] = [];
      const seen = new Set<number>([c]);
      const stack = [...downs];
      while (stack.length > 0) {
        const d = stack.pop() as number;
        if (seen.has(d)) continue;
        seen.add(d);
        const own = members.get(d)?.get(name);
        if (own) targets.push(...own);
        else stack.push(...(below.get(d) ?? []));
      }
      for (const m of ms) for (const t of targets) pairs.push([m, t]);
    }
  }
  for (const m of goMethods(g, classes)) {
    for (const i of m.satisfies) for (const im of members.get(i)?.get((g.nodes[m.v] as Node).name) ?? []) pairs.push([im, m.v]);
  }
  // (A definition out of its class, `void logger::flush_() {...}`, has no parent: its calls are
  // dispatched as its declaration's.)
  const dispatched = new Map<number, number[]>();
  for (const [m, t] of pairs) dispatched.set(m, [...(dispatched.get(m) ?? []), t]);
  for (const list of byScoped.values()) {
    if (list.length < 2) continue;
    for (const d of list) {
      const decl = g.nodes[d] as Node;
      if (!decl.flags.includes("declaration")) continue;
      for (const f of list) {
        const def = g.nodes[f] as Node;
        if (def.flags.includes("declaration") || !sameParameterCount(def.arity, decl.arity)) continue;
        pairs.push([d, f]);
        for (const t of dispatched.get(d) ?? []) pairs.push([f, t]);
      }
    }
  }
  return pairs;
}

/**
 * A declaration with no code to delete: a member of an interface or an abstract method (its
 * implementations carry the code) or anything in a TypeScript declaration file (outline's
 * typings of koa-passport).
 */
function declarationOnly(n: Node, g: SymbolGraph, text: (path: string) => Buffer): boolean {
  if (/\.d\.[cm]?ts$/.test(n.path)) return true;
  // A TypeScript overload signature (or Python's @overload stub) is its implementation's
  // signature: zod's two bodiless createZodEnum and _enum signatures were reported dead.
  if (n.flags.includes("overload")) return true;
  const p = parentOf(g, n);
  if (p !== undefined && ["interface", "type"].includes((g.nodes[p] as Node).kindNormalized)) return true;
  // A Rust trait's method without a body (`fn width(&self) -> usize;`): its impls carry the code.
  if (p !== undefined && (g.nodes[p] as Node).kindNormalized === "trait" && text(n.path)[n.span.byte_end - 1] === 0x3b) return true;
  // An abstract method (Java, TypeScript) is its overrides' signature: they are the code.
  return n.kindNormalized === "method" && /\babstract\b/.test(text(n.path).subarray(n.prefixStart, n.nameStart).toString("utf8"));
}

export interface DeadCodeRequest extends GraphRequest {
  entries?: string[];
  /** false: only the entries named with --entry */
  defaultEntries?: boolean;
}

export function deadCode(req: DeadCodeRequest): Answer<Record<string, unknown>> {
  return withReadDb(req, (db, { root }) => {
    const edgeSet = req.edges ?? "all";
    const { g } = symbolGraph(db, edgeSet);
    const cache = new Map<string, Buffer>();
    const text = (p: string): Buffer => {
      let b = cache.get(p);
      if (!b) {
        try {
          b = readFileSync(join(root, p));
        } catch {
          b = Buffer.alloc(0);
        }
        cache.set(p, b);
      }
      return b;
    };
    const dirOf = (p: string): string => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");
    const packages = new Set((db.prepare("SELECT path FROM files WHERE path LIKE '%__init__.py'").pluck().all() as string[]).map(dirOf));
    // A folder of modules without __init__.py inside a package is a namespace package of it
    // (flask's sansio/: App.redirect was reported dead); one outside any package is a script folder.
    const pyDirs = [...new Set((db.prepare("SELECT path FROM files WHERE language = 'python'").pluck().all() as string[]).map(dirOf))].sort();
    for (const d of pyDirs) if (d !== "" && packages.has(dirOf(d))) packages.add(d);
    // The names a C/C++ header of the repository writes before a parenthesis (its prototypes,
    // among other things), read once when a rule asks.
    let declared: Set<string> | undefined;
    const headerNames = (): Set<string> => {
      if (declared) return declared;
      declared = new Set();
      const headers = (db.prepare("SELECT path FROM files WHERE language IN ('c', 'cpp')").pluck().all() as string[]).filter((p) => HEADER.test(p));
      for (const h of headers) for (const m of text(h).toString("utf8").matchAll(/([A-Za-z_]\w*)\s*\(/g)) declared.add(m[1] as string);
      return declared;
    };
    // A Map: rule names such as `constructor` are properties of every plain object.
    const byRule = new Map<string, number>();
    const starts: number[] = [];
    const add = (v: number, rule: string): void => {
      starts.push(v);
      byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
    };
    for (const s of req.entries ?? []) add(g.index.get(resolveSymbol(db, s).symbol_id) as number, "named");
    if (req.defaultEntries !== false) {
      g.nodes.forEach((n, v) => {
        const rule = entryRule(n, g, text, packages, headerNames);
        if (rule) add(v, rule);
      });
      // Code at a module's top level runs when the module loads: what it refers to is live.
      for (const v of g.topLevel.keys()) add(v, "top_level_reference");
    }
    // With the default entries on, finding none is an answer (a tree of static C functions, an
    // empty index): everything is unreachable, and a note says why. Turning them off and naming
    // none asks nothing.
    if (starts.length === 0 && req.defaultEntries === false) throw usage("dead-code has no entry point to start from: --no-default-entries and no --entry", "Name entries with --entry, or leave the default entries on.");
    const liveFrom = variantReach(db, g);
    let live = liveFrom(starts);
    // A TypeScript/JavaScript object literal's methods (`bench("a", { first: (t) => t + 1 })`,
    // `return { onClick() {} }`) go wherever the object goes, and whoever receives it calls them
    // through a receiver the index cannot follow: they live where the code that makes the object
    // does, at a module's top level or in a live symbol (drizzle's benchmarks: every such member
    // was reported dead); so do a function in a variable's initializer and a constructor, which
    // runs when its class is made (see heldSymbols).
    // A method that overrides one of a base class (or may: a base the repository does not
    // declare, `io.RawIOBase`, `Error`) is called through the base by whoever holds an instance:
    // it lives while its class does (click's AliasedGroup.get_command, Group's).
    const held = heldSymbols(g);
    const overriding = overridingMethods(g);
    // Overloads that take as many arguments (Java, C++): a call of that count is tied to one of
    // them as a guess, and could be any (javapoet's TypeName.get(Type, Map) beside get(Type, Map)).
    const overloads = overloadSiblings(g);
    const owners = new Map<number, number>();
    g.nodes.forEach((n, v) => {
      const p = parentOf(g, n);
      if (p !== undefined && MEMBER_OWNERS.has((g.nodes[p] as Node).kindNormalized)) owners.set(v, p);
    });
    for (let round = 0; round < 8; round++) {
      const viaHolder = [...held].filter(([v, h]) => !live.has(v) && (h.holder === undefined || live.has(h.holder)));
      const viaBase = [...overriding].filter(([v, c]) => !live.has(v) && (c === undefined || live.has(c))).map(([v]) => v);
      const viaOverload = [...overloads].filter(([v, group]) => !live.has(v) && group.some((w) => live.has(w))).map(([v]) => v);
      // A class whose member is used is used (a class holding only a static main).
      const viaMember = [...new Set([...live.keys()].map((v) => owners.get(v)))].filter((c): c is number => c !== undefined && !live.has(c));
      if (viaHolder.length + viaBase.length + viaOverload.length + viaMember.length === 0) break;
      for (const [v, h] of viaHolder) add(v, h.rule);
      for (const v of viaBase) add(v, "override");
      for (const v of viaOverload) add(v, "overload");
      for (const v of viaMember) add(v, "member");
      live = liveFrom(starts);
    }
    // Any other member of a live class counts as live only if reached: methods are called through
    // receivers, which the gap report counts.
    // Counted per name in SQL: the graph of a large repository has 10^5 such references.
    const unresolvedByName = new Map(
      (
        db
          .prepare(
            `SELECT r.name, count(*) FROM refs r WHERE r.resolution IN ('ambiguous', 'unresolved') ${edgeSet === "call" ? "AND r.kind = 'call'" : ""}
             AND (r.kind = 'call' OR EXISTS (SELECT 1 FROM symbols s2 WHERE s2.name = r.name)) GROUP BY r.name`,
          )
          .raw()
          .all() as [string, number][]
      ).map(([n, c]) => [n, c]),
    );
    const dead: Record<string, unknown>[] = [];
    let deadCount = 0;
    let possiblyDynamic = 0;
    const limit = req.limit ?? 1000;
    // A dead symbol referenced by other dead ones falls with them: an agent checks the others first.
    const inn = reverse(g.out);
    g.nodes.forEach((n, v) => {
      if (live.has(v) || !REPORTED.has(n.kindNormalized) || declarationOnly(n, g, text)) return;
      deadCount++;
      const seen = unresolvedByName.get(n.name) ?? 0;
      if (seen > 0) possiblyDynamic++;
      if (dead.length < limit) dead.push({ ...nodeOut(n), unresolved_uses_of_name: seen, referenced_by_unreachable: (inn[v] ?? []).filter((u) => u !== v).length });
    });
    // The gap report names the unresolved calls (a dynamic call is what makes a false positive).
    const unresolved = gapSummary(db, (gapQuery(db, "call", "1").all() as RefRecord[]).sort(byPosition), req.gapSamples ?? 5);
    const allGaps = [...unresolvedByName.values()].reduce((a, b) => a + b, 0);
    const ev = evidence(g, edgesWithin(g, new Set(live.keys())), 0);
    const diagnostics: Diagnostic[] = [];
    if ((unresolved.count as number) > 0) {
      diagnostics.push({
        tool: TOOL,
        level: "warning",
        code: MAGELLAN_CODES.unresolved_references,
        message: `${unresolved.count as number} calls (${allGaps} references in all) in the graph could not be tied to a symbol (dynamic calls, unresolved imports): a symbol they call is reported dead falsely; ${possiblyDynamic} of the ${deadCount} reported share a name with one`,
        remediation: "Check a reported symbol's unresolved_uses_of_name, and search its name (llmsearch) before deleting it.",
      });
    }
    if (deadCount > limit) diagnostics.push(note(`more than ${limit} unreachable symbols; raise --limit to see more`));
    if (starts.length === 0) {
      diagnostics.push(
        note(
          g.nodes.length === 0
            ? "the index holds no symbol: nothing to report"
            : "no entry point found (no exported API, main, test, framework hook or module-level code by the rules of docs/graph.md): every function, method and class is reported; name the real entries with --entry",
        ),
      );
    } else if (deadCount === 0) diagnostics.push(note("every function, method and class is reached from an entry point"));
    const data: Record<string, unknown> = {
      edges: edgeSet,
      entries: { count: new Set(starts).size, by_rule: Object.fromEntries(byRule) },
      count: deadCount,
      possibly_dynamic: possiblyDynamic,
      symbols: dead,
      evidence: { by_resolution: ev.report.by_resolution, edge_count: ev.report.edge_count },
      unresolved,
    };
    return { data, diagnostics, partial: deadCount > limit };
  });
}

export interface PathsRequest extends GraphRequest {
  from: string;
  to: string;
  maxDepth?: number;
  maxPaths?: number;
}

export function paths(req: PathsRequest): Answer<Record<string, unknown>> {
  return withReadDb(req, (db) => {
    const a = resolveSymbol(db, req.from);
    const b = resolveSymbol(db, req.to);
    const edgeSet = req.edges ?? "all";
    const { g } = symbolGraph(db, edgeSet).dispatched();
    const from = g.index.get(a.symbol_id) as number;
    const to = g.index.get(b.symbol_id) as number;
    const maxDepth = req.maxDepth ?? 10;
    const maxPaths = req.maxPaths ?? 10;
    const found = simplePaths(g.out, from, to, maxDepth, maxPaths);
    const pairs = new Map<string, [number, number]>();
    for (const p of found.paths) for (let i = 1; i < p.length; i++) pairs.set(`${p[i - 1]},${p[i]}`, [p[i - 1] as number, p[i] as number]);
    const ev = evidence(g, [...pairs.values()], req.limit ?? 1000);
    // What the search could not follow: references made from the symbols within reach of `from`.
    const unresolved = gapsOf(db, g, new Set(reach(g.out, [from], maxDepth).depth.keys()), "forward", req.gapSamples ?? 5);
    const diagnostics: Diagnostic[] = [...gapWarning(unresolved, "made from the symbols within reach")];
    if (found.paths.length === 0) diagnostics.push(note(`no path of at most ${maxDepth} edges from '${req.from}' to '${req.to}' in the resolved graph`));
    if (found.cut) diagnostics.push(note(`more paths exist; raise --max-paths to see more`));
    diagnostics.push(...evidenceCut(ev, req.limit ?? 1000));
    const data: Record<string, unknown> = {
      from: nodeOut(g.nodes[from] as Node),
      to: nodeOut(g.nodes[to] as Node),
      edges: edgeSet,
      max_depth: maxDepth,
      max_paths: maxPaths,
      count: found.paths.length,
      paths: found.paths.map((p) => ({ length: p.length - 1, symbols: p.map((v) => nodeOut(g.nodes[v] as Node)) })),
      evidence: ev.report,
      unresolved,
    };
    return { data, diagnostics, partial: found.cut || ev.cut };
  });
}

interface FileGraph {
  paths: string[];
  out: Adjacency;
  edges: Map<string, EdgeInfo>;
  unresolvedDeps: { path: string; line: number; text: string; status: string }[];
}

/** Files and their resolved dependencies (impact_edges): `imported` when resolved, `heuristic` when guessed. */
function loadFileGraph(db: DB): FileGraph {
  const files = db.prepare("SELECT id, path FROM files ORDER BY path").all() as { id: number; path: string }[];
  const index = new Map(files.map((f, i) => [f.id, i]));
  const sets: Set<number>[] = files.map(() => new Set());
  const edges = new Map<string, EdgeInfo>();
  const rows = db.prepare("SELECT source_id, target_id, kind, type_only, guessed FROM impact_edges ORDER BY source_id, target_id, dep_id").raw().all() as [number, number, string, number, number][];
  for (const [s, t, kind, typeOnly, guessed] of rows) {
    const v = index.get(s);
    const w = index.get(t);
    if (v === undefined || w === undefined) continue;
    (sets[v] as Set<number>).add(w);
    const key = `${v},${w}`;
    let e = edges.get(key);
    if (!e) edges.set(key, (e = { count: 0, resolution: {}, kinds: {} }));
    const res = guessed ? "heuristic" : "imported";
    e.count++;
    e.resolution[res] = (e.resolution[res] ?? 0) + 1;
    const k = typeOnly ? `${kind}:type_only` : kind;
    e.kinds[k] = (e.kinds[k] ?? 0) + 1;
  }
  const unresolvedDeps = db
    .prepare("SELECT f.path, d.line, d.text, d.status FROM deps d JOIN files f ON f.id = d.file_id WHERE d.status IN ('unresolved', 'pending') ORDER BY f.path, d.line")
    .all() as { path: string; line: number; text: string; status: string }[];
  return { paths: files.map((f) => f.path), out: sets.map((s) => [...s].sort((a, b) => a - b)), edges, unresolvedDeps };
}

export interface CyclesRequest extends GraphRequest {
  level?: "file" | "symbol";
}

interface Level {
  out: Adjacency;
  member: (v: number) => Record<string, unknown>;
  key: (v: number) => string;
  ev: (pairs: [number, number][], limit: number) => { report: Record<string, unknown>; cut: boolean };
  gaps: (members: Set<number>) => Record<string, unknown>;
}

function levelOf(db: DB, req: CyclesRequest): Level {
  const samples = req.gapSamples ?? 5;
  if ((req.level ?? "file") === "file") {
    const g = loadFileGraph(db);
    return {
      out: g.out,
      member: (v) => ({ file_path: g.paths[v] }),
      key: (v) => g.paths[v] as string,
      ev: (pairs, limit) => {
        const by: Record<string, number> = {};
        const edges: Record<string, unknown>[] = [];
        for (const [v, w] of pairs) {
          const e = g.edges.get(`${v},${w}`) as EdgeInfo;
          for (const [k, n] of Object.entries(e.resolution)) by[k] = (by[k] ?? 0) + n;
          if (edges.length < limit) edges.push({ from: g.paths[v], to: g.paths[w], count: e.count, resolution: e.resolution, kinds: e.kinds });
        }
        return { report: { by_resolution: by, edge_count: pairs.length, edges }, cut: pairs.length > limit };
      },
      gaps: (members) => {
        const paths = new Set([...members].map((v) => g.paths[v]));
        const list = g.unresolvedDeps.filter((d) => paths.has(d.path));
        return {
          count: list.length,
          by_reason: list.length ? { unresolved_import: list.length } : {},
          samples: list.slice(0, samples).map((d) => ({ file_path: d.path, line: d.line, text: d.text, reason: "unresolved_import" })),
        };
      },
    };
  }
  const { g } = symbolGraph(db, req.edges ?? "call");
  return {
    out: g.out,
    member: (v) => nodeOut(g.nodes[v] as Node),
    key: (v) => (g.nodes[v] as Node).sid,
    ev: (pairs, limit) => evidence(g, pairs, limit),
    gaps: (members) => gapsOf(db, g, members, "forward", samples),
  };
}

function pairsWithin(out: Adjacency, set: Set<number>): [number, number][] {
  const pairs: [number, number][] = [];
  for (const v of [...set].sort((a, b) => a - b)) for (const w of out[v] ?? []) if (set.has(w)) pairs.push([v, w]);
  return pairs;
}

export function cycles(req: CyclesRequest): Answer<Record<string, unknown>> {
  return withReadDb(req, (db) => {
    const level = req.level ?? "file";
    const L = levelOf(db, req);
    const limit = req.limit ?? 1000;
    const found = scc(L.out)
      .filter((c) => cyclic(L.out, c))
      .sort((a, b) => b.length - a.length || (a[0] as number) - (b[0] as number));
    const all = new Set(found.flat());
    const cycleOf = new Map<number, number>();
    found.forEach((c, i) => {
      for (const v of c) cycleOf.set(v, i);
    });
    const pairs = pairsWithin(L.out, all).filter(([v, w]) => cycleOf.get(v) === cycleOf.get(w));
    const ev = L.ev(pairs, limit);
    const unresolved = L.gaps(all);
    const diagnostics: Diagnostic[] = [];
    if (found.length === 0) diagnostics.push(note(`no cycle among ${level === "file" ? "files" : "symbols"} in the resolved graph`));
    if (found.length > limit) diagnostics.push(note(`more than ${limit} cycles; raise --limit to see more`));
    diagnostics.push(...evidenceCut(ev, limit));
    diagnostics.push(...gapWarning(unresolved, level === "file" ? "(imports of files in a cycle)" : "made from symbols in a cycle"));
    const data: Record<string, unknown> = {
      level,
      count: found.length,
      cycles: found.slice(0, limit).map((c) => ({ size: c.length, members: c.map(L.member) })),
      evidence: ev.report,
      unresolved,
    };
    if (level === "symbol") data.edges = req.edges ?? "call";
    return { data, diagnostics, partial: found.length > limit || ev.cut };
  });
}

export function condense(req: CyclesRequest): Answer<Record<string, unknown>> {
  return withReadDb(req, (db) => {
    const level = req.level ?? "file";
    const L = levelOf(db, req);
    const limit = req.limit ?? 1000;
    const c = condenseGraph(L.out);
    // Components numbered by their first member (sorted node order), so ids are stable.
    const order = c.comps.map((m, i) => [i, m[0] as number] as const).sort((a, b) => a[1] - b[1]);
    const id = new Map(order.map(([i], k) => [i, k]));
    const comps = order.map(([i]) => c.comps[i] as number[]);
    const edgeCount = new Map<string, number>();
    L.out.forEach((succ, v) => {
      for (const w of succ) {
        const a = id.get(c.compOf[v] as number) as number;
        const b = id.get(c.compOf[w] as number) as number;
        if (a !== b) edgeCount.set(`${a},${b}`, (edgeCount.get(`${a},${b}`) ?? 0) + 1);
      }
    });
    const edges = [...edgeCount.entries()]
      .map(([k, n]) => {
        const [a, b] = k.split(",").map(Number) as [number, number];
        return { from: a, to: b, edge_count: n };
      })
      .sort((x, y) => x.from - y.from || x.to - y.to);
    const all = new Set(L.out.keys());
    const ev = L.ev(pairsWithin(L.out, all), 0);
    const cut = comps.length > limit || edges.length > limit;
    const diagnostics: Diagnostic[] = [];
    if (cut) diagnostics.push(note(`more than ${limit} components or edges; raise --limit to see more`));
    const data: Record<string, unknown> = {
      level,
      node_count: L.out.length,
      count: comps.length,
      cyclic_count: comps.filter((m) => cyclic(L.out, m)).length,
      components: comps.slice(0, limit).map((m, k) => ({ id: k, size: m.length, cyclic: cyclic(L.out, m), members: m.map(L.key) })),
      edges: edges.slice(0, limit),
      evidence: { by_resolution: ev.report.by_resolution, edge_count: ev.report.edge_count },
      unresolved: L.gaps(all),
    };
    if (level === "symbol") data.edge_set = req.edges ?? "call";
    return { data, diagnostics, partial: cut };
  });
}
