/**
 * The impact graph answers of seed 04: `docdex.impact_graph` v2 for one file (inbound, outbound,
 * the edges met within --max-depth), `docdex.impact_diagnostics` (unresolved dependencies per
 * file), the impact_graph.json snapshot (export, and a reader that honours the schema's
 * compatibility and migration rules), the import hints (docdex.import_map.json,
 * docdex.import_traces.jsonl) and `affected` (what a git diff reaches through the reverse graph).
 * Plain functions over an open index: no argv, no stdout.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import picomatch from "picomatch";
import { errorCode } from "../../contract/codes.js";
import { EXIT, type ExitCode, ToolError } from "../../contract/errors.js";
import type { Diagnostic } from "../../contract/schema.js";
import {
  type AffectedPayload,
  type ImpactDiagnosticsPayload,
  type ImpactEdge,
  type ImpactGraphPayload,
  type ImpactGraphStore,
  ImpactGraphStoreSchema,
} from "../../contract/tools/impact.js";
import { type DB, getMeta } from "../../graph/db.js";
import { CODEINTEL_CODES, CODEINTEL_TOOL } from "./codes.js";
import { repoId } from "./repo-id.js";
import { isTestPath } from "../../lang/test-paths.js";

export const IMPACT_SCHEMA = { name: "docdex.impact_graph" as const, version: 2 as const, compatible: { min: 2, max: 2 } };
export const IMPACT_DIAGNOSTICS_SCHEMA = { name: "docdex.impact_diagnostics" as const, version: 1 as const, compatible: { min: 1, max: 1 } };
export const EDGE_KINDS = ["import", "include", "require"] as const;
export const MAX_DEPTH = { default: 1, min: 1, max: 32 };
export const MAX_EDGES = { default: 500, min: 1, max: 100_000 };
export const DIAG_LIMIT = { default: 200, min: 1, max: 10_000 };
const SAMPLES = 5;

function fault(num: string, error: string, message: string, remediation: string, exitCode: ExitCode = EXIT.failure): ToolError {
  return new ToolError({ code: errorCode(CODEINTEL_TOOL, num), error, message, remediation, exitCode });
}

const repoIds = new Map<string, string>();
/** repo_id costs a git call; an in-process caller (the daemon, a bench) pays it once per root. */
function cachedRepoId(root: string): string {
  let id = repoIds.get(root);
  if (id === undefined) repoIds.set(root, (id = repoId(root)));
  return id;
}

/** Where an answer's edges come from: the index, or a stored impact_graph.json snapshot. */
export interface GraphSource {
  has(path: string): boolean;
  out(path: string): ImpactEdge[];
  in(path: string): ImpactEdge[];
  unresolved(path: string): { total: number; samples: string[] };
  /** Every file with unresolved dependencies, in path order. */
  unresolvedFiles(): string[];
  sources(): string[];
}

interface Hints {
  /** Extra edges by source and by target. */
  bySource: Map<string, ImpactEdge[]>;
  byTarget: Map<string, ImpactEdge[]>;
  /** `source\0target` pairs whose auto-resolved edges an override edge replaces. */
  suppressed: Set<string>;
  /** Mappings: source -> spec -> targets (and whether it overrides auto-resolution). */
  mappings: Map<string, { spec: string; targets: string[]; kind: string; override: boolean }[]>;
  warnings: Diagnostic[];
}

const normKind = (k: unknown): string => {
  const s = typeof k === "string" ? k.toLowerCase() : "";
  if (/require|cjs|commonjs/.test(s)) return "require";
  if (/include|header/.test(s)) return "include";
  return "import";
};

function pushMap<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const xs = m.get(k);
  if (xs) xs.push(v);
  else m.set(k, [v]);
}

/**
 * Reads docdex.import_map.json and the import traces (docdex.import_traces.jsonl at the root and
 * <state dir>/import_traces.jsonl; off when DOCDEX_ENABLE_IMPORT_TRACES is 0/false).
 * `expand` targets are glob patterns over the indexed files; `./` targets are relative to the source.
 */
