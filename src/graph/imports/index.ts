/**
 * The impact graph's resolution step: each file's stored dependencies (deps) resolved to
 * indexed files (impact_edges), per language (one module per language family in this folder).
 *
 * Incremental: a changed file re-resolves its own dependencies; when files were added or removed,
 * every file whose dependency text mentions the added or removed file's module name (its stem,
 * or its directory's for index/__init__/mod files), every file with a template pattern, every
 * file with an edge into a removed file, and (Java) every Java file re-resolves as well; when a
 * configuration file that resolution read (tsconfig.json, package.json, go.mod, go.work,
 * Cargo.toml, compile_commands.json, build files) changed, appeared or went away, everything
 * re-resolves. The result equals that of `index --rebuild` (tested).
 */
import { existsSync } from "node:fs";
import { join, posix } from "node:path";
import { type DB, getMeta, setMeta, stmt } from "../db.js";
import { languageForPath } from "../../lang/registry.js";
import { BUILD_FILES, CImports } from "./c.js";
import { GoImports } from "./go.js";
import { JavaImports } from "./java.js";
import { PythonImports } from "./python.js";
import { configsChanged, RepoFiles } from "./repo.js";
import { RustImports } from "./rust.js";
import type { DepOutcome, DepRow } from "./types.js";
import { saveTypeScriptCodeCache, TypeScriptImports } from "./typescript.js";

export class ImpactResolver {
  readonly repo;
  private ts?: TypeScriptImports;
  private py?: PythonImports;
  private rust?: RustImports;
  private go?: GoImports;
  private c?: CImports;
  private java?: JavaImports;
  private readonly depsOf;
  private readonly insEdge;
  private readonly setStatus;
  private readonly delEdges;

  constructor(
    private readonly db: DB,
    root: string,
  ) {
    this.repo = new RepoFiles(db, root);
    this.depsOf = db.prepare("SELECT * FROM deps WHERE file_id = ? ORDER BY id");
    this.insEdge = db.prepare("INSERT INTO impact_edges(dep_id, source_id, target_id, kind, type_only, guessed) VALUES (?, ?, ?, ?, ?, ?)");
    this.setStatus = db.prepare("UPDATE deps SET status = ? WHERE id = ?");
    this.delEdges = db.prepare("DELETE FROM impact_edges WHERE source_id = ?");
  }

  private resolveDep(language: string, from: string, d: DepRow): DepOutcome {
    switch (language) {
      case "typescript":
      case "tsx":
      case "javascript": {
        this.ts ??= new TypeScriptImports(this.repo);
        if (d.spec === null && d.pattern !== null) {
          // The lexicographically smallest match, as seed 04 asks; none: unresolved.
          const m = this.ts.matchPattern(from, d.pattern);
          return m.length > 0 ? { status: "resolved", targets: [m[0] as number] } : { status: "unresolved", targets: [] };
        }
        return this.ts.resolve(from, d);
      }
      case "python": {
        this.py ??= new PythonImports(this.repo);
        if (d.spec === null && d.pattern !== null) {
          const m = this.py.matchPattern(d.pattern);
          return m.length > 0 ? { status: "resolved", targets: [m[0] as number] } : { status: "unresolved", targets: [] };
        }
        return this.py.resolve(from, d);
      }
      case "rust":
        this.rust ??= new RustImports(this.repo);
        return this.rust.resolve(from, d);
      case "go":
        return this.goImports().resolve(from, d);
      case "c":
      case "cpp":
        this.c ??= new CImports(this.repo);
        return this.c.resolve(from, d);
      case "java":
        this.java ??= new JavaImports(this.repo, this.db);
        return this.java.resolve(from, d);
      default:
        return { status: "external", targets: [] };
    }
  }

  /** Set: edges are appended here instead of inserted (see coldImpactSteps). */
  held: unknown[][] | undefined;
  /** Set: statuses are appended here ([status, dep id]) instead of written. */
  heldStatuses: unknown[][] | undefined;

