/**
 * Extraction: one file's bytes -> its symbols, references and imports, with exact byte offsets.
 *
 * Everything language-specific lives in the query files src/lang/queries/<language>/
 * {symbols,references,imports}.scm; this module only interprets their capture names:
 *
 * symbols.scm
 *   @def.<kind>        the whole definition (kind is a SymbolKind)
 *   @name              its name node
 *   @name.start        the name begins where this node begins and ends where @name ends
 *                      (C++ `operator bool`: from `operator` to the end of the type)
 *   @name.qualified    a qualified name (`a::B::f`, `pkg.f`): the last segment is the name, the rest
 *                      become extra scope entries
 *   @scope             an extra scope written outside the nesting (Go method receiver type)
 *   @trait             Rust `impl Trait for Type`: the impl's name becomes `<Type as Trait>`
 *   @flag.<flag>       marks a node; the symbol whose definition is that node gets the flag
 *   @flag_name.<flag>  a node whose text names a top-level symbol of the file; it gets the flag
 *   @toplevel          the match is a symbol only outside every other definition (Python's
 *                      module-level assignments at any depth of if/try/with/for/while)
 *   @nonlocal          the match is no symbol inside a function or method (C and C++
 *                      declarations under `#if`, which a function body holds as well)
 *   @base.of + @base   a class (the @base.of node, the definition's own node) extends or
 *                      implements the type written at @base; one match per base
 *   @receiver.of + @receiver  a Go method (the @receiver.of node, its definition's own) calls
 *                      its receiver by the name at @receiver
 *   @type.of + @type   a field (its definition's node) is declared of the type at @type, or a
 *                      C++ type alias names it
 *   @hoist             the definition belongs to the scope around its enclosing definition (a
 *                      TS constructor's parameter property is a field of the class)
 *   Parents and scopes come from nesting of definition ranges, so no query has to know them.
 *
 * references.scm
 *   @ref.call | @ref.read | @ref.write | @ref.type   the referring name node
 *   @ref.ignore        a name that is no reference (parameter, label); wins over everything
 *   @qualifier         what is written before the name (`a.b` in `a.b.c()`)
 *   One name node yields one reference; when several patterns capture it the strongest kind wins
 *   (ignore > call > write > type > read). Names of definitions are never references.
 *   @decorator         a decorator written before a definition's name (`@register` over a `def`,
 *                      `@Input()` on a field): what it references is the scope around that
 *                      definition's, which applies it when the definition is made
 *   @decorator.param   a decorator of a parameter (`constructor(@Inject(T) x)`): the same, for the
 *                      function whose parameter it is
 *
 * imports.scm
 *   @import            the import statement (one ExtractedImport per such node)
 *   @import.source     the module specifier (quotes stripped); several in one match are joined with
 *                      the language's separator (Rust nested `use a::{b::{c}}`)
 *   @import.name       a name brought in (also emitted as a reference of kind "import")
 *   @import.alias      the local name of the @import.name in the same match, or of the whole module
 *   @import.wildcard   a `*` import
 *   @import.default    the local name of a default import (`import x from "m"` -> name "default", alias x)
 *   @import.own        the module's own declaration exported under another name (`export { a as b }`):
 *                      an import of source "" (the module itself), with no reference of its own
 *   @import.default_passed  the module's default is the imported one's (CommonJS `module.exports =
 *                      require("m")`): name "default", no alias, no reference (as `export { default } from`)
 */
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type Parser from "tree-sitter";
import { loadTreeSitter } from "./tree-sitter-module.js";
import { clipTextStart } from "../text/clip.js";
import { decodeBytes, type DecodedText } from "../text/decode.js";
import { grammar, type LanguageId } from "./registry.js";
import { parseSource } from "./preprocess.js";
import { hasSyntaxErrors } from "./grammar-lags.js";
import { ExtractionBudgetError } from "./budget.js";
import { ensureHeadroom, QUERY_BYTES_PER_UNIT, trimHeap } from "./heap.js";
import { CapturedNode, rawMatchList, rawMatchesSupported } from "./raw-matches.js";
import { FIELD_PATH, chainCallee, chainMarker, chainOf, pythonNotNoneType, splitOutsideBrackets, withoutTypeArguments } from "./type-text.js";
import type {
  ByteRange,
  ExtractedImport,
  ExtractedReference,
  ExtractedSymbol,
  FileFacts,
  ReferenceKind,
  SymbolKind,
} from "./extract-types.js";

export type QueryPurpose = "symbols" | "references" | "imports" | "deps";

/** A match of deps.scm as the combined query gives it: a SyntaxNode or a raw-matches.ts CapturedNode per capture. */
export interface DepMatch {
  pattern: number;
  captures: { name: string; node: Parser.SyntaxNode | CapturedNode }[];
}

/** Whether the language's dependencies come with extractFromTree's matches (see DEPS_IN_QUERY). */
export function depsInQuery(id: LanguageId): boolean {
  return DEPS_IN_QUERY.has(id);
}

/** What extraction reads of a captured node: a SyntaxNode, or raw-matches.ts's lighter CapturedNode. */
type QNode = Pick<Parser.SyntaxNode, "startIndex" | "endIndex" | "typeId"> & { readonly parent: QNode | null };
interface QMatch {
  pattern: number;
  captures: { name: string; node: QNode }[];
}

/**
 * One native call's matches, read by index: a RawMatchList, or the public `Query.matches()`
 * result (where the binding's private call is missing) through QMatchList.
 */
interface MatchList {
  readonly length: number;
  captureCount(j: number): number;
  name(j: number, k: number): string;
  /** UTF-16 start and end of capture k of match j. */
  start(j: number, k: number): number;
  end(j: number, k: number): number;
  /** Match j as objects; `own`: kept past this list (see RawMatchList.match). */
  match(j: number, own: boolean): QMatch;
  /** The node of capture k of match j, valid while this list is. */
  node(j: number, k: number): QNode;
}

class QMatchList implements MatchList {
  readonly length: number;
  constructor(private readonly ms: QMatch[]) {
    this.length = ms.length;
  }
  captureCount(j: number): number {
    return (this.ms[j] as QMatch).captures.length;
  }
  private capture(j: number, k: number): QMatch["captures"][number] {
    return (this.ms[j] as QMatch).captures[k] as QMatch["captures"][number];
  }
  name(j: number, k: number): string {
    return this.capture(j, k).name;
  }
  start(j: number, k: number): number {
    return startOf(this.capture(j, k).node);
  }
  end(j: number, k: number): number {
    return this.capture(j, k).node.endIndex;
  }
  match(j: number): QMatch {
    return this.ms[j] as QMatch;
  }
  node(j: number, k: number): QNode {
    return this.capture(j, k).node;
  }
}

const SYMBOL_KINDS = new Set<SymbolKind>([
  "function",
  "method",
  "constructor",
  "class",
  "abstract_class",
  "struct",
  "union",
  "interface",
  "trait",
  "enum",
  "enum_member",
  "type_alias",
  "module",
  "namespace",
  "constant",
  "static",
  "variable",
  "field",
  "macro",
  "impl",
]);

/** Kinds whose bodies hold locals (see @nonlocal). */
const FUNCTION_KINDS = new Set<SymbolKind>(["function", "method", "constructor"]);

/** Separator of qualified names per language, for `@name.qualified`. */
const QUALIFIER_SEPARATOR: Record<LanguageId, string> = {
  rust: "::",
  cpp: "::",
  c: "::",
  python: ".",
  java: ".",
  javascript: ".",
  typescript: ".",
  tsx: ".",
  go: ".",
};

function queryPath(dir: string, id: LanguageId, purpose: QueryPurpose): string {
  return `${dir}${id}/${purpose}.scm`;
}

/**
 * The query files are data next to the sources. Compiled code runs from dist/src/lang, so look
 * next to this module first (a build that copies them) and then in the source tree.
 */
function queriesRoot(): string {
  const candidates = [new URL("./queries/", import.meta.url), new URL("../../../src/lang/queries/", import.meta.url)];
  for (const c of candidates) {
    const p = fileURLToPath(c);
    if (existsSync(p)) return p;
  }
  throw new Error(`tree-sitter query files not found (looked in ${candidates.map((c) => fileURLToPath(c)).join(", ")})`);
}

let root: string | undefined;

/** First line `; inherits: <language>` (the modeline nvim-treesitter uses for the same idea). */
const INHERITS = /^; inherits: ([a-z]+)[ \t]*\r?\n/;

/**
 * The text of a query file, e.g. for tools that show or reuse it. A file whose first line is
 * `; inherits: <language>` gets that language's file of the same purpose put in front of it, so
 * a grammar that extends another (TSX over TypeScript, TypeScript over JavaScript) states only
 * what it adds, and pattern order stays parent first.
 */
export function querySource(id: LanguageId, purpose: QueryPurpose): string {
  root ??= queriesRoot();
  const text = readFileSync(queryPath(root, id, purpose), "utf8");
  const parent = INHERITS.exec(text)?.[1];
  if (parent === undefined) return text;
  if (parent === id) throw new Error(`${queryPath(root, id, purpose)}: a query file cannot inherit from its own language`);
  return `${querySource(parent as LanguageId, purpose)}\n${text}`;
}

const queries = new Map<LanguageId, Parser.Query>();

/**
 * Languages whose impact-graph dependencies (deps.scm) are matched in the same pass as the rest
 * (extractFromTree's `deps`). TypeScript and JavaScript find theirs from the text (deps.ts).
 * A pass of its own was a second walk of each tree: on the 76 MB mixed tree's C, C++, Go, Java,
 * Python and Rust files 1049 ms of matching instead of 721 ms (one thread, best of 3).
 */
const DEPS_IN_QUERY = new Set<LanguageId>(["c", "cpp", "go", "java", "python", "rust"]);

/**
 * The query files of a language compiled as one query, once per language per thread: one cursor
 * pass over the tree instead of three or four (the walk, not the matching, dominates the cost).
 * Matches are told apart by their capture names (def./flag., ref., import, dep).
 */
export function queryFor(id: LanguageId): Parser.Query {
  let q = queries.get(id);
  if (!q) {
    const purposes: QueryPurpose[] = ["symbols", "references", "imports"];
    if (DEPS_IN_QUERY.has(id)) purposes.push("deps");
    const sources = purposes.map((p) => querySource(id, p));
    try {
      q = new (loadTreeSitter().Query)(grammar(id) as Parser.Language, sources.join("\n"));
    } catch (e) {
      // Name the file and line at fault: the combined offset means nothing to a reader.
      let offset = Number(/position (\d+)/.exec(String(e))?.[1] ?? -1);
      for (let i = 0; i < sources.length; i++) {
        const src = sources[i] as string;
        if (offset >= 0 && offset <= src.length) {
          const line = src.slice(0, offset).split("\n").length;
          throw new Error(`${queryPath(queriesRoot(), id, purposes[i] as QueryPurpose)}:${line}: ${String(e)}`);
        }
        offset -= src.length + 1;
      }
      throw e;
    }
    queries.set(id, q);
  }
  return q;
}

