/**
 * One file from disk to rows: read, hash, skip what cannot be indexed, extract, convert.
 * Shared by the worker threads and by small incremental runs on the main thread.
 */
import { utf16Bom } from "../text/utf16.js";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { type DepMatch, depsInQuery, extractFromTree } from "../lang/extract.js";
import { ExtractionBudgetError } from "../lang/budget.js";
import { HeapLimitError } from "../lang/heap.js";
import { extractDeps } from "../lang/deps.js";
import { parseSource } from "../lang/preprocess.js";
import { HEADER_SNIFF_BYTES, type LanguageId, isSharedHeader, refineLanguage } from "../lang/registry.js";
import { decodeBytes } from "../text/decode.js";
import { isBinary } from "../text/binary.js";
import { type FileRows, toRows } from "./facts.js";

export interface FileTask {
  abs: string;
  rel: string;
  language: LanguageId;
  /** Hash stored by the last index; when the bytes still hash to it the file is unchanged. */
  knownHash?: string;
  maxBytes: number;
  rootName: string;
}

/**
 * `too_large_to_index`: admitted by --max-file-size but beyond the per-file work budget (bytes or
 * tokens to parse, or syntax nodes in its tree); `out_of_memory`: the extraction worker that held it ran
 * out of its heap and the file was dropped so that the rest of the run could go on.
 */
export type SkipReason = "binary" | "too_large" | "unreadable" | "extract_failed" | "too_large_to_index" | "out_of_memory";

/**
 * Per-file work budget. Memory of a parse is native (tree-sitter keeps ~110 bytes per syntax node,
 * a node per ~3 bytes of minified code) and extraction's heap grows with the nodes it visits, so
 * one very large file can cost gigabytes whatever the worker's heap limit. Defaults admit any file
 * under the default --max-file-size (a 3.9 MB minified bundle is 1.26 M nodes).
 */
export const PARSE_BYTES_BUDGET = Number(process.env.MAGELLAN_MAX_PARSE_BYTES) || 8 * 1024 * 1024;
export const PARSE_NODES_BUDGET = Number(process.env.MAGELLAN_MAX_PARSE_NODES) || 3_000_000;
/**
 * Tokens a file may hold to be parsed (syntaxTokens' count). The nodes budget is checked on the
 * tree, after its memory is spent: a 3.9 MB array of numbers (2 M tokens) took tree-sitter's
 * parse alone to 420 MB, a run's peak to 520 MB. Memory follows the tokens, from ~105 bytes a
 * token (pyright's minified bundle, 1.29 M tokens) to ~210 (a list of numbers, whose repetition
 * nodes add a node a token): at 1.4 M tokens of numbers a cold index peaks at ~386 MB, within the
 * 400 MB it keeps to.
 */
export const PARSE_TOKENS_BUDGET = Number(process.env.MAGELLAN_MAX_PARSE_TOKENS) || 1_400_000;

/** 0: space; 1: part of a word (a name, a number, any byte of a multi-byte character); 2: a token alone. */
const TOKEN_CLASS = (() => {
  const t = new Uint8Array(256).fill(2);
  for (const c of " \t\n\r\f\v") t[c.charCodeAt(0)] = 0;
  for (let c = 0; c < 256; c++) if (/[A-Za-z0-9_$]/.test(String.fromCharCode(c)) || c >= 0x80) t[c] = 1;
  return t;
})();

/**
 * The tokens of `bytes` as a grammar roughly sees them (each run of word bytes one, each other
 * non-space byte one), counted up to `limit` + 1: a bound on what a parse will hold that costs a
 * few milliseconds a megabyte instead of the parse's memory.
 */
export function syntaxTokens(bytes: Uint8Array, limit: number): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < bytes.length && n <= limit; i++) {
    const k = TOKEN_CLASS[bytes[i] as number] as number;
    if (k === 1) {
      if (!inWord) n++;
      inWord = true;
    } else {
      if (k === 2) n++;
      inWord = false;
    }
  }
  return n;
}