  /** Inserts edges held earlier, as resolveFiles would have. */
  insertHeld(edges: unknown[][]): void {
    for (const e of edges) this.insEdge.run(...e);
  }

  /** Writes statuses held earlier. */
  writeHeldStatuses(statuses: unknown[][]): void {
    for (const s of statuses) this.setStatus.run(...s);
  }

  private edge(depId: number, source: number, target: number, kind: string, typeOnly: number, guessed: number): void {
    if (this.held) this.held.push([depId, source, target, kind, typeOnly, guessed]);
    else this.insEdge.run(depId, source, target, kind, typeOnly, guessed);
  }

  private goImports(): GoImports {
    this.go ??= new GoImports(this.repo, this.db);
    return this.go;
  }

  /** Go: the import path of the package in `dir`, as importers write it. */
  goImportPath(dir: string): string | undefined {
    return this.goImports().importPathOf(dir);
  }

  /**
   * Re-resolves the dependencies of the given files (inside the caller's transaction). `fresh`:
   * the caller has just emptied impact_edges (a cold run), so no file has edges to delete.
   */
  resolveFiles(ids: Iterable<number>, fresh = false): number {
    let n = 0;
    for (const id of ids) {
      const f = this.repo.byId.get(id);
      if (!fresh) this.delEdges.run(id);
      if (!f) continue;
      const deps = this.depsOf.all(id) as DepRow[];
      // The file's edges are exactly those inserted here (its old ones are gone: deleted above,
      // or the caller emptied the table).
      const imported = new Set<number>();
      for (const d of deps) {
        const o = this.resolveDep(f.language, f.path, d);
        if (this.heldStatuses) this.heldStatuses.push([o.status, d.id]);
        else this.setStatus.run(o.status, d.id);
        for (const t of o.targets) {
          if (t === id) continue;
          this.edge(d.id, id, t, d.kind, d.type_only, o.guessed ? 1 : 0);
          imported.add(t);
        }
        n++;
      }
      if (f.language === "java") {
        this.java ??= new JavaImports(this.repo, this.db);
        const pkg = deps.find((d) => d.form === "package");
        for (const t of this.java.samePackage(id, pkg?.spec ?? undefined)) if (!imported.has(t)) this.edge(pkg?.id ?? 0, id, t, "import", 0, 0);
      } else if (f.language === "go") {
        for (const t of this.goImports().samePackage(id)) if (!imported.has(t)) this.edge(0, id, t, "import", 0, 0);
      }
    }
    return n;
  }
}

export interface ImpactUpdate {
  cold: boolean;
  changedIds: number[];
  addedPaths: string[];
  removedPaths: string[];
  /** Changed files' impact rows from before the run (impactSnapshot), by file id. */
  before?: Map<number, ImpactSnapshot>;
}

/**
 * A file's dependencies as they were and what they resolved to: kept when the run stores the same
 * dependencies again (an edit that touched no import) and nothing else the resolution reads
 * changed (no file added or removed, no configuration). For TypeScript and JavaScript, where
 * resolving means loading the compiler: ~50 ms of a one-file re-index's ~300 (effect's
 * Option.ts), for the same edges.
 */
export interface ImpactSnapshot {
  /** The dependencies as written, in order (not their lines). */
  deps: string;
  statuses: string[];
  /** [dependency's index, target file, kind, type_only, guessed]. */
  edges: [number, number, string, number, number][];
}

const KEPT_LANGUAGES = new Set(["typescript", "tsx", "javascript"]);

function depsKey(db: DB, fileId: number): { key: string; ids: number[]; statuses: string[] } {
  const rows = stmt(db, "SELECT id, kind, form, spec, pattern, text, names, type_only, path_attr, status FROM deps WHERE file_id = ? ORDER BY id", true).all(fileId) as unknown[][];
  return { key: JSON.stringify(rows.map((r) => r.slice(1, 9))), ids: rows.map((r) => r[0] as number), statuses: rows.map((r) => r[9] as string) };
}

