/** magellan's query commands as plain functions: request in, data and diagnostics out. */
import { matchId } from "../../contract/ids.js";
import { EXIT, ToolError } from "../../contract/errors.js";
import type { Diagnostic } from "../../contract/schema.js";
import { closeSync, existsSync, lstatSync, openSync, readSync } from "node:fs";
import { isAbsolute, join, posix, resolve } from "node:path";
import { DEFAULT_MAX_FILE_BYTES, MAGELLAN_CODES } from "../../graph/codes.js";
import { DB_SCHEMA_VERSION, type DB, getMeta, stmt } from "../../graph/db.js";
import { fitsArity, kindMatches } from "../../graph/facts.js";
import {
  type IndexedFile,
  type MatchMode,
  type RefRecord,
  type SymbolRecord,
  allIndexedPaths,
  counts,
  fileImportsName,
  fileRecord,
  filesWithCounts,
  findSymbols,
  nameSpanOf,
  refsFrom,
  refsTo,
  resolvedNamed,
  isDeclaration,
  sameFunction,
  siblingOverloadRefs,
  spanOf,
  staleFiles,
  suggestNames,
  suggestPaths,
  symbolById,
  symbolsInFile,
  relatedMethods,
  unresolvedNamed,
} from "../../graph/read.js";
import { languageForPath } from "../../lang/registry.js";
import { goModuleOf, goPackageName } from "../../graph/resolve/go.js";
import { isBinary } from "../../text/binary.js";
import { isInside, resolveInRoot } from "../../text/root.js";
import { type Answer, type Location, TOOL, freshnessDiagnostics, withReadDb } from "./common.js";
import { FileCache, type RichOptions, relationships, spanExtras } from "./rich.js";
import { closingIndex } from "../../lang/type-text.js";

const DEFAULT_LIMIT = 200;

function exportsOf(db: DB): (fileId: number) => string[] {
  // Asked only with --with-callers/--with-callees; stmt() prepares on first use.
  return (id) => {
    const names = stmt(db, "SELECT name FROM symbols WHERE file_id = ? AND flags LIKE '%export%' GROUP BY name ORDER BY min(byte_start)").pluck().all(id) as string[];
    // The names a module gives its own declarations (`export { Hono as HonoBase }`: an import of
    // source "", see extract.ts @import.own) are exports too.
    for (const row of stmt(db, "SELECT names FROM imports WHERE file_id = ? AND source = '' ORDER BY byte_start").pluck().all(id) as string[]) {
      for (const n of JSON.parse(row) as { name: string; alias?: string }[]) if (n.alias !== undefined && !names.includes(n.alias)) names.push(n.alias);
    }
    return names;
  };
}

function symbolMatch(db: DB, s: SymbolRecord, question: string, rich: RichOptions, cache: FileCache, exp: (id: number) => string[]): Record<string, unknown> {
  const span = spanOf(s.path, s);
  const m: Record<string, unknown> = {
    match_id: matchId(TOOL, span.span_id, question),
    span,
    name: s.name,
    kind: s.kind,
  };
  if (s.parent) m.parent = s.parent;
  m.symbol_id = s.symbol_id;
  m.kind_normalized = s.kind_normalized;
  m.language = s.language;
  m.canonical_fqn = s.canonical_fqn;
  m.display_fqn = s.display_fqn;
  m.name_span = nameSpanOf(s);
  if (s.parent_symbol_id) m.parent_symbol_id = s.parent_symbol_id;
  if (s.flags) m.flags = s.flags.split(",");
  // Java and C++ overloads share a name: the arguments each takes tells them apart.
  if (s.arity) m.arity = s.arity;
  Object.assign(m, spanExtras(cache, s.path, s, rich), relationships(db, s, rich, exp));
  return m;
}

function referenceMatch(r: RefRecord, question: string, rich: RichOptions, cache: FileCache): Record<string, unknown> {
  const span = spanOf(r.path, r);
  const m: Record<string, unknown> = {
    match_id: `ref_${matchId(TOOL, span.span_id, question)}`,
    span,
    referenced_symbol: r.name,
    reference_kind: r.kind,
  };
  if (r.target_symbol_id) m.target_symbol_id = r.target_symbol_id;
  m.resolution = r.resolution;
  if (r.candidates) m.candidates = JSON.parse(r.candidates) as string[];
  if (r.qualifier) m.qualifier = r.qualifier;
  if (r.caller_name) m.caller = r.caller_name;
  if (r.caller_symbol_id) m.caller_symbol_id = r.caller_symbol_id;
  if (r.target_display_fqn) m.target_display_fqn = r.target_display_fqn;
  Object.assign(m, spanExtras(cache, r.path, r, rich));
  return m;
}

export function unknownName(db: DB, name: string): ToolError {
  const near = suggestNames(db, name);
  return new ToolError({
    code: MAGELLAN_CODES.symbol_not_found,
    error: "symbol_not_found",
    message: `no symbol named '${name}' in the index${near.length ? `; did you mean: ${near.join(", ")}?` : ""}`,
    remediation: near.length
      ? `Try one of: ${near.map((n) => `'${n}'`).join(", ")}; or search loosely with --match fuzzy. If the code is new, run 'magellan index'.`
      : "Check the spelling, search loosely with --match substring or fuzzy, or run 'magellan index' if the code is new.",
  });
}

