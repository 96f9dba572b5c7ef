/** Read side of the graph: symbols, references, files, statistics, freshness. */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { spanId } from "../contract/ids.js";
import type { Span } from "../contract/schema.js";
import type * as FastestLevenshtein from "fastest-levenshtein";
import { type DB, stmt } from "./db.js";
import { familyLanguages, fitsArity } from "./facts.js";

type Levenshtein = typeof FastestLevenshtein;


const require = createRequire(import.meta.url);
/** Loaded on first use: only misspelled names and fuzzy search need it. */
function levenshtein(): Levenshtein {
  return require("fastest-levenshtein") as Levenshtein;
}

export interface SymbolRecord {
  id: number;
  file_id: number;
  path: string;
  symbol_id: string;
  name: string;
  kind: string;
  kind_normalized: string;
  parent: string | null;
  parent_symbol_id: string | null;
  scoped_name: string;
  canonical_fqn: string;
  display_fqn: string;
  language: string;
  flags: string | null;
  byte_start: number;
  byte_end: number;
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
  name_byte_start: number;
  name_byte_end: number;
  name_start_line: number;
  name_start_col: number;
  name_end_line: number;
  name_end_col: number;
  /** The file as indexed (what freshness checks compare with the disk). */
  file_size?: number;
  file_mtime_ms?: number;
  /** Java and C++ callables: the arguments a call may pass (`2`, `1-3`, `2+`). */
  arity?: string | null;
}

export interface RefRecord {
  id: number;
  file_id: number;
  path: string;
  name: string;
  kind: string;
  qualifier: string | null;
  caller_symbol_id: string | null;
  caller_name: string | null;
  byte_start: number;
  byte_end: number;
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
  target_symbol_id: string | null;
  target_display_fqn: string | null;
  resolution: string;
  candidates: string | null;
}

const SYMBOL_COLS = `s.id, s.file_id, f.path, s.symbol_id, s.name, s.kind, s.kind_normalized, s.parent, s.parent_symbol_id,
  s.scoped_name, s.canonical_fqn, s.display_fqn, s.language, s.flags, s.byte_start, s.byte_end, s.start_line, s.start_col,
  s.end_line, s.end_col, s.name_byte_start, s.name_byte_end, s.name_start_line, s.name_start_col, s.name_end_line, s.name_end_col,
  f.size AS file_size, f.mtime_ms AS file_mtime_ms, s.arity`;

/**
 * Symbol rows come back as arrays (better-sqlite3's raw mode) and become objects here: one
 * object literal per row is several times cheaper than the driver naming 26 columns per row,
 * which was most of a `find` answer's cost.
 */
function toSymbol(r: unknown[]): SymbolRecord {
  return {
    id: r[0] as number,
    file_id: r[1] as number,
    path: r[2] as string,
    symbol_id: r[3] as string,
    name: r[4] as string,
    kind: r[5] as string,
    kind_normalized: r[6] as string,
    parent: r[7] as string | null,
    parent_symbol_id: r[8] as string | null,
    scoped_name: r[9] as string,
    canonical_fqn: r[10] as string,
    display_fqn: r[11] as string,
    language: r[12] as string,
    flags: r[13] as string | null,
    byte_start: r[14] as number,
    byte_end: r[15] as number,
    start_line: r[16] as number,
    start_col: r[17] as number,
    end_line: r[18] as number,
    end_col: r[19] as number,
    name_byte_start: r[20] as number,
    name_byte_end: r[21] as number,
    name_start_line: r[22] as number,
    name_start_col: r[23] as number,
    name_end_line: r[24] as number,
    name_end_col: r[25] as number,
    file_size: r[26] as number,
    file_mtime_ms: r[27] as number,
    arity: r[28] as string | null,
  };
}

/** Runs a query whose columns are SYMBOL_COLS. */
function symbolsOf(db: DB, sql: string, ...args: unknown[]): SymbolRecord[] {
  return (stmt(db, sql, true).all(...args) as unknown[][]).map(toSymbol);
}

const REF_COLS = `r.id, r.file_id, f.path, r.name, r.kind, r.qualifier, r.caller_symbol_id, c.name AS caller_name,
  r.byte_start, r.byte_end, r.start_line, r.start_col, r.end_line, r.end_col, r.target_symbol_id,
  t.display_fqn AS target_display_fqn, r.resolution, r.candidates`;
const REF_FROM = `refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols c ON c.symbol_id = r.caller_symbol_id
  LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id`;