export function readHints(root: string, stateDir: string, files: string[]): Hints {
  const h: Hints = { bySource: new Map(), byTarget: new Map(), suppressed: new Set(), mappings: new Map(), warnings: [] };
  const warn = (file: string, why: string): void => {
    h.warnings.push({
      tool: CODEINTEL_TOOL,
      level: "warning",
      message: `${file}: ${why}; its hints were skipped`,
      file,
      code: errorCode(CODEINTEL_TOOL, CODEINTEL_CODES.hint_invalid),
      remediation: "Fix the hint file (docs/impact.md describes its fields).",
    });
  };
  const targetsOf = (source: string, pats: string[], expand: boolean): string[] => {
    const abs = pats.map((p) => (p.startsWith("./") || p.startsWith("../") ? posix.normalize(posix.join(posix.dirname(source), p)) : p.replace(/^\//, "")));
    if (!expand) return abs;
    const isMatch = picomatch(abs);
    return files.filter((f) => isMatch(f)).sort();
  };
  const addEdge = (e: ImpactEdge): void => {
    pushMap(h.bySource, e.source, e);
    pushMap(h.byTarget, e.target, e);
  };
  const mapFile = join(root, "docdex.import_map.json");
  if (existsSync(mapFile)) {
    try {
      const m = JSON.parse(readFileSync(mapFile, "utf8")) as { edges?: unknown[]; mappings?: unknown[] };
      for (const raw of Array.isArray(m.edges) ? m.edges : []) {
        const e = raw as { source?: unknown; target?: unknown; kind?: unknown; override?: unknown };
        if (typeof e.source !== "string" || typeof e.target !== "string") continue;
        if (e.override === true) h.suppressed.add(`${e.source}\0${e.target}`);
        addEdge({ source: e.source, target: e.target, kind: normKind(e.kind), hint: "import_map" });
      }
      for (const raw of Array.isArray(m.mappings) ? m.mappings : []) {
        const x = raw as { source?: unknown; spec?: unknown; target?: unknown; targets?: unknown; expand?: unknown; kind?: unknown; override?: unknown };
        if (typeof x.source !== "string" || typeof x.spec !== "string") continue;
        const pats = typeof x.target === "string" ? [x.target] : Array.isArray(x.targets) ? x.targets.filter((t): t is string => typeof t === "string") : [];
        pushMap(h.mappings, x.source, { spec: x.spec, targets: targetsOf(x.source, pats, x.expand === true), kind: normKind(x.kind), override: x.override === true });
      }
    } catch (e) {
      warn("docdex.import_map.json", (e as Error).message);
    }
  }
  const env = process.env.DOCDEX_ENABLE_IMPORT_TRACES;
  if (env === undefined || !/^(0|false|no|off)$/i.test(env)) {
    for (const [name, file] of [
      ["docdex.import_traces.jsonl", join(root, "docdex.import_traces.jsonl")],
      [join(stateDir, "import_traces.jsonl"), join(stateDir, "import_traces.jsonl")],
    ] as const) {
      if (!existsSync(file)) continue;
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (!line.trim()) return;
        try {
          const t = JSON.parse(line) as { source?: unknown; target?: unknown; kind?: unknown };
          if (typeof t.source === "string" && typeof t.target === "string") addEdge({ source: t.source, target: t.target, kind: normKind(t.kind), hint: "import_trace" });
        } catch (e) {
          warn(`${name}:${i + 1}`, (e as Error).message);
        }
      });
    }
  }
  return h;
}

interface AdjEdge {
  other: number;
  kind: string;
  /** Every dependency behind the edge is type-only. */
  typeOnly: boolean;
  guessed: boolean;
  deps: number[];
}

/**
 * The impact graph of an index, hints applied. The edges are read into memory once per graph
 * (an adjacency list by file id, a few MB for a 100k-edge repository), so a depth-3 walk from a
 * hub file costs microseconds per edge rather than a query per file.
 */
export class DbGraph implements GraphSource {
  private readonly unresolvedQ;
  private readonly depsOfQ;
  private adj?: { pathOf: Map<number, string>; idOf: Map<string, number>; out: Map<number, AdjEdge[]>; in: Map<number, AdjEdge[]> };
  private readonly mappedCache = new Map<string, { dropDeps: Set<number>; edges: ImpactEdge[]; resolvedDeps: Set<number> }>();

  constructor(
    private readonly db: DB,
    private readonly hints: Hints,
  ) {
    if (getMeta(db, "impact_pending") === "1") {
      throw fault(
        CODEINTEL_CODES.impact_missing,
        "impact_missing",
        "this index has no impact graph yet (it was built before the impact graph existed)",
        "Run 'magellan index' once: it re-reads every file and builds the impact graph.",
      );
    }
    this.unresolvedQ = db.prepare("SELECT id, spec, pattern, text FROM deps WHERE file_id = ? AND status = 'unresolved' ORDER BY id");
    this.depsOfQ = db.prepare("SELECT id, spec, text FROM deps WHERE file_id = ?");
  }

  private load(): NonNullable<DbGraph["adj"]> {
    if (this.adj) return this.adj;
    const pathOf = new Map<number, string>();
    const idOf = new Map<string, number>();
    for (const r of this.db.prepare("SELECT id, path FROM files").raw().all() as [number, string][]) {
      pathOf.set(r[0], r[1]);
      idOf.set(r[1], r[0]);
    }
    const out = new Map<number, AdjEdge[]>();
    const inn = new Map<number, AdjEdge[]>();
    const byKey = new Map<string, [AdjEdge, AdjEdge]>();
    const rows = this.db.prepare("SELECT source_id, target_id, kind, type_only, guessed, dep_id FROM impact_edges ORDER BY source_id, target_id, dep_id").raw().all() as [number, number, string, number, number, number][];
    for (const [s, t, kind, typeOnly, guessed, dep] of rows) {
      const key = `${s}:${t}:${kind}`;
      const hit = byKey.get(key);
      if (hit) {
        for (const e of hit) {
          e.typeOnly &&= typeOnly === 1;
          e.guessed ||= guessed === 1;
          e.deps.push(dep);
        }
        continue;
      }
      const o: AdjEdge = { other: t, kind, typeOnly: typeOnly === 1, guessed: guessed === 1, deps: [dep] };
      const i: AdjEdge = { other: s, kind, typeOnly: typeOnly === 1, guessed: guessed === 1, deps: o.deps };
      byKey.set(key, [o, i]);
      pushMap(out, s, o);
      pushMap(inn, t, i);
    }
    const byPath = (m: Map<number, AdjEdge[]>): void => {
      for (const xs of m.values()) xs.sort((a, b) => ((pathOf.get(a.other) ?? "") < (pathOf.get(b.other) ?? "") ? -1 : 1));
    };
    byPath(out);
    byPath(inn);
    this.adj = { pathOf, idOf, out, in: inn };
    return this.adj;
  }

  has(path: string): boolean {
    return this.load().idOf.has(path);
  }

  /** Dependency ids of `source` whose auto edges a mapping with override replaces, and the mapping edges. */
  private mapped(source: string): { dropDeps: Set<number>; edges: ImpactEdge[]; resolvedDeps: Set<number> } {
    const cached = this.mappedCache.get(source);
    if (cached) return cached;
    const dropDeps = new Set<number>();
    const resolvedDeps = new Set<number>();
    const edges: ImpactEdge[] = [];
    const result = { dropDeps, edges, resolvedDeps };
    this.mappedCache.set(source, result);
    const ms = this.hints.mappings.get(source);
    if (!ms) return result;
    const id = this.load().idOf.get(source);
    const deps = id === undefined ? [] : (this.depsOfQ.all(id) as { id: number; spec: string | null; text: string }[]);
    const unresolved = new Set(id === undefined ? [] : (this.unresolvedQ.all(id) as { id: number }[]).map((d) => d.id));
    for (const m of ms) {
      const isMatch = picomatch(m.spec);
      const hit = deps.filter((d) => d.spec === m.spec || d.text === m.spec || (d.spec !== null && isMatch(d.spec)));
      const applies = m.override ? hit.length > 0 || deps.length === 0 : hit.some((d) => unresolved.has(d.id)) || hit.length === 0;
      if (!applies) continue;
      for (const d of hit) {
        if (m.override) dropDeps.add(d.id);
        resolvedDeps.add(d.id);
      }
      for (const t of m.targets) edges.push({ source, target: t, kind: m.kind, hint: "import_map" });
    }
    return result;
  }

  out(path: string): ImpactEdge[] {
    const a = this.load();
    const id = a.idOf.get(path);
    const hinted = this.hints.mappings.has(path);
    const { dropDeps, edges: mappedEdges } = hinted ? this.mapped(path) : { dropDeps: undefined, edges: [] };
    const out: ImpactEdge[] = [];
    for (const e of id === undefined ? [] : (a.out.get(id) ?? [])) {
      const target = a.pathOf.get(e.other) as string;
      if (this.hints.suppressed.size > 0 && this.hints.suppressed.has(`${path}\0${target}`)) continue;
      if (dropDeps && dropDeps.size > 0 && e.deps.every((d) => dropDeps.has(d))) continue;
      out.push(edgeOf(path, target, e.kind, e.typeOnly, e.guessed));
    }
    const extra = this.hints.bySource.get(path);
    return mappedEdges.length > 0 || extra ? [...out, ...mappedEdges, ...(extra ?? [])] : out;
  }

  in(path: string): ImpactEdge[] {
    const a = this.load();
    const id = a.idOf.get(path);
    const out: ImpactEdge[] = [];
    for (const e of id === undefined ? [] : (a.in.get(id) ?? [])) {
      const source = a.pathOf.get(e.other) as string;
      if (this.hints.suppressed.size > 0 && this.hints.suppressed.has(`${source}\0${path}`)) continue;
      if (this.hints.mappings.has(source)) {
        const { dropDeps } = this.mapped(source);
        if (dropDeps.size > 0 && e.deps.every((d) => dropDeps.has(d))) continue;
      }
      out.push(edgeOf(source, path, e.kind, e.typeOnly, e.guessed));
    }
    if (this.hints.mappings.size > 0) for (const [source] of this.hints.mappings) for (const e of this.mapped(source).edges) if (e.target === path) out.push(e);
    const extra = this.hints.byTarget.get(path);
    return extra ? [...out, ...extra] : out;
  }

  unresolved(path: string): { total: number; samples: string[] } {
    const id = this.load().idOf.get(path);
    if (id === undefined) return { total: 0, samples: [] };
    const resolvedDeps = this.hints.mappings.has(path) ? this.mapped(path).resolvedDeps : undefined;
    const rows = (this.unresolvedQ.all(id) as { id: number; spec: string | null; pattern: string | null; text: string }[]).filter((r) => !resolvedDeps?.has(r.id));
    return { total: rows.length, samples: rows.slice(0, SAMPLES).map((r) => r.spec ?? r.text) };
  }

  unresolvedFiles(): string[] {
    return this.db.prepare("SELECT DISTINCT f.path FROM deps d JOIN files f ON f.id = d.file_id WHERE d.status = 'unresolved' ORDER BY f.path").pluck().all() as string[];
  }

  sources(): string[] {
    return [...this.load().idOf.keys()].sort();
  }
}

function edgeOf(source: string, target: string, kind: string, typeOnly: boolean, guessed: boolean): ImpactEdge {
  return { source, target, kind, ...(typeOnly ? { type_only: true } : {}), ...(guessed ? { guessed: true } : {}) };
}

/** A graph read from an impact_graph.json snapshot. */
export class SnapshotGraph implements GraphSource {
  private readonly outs = new Map<string, ImpactEdge[]>();
  private readonly ins = new Map<string, ImpactEdge[]>();
  private readonly diags = new Map<string, { total: number; samples: string[] }>();

  constructor(store: ImpactGraphStore) {
    for (const g of store.graphs) {
      if (!this.outs.has(g.source)) this.outs.set(g.source, []);
      for (const e of g.edges) {
        pushMap(this.outs, e.source, e);
        pushMap(this.ins, e.target, e);
      }
      if (g.diagnostics) this.diags.set(g.source, { total: g.diagnostics.unresolvedImportsTotal, samples: g.diagnostics.unresolvedImportsSample });
    }
  }

  has(path: string): boolean {
    return this.outs.has(path) || this.ins.has(path);
  }
  out(path: string): ImpactEdge[] {
    return this.outs.get(path) ?? [];
  }
  in(path: string): ImpactEdge[] {
    return this.ins.get(path) ?? [];
  }
  unresolved(path: string): { total: number; samples: string[] } {
    return this.diags.get(path) ?? { total: 0, samples: [] };
  }
  unresolvedFiles(): string[] {
    return [...this.diags.keys()].filter((k) => (this.diags.get(k)?.total ?? 0) > 0).sort();
  }
  sources(): string[] {
    return [...this.outs.keys()].sort();
  }
}

export interface ImpactRequest {
  file: string;
  maxDepth?: number;
  maxEdges?: number;
  edgeTypes?: string[];
  direction?: "in" | "out" | "both";
}

/** docdex.impact_graph v2 for one file. */
export function impactGraph(graph: GraphSource, root: string, req: ImpactRequest): ImpactGraphPayload {
  const depth = Math.min(Math.max(req.maxDepth ?? MAX_DEPTH.default, MAX_DEPTH.min), MAX_DEPTH.max);
  const maxEdges = Math.min(Math.max(req.maxEdges ?? MAX_EDGES.default, MAX_EDGES.min), MAX_EDGES.max);
  const kinds = req.edgeTypes && req.edgeTypes.length > 0 ? new Set(req.edgeTypes) : undefined;
  const direction = req.direction ?? "both";
  const keep = (e: ImpactEdge): boolean => kinds === undefined || kinds.has(e.kind ?? "import");
  const seen = new Set<string>();
  const edges: ImpactEdge[] = [];
  let truncated = false;
  const add = (e: ImpactEdge): boolean => {
    const k = `${e.source}\0${e.target}\0${e.kind ?? ""}`;
    if (seen.has(k)) return true;
    if (edges.length >= maxEdges) {
      truncated = true;
      return false;
    }
    seen.add(k);
    edges.push(e);
    return true;
  };
  const walk = (dir: "in" | "out"): void => {
    let frontier = [req.file];
    const visited = new Set(frontier);
    for (let d = 0; d < depth && frontier.length > 0 && !truncated; d++) {
      const next: string[] = [];
      for (const f of frontier) {
        for (const e of (dir === "out" ? graph.out(f) : graph.in(f)).filter(keep)) {
          if (!add(e)) return;
          const other = dir === "out" ? e.target : e.source;
          if (!visited.has(other)) {
            visited.add(other);
            next.push(other);
          }
        }
      }
      frontier = next;
    }
  };
  if (direction !== "in") walk("out");
  if (direction !== "out") walk("in");
  const outbound = direction === "in" ? [] : [...new Set(graph.out(req.file).filter(keep).map((e) => e.target))].sort();
  const inbound = direction === "out" ? [] : [...new Set(graph.in(req.file).filter(keep).map((e) => e.source))].sort();
  const u = graph.unresolved(req.file);
  return {
    schema: IMPACT_SCHEMA,
    repo_id: cachedRepoId(root),
    source: req.file,
    inbound,
    outbound,
    edges,
    truncated,
    ...(u.total > 0 ? { diagnostics: { unresolvedImportsTotal: u.total, unresolvedImportsSample: u.samples } } : {}),
  };
}

/** docdex.impact_diagnostics: files with unresolved dependencies, paged. */
export function impactDiagnostics(graph: GraphSource, root: string, req: { file?: string; limit?: number; offset?: number }): ImpactDiagnosticsPayload {
  const limit = Math.min(Math.max(req.limit ?? DIAG_LIMIT.default, DIAG_LIMIT.min), DIAG_LIMIT.max);
  const offset = Math.max(req.offset ?? 0, 0);
  const files = (req.file !== undefined ? [req.file] : graph.unresolvedFiles()).map((file) => ({ file, u: graph.unresolved(file) })).filter((x) => x.u.total > 0);
  const page = files.slice(offset, offset + limit);
  return {
    schema: IMPACT_DIAGNOSTICS_SCHEMA,
    repo_id: cachedRepoId(root),
    total: files.length,
    limit,
    offset,
    truncated: offset + page.length < files.length,
    diagnostics: page.map((x) => ({ file: x.file, diagnostics: { unresolvedImportsTotal: x.u.total, unresolvedImportsSample: x.u.samples } })),
  };
}

/** The whole graph as impact_graph.json (seed 04 storage): one entry per file with its outgoing edges. */
export function exportSnapshot(graph: GraphSource, root: string): ImpactGraphStore {
  return {
    schema: IMPACT_SCHEMA,
    repo_id: cachedRepoId(root),
    graphs: graph.sources().map((source) => {
      const u = graph.unresolved(source);
      return {
        source,
        edges: graph.out(source),
        ...(u.total > 0 ? { diagnostics: { unresolvedImportsTotal: u.total, unresolvedImportsSample: u.samples } } : {}),
      };
    }),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Reads an impact_graph.json snapshot: a schema name other than docdex.impact_graph, or a
 * compatibility range without version 2, is refused; a legacy file without schema metadata (a
 * `graphs` array, a bare array of graphs, or a flat `edges` list) is accepted and migrated in
 * memory, edge kinds normalised to import/include/require.
 */
export function readSnapshot(text: string, root: string): { store: ImpactGraphStore; migrated: boolean } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw fault(CODEINTEL_CODES.payload_invalid, "payload_invalid", `impact_graph.json is not JSON: ${(e as Error).message}`, "Export it again with 'magellan impact --export'.");
  }
  const meta = isRecord(raw) ? raw.schema : undefined;
  let migrated = false;
  let value: unknown = raw;
  if (meta === undefined) {
    migrated = true;
    const graphsRaw = Array.isArray(raw) ? raw : isRecord(raw) && Array.isArray(raw.graphs) ? raw.graphs : isRecord(raw) && Array.isArray(raw.edges) ? [{ edges: raw.edges }] : undefined;
    if (!graphsRaw) throw fault(CODEINTEL_CODES.payload_invalid, "payload_invalid", "impact_graph.json has neither a schema object nor graphs", "Export it again with 'magellan impact --export'.");
    const bySource = new Map<string, ImpactEdge[]>();
    for (const g of graphsRaw as unknown[]) {
      if (!isRecord(g)) continue;
      const edges = Array.isArray(g.edges) ? g.edges : [];
      const src = typeof g.source === "string" ? g.source : undefined;
      if (src !== undefined && !bySource.has(src)) bySource.set(src, []);
      for (const e of edges) {
        if (!isRecord(e) || typeof e.source !== "string" || typeof e.target !== "string") continue;
        pushMap(bySource, e.source, { source: e.source, target: e.target, kind: normKind(e.kind) });
      }
    }
    value = {
      schema: IMPACT_SCHEMA,
      repo_id: isRecord(raw) && typeof raw.repo_id === "string" ? raw.repo_id : cachedRepoId(root),
      graphs: [...bySource].map(([source, edges]) => ({ source, edges })),
    };
  } else {
    if (!isRecord(meta) || meta.name !== IMPACT_SCHEMA.name) {
      throw fault(
        CODEINTEL_CODES.schema_name_mismatch,
        "schema_name_mismatch",
        `impact_graph.json schema is '${String(isRecord(meta) ? meta.name : meta)}', expected '${IMPACT_SCHEMA.name}'`,
        "Pass an impact graph snapshot, or export one with 'magellan impact --export'.",
      );
    }
    const c = meta.compatible;
    if (!isRecord(c) || typeof c.min !== "number" || typeof c.max !== "number" || IMPACT_SCHEMA.version < c.min || IMPACT_SCHEMA.version > c.max) {
      throw fault(
        CODEINTEL_CODES.schema_incompatible,
        "schema_incompatible",
        `impact_graph.json version ${String(meta.version)} (compatible ${isRecord(c) ? `${String(c.min)}..${String(c.max)}` : "?"}) does not include version ${IMPACT_SCHEMA.version}`,
        "Reindex and export again with this version of magellan.",
      );
    }
    if (meta.version !== IMPACT_SCHEMA.version) migrated = true;
    value = { ...(raw as Record<string, unknown>), schema: IMPACT_SCHEMA };
  }
  const parsed = ImpactGraphStoreSchema.safeParse(value);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw fault(CODEINTEL_CODES.payload_invalid, "payload_invalid", `impact_graph.json: ${i?.message ?? "invalid"} at ${i?.path.join(".") ?? "?"}`, "Export it again with 'magellan impact --export'.");
  }
  return { store: parsed.data, migrated };
}

