/**
 * One file through one compiled query: parse, match, and shape every match with exact byte
 * offsets. Runs on the main thread and in the worker threads alike, so its input and output
 * are plain, cloneable data.
 */
import { readFileSync } from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";
import { matchId } from "../../contract/ids.js";
import type { Span } from "../../contract/schema.js";
import { isBinary } from "../../text/binary.js";
import { decodeBytes } from "../../text/decode.js";
import { LineIndex } from "../../text/lines.js";
import { makeSpan } from "../../text/span.js";
import { languageInfo, parseWithin, type parserFor, type LanguageId } from "../../lang/registry.js";
import { hasSyntaxErrors } from "../../lang/grammar-lags.js";
import { TOOL } from "./codes.js";
import { mayMatch } from "./prefilter.js";
import { compileQuery, type FieldChildPattern, type QuerySource } from "./query.js";
import type { TreeCache } from "./warm.js";
import { NativeModuleError } from "../../contract/native.js";

export interface Capture {
  name: string;
  byte_start: number;
  byte_end: number;
  content: string;
  span: Span;
}

export interface AstMatch {
  match_id: string;
  span: Span;
  pattern_index: number;
  captures: Capture[];
  file_path: string;
  language: string;
  context_before?: string[];
  context_after?: string[];
}

export interface ScanFile {
  abs: string;
  rel: string;
  language: LanguageId;
}

export interface ScanOptions {
  source: QuerySource;
  /** Keep only this capture (and only matches that have it). */
  capture?: string;
  /** Lines of context before and after each match. */
  context: number;
  /** Files larger than this are skipped, not parsed. */
  maxFileBytes: number;
  /** Always run the query engine (tests compare it with the kind walk). */
  noFastPath?: boolean;
  /** Take the field walk however dense the file's A nodes (tests compare it with the engine). */
  denseFastPath?: boolean;
  /** Parse every file, even one whose bytes lack the query's required tokens (tests compare). */
  noPrefilter?: boolean;
  /**
   * Time the parse, and then the query engine, may each spend on one file (ms); past it the file
   * is skipped, "parse_timeout" or "timeout".
   */
  timeoutMs?: number;
}

/**
 * A file's budget for the query engine by default (ms). Wildcard siblings make tree-sitter's
 * matching combinatorial: `(module (_) @a (_) @b (_) @c)` took 17 s on flask's 65 KB app.py, one
 * more `(_)` over two minutes, with no way out but killing the process.
 */
export const DEFAULT_AST_TIMEOUT_MS = 10_000;

export type ScanResult =
  /** `recovered`: how many of the matches lie in or hold a part tree-sitter could not parse. */
  | { rel: string; ok: true; matches: AstMatch[]; recovered?: number }
  | { rel: string; ok: false; reason: "binary" | "too_large" | "unreadable" | "parse_failed" | "parse_timeout" | "timeout"; detail?: string };

/*
 * Syntax trees live in native memory that V8 does not count, and node-addon finalizers run
 * from the event loop: a synchronous loop over thousands of files keeps every dead tree until
 * it ends. There is no way to free a tree at once (node-tree-sitter 0.25's Tree has no delete;
 * ts_tree_delete runs only in the wrapper's finalizer), so `reclaim()` collects and yields every
 * 256 KB of source parsed: typeorm's 10.7 MB of TypeScript on one thread peaked at ~82 MB
 * instead of 185 MB. A tree's wrapper dies young, so a scavenge (~0.6 ms) frees most of them;
 * one in four is a full collection (~7 ms on this heap) for the few a scavenge promoted. A full
 * collection every time keeps ~4 MB less (typeorm class query: 78 vs 82 MB) for ~12% more CPU
 * (1.01-1.04 vs 0.92-0.94 s).
 */
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as (options?: { type: "minor" | "major" }) => void;
const RECLAIM_EVERY_BYTES = 256 * 1024;
const FULL_EVERY_BYTES = 1024 * 1024;
let parsedSinceReclaim = 0;
let parsedSinceFull = 0;

