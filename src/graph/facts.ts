/**
 * From one file's extracted facts to the rows the graph stores: symbol ids, fully qualified
 * names, line/column positions. Runs on the worker threads, so the writer only inserts.
 */
import { symbolId } from "../contract/ids.js";
import type { ByteRange, FileFacts, ReferenceKind, SymbolKind } from "../lang/extract-types.js";
import type { LanguageId } from "../lang/registry.js";
import type { ExtractedDep } from "../lang/deps.js";
import { LineIndex } from "../text/lines.js";

/** Display kind (seed 01 `kind`) and short normalized kind (`kind_normalized`). */
export const KINDS: Record<SymbolKind, { display: string; normalized: string }> = {
  function: { display: "Function", normalized: "fn" },
  method: { display: "Method", normalized: "method" },
  constructor: { display: "Constructor", normalized: "ctor" },
  class: { display: "Class", normalized: "class" },
  abstract_class: { display: "AbstractClass", normalized: "class" },
  struct: { display: "Struct", normalized: "struct" },
  union: { display: "Union", normalized: "union" },
  interface: { display: "Interface", normalized: "interface" },
  trait: { display: "Trait", normalized: "trait" },
  enum: { display: "Enum", normalized: "enum" },
  enum_member: { display: "EnumMember", normalized: "variant" },
  type_alias: { display: "TypeAlias", normalized: "type" },
  module: { display: "Module", normalized: "module" },
  namespace: { display: "Namespace", normalized: "namespace" },
  constant: { display: "Constant", normalized: "const" },
  static: { display: "Static", normalized: "static" },
  variable: { display: "Variable", normalized: "var" },
  field: { display: "Field", normalized: "field" },
  macro: { display: "Macro", normalized: "macro" },
  impl: { display: "Impl", normalized: "impl" },
};

/** The spellings `--kind` accepts, one per kind: `function` (also `Function`, `fn`), `class`, ... */
export function kindSpellings(): string[] {
  return Object.keys(KINDS).sort();
}

/** Whether `--kind` names a kind the index can hold, in any of its spellings. */
export function isKnownKind(filter: string): boolean {
  return Object.entries(KINDS).some(([k, v]) => kindMatches(filter, v.display, v.normalized) || filter.toLowerCase() === k);
}

/** Every spelling `--kind` accepts for a kind: `function`, `Function`, `fn`. */
export function kindMatches(filter: string, kind: string, normalized: string): boolean {
  const f = filter.toLowerCase();
  return f === kind.toLowerCase() || f === normalized.toLowerCase() || f.replace(/_/g, "") === kind.toLowerCase();
}

function separator(language: LanguageId): string {
  return language === "rust" || language === "cpp" ? "::" : ".";
}