/** A changed file's impact rows before the run replaces them (undefined: a language whose are not kept). */
export function impactSnapshot(db: DB, fileId: number, language: string): ImpactSnapshot | undefined {
  if (!KEPT_LANGUAGES.has(language)) return undefined;
  const { key, ids, statuses } = depsKey(db, fileId);
  const index = new Map(ids.map((id, k) => [id, k]));
  const edges: ImpactSnapshot["edges"] = [];
  for (const e of stmt(db, "SELECT dep_id, target_id, kind, type_only, guessed FROM impact_edges WHERE source_id = ? ORDER BY rowid", true).all(fileId) as [number, number, string, number, number][]) {
    const k = index.get(e[0]);
    if (k === undefined) return undefined;
    edges.push([k, e[1], e[2], e[3], e[4]]);
  }
  return { deps: key, statuses, edges };
}

/** Puts a file's snapshot back on its new dependency rows when they are the same; false when they are not. */
function restoreImpact(db: DB, fileId: number, snap: ImpactSnapshot): boolean {
  const now = depsKey(db, fileId);
  if (now.key !== snap.deps) return false;
  const status = stmt(db, "UPDATE deps SET status = ? WHERE id = ?");
  now.ids.forEach((id, k) => status.run(snap.statuses[k], id));
  stmt(db, "DELETE FROM impact_edges WHERE source_id = ?").run(fileId);
  const ins = stmt(db, "INSERT INTO impact_edges(dep_id, source_id, target_id, kind, type_only, guessed) VALUES (?, ?, ?, ?, ?, ?)");
  for (const [k, target, kind, typeOnly, guessed] of snap.edges) ins.run(now.ids[k], fileId, target, kind, typeOnly, guessed);
  return true;
}

/** Module names a path can be imported by: its stem, or its directory's for an index file. */
function stems(path: string): string[] {
  const base = posix.basename(path).replace(/(\.d)?\.[^.]+$/, "");
  const dir = posix.basename(posix.dirname(path));
  return /^(index|__init__|mod|lib|main)$/.test(base) ? [base, dir] : [base, dir];
}

const CONFIG_NAMES = ["package.json", "tsconfig.json", "jsconfig.json", "pnpm-workspace.yaml", "go.mod", "Cargo.toml", "compile_commands.json"];
const C_CONFIG_NAMES = [...CONFIG_NAMES, ...BUILD_FILES];

/**
 * A configuration file in the directory of an added file (or above it) that resolution never
 * read: a new workspace package, module or crate may change what other files resolve to.
 */
export function newConfigs(root: string, configs: Record<string, string>, added: string[]): boolean {
  const seen = new Set<string>();
  // A C or C++ file's directory and its ancestors are where the include paths' build files are
  // read, unless a compilation database gives the paths (then no build file is).
  const compdb = ["compile_commands.json", "build/compile_commands.json"].some((c) => configs[c] !== undefined && configs[c] !== "-");
  const isC = (p: string): boolean => {
    const language = compdb ? undefined : languageForPath(p)?.id;
    return language === "c" || language === "cpp";
  };
  const ordered = [...added].sort((a, b) => Number(isC(b)) - Number(isC(a)));
  for (const p of ordered) {
    const names = isC(p) ? C_CONFIG_NAMES : CONFIG_NAMES;
    for (let d = posix.dirname(p); !seen.has(d); d = posix.dirname(d)) {
      seen.add(d);
      for (const n of names) {
        const rel = d === "." ? n : `${d}/${n}`;
        if (!(rel in configs) && existsSync(join(root, rel))) return true;
      }
      if (d === ".") break;
    }
  }
  return false;
}

const COMPILER_LANGUAGES = new Set(["typescript", "tsx", "javascript"]);