/**
 * While a search runs, V8's young generation stays at its initial size instead of doubling up
 * to 16 MB per semi-space as objects survive: a search's garbage is per file, and the growth
 * cost 6-8 MB of peak RSS on typeorm (14 MB more heap) for no speed. The flag is read whenever
 * new space would grow, so it can be set and restored at run time; restored, other work in a
 * long-lived process grows its young generation as before (once the last concurrent search ends).
 */
let youngHolds = 0;
export function holdYoungGeneration(): () => void {
  if (youngHolds++ === 0) v8.setFlagsFromString("--semi-space-growth-factor=1");
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--youngHolds === 0) v8.setFlagsFromString("--semi-space-growth-factor=2");
  };
}

/** Call between files; resolves at once unless enough has been parsed since the last time. */
export async function reclaim(): Promise<void> {
  if (parsedSinceReclaim < RECLAIM_EVERY_BYTES) return;
  parsedSinceFull += parsedSinceReclaim;
  parsedSinceReclaim = 0;
  if (parsedSinceFull >= FULL_EVERY_BYTES) {
    parsedSinceFull = 0;
    collectGarbage();
  } else collectGarbage({ type: "minor" });
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** `trees`: the main thread's warm tree cache in a long-lived process (see warm.ts). */
export function scanFile(file: ScanFile, opts: ScanOptions, trees?: TreeCache): ScanResult {
  let bytes: Buffer;
  const cached = trees?.current(file.abs);
  const hit = cached && trees?.get(file.abs, cached, file.language);
  if (hit) return matchTree(file, opts, hit.bytes, hit.decoded, hit.tree);
  try {
    bytes = cached ? cached.bytes : readFileSync(file.abs);
  } catch (e) {
    return { rel: file.rel, ok: false, reason: "unreadable", detail: (e as Error).message };
  }
  if (bytes.length > opts.maxFileBytes) return { rel: file.rel, ok: false, reason: "too_large", detail: `${bytes.length} bytes` };
  if (isBinary(bytes)) return { rel: file.rel, ok: false, reason: "binary" };
  const { needs } = compileQuery(file.language, opts.source);
  if (needs && !opts.noPrefilter && !mayMatch(bytes, needs)) return { rel: file.rel, ok: true, matches: [] };
  parsedSinceReclaim += bytes.length;
  const decoded = decodeBytes(bytes);
  let tree;
  try {
    // The binding copies the text as UTF-16 into a zero-filled buffer of `bufferSize` units; one
    // unit per code unit plus the terminator is enough, and ~10% faster on large code bases
    // than the registry's generous default.
    // The --timeout budget holds for the parse too: tree-sitter's error recovery is quadratic on
    // some text it cannot read (8,000 generic call signatures, 170 KB, took 32 s), and without a
    // stop a search (or the daemon warming the tree later) waited that long for one file.
    const budget = opts.timeoutMs ?? DEFAULT_AST_TIMEOUT_MS;
    tree = parseWithin(file.language, decoded.text, decoded.text.length + 1, budget);
    if (tree === null) return { rel: file.rel, ok: false, reason: "parse_timeout", detail: `tree-sitter's parse ran past ${budget} ms` };
  } catch (e) {
    // An add-on that never loaded is the install's fault, not this file's: the run says so.
    if (e instanceof NativeModuleError) throw e;
    return { rel: file.rel, ok: false, reason: "parse_failed", detail: (e as Error).message };
  }
  if (cached && trees) trees.put(file.abs, cached, file.language, { bytes, decoded, tree });
  return matchTree(file, opts, bytes, decoded, tree);
}

function matchTree(file: ScanFile, opts: ScanOptions, bytes: Buffer, decoded: ReturnType<typeof decodeBytes>, tree: ReturnType<ReturnType<typeof parserFor>["parse"]>): ScanResult {
  const { query, rootTypes, kindsOnly, kindsKeywords, fieldChild, fieldChildKeywords } = compileQuery(file.language, opts.source);
  const root = tree.rootNode;
  // Where the nodes are sparse and the tree has no errors, from their keywords; else a walk.
  // `isSparse`: sparse() found the keywords few in this file (counted once per file).
  const byKeyword = (types: string[], keywords: string[] | undefined, isSparse: boolean): SyntaxNode[] | undefined =>
    keywords !== undefined && isSparse && !opts.denseFastPath && !root.hasError ? keywordNodes(root, decoded.text, file.language, types, keywords) : undefined;
  let raw: RawMatch[];
  // A kind walk's capture is the node of the pattern's root type itself: no walk up to find it.
  let selfRooted = false;
  const fieldSparse = fieldChild !== undefined && !opts.noFastPath && fieldChildKeywords !== undefined && sparse(bytes, fieldChildKeywords);
  if (kindsOnly && !opts.noFastPath) {
    selfRooted = true;
    const nodes = byKeyword(kindsOnly.kinds, kindsKeywords, kindsKeywords !== undefined && sparse(bytes, kindsKeywords)) ?? root.descendantsOfType(kindsOnly.kinds);
    raw = nodes.map((node) => ({ pattern: 0, captures: [{ name: kindsOnly.capture, node }] }));
  } else if (fieldChild && !opts.noFastPath && (opts.denseFastPath || fieldSparse)) {
    const parents = fieldChild.map((p) => p.parent);
    raw = fieldChildMatches(root, fieldChild, byKeyword(parents, fieldChildKeywords, fieldSparse));
  } else {
    const budget = opts.timeoutMs ?? DEFAULT_AST_TIMEOUT_MS;
    const t0 = performance.now();
    raw = query.matches(root, { timeoutMicros: Math.min(budget * 1000, 0xffffffff) });
    if (performance.now() - t0 >= budget) return { rel: file.rel, ok: false, reason: "timeout", detail: `the query ran past ${budget} ms` };
  }
  if (raw.length === 0) return { rel: file.rel, ok: true, matches: [] };
  const lines = new LineIndex(bytes);
  const langName = languageInfo(file.language).name;
  // One match per node and pattern, as ast-grep reports: a pattern with a repeatable part
  // (stacked decorators, `(decorator)* @d`) is matched once per way of binding it, and those
  // matches of one node are merged, their captures united.
  const byNode = new Map<string, { pattern: number; bs: number; be: number; caps: Capture[]; seen: Set<string>; merged: boolean; recovered: boolean }>();
  // Only a tree with syntax errors is asked which matches its error recovery shaped.
  const checkErrors = root.hasError;
  for (const m of raw) {
    const caps: Capture[] = [];
    for (const c of m.captures) {
      if (opts.capture !== undefined && c.name !== opts.capture) continue;
      const si = c.node.startIndex;
      const ei = c.node.endIndex;
      const bs = decoded.toByte(si);
      const be = decoded.toByte(ei);
      caps.push({ name: c.name, byte_start: bs, byte_end: be, content: ownString(bytes, decoded, si, ei, bs, be), span: makeSpan(file.rel, bs, be, lines) });
    }
    // A pattern without captures cannot be located; --capture drops matches lacking it.
    if (caps.length === 0) continue;
    let bs = Infinity;
    let be = -Infinity;
    for (const c of caps) {
      if (c.byte_start < bs) bs = c.byte_start;
      if (c.byte_end > be) be = c.byte_end;
    }
    // Seed 02 §4: the match spans the node the pattern describes (the whole function_item),
    // the captures the parts asked for. Found by walking up from a capture to the nearest node
    // of the pattern's root type that holds every capture; else the captures' extent.
    const roots = rootTypes[m.pattern];
    const first = m.captures[0]?.node;
    let matched: typeof first | undefined;
    if (opts.capture === undefined && roots && first && !selfRooted) {
      let n: typeof first | null = first;
      for (let depth = 0; n && depth < 64; depth++, n = n.parent) {
        if (roots.has(n.type)) {
          const nbs = decoded.toByte(n.startIndex);
          const nbe = decoded.toByte(n.endIndex);
          if (nbs <= bs && nbe >= be) {
            bs = nbs;
            be = nbe;
            matched = n;
            break;
          }
        }
      }
    }
    const recovered = checkErrors && ((matched !== undefined && hasSyntaxErrors(matched)) || m.captures.some((c) => inRecovery(c.node)));
    const key = `${m.pattern}:${bs}:${be}`;
    let entry = byNode.get(key);
    if (!entry) {
      entry = { pattern: m.pattern, bs, be, caps: [], seen: new Set(), merged: false, recovered };
      byNode.set(key, entry);
    } else {
      entry.merged = true;
      entry.recovered ||= recovered;
    }
    for (const c of caps) {
      const id = `${c.name}:${c.byte_start}:${c.byte_end}`;
      if (entry.seen.has(id)) continue;
      entry.seen.add(id);
      entry.caps.push(c);
    }
  }
  const matches: AstMatch[] = [];
  let recoveredCount = 0;
  for (const { pattern, bs, be, caps, merged, recovered } of byNode.values()) {
    if (recovered) recoveredCount++;
    // A single binding keeps the query's capture order; merged ones are put in text order.
    if (merged) caps.sort((a, b) => a.byte_start - b.byte_start || a.byte_end - b.byte_end || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // Most matches span one of their captures (`(identifier) @i`): its span is the same object.
    const span = caps.find((c) => c.byte_start === bs && c.byte_end === be)?.span ?? makeSpan(file.rel, bs, be, lines);
    const question = `${opts.source.text}\0${pattern}\0${opts.capture ?? ""}\0${caps.map((c) => `${c.name}:${c.byte_start}:${c.byte_end}`).join(",")}`;
    const match: AstMatch = {
      match_id: matchId(TOOL, span.span_id, question),
      span,
      pattern_index: pattern,
      captures: caps,
      file_path: file.rel,
      language: langName,
    };
    if (opts.context > 0) {
      const before: string[] = [];
      const after: string[] = [];
      for (let l = Math.max(1, span.start_line - opts.context); l < span.start_line; l++) before.push(lines.lineText(l));
      for (let l = span.end_line + 1; l <= Math.min(lines.lineCount, span.end_line + opts.context); l++) after.push(lines.lineText(l));
      match.context_before = before;
      match.context_after = after;
    }
    matches.push(match);
  }
  return recoveredCount > 0 ? { rel: file.rel, ok: true, matches, recovered: recoveredCount } : { rel: file.rel, ok: true, matches };
}

/**
 * Whether error recovery shaped this node: it holds an ERROR or MISSING node, or lies inside an
 * ERROR. tree-sitter-rust 0.24 reads bat's `match &raw {` as an unfinished raw borrow, and the
 * `impl_item` it then reports runs over three impl blocks.
 */
function inRecovery(node: SyntaxNode): boolean {
  if (hasSyntaxErrors(node)) return true;
  for (let n = node.parent; n; n = n.parent) if (n.type === "ERROR") return true;
  return false;
}

/*
 * The field walk hands every A node to JavaScript (an object with a finalizer each) and asks each
 * for its field; the engine walks in C and hands over only the captures. On typeorm (10.7 MB), -j 1,
 * user+sys CPU, medians: class names (2,259 classes, ~200 per MB) 0.84 -> 0.81 s with the walk;
 * calls with a member callee (49k of ~6,500 calls per MB) 3.2 -> 3.9 s; imports (~1,300 per MB)
 * about even. So the walk is taken only where the A nodes are sparse, bounded by the occurrences of
 * a keyword each A holds: at most one per KB.
 */
const BYTES_PER_WALKED_NODE = 1024;

function sparse(bytes: Buffer, keywords: readonly string[]): boolean {
  let budget = Math.ceil(bytes.length / BYTES_PER_WALKED_NODE);
  for (const k of keywords) {
    for (let at = bytes.indexOf(k, 0, "latin1"); at >= 0; at = bytes.indexOf(k, at + k.length, "latin1")) if (--budget < 0) return false;
  }
  return true;
}

type SyntaxNode = ReturnType<ReturnType<typeof parserFor>["parse"]>["rootNode"];
interface RawMatch {
  pattern: number;
  captures: { name: string; node: SyntaxNode }[];
}

/**
 * The query engine's matches of `(A f: (B) @c)`, `(A f: (B) @c) @a` or `(A f: (B)) @a`, from a native
 * walk for A and A's children in field f, in the engine's order. The engine finishes a match on
 * entering its B, so it reports one match per B (per A, at its first B, when B is not captured) in
 * the order B nodes come in a pre-order walk; captures in the order their nodes were entered, A's
 * first. A walk for A visits the A nodes in pre-order, which is already that order unless one A lies
 * inside another; only then are the matches sorted. An alternation of such patterns with distinct A
 * types is one walk for all of them, each A taking its own alternative.
 */
export function fieldChildMatches(root: SyntaxNode, alternatives: FieldChildPattern[], parents?: SyntaxNode[]): RawMatch[] {
  const found: { child: SyntaxNode; start: number; end: number; match: RawMatch }[] = [];
  let nested = false;
  let maxEnd = -1;
  const only = alternatives.length === 1 ? alternatives[0] : undefined;
  const byParent = new Map(alternatives.map((p) => [p.parent, p]));
  for (const a of parents ?? root.descendantsOfType(alternatives.map((p) => p.parent))) {
    const p = only ?? byParent.get(a.type);
    if (!p) continue;
    let any = false;
    const before = found.length;
    for (const b of a.childrenForFieldName(p.field)) {
      if (b.type !== p.child || !b.isNamed) continue;
      const captures: RawMatch["captures"] = [];
      if (p.parentCapture !== undefined) captures.push({ name: p.parentCapture, node: a });
      if (p.childCapture !== undefined) captures.push({ name: p.childCapture, node: b });
      found.push({ child: b, start: -1, end: -1, match: { pattern: 0, captures } });
      any = true;
      if (p.childCapture === undefined) break;
    }
    if (!any) continue;
    // An anonymous node of A's name (an anonymous alias of a rule could have fields) is not an A.
    if (!a.isNamed) {
      found.length = before;
      continue;
    }
    // An A inside an earlier A starts before that one ends (or, empty, right at its end).
    const s = a.startIndex;
    const e = a.endIndex;
    if (s < maxEnd || (s === maxEnd && s === e)) nested = true;
    if (e > maxEnd) maxEnd = e;
  }
  if (nested) {
    for (const f of found) {
      f.start = f.child.startIndex;
      f.end = f.child.endIndex;
    }
    found.sort(preorder);
  }
  return found.map((f) => f.match);
}

/** Per language, node type names by type id: `typeId` is a number, `type` a new string per call. */
const typeNames = new Map<LanguageId, Map<number, string>>();

function typeNamer(language: LanguageId): (n: SyntaxNode) => string {
  let names = typeNames.get(language);
  if (!names) typeNames.set(language, (names = new Map()));
  const known = names;
  return (n) => {
    const id = n.typeId;
    let name = known.get(id);
    if (name === undefined) known.set(id, (name = n.type));
    return name;
  };
}

/**
 * The named nodes of `types` in a tree without errors, in pre-order, found from the keyword each
 * holds (`keywords[i]`, one its grammar rule requires: prefilter.ts) instead of a walk of the whole
 * tree. At each occurrence of the keyword in the text the leaf is either its token or something
 * else (an identifier `className`, a comment, a string); from a token, the nearest ancestor of the
 * type is a node of the type, and every such node is reached from its own token. The cost follows
 * the keyword's occurrences, not the tree's size: typeorm's class declarations, 2,173 files,
 * 76-91 ms walked, 21-29 ms so. In a tree with errors a keyword may be missing or stand in an
 * ERROR node, so the caller walks. Undefined (the caller walks) where pre-order would need the
 * tree: two nodes of one extent.
 */
export function keywordNodes(root: SyntaxNode, text: string, language: LanguageId, types: readonly string[], keywords: readonly string[]): SyntaxNode[] | undefined {
  const typeOf = typeNamer(language);
  const found = new Map<number, { node: SyntaxNode; start: number; end: number }>();
  for (let i = 0; i < types.length; i++) {
    const type = types[i] as string;
    const keyword = keywords[i] as string;
    for (let at = text.indexOf(keyword); at >= 0; at = text.indexOf(keyword, at + 1)) {
      // The keyword's token, or a named leaf of its text (Java's `void_type`); not an identifier
      // that holds it (`className`), a comment or a string.
      const leaf = root.descendantForIndex(at, at + keyword.length);
      if (typeOf(leaf) !== keyword && (leaf.startIndex !== at || leaf.endIndex !== at + keyword.length)) continue;
      // The token may be the node itself (`(undefined)`, `(this)`: a named leaf of the keyword).
      for (let p: SyntaxNode | null = leaf; p; p = p.parent) {
        // An anonymous node of the type's name (an alias) is not one.
        if (typeOf(p) !== type || !p.isNamed) continue;
        const id = p.id;
        if (!found.has(id)) found.set(id, { node: p, start: p.startIndex, end: p.endIndex });
        break;
      }
    }
  }
  const list = [...found.values()].sort((x, y) => x.start - y.start || y.end - x.end);
  for (let i = 1; i < list.length; i++) if (list[i]?.start === list[i - 1]?.start && list[i]?.end === list[i - 1]?.end) return undefined;
  return list.map((f) => f.node);
}

/** Pre-order of two distinct nodes; offsets decide unless both start at one place. */
function preorder(x: { child: SyntaxNode; start: number; end: number }, y: { child: SyntaxNode; start: number; end: number }): number {
  if (x.start !== y.start) return x.start - y.start;
  // Of two nodes starting together, a longer one holds the other unless the shorter is empty (then
  // it may be a sibling before it): only that and equal extents need the tree.
  if (x.end !== y.end && Math.min(x.end, y.end) > x.start) return y.end - x.end;
  return treeOrder(x.child, y.child);
}

function treeOrder(x: SyntaxNode, y: SyntaxNode): number {
  const path = (n: SyntaxNode): SyntaxNode[] => {
    const out: SyntaxNode[] = [];
    for (let p: SyntaxNode | null = n; p; p = p.parent) out.push(p);
    return out.reverse();
  };
  const px = path(x);
  const py = path(y);
  let i = 0;
  while (i < px.length && i < py.length && px[i]?.id === py[i]?.id) i++;
  if (i === px.length || i === py.length) return px.length - py.length;
  const kids = (px[i - 1] as SyntaxNode).children.map((k) => k.id);
  return kids.indexOf((px[i] as SyntaxNode).id) - kids.indexOf((py[i] as SyntaxNode).id);
}

/**
 * The text of a capture as a string of its own. `text.slice()` gives V8 a sliced string that
 * keeps the whole file's text alive as long as the match: on typeorm the 2,259 class names held
 * 5.9 MB of source text until the output was written.
 */
function ownString(bytes: Buffer, decoded: ReturnType<typeof decodeBytes>, si: number, ei: number, bs: number, be: number): string {
  if (decoded.valid) return bytes.toString("utf8", bs, be);
  return Buffer.from(decoded.text.slice(si, ei), "utf16le").toString("utf16le");
}

export function compareMatches(a: AstMatch, b: AstMatch): number {
  if (a.file_path !== b.file_path) return a.file_path < b.file_path ? -1 : 1;
  return a.span.byte_start - b.span.byte_start || a.span.byte_end - b.span.byte_end || a.pattern_index - b.pattern_index || (a.match_id < b.match_id ? -1 : a.match_id > b.match_id ? 1 : 0);
}