/** A name written with its scopes (`A.b`, `a::B::c`, `pkg/mod.f`): the segments, last one apart. */
export function splitQualified(name: string): { last: string; segments: string[] } | undefined {
  // `Class#method` separates with `#`, but a `#` that starts a segment is a JS/TS private name's
  // own (`Ky.#retry`): split there, the lookup was `retry` and found only unrelated ones.
  const segments = name.split(/::|\.|\/|(?<=[^.:/>#])#|->/).filter(Boolean);
  if (segments.length < 2) return undefined;
  return { last: segments[segments.length - 1] as string, segments };
}

/** Whether the segments are the tail of the fully qualified name, segment by segment. */
export function fqnEndsWith(fqn: string, segments: string[]): boolean {
  const parts = fqnParts(fqn);
  if (parts.length < segments.length) return false;
  return segments.every((seg, i) => {
    const part = parts[parts.length - segments.length + i] as string;
    if (part === seg) return true;
    // A Rust trait impl's scope, `<InteractivePrinter as Printer>`, is its type's too:
    // `InteractivePrinter::print_line` names the method of that impl.
    const impl = /^<(.+?) as .+>$/.exec(part);
    return impl !== null && ((impl[1] as string).replace(/<.*$/, "").split("::").pop() === seg || impl[1] === seg);
  });
}

/** A display_fqn's scopes: split at `::`, `.` and `/`, but not inside a Rust impl's `<T as a::Trait>`. */
function fqnParts(fqn: string): string[] {
  const parts: string[] = [];
  let cur = "";
  let depth = 0;
  for (let i = 0; i < fqn.length; i++) {
    const c = fqn[i] as string;
    if (depth > 0 || (c === "<" && cur === "")) {
      if (c === "<") depth++;
      else if (c === ">") depth--;
      cur += c;
      continue;
    }
    if (c === ":" && fqn[i + 1] === ":") i++;
    else if (c !== "." && c !== "/") {
      cur += c;
      continue;
    }
    if (cur) parts.push(cur);
    cur = "";
  }
  if (cur) parts.push(cur);
  return parts;
}

export function unknownQualified(name: string, last: string, fqns: string[]): ToolError {
  const shown = [...new Set(fqns)].slice(0, 5);
  return new ToolError({
    code: MAGELLAN_CODES.symbol_not_found,
    error: "symbol_not_found",
    message: `no symbol '${name}' in the index; symbols named '${last}': ${shown.join(", ")}${fqns.length > shown.length ? ", ..." : ""}`,
    remediation: `Qualify the name as one of those (e.g. '${shown[0]}'), or find them all with --name ${last}.`,
  });
}

/**
 * The symbols an exact name names, written plain (`make_response`) or with its scopes
 * (`Flask.make_response`, `CLI::App::add_option`): for the latter the last segment is the name
 * and the rest must end its display_fqn (any of . :: / as separator). A qualified name that
 * fits none of the symbols of its last segment is refused, naming them; find, refs, callers,
 * callees and the graph commands all read names this way.
 */
export function exactSymbols(db: DB, name: string, path: string | undefined, limit: number): SymbolRecord[] {
  const rows = findSymbols(db, { name, mode: "exact", path, limit });
  if (rows.length > 0) return rows;
  const qualified = splitQualified(name);
  if (!qualified) return rows;
  const all = findSymbols(db, { name: qualified.last, mode: "exact", path, limit: Number.MAX_SAFE_INTEGER });
  let hit = all.filter((s) => fqnEndsWith(s.display_fqn, qualified.segments));
  if (hit.length === 0 && all.some((s) => s.language === "go")) hit = all.filter((s) => s.language === "go" && fqnEndsWith(goPackageFqn(db, s), qualified.segments));
  if (hit.length === 0 && all.length > 0) throw unknownQualified(name, qualified.last, all.map((s) => s.display_fqn));
  return hit.slice(0, limit);
}

/**
 * A Go symbol's name as its importers write it: the package clause's name, then its scopes
 * (`chi.NewRouter`, `chi.Mux.ServeHTTP`). Its display_fqn starts with its directory, and the
 * module root's package with nothing, so `find --name chi.NewRouter` found nothing on go-chi/chi.
 */
function goPackageFqn(db: DB, s: SymbolRecord): string {
  const dir = s.path.includes("/") ? s.path.slice(0, s.path.lastIndexOf("/")) : "";
  let names: Record<string, string | null> = {};
  try {
    names = JSON.parse(getMeta(db, "go_packages") ?? "{}") as Record<string, string | null>;
  } catch {
    // An unreadable record names no package: the directory's name stands in.
  }
  const pkg = names[dir === "" ? "." : dir] ?? names[dir] ?? (dir === "" ? undefined : dir.slice(dir.lastIndexOf("/") + 1));
  const scoped = dir !== "" && s.display_fqn.startsWith(`${dir}.`) ? s.display_fqn.slice(dir.length + 1) : s.display_fqn;
  return pkg ? `${pkg}.${scoped}` : scoped;
}

export function unknownSymbolId(id: string): ToolError {
  return new ToolError({
    code: MAGELLAN_CODES.symbol_not_found,
    error: "symbol_not_found",
    message: `no symbol with symbol_id '${id}' in the index`,
    remediation: "symbol_ids come from 'magellan find' or 'magellan query'; the symbol may have been renamed or removed since (re-run find --name).",
  });
}

function note(message: string, code: string = MAGELLAN_CODES.no_matches): Diagnostic {
  return { tool: TOOL, level: "note", code, message };
}

/** A user-supplied path as the index spells it; refuses paths outside the root. */
function rootRelative(root: string, p: string, cwd: string = process.cwd()): string {
  // A relative path that names no file, from here or from the root, is the root's when from here
  // it would lie outside the root: the tools print root-relative paths. (`query --file
  // src/click/nope.py --root R` from elsewhere said the path lay outside R, where it is a file
  // not in the index, with names it may have meant; as `impact --file` answers.)
  if (!isAbsolute(p) && !/^\.\.?([/\\]|$)/.test(p)) {
    const here = resolve(cwd, p);
    if (!isInside(root, here) && !existsSync(here)) return resolveInRoot(TOOL, root, join(root, p), cwd).rel;
  }
  return resolveInRoot(TOOL, root, p, cwd).rel;
}

export interface FindRequest extends Location, RichOptions {
  name?: string;
  symbolId?: string;
  path?: string;
  kind?: string;
  match?: MatchMode;
  limit?: number;
}

/**
 * An empty or blank --name names nothing: no symbol is called that, and the lookups below would
 * answer "not found, did you mean u?" (or, loosely matched, every symbol).
 */
export function refuseBlankName(name: string | undefined): void {
  if (name === undefined || name.trim() !== "") return;
  throw new ToolError({
    code: MAGELLAN_CODES.usage,
    error: "invalid_arguments",
    message: "the symbol name is empty: it names no symbol",
    remediation: "Pass a symbol's name (e.g. --name main) or a symbol_id from 'magellan find'.",
    exitCode: EXIT.usage,
  });
}

export function find(req: FindRequest): Answer<Record<string, unknown>> {
  if ((req.name === undefined) === (req.symbolId === undefined)) {
    throw new ToolError({
      code: MAGELLAN_CODES.usage,
      error: "invalid_arguments",
      message: "find needs exactly one of --name and --symbol-id",
      remediation: "magellan find --name NAME [--match exact|prefix|substring|fuzzy], or magellan find --symbol-id ID",
      exitCode: EXIT.usage,
    });
  }
  refuseBlankName(req.name);
  return withReadDb(req, (db, { root }) => {
    const mode = req.match ?? "exact";
    const limit = req.limit ?? DEFAULT_LIMIT;
    const cache = new FileCache(root);
    const exp = exportsOf(db);
    const diagnostics: Diagnostic[] = [];
    let rows: SymbolRecord[];
    let question: string;
    const path = req.path !== undefined ? rootRelative(root, req.path, req.cwd) : undefined;
    if (req.symbolId !== undefined) {
      const s = symbolById(db, req.symbolId.toLowerCase());
      if (!s) throw unknownSymbolId(req.symbolId);
      rows = [s];
      question = `find:symbol_id:${req.symbolId}`;
    } else {
      const name = req.name as string;
      rows = mode === "exact" ? exactSymbols(db, name, path, limit + 1) : findSymbols(db, { name, mode, path, limit: limit + 1 });
      question = `find:${mode}:${name}`;
    }
    const beforeKind = rows.length;
    if (req.kind) rows = rows.filter((s) => kindMatches(req.kind as string, s.kind, s.kind_normalized));
    const partial = rows.length > limit;
    rows = rows.slice(0, limit);
    if (rows.length === 0 && req.name !== undefined) {
      const lookedUp = mode === "exact" ? (splitQualified(req.name)?.last ?? req.name) : req.name;
      const anyWithName = findSymbols(db, { name: req.name, mode, limit: 1 }).length > 0 || findSymbols(db, { name: lookedUp, mode, limit: 1 }).length > 0;
      if (!anyWithName && mode === "exact") throw unknownName(db, req.name);
      if (!anyWithName) diagnostics.push(note(`no symbol name matches '${req.name}' (${mode})`));
      else if (beforeKind > 0) diagnostics.push(note(`symbols named '${req.name}' exist, but none of kind '${req.kind}'`));
      else diagnostics.push(note(`symbols named '${req.name}' exist, but none under '${path}'`));
    }
    if (partial) diagnostics.push(note(`more than ${limit} matches; raise --limit to see more`, MAGELLAN_CODES.no_matches));
    const matches = rows.map((s) => symbolMatch(db, s, question, req, cache, exp));
    const indexed = new Map<string, IndexedFile>();
    for (const s of rows) {
      if (s.file_size !== undefined) indexed.set(s.path, { size: s.file_size, mtime_ms: s.file_mtime_ms as number });
    }
    diagnostics.unshift(...freshnessDiagnostics(db, root, rows.map((s) => s.path), 20, indexed));
    const data: Record<string, unknown> = { matches };
    if (req.name !== undefined) data.query_name = req.name;
    if (req.symbolId !== undefined) data.symbol_id = req.symbolId.toLowerCase();
    if (path !== undefined) data.file_filter = path;
    if (req.kind !== undefined) data.kind_filter = req.kind;
    data.match_mode = mode;
    data.count = matches.length;
    return { data, diagnostics, partial };
  });
}

/** What an index run would have said of a file it does not hold, from the file as it is on disk. */
function whyNotIndexed(db: DB, root: string, rel: string, near: string[]): string {
  try {
    const skipped = JSON.parse(getMeta(db, "skipped") ?? "[]") as [string, string, string][];
    const hit = skipped.find(([p]) => p === rel);
    if (hit) return `: the last index run skipped it (${hit[1]}: ${hit[2]})`;
  } catch {
    // An index written before skips were kept: look at the file itself.
  }
  const abs = join(root, rel);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    return near.length ? `; did you mean: ${near.join(", ")}?` : ": no such file";
  }
  if (st.isSymbolicLink()) return ": it is a symbolic link, which indexing does not follow";
  if (st.size > DEFAULT_MAX_FILE_BYTES) return `: ${st.size} bytes is over the default --max-file-size (${DEFAULT_MAX_FILE_BYTES})`;
  try {
    const fd = openSync(abs, "r");
    const head = Buffer.alloc(Math.min(st.size, 8192));
    readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    if (isBinary(head)) return ": it is binary (holds a NUL byte)";
  } catch {
    return ": it cannot be read";
  }
  return ": it is new or was changed into a source file since the last index";
}

export interface QueryRequest extends Location, RichOptions {
  file: string;
  kind?: string;
}

export function query(req: QueryRequest): Answer<Record<string, unknown>> {
  return withReadDb(req, (db, { root }) => {
    const rel = rootRelative(root, req.file, req.cwd);
    const rec = fileRecord(db, rel);
    if (!rec) {
      const lang = languageForPath(rel);
      const near = suggestPaths(db, rel);
      throw new ToolError({
        code: MAGELLAN_CODES.file_not_indexed,
        error: "file_not_indexed",
        message: lang
          ? `${rel} is not in the index${whyNotIndexed(db, root, rel, near)}`
          : `${rel} is not in the index: no supported language has its extension`,
        remediation: lang
          ? "Run 'magellan index' to add new files (ignored files, per .gitignore, are never indexed; `index --max-file-size` admits larger ones)."
          : "magellan indexes Rust, Python, C, C++, Java, JavaScript, TypeScript/TSX and Go sources.",
        file: rel,
      });
    }
    const cache = new FileCache(root);
    const exp = exportsOf(db);
    let rows = symbolsInFile(db, rel);
    if (req.kind) rows = rows.filter((s) => kindMatches(req.kind as string, s.kind, s.kind_normalized));
    const diagnostics = freshnessDiagnostics(db, root, [rel]);
    if (rows.length === 0) diagnostics.push(note(req.kind ? `no symbol of kind '${req.kind}' in ${rel}` : `${rel} defines no symbols`));
    const data: Record<string, unknown> = {
      symbols: rows.map((s) => symbolMatch(db, s, `query:${rel}`, req, cache, exp)),
      file_path: rel,
    };
    if (req.kind) data.kind_filter = req.kind;
    return { data, diagnostics };
  });
}

export interface RefsRequest extends Location, RichOptions {
  name?: string;
  symbolId?: string;
  direction?: "in" | "out";
  path?: string;
  kind?: string;
  limit?: number;
  /** Only references of these kinds (`call` for callers and callees). */
  referenceKinds?: string[];
  /** How many unresolved references to show as samples (default 5). */
  gapSamples?: number;
  /** --precise: the TypeScript language service for TS/JS references (given the root). */
  precise?: (root: string) => PreciseResolver;
}

/** Where the identifier at a byte offset of a file goes, per a compiler (src/graph/precise). */
export interface PreciseResolver {
  refresh(): void;
  definition(rel: string, byte: number): { path: string | undefined; byte: number; name: string } | undefined;
}

const PRECISE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** The indexed symbol a definition position names: by its name's start, else the innermost of that name around it. */
function symbolAt(db: DB, path: string, byte: number, name: string): string | undefined {
  const exact = stmt(db, "SELECT s.symbol_id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name_byte_start = ? ORDER BY s.byte_end - s.byte_start LIMIT 1")
    .pluck()
    .get(path, byte) as string | undefined;
  if (exact) return exact;
  return stmt(db, "SELECT s.symbol_id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.name = ? AND s.byte_start <= ? AND s.byte_end >= ? ORDER BY s.byte_end - s.byte_start LIMIT 1")
    .pluck()
    .get(path, name, byte, byte) as string | undefined;
}

interface PreciseOutcome {
  rows: RefRecord[];
  gaps?: RefRecord[];
  report: PreciseReport;
}

/**
 * data.precise: which mode ran. `answered`: the TypeScript language service was asked (the
 * counts say what it said); `warming` / `unavailable`: it was wanted but could not answer, and the
 * answer is the index's (a daemon or MCP server whose service was building or had died).
 */
export interface PreciseReport {
  status: "answered" | "warming" | "unavailable";
  asked: number;
  compiler: number;
  rejected: number;
  external: number;
  no_answer: number;
}

/**
 * --precise: each reference in a TS/JS file is asked of the language service. A reference whose
 * definition is one of the asked symbols (in) or an indexed symbol (out) gets that target and the
 * label `compiler`; a listed reference the compiler sends elsewhere is dropped (in) and a gap the
 * compiler ties elsewhere is no gap of this symbol. The others keep their labels.
 */
function applyPrecise(db: DB, root: string, req: RefsRequest, direction: "in" | "out", defs: SymbolRecord[], rows: RefRecord[]): PreciseOutcome {
  const p = (req.precise as (root: string) => PreciseResolver)(root);
  p.refresh();
  const report: PreciseReport = { status: "answered", asked: 0, compiler: 0, rejected: 0, external: 0, no_answer: 0 };
  const target = (r: RefRecord): { sid?: string; external?: boolean } | undefined => {
    report.asked++;
    const d = p.definition(r.path, r.byte_start);
    if (!d) {
      report.no_answer++;
      return undefined;
    }
    if (d.path === undefined) {
      report.external++;
      return { external: true };
    }
    const sid = symbolAt(db, d.path, d.byte, d.name);
    if (!sid) report.no_answer++;
    return sid ? { sid } : undefined;
  };
  const label = (r: RefRecord, sid: string): RefRecord => {
    report.compiler++;
    return { ...r, target_symbol_id: sid, resolution: "compiler", candidates: null, target_display_fqn: symbolById(db, sid)?.display_fqn ?? r.target_display_fqn };
  };
  if (direction === "out") {
    return { rows: rows.map((r) => { if (!PRECISE_FILE.test(r.path)) return r; const t = target(r); return t?.sid ? label(r, t.sid) : r; }), report };
  }
  const mine = new Set(defs.map((d) => d.symbol_id));
  const kept: RefRecord[] = [];
  for (const r of rows) {
    if (!PRECISE_FILE.test(r.path)) {
      kept.push(r);
      continue;
    }
    const t = target(r);
    if (t?.sid && mine.has(t.sid)) kept.push(label(r, t.sid));
    else if (t?.sid || t?.external) report.rejected++;
    else kept.push(r);
  }
  const gaps: RefRecord[] = [];
  for (const r of unresolvedNamed(db, defs.map((d) => d.name), req.referenceKinds, defs.map((d) => d.language))) {
    if (!PRECISE_FILE.test(r.path)) {
      gaps.push(r);
      continue;
    }
    const t = target(r);
    if (t?.sid && mine.has(t.sid)) kept.push(label(r, t.sid));
    else if (!t) gaps.push(r);
  }
  // The resolver tied these to another symbol of the same name (a same-named duplicate, a
  // wrong import guess): the compiler may tie them to this one.
  const listed = new Set(rows.map((r) => r.id));
  for (const r of resolvedNamed(db, defs.map((d) => d.name), req.referenceKinds)) {
    if (listed.has(r.id) || !PRECISE_FILE.test(r.path) || (r.target_symbol_id !== null && mine.has(r.target_symbol_id))) continue;
    const t = target(r);
    if (t?.sid && mine.has(t.sid)) kept.push(label(r, t.sid));
  }
  kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.byte_start - b.byte_start));
  return { rows: kept, gaps, report };
}