/**
 * A cold index's impact step in two parts. Each `step` (between the resolution's outcomes: the
 * main thread waits on the resolve worker for a third of that phase) resolves, for about
 * `sliceMs` and in its own transaction, the dependencies of the next files in id order that need
 * no TypeScript compiler, and returns true while files remain; their statuses are written, their
 * edges held. (Not the compiler's files: its ~50 MB on top of the resolve worker's heap took the
 * 76 MB mixed tree's peak from 350-390 to 398-431 MB, even when let go as soon as it was done.)
 * `compute` resolves the rest and writes nothing (another connection may be building an index
 * meanwhile): statuses and edges held. `finish`, after the index's ANALYZE (which must see no
 * edge, as when updateImpact runs after it), computes what is left, writes the held statuses and
 * inserts every edge in the order updateImpact would have. A killed run leaves resolve_pending
 * set, and the next run starts over. Needs refs_file (Java reads each file's reference names).
 */
export function coldImpactSteps(db: DB, root: string, sliceMs = 40): { step: () => boolean; compute: () => void; finish: () => number } {
  let resolver: ImpactResolver | undefined;
  let ids: number[] = [];
  let at = 0;
  let n = 0;
  // Each file's held edges, by id: present once the file is resolved.
  const held = new Map<number, unknown[][]>();
  const start = (): ImpactResolver => {
    if (resolver) return resolver;
    resolver = new ImpactResolver(db, root);
    ids = [...resolver.repo.byId.keys()].sort((a, b) => a - b);
    return resolver;
  };
  // The compiler's files' statuses, held by `compute` until `finish`.
  const statuses: unknown[][] = [];
  const resolve = (r: ImpactResolver, id: number, edges: unknown[][], holdStatuses: boolean): void => {
    r.held = edges;
    if (holdStatuses) r.heldStatuses = statuses;
    try {
      n += r.resolveFiles([id], true);
    } finally {
      r.held = undefined;
      r.heldStatuses = undefined;
      held.set(id, edges);
    }
  };
  /** Resolves every file not resolved yet, writing nothing (another connection may be writing). */
  const compute = (): void => {
    const r = start();
    for (const id of ids) if (!held.has(id)) resolve(r, id, [], true);
  };
  return {
    step: () => {
      const r = start();
      db.transaction(() => {
        const until = performance.now() + sliceMs;
        for (; at < ids.length && performance.now() < until; at++) {
          const id = ids[at] as number;
          if (!COMPILER_LANGUAGES.has(r.repo.byId.get(id)?.language ?? "")) resolve(r, id, [], false);
        }
      })();
      return at < ids.length;
    },
    compute,
    finish: () => {
      compute();
      const r = start();
      db.transaction(() => {
        r.writeHeldStatuses(statuses);
        db.exec("DELETE FROM impact_edges");
        for (const id of ids) r.insertHeld(held.get(id) as unknown[][]);
        setMeta(db, "impact_configs", configsJson(r.repo.configs));
        setMeta(db, "impact_pending", "0");
      })();
      held.clear();
      statuses.length = 0;
      saveTypeScriptCodeCache();
      return n;
    },
  };
}

/**
 * The configuration files resolution read, with their signatures, in path order: the order they
 * were read in depends on which resolution asked first (the compiler's or a shortcut's), and an
 * index must be the same whichever way it was built.
 */