interface PendingSymbol {
  pattern: number;
  kind: SymbolKind;
  def: QNode;
  start: number;
  end: number;
  name: string;
  nameStart: number;
  nameEnd: number;
  extraScope: string[];
  flags: string[] | undefined;
  bases?: string[];
  receiver?: string;
  declared_type?: string;
  hoist?: boolean;
  /** Kept only outside every other definition (see python/symbols.scm). */
  toplevel: boolean;
  /** Dropped inside a function or method (see c/symbols.scm). */
  nonlocal?: boolean;
}

/** Parses and extracts. Never throws on bad source: tree-sitter recovers and has_errors says so. */
export function extractFacts(language: LanguageId, bytes: Uint8Array): FileFacts {
  const decoded = decodeBytes(bytes);
  const tree = parseSource(language, decoded.text);
  try {
    return extractFromTree(language, tree, decoded);
  } finally {
    // Trees hold native memory; let it go now rather than when the GC finds the wrapper.
    (tree as unknown as { delete?: () => void }).delete?.();
  }
}

/**
 * Above this many UTF-16 units a file's matches are taken window by window, and each window's
 * reference matches are folded into compact records before the next window is matched: all of a
 * 4 MB minified bundle's matches at once took over 200 MB of heap (one object per capture), which
 * made indexing memory grow with the largest file. MAGELLAN_MATCH_WINDOW sets it (tests).
 */
function matchWindow(): number {
  const v = Number(process.env.MAGELLAN_MATCH_WINDOW);
  return Number.isInteger(v) && v > 0 ? v : 1 << 18;
}

/** One native call's matches, and the part of the text whose matches are its to take. */
interface MatchBatch {
  matches: MatchList;
  /** Windowed: only the matches whose first capture starts in [from, to) are its own. */
  windowed: boolean;
  from: number;
  to: number;
  length: number;
}

/**
 * Heap a windowed extraction lets pile up before it collects (trimHeap): pyright's 3.9 MB bundle
 * peaked at 383-385 MB without, 367-368 MB at 32 MB (371-375 at 64; 2 runs each).
 */
const TRIM_BYTES = 32 * 1024 * 1024;

/** Children that make a node too wide to be searched window by window (MAGELLAN_WIDE_CHILDREN: tests). */
const WIDE_CHILDREN = Number(process.env.MAGELLAN_WIDE_CHILDREN) || 20_000;
/**
 * A node longer than a window with more than WIDE_CHILDREN children (a data array, an embedded
 * blob), or null. Each window's search walks every child of such a node whatever its range (the
 * query's patterns rooted above it, and its wildcard-rooted ones, keep states that descend into
 * it), and a long list's children cost the cursor ~1.8 µs each (the list is a balanced tree of
 * hidden repetition nodes it climbs for every child): a 3.9 MB array of numbers, 16 windows,
 * took 58 s, one search over the whole tree 3.9 s.
 */
export function wideNode(root: Parser.SyntaxNode, window: number): Parser.SyntaxNode | null {
  if (root.childCount > WIDE_CHILDREN) return root;
  // One cursor, no recursion: a chain of 30,000 calls or else-ifs nests as deep.
  const c = root.walk();
  let down = true;
  for (;;) {
    if (!down || !c.gotoFirstChild()) {
      while (!c.gotoNextSibling()) if (!c.gotoParent()) return null;
    }
    // Only a node longer than a window can hold one that the windows cut.
    down = c.endIndex - c.startIndex > window;
    if (down) {
      const n = c.currentNode;
      if (n.childCount > WIDE_CHILDREN) return n;
    }
  }
}

/**
 * The matches of the file's query, in windows of its text: each match comes once, from the
 * window holding the first of its captures (a match intersects that window, so the window's
 * search finds it; the others that find it skip it). A tree with a wide node is searched whole,
 * once (wideNode).
 */
function* windowedMatches(query: Parser.Query, tree: Parser.Tree, length: number): Generator<MatchBatch> {
  const window = matchWindow();
  // MAGELLAN_PUBLIC_MATCHES takes the public API's path, as a binding without the private call would (tests).
  const raw = rawMatchesSupported() && !process.env.MAGELLAN_PUBLIC_MATCHES;
  if (!raw || length <= window || wideNode(tree.rootNode, window) !== null) {
    ensureHeadroom(length * QUERY_BYTES_PER_UNIT);
    yield { matches: raw ? rawMatchList(query, tree) : new QMatchList(query.matches(tree.rootNode)), windowed: false, from: 0, to: length, length };
    return;
  }
  for (let a = 0; a < length; a += window) {
    if (a > 0) trimHeap(TRIM_BYTES);
    const b = Math.min(length, a + window);
    ensureHeadroom((b - a + 2) * QUERY_BYTES_PER_UNIT);
    // One unit wider on each side, so that a zero-width node (a MISSING token) at a window's
    // edge is seen by the window that owns it.
    const matches = rawMatchList(query, tree, { startByte: Math.max(0, a - 1) * 2, endByte: Math.min(length, b + 1) * 2 });
    yield { matches, windowed: true, from: a, to: b, length };
  }
  trimHeap(TRIM_BYTES);
}

/** Whether match j of a window's batch is the window's own (see windowedMatches). */
function ownMatch(batch: MatchBatch, list: MatchList, j: number): boolean {
  let first = Infinity;
  const count = list.captureCount(j);
  for (let k = 0; k < count; k++) first = Math.min(first, list.start(j, k));
  // A match without captures has no place: keep it in the first window only.
  return first === Infinity ? batch.from === 0 : first >= batch.from && (first < batch.to || batch.to === batch.length);
}

/** 1 symbols, 2 references, 3 imports, 4 dependencies, 5 local bindings, 0 none: the purpose of the first capture that tells. */
function purposeOf(n: string): number {
  // The first letter first: this runs for each of millions of captures.
  const ch = n.charCodeAt(0);
  if (ch === 100 /* d */) {
    if (n.startsWith("def.")) return 1;
    if (n === "decorator" || n === "decorator.param") return 2;
    return n === "dep" || n.startsWith("dep.") ? 4 : 0;
  }
  if (ch === 102 /* f */ && (n.startsWith("flag.") || n.startsWith("flag_name."))) return 1;
  if (ch === 98 /* b */ && (n === "base" || n === "base.of")) return 1;
  if (ch === 114 /* r */ && (n === "receiver" || n === "receiver.of")) return 1;
  if (ch === 116 /* t */ && (n === "type" || n === "type.of")) return 1;
  if (ch === 114 /* r */ && n.startsWith("ref.")) return 2;
  if (ch === 105 /* i */ && n.startsWith("import")) return 3;
  if (ch === 108 /* l */ && n.startsWith("local")) return 5;
  return 0;
}

/**
 * Extraction over an existing tree (for callers that parse themselves). `deps` receives the
 * matches of the language's deps.scm where they are part of the query (DEPS_IN_QUERY), for
 * deps.ts's extractDeps while the tree is alive.
 */
export function extractFromTree(language: LanguageId, tree: Parser.Tree, decoded: DecodedText, deps?: DepMatch[]): FileFacts {
  const rootNode = tree.rootNode;
  const symbolMatches: QMatch[] = [];
  const importMatches: QMatch[] = [];
  const refs = new ReferenceCollector(language, decoded.text);
  const query = queryFor(language);
  for (const batch of windowedMatches(query, tree, decoded.text.length)) {
    const list = batch.matches;
    // Reference matches are folded in place; symbol and import matches become objects, each node
    // with its own fields when the list is a window's (they outlive it).
    for (let j = 0; j < list.length; j++) {
      if (batch.windowed && !ownMatch(batch, list, j)) continue;
      const count = list.captureCount(j);
      let purpose = 0;
      for (let k = 0; k < count; k++) if ((purpose = purposeOf(list.name(j, k)))) break;
      if (purpose === 1) symbolMatches.push(list.match(j, batch.windowed));
      else if (purpose === 2) refs.add(list, j);
      else if (purpose === 3) importMatches.push(list.match(j, batch.windowed));
      else if (purpose === 4) deps?.push(list.match(j, batch.windowed) as unknown as DepMatch);
      else if (purpose === 5) refs.bind(list, j);
    }
  }
  const merged: number[] = [];
  const symbols = extractSymbols(language, symbolMatches, decoded, merged, guessedDeclarationEnds(language, rootNode));
  const nameStarts = new Set<number>(merged);
  for (const s of symbols) nameStarts.add(s.name_range.byte_start);
  const { imports, importRefs, aliasStarts, boundAt } = extractImports(importMatches, decoded, QUALIFIER_SEPARATOR[language]);
  // Local names bound by imports are declarations, not references.
  for (const a of aliasStarts) nameStarts.add(a);
  refs.importBound(boundAt);
  const references = refs.finish(decoded, nameStarts, importRefs, symbols);
  assignEnclosing(symbols, references);
  refs.outsideDecorated(decoded, symbols, references);
  return { language, symbols, references, imports, has_errors: hasSyntaxErrors(rootNode) };
}

/**
 * The type a Python value declared `X | None`, `"X | None"` or `"Optional[X]"` holds when it is
 * anything: X, whose members a call's result is used for. A union of two types is left as
 * written (baseName reads no one type in it).
 */