export function spanOf(path: string, r: { byte_start: number; byte_end: number; start_line: number; start_col: number; end_line: number; end_col: number }): Span {
  return {
    span_id: spanId(path, r.byte_start, r.byte_end),
    file_path: path,
    byte_start: r.byte_start,
    byte_end: r.byte_end,
    start_line: r.start_line,
    start_col: r.start_col,
    end_line: r.end_line,
    end_col: r.end_col,
  };
}

export function nameSpanOf(s: SymbolRecord): Span {
  return spanOf(s.path, {
    byte_start: s.name_byte_start,
    byte_end: s.name_byte_end,
    start_line: s.name_start_line,
    start_col: s.name_start_col,
    end_line: s.name_end_line,
    end_col: s.name_end_col,
  });
}

export type MatchMode = "exact" | "prefix" | "substring" | "fuzzy";

export interface FindFilter {
  name?: string;
  mode: MatchMode;
  /** Path prefix (a folder) or exact file, root-relative. */
  path?: string;
  limit: number;
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Symbols by name. Kind filtering is the caller's (kinds have several spellings). */
export function findSymbols(db: DB, f: FindFilter): SymbolRecord[] {
  const where: string[] = [];
  const args: unknown[] = [];
  const name = f.name ?? "";
  if (f.mode === "exact") {
    where.push("s.name = ?");
    args.push(name);
  } else if (f.mode === "prefix") {
    where.push("s.name LIKE ? ESCAPE '\\'");
    args.push(`${likeEscape(name)}%`);
  } else if (f.mode === "substring") {
    where.push("s.name LIKE ? ESCAPE '\\'");
    args.push(`%${likeEscape(name)}%`);
  }
  if (f.path) {
    where.push("(f.path = ? OR f.path LIKE ? ESCAPE '\\')");
    args.push(f.path, `${likeEscape(f.path.replace(/\/$/, ""))}/%`);
  }
  if (f.mode === "fuzzy") {
    // Rank distinct names by edit distance (case-insensitive), then fetch their symbols.
    const names = stmt(db, "SELECT DISTINCT name FROM symbols").pluck().all() as string[];
    const q = name.toLowerCase();
    const limit = Math.max(1, Math.floor(q.length / 3) + 1);
    const ranked = names
      .map((n) => ({ n, d: n.toLowerCase().includes(q) ? 0 : levenshtein().distance(n.toLowerCase(), q) }))
      .filter((x) => x.d <= limit)
      .sort((a, b) => a.d - b.d || a.n.length - b.n.length)
      .slice(0, f.limit);
    if (ranked.length === 0) return [];
    const sql = `SELECT ${SYMBOL_COLS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ? ${where.length ? `AND ${where.join(" AND ")}` : ""} ORDER BY f.path, s.byte_start`;
    return ranked.flatMap((r) => symbolsOf(db, sql, r.n, ...args)).slice(0, f.limit);
  }
  const sql = `SELECT ${SYMBOL_COLS} FROM symbols s JOIN files f ON f.id = s.file_id
    ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY f.path, s.byte_start LIMIT ?`;
  return symbolsOf(db, sql, ...args, f.limit);
}

export function symbolById(db: DB, symbolId: string): SymbolRecord | undefined {
  return stmt(db, `SELECT ${SYMBOL_COLS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.symbol_id = ?`).get(symbolId) as
    | SymbolRecord
    | undefined;
}

export function symbolsByIds(db: DB, ids: string[]): SymbolRecord[] {
  const st = stmt(db, `SELECT ${SYMBOL_COLS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.symbol_id = ?`);
  return ids.map((id) => st.get(id) as SymbolRecord | undefined).filter((s): s is SymbolRecord => s !== undefined);
}

export function symbolsInFile(db: DB, path: string): SymbolRecord[] {
  return symbolsOf(db, `SELECT ${SYMBOL_COLS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? ORDER BY s.byte_start, s.id`, path);
}

export function fileRecord(db: DB, path: string): { id: number; path: string; hash: string; size: number; mtime_ms: number; language: string } | undefined {
  return stmt(db, "SELECT id, path, hash, size, mtime_ms, language FROM files WHERE path = ?").get(path) as
    | { id: number; path: string; hash: string; size: number; mtime_ms: number; language: string }
    | undefined;
}

/**
 * The other half of a C++ function declared in one place and defined in another: a class's
 * `bool Match(...) const;` in re2.h and `bool RE2::Match(...) const { ... }` in re2.cc are two
 * symbols of one function, and the resolver ties a call to whichever its file sees (the header's,
 * nearly always): the definition, which is what `find --path re2.cc` returns and what an edit
 * patches, had 1 of RE2::Match's 18 callers. Paired by scoped name, kind and parameter count (a
 * definition's minimum is unknown: default arguments are written on the declaration). A
 * definition gets its declaration only when one fits (narrowed to the same file stem, then
 * directory); a declaration gets every definition that fits (one per platform, say).
 */
export function sameFunction(db: DB, s: SymbolRecord): SymbolRecord[] {
  if (s.language === "python") return pythonVariants(db, s);
  if (s.language !== "cpp" && s.language !== "c") return [];
  const declared = isDeclaration(s);
  let other = symbolsOf(
    db,
    `SELECT ${SYMBOL_COLS} FROM symbols s JOIN files f ON f.id = s.file_id
     WHERE s.scoped_name = ? AND s.kind_normalized = ? AND s.language IN ('c', 'cpp') AND s.symbol_id <> ? ORDER BY f.path, s.byte_start`,
    s.scoped_name,
    s.kind_normalized,
    s.symbol_id,
  ).filter((o) => isDeclaration(o) !== declared && sameParameterCount(o.arity, s.arity));
  if (declared) return other;
  const stem = (p: string): string => p.replace(/^.*\//, "").replace(/\.[^.]*$/, "");
  const dir = (p: string): string => p.replace(/[^/]*$/, "");
  if (other.length > 1) other = other.filter((o) => stem(o.path) === stem(s.path));
  if (other.length > 1) other = other.filter((o) => dir(o.path) === dir(s.path));
  return other.length === 1 ? other : [];
}

/**
 * Python: the other definitions of a name defined in a branch of an `if`/`else` or `try`/`except`
 * (flag `variant`), in its file and scope. Which one runs is decided when the module loads (click's
 * `_get_argv_encoding` for Windows and the rest), and the resolver ties a call to the one read
 * last: the other had "no caller" at coverage 1.
 */
export function pythonVariants(db: DB, s: SymbolRecord): SymbolRecord[] {
  const rows = symbolsOf(
    db,
    `SELECT ${SYMBOL_COLS} FROM symbols s JOIN files f ON f.id = s.file_id
     WHERE s.file_id = ? AND s.display_fqn = ? AND s.kind_normalized = ? ORDER BY s.byte_start`,
    s.file_id,
    s.display_fqn,
    s.kind_normalized,
  );
  return rows.some((o) => hasFlag(o, "variant")) ? rows.filter((o) => o.symbol_id !== s.symbol_id) : [];
}

/** Whether a symbol bears `flag`, its flags as stored (comma-separated) or split (the graph's nodes). */
export function hasFlag(s: { flags: string | null | string[] }, flag: string): boolean {
  return s.flags !== null && (Array.isArray(s.flags) ? s.flags : s.flags.split(",")).includes(flag);
}

/** A C/C++ symbol that declares and does not define (a prototype, a method declared in its class). */
export function isDeclaration(s: Pick<SymbolRecord, "flags">): boolean {
  return hasFlag(s, "declaration");
}

/**
 * A method a call binds by the type written, never through an override (Java's `static`,
 * javapoet's ClassName.get hiding TypeName.get): it overrides nothing and nothing overrides it.
 */
export function isStatic(s: { flags: string | null | string[] }): boolean {
  return hasFlag(s, "static");
}

/** Arities are `n`, `min-max` or `min+`; a null one is unknown and fits. */
export function sameParameterCount(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a == null || b == null) return true;
  const most = (x: string): string => x.replace(/^\d+-/, "");
  return most(a) === most(b);
}

/** Languages whose methods of one name are told apart by their parameter types, which the index does not read. */
export const TYPED_OVERLOADS = new Set(["java", "cpp"]);

/**
 * Java and C++: the references the index tied to another overload of a symbol (same parent, name
 * and kind), each with its target and, for a call, its argument count. The index reads no argument
 * types, so a call goes to the first overload its count fits: one tied to a sibling may be this
 * one's (splice's rename takes those as name-only locations, `callers` counts them).
 */
export function siblingOverloadRefs(db: DB, symbolId: string): { target_symbol_id: string; kind: string; arity: number | null; path: string; byte_start: number; byte_end: number; start_line: number }[] {
  return stmt(
    db,
    `SELECT r.target_symbol_id, r.kind, r.arity, f.path, r.byte_start, r.byte_end, r.start_line
     FROM symbols s JOIN symbols o ON o.parent_symbol_id = s.parent_symbol_id AND o.name = s.name AND o.kind_normalized = s.kind_normalized AND o.symbol_id != s.symbol_id
     JOIN refs r ON r.target_symbol_id = o.symbol_id JOIN files f ON f.id = r.file_id
     WHERE s.symbol_id = ? AND s.language IN (SELECT value FROM json_each(?)) ORDER BY f.path, r.byte_start`,
  ).all(symbolId, JSON.stringify([...TYPED_OVERLOADS])) as ReturnType<typeof siblingOverloadRefs>;
}

/** References that point at one of the symbols, resolved or listing it as a candidate. */
export function refsTo(db: DB, symbolIds: string[], names: string[], limit: number): RefRecord[] {
  const out: RefRecord[] = [];
  const byTarget = stmt(db, `SELECT ${REF_COLS} FROM ${REF_FROM} WHERE r.target_symbol_id = ? ORDER BY f.path, r.byte_start LIMIT ?`);
  for (const id of symbolIds) out.push(...(byTarget.all(id, limit) as RefRecord[]));
  const ambiguous = stmt(db, `SELECT ${REF_COLS} FROM ${REF_FROM} WHERE r.name = ? AND r.resolution = 'ambiguous' ORDER BY f.path, r.byte_start`);
  const ids = new Set(symbolIds);
  for (const n of new Set(names)) {
    for (const r of ambiguous.all(n) as RefRecord[]) {
      const c = r.candidates ? (JSON.parse(r.candidates) as string[]) : [];
      if (c.some((x) => ids.has(x))) out.push(r);
    }
  }
  out.push(...constructorCalls(db, symbolIds, limit));
  return dedupe(out).slice(0, limit);
}

/**
 * The calls of constructors among `symbolIds`. The resolver ties an instantiation (`new Foo(1)`
 * in Java, C++, TypeScript and JavaScript; `Foo(1)` in Python and C++) to the class its name
 * denotes, so a constructor's own calls are its class's, each going to the first of the class's
 * constructors its argument count fits (a call whose arguments were not counted, to the first),
 * and as well to the others of that same count (Java overloads by type, a C++ declaration and
 * its definition): gson's `JsonReader(Reader)` had no caller although `new JsonReader(...)` is
 * written 231 times. Each row is labelled with the constructor as its target.
 */
export function constructorCalls(db: DB, symbolIds: string[], limit: number): RefRecord[] {
  const ctor = stmt(db, "SELECT parent_symbol_id, display_fqn FROM symbols WHERE symbol_id = ? AND kind_normalized = 'ctor' AND parent_symbol_id IS NOT NULL");
  const siblings = stmt(
    db,
    "SELECT s.symbol_id, s.arity FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.parent_symbol_id = ? AND s.kind_normalized = 'ctor' ORDER BY f.path, s.byte_start, s.id",
  );
  const calls = stmt(db, `SELECT ${REF_COLS}, r.arity AS call_arity FROM ${REF_FROM} WHERE r.target_symbol_id = ? AND r.kind = 'call' ORDER BY f.path, r.byte_start LIMIT ?`);
  const out: RefRecord[] = [];
  for (const id of symbolIds) {
    const c = ctor.get(id) as { parent_symbol_id: string; display_fqn: string } | undefined;
    if (!c) continue;
    const all = siblings.all(c.parent_symbol_id) as { symbol_id: string; arity: string | null }[];
    const mine = all.find((x) => x.symbol_id === id);
    if (!mine) continue;
    for (const r of calls.all(c.parent_symbol_id, limit) as (RefRecord & { call_arity: number | null })[]) {
      const n = r.call_arity;
      const first = n === null ? all[0] : all.find((x) => fitsArity(x.arity, n));
      if (!first || (first.symbol_id !== id && (n === null || first.arity !== mine.arity))) continue;
      const { call_arity: _, ...row } = r;
      out.push({ ...row, target_symbol_id: id, target_display_fqn: c.display_fqn });
    }
  }
  return out;
}

/**
 * References named like the symbols that no symbol could be tied to (resolution 'unresolved'),
 * in path order: the part of "who uses it" the graph cannot answer.
 */
/** Every reference by one of these names that was tied to some symbol or to candidates (any label but unresolved). */
export function resolvedNamed(db: DB, names: string[], kinds?: string[]): RefRecord[] {
  const st = stmt(db, `SELECT ${REF_COLS} FROM ${REF_FROM} WHERE r.name = ? AND r.resolution != 'unresolved' ORDER BY f.path, r.byte_start`);
  const out: RefRecord[] = [];
  for (const n of new Set(names)) for (const r of st.all(n) as RefRecord[]) if (!kinds || kinds.includes(r.kind)) out.push(r);
  return out;
}

export function unresolvedNamed(db: DB, names: string[], kinds?: string[], languages?: string[]): RefRecord[] {
  // Only files of the symbols' language families can use them (the resolver ties a reference
  // to its own family alone): a `run()` in a vendored jquery.js is no gap in the callers of a
  // Rust `Controller::run`.
  const st = languages
    ? stmt(db, `SELECT ${REF_COLS} FROM ${REF_FROM} WHERE r.name = ? AND r.resolution = 'unresolved' AND f.language IN (SELECT value FROM json_each(?)) ORDER BY f.path, r.byte_start`)
    : stmt(db, `SELECT ${REF_COLS} FROM ${REF_FROM} WHERE r.name = ? AND r.resolution = 'unresolved' ORDER BY f.path, r.byte_start`);
  const langs = languages ? JSON.stringify([...new Set(languages.flatMap((l) => familyLanguages(l)))]) : undefined;
  const out: RefRecord[] = [];
  for (const n of new Set(names)) for (const r of (langs ? st.all(n, langs) : st.all(n)) as RefRecord[]) if (!kinds || kinds.includes(r.kind)) out.push(r);
  return out;
}

/**
 * Whether a file binds `name` by an import: `from m import name [as alias]`, `import { name }`,
 * `use m::name`, or, for a module path (`pkg`, `os.path`), `import pkg` / `import m as pkg`.
 */
export function fileImportsName(db: DB, fileId: number, name: string): boolean {
  const rows = stmt(db, "SELECT source, names FROM imports WHERE file_id = ?").all(fileId) as { source: string; names: string }[];
  for (const row of rows) {
    if (row.source === name || row.source.endsWith(`.${name}`) || row.source.endsWith(`/${name}`) || row.source.endsWith(`::${name}`)) return true;
    // A Go import path's name without its major version: `github.com/go-chi/chi/v5` binds chi,
    // `gopkg.in/yaml.v3` yaml (chi's examples' `chi.NewRouter()` read as a dynamic receiver).
    if (/\/v\d+$|\.v\d+$/.test(row.source) && row.source.replace(/\/v\d+$|\.v\d+$/, "").endsWith(`/${name}`)) return true;
    try {
      const list = JSON.parse(row.names) as { name?: string; alias?: string }[];
      if (list.some((x) => (x.alias ?? x.name) === name)) return true;
    } catch {
      // An unreadable row binds nothing we can tell.
    }
  }
  return false;
}

/** References made from inside the symbols (their callees and other uses). */
export function refsFrom(db: DB, symbolIds: string[], limit: number): RefRecord[] {
  const st = stmt(db, `SELECT ${REF_COLS} FROM ${REF_FROM} WHERE r.caller_symbol_id = ? ORDER BY f.path, r.byte_start LIMIT ?`);
  return dedupe(symbolIds.flatMap((id) => st.all(id, limit) as RefRecord[])).slice(0, limit);
}

function dedupe(rows: RefRecord[]): RefRecord[] {
  const seen = new Set<number>();
  return rows.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}

/** Kinds a method's class can extend or implement. */
const BASE_KINDS = "('class', 'interface', 'struct', 'trait')";

/**
 * The names of the types above a class (`up`: its bases, theirs, ...) or below it (`down`: the
 * types that name it among their bases, and theirs), nearest first, eight levels at most. By the
 * base names as written: a name stands for every indexed type of that name in the language
 * family. But a type whose simple name is already taken (Java's `class Response implements
 * Connection.Response`, jsoup's HttpConnection.Response) is kept by a qualified name, which
 * stands only for the types whose fqn ends with it (fqnNames): by its name alone it was the class
 * itself, and the link was dropped without a word.
 */
function hierarchyNames(db: DB, className: string, classFqn: string | null, language: string, direction: "up" | "down"): string[] {
  const languages = JSON.stringify(familyLanguages(language));
  const basesOf = stmt(
    db,
    `SELECT display_fqn, bases FROM symbols WHERE name = ? AND bases IS NOT NULL AND kind_normalized IN ${BASE_KINDS} AND language IN (SELECT value FROM json_each(?))`,
  );
  const extending = stmt(
    db,
    `SELECT name, display_fqn, bases FROM symbols WHERE bases LIKE '%' || ? || '%' AND kind_normalized IN ${BASE_KINDS} AND language IN (SELECT value FROM json_each(?)) ORDER BY symbol_id`,
  );
  const out: string[] = [];
  const seen = new Set([className]);
  if (classFqn !== null) seen.add(classFqn);
  // The fqn a node stands for, when it is known to be one type (the class itself, a qualified node).
  const fqnOf = new Map<string, string>();
  if (classFqn !== null) fqnOf.set(className, classFqn);
  const next = (node: string): string[] => {
    const name = baseName(node);
    const qualified = node !== name;
    const found: string[] = [];
    if (direction === "up") {
      for (const t of basesOf.all(name, languages) as { display_fqn: string; bases: string }[]) {
        if (qualified && !fqnNames(t.display_fqn, node)) continue;
        for (const written of t.bases.split(",")) {
          const n = baseName(written);
          const full = qualifiedName(written);
          if (!seen.has(n) || full === n) found.push(n);
          // (Never the class itself: `Connection.Response` does not name HttpConnection.Response.)
          else if (classFqn === null || !fqnNames(classFqn, full)) found.push(full);
        }
      }
    } else {
      const fqn = fqnOf.get(node) ?? (qualified ? node : undefined);
      for (const t of extending.all(name, languages) as { name: string; display_fqn: string; bases: string }[]) {
        const written = t.bases.split(",").filter((b) => baseName(b) === name);
        if (written.length === 0) continue;
        if (!seen.has(t.name) && !qualified) {
          found.push(t.name);
          continue;
        }
        // A type named like one already met: it is below only if a base it writes names this node.
        const names = (b: string): boolean => qualifiedName(b) === name || (fqn !== undefined && fqnNames(fqn, qualifiedName(b)));
        if (written.some(names) && t.display_fqn !== fqn) found.push(t.display_fqn);
      }
    }
    return found;
  };
  let level = [className];
  for (let depth = 0; depth < 8 && level.length > 0; depth++) {
    const found: string[] = [];
    for (const node of level) {
      for (const n of next(node)) {
        if (n === "" || seen.has(n)) continue;
        seen.add(n);
        found.push(n);
      }
    }
    out.push(...found);
    level = found;
  }
  return out;
}

/** `Connection.Response` names a type of fqn `org.jsoup.Connection.Response` (and `a::B` one of `ns.a.B`). */
function fqnNames(fqn: string, written: string): boolean {
  const f = fqn.replaceAll("::", ".");
  return f === written || f.endsWith(`.${written}`);
}

/** A base as written, without its type arguments, `::` read as `.`: `ns::Base<T>` -> `ns.Base`. */
function qualifiedName(written: string): string {
  return written.replace(/<[\s\S]*$/, "").trim().replaceAll("::", ".");
}

/** A method above or below another one (relatedMethods). */
export interface RelatedMethod {
  symbol_id: string;
  display_fqn: string;
  path: string;
  name_byte_start: number;
}

/** The RelatedMethod fields of a row that holds more. */
const related = ({ symbol_id, display_fqn, path, name_byte_start }: RelatedMethod): RelatedMethod => ({ symbol_id, display_fqn, path, name_byte_start });

/**
 * The methods a method overrides or implements (`up`), or that override or implement it
 * (`down`), nearest first: those of its name (and, where counted, of its arity) declared in the
 * types of hierarchyNames. A call tied to a method above may run this one (virtual dispatch):
 * gson's `ObjectTypeAdapter.write` had no caller while twelve calls were tied to
 * `TypeAdapter.write`. A change of its signature is a change of those below, and a rename takes
 * both (splice). By their class's name, so a C++ method defined outside its class counts.
 */
export function relatedMethods(
  db: DB,
  def: Pick<SymbolRecord, "symbol_id" | "kind_normalized" | "name" | "parent" | "language" | "arity" | "flags"> & { display_fqn?: string },
  direction: "up" | "down",
): RelatedMethod[] {
  if (def.kind_normalized !== "method" || def.parent === null || isStatic(def)) return [];
  if (def.language === "rust") return traitMethods(db, def, direction);
  const own = def.display_fqn?.endsWith(`.${def.name}`) ? def.display_fqn.slice(0, -def.name.length - 1) : null;
  const names = hierarchyNames(db, baseName(def.parent), own, def.language, direction);
  if (names.length === 0) return [];
  const rank = new Map(names.map((n, k) => [n, k]));
  // A qualified name stands for the types of that fqn only (hierarchyNames).
  const rankOf = (m: RelatedMethod & { parent: string }): number | undefined => {
    const simple = rank.get(baseName(m.parent));
    if (simple !== undefined) return simple;
    const cls = m.display_fqn.endsWith(`.${def.name}`) ? m.display_fqn.slice(0, -def.name.length - 1) : m.display_fqn;
    let best: number | undefined;
    for (const [n, k] of rank) if (n.includes(".") && baseName(n) === baseName(m.parent) && fqnNames(cls, n) && (best === undefined || k < best)) best = k;
    return best;
  };
  const methods = stmt(
    db,
    `SELECT s.symbol_id, s.display_fqn, f.path, s.name_byte_start, s.parent, s.arity, s.flags FROM symbols s JOIN files f ON f.id = s.file_id
     WHERE s.name = ? AND s.kind_normalized = 'method' AND s.parent IS NOT NULL AND s.symbol_id != ? AND s.language IN (SELECT value FROM json_each(?)) ORDER BY f.path, s.byte_start`,
  );
  const rows = methods.all(def.name, def.symbol_id, JSON.stringify(familyLanguages(def.language))) as (RelatedMethod & { parent: string; arity: string | null; flags: string | null })[];
  return rows
    .filter((m) => rankOf(m) !== undefined && !isStatic(m) && (def.arity == null || m.arity === null || m.arity === def.arity))
    .sort((a, b) => (rankOf(a) as number) - (rankOf(b) as number))
    .map(related);
}

/**
 * Rust's relatedMethods: a trait's method (its parent is the trait) and the methods of that name
 * in the `impl Trait for T` blocks (their parent is `<T as Trait>`). bat's `Printer::print_footer`
 * is implemented by `<SimplePrinter as Printer>` and `<InteractivePrinter as Printer>`, which name
 * no base the class walk could follow: a rename of the trait's method left both impls with a
 * method the trait does not declare.
 */
function traitMethods(
  db: DB,
  def: Pick<SymbolRecord, "symbol_id" | "name" | "parent">,
  direction: "up" | "down",
): RelatedMethod[] {
  const implOf = /^<[\s\S]+ as ([\s\S]+)>$/.exec(def.parent ?? "");
  const trait = implOf ? baseName(implOf[1] as string) : (def.parent as string);
  // An impl's method is below its trait's; a trait's method above none (supertraits declare other names).
  if ((direction === "up") !== (implOf !== null) || trait === "") return [];
  const isTrait = stmt(db, "SELECT 1 FROM symbols WHERE name = ? AND kind_normalized = 'trait' AND language = 'rust' LIMIT 1").pluck();
  if (isTrait.get(trait) === undefined) return [];
  const rows = stmt(
    db,
    `SELECT s.symbol_id, s.display_fqn, f.path, s.name_byte_start, s.parent FROM symbols s JOIN files f ON f.id = s.file_id
     WHERE s.name = ? AND s.kind_normalized = 'method' AND s.language = 'rust' AND s.symbol_id != ? AND s.parent IS NOT NULL ORDER BY f.path, s.byte_start`,
  ).all(def.name, def.symbol_id) as (RelatedMethod & { parent: string })[];
  return rows
    .filter((m) => {
      const of = /^<[\s\S]+ as ([\s\S]+)>$/.exec(m.parent);
      return direction === "up" ? of === null && m.parent === trait : of !== null && baseName(of[1] as string) === trait;
    })
    .map(related);
}

/** `React.Component`, `internal::Impl`, `Base<T>` as a base is written: the type's own name. */
function baseName(written: string): string {
  return written.replace(/<[\s\S]*$/, "").split(/\.|::/).pop()?.trim() ?? "";
}

export function callers(db: DB, symbolId: string, limit = 50): RefRecord[] {
  const direct = db
    .prepare(`SELECT ${REF_COLS} FROM ${REF_FROM} WHERE r.target_symbol_id = ? AND r.kind = 'call' ORDER BY f.path, r.byte_start LIMIT ?`)
    .all(symbolId, limit) as RefRecord[];
  const viaClass = constructorCalls(db, [symbolId], limit);
  if (viaClass.length === 0) return direct;
  return dedupe([...direct, ...viaClass])
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.byte_start - b.byte_start))
    .slice(0, limit);
}