/**
 * Files (and their top-level symbols) that the changes since `rev` reach through the reverse
 * graph: changed files at depth 0, then their importers, theirs, and so on. The working tree is
 * included (`git diff REV`, plus untracked files).
 */
export function affectedSince(db: DB, graph: GraphSource, root: string, rev: string, maxDepth = MAX_DEPTH.max, maxFiles = 10_000): AffectedPayload {
  const git = (args: string[]): string[] => {
    try {
      return execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 })
        .split("\n")
        .filter(Boolean);
    } catch (e) {
      const err = e as { stderr?: Buffer | string; message: string };
      throw fault(
        CODEINTEL_CODES.git_failed,
        "git_failed",
        `git diff against '${rev}' failed: ${String(err.stderr ?? err.message).trim().split("\n")[0] ?? ""}`,
        "Pass --affected-since a revision of this repository (a commit, branch or tag), inside a git work tree.",
        EXIT.usage,
      );
    }
  };
  const changed = [...new Set([...git(["diff", "--name-only", "--no-renames", "--relative", rev, "--"]), ...git(["ls-files", "--others", "--exclude-standard"])])].sort();
  const depthOf = new Map<string, number>();
  let frontier = changed.filter((f) => graph.has(f));
  for (const f of frontier) depthOf.set(f, 0);
  // A file deleted (or renamed away) since REV is in no graph once the index has caught up, and
  // its importers' imports of it no longer resolve: they are what must be looked at again.
  const gone = changed.filter((f) => !graph.has(f) && !existsSync(join(root, f)));
  const orphaned = gone.length > 0 ? importersOfGone(db, gone).filter((f) => !depthOf.has(f)) : [];
  let truncated = false;
  for (let d = 1; d <= maxDepth && (frontier.length > 0 || (d === 1 && orphaned.length > 0)); d++) {
    const next: string[] = [];
    if (d === 1) {
      for (const f of orphaned) {
        depthOf.set(f, 1);
        next.push(f);
      }
    }
    for (const f of frontier) {
      for (const e of graph.in(f)) {
        if (depthOf.has(e.source)) continue;
        if (depthOf.size >= maxFiles) {
          truncated = true;
          break;
        }
        depthOf.set(e.source, d);
        next.push(e.source);
      }
    }
    frontier = next;
  }
  const symQ = db.prepare(
    "SELECT s.symbol_id, s.name, s.kind_normalized AS kind FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.parent_symbol_id IS NULL ORDER BY s.byte_start LIMIT 200",
  );
  const affected = [...depthOf]
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([file, depth]) => ({ file, depth, is_test: isTestPath(file), symbols: symQ.all(file) as { symbol_id: string; name: string; kind: string }[] }));
  return {
    repo_id: cachedRepoId(root),
    since: rev,
    changed,
    affected,
    tests: affected.filter((a) => a.is_test).map((a) => a.file).sort(),
    truncated,
  };
}