function pythonNotNone(written: string): string {
  return pythonNotNoneType(written.trim().replace(/^(["'])(.+)\1$/s, "$2").trim()) ?? written;
}

/**
 * A base type as resolution looks it up: `pkg.Base<T>` is `pkg.Base`, `ns::Base<int>` is
 * `ns::Base`. An expression (`mixin(Base)`, Python's `Generic[T]`) names no one type: undefined.
 */
function baseName(written: string): string | undefined {
  const name = withoutTypeArguments(written).replace(/\s+/g, "").replace(/^::/, "");
  return /^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$/.test(name) ? name : undefined;
}

/**
 * Definitions nested deeper than this make a file too large to index. Each symbol carries its
 * whole scope (scoped name, both FQNs), and finding a node's parent costs tree-sitter its depth,
 * so nesting costs the square of its depth: 4,000 nested functions took 2.3 s and 550 MB, 20,000
 * exhausted a 4 GB heap after 100 s (and, extracted on the main thread of a small run, killed the
 * process without its envelope). Code written by hand nests a few dozen deep.
 */
const SMART_POINTER = /^(?:::)?std::(?:unique_ptr|shared_ptr|weak_ptr)\s*<\s*(.*?)\s*>$/s;

export const MAX_DEFINITION_NESTING = 256;

/** A file beyond MAX_DEFINITION_NESTING: processFile skips it as too_large_to_index. */
export class NestingLimitError extends ExtractionBudgetError {
  constructor(message: string) {
    super(message);
    this.name = "NestingLimitError";
  }
}

interface Extent {
  start: number;
  end: number;
}

/** Whether `outer` holds a definition at [start, end): one of exactly its range is its sibling (Go `A, B int`, C `int a, b;`). */
function encloses(outer: Extent, start: number, end: number): boolean {
  return !(outer.end < end || (outer.end === end && outer.start === start));
}

/** Throws NestingLimitError when definitions (outer ones first) nest deeper than MAX_DEFINITION_NESTING. */
function checkNesting(sorted: readonly Extent[], text: string): void {
  const stack: Extent[] = [];
  for (const d of sorted) {
    while (stack.length && !encloses(stack[stack.length - 1] as Extent, d.start, d.end)) stack.pop();
    stack.push(d);
    if (stack.length > MAX_DEFINITION_NESTING) {
      const line = text.slice(0, d.start).split("\n").length;
      throw new NestingLimitError(`definitions nested more than ${MAX_DEFINITION_NESTING} deep (line ${line})`);
    }
  }
}

/**
 * Where a C or C++ parse ends a declaration with a MISSING `;`: tree-sitter's guess, most often
 * at a macro it read as a type (zlib's `ZEXTERN uLong ZEXPORT zlibCompileFlags(void);` became a
 * variable `uLong`, hiredis's `ffc_inline ffc_internal\nffc_u128 f(...) {` a variable
 * `ffc_internal`). Valid C and C++ end every declaration with a `;`, so such a declaration that
 * ends with its name (`TYPE name`, no initializer, no brackets) defines no variable; one whose
 * initializer the parse lost at a macro (spdlog's `level_string_views[] SPDLOG_LEVEL_NAMES`) keeps
 * its name. Undefined for a tree without one.
 */
function guessedDeclarationEnds(language: LanguageId, root: Parser.SyntaxNode): Set<number> | undefined {
  if ((language !== "c" && language !== "cpp") || !root.hasError) return undefined;
  let out: Set<number> | undefined;
  const stack: Parser.SyntaxNode[] = [root];
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    if (n.isMissing) {
      if (n.type === ";" && n.parent?.type === "declaration") (out ??= new Set()).add(n.startIndex);
    } else if (n.hasError) for (const c of n.children) stack.push(c);
  }
  return out;
}

/** `merged` receives the byte starts of names of definitions folded into another one (still no references). */
function extractSymbols(language: LanguageId, matches: QMatch[], decoded: DecodedText, merged: number[], guessedEnds?: Set<number>): ExtractedSymbol[] {
  const sep = QUALIFIER_SEPARATOR[language];
  const text = decoded.text;
  // Keyed by name node; the lowest pattern index wins, so specific patterns go first in .scm.
  const byDef = new Map<number, PendingSymbol>();
  let flagged: Map<string, string[]> | undefined;
  let namedFlags: { name: string; flag: string }[] | undefined;
  let bases: Map<string, string[]> | undefined;
  let receivers: Map<string, string> | undefined;
  let types: Map<string, string> | undefined;
  for (const m of matches) {
    let def: QNode | undefined;
    let kind: SymbolKind | undefined;
    let nameNode: QNode | undefined;
    let qualified = false;
    let traitNode: QNode | undefined;
    let nameStartNode: QNode | undefined;
    let scopeNodes: QNode[] | undefined;
    let toplevel = false;
    let nonlocal = false;
    let hoist = false;
    let baseOf: QNode | undefined;
    let baseNode: QNode | undefined;
    let receiverOf: QNode | undefined;
    let receiverNode: QNode | undefined;
    let typeOf: QNode | undefined;
    let typeNode: QNode | undefined;
    for (const c of m.captures) {
      const n = c.name;
      if (n === "name") nameNode = c.node;
      else if (n === "base.of") baseOf = c.node;
      else if (n === "base") baseNode = c.node;
      else if (n === "receiver.of") receiverOf = c.node;
      else if (n === "receiver") receiverNode = c.node;
      else if (n === "type.of") typeOf = c.node;
      else if (n === "type") typeNode = c.node;
      else if (n === "name.start") nameStartNode = c.node;
      else if (n === "name.qualified") {
        nameNode = c.node;
        qualified = true;
      } else if (n.startsWith("def.")) {
        const k = n.slice(4) as SymbolKind;
        if (!SYMBOL_KINDS.has(k)) throw new Error(`${language}/symbols.scm: unknown symbol kind @${n}`);
        def = c.node;
        kind = k;
      } else if (n === "toplevel") toplevel = true;
      else if (n === "nonlocal") nonlocal = true;
      else if (n === "hoist") hoist = true;
      else if (n === "scope") (scopeNodes ??= []).push(c.node);
      else if (n === "trait") traitNode = c.node;
      else if (n.startsWith("flag_name.")) {
        // A flag for the top-level symbol this node names (`export default helper;`).
        (namedFlags ??= []).push({ name: text.slice(startOf(c.node), c.node.endIndex), flag: n.slice(10) });
      } else if (n.startsWith("flag.")) {
        flagged ??= new Map();
        const key = nodeKey(c.node);
        const list = flagged.get(key);
        const flag = n.slice(5);
        if (!list) flagged.set(key, [flag]);
        else if (!list.includes(flag)) list.push(flag);
      }
    }
    if (baseOf && baseNode) {
      const written = baseName(text.slice(startOf(baseNode), baseNode.endIndex).replace(/^[*&\s]+/, ""));
      if (written !== undefined) {
        bases ??= new Map();
        const key = nodeKey(baseOf);
        const list = bases.get(key);
        if (!list) bases.set(key, [written]);
        else if (!list.includes(written)) list.push(written);
      }
    }
    if (receiverOf && receiverNode) (receivers ??= new Map()).set(nodeKey(receiverOf), text.slice(startOf(receiverNode), receiverNode.endIndex));
    if (typeOf && typeNode) {
      // (As written, type arguments and all: a field keeps its type's name, an alias the whole
      // type, `std::shared_ptr<ITracker>` being ITracker's to resolution.)
      const raw = text.slice(startOf(typeNode), typeNode.endIndex);
      const key = nodeKey(typeOf);
      // (A type whose name is not read here does not replace one that is.)
      if (baseName(raw.replace(/^[*&\s]+/, "")) !== undefined || !types?.has(key)) (types ??= new Map()).set(key, raw);
    }
    if (!def || !kind || !nameNode) continue;
    if (kind === "variable" && guessedEnds?.has(def.endIndex) && nameNode.endIndex === def.endIndex) continue;
    let nameStart = startOf(nameStartNode ?? nameNode);
    let nameEnd = nameNode.endIndex;
    let name = text.slice(nameStart, nameEnd);
    const extraScope: string[] = [];
    if (scopeNodes) for (const s of scopeNodes) extraScope.push(withoutTypeArguments(text.slice(startOf(s), s.endIndex)));
    if (qualified) {
      const parts = splitOutsideBrackets(name, sep);
      let last = parts.pop() as string;
      for (const p of parts) if (p) extraScope.push(withoutTypeArguments(p));
      // The name is the last segment; its range ends where the qualified name ends.
      const at = name.lastIndexOf(last);
      nameStart += at < 0 ? 0 : at;
      // A specialization defined by its qualified name (`struct fmt::formatter<my_type> {`) is
      // named as one defined in its namespace (`formatter`), without the arguments.
      if ((kind === "struct" || kind === "class" || kind === "union") && last.includes("<")) {
        last = withoutTypeArguments(last);
        nameEnd = nameStart + last.length;
      }
      name = last;
    }
    // String-named members (`"~standard"() {}`, `'key': 1`): the name is what is inside the quotes.
    const q0 = name.charCodeAt(0);
    if ((q0 === 34 || q0 === 39 || q0 === 96) && name.length >= 2 && name.charCodeAt(name.length - 1) === q0) {
      name = name.slice(1, -1);
      nameStart += 1;
      nameEnd -= 1;
    }
    // The trait keeps its arguments: `impl From<A> for Error` and `impl From<B> for Error` are two
    // impls, `<Error as From<A>>` and `<Error as From<B>>`, as Rust writes their qualified paths.
    if (traitNode) name = `<${withoutTypeArguments(name)} as ${text.slice(startOf(traitNode), traitNode.endIndex).replace(/\s+/g, " ")}>`;
    if (!name) continue;
    // One name node is one symbol (a specific pattern and a general one may both match it). An
    // impl is one symbol whatever its patterns name: `impl From<Input> for input::Input` was two,
    // `<input::Input as From<..>>` and `<Input as From<..>>`, and its methods went to the second.
    const key = kind === "impl" ? -1 - startOf(def) : startOf(nameNode);
    const prev = byDef.get(key);
    if (prev && prev.pattern <= m.pattern) continue;
    byDef.set(key, { pattern: m.pattern, kind, def, start: startOf(def), end: def.endIndex, name, nameStart, nameEnd, extraScope, flags: undefined, toplevel, ...(hoist ? { hoist } : {}), ...(nonlocal ? { nonlocal } : {}) });
  }
  // Outer definitions first: by start, then longer first.
  let pending = [...byDef.values()].sort((a, b) => a.start - b.start || b.end - a.end);
  checkNesting(pending, decoded.text);
  // `app.listen = function listen() {}`: the assignment is the method, and the function
  // expression it holds, named like it, is the same definition, not a second one inside it.
  if (language === "javascript" || language === "typescript" || language === "tsx") {
    let methods: Map<string, string> | undefined;
    for (const p of pending) if (p.kind === "method") (methods ??= new Map()).set(nodeKey(p.def), p.name);
    if (methods) {
      const m = methods;
      pending = pending.filter((p) => {
        const up = p.kind === "function" ? parentKey(p.def) : undefined;
        const fold = up !== undefined && m.get(up) === p.name;
        if (fold) merged.push(byteRange(decoded, p.nameStart, p.nameEnd).byte_start);
        return !fold;
      });
    }
  }
  // A flag on a declaration also marks its declarator (`export const a = 1` flags `a`).
  if (flagged) {
    for (const p of pending) {
      p.flags = flagged.get(nodeKey(p.def));
      if (!p.flags) {
        const up = parentKey(p.def);
        if (up !== undefined) p.flags = flagged.get(up);
      }
    }
  }
  // Facts keyed by a definition's node: what it extends, its receiver's name, its declared type.
  if (bases || receivers || types) {
    for (const p of pending) {
      const key = nodeKey(p.def);
      const b = bases?.get(key);
      if (b) p.bases = b;
      const r = receivers?.get(key);
      if (r !== undefined) p.receiver = r;
      // (A Java field's definition is its declarator's declaration: `Binder a, b;` types both.)
      const written = types?.get(key);
      // (A C++ member held by a smart pointer, `std::shared_ptr<logger> default_logger_;`, is
      // used as what it points to: `default_logger_->name()` is logger's.)
      const pointee = written !== undefined && language === "cpp" && p.kind === "field" ? SMART_POINTER.exec(written.trim()) : null;
      const t = pointee ? (pointee[1] as string).replace(/^const\s+/, "") : written;
      const alias = t !== undefined && p.kind === "type_alias" ? t.replace(/\s+/g, " ").trim() : undefined;
      // (A function's is its return type; Python's `-> "Response"` names Response; a promise
      // keeps what it holds, `Promise<Table | undefined>`, which an `await` of the call gives.)
      const promised = t !== undefined && (p.kind === "function" || p.kind === "method") && /^(?:Promise|PromiseLike)\s*</.test(t) ? t.replace(/\s+/g, " ").trim() : undefined;
      const named = t !== undefined && language === "python" ? pythonNotNone(t) : t;
      const declared = named === undefined ? undefined : promised !== undefined && promised.length <= 200 ? promised : p.kind === "field" || p.kind === "function" || p.kind === "method" ? baseName(named.replace(/^[*&\s]+/, "").replace(/^(["'])(.+)\1$/s, "$2")) : alias !== undefined && alias.length <= 200 ? alias : undefined;
      if (declared !== undefined) p.declared_type = declared;
    }
  }
  // `with X() as v` binds what `X().__enter__()` returns: an `__enter__` written without a return
  // type that returns nothing but `self` (requests' Session, most context managers) returns its
  // own class, as `-> Self` would say.
  if (language === "python") {
    for (const p of pending) {
      if (p.kind !== "method") continue;
      // The spelling of Self before Python 3.11 (httpx's `def __enter__(self: T) -> T`, a
      // factory's `def make(cls: Type[T]) -> T`) returns the receiver's class: T is bound at
      // the call, a TypeVar no class is named.
      if (p.declared_type !== undefined) {
        if (p.declared_type === selfTypeVar(syntaxOf(p.def))) p.declared_type = "Self";
        continue;
      }
      if ((p.name === "__enter__" || p.name === "__aenter__") && returnsSelfOnly(syntaxOf(p.def))) p.declared_type = "Self";
    }
  }
  const out: ExtractedSymbol[] = [];
  const stack: { index: number; start: number; end: number; scope: string[] }[] = [];
  for (const p of pending) {
    const start = p.start;
    const end = p.end;
    while (stack.length && !encloses(stack[stack.length - 1] as Extent, start, end)) stack.pop();
    const parent = stack[stack.length - (p.hoist ? 2 : 1)];
    // A module-level-only pattern (Python's assignment at any depth of if/try) that lands inside a
    // definition is a local or class-body name, not a module symbol.
    if (p.toplevel && parent) continue;
    // A C or C++ declaration under `#if` inside a function body is a local, not a file's variable
    // (jansson's dtoa.c had 129 "variables", most of them locals named x, y, carry and z).
    if (p.nonlocal && parent && FUNCTION_KINDS.has((out[parent.index] as ExtractedSymbol).kind)) continue;
    // A C++ class body's `NAME(args);` without a type is a constructor only when NAME is the
    // class's: otherwise a macro invocation (gtest's GTEST_DISALLOW_COPY_AND_ASSIGN_(Foo); 146
    // "constructors" of fmt's and cxxopts' trees were macros), no symbol.
    // (Defined outside the class, `DBImpl::DBImpl(...)`, the class is the last qualifier.)
    const owner = p.extraScope.length > 0 ? p.extraScope[p.extraScope.length - 1] : parent ? out[parent.index]?.name : undefined;
    if (language === "cpp" && p.kind === "constructor" && owner !== undefined && owner !== p.name) continue;
    const scope = parent ? [...parent.scope] : [];
    scope.push(...p.extraScope);
    const sym: ExtractedSymbol = {
      name: p.name,
      kind: p.kind,
      range: byteRange(decoded, start, end),
      name_range: byteRange(decoded, p.nameStart, p.nameEnd),
      scope,
    };
    if (parent) sym.parent_index = parent.index;
    if (p.flags) sym.flags = p.flags;
    if (p.bases) sym.bases = p.bases;
    if (p.receiver !== undefined) sym.receiver = p.receiver;
    if (p.declared_type !== undefined) sym.declared_type = p.declared_type;
    if (ARITY_LANGUAGES.has(language) && CALLABLE_KINDS.has(p.kind)) {
      const def = syntaxOf(p.def);
      const a = parameterArity(def, language === "cpp" && !declaredInClass(def));
      if (a !== undefined) sym.arity = a;
    }
    const index = out.length;
    out.push(sym);
    stack.push({ index, start, end, scope: [...scope, p.name] });
  }
  if (namedFlags) {
    for (const { name, flag } of namedFlags) {
      for (const sym of out) {
        if (sym.scope.length > 0 || sym.name !== name) continue;
        if (!sym.flags) sym.flags = [flag];
        else if (!sym.flags.includes(flag)) sym.flags = [...sym.flags, flag];
      }
    }
  }
  return out;
}

/**
 * UTF-16 start index of a node without a native call. node-tree-sitter 0.25 keeps a node's
 * TSNode in numeric slots [id_low, id_high, context0..3] and context0 is the start byte of the
 * UTF-16 input (so index * 2); reading it saves one N-API round trip per capture, which is a
 * large share of extraction time. test/lang checks it against `startIndex` so an upgrade that
 * changes the layout fails loudly.
 */
export function startOf(n: QNode): number {
  if (n instanceof CapturedNode) return n.startIndex;
  const raw = (n as unknown as Record<number, unknown>)[2];
  return typeof raw === "number" ? raw >>> 1 : n.startIndex;
}

function nodeKey(n: QNode): string {
  return `${startOf(n)}:${n.endIndex}:${n.typeId}`;
}

/** nodeKey of a node's parent (undefined for the root), without a node object for the parent. */
function parentKey(n: QNode): string | undefined {
  if (n instanceof CapturedNode) return n.parentKey();
  const p = n.parent;
  return p ? nodeKey(p) : undefined;
}

function byteRange(decoded: DecodedText, start: number, end: number): ByteRange {
  if (decoded.ascii) return { byte_start: start, byte_end: end };
  return { byte_start: decoded.toByte(start), byte_end: decoded.toByte(end) };
}

/** Rank of a reference capture (ignore > call > write > type > read); 0 for other captures, -1 for an unknown `ref.` one. */
function refRank(name: string): number {
  switch (name) {
    case "ref.read":
      return 1;
    case "ref.type":
      return 2;
    case "ref.write":
      return 3;
    case "ref.call":
      return 4;
    case "ref.ignore":
      return 5;
    default:
      return name.startsWith("ref.") && name.length > 4 ? -1 : 0;
  }
}
const RANK_KIND = ["", "read", "type", "write", "call", "ignore"] as const;

const MEMBER_KINDS = new Set<SymbolKind>(["field", "method", "enum_member", "constructor"]);

/** A scope node (UTF-16 range): `fn` a function's (where a JS `var` lives), `body` where its body starts (-1: its start), `stop` a class body. */
interface LocalScope {
  start: number;
  end: number;
  stop: boolean;
  fn: boolean;
  body: number;
}

/** A name bound in [scopeStart, scopeEnd) from `from` on (UTF-16 indices); `at`: the name itself. */
interface LocalBinding {
  at: number;
  scopeStart: number;
  scopeEnd: number;
  from: number;
  /** The type the declaration writes for it (`@local.type`), when it writes one. */
  type?: string;
  /** An element of the collection local named there (`for (const x of xs)`): its type is the element type of xs's. */
  elemOf?: { name: string; at: number };
}

interface LocalRules {
  /** Bound for the whole scope, not from the declaration on. */
  hoisted: boolean;
  /** false: a capitalised name in a pattern is a constant or a variant (Rust's `None`), not a binding. */
  upper?: false;
  /** Module-level names are in force in the whole file, declared before or after (Go's package scope). */
  module?: true;
}

/**
 * The languages whose references.scm captures local bindings (`@local`, with `@local.scope` and
 * `@local.stop` nodes around them), and how they scope them.
 */
const LOCAL_SCOPES: Partial<Record<LanguageId, LocalRules>> = {
  javascript: { hoisted: true },
  typescript: { hoisted: true },
  tsx: { hoisted: true },
  python: { hoisted: true },
  go: { hoisted: false, module: true },
  java: { hoisted: false },
  c: { hoisted: false },
  cpp: { hoisted: false },
  rust: { hoisted: false, upper: false },
};

/** Whether a Python method returns, at each of its own `return`s (at least one), its `self`. */
function returnsSelfOnly(def: Parser.SyntaxNode): boolean {
  const fn = def.type === "decorated_definition" ? def.childForFieldName("definition") : def;
  const body = fn?.type === "function_definition" ? fn.childForFieldName("body") : null;
  const first = fn?.childForFieldName("parameters")?.namedChildren[0];
  if (!fn || !body || first?.type !== "identifier") return false;
  let seen = false;
  for (const r of body.descendantsOfType("return_statement")) {
    let owner = r.parent;
    while (owner && owner.type !== "function_definition" && owner.type !== "lambda") owner = owner.parent;
    // (A nested function's return is its own.)
    if (owner?.startIndex !== fn.startIndex) continue;
    const value = r.namedChildren[0];
    if (r.namedChildCount !== 1 || value?.type !== "identifier" || value.text !== first.text) return false;
    seen = true;
  }
  return seen;
}

/**
 * The type variable a Python method's first parameter is annotated with (`self: T`, `cls: Type[T]`,
 * `cls: type[T]`), undefined for a static method or any other annotation.
 */
function selfTypeVar(def: Parser.SyntaxNode): string | undefined {
  const fn = def.type === "decorated_definition" ? def.childForFieldName("definition") : def;
  if (fn?.type !== "function_definition") return undefined;
  if (def.type === "decorated_definition" && def.namedChildren.some((d) => d.type === "decorator" && /^@\s*(?:\w+\.)*staticmethod\s*$/.test(d.text))) return undefined;
  const first = fn.childForFieldName("parameters")?.namedChildren[0];
  if (first?.type !== "typed_parameter") return undefined;
  const written = first.childForFieldName("type")?.text.replace(/\s+/g, "");
  if (written === undefined) return undefined;
  const m = /^(?:(?:typing\.)?[Tt]ype\[(\w+)\]|(\w+))$/.exec(written);
  return m ? (m[1] ?? m[2]) : undefined;
}

function syntaxOf(n: QNode): Parser.SyntaxNode {
  return n instanceof CapturedNode ? n.syntaxNode() : (n as unknown as Parser.SyntaxNode);
}

/** Pattern nodes whose named children are bound (their default values and keys are not). */
const PATTERN_TYPES = new Set([
  "object_pattern", "array_pattern", "rest_pattern", "pair_pattern", "assignment_pattern", "object_assignment_pattern",
  "pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "dictionary_splat_pattern", "parenthesized_expression",
  "expression_list", "mut_pattern", "ref_pattern", "reference_pattern", "slice_pattern",
  "tuple_struct_pattern", "struct_pattern", "field_pattern", "match_pattern", "captured_pattern", "or_pattern",
]);
const BOUND_NAMES = new Set(["identifier", "shorthand_property_identifier_pattern", "shorthand_field_identifier"]);

/** The names a destructuring pattern binds. */
function collectPatternNames(n: Parser.SyntaxNode, out: QNode[]): void {
  if (BOUND_NAMES.has(n.type)) {
    out.push(n as unknown as QNode);
    return;
  }
  if (!PATTERN_TYPES.has(n.type)) return;
  // `{a = b}`, `[x = y]`: b and y are read, not bound; `{k: v}`: k is a key; Rust's
  // `Some(x)`, `Foo { bar, .. }`: the type is a path, `bar: x` binds x, not bar.
  const skip = n.childForFieldName("right") ?? n.childForFieldName("key") ?? n.childForFieldName("type") ?? (n.type === "field_pattern" && n.childForFieldName("pattern") ? n.childForFieldName("name") : null);
  for (const c of n.namedChildren) if (!skip || c.startIndex !== skip.startIndex || c.endIndex !== skip.endIndex) collectPatternNames(c, out);
}

/**
 * The references of a file, folded match by match into one record per name start (the most
 * specific kind wins, then the one with a qualifier), holding positions and text only: no node
 * outlives its window of matches.
 */
class ReferenceCollector {
  /** Record index by name start; the records are columns (a million objects on a large tree otherwise). */
  private readonly slot = new Map<number, number>();
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly ranks: number[] = [];
  private readonly qualified: boolean[] = [];
  private readonly qualifiers: (string | undefined)[] = [];
  /** Arguments a call passes (-1: not a call of an ARITY_LANGUAGES language, or not known). */
  private readonly arities: number[] = [];
  constructor(
    private readonly language: LanguageId,
    private readonly text: string,
  ) {}

  /** The record to overwrite for a name at `at` (-1: a new one), or -2 when the one there wins. */
  private slotFor(at: number, rank: number, hasQualifier: boolean): number {
    const i = this.slot.get(at);
    if (i === undefined) return -1;
    const r = this.ranks[i] as number;
    return r > rank || (r === rank && ((this.qualified[i] as boolean) || !hasQualifier)) ? -2 : i;
  }

  private put(i: number, at: number, rank: number, end: number, hasQualifier: boolean, qualifier: string | undefined, arity: number): void {
    if (i < 0) {
      this.slot.set(at, this.starts.length);
      this.starts.push(at);
      this.ends.push(end);
      this.ranks.push(rank);
      this.qualified.push(hasQualifier);
      this.qualifiers.push(qualifier);
      this.arities.push(arity);
    } else {
      this.ends[i] = end;
      this.ranks[i] = rank;
      this.qualified[i] = hasQualifier;
      this.qualifiers[i] = qualifier;
      this.arities[i] = arity;
    }
  }

  /** `@decorator` ranges (UTF-16 start, end, 1 for a parameter's), flat. */
  private readonly decorators: number[] = [];

  /**
   * A decorator runs where its definition is made, not when the definition runs: `@register`
   * over `def handler()` is `handler = register(handler)` in the module body. The definition's
   * span includes its decorators, so their references were the decorated function's own calls,
   * and callees, paths and reachable invented `handler -> register -> audit`. A reference in a
   * decorator of symbol S (written before S's name, or on a parameter of S) is S's parent's.
   */
  outsideDecorated(decoded: DecodedText, symbols: ExtractedSymbol[], references: ExtractedReference[]): void {
    const d = this.decorators;
    if (d.length === 0) return;
    const spans: { start: number; end: number; param: boolean }[] = [];
    for (let i = 0; i < d.length; i += 3) {
      const r = byteRange(decoded, d[i] as number, d[i + 1] as number);
      spans.push({ start: r.byte_start, end: r.byte_end, param: d[i + 2] === 1 });
    }
    // (Decorators do not nest: the last one starting at or before a reference is the only one that
    // can hold it; a parameter's, matched twice, sorts after its plain match.)
    spans.sort((x, y) => x.start - y.start || Number(x.param) - Number(y.param));
    for (const ref of references) {
      let e = ref.enclosing_index;
      if (e === undefined) continue;
      const at = ref.range.byte_start;
      let lo = 0;
      let hi = spans.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((spans[mid] as { start: number }).start <= at) lo = mid + 1;
        else hi = mid;
      }
      const span = spans[lo - 1];
      if (span === undefined || ref.range.byte_end > span.end) continue;
      for (;;) {
        const s = symbols[e] as ExtractedSymbol;
        // (A definition inside the decorator, a lambda's, keeps what is its own.)
        if (s.range.byte_start > span.start || s.range.byte_end < span.end) break;
        const header = span.start < s.name_range.byte_start;
        const param = span.param && (s.kind === "function" || s.kind === "method" || s.kind === "constructor");
        if (!header && !param) break;
        e = s.parent_index;
        if (e === undefined) break;
      }
      if (e === undefined) delete ref.enclosing_index;
      else ref.enclosing_index = e;
    }
  }

  /** Folds match j of `list` into its name's record, read in place (no object per capture). */
  add(list: MatchList, j: number): void {
    let ref = -1;
    let rank = 0;
    let refName = "";
    let qualifier = -1;
    let qualifierFrom = -1;
    let args = -1;
    let adjacent = -1;
    const count = list.captureCount(j);
    for (let k = 0; k < count; k++) {
      const n = list.name(j, k);
      const r = refRank(n);
      if (r !== 0) {
        ref = k;
        rank = r;
        refName = n;
      } else if (n === "qualifier") {
        // Several @qualifier captures (a path of tokens in a Rust macro: `self . x . m (`) make one
        // qualifier, from the first to the last.
        if (qualifierFrom < 0) qualifierFrom = k;
        qualifier = k;
      } else if (n === "args") args = k;
      else if (n === "adjacent") adjacent = k;
      else if (n === "decorator" || n === "decorator.param") this.decorators.push(list.start(j, k), list.end(j, k), n === "decorator" ? 0 : 1);
    }
    if (ref < 0) return;
    if (rank < 0) throw new Error(`${this.language}/references.scm: unknown capture @${refName}`);
    // @adjacent: a node that must follow the name with nothing but spaces between (a query's
    // anchor skips punctuation: `x, (1, 2)` in a macro is no call of x).
    if (adjacent >= 0 && !/^\s*$/.test(this.text.slice(list.end(j, ref), list.start(j, adjacent)))) return;
    const at = list.start(j, ref);
    const hasQualifier = qualifier >= 0;
    const i = this.slotFor(at, rank, hasQualifier);
    if (i === -2) return;
    const end = rank === 5 ? -1 : list.end(j, ref);
    const q = hasQualifier && rank !== 5 ? qualifierText(this.text, list.start(j, qualifierFrom), list.end(j, qualifier)) : undefined;
    this.put(i, at, rank, end, hasQualifier, q || undefined, args >= 0 && rank === 4 ? argumentCount(list, j, args, this.text) : -1);
  }

  /**
   * A name a function or block binds for itself (a parameter, a local variable: `@local`, or the
   * names in a destructuring `@local.pattern`), in force in its scope: the innermost enclosing
   * `@local.scope` node, unless a `@local.stop` node (a class body) is nearer or none encloses it
   * (a module's or a class's name is a symbol, not a local). JavaScript, TypeScript and Python bind
   * for the whole scope (hoisting, the temporal dead zone, Python's function-wide locals); the
   * others from the end of the name, or of the `@local.after` statement (Go's `:=`, Rust's `let`,
   * whose right side still sees the outer name). `@local.global`: Python's `global`/`nonlocal`
   * names, which are not bound there. Scopes come from the same query pass, read in place: no
   * walk up the tree per name.
   */
  bind(list: MatchList, j: number): void {
    const count = list.captureCount(j);
    let after = -1;
    let global = false;
    let scope: LocalScope | undefined;
    let body = -1;
    let fn = false;
    let type: string | undefined;
    let attr = -1;
    let from = -1;
    let elemOf: { name: string; at: number } | undefined;
    let elemMethod: string | undefined;
    let chain: string | undefined;
    let onSomething = false;
    for (let k = 0; k < count; k++) {
      const n = list.name(j, k);
      if (n === "local.type") type = declaredType(this.text.slice(list.start(j, k), list.end(j, k)));
      // (Java's `double... array` is a `double[]`.)
      else if (n === "local.type.varargs") type = declaredType(`${this.text.slice(list.start(j, k), list.end(j, k))}[]`);
      else if (n === "local.elem.of") elemOf = { name: this.text.slice(list.start(j, k), list.end(j, k)), at: list.start(j, k) };
      else if (n === "local.chain") chain = qualifierText(this.text, list.start(j, k), list.end(j, k));
      else if (n === "local.enter") {
        let up = syntaxOf(list.match(j, false).captures[k]?.node as QNode).parent;
        while (up && up.type !== "with_statement") up = up.parent;
        const made = qualifierText(this.text, list.start(j, k), list.end(j, k));
        if (made !== undefined) chain = up?.firstChild?.type === "async" ? `await ${made}.__aenter__()` : `${made}.__enter__()`;
      }
      else if (n === "local.elem.method") elemMethod = this.text.slice(list.start(j, k), list.end(j, k));
      else if (n === "local.attr") attr = k;
      else if (n === "local.from") from = k;
      else if (n === "local.call") {
        // A capitalised callee is a class the call makes (`Response()`); another is a function,
        // whose declared return type the name has (`make()`, resolve.ts).
        const callee = declaredType(this.text.slice(list.start(j, k), list.end(j, k)));
        if (callee !== undefined) {
          type = /^_*[A-Z]/.test(callee.slice(callee.lastIndexOf(".") + 1)) ? callee : `${callee}()`;
          // (A Python local assigned a method's result, `resp = self.client.get(url)`, is
          // `@local.chain`'s: its receiver's type is read there, where the callee's name alone
          // says too little. An attribute, `self.x = self.make()`, keeps the callee.)
          onSomething = this.language === "python" && callee.includes(".") && type.endsWith("()");
          // (A Python local called, `client = test_client_factory(app)`, may be an instance of
          // a type with `__call__`: placeDerived reads the local's type.)
          if (this.language === "python" && !callee.includes(".") && type.endsWith("()")) chain = type;
        }
      }
      // (What the function named returns, written `pkg.F()`: resolve.ts reads it.)
      else if (n === "local.returns") {
        type = `${declaredType(this.text.slice(list.start(j, k), list.end(j, k)))}()`;
        // (Go's `x := s.Method()`: a method of the local s when s is one, placeDerived.)
        if (type.includes(".")) chain = type;
      }
      else if (n === "local.scope" || n === "local.fscope" || n === "local.stop") {
        scope = { start: list.start(j, k), end: list.end(j, k), stop: n === "local.stop", fn: n === "local.fscope", body: -1 };
      } else if (n === "local.body") body = list.start(j, k);
      else if (n === "local.after") after = list.end(j, k);
      else if (n === "local.global") global = true;
      else if (n === "local.var") fn = true;
    }
    if (scope) {
      scope.body = body;
      (this.scopes ??= []).push(scope);
      return;
    }
    if (onSomething && attr < 0) type = undefined;
    if (attr >= 0) {
      // `self.x = ...`: what x holds, by the type written or made, or the name assigned (a
      // parameter's type, read once the bindings are placed).
      const fromName = from >= 0 ? this.text.slice(list.start(j, from), list.end(j, from)) : undefined;
      (this.attrs ??= []).push({ name: this.text.slice(list.start(j, attr), list.end(j, attr)), at: list.start(j, attr), type, fromName });
      return;
    }
    // (A callback's parameter is an element only for the array methods that pass one first.)
    if (elemMethod !== undefined && !ELEMENT_CALLBACKS.has(elemMethod)) return;
    for (let k = 0; k < count; k++) {
      const n = list.name(j, k);
      if (n === "local" || n === "local.global" || n === "local.var") this.pending.push({ at: list.start(j, k), end: list.end(j, k), after, global, fn, type, elemOf, chain });
      else if (n === "local.pattern" || n === "local.var.pattern") {
        const names: QNode[] = [];
        collectPatternNames(syntaxOf(list.match(j, false).captures[k]?.node as QNode), names);
        for (const m of names) this.pending.push({ at: startOf(m), end: m.endIndex, after, global, fn: fn || n === "local.var.pattern" });
      } else if (!n.startsWith("local.")) continue;
      else if (n !== "local.after" && n !== "local.type" && n !== "local.type.varargs" && n !== "local.call" && n !== "local.from" && n !== "local.returns" && n !== "local.elem.of" && n !== "local.elem.method" && n !== "local.chain" && n !== "local.enter") throw new Error(`${this.language}/references.scm: unknown capture @${n}`);
    }
  }

  private scopes: LocalScope[] | undefined;
  private pending: { at: number; end: number; after: number; global: boolean; fn: boolean; type?: string; elemOf?: { name: string; at: number }; chain?: string }[] = [];
  private bindings: Map<string, LocalBinding[]> | undefined;
  private globals: { name: string; scopeStart: number }[] | undefined;
  /** `self.x = ...` assignments (Python), in source order. */
  private attrs: { name: string; at: number; type?: string; fromName?: string }[] | undefined;
  /** By class (its start), by attribute: the type each assignment gives it, by position. */
  private attrTypes: Map<number, Map<string, Map<number, string | undefined>>> | undefined;

  /** The start of the innermost class (`@local.stop` scope) around `at`, or -1. */
  private classAt(at: number): number {
    let best: LocalScope | undefined;
    for (const s of this.scopes ?? []) if (s.stop && s.start <= at && at < s.end && (!best || s.start >= best.start)) best = s;
    return best ? best.start : -1;
  }

  /** Each class's attributes' types, from its methods' `self.x = ...`. */
  private placeAttributes(): void {
    if (!this.attrs) return;
    for (const a of this.attrs) {
      const cls = this.classAt(a.at);
      if (cls < 0) continue;
      const type = a.type ?? (a.fromName !== undefined ? this.typeAt(a.fromName, a.at) : undefined);
      let byAttr = (this.attrTypes ??= new Map()).get(cls);
      if (!byAttr) this.attrTypes.set(cls, (byAttr = new Map()));
      let byAt = byAttr.get(a.name);
      if (!byAt) byAttr.set(a.name, (byAt = new Map()));
      declare(byAt, a.at, type);
    }
  }

  /** The type every `self.<name> = ...` of the class around `at` agrees on. */
  private attrTypeAt(name: string, at: number): string | undefined {
    const byAt = this.attrTypes?.get(this.classAt(at))?.get(name);
    return byAt && agreed(byAt);
  }

  /** Module-level names of a hoisted language: the type each declaration of one writes, by position. */
  private moduleTypes: Map<string, Map<number, string | undefined>> | undefined;

  /** The type every module-level declaration of `name` agrees on (none when one writes none). */
  private moduleTypeOf(name: string): string | undefined {
    const at = this.moduleTypes?.get(name);
    return at && agreed(at);
  }

  private imported: Set<number> | undefined;

  /**
   * Names an import binds inside a function (`const {Foo} = await import("./a.js")`, a `require`
   * there) are the import's, not locals: their uses are references that resolve through it.
   */
  importBound(at: number[]): void {
    if (at.length > 0) this.imported = new Set(at);
  }

  /** Each pending name's scope (a sweep over both, sorted), kept by name. */
  private placeBindings(): void {
    const rules = LOCAL_SCOPES[this.language];
    if (!rules || this.pending.length === 0) return;
    if (this.imported) {
      const imported = this.imported;
      this.pending = this.pending.filter((b) => !imported.has(b.at));
    }
    const scopes = (this.scopes ?? []).sort((a, b) => a.start - b.start || b.end - a.end);
    const names = this.pending.sort((a, b) => a.at - b.at);
    const open: LocalScope[] = [];
    let elements: { name: string; binding: LocalBinding; of?: { name: string; at: number }; chain?: string }[] | undefined;
    let next = 0;
    for (const b of names) {
      while (next < scopes.length && (scopes[next] as LocalScope).start <= b.at) {
        const sc = scopes[next++] as LocalScope;
        while (open.length && (open[open.length - 1] as LocalScope).end <= sc.start) open.pop();
        open.push(sc);
      }
      while (open.length && (open[open.length - 1] as LocalScope).end <= b.at) open.pop();
      // A JavaScript `var` belongs to its function, not to the block it is written in.
      let i = open.length - 1;
      if (b.fn) while (i >= 0 && !(open[i] as LocalScope).fn && !(open[i] as LocalScope).stop) i--;
      const scope = open[i];
      // (Go's `var v *Viper` at the top of viper.go types `v.Get(key)` in `func Get`, as its
      // package scope has no order: it was a `heuristic` call of another type's Get.)
      if (!scope && (rules.hoisted || rules.module) && !b.global) {
        // A module-level name (`app = Flask(__name__)`, `export const app = new Hono()`) is a
        // symbol, not a local; what it was assigned still says whose member `app.route()` is,
        // wherever no local of that name is in force (typeAt).
        const name = this.text.slice(b.at, b.end);
        let at = (this.moduleTypes ??= new Map()).get(name);
        if (!at) this.moduleTypes.set(name, (at = new Map()));
        declare(at, b.at, b.type);
      }
      if (!scope || scope.stop) continue;
      const name = this.text.slice(b.at, b.end);
      if (name === "" || (rules.upper === false && /^[A-Z]/.test(name))) continue;
      if (b.global) {
        (this.globals ??= []).push({ name, scopeStart: scope.start });
        continue;
      }
      // Hoisted names are in force from the scope's body on: a Python parameter's default value
      // (`def f(count=count)`) is evaluated outside the function, in the enclosing scope.
      const binding: LocalBinding = { at: b.at, scopeStart: scope.start, scopeEnd: scope.end, from: rules.hoisted ? (scope.body >= 0 ? scope.body : scope.start) : Math.max(b.end, b.after) };
      if (b.type !== undefined) binding.type = b.type;
      if ((b.type === undefined || b.chain === b.type) && (b.elemOf !== undefined || b.chain !== undefined)) (elements ??= []).push({ name, binding, of: b.elemOf, chain: b.chain });
      this.bindings ??= new Map();
      const list = this.bindings.get(name);
      if (list) list.push(binding);
      else this.bindings.set(name, [binding]);
    }
    this.derived = elements;
  }

  /** Locals whose type comes from another's (an element, a chain's value), to type once bindings and attributes are placed. */
  private derived: { name: string; binding: LocalBinding; of?: { name: string; at: number }; chain?: string }[] | undefined;

  /**
   * The types of elements and chains' values, after every binding and `self.x` attribute is
   * placed, outer first (`for (const g of groups) for (const i of g)` reads g's type;
   * `resp = self.client.get(url)` the attribute's).
   */
  private placeDerived(): void {
    for (const e of this.derived ?? []) {
      // Go's `x := s.Method()` is typed `s.Method()`, what the function of a package named s
      // returns (resolve.ts), unless s is a local of a type: then it is that type's method's.
      if (e.chain !== undefined && e.chain === e.binding.type && this.language === "python") {
        // `client = test_client_factory(app)` with `test_client_factory: TestClientFactory` (a
        // parameter's annotation): what its type's `__call__` returns (starlette's tests: a
        // Protocol whose `__call__` returns a TestClient; `response = client.get(..)` then was
        // untyped and 108 `response.json()` were tied to Request.json by name).
        const rt = this.typeAt(e.chain.slice(0, -2), e.binding.at);
        if (rt !== undefined && /^[A-Za-z_][\w.]*$/.test(rt)) e.binding.type = `${rt}.__call__()`;
        continue;
      }
      if (e.chain !== undefined && e.chain === e.binding.type) {
        const head = e.chain.slice(0, e.chain.indexOf("."));
        const rt = this.typeAt(head, e.binding.at);
        const marked = rt === undefined ? undefined : chainMarker(e.chain, false, rt);
        if (marked !== undefined) e.binding.type = marked;
        continue;
      }
      // (A type the declaration writes itself wins: Java's `for (Base x : derivedList)`.)
      if (this.bindings?.get(e.name)?.some((b) => b.at === e.binding.at && b.type !== undefined)) continue;
      const t = e.of !== undefined ? elementType(this.language, this.typeAt(e.of.name, e.of.at)) : this.chainType(e.chain as string, e.binding.at);
      if (t !== undefined) e.binding.type = t;
    }
  }

  /**
   * The type a local assigned a chain of calls has, written as resolution reads it (chainMarker):
   * the chain, whether it is awaited, and the receiver type of its first call as a reference
   * qualified like it would have here (`dataSource` of `dataSource.getRepository(Post)`).
   */
  private chainType(value: string, at: number): string | undefined {
    const awaited = value.startsWith("await ");
    const text = awaited ? value.slice(6).trimStart() : value;
    const chain = chainOf(text);
    if (chain === undefined) return undefined;
    // (`const x = make()` is `@local.call`'s; only its awaited form comes here.)
    if (!awaited && chain.headCall && chain.steps.length === 0) return undefined;
    const on = chainCallee(chain);
    let rt = on === undefined ? undefined : receiverType(on, (name) => this.typeAt(name, at), true);
    if (rt === undefined && on !== undefined && this.attrTypes && on.startsWith("self.")) rt = this.attrTypeAt(on.slice(5), at);
    return chainMarker(text, awaited, rt);
  }

  /** Whether the bare name at `at` is one a local binding in force there names (no outside reference). */
  private isLocal(name: string, at: number): boolean {
    return this.bindings?.get(name)?.some((b) => this.inForce(b, name, at)) === true;
  }

  /** The local bindings of `name` in force at `at`. */
  private bindingsAt(name: string, at: number): LocalBinding[] {
    return this.bindings?.get(name)?.filter((b) => this.inForce(b, name, at)) ?? [];
  }

  /** Whether binding `b` of `name` is in force at `at` (and not a `global`/`nonlocal` name there). */
  private inForce(b: LocalBinding, name: string, at: number): boolean {
    return at >= b.scopeStart && at < b.scopeEnd && (at === b.at || at >= b.from) && !this.globals?.some((g) => g.name === name && g.scopeStart === b.scopeStart);
  }

  /**
   * The declared type of the local `name` in force at `at`, when its declarations in the
   * innermost scope agree on one: in a hoisted language each of them is in force everywhere in
   * the scope (a Python name assigned a `Foo()` and later a `Bar()` has no one type); elsewhere
   * the nearest one before `at` is (Rust's `let x: A; let x: B;`).
   */
  private typeAt(name: string, at: number): string | undefined {
    const live = this.bindingsAt(name, at);
    if (live.length === 0) return this.moduleTypeOf(name);
    const hoisted = LOCAL_SCOPES[this.language]?.hoisted === true;
    if (hoisted && live.length > MAX_AGREEING_DECLARATIONS) return undefined;
    let inner = -1;
    for (const b of live) if (b.scopeStart > inner) inner = b.scopeStart;
    const byAt = new Map<number, string | undefined>();
    for (const b of live) if (b.scopeStart === inner) declare(byAt, b.at, b.type);
    if (!hoisted) return byAt.get(Math.max(...byAt.keys()));
    return agreed(byAt);
  }

  finish(decoded: DecodedText, definitionNames: Set<number>, importRefs: ExtractedReference[], symbols: ExtractedSymbol[]): ExtractedReference[] {
    const importStarts = new Set<number>();
    for (const r of importRefs) importStarts.add(r.range.byte_start);
    this.placeBindings();
    this.placeAttributes();
    this.placeDerived();
    // A module-level variable keeps the type its declarations agree on: other files' `app.route()`
    // through an import of it are members of that type (resolve.ts, throughImportedInstance).
    if (this.moduleTypes) {
      for (const s of symbols) {
        if (s.scope.length > 0 || (s.kind !== "variable" && s.kind !== "constant") || s.declared_type !== undefined) continue;
        const t = this.moduleTypeOf(s.name);
        if (t !== undefined) s.declared_type = t;
      }
    }
    // A name that a symbol defined inside the binding's scope also has (a nested `def view`
    // later rebound, `fn = () => ...` over a parameter, `const helper = () => ...`) keeps its
    // uses: some of them are references to that local symbol, as before.
    if (this.bindings) {
      const toByte = (i: number): number => (decoded.ascii ? i : decoded.toByte(i));
      let starts: Map<string, number[]> | undefined;
      for (const s of symbols) {
        // Members of a type declared in the scope (a local struct's field) are no binding of it.
        if (!this.bindings.has(s.name) || MEMBER_KINDS.has(s.kind)) continue;
        starts ??= new Map();
        const list = starts.get(s.name);
        if (list) list.push(s.name_range.byte_start);
        else starts.set(s.name, [s.name_range.byte_start]);
      }
      if (starts) {
        for (const [name, defs] of starts) {
          const list = this.bindings.get(name) as LocalBinding[];
          const kept = list.filter((b) => {
            const lo = toByte(b.scopeStart);
            const hi = toByte(b.scopeEnd);
            return !defs.some((d) => d >= lo && d < hi);
          });
          if (kept.length === 0) this.bindings.delete(name);
          else if (kept.length !== list.length) this.bindings.set(name, kept);
        }
      }
    }
    const out: ExtractedReference[] = [];
    // In the order names were first seen, as a Map keyed by start iterates.
    for (let i = 0; i < this.starts.length; i++) {
      const rank = this.ranks[i] as number;
      if (rank === 5) continue;
      const start = this.starts[i] as number;
      const end = this.ends[i] as number;
      // A read, write or call of a parameter or local variable refers to nothing the graph holds:
      // not kept, so that it is never taken for a use of an outer symbol of the same name. (A call
      // through one, `handler()` with a parameter `handler`, was kept once, and resolved `exact`
      // to a top-level `handler` of the file.) Type references name types, never locals. A Java
      // call names a method, never a variable: `int distance = distance(a, b)` (commons-lang's
      // MethodUtils) and `format(...)` in a method with a parameter `format` call the class's own
      // methods, which dead-code had reported unused.
      if (this.bindings && !this.qualified[i] && rank !== 2 && !(rank === 4 && this.language === "java") && this.isLocal(this.text.slice(start, end), start)) continue;
      const range = byteRange(decoded, start, end);
      if (definitionNames.has(range.byte_start) || importStarts.has(range.byte_start)) continue;
      const ref: ExtractedReference = { name: this.text.slice(start, end), kind: RANK_KIND[rank] as ReferenceKind, range };
      const q = this.qualifiers[i];
      if (q) {
        ref.qualifier = q;
        // `name.m()` where name is a parameter or local declared of a type: m is that type's
        // member (resolve.ts), not whatever member of that name the repository has.
        // A chain (`repo.createQueryBuilder("u").where("a")`): what its first call is made on
        // (`repo`, `self.client`) is what it says here; resolution follows the calls' return
        // types from there.
        const chain = FIELD_PATHS.has(this.language) ? chainOf(q) : undefined;
        const on = chain === undefined ? q : chainCallee(chain);
        if (on !== undefined && (this.bindings || this.moduleTypes)) {
          const type = receiverType(on, (name) => this.typeAt(name, start), FIELD_PATHS.has(this.language));
          if (type !== undefined) ref.receiver_type = type;
        }
        // A Java cast, `((TextNode) node).text()`: the type it names (jsoup's 24 such calls were
        // ambiguous among every `text`).
        if (this.language === "java" && q.startsWith("((")) {
          const cast = JAVA_CAST.exec(q);
          if (cast) ref.receiver_type = cast[1] as string;
        }
        // `self.x.m()` in a class whose methods assign x one type.
        if (on !== undefined && this.attrTypes && on.startsWith("self.")) {
          const name = on.slice(5);
          const type = SIMPLE_NAME.test(name) ? this.attrTypeAt(name, start) : undefined;
          if (type !== undefined) ref.receiver_type = type;
        }
      }
      const arity = this.arities[i] as number;
      if (arity >= 0) ref.arity = arity;
      out.push(ref);
    }
    out.push(...importRefs);
    out.sort((a, b) => a.range.byte_start - b.range.byte_start);
    return out;
  }
}

/**
 * Records the type the declaration at `at` writes (undefined: none). One declaration matched by
 * several patterns, one of them with its type, keeps the type.
 */
function declare(byAt: Map<number, string | undefined>, at: number, type: string | undefined): void {
  if (byAt.get(at) === undefined) byAt.set(at, type);
}

/**
 * More declarations of one name than this in one scope have no type they agree on: generated code
 * (16,667 `const x = require(...)` in one file made every reference to x read all of them: 7 s).
 */
const MAX_AGREEING_DECLARATIONS = 64;

/** The type every declaration agrees on: none when one writes none or two differ. */
function agreed(byAt: Map<number, string | undefined>): string | undefined {
  if (byAt.size > MAX_AGREEING_DECLARATIONS) return undefined;
  const types = new Set(byAt.values());
  return types.size === 1 ? [...types][0] : undefined;
}

const SIMPLE_NAME = /^[A-Za-z_$][\w$]*$/;
/** A Java cast of a name, a field path or an element, whole: `((TextNode) node)`, `((Range.Spans) vals[i])`; group 1 the type. */
const JAVA_CAST = /^\(\(\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\)\s*[\w$.]+(?:\[[^\]]*\])?\)$/;

/** Collection methods whose callback takes an element first (`reduce` takes the accumulator; Java's `removeIf`). */
const ELEMENT_CALLBACKS = new Set(["forEach", "map", "filter", "find", "findLast", "findIndex", "findLastIndex", "some", "every", "flatMap", "sort", "removeIf"]);

/**
 * The element type of a collection's declared type: TypeScript's `Item[]`, `readonly Item[]`,
 * `Array<Item>`, `ReadonlyArray<Item>`, `Set<Item>`; Go's `[]Item`, `[]*Item`, `[4]Item`, a
 * map's values `map[string]Item`; Python's `list[Item]`, `List[Item]`, `Sequence[Item]` and the
 * like, `tuple[Item, ...]`.
 */
function elementType(language: LanguageId, t: string | undefined): string | undefined {
  if (t === undefined) return undefined;
  let inner: string | undefined;
  const s = t.trim();
  if (language === "go") {
    inner = /^\[[^\]]*\](.+)$/s.exec(s)?.[1] ?? /^map\[[^\]]*\](.+)$/s.exec(s)?.[1];
    return inner !== undefined && /^\*?[A-Za-z_][\w.]*$/.test(inner.trim()) ? inner.trim() : undefined;
  }
  if (language === "java") {
    if (s.endsWith("[]")) inner = s.slice(0, -2).trim();
    else inner = /^(?:java\.util\.)?(?:List|ArrayList|LinkedList|Set|HashSet|LinkedHashSet|TreeSet|SortedSet|NavigableSet|Collection|Iterable|Queue|Deque|ArrayDeque|PriorityQueue|Vector|Stack|CopyOnWriteArrayList)<(.+)>$/s.exec(s)?.[1]?.trim();
    // (`? extends Item` is an Item for reading.)
    inner = inner?.replace(/^\?\s+extends\s+/, "");
    return inner !== undefined && /^[A-Za-z_][\w.]*(<.*>)?$/s.test(inner) ? inner : undefined;
  }
  if (language === "python") {
    const m = /^(?:typing\.|t\.|abc\.|collections\.abc\.)?(?:list|List|set|Set|frozenset|FrozenSet|Sequence|MutableSequence|Iterable|Iterator|Collection|Deque|deque|tuple|Tuple)\[(.+)\]$/s.exec(s);
    const args = m ? splitOutsideBrackets(m[1] as string, ",") : [];
    // (`tuple[A, B]` holds two types: only `tuple[Item, ...]` has one element type.)
    inner = args.length === 1 || (args.length === 2 && args[1] === "...") ? args[0] : undefined;
    return inner !== undefined && /^[A-Za-z_][\w.]*(\[.*\])?$/s.test(inner) ? inner : undefined;
  }
  const ts = s.replace(/^readonly\s+/, "").trim();
  inner = ts.endsWith("[]") ? ts.slice(0, -2).trim() : /^(?:Array|ReadonlyArray|Set|ReadonlySet)<(.+)>$/s.exec(ts)?.[1]?.trim();
  return inner !== undefined && /^[A-Za-z_$][\w$.]*(<.*>)?$/s.test(inner) ? inner : undefined;
}
/** Languages whose fields have declared types that resolution follows along a local's path of fields. */
const FIELD_PATHS = new Set<LanguageId>(["go", "java", "typescript", "tsx", "javascript", "python", "rust"]);
const INDEXED_NAME = /^([A-Za-z_$][\w$]*)\[[^[\]]*\]$/;

/**
 * The declared type of what qualifier `q` denotes, when it is a parameter or local (`s`) or an
 * element of one declared as an array or slice (`names[0]`: Java `String[]`, Go `[]string`); for
 * a path of fields from one (`s.f.g`, `paths`), the type of s, which resolution follows.
 */
function receiverType(q: string, typeOf: (name: string) => string | undefined, paths: boolean): string | undefined {
  if (SIMPLE_NAME.test(q)) return typeOf(q);
  // TypeScript's non-null assertion: `table!.findColumnByName()` is table's member.
  if (q.endsWith("!") && SIMPLE_NAME.test(q.slice(0, -1))) return typeOf(q.slice(0, -1));
  // `s.f.g`: a path of fields from the local s (of up to three fields), s's type, from which
  // resolution follows the fields' declared types (gin's `c.writermem.Header()`, c a `*Context`).
  if (paths && FIELD_PATH.test(q)) return typeOf(q.slice(0, q.indexOf(".")));
  const m = INDEXED_NAME.exec(q);
  const t = m ? typeOf(m[1] as string) : undefined;
  if (t === undefined) return undefined;
  if (t.endsWith("[]")) return t.slice(0, -2).trimEnd();
  const go = /^\[[^\]]*\](.+)$/.exec(t);
  return go ? go[1] : undefined;
}

/**
 * A local's declared type as resolution reads it: the text with its spacing squeezed, or
 * undefined when it says nothing (Java's `var`: inferred).
 */
function declaredType(text: string): string | undefined {
  const t = text.replace(/\s+/g, " ").trim();
  return t === "" || t === "var" || t.length > 200 ? undefined : t;
}

/** Languages whose functions are overloaded by their parameters: calls and callables carry an arity. */
const ARITY_LANGUAGES = new Set<LanguageId>(["java", "cpp"]);

const CALLABLE_KINDS = new Set<SymbolKind>(["function", "method", "constructor"]);

/** Named children of an argument or parameter list that are not comments (Java's are line_comment, block_comment). */
function listItems(list: Parser.SyntaxNode): Parser.SyntaxNode[] {
  return list.namedChildren.filter((c) => !c.type.endsWith("comment"));
}

/**
 * The arguments of capture k of match j, a call's argument list (Java `argument_list`, C++
 * `argument_list` or `initializer_list`): its named children but comments. Most lists hold no
 * comment, and are counted without a node made per argument.
 */
function argumentCount(list: MatchList, j: number, k: number, text: string): number {
  const node = list.node(j, k);
  // (Looked for within the list only: indexOf from its start ran on to the file's next '/'.)
  for (let i = list.start(j, k), end = list.end(j, k); i < end; i++) if (text.charCodeAt(i) === 47) return listItems(syntaxOf(node)).length;
  return node instanceof CapturedNode ? node.namedChildCount : (node as unknown as Parser.SyntaxNode).namedChildCount;
}

/** A C++ definition or declaration written in a class body (through `template <...>`). */
function declaredInClass(def: Parser.SyntaxNode): boolean {
  let up = def.parent;
  while (up && up.type === "template_declaration") up = up.parent;
  return up?.type === "field_declaration_list";
}

/**
 * How many arguments a call of this Java or C++ definition may pass: `2`, `1-3` (C++ default
 * arguments), `2+` (Java `...`, C++ `...`); undefined when its parameter list is not found.
 * C++ `f(void)` takes none. `anyFewer`: a C++ definition outside a class body, whose default
 * arguments may be on a declaration elsewhere (a header's prototype, which is no symbol): only
 * its most is known, `0-2`.
 */
function parameterArity(def: Parser.SyntaxNode, anyFewer = false): string | undefined {
  let params: Parser.SyntaxNode | null = def.childForFieldName("parameters");
  if (!params) {
    // C++: the parameters are on the function declarator, under pointer/reference declarators.
    let d: Parser.SyntaxNode | null = def.type === "function_declarator" ? def : def.childForFieldName("declarator");
    for (let depth = 0; d && d.type !== "function_declarator" && depth < 8; depth++) d = d.childForFieldName("declarator") ?? d.namedChildren.find((c) => c.type.endsWith("declarator")) ?? null;
    params = d?.childForFieldName("parameters") ?? null;
  }
  if (!params) return undefined;
  let min = 0;
  let max = 0;
  let open = false;
  const items = listItems(params);
  for (const p of items) {
    switch (p.type) {
      case "formal_parameter":
      case "parameter_declaration":
        // C++ `(void)`: a lone unnamed void parameter is no parameter.
        if (items.length === 1 && p.type === "parameter_declaration" && !p.childForFieldName("declarator") && p.childForFieldName("type")?.text === "void") return "0";
        min++;
        max++;
        break;
      case "optional_parameter_declaration":
        max++;
        break;
      case "spread_parameter":
      case "variadic_parameter_declaration":
      case "variadic_parameter":
        open = true;
        break;
      default:
        // Java's receiver parameter (`Foo this`) and anything unknown pass no argument.
        break;
    }
  }
  // C++ C-style `...` is an anonymous token, not a named child (looked for only when written).
  if (!open && params.text.includes("...") && params.children.some((c) => c.type === "...")) open = true;
  if (anyFewer) min = 0;
  if (open) return `${min}+`;
  return min === max ? String(min) : `${min}-${max}`;
}

/**
 * What is written before a member name. A long one (a builder chain spanning lines) is cut to its
 * end, marked with `…`: it still says the name is a member of something, not a bare name.
 */
function qualifierText(text: string, start: number, end: number): string | undefined {
  if (end - start > 200) {
    // A builder chain whose arguments make it long (javapoet's `MethodSpec.methodBuilder("beyond")
    // .returns(..).addStatement("..", ..)` x6): its calls without their arguments, when that is
    // short, are a chain resolution can follow (cut, the later calls were `ambiguous`).
    if (end - start <= 4000) {
      const bare = withoutArguments(text.slice(start, end));
      if (bare !== undefined && bare.length <= 200) return squeeze(bare);
    }
    return `…${clipTextStart(squeeze(clipTextStart(text.slice(end - 202, end), 200)), 100)}`;
  }
  const q = text.slice(start, end);
  return /[\n\r]/.test(q) ? squeeze(q) : q;
}

/**
 * A call chain with each call's arguments left out (`a.b(x, "y").c(f(z))` is `a.b().c()`), strings,
 * comments and nested brackets inside them skipped; undefined when a bracket or a string does not
 * close or the text has no call.
 */
function withoutArguments(q: string): string | undefined {
  let out = "";
  let depth = 0;
  let from = 0;
  for (let k = 0; k < q.length; k++) {
    const ch = q[k] as string;
    if (depth > 0 && (ch === '"' || ch === "'" || ch === "`")) {
      for (k++; k < q.length && q[k] !== ch; k++) if (q[k] === "\\") k++;
      if (k >= q.length) return undefined;
    } else if (depth > 0 && ch === "/" && (q[k + 1] === "/" || q[k + 1] === "*")) {
      const close = q[k + 1] === "/" ? q.indexOf("\n", k) : q.indexOf("*/", k + 2);
      if (close < 0) return undefined;
      k = q[k + 1] === "/" ? close : close + 1;
    } else if (ch === "(" || ch === "[" || ch === "{") {
      if (depth === 0) {
        if (ch !== "(") return undefined;
        out += q.slice(from, k + 1);
      }
      depth++;
    } else if (ch === ")" || ch === "]" || ch === "}") {
      if (--depth < 0) return undefined;
      if (depth === 0) from = k;
    }
  }
  if (depth !== 0 || out === "") return undefined;
  return out + q.slice(from);
}

/**
 * A qualifier spanning lines on one line: no whitespace around punctuation (`a\n  .b()` is
 * `a.b()`), one space between words (`new Foo() { public void write(…` stays readable).
 */
function squeeze(q: string): string {
  return q
    .replace(/\s+/g, " ")
    .replace(/ ?([.()[\]{},;:<>]) ?/g, "$1")
    .trim();
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2) {
    const a = t[0];
    const b = t[t.length - 1];
    if ((a === '"' || a === "'" || a === "`" || a === "<") && (b === a || (a === "<" && b === ">"))) return t.slice(1, -1);
  }
  return t;
}

function extractImports(
  matches: QMatch[],
  decoded: DecodedText,
  sep: string,
): { imports: ExtractedImport[]; importRefs: ExtractedReference[]; aliasStarts: number[]; boundAt: number[] } {
  const text = decoded.text;
  // One import per statement and source path (a Rust `use` with nested lists has several).
  const grouped = new Map<string, { at: number; imp: ExtractedImport; seen: Set<string> }>();
  const importRefs: ExtractedReference[] = [];
  const refSeen = new Set<number>();
  const aliasStarts: number[] = [];
  const boundAt: number[] = [];
  for (const m of matches) {
    let stmt: QNode | undefined;
    let source: string | undefined;
    let nameNode: QNode | undefined;
    let alias: QNode | undefined;
    let wildcard = false;
    let isDefault = false;
    let passed = false;
    let own = false;
    for (const c of m.captures) {
      switch (c.name) {
        case "import":
          stmt = c.node;
          break;
        case "import.own":
          own = true;
          break;
        case "import.source": {
          const part = unquote(text.slice(startOf(c.node), c.node.endIndex));
          source = source === undefined ? part : `${source}${sep}${part}`;
          break;
        }
        case "import.name":
          nameNode = c.node;
          break;
        case "import.alias":
          alias = c.node;
          break;
        case "import.wildcard":
          wildcard = true;
          break;
        case "import.default_passed":
          passed = true;
          break;
        case "import.default":
          // `import x from "m"`: the module's default export, bound locally as x.
          nameNode = c.node;
          alias = c.node;
          isDefault = true;
          break;
      }
    }
    if (!stmt) continue;
    const at = startOf(stmt);
    const key = `${at}\u0000${source ?? ""}`;
    let entry = grouped.get(key);
    if (!entry) {
      entry = { at, imp: { source: source ?? "", names: [], range: byteRange(decoded, at, stmt.endIndex) }, seen: new Set() };
      grouped.set(key, entry);
    }
    const aliasText = alias ? text.slice(startOf(alias), alias.endIndex) : undefined;
    if (alias) aliasStarts.push(byteRange(decoded, startOf(alias), alias.endIndex).byte_start);
    const bound = alias ?? nameNode;
    if (bound) boundAt.push(startOf(bound));
    if (nameNode || wildcard || passed) {
      const nameText = nameNode ? text.slice(startOf(nameNode), nameNode.endIndex) : passed ? "default" : "*";
      const name = wildcard ? "*" : isDefault ? "default" : nameText;
      const k = `${name} ${aliasText ?? ""}`;
      if (!entry.seen.has(k)) {
        entry.seen.add(k);
        entry.imp.names.push(aliasText && aliasText !== name ? { name, alias: aliasText } : { name });
      }
      if (nameNode && !own && !refSeen.has(startOf(nameNode))) {
        refSeen.add(startOf(nameNode));
        const ref: ExtractedReference = {
          name: nameText,
          kind: "import",
          range: byteRange(decoded, startOf(nameNode), nameNode.endIndex),
        };
        if (source) ref.qualifier = source;
        importRefs.push(ref);
      }
    } else if (aliasText) entry.imp.alias = aliasText;
  }
  // A statement matched by a general pattern (no source) and a specific one (with source) is one
  // import. (An own export, `export { a as b }`, has no source and is kept: see imports.scm.)
  const all = [...grouped.values()];
  const withSource = new Set(all.filter((e) => e.imp.source).map((e) => e.at));
  const imports = all
    .filter((e) => e.imp.source || (!withSource.has(e.at) && e.imp.names.length > 0))
    .sort((a, b) => a.at - b.at)
    .map((e) => e.imp);
  return { imports, importRefs, aliasStarts, boundAt };
}

/** Innermost symbol whose definition range holds each reference (the caller, for calls). */
function assignEnclosing(symbols: ExtractedSymbol[], references: ExtractedReference[]): void {
  if (!symbols.length) return;
  // symbols are sorted outer-first by start; references by start.
  const stack: number[] = [];
  let next = 0;
  for (const r of references) {
    const at = r.range.byte_start;
    while (next < symbols.length && (symbols[next] as ExtractedSymbol).range.byte_start <= at) {
      const s = symbols[next] as ExtractedSymbol;
      while (stack.length && (symbols[stack[stack.length - 1] as number] as ExtractedSymbol).range.byte_end < s.range.byte_end) stack.pop();
      stack.push(next);
      next++;
    }
    while (stack.length && (symbols[stack[stack.length - 1] as number] as ExtractedSymbol).range.byte_end < r.range.byte_end) stack.pop();
    const top = stack[stack.length - 1];
    if (top !== undefined) r.enclosing_index = top;
  }
}