export function callees(db: DB, symbolId: string, limit = 50): RefRecord[] {
  return db
    .prepare(`SELECT ${REF_COLS} FROM ${REF_FROM} WHERE r.caller_symbol_id = ? AND r.kind = 'call' ORDER BY r.byte_start LIMIT ?`)
    .all(symbolId, limit) as RefRecord[];
}

export function importsOfFile(db: DB, fileId: number): string[] {
  // Each module once, in the order first imported (`from abc import X` and `from abc import Y` are one).
  // (Source "" is the module itself, a declaration it exports under another name: no import.)
  return stmt(db, "SELECT source FROM imports WHERE file_id = ? AND source != '' GROUP BY source ORDER BY min(byte_start)").pluck().all(fileId) as string[];
}

export function filesWithCounts(db: DB): { path: string; count: number }[] {
  return db
    .prepare("SELECT f.path, (SELECT count(*) FROM symbols s WHERE s.file_id = f.id) AS count FROM files f ORDER BY f.path")
    .all() as { path: string; count: number }[];
}

export function counts(db: DB): { files: number; symbols: number; references: number; calls: number } {
  // Kept per file by the writer (store.ts): a sum over files instead of a scan of every reference.
  const r = stmt(db, "SELECT count(*) AS files, sum(symbol_count) AS symbols, sum(ref_count) AS refs, sum(call_count) AS calls FROM files").get() as {
    files: number;
    symbols: number | null;
    refs: number | null;
    calls: number | null;
  };
  return { files: r.files, symbols: r.symbols ?? 0, references: r.refs ?? 0, calls: r.calls ?? 0 };
}