/** The module a file stands for, as the language spells it (`pkg.mod`, `crate::a::b`, `src/util`). */
export function moduleName(language: LanguageId, path: string): string {
  const noExt = path.replace(/(\.d)?\.[^./]+$/, "");
  switch (language) {
    case "python":
      // src layout (src/pkg/core.py is module pkg.core): a package is imported from below src/.
      return noExt
        .replace(/^(.*\/)?src\//, "")
        .replace(/(^|\/)__init__$/, "")
        .split("/")
        .join(".");
    case "rust":
      return ["crate", ...rustModuleParts(noExt)].join("::");
    case "java":
      // The package declaration is a namespace symbol enclosing the file's types: it qualifies them.
      return "";
    case "go":
      // The package's directory; the module root's own package is named by nothing more.
      return path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    default:
      return noExt;
  }
}

const RUST_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Cargo's directories whose files (or subdirectories with a main.rs) are each a crate of their own. */
const RUST_TARGET_DIRS = new Set(["bin", "examples", "tests", "benches"]);

/**
 * The module path of a Rust file below its crate root, without extension (`src/a/b` -> a, b).
 * Cargo's layout decides where a crate starts: `src/` of a package; each file of `src/bin/`,
 * `examples/`, `tests/`, `benches/` (or its directory, with a main.rs) is a crate root of its
 * own; a directory whose name is not an identifier (`walkdir-list/main.rs`, a package named
 * with `-`) cannot be a module, so it and everything above it lie outside the crate.
 */
function rustModuleParts(noExt: string): string[] {
  let parts = noExt.split("/");
  const src = parts.lastIndexOf("src");
  if (src >= 0) parts = parts.slice(src + 1);
  let target = -1;
  if (src >= 0) target = parts.length > 1 && parts[0] === "bin" ? 0 : -1;
  else for (let i = parts.length - 2; i >= 0 && target < 0; i--) if (RUST_TARGET_DIRS.has(parts[i] as string)) target = i;
  if (target >= 0) {
    parts = parts.slice(target + 1);
    // `bin/tool.rs` is a crate root, and so is `bin/tool/main.rs`; any other file in `bin/tool/`
    // may be its module or a module of the directory's (`tests/common/mod.rs`): kept under it.
    if (parts.length === 1) return [];
    if (parts.length === 2 && parts[1] === "main") return [];
  } else if (src < 0) {
    let cut = -1;
    for (let i = 0; i < parts.length - 1; i++) if (!RUST_IDENT.test(parts[i] as string)) cut = i;
    parts = parts.slice(cut + 1);
    // A build script is the crate root of its own crate.
    if (parts.length === 1 && parts[0] === "build") return [];
  }
  const last = parts[parts.length - 1];
  if (last === "mod" || last === "lib" || last === "main") parts.pop();
  return parts;
}

export interface SymbolRow {
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
  /** The types it extends or implements, comma-separated (ExtractedSymbol.bases). */
  bases: string | null;
  /** Go: the name a method calls its receiver by. */
  receiver: string | null;
  /** A field's declared type, when it names one type. */
  declared_type: string | null;
  /** Java and C++ callables: the arguments a call may pass (ExtractedSymbol.arity). */
  arity: string | null;
  /** byte_start, byte_end, start_line, start_col, end_line, end_col */
  span: number[];
  name_span: number[];
}

/**
 * A file's references as columns rather than one object each: a file has hundreds, a
 * repository hundreds of thousands, and typed arrays cross from a worker thread as one copy
 * (an array of objects is cloned field by field) and sit in memory at a fraction of the size.
 */
export interface RefColumns {
  names: string[];
  kinds: ReferenceKind[];
  qualifiers: (string | null)[];
  /** The declared type of the parameter or local the qualifier names (ExtractedReference.receiver_type). */
  receiverTypes: (string | null)[];
  /** Index of the enclosing symbol in the file's `symbols`, -1 for none. */
  callers: Int32Array;
  /** Six numbers per reference: byte_start, byte_end, start_line, start_col, end_line, end_col. */
  spans: Int32Array;
  /** Arguments of a Java or C++ call, -1 for none (ExtractedReference.arity). */
  arities: Int32Array;
}

const REF_KINDS: readonly ReferenceKind[] = ["read", "call", "type", "write", "import"];
const REF_KIND_CODE = new Map<string, number>(REF_KINDS.map((k, i) => [k, i]));

/**
 * RefColumns as they cross from an extraction worker to the main thread: the kind of each
 * reference as a byte and the few qualifiers with their indexes. Structured clone copies a typed
 * array in one piece, but writes and, on the main thread, allocates each string of an array
 * afresh: the kinds of the bench tree were 890k such strings, and 720k of its qualifiers null.
 */
export interface PackedRefs {
  packed: true;
  names: string[];
  kinds: Uint8Array;
  /** Reference indexes that have a qualifier, ascending, and the qualifiers. */
  qualified: Int32Array;
  qualifiers: string[];
  /** The same for receiver types. */
  typed: Int32Array;
  receiverTypes: string[];
  callers: Int32Array;
  spans: Int32Array;
  arities: Int32Array;
}

/** The columns to post; columns with a kind this code does not know go as they are. */
export function packRefs(refs: RefColumns): PackedRefs | RefColumns {
  const n = refs.kinds.length;
  const kinds = new Uint8Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const code = REF_KIND_CODE.get(refs.kinds[i] as string);
    if (code === undefined) return refs;
    kinds[i] = code;
    if (refs.qualifiers[i] !== null && refs.qualifiers[i] !== undefined) count++;
  }
  const [qualified, qualifiers] = sparse(refs.qualifiers, count);
  let typedCount = 0;
  for (const t of refs.receiverTypes) if (t !== null && t !== undefined) typedCount++;
  const [typed, receiverTypes] = sparse(refs.receiverTypes, typedCount);
  return { packed: true, names: refs.names, kinds, qualified, qualifiers, typed, receiverTypes, callers: refs.callers, spans: refs.spans, arities: refs.arities };
}