export type FileOutcome =
  | { kind: "unchanged"; rel: string; hash: string; size: number; mtime_ms: number }
  | { kind: "skipped"; rel: string; reason: SkipReason; detail: string }
  | { kind: "indexed"; rel: string; language: LanguageId; hash: string; size: number; mtime_ms: number; rows: FileRows };

export function processFile(task: FileTask): FileOutcome {
  let size: number;
  let mtime: number;
  let bytes: Buffer;
  try {
    const st = statSync(task.abs);
    size = st.size;
    mtime = st.mtimeMs;
    if (size > task.maxBytes) {
      return { kind: "skipped", rel: task.rel, reason: "too_large", detail: `${size} bytes > limit ${task.maxBytes}` };
    }
    if (size > PARSE_BYTES_BUDGET) {
      return { kind: "skipped", rel: task.rel, reason: "too_large_to_index", detail: `${size} bytes > the per-file parse budget of ${PARSE_BYTES_BUDGET} bytes (MAGELLAN_MAX_PARSE_BYTES)` };
    }
    bytes = readFileSync(task.abs);
  } catch (e) {
    return { kind: "skipped", rel: task.rel, reason: "unreadable", detail: (e as Error).message };
  }
  const hash = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (hash === task.knownHash) return { kind: "unchanged", rel: task.rel, hash, size: bytes.length, mtime_ms: mtime };
  if (isBinary(bytes)) {
    // Source code in UTF-16 is rare, and the grammars read UTF-8: say which it is, not only "NUL".
    const wide = utf16Bom(bytes);
    const detail = wide ? `${wide === "utf-16le" ? "UTF-16LE" : "UTF-16BE"} text (byte order mark): not indexed, only UTF-8 is; re-encode it as UTF-8 to index it` : "contains a NUL byte";
    return { kind: "skipped", rel: task.rel, reason: "binary", detail };
  }
  // (A token takes a byte at least: only a file longer than the budget can exceed it.)
  if (bytes.length > PARSE_TOKENS_BUDGET) {
    const tokens = syntaxTokens(bytes, PARSE_TOKENS_BUDGET);
    if (tokens > PARSE_TOKENS_BUDGET) {
      return { kind: "skipped", rel: task.rel, reason: "too_large_to_index", detail: `over ${PARSE_TOKENS_BUDGET} tokens (${bytes.length} bytes): beyond the per-file parse budget (MAGELLAN_MAX_PARSE_TOKENS); data or generated code?` };
    }
  }
  try {
    // A header's language is in its content (latin1 is enough to see C++ keywords and `::`).
    const language = isSharedHeader(task.rel) ? refineLanguage(task.language, task.rel, bytes.toString("latin1", 0, HEADER_SNIFF_BYTES)) : task.language;
    // One parse for the symbol facts and the impact graph's dependencies.
    const decoded = decodeBytes(bytes);
    const tree = parseSource(language, decoded.text);
    let rows;
    try {
      const nodes = tree.rootNode.descendantCount;
      if (nodes > PARSE_NODES_BUDGET) {
        return { kind: "skipped", rel: task.rel, reason: "too_large_to_index", detail: `${nodes} syntax nodes > the per-file budget of ${PARSE_NODES_BUDGET} (MAGELLAN_MAX_PARSE_NODES)` };
      }
      const depMatches: DepMatch[] | undefined = depsInQuery(language) ? [] : undefined;
      rows = toRows(task.rel, task.rootName, extractFromTree(language, tree, decoded, depMatches), bytes);
      rows.deps = extractDeps(language, tree, decoded.text, depMatches);
    } finally {
      (tree as unknown as { delete?: () => void }).delete?.();
    }
    return { kind: "indexed", rel: task.rel, language, hash, size: bytes.length, mtime_ms: mtime, rows };
  } catch (e) {
    if (e instanceof ExtractionBudgetError) return { kind: "skipped", rel: task.rel, reason: "too_large_to_index", detail: e.message };
    if (e instanceof HeapLimitError) return { kind: "skipped", rel: task.rel, reason: "out_of_memory", detail: `extraction would run out of its heap: ${e.message} (MAGELLAN_WORKER_HEAP_MB)` };
    return { kind: "skipped", rel: task.rel, reason: "extract_failed", detail: (e as Error).message };
  }
}