/** Why a reference could not be tied to a symbol, as far as the index can tell. */
export type GapReason = "unresolved_import" | "dynamic_receiver" | "ambiguous_candidates" | "no_definition_in_reach";

export function gapReason(db: DB, r: RefRecord): GapReason {
  if (r.resolution === "ambiguous") return "ambiguous_candidates";
  if (r.kind === "import") return "unresolved_import";
  if (r.qualifier) {
    // `pkg.url_for(...)` through an imported module is an import the graph did not follow;
    // `views.current.url_for(...)` is a member of a value whose type it does not know.
    const head = r.qualifier.split(/\.|::|->/)[0] ?? "";
    return head !== "" && fileImportsName(db, r.file_id, head) ? "unresolved_import" : "dynamic_receiver";
  }
  return fileImportsName(db, r.file_id, r.name) ? "unresolved_import" : "no_definition_in_reach";
}

/**
 * What the answer could not see: references that name the symbol (direction in) or that the
 * symbol makes (out) and that the graph could not tie to any symbol, counted by reason, with
 * samples; and the coverage of the answer. An agent reads here that an answer is partial.
 */
function gapReport(db: DB, root: string, direction: "in" | "out", defs: SymbolRecord[], listed: RefRecord[], req: RefsRequest, named?: RefRecord[]): { report: Record<string, unknown>; count: number } {
  // (One answer's go.mod reads: a long-lived process sees an edited go.mod in the next.)
  const goModules = new Map<string, { dir: string; path: string } | null>();
  const gaps = named ?? (
    direction === "in"
      ? unresolvedNamed(
          db,
          defs.map((d) => d.name),
          req.referenceKinds,
          defs.map((d) => d.language),
        ).filter((r) => !(defs.every((d) => d.language === "go") && outsideGoModules(db, root, r, defs, goModules)))
      : listed.filter((r) => r.resolution === "unresolved" || r.resolution === "ambiguous"));
  const byReason: Record<string, number> = {};
  const samples: Record<string, unknown>[] = [];
  const max = req.gapSamples ?? 5;
  for (const r of gaps) {
    const reason = gapReason(db, r);
    byReason[reason] = (byReason[reason] ?? 0) + 1;
    if (samples.length < max) {
      const sample: Record<string, unknown> = { span: spanOf(r.path, r), name: r.name, reference_kind: r.kind, reason };
      if (r.qualifier) sample.qualifier = r.qualifier;
      if (r.caller_name) sample.caller = r.caller_name;
      samples.push(sample);
    }
  }
  const resolved = listed.filter((r) => r.resolution !== "ambiguous" && r.resolution !== "unresolved").length;
  const ambiguous = listed.filter((r) => r.resolution === "ambiguous").length;
  const unresolved = direction === "in" ? gaps.length : gaps.length - ambiguous;
  const total = resolved + ambiguous + unresolved;
  return {
    count: gaps.length,
    report: {
      unresolved: { count: unresolved, by_reason: byReason, samples },
      coverage: { resolved, ambiguous, unresolved, ratio: total === 0 ? 1 : Math.round((resolved / total) * 1000) / 1000 },
    },
  };
}