/** The `count` non-null entries of `column`, with their indexes. */
function sparse(column: (string | null)[], count: number): [Int32Array, string[]] {
  const at = new Int32Array(count);
  const values = new Array<string>(count);
  for (let i = 0, k = 0; k < count; i++) {
    const v = column[i];
    if (v === null || v === undefined) continue;
    at[k] = i;
    values[k++] = v;
  }
  return [at, values];
}

function dense(n: number, at: Int32Array, values: string[]): (string | null)[] {
  const out = new Array<string | null>(n).fill(null);
  for (let k = 0; k < at.length; k++) out[at[k] as number] = values[k] as string;
  return out;
}

/** The columns as extraction made them (kinds are the shared constant strings). */
export function unpackRefs(refs: PackedRefs | RefColumns): RefColumns {
  if (!("packed" in refs)) return refs;
  const n = refs.kinds.length;
  const kinds = new Array<ReferenceKind>(n);
  for (let i = 0; i < n; i++) kinds[i] = REF_KINDS[refs.kinds[i] as number] as ReferenceKind;
  const qualifiers = dense(n, refs.qualified, refs.qualifiers);
  const receiverTypes = dense(n, refs.typed, refs.receiverTypes);
  return { names: refs.names, kinds, qualifiers, receiverTypes, callers: refs.callers, spans: refs.spans, arities: refs.arities };
}

export interface ImportRow {
  source: string;
  names: string;
  span: number[];
}

export interface FileRows {
  symbols: SymbolRow[];
  refs: RefColumns;
  imports: ImportRow[];
  /** File-level dependencies for the impact graph (src/lang/deps.ts). */
  deps: ExtractedDep[];
  has_errors: boolean;
  line_count: number;
}

const FAMILIES: Record<string, string> = { typescript: "js", tsx: "js", javascript: "js", c: "c", cpp: "c" };

/** JavaScript, TypeScript and TSX see each other's symbols, as C and C++ do; each other language its own. */
export function languageFamily(language: string): string {
  return FAMILIES[language] ?? language;
}

/** The languages of `language`'s family (itself alone for most). */
export function familyLanguages(language: string): string[] {
  const family = languageFamily(language);
  const all = Object.keys(FAMILIES).filter((l) => FAMILIES[l] === family);
  return all.length > 0 ? all : [language];
}

/** Whether a call of `arity` arguments fits a callable's arity (`2`, `1-3`, `2+`); unknown fits. */
export function fitsArity(declared: string | null, arity: number): boolean {
  if (declared === null) return true;
  const dash = declared.indexOf("-");
  if (dash > 0) return arity >= Number(declared.slice(0, dash)) && arity <= Number(declared.slice(dash + 1));
  if (declared.endsWith("+")) return arity >= Number(declared.slice(0, -1));
  return arity === Number(declared);
}

/** The arguments reference `i` passes (a Java or C++ call), or null. */
export function arityOf(refs: RefColumns, i: number): number | null {
  const a = refs.arities[i] as number;
  return a >= 0 ? a : null;
}

/** The caller's symbol_id of reference `i`, or null. */
export function callerOf(rows: FileRows, i: number): string | null {
  const c = rows.refs.callers[i] as number;
  return c >= 0 ? ((rows.symbols[c] as SymbolRow).symbol_id ?? null) : null;
}

/** A range's six span numbers written into `out` at `at` (a reference's straight into its column). */
function writePos(lines: LineIndex, r: ByteRange, out: Int32Array | number[], at: number): void {
  const s = lines.position(r.byte_start);
  const e = lines.position(r.byte_end);
  out[at] = r.byte_start;
  out[at + 1] = r.byte_end;
  out[at + 2] = s.line;
  out[at + 3] = s.col;
  out[at + 4] = e.line;
  out[at + 5] = e.col;
}

function pos(lines: LineIndex, r: ByteRange): number[] {
  const out = [0, 0, 0, 0, 0, 0];
  writePos(lines, r, out, 0);
  return out;
}

/**
 * symbol_id per CONTRACT.md: identity `file_path:kind:scoped_name`; the disambiguator is the
 * ordinal among symbols of the same identity in source order (overloads, same-named siblings),
 * so moving unrelated code never changes an id.
 */
