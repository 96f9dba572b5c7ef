/**
 * The planning state of one splice operation: every file's bytes as the change has them so far
 * (earlier batch steps included), the bytes each had on disk when first read, and the symbols of
 * a file, from magellan's graph while the file is as indexed, re-extracted from the planned
 * bytes once a step changed it.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { EXIT, ToolError } from "../../contract/errors.js";
import { type DB, openDb } from "../../graph/db.js";
import { toRows } from "../../graph/facts.js";
import { indexTree } from "../../graph/ingest.js";
import { findSymbols, refsTo, suggestNames, symbolById, symbolsInFile, type RefRecord } from "../../graph/read.js";
import { extractFacts } from "../../lang/extract.js";
import { ExtractionBudgetError } from "../../lang/budget.js";
import { type LanguageId, languageForPath, refineLanguage } from "../../lang/registry.js";
import { isBinary } from "../../text/binary.js";
import { checksum, normalizeChecksum } from "../../text/checksum.js";
import { resolveInRoot } from "../../text/root.js";
import { CODES, TOOL } from "./codes.js";
import { assertWritablePath, type PlannedFile } from "./seam.js";

/** SPLICE_E118 for a text beyond extraction's budgets, nested too deep or too slow to parse (a file's, or a patch's new text). */
export function budgetError(e: ExtractionBudgetError, rel?: string): ToolError {
  return new ToolError({
    code: CODES.too_large_to_index,
    error: "too_large_to_index",
    message: `${rel ? `${rel}: ` : ""}${e.message}: beyond what splice reads symbols from`,
    file: rel,
    remediation: "Change this file by its text: 'splice edit' (exact text) or llmtransform (byte ranges).",
  });
}

export interface Sym {
  symbol_id: string;
  name: string;
  kind: string;
  kind_normalized: string;
  scoped_name: string;
  display_fqn: string;
  parent: string | null;
  file: string;
  language: LanguageId;
  byte_start: number;
  byte_end: number;
  name_byte_start: number;
  name_byte_end: number;
  start_line: number;
}

export interface SymbolQuery {
  file?: string;
  symbol?: string;
  symbol_id?: string;
  kind?: string;
  /**
   * Same-named declarations of one scope in one Python, TypeScript or JavaScript file (overload
   * signatures and their implementation, a property's getter and setter) are one binding: the
   * last stands for them all (a rename's engine renames every declaration of the binding).
   */
  oneBinding?: boolean;
}

/** Languages where same-named declarations of one scope are one binding (see SymbolQuery.oneBinding). */
const ONE_BINDING = new Set<string>(["python", "typescript", "tsx", "javascript"]);

/** Same-named declarations of one scope in one Python, TypeScript or JavaScript file. */
function oneBinding(cands: Sym[]): boolean {
  const [first] = cands as [Sym];
  return cands.every((s) => ONE_BINDING.has(s.language) && s.file === first.file && s.scoped_name === first.scoped_name && s.kind === first.kind);
}

/** The Rust kinds an `impl T` block implements (the rename engine renames their impl blocks). */
const RUST_TYPES = new Set(["Struct", "Enum", "Union", "TypeAlias"]);

/** The one Rust type among candidates that are otherwise its own `impl T` blocks, in its file. */
function typeOfImpls(cands: Sym[]): Sym | undefined {
  const types = cands.filter((s) => s.language === "rust" && RUST_TYPES.has(s.kind));
  if (types.length !== 1) return undefined;
  const [type] = types as [Sym];
  return cands.every((s) => s === type || (s.language === "rust" && s.kind === "Impl" && s.name === type.name && s.file === type.file)) ? type : undefined;
}

/**
 * `Cart.total`, `mod::f`, Javadoc's `Cart#total` → their parts. A `#` that starts a part is the
 * name's own (a JavaScript private member: ky's `Ky.#calculateDelay`, `#fetch`), not a separator:
 * splitting there left `calculateDelay`, which no symbol is named, so no private member could be
 * selected by name.
 */