/** Up to five known names closest to `name`: the "did you mean" of an unknown name. */
export function suggestNames(db: DB, name: string, max = 5): string[] {
  const lower = name.toLowerCase();
  const names = stmt(db, "SELECT DISTINCT name FROM symbols").pluck().all() as string[];
  const scored = names
    .map((n) => ({ n, d: n.toLowerCase() === lower ? 0 : levenshtein().distance(n.toLowerCase(), lower) }))
    .filter((x) => x.d <= Math.max(2, Math.ceil(name.length / 2)))
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n));
  return scored.slice(0, max).map((x) => x.n);
}

export function suggestPaths(db: DB, path: string, max = 5): string[] {
  const paths = stmt(db, "SELECT path FROM files").pluck().all() as string[];
  const base = path.slice(path.lastIndexOf("/") + 1);
  const same = paths.filter((p) => p.endsWith(`/${base}`) || p === base);
  if (same.length > 0) return same.slice(0, max);
  const c = levenshtein().closest(path, paths.length > 0 ? paths : [""]);
  return c ? [c] : [];
}

export interface IndexedFile {
  hash?: string;
  size: number;
  mtime_ms: number;
}

export interface Freshness {
  path: string;
  state: "modified" | "missing";
}

/**
 * Whether files changed on disk since they were indexed: size or mtime differ and then the
 * content's hash too (a touch without a change is not stale).
 */