function configsJson(configs: Map<string, string>): string {
  return JSON.stringify(Object.fromEntries([...configs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/** Brings the impact graph up to date with the files an index run stored; returns dependencies resolved. */
export function updateImpact(db: DB, root: string, u: ImpactUpdate): number {
  const configs = JSON.parse(getMeta(db, "impact_configs") ?? "{}") as Record<string, string>;
  const all = u.cold || getMeta(db, "impact_pending") === "1" || configsChanged(root, configs) || newConfigs(root, configs, u.addedPaths);
  const resolver = new ImpactResolver(db, root);
  let ids: Set<number>;
  if (all) {
    db.exec("DELETE FROM impact_edges");
    ids = new Set(resolver.repo.byId.keys());
  } else {
    ids = new Set(u.changedIds);
    // Go: a package's files depend on each other by the names they declare, so a changed, added
    // or removed file re-resolves its whole directory.
    const goDirs = new Set<string>();
    for (const id of u.changedIds) {
      const f = resolver.repo.byId.get(id);
      if (f?.language === "go") goDirs.add(posix.dirname(f.path));
    }
    // A package that gained or lost a file re-resolves its importers too, found by import path
    // (the module root's package has no directory name in it that the stems below would find).
    const byPath = db.prepare("SELECT DISTINCT file_id FROM deps WHERE spec = ?").pluck();
    for (const p of [...u.addedPaths, ...u.removedPaths]) {
      if (!p.endsWith(".go")) continue;
      goDirs.add(posix.dirname(p));
      const path = resolver.goImportPath(posix.dirname(p));
      if (path !== undefined) for (const id of byPath.all(path) as number[]) ids.add(id);
    }
    for (const d of goDirs) for (const g of resolver.repo.dirs.get(d) ?? []) if (g.language === "go") ids.add(g.id);
    // Edges into files that are gone (removed, or re-added under a new id).
    for (const id of db.prepare("SELECT DISTINCT source_id FROM impact_edges WHERE target_id NOT IN (SELECT id FROM files)").pluck().all() as number[]) ids.add(id);
    const touched = [...u.addedPaths, ...u.removedPaths];
    if (touched.length > 0) {
      const st = db.prepare(
        "SELECT DISTINCT file_id FROM deps WHERE instr(spec, ?) > 0 OR instr(names, ?) > 0 OR instr(pattern, ?) > 0",
      ).pluck();
      for (const s of new Set(touched.flatMap(stems))) if (s && s !== ".") for (const id of st.all(s, s, s) as number[]) ids.add(id);
      for (const id of db.prepare("SELECT DISTINCT file_id FROM deps WHERE pattern IS NOT NULL OR spec IN ('.', '..', './', '../') OR spec LIKE '%/.' OR spec LIKE '%/..'").pluck().all() as number[]) ids.add(id);
      if (touched.some((p) => p.endsWith(".java"))) for (const f of resolver.repo.byId.values()) if (f.language === "java") ids.add(f.id);
      // Rust: a `crate::`/`super::` path that names no module file reaches its start module
      // (lib.rs, main.rs, a.rs or a/mod.rs), which a file added or removed may be.
      if (touched.some((p) => p.endsWith(".rs"))) {
        for (const id of db.prepare("SELECT DISTINCT file_id FROM deps WHERE form = 'use' AND (spec LIKE 'crate%' OR spec LIKE 'super%' OR spec LIKE 'self%')").pluck().all() as number[]) ids.add(id);
      }
    }
  }
  db.prepare("DELETE FROM impact_edges WHERE source_id NOT IN (SELECT id FROM files) OR target_id NOT IN (SELECT id FROM files)").run();
  // A changed file whose dependencies came back the same resolves as before when the files and
  // configurations it resolves against are as before.
  if (!all && u.before && u.addedPaths.length + u.removedPaths.length === 0) {
    for (const [id, snap] of u.before) if (ids.has(id) && restoreImpact(db, id, snap)) ids.delete(id);
  }
  const sorted = [...ids].sort((a, b) => a - b);
  const n = resolver.resolveFiles(sorted, all);
  const merged = new Map(all ? [] : Object.entries(configs));
  for (const [k, v] of resolver.repo.configs) merged.set(k, v);
  setMeta(db, "impact_configs", configsJson(merged));
  setMeta(db, "impact_pending", "0");
  saveTypeScriptCodeCache();
  return n;
}