/**
 * Files with an unresolved import that named one of `gone` (deleted paths): a relative
 * specifier that led there from the importer's directory (`./a` for a.ts, `../lib` for
 * lib/index.js, `.models` for a Python module beside it), or a module path, include or package
 * that ends where the path does (`com.x.Util`, `pkg.mod`, `util/str.h`, a Go import of the
 * deleted file's directory).
 */
function importersOfGone(db: DB, gone: string[]): string[] {
  const stemOf = (p: string): string => p.replace(/\.[^./]+$/, "");
  const targets = new Set<string>();
  const dirs = new Set<string>();
  for (const p of gone) {
    targets.add(p);
    const stem = stemOf(p);
    targets.add(stem);
    if (/(^|\/)(index|__init__|mod)$/.test(stem)) targets.add(stem.replace(/\/?(index|__init__|mod)$/, ""));
    if (p.endsWith(".go")) dirs.add(posix.dirname(p));
  }
  const ends = (path: string): boolean => {
    for (const t of targets) if (t !== "" && (path === t || t.endsWith(`/${path}`))) return true;
    return false;
  };
  const rows = db
    .prepare("SELECT DISTINCT f.path, d.spec FROM deps d JOIN files f ON f.id = d.file_id WHERE d.status = 'unresolved' AND d.spec IS NOT NULL ORDER BY f.path")
    .raw()
    .all() as [string, string][];
  const out = new Set<string>();
  for (const [importer, spec] of rows) {
    const here = posix.dirname(importer);
    let hit = false;
    if (spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..") hit = targets.has(posix.normalize(posix.join(here, spec)));
    else if (/^\.+[\w.]*$/.test(spec)) {
      // Python's relative import: each leading dot past the first is a directory up.
      const dots = (/^\.+/.exec(spec) as RegExpExecArray)[0].length;
      const rest = spec.slice(dots).replaceAll(".", "/");
      hit = targets.has(posix.normalize(posix.join(here, "../".repeat(dots - 1), rest)));
    } else {
      const path = spec.includes("/") || /\.(h|hh|hpp|hxx|inc)$/.test(spec) ? spec : spec.replaceAll("::", "/").replaceAll(".", "/");
      hit = ends(path) || [...dirs].some((d) => d !== "." && (spec === d || spec.endsWith(`/${d}`)));
    }
    if (hit) out.add(importer);
  }
  return [...out].sort();
}

/** The state directory beside the index (`.magellan/`), where import_traces.jsonl may live. */
export function stateDirOf(dbPath: string): string {
  return dirname(dbPath);
}