export function qualifiedParts(name: string): string[] {
  return name.split(/::|\.|(?<=[^.:#])#/).filter((p) => p !== "");
}

/** At most this many characters of a candidate's parameter list are shown. */
const PARAMS_SHOWN = 80;

/**
 * The parameter list written after a declaration's name (`(int def)`), whitespace collapsed, or
 * '' when none follows: jackson-core's overloads `getValueAsInt()` and `getValueAsInt(int def)`
 * were listed as two identical "Method JsonParser.getValueAsInt" lines, told apart by line alone.
 */
function parametersAfterName(text: string): string {
  let i = 0;
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  if (text[i] === "<") {
    // Generic parameters first (Rust's `fn f<T>(x: T)`, Java's none here, TypeScript's `f<T>(…)`).
    for (let depth = 0; i < text.length; i++) {
      if (text[i] === "<") depth++;
      else if (text[i] === ">" && --depth === 0) break;
    }
    i++;
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  }
  if (text[i] !== "(") return "";
  let depth = 0;
  let end = -1;
  for (let j = i; j < text.length; j++) {
    if (text[j] === "(") depth++;
    else if (text[j] === ")" && --depth === 0) {
      end = j + 1;
      break;
    }
  }
  const params = (end < 0 ? `${text.slice(i)}…` : text.slice(i, end)).replace(/\s+/g, " ").replace(/\( /g, "(").replace(/ \)/g, ")");
  return params.length > PARAMS_SHOWN ? `${params.slice(0, PARAMS_SHOWN - 1)}…` : params;
}

function ambiguous(q: SymbolQuery, cands: Sym[], after: (s: Sym) => string = () => ""): ToolError {
  const list = cands.map((s) => `${s.symbol_id} ${s.kind} ${s.scoped_name}${after(s)} ${s.file}:${s.start_line}`);
  return new ToolError({
    code: CODES.ambiguous_symbol,
    error: "ambiguous_symbol",
    message: `'${q.symbol ?? q.symbol_id ?? ""}' matches ${cands.length} symbols:\n  ${list.join("\n  ")}`,
    file: cands[0]?.file,
    note: list.join("\n"),
    remediation: "Pick one with --symbol-id ID, a qualified name (Class.method, mod::f) or --kind.",
  });
}

export class Workspace {
  readonly original = new Map<string, Uint8Array | null>();
  readonly current = new Map<string, Uint8Array | null>();
  readonly dbPath: string;
  private db: DB | undefined;
  private expected = new Map<string, string>();

  constructor(
    readonly root: string,
    readonly cwd: string = process.cwd(),
  ) {
    this.dbPath = join(root, ".magellan", "code.db");
  }

  /** Preconditions `F=sha256:…`: a file that does not have those bytes fails the whole change. */
  expect(specs: string[]): void {
    for (const s of specs) {
      const at = s.lastIndexOf("=");
      const sum = at > 0 ? normalizeChecksum(s.slice(at + 1)) : undefined;
      if (at <= 0 || sum === undefined) {
        throw new ToolError({ code: CODES.usage, error: "invalid_arguments", message: `--expected-checksum ${s}: expected FILE=sha256:<64 hex>`, remediation: "Give FILE=sha256:<hex> (the hex of `sha256sum FILE`).", exitCode: EXIT.usage });
      }
      this.expected.set(this.rel(s.slice(0, at)), sum);
    }
  }

  rel(userPath: string): string {
    return assertWritablePath(this.root, resolveInRoot(TOOL, this.root, userPath, this.cwd).rel, TOOL);
  }

  /**
   * Brings the graph up to date with the disk: the whole tree (incremental: only changed files
   * are re-read), or only `paths` when the caller knows the files involved (no walk).
   */
  async refreshIndex(paths?: string[]): Promise<void> {
    this.closeDb();
    await indexTree({ root: this.root, dbPath: this.dbPath, paths });
  }

  graph(): DB {
    this.db ??= openDb(this.dbPath, { write: false });
    return this.db;
  }

  closeDb(): void {
    this.db?.close();
    this.db = undefined;
  }

  exists(rel: string): boolean {
    if (this.current.has(rel)) return this.current.get(rel) !== null;
    return existsSync(join(this.root, rel));
  }

  read(rel: string): Uint8Array {
    if (!this.current.has(rel)) {
      const abs = join(this.root, rel);
      let bytes: Uint8Array;
      try {
        if (!statSync(abs).isFile()) throw Object.assign(new Error("not a file"), { code: "ENOENT" });
        bytes = readFileSync(abs);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") {
          throw new ToolError({ code: CODES.file_not_found, error: "file_not_found", message: `${rel}: no such file`, file: rel, remediation: "Give a path relative to the workspace root (or --root).", exitCode: EXIT.usage });
        }
        throw new ToolError({ code: CODES.io_error, error: "io_error", message: `${rel}: ${(e as Error).message}`, file: rel });
      }
      if (isBinary(bytes)) {
        throw new ToolError({ code: CODES.binary_file, error: "binary_file", message: `${rel} is a binary file`, file: rel, remediation: "splice edits source files only." });
      }
      this.original.set(rel, bytes);
      this.current.set(rel, bytes);
    }
    const b = this.current.get(rel);
    if (b === null || b === undefined) {
      throw new ToolError({ code: CODES.file_not_found, error: "file_not_found", message: `${rel}: deleted by an earlier step`, file: rel });
    }
    return b;
  }

  write(rel: string, bytes: Uint8Array): void {
    this.read(rel);
    this.current.set(rel, bytes);
  }

  language(rel: string): LanguageId {
    const info = languageForPath(rel);
    if (!info) {
      throw new ToolError({ code: CODES.unsupported_language, error: "unsupported_language", message: `${rel}: no language for this extension`, file: rel, remediation: "Symbol commands work on the 9 languages magellan indexes; use 'splice edit' for other files." });
    }
    return refineLanguage(info.id, rel, Buffer.from(this.read(rel)).toString("utf8", 0, 65536));
  }

  /** Files whose planned bytes differ from the disk, in path order. */
  changed(): PlannedFile[] {
    const out: PlannedFile[] = [];
    for (const [path, after] of this.current) {
      const before = this.original.get(path) ?? null;
      if (before !== null && after !== null && Buffer.from(before).equals(Buffer.from(after))) continue;
      out.push({ path, before, after });
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /** The preconditions, checked against the bytes first read. */
  checkExpected(): void {
    for (const [rel, want] of this.expected) {
      const have = this.exists(rel) ? checksum(this.original.get(rel) ?? this.read(rel)) : "missing";
      if (have !== want) {
        throw new ToolError({ code: CODES.checksum_mismatch, error: "checksum_mismatch", message: `${rel}: expected ${want}, found ${have}; nothing was written`, file: rel, remediation: "Re-read the file and plan the change against its current bytes." });
      }
    }
  }

  private dirty(rel: string): boolean {
    return this.current.has(rel) && this.current.get(rel) !== this.original.get(rel);
  }

  /** Every symbol of a file, in source order. */
  symbolsIn(rel: string): Sym[] {
    const language = this.language(rel);
    if (!this.dirty(rel)) {
      const rows = symbolsInFile(this.graph(), rel);
      if (rows.length > 0 || this.indexed(rel)) {
        return rows.map((s) => ({ ...s, file: rel, language: s.language as LanguageId }));
      }
    }
    const bytes = this.read(rel);
    let facts;
    try {
      facts = extractFacts(language, bytes);
    } catch (e) {
      throw e instanceof ExtractionBudgetError ? budgetError(e, rel) : e;
    }
    return toRows(rel, basename(this.root), facts, bytes).symbols.map((s) => ({
      symbol_id: s.symbol_id,
      name: s.name,
      kind: s.kind,
      kind_normalized: s.kind_normalized,
      scoped_name: s.scoped_name,
      display_fqn: s.display_fqn,
      parent: s.parent,
      file: rel,
      language,
      byte_start: s.span[0] as number,
      byte_end: s.span[1] as number,
      name_byte_start: s.name_span[0] as number,
      name_byte_end: s.name_span[1] as number,
      start_line: s.span[2] as number,
    }));
  }

  /** A candidate's parameter list as written (see parametersAfterName), '' when it cannot be read. */
  private parametersOf(s: Sym): string {
    try {
      const bytes = this.read(s.file);
      return parametersAfterName(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8", s.name_byte_end, Math.min(bytes.length, s.name_byte_end + 600)));
    } catch {
      return "";
    }
  }

  private indexed(rel: string): boolean {
    return (this.graph().prepare("SELECT 1 FROM files WHERE path = ?").get(rel) as unknown) !== undefined;
  }

  /**
   * One symbol: by id, or by name (plain, `Class.method`, `mod::f`) within a file or the whole
   * index, optionally of one kind. Several matches are an error listing every candidate.
   */
  resolve(q: SymbolQuery): Sym {
    const cands = this.candidates(q);
    if (cands.length > 1 && q.oneBinding && oneBinding(cands)) return cands.reduce((a, b) => (b.start_line > a.start_line ? b : a));
    // A Rust type and its `impl T` blocks write one name (the index holds both as symbols): a
    // rename of ripgrep's `Stats` was "matches 2 symbols" (Struct, Impl), though the type is the
    // only one that has a name to rename, and the engine renames its impl blocks with it.
    const type = q.oneBinding && cands.length > 1 ? typeOfImpls(cands) : undefined;
    if (type) return type;
    if (cands.length > 1) throw ambiguous(q, cands, (s) => this.parametersOf(s));
    return cands[0] as Sym;
  }

  /**
   * The Rust type an inherent `impl T` block implements (its name is the type's): one of that
   * name in the block's file, else the only one of the workspace; undefined when there is none or
   * several.
   */
  rustTypeOfImpl(impl: Sym): Sym | undefined {
    const types = (syms: Sym[]): Sym[] => syms.filter((s) => s.language === "rust" && s.name === impl.name && RUST_TYPES.has(s.kind));
    const here = types(this.symbolsIn(impl.file));
    if (here.length === 1) return here[0];
    if (here.length > 1) return undefined;
    const paths = [...new Set(findSymbols(this.graph(), { name: impl.name, mode: "exact", limit: 1000 }).map((s) => s.path))];
    const all = paths.flatMap((p) => types(this.symbolsIn(p)));
    return all.length === 1 ? all[0] : undefined;
  }

  /**
   * The declarations of one binding a name selects, in source order: an overloaded function's
   * signatures and implementation (hono's four `useRef`), a property's getter and setter, are
   * one unit for delete, patch and insert. Any other several matches are SPLICE_E101.
   */
  resolveBinding(q: SymbolQuery): Sym[] {
    const cands = this.candidates(q);
    if (cands.length > 1 && oneBinding(cands)) return [...cands].sort((a, b) => a.byte_start - b.byte_start);
    if (cands.length > 1) throw ambiguous(q, cands, (s) => this.parametersOf(s));
    return cands;
  }

  private candidates(q: SymbolQuery): Sym[] {
    let cands: Sym[];
    const file = q.file !== undefined ? this.rel(q.file) : undefined;
    if (q.symbol_id !== undefined) {
      if (file !== undefined) cands = this.symbolsIn(file).filter((s) => s.symbol_id === q.symbol_id);
      else {
        const s = symbolById(this.graph(), q.symbol_id);
        cands = s ? this.symbolsIn(s.path).filter((x) => x.symbol_id === q.symbol_id) : [];
      }
      if (cands.length === 0) {
        throw new ToolError({ code: CODES.symbol_not_found, error: "symbol_not_found", message: `no symbol with id ${q.symbol_id}${file ? ` in ${file}` : ""}`, remediation: "Ids change when a symbol is renamed or moved to another file: look it up again with 'magellan find'." });
      }
      return [cands[0] as Sym];
    }
    const name = q.symbol ?? "";
    const parts = qualifiedParts(name);
    const leaf = parts[parts.length - 1] ?? name;
    if (file !== undefined) cands = this.symbolsIn(file).filter((s) => s.name === leaf);
    else {
      const paths = [...new Set(findSymbols(this.graph(), { name: leaf, mode: "exact", limit: 1000 }).map((s) => s.path))];
      cands = paths.flatMap((p) => this.symbolsIn(p).filter((s) => s.name === leaf));
    }
    if (parts.length > 1) {
      const scope = parts.slice(0, -1);
      cands = cands.filter((s) => {
        const have = s.scoped_name.split(".");
        const fqn = qualifiedParts(s.display_fqn);
        const tail = (xs: string[]): boolean => xs.length >= parts.length && parts.every((p, i) => xs[xs.length - parts.length + i] === p);
        return tail(have) || tail(fqn) || (scope.length === 1 && s.parent === scope[0]);
      });
    }
    const named = cands;
    const where = file ?? "the workspace";
    if (q.kind !== undefined) {
      const k = q.kind.toLowerCase();
      cands = cands.filter((s) => s.kind.toLowerCase() === k || s.kind_normalized.toLowerCase() === k);
      // The name is there, the kind is not: a "did you mean" of names offered the very name given
      // (`--kind banana`: "did you mean stripUrlAuth?"), when the kind was what was wrong.
      if (cands.length === 0 && named.length > 0) {
        const kinds = [...new Set(named.map((s) => s.kind.toLowerCase()))];
        const known = this.graph().prepare("SELECT 1 FROM symbols WHERE lower(kind) = ? OR lower(kind_normalized) = ? LIMIT 1").get(k, k) !== undefined;
        throw new ToolError({
          code: CODES.symbol_not_found,
          error: "symbol_not_found",
          message: `${known ? "" : `unknown kind '${q.kind}' (no symbol of the index has it): `}no symbol '${name}' of kind ${q.kind} in ${where}; '${name}' there is of kind ${kinds.join(", ")}`,
          file,
          remediation: `Pass --kind ${kinds.join(" or --kind ")}, or leave --kind out.`,
        });
      }
    }
    if (cands.length === 0) {
      // A name that exists in another scope is not a suggestion of itself: its qualified names are.
      const near = (file !== undefined ? [...new Set(this.symbolsIn(file).map((s) => s.name))].filter((n) => n.toLowerCase().includes(leaf.toLowerCase()) || leaf.toLowerCase().includes(n.toLowerCase())) : suggestNames(this.graph(), leaf, 6))
        .flatMap((n) => (n === leaf && file !== undefined ? [...new Set(this.symbolsIn(file).filter((s) => s.name === n).map((s) => s.scoped_name))] : n === leaf ? [] : [n]))
        .filter((n) => n !== name)
        .slice(0, 5);
      // The name is defined in another file: cJSON.h declares `cJSON_GetArraySize` (a prototype,
      // which is no symbol) and cJSON.c defines it; "did you mean cJSON?" sent the agent nowhere.
      const elsewhere = file !== undefined && parts.length === 1 ? this.symbolsElsewhere(leaf, file) : [];
      if (elsewhere.length) {
        const at = elsewhere.slice(0, 5).map((s) => `${s.kind.toLowerCase()} ${s.scoped_name} at ${s.file}:${s.start_line}`);
        const c = languageForPath(file ?? "")?.id;
        const proto = c === "c" || c === "cpp" ? " (a function's prototype is no symbol: its definition is)" : "";
        throw new ToolError({
          code: CODES.symbol_not_found,
          error: "symbol_not_found",
          message: `no symbol '${name}'${q.kind ? ` of kind ${q.kind}` : ""} in ${file}${proto}; '${leaf}' is defined elsewhere: ${at.join(", ")}${elsewhere.length > 5 ? `, and ${elsewhere.length - 5} more` : ""}`,
          file,
          remediation: `Give --file ${elsewhere[0]?.file} (a rename there changes the declarations in ${file} too), or change the text of ${file} with splice edit --file ${file} --old TEXT --new TEXT.`,
        });
      }
      throw new ToolError({ code: CODES.symbol_not_found, error: "symbol_not_found", message: `no symbol '${name}'${q.kind ? ` of kind ${q.kind}` : ""} in ${where}${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`, file, remediation: `List the symbols with 'magellan find --name ${leaf}' (or 'magellan query --file ${file ?? "F"}'); qualified names are Class.method or mod::f.` });
    }
    return cands;
  }

  /** Symbols named `name` in files other than `file`, by path and position. */
  private symbolsElsewhere(name: string, file: string): Sym[] {
    const paths = [...new Set(findSymbols(this.graph(), { name, mode: "exact", limit: 1000 }).map((s) => s.path))].filter((p) => p !== file).sort();
    return paths.flatMap((p) => this.symbolsIn(p).filter((s) => s.name === name));
  }

  /** References to a symbol anywhere in the indexed workspace. */
  references(sym: Sym): RefRecord[] {
    return refsTo(this.graph(), [sym.symbol_id], [sym.name], 10_000);
  }
}