export function toRows(path: string, rootName: string, facts: FileFacts, bytes: Uint8Array): FileRows {
  const lines = new LineIndex(bytes);
  const language = facts.language;
  const sep = separator(language);
  // Java: the package declaration (a namespace symbol beside the types, not around them).
  const pkg = language === "java" ? facts.symbols.find((s) => s.kind === "namespace" && s.scope.length === 0) : undefined;
  const mod = pkg ? pkg.name : moduleName(language, path);
  const seen = new Map<string, number>();
  const ids: string[] = [];
  const symbols: SymbolRow[] = facts.symbols.map((s) => {
    const scoped = [...s.scope, s.name].join(".");
    const identity = `${path}:${s.kind}:${scoped}`;
    const n = seen.get(identity) ?? 0;
    seen.set(identity, n + 1);
    const id = symbolId(language, identity, n);
    ids.push(id);
    const k = KINDS[s.kind] ?? { display: s.kind, normalized: s.kind };
    const display = [...s.scope, s.name].join(sep);
    return {
      symbol_id: id,
      name: s.name,
      kind: k.display,
      kind_normalized: k.normalized,
      parent: s.scope.length > 0 ? (s.scope[s.scope.length - 1] as string) : null,
      parent_symbol_id: null,
      scoped_name: scoped,
      canonical_fqn: `${rootName}::${path}::${k.display} ${display}`,
      display_fqn: mod && s !== pkg ? `${mod}${sep}${display}` : display,
      language,
      flags: s.flags && s.flags.length > 0 ? s.flags.join(",") : null,
      bases: s.bases && s.bases.length > 0 ? s.bases.join(",") : null,
      receiver: s.receiver ?? null,
      declared_type: s.declared_type ?? null,
      arity: s.arity ?? null,
      span: pos(lines, s.range),
      name_span: pos(lines, s.name_range),
    };
  });
  facts.symbols.forEach((s, i) => {
    const parent = s.parent_index !== undefined ? facts.symbols[s.parent_index] : undefined;
    // A definition whose written scope goes past the definition around it (`void registry::init()`
    // inside `namespace details {`) belongs to that written scope, as it does outside any
    // namespace: its parent is the class's name, declared elsewhere. It was the namespace's, so
    // spdlog's `logger::flush_` was a namespace-level function to every bare `flush_()`.
    const written = parent !== undefined && s.scope.length > parent.scope.length + 1;
    if (s.parent_index !== undefined && s.parent_index >= 0 && s.parent_index < symbols.length && !written) {
      const row = symbols[i] as SymbolRow;
      row.parent_symbol_id = ids[s.parent_index] as string;
      if (parent) row.parent = parent.name;
    }
    // Declared inside a function body (a nested function, a class local to a test): reachable
    // from that body only, which resolution must know before it guesses a member's owner.
    for (let a = s.parent_index; a !== undefined && a >= 0; a = facts.symbols[a]?.parent_index) {
      const k = facts.symbols[a]?.kind;
      if (k === "function" || k === "method" || k === "constructor") {
        const row = symbols[i] as SymbolRow;
        row.flags = row.flags ? `${row.flags},local` : "local";
        break;
      }
    }
  });
  const n = facts.references.length;
  const refs: RefColumns = {
    names: new Array<string>(n),
    kinds: new Array<ReferenceKind>(n),
    qualifiers: new Array<string | null>(n),
    receiverTypes: new Array<string | null>(n),
    callers: new Int32Array(n),
    spans: new Int32Array(n * 6),
    arities: new Int32Array(n),
  };
  facts.references.forEach((r, i) => {
    refs.arities[i] = r.arity ?? -1;
    refs.names[i] = r.name;
    refs.kinds[i] = r.kind;
    refs.qualifiers[i] = r.qualifier ?? null;
    refs.receiverTypes[i] = r.receiver_type ?? null;
    refs.callers[i] = r.enclosing_index !== undefined && r.enclosing_index < symbols.length ? r.enclosing_index : -1;
    writePos(lines, r.range, refs.spans, i * 6);
  });
  const imports: ImportRow[] = facts.imports.map((im) => ({
    source: im.source,
    // The local name of the whole module (Go `s "example.com/m/sub"`, Python `import a.b as c`,
    // `const u = require("./util")`) is stored as `import * as ns` is, a `*` with that alias: it
    // was dropped, so `s.Hello()` and `c.f()` reached nothing, or a same-named stranger.
    names: JSON.stringify(im.alias !== undefined && !im.names.some((n) => n.name === "*") ? [...im.names, { name: "*", alias: im.alias }] : im.names),
    span: pos(lines, im.range),
  }));
  return { symbols, refs, imports, deps: [], has_errors: facts.has_errors, line_count: lines.lineCount };
}