export function staleFiles(db: DB, root: string, paths: Iterable<string>, indexed?: Map<string, IndexedFile>): Freshness[] {
  const wanted = [...new Set(paths)];
  if (wanted.length === 0) return [];
  // What the caller already read with its rows, else one query for all the other paths.
  const recs = new Map<string, IndexedFile>(indexed);
  const missing = wanted.filter((p) => !recs.has(p));
  if (missing.length > 0) {
    const sql = "SELECT path, hash, size, mtime_ms FROM files WHERE path IN (SELECT value FROM json_each(?))";
    for (const r of stmt(db, sql).all(JSON.stringify(missing)) as (IndexedFile & { path: string })[]) recs.set(r.path, r);
  }
  const out: Freshness[] = [];
  // Stored paths are normalised and root-relative: concatenation is join() without its cost.
  const prefix = root.endsWith("/") ? root : `${root}/`;
  for (const p of wanted) {
    const rec = recs.get(p);
    if (!rec) continue;
    const abs = prefix + p;
    let s;
    try {
      s = statSync(abs, { throwIfNoEntry: false });
    } catch {
      s = undefined;
    }
    if (!s) {
      out.push({ path: p, state: "missing" });
      continue;
    }
    if (s.size === rec.size && s.mtimeMs === rec.mtime_ms) continue;
    if (s.size !== rec.size) {
      out.push({ path: p, state: "modified" });
      continue;
    }
    try {
      const h = `sha256:${createHash("sha256").update(readFileSync(abs)).digest("hex")}`;
      // Rows read for an answer carry size and mtime only; the hash is needed this rarely.
      const known = rec.hash ?? (stmt(db, "SELECT hash FROM files WHERE path = ?").pluck().get(p) as string | undefined);
      if (h !== known) out.push({ path: p, state: "modified" });
    } catch {
      out.push({ path: p, state: "missing" });
    }
  }
  return out;
}

export function allIndexedPaths(db: DB): string[] {
  return stmt(db, "SELECT path FROM files ORDER BY path").pluck().all() as string[];
}