/**
 * A Go reference `pkg.Name` whose `pkg` the file imports from outside the modules of `defs` (the
 * standard library's `errors`, testify's `assert`): no symbol of theirs is reached that way, so it
 * is no possible use of one. logrus's callers of `New` counted 47 `errors.New`, `slog.New` and
 * `assert.New` calls as gaps, and a complete answer said partial at coverage 0.62. (An example
 * module that imports the repository's own module, as published, still counts.) So is `v.Name`
 * on a value declared a pointer to such a package's type (`t *testing.T`; `t.Run`): urfave/cli's
 * callers of Command.Run counted 136 `t.Run` calls; and on a local made by such a package's
 * function (`cmd := exec.Command(...)`). A value of the type itself may be an interface
 * (`io.Reader`, `context.Context`) holding one of the module's types, and still counts.
 */
function outsideGoModules(db: DB, root: string, r: RefRecord, defs: SymbolRecord[], cache: Map<string, { dir: string; path: string } | null>): boolean {
  if (!r.path.endsWith(".go") || !r.qualifier) return false;
  // `exec.Command("tmux", ...).Run()`: a member of what such a package's function returns.
  const call = /^([\p{L}_][\p{L}\p{N}_]*)\.[\p{L}_][\p{L}\p{N}_]*\(/u.exec(r.qualifier);
  if (call && closingIndex(r.qualifier, call[0].length - 1) === r.qualifier.length - 1) return outsideGoModules(db, root, { ...r, qualifier: call[1] as string }, defs, cache);
  if (/[.\[(]/.test(r.qualifier)) return false;
  const mods = defs.map((d) => goModuleOf(root, posix.dirname(d.path), cache)?.path);
  if (mods.some((m) => m === undefined)) return false;
  const outside = (pkg: string): boolean | undefined => {
    for (const row of stmt(db, "SELECT source, names FROM imports WHERE file_id = ?").all(r.file_id) as { source: string; names: string }[]) {
      let alias: string | undefined;
      try {
        alias = (JSON.parse(row.names) as { alias?: string }[]).find((x) => x.alias !== undefined)?.alias;
      } catch {
        // An unreadable row binds by its path.
      }
      if ((alias ?? goPackageName(row.source)) !== pkg) continue;
      return !mods.some((mod) => row.source === mod || row.source.startsWith(`${mod}/`));
    }
    return undefined;
  };
  const byPackage = outside(r.qualifier);
  if (byPackage !== undefined) return byPackage;
  const written = stmt(db, "SELECT receiver_type FROM refs WHERE id = ?").pluck().get(r.id) as string | null | undefined;
  const pointee = written ? /^\*+\s*([\p{L}_][\p{L}\p{N}_]*)\.[\p{L}_][\p{L}\p{N}_]*(?:\[.*\])?$/su.exec(written) : null;
  if (pointee) return outside(pointee[1] as string) === true;
  // A local made by such a package's function (`cmd := exec.Command(...)`; `cmd.Run()`), which the
  // resolver leaves unresolved as a library value: fzf's callers of its own `Run` counted 5 such
  // calls, coverage 0.125 for a complete answer.
  const made = written ? /^([\p{L}_][\p{L}\p{N}_]*)\.[\p{L}_][\p{L}\p{N}_]*\(\)$/su.exec(written) : null;
  return made ? outside(made[1] as string) === true : false;
}


/** The methods `defs` override or implement (or, `down`, that override them), each with the references of `kinds` tied to it. */
function dispatchedThrough(db: DB, defs: SymbolRecord[], kinds?: string[], down = false): { symbol_id: string; display_fqn: string; references: number; ambiguous?: number }[] {
  const count = stmt(db, "SELECT kind, count(*) AS n FROM refs WHERE target_symbol_id = ? GROUP BY kind");
  // Ambiguous references that name it among their candidates: zoxide's `Cmd::Add(cmd) =>
  // cmd.run()` is ambiguous between the trait's Run::run and another impl's, none tied to Run::run,
  // and `callers` of `<Add as Run>::run` said only "no indexed reference resolves to this symbol".
  const maybe = stmt(db, "SELECT kind, count(*) AS n FROM refs WHERE name = ? AND resolution = 'ambiguous' AND instr(candidates, ?) > 0 GROUP BY kind");
  const out: { symbol_id: string; display_fqn: string; references: number; ambiguous?: number }[] = [];
  const seen = new Set(defs.map((d) => d.symbol_id));
  for (const d of defs) {
    for (const m of relatedMethods(db, d, down ? "down" : "up")) {
      if (seen.has(m.symbol_id)) continue;
      seen.add(m.symbol_id);
      let references = 0;
      for (const r of count.all(m.symbol_id) as { kind: string; n: number }[]) if (!kinds || kinds.includes(r.kind)) references += r.n;
      let ambiguous = 0;
      for (const r of maybe.all(d.name, `"${m.symbol_id}"`) as { kind: string; n: number }[]) if (!kinds || kinds.includes(r.kind)) ambiguous += r.n;
      out.push({ symbol_id: m.symbol_id, display_fqn: m.display_fqn, references, ...(ambiguous > 0 ? { ambiguous } : {}) });
    }
  }
  return out;
}

export function refs(req: RefsRequest): Answer<Record<string, unknown>> {
  if ((req.name === undefined) === (req.symbolId === undefined)) {
    throw new ToolError({
      code: MAGELLAN_CODES.usage,
      error: "invalid_arguments",
      message: "refs needs exactly one of --name and --symbol-id",
      remediation: "magellan refs --name NAME [--direction in|out], or magellan refs --symbol-id ID",
      exitCode: EXIT.usage,
    });
  }
  refuseBlankName(req.name);
  return withReadDb(req, (db, { root }) => {
    const direction = req.direction ?? "in";
    const limit = req.limit ?? 1000;
    const path = req.path !== undefined ? rootRelative(root, req.path, req.cwd) : undefined;
    let defs: SymbolRecord[];
    if (req.symbolId !== undefined) {
      const s = symbolById(db, req.symbolId.toLowerCase());
      if (!s) throw unknownSymbolId(req.symbolId);
      defs = [s];
    } else {
      defs = exactSymbols(db, req.name as string, path, 10_000);
      if (req.kind) defs = defs.filter((s) => kindMatches(req.kind as string, s.kind, s.kind_normalized));
      if (defs.length === 0 && exactSymbols(db, req.name as string, undefined, 1).length === 0) {
        throw unknownName(db, req.name as string);
      }
    }
    const diagnostics: Diagnostic[] = [];
    const ids = defs.map((d) => d.symbol_id);
    if (defs.length > 1) {
      // A C/C++ function's declaration and its definition are one function, not two to choose
      // between (leveldb's `refs --name DBImpl::Write` said "names 2 symbols ... narrow with
      // --symbol-id", and either id lists the same references).
      const first = defs[0] as SymbolRecord;
      const halvesOfFirst = new Set(sameFunction(db, first).map((h) => h.symbol_id));
      const oneFunction = defs.every((d) => d === first || halvesOfFirst.has(d.symbol_id));
      diagnostics.push(
        oneFunction
          ? note(
              `'${first.name}' names one function declared and defined apart (${defs.map((d) => `${d.path}:${d.start_line}`).join(", ")}); showing the references of both`,
              MAGELLAN_CODES.same_function,
            )
          : note(
              `'${first.name}' names ${defs.length} symbols; showing references of all of them (narrow with --symbol-id, --path or --kind)`,
              MAGELLAN_CODES.ambiguous_name,
            ),
      );
    }
    // A C++ function's declaration and its out-of-class definition are one function: the calls tied
    // to either are its callers, whichever of the two was asked for.
    const known = new Set(ids);
    const halves: SymbolRecord[] = [];
    if (direction === "in") {
      for (const d of defs) {
        for (const h of sameFunction(db, d)) {
          if (known.has(h.symbol_id)) continue;
          known.add(h.symbol_id);
          halves.push(h);
        }
      }
    }
    let rows =
      direction === "in"
        ? refsTo(db, [...ids, ...halves.map((h) => h.symbol_id)], defs.map((d) => d.name), Number.MAX_SAFE_INTEGER)
        : refsFrom(db, ids, Number.MAX_SAFE_INTEGER);
    if (req.referenceKinds) rows = rows.filter((r) => (req.referenceKinds as string[]).includes(r.kind));
    const sameFunctionReport = halves.map((h) => ({
      symbol_id: h.symbol_id,
      display_fqn: h.display_fqn,
      path: h.path,
      line: h.start_line,
      declaration: isDeclaration(h),
      references: rows.filter((r) => r.target_symbol_id === h.symbol_id).length,
    }));
    for (const h of sameFunctionReport) {
      diagnostics.push(
        note(
          `'${defs[0]?.name}' is ${h.declaration ? "declared" : "defined"} too at ${h.path}:${h.line} (symbol_id ${h.symbol_id}), the same function: the ${h.references} reference(s) tied to that ${h.declaration ? "declaration" : "definition"} are listed with these (see data.same_function)`,
          MAGELLAN_CODES.same_function,
        ),
      );
    }
    let precise: PreciseOutcome | undefined;
    if (req.precise && defs.length > 0) {
      precise = applyPrecise(db, root, req, direction, defs, rows);
      rows = precise.rows;
    }
    const gaps = gapReport(db, root, direction, defs, rows, req, precise?.gaps);
    const total = rows.length;
    const partial = total > limit;
    rows = rows.slice(0, limit);
    if (defs.length === 0) diagnostics.push(note(`symbols named '${req.name}' exist, but none matches the --path/--kind filter`));
    else if (rows.length === 0) {
      // A type's own references are its body's declarations: what runs is in its methods, each
      // the caller of its calls (`callees --name Client` answered "references nothing").
      const container = direction === "out" && defs.every((d) => ["class", "struct", "interface", "trait", "enum", "impl", "union"].includes(d.kind_normalized));
      diagnostics.push(
        note(
          direction === "in"
            ? "no indexed reference resolves to this symbol"
            : container
              ? `'${defs[0]?.name}' is a ${defs[0]?.kind_normalized}: the calls and references in its body are its methods' (ask for one of them, e.g. with 'magellan query --file ${defs[0]?.path}')`
              : "this symbol references nothing that was indexed",
        ),
      );
    }
    if (partial) diagnostics.push(note(`${total} references, the first ${limit} listed; raise --limit to see more`));
    // (An override is recorded on the declaration in the class, so a definition asks with it.)
    const overrides = direction === "in" ? dispatchedThrough(db, [...defs, ...halves], req.referenceKinds) : [];
    // (Their calls run another body, so this answer misses none of its own; the note is for a
    // change of the signature, which theirs must follow.)
    const overriddenBy = direction === "in" ? dispatchedThrough(db, [...defs, ...halves], req.referenceKinds, true) : [];
    if (overriddenBy.length > 0) {
      diagnostics.push(
        note(
          `'${defs[0]?.name}' is overridden or implemented by ${overriddenBy.length} method(s) (${overriddenBy.slice(0, 3).map((o) => o.display_fqn).join(", ")}${overriddenBy.length > 3 ? ", ..." : ""}) with ${overriddenBy.reduce((n, o) => n + o.references, 0)} reference(s) tied to them; a change of its signature is a change of theirs (see data.overridden_by)`,
          MAGELLAN_CODES.dispatch,
        ),
      );
    }
    const dispatched = overrides.reduce((n, o) => n + o.references, 0);
    const undecided = overrides.reduce((n, o) => n + (o.ambiguous ?? 0), 0);
    if (dispatched > 0 || undecided > 0) {
      const first = overrides.find((o) => o.references > 0 || (o.ambiguous ?? 0) > 0) as (typeof overrides)[number];
      const tied = `${dispatched} reference(s) tied to ${overrides.length === 1 ? "it" : "them"}${undecided > 0 ? ` and ${undecided} ambiguous one(s) naming ${overrides.length === 1 ? "it" : "them"} among their candidates` : ""}`;
      diagnostics.push({
        tool: TOOL,
        level: "warning",
        code: MAGELLAN_CODES.dispatch,
        message: `'${defs[0]?.name}' overrides or implements ${overrides.map((o) => o.display_fqn).join(", ")}: ${tied} may run this one (virtual dispatch) and are not listed (see data.overrides)`,
        remediation: `magellan ${req.referenceKinds?.length === 1 && req.referenceKinds[0] === "call" ? "callers" : "refs"} --symbol-id ${first.symbol_id} lists them.`,
      });
    }
    if (gaps.count > 0) {
      const by = Object.entries((gaps.report.unresolved as { by_reason: Record<string, number> }).by_reason)
        .map(([k, v]) => `${v} ${k}`)
        .join(", ");
      diagnostics.push({
        tool: TOOL,
        level: "warning",
        code: MAGELLAN_CODES.unresolved_references,
        message:
          direction === "in"
            ? `${gaps.count} more references named '${defs[0]?.name ?? req.name}' could not be tied to any symbol (${by}); they may be uses of this one: the answer is partial (see data.unresolved)`
            : `${gaps.count} references made from it could not be tied to one symbol (${by}): the answer is partial (see data.unresolved)`,
        remediation: "Read data.unresolved.samples; each names the reason. Search the text (llmsearch) for the name to see every use.",
      });
    }
    let cut = partial;
    if (direction === "in") {
      const siblings = overloadShare(db, defs, req.referenceKinds);
      if (siblings.calls > 0) {
        cut = true;
        diagnostics.push({
          tool: TOOL,
          level: "warning",
          code: MAGELLAN_CODES.unresolved_references,
          message: `${siblings.calls} call(s) whose argument count also fits '${defs[0]?.display_fqn}' were tied to ${siblings.ids.length === 1 ? "an overload" : "overloads"} of the same name by position (the index reads no argument types): some may be calls of this one, and the answer is partial`,
          remediation: `magellan callers --symbol-id ${siblings.ids[0]} lists them${siblings.ids.length > 1 ? ` (and ${siblings.ids.slice(1).join(", ")})` : ""}.`,
        });
      }
      // A macro's uses inside other macros' bodies are no references (a #define's body is not
      // parsed as code): uthash's HASH_ADD_TO_BKT, used only by other macros, had an empty answer
      // and full coverage.
      if (defs.some((d) => d.kind_normalized === "macro" && (d.language === "c" || d.language === "cpp"))) {
        diagnostics.push(note(`uses of '${defs[0]?.name}' inside the bodies of other #define macros are not indexed (a macro's body is not parsed as code); 'llmsearch -w ${defs[0]?.name}' finds them`));
      }
    }
    const question = `refs:${direction}:${req.symbolId ?? req.name}${req.referenceKinds ? `:${req.referenceKinds.join(",")}` : ""}`;
    const cache = new FileCache(root);
    diagnostics.unshift(...freshnessDiagnostics(db, root, [...defs.map((d) => d.path), ...rows.map((r) => r.path)]));
    const data: Record<string, unknown> = {
      references: rows.map((r) => referenceMatch(r, question, req, cache)),
      symbol_name: defs[0]?.name ?? req.name ?? "",
      symbol_ids: ids,
    };
    const files = [...new Set(defs.map((d) => d.path))];
    if (files.length === 1) data.file_path = files[0];
    data.direction = direction;
    if (req.referenceKinds) data.reference_kinds = req.referenceKinds;
    data.count = rows.length;
    data.total_count = total;
    Object.assign(data, gaps.report);
    if (sameFunctionReport.length > 0) data.same_function = sameFunctionReport;
    if (overrides.length > 0) data.overrides = overrides;
    if (overriddenBy.length > 0) data.overridden_by = overriddenBy;
    if (precise) data.precise = precise.report;
    return { data, diagnostics, partial: cut };
  });
}

/**
 * Java and C++: the calls tied to another overload of the same name and class whose argument
 * count also fits one of `defs`. The index reads no argument types, so such a call goes to the
 * first overload its count fits: jsoup's `charset("ascii")` and `charset(charset.name())` went to
 * `charset(Charset)`, and `callers` of `charset(String)` answered 0 resolved with no word.
 */
function overloadShare(db: DB, defs: SymbolRecord[], kinds?: string[]): { calls: number; ids: string[] } {
  if (kinds && !kinds.includes("call")) return { calls: 0, ids: [] };
  const own = new Set(defs.map((d) => d.symbol_id));
  let n = 0;
  const ids: string[] = [];
  for (const d of defs) {
    if (d.kind_normalized !== "method" && d.kind_normalized !== "ctor") continue;
    for (const r of siblingOverloadRefs(db, d.symbol_id)) {
      if (r.kind !== "call" || own.has(r.target_symbol_id) || r.arity === null || !fitsArity(d.arity ?? null, r.arity)) continue;
      if (!ids.includes(r.target_symbol_id)) ids.push(r.target_symbol_id);
      n++;
    }
  }
  return { calls: n, ids };
}

export interface FilesRequest extends Location {
  symbols?: boolean;
}

export function files(req: FilesRequest): Answer<Record<string, unknown>> {
  return withReadDb(req, (db, { root }) => {
    const rows = filesWithCounts(db);
    const data: Record<string, unknown> = { files: rows.map((r) => r.path) };
    if (req.symbols) data.symbol_counts = Object.fromEntries(rows.map((r) => [r.path, r.count]));
    const diagnostics = freshnessDiagnostics(db, root, data.files as string[]);
    if (rows.length === 0) diagnostics.push(note("the index holds no files: the root has no source file of a supported language"));
    return { data, diagnostics };
  });
}

export function status(req: Location): Answer<Record<string, unknown>> {
  return withReadDb(req, (db, { root, dbPath }) => {
    const c = counts(db);
    const paths = allIndexedPaths(db);
    const stale = staleFiles(db, root, paths);
    const languages = Object.fromEntries(
      (db.prepare("SELECT language, count(*) AS n FROM files GROUP BY language ORDER BY language").all() as { language: string; n: number }[]).map((r) => [
        r.language,
        r.n,
      ]),
    );
    const resolution = Object.fromEntries(
      (db.prepare("SELECT resolution, count(*) AS n FROM refs GROUP BY resolution ORDER BY resolution").all() as { resolution: string; n: number }[]).map(
        (r) => [r.resolution, r.n],
      ),
    );
    const last = getMeta(db, "last_index_time");
    const data: Record<string, unknown> = {
      ...c,
      // Magellan's code chunks are the stored source spans of symbol definitions.
      code_chunks: c.symbols,
      db_schema_version: DB_SCHEMA_VERSION,
    };
    if (last) data.last_index_time = last;
    Object.assign(data, {
      stale_files: stale.filter((s) => s.state === "modified").length,
      missing_files: stale.filter((s) => s.state === "missing").length,
      root,
      db_path: dbPath,
      languages,
      resolution,
    });
    return { data, diagnostics: freshnessDiagnostics(db, root, paths, 5) };
  });
}

export function validate(req: Location & { walk?: () => string[] }): Answer<Record<string, unknown>> {
  return withReadDb(req, (db, { root }) => {
    type Item = { code: string; message: string; entity_id: string; details: Record<string, unknown> };
    const errors: Item[] = [];
    const warnings: Item[] = [];
    const paths = allIndexedPaths(db);
    const fileIds = new Map((db.prepare("SELECT path, hash FROM files").all() as { path: string; hash: string }[]).map((r) => [r.path, r.hash]));
    for (const s of staleFiles(db, root, paths)) {
      const entity = (fileIds.get(s.path) ?? "").replace(/^sha256:/, "").slice(0, 16);
      if (s.state === "missing") errors.push({ code: "FILE_MISSING", message: "Indexed file not found on filesystem", entity_id: entity, details: { path: s.path } });
      else warnings.push({ code: "STALE_INDEX", message: "File modified since last index", entity_id: entity, details: { path: s.path } });
    }
    const orphanTargets = db
      .prepare("SELECT r.name, r.target_symbol_id, f.path, r.start_line FROM refs r JOIN files f ON f.id = r.file_id WHERE r.target_symbol_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.symbol_id = r.target_symbol_id) LIMIT 1000")
      .all() as { name: string; target_symbol_id: string; path: string; start_line: number }[];
    for (const o of orphanTargets) {
      errors.push({
        code: "ORPHAN_EDGE",
        message: `Reference to '${o.name}' points at a symbol that is not in the index`,
        entity_id: o.target_symbol_id,
        details: { path: o.path, line: o.start_line, target_symbol_id: o.target_symbol_id },
      });
    }
    const orphanCallers = db
      .prepare("SELECT r.name, r.caller_symbol_id, f.path, r.start_line FROM refs r JOIN files f ON f.id = r.file_id WHERE r.caller_symbol_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.symbol_id = r.caller_symbol_id) LIMIT 1000")
      .all() as { name: string; caller_symbol_id: string; path: string; start_line: number }[];
    for (const o of orphanCallers) {
      errors.push({
        code: "ORPHAN_EDGE",
        message: `Reference to '${o.name}' comes from a caller that is not in the index`,
        entity_id: o.caller_symbol_id,
        details: { path: o.path, line: o.start_line, caller_symbol_id: o.caller_symbol_id },
      });
    }
    if (req.walk) {
      const indexed = new Set(paths);
      for (const p of req.walk()) {
        if (!indexed.has(p)) warnings.push({ code: "FILE_NOT_INDEXED", message: "Source file on disk is not in the index", entity_id: "", details: { path: p } });
      }
    }
    for (const r of db.prepare("SELECT path, hash FROM files WHERE has_errors = 1 ORDER BY path").all() as { path: string; hash: string }[]) {
      warnings.push({
        code: "PARSE_RECOVERED",
        message: "tree-sitter could not read all of the file (a syntax error, or the parser's limit: a macro it cannot expand, syntax newer than its grammar); indexed what it recovered",
        entity_id: r.hash.replace(/^sha256:/, "").slice(0, 16),
        details: { path: r.path },
      });
    }
    const data = { passed: errors.length === 0, error_count: errors.length, errors, warning_count: warnings.length, warnings };
    return { data, diagnostics: [] };
  });
}

export function collisions(req: Location & { field?: "fqn" | "name"; limit?: number }): Answer<Record<string, unknown>> {
  return withReadDb(req, (db) => {
    const field = req.field ?? "fqn";
    const list = collisionList(db, field, req.limit ?? 1000);
    const diagnostics: Diagnostic[] = [];
    if (list.length === 0) diagnostics.push(note(`no two symbols share a ${field === "fqn" ? "display_fqn" : "name"}`));
    return { data: { field, collisions: list, count: list.length }, diagnostics };
  });
}

type CandidateRow = { value?: string; id: number; symbol_id: string; canonical_fqn: string; display_fqn: string; name: string; path: string };

const candidateOf = (c: CandidateRow): Record<string, unknown> => ({
  entity_id: c.id,
  symbol_id: c.symbol_id,
  canonical_fqn: c.canonical_fqn,
  display_fqn: c.display_fqn,
  name: c.name,
  file_path: c.path,
});

export function collisionList(db: DB, field: "fqn" | "name", limit: number): Record<string, unknown>[] {
  const col = field === "fqn" ? "display_fqn" : "name";
  const groups = db
    .prepare(`SELECT ${col} AS value, count(*) AS n FROM symbols GROUP BY ${col} HAVING count(*) > 1 ORDER BY n DESC, value LIMIT ?`)
    .all(limit) as { value: string; n: number }[];
  if (field === "name") {
    // Through the index on name, group by group.
    const st = db.prepare(
      `SELECT s.id, s.symbol_id, s.canonical_fqn, s.display_fqn, s.name, f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ? ORDER BY f.path, s.byte_start`,
    );
    return groups.map((g) => ({ field, value: g.value, count: g.n, candidates: (st.all(g.value) as CandidateRow[]).map(candidateOf) }));
  }
  // display_fqn has no index: asked group by group, the symbols were scanned once per group (3.2 s
  // for the 1,074 groups of effect + rxjs). One query for all groups, over a transient index
  // SQLite builds, takes 0.08 s; its rows come group after group in the groups' order.
  const rows = db
    .prepare(
      `WITH g AS MATERIALIZED (SELECT display_fqn AS value, count(*) AS n FROM symbols GROUP BY display_fqn HAVING count(*) > 1 ORDER BY n DESC, value LIMIT ?)
       SELECT g.value, s.id, s.symbol_id, s.canonical_fqn, s.display_fqn, s.name, f.path
       FROM g JOIN symbols s ON s.display_fqn = g.value JOIN files f ON f.id = s.file_id ORDER BY g.n DESC, g.value, f.path, s.byte_start, s.id`,
    )
    .all(limit) as CandidateRow[];
  let at = 0;
  return groups.map((g) => {
    const candidates: Record<string, unknown>[] = [];
    for (; at < rows.length && (rows[at] as CandidateRow).value === g.value; at++) candidates.push(candidateOf(rows[at] as CandidateRow));
    return { field, value: g.value, count: g.n, candidates };
  });
}
