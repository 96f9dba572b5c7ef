/**
 * llmsearch's core: request -> response, no argv or stdout. Walks the files (gitignore-aware,
 * path order), searches them on worker threads in batches, and takes each file's result in path
 * order as soon as it and every file before it are done, whatever order the threads finished in
 * (a MatchSink then gets the matches at once, so a CLI need not hold them all). A file whose
 * search runs past the time budget has its thread terminated and is reported as skipped
 * ("timeout"); the rest of the search goes on and the answer is marked partial.
 */
import { availableParallelism } from "node:os";
import { statSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { cancelSignal, cancelledError } from "../../contract/cancel.js";
import { commonCode } from "../../contract/codes.js";
import { EXIT, missingPathsRemediation, ToolError, missingPathsError, omitUndefined } from "../../contract/errors.js";
import type { Diagnostic } from "../../contract/schema.js";
import type {
  LlmsearchCountData,
  LlmsearchData,
  LlmsearchFileListData,
  LlmsearchFilesWithMatchesData,
  LlmsearchFilesWithoutMatchData,
  LlmsearchMatch,
  LlmsearchSkip,
} from "../../contract/tools/llmsearch.js";
import { findWorkspaceRoot, resolveInRoot } from "../../text/root.js";
import { excludedByRules, walkFiles, type WalkEntry, type WalkOptions } from "../../text/walk.js";
import { directoryGlobHint, globRefusal } from "../../text/glob-check.js";
import { type WarmCache, warmCache } from "../../text/warm-cache.js";
import { LLMSEARCH_CODES, TOOL } from "./codes.js";
import { utf16Bom } from "../../text/utf16.js";
import { type BinaryHead, classifyCached, type FileJob, isBinaryHead, readIfMayMatch, searchBinaryHead, searchBytes, type Skip } from "./file.js";
import { type CompiledPattern, canMatchNewline, compilePattern, questionOf } from "./pattern.js";
import { mayMatch, prepare } from "./scan.js";
import { typeGlobs, typesWith } from "./types.js";
import { type Batch, type BatchResult, type FileResult, type InitMessage, STATE_ACKED, STATE_BYTES } from "./protocol.js";
import type { WorkerInit } from "./worker.js";

export interface SearchRequest {
  pattern: string;
  fixedStrings?: boolean;
  ignoreCase?: boolean;
  word?: boolean;
  /** rg -x: only matches that span whole lines. Not with `word` (rg lets the later of -w and -x win; a request has no order). */
  lineRegexp?: boolean;
  multiline?: boolean;
  /** Workspace root; default: the enclosing git work tree, else cwd. */
  root?: string;
  /** Files or directories inside the root to search; default: the root. */
  paths?: string[];
  globs?: string[];
  hidden?: boolean;
  noIgnore?: boolean;
  /** rg --no-ignore-vcs, --no-ignore-dot, --no-ignore-exclude, --no-ignore-global: those sources of rules left out. */
  ignoreOff?: WalkOptions["ignoreOff"];
  /** rg -L: follow symbolic links (to what lies inside the root). */
  follow?: boolean;
  before?: number;
  after?: number;
  /** Keep at most this many matches over all files, in path/offset order (0 = all); the answer is then partial. */
  limit?: number;
  /** rg -a: search binary files as text (a NUL byte does not stop the search). */
  text?: boolean;
  /** rg --max-depth: descend at most this many directory levels below each start path (0: the paths themselves). */
  maxDepth?: number;
  /** rg --iglob: as `globs`, matched ignoring case; they take precedence over `globs`, as rg 13 adds them after. */
  iglobs?: string[];
  /** rg -v: the lines without a match are the answer (each a match spanning the line's text). */
  invert?: boolean;
  /** rg -m: per file, only the first this many matching lines (see MaxCountUnit); counts and -l count only those. */
  maxCount?: number;
  /** Skip files larger than this many bytes (0 = no limit). */
  maxFilesize?: number;
  /** -c: per file, the lines a match starts on (ripgrep's -c), instead of the matches. */
  count?: boolean;
  /** --count-matches: per file, the matches (ripgrep's --count-matches); wins over count. */
  countMatches?: boolean;
  /** -l: the files with a match (and their checksum), not the matches. */
  filesWithMatches?: boolean;
  /** rg --files-without-match: the searched files without a match (implies the -l search). */
  filesWithoutMatch?: boolean;
  /** -S: case-insensitive unless the pattern has an uppercase letter. */
  smartCase?: boolean;
  /** -t / -T: ripgrep file types to search / to leave out. */
  types?: string[];
  typesNot?: string[];
  /** rg --type-add: `name:glob[,glob]` or `name:include:type,type`, applied in order before -t/-T. */
  typeAdd?: string[];
  /** Per-file time budget in ms. */
  timeoutMs?: number;
  threads?: number;
  /** Where relative paths are read from, and -g globs matched from (as rg); default process.cwd(). */
  cwd?: string;
}

export interface SearchResponse {
  data: LlmsearchData | LlmsearchCountData | LlmsearchFilesWithMatchesData | LlmsearchFilesWithoutMatchData;
  partial: boolean;
  diagnostics: Diagnostic[];
  exitCode: 0 | 4;
  /** The matches went to the sink (data.matches is empty; match_count counts what it got). */
  streamed: boolean;
}

/**
 * Takes the matches in the answer's order (path, then offset), file by file as soon as a file and
 * all before it are searched, and at most --limit of them. Whether the answer is partial is known
 * only at the end (a later file may run past its time budget), so a writer must hold what comes
 * before the list until then (src/cli/stream.ts spools). Used for the matches only: --count and
 * -l answers are small and come back in the response.
 */
export interface MatchSink {
  write(matches: LlmsearchMatch[]): void;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Files past the budget after which a search stops (see Pool.stop). */
export const STOP_AFTER_TIMEOUTS = 3;

/** ripgrep's smart case: an uppercase letter outside an escape (\\S, \\W, \\p{Lu}...) makes the search case-sensitive. */
export function hasUppercase(pattern: string): boolean {
  return /\p{Lu}/u.test(pattern.replace(/\\(?:[pP]\{[^}]*\}|[pP].|.)/gu, ""));
}

/** ripgrep's file types with the request's --type-add definitions; a bad definition is refused as rg refuses it. */
export function fileTypes(typeAdd: readonly string[]): Readonly<Record<string, readonly string[]>> {
  const r = typesWith(typeAdd);
  if ("bad" in r) {
    throw new ToolError({
      code: LLMSEARCH_CODES.unknown_type,
      error: "invalid_type_definition",
      message: `--type-add '${r.bad}': ${r.why}`,
      remediation: "Write --type-add 'name:*.ext' (a name of letters and digits, one glob; repeat the flag for more) or --type-add 'name:include:type1,type2'.",
      exitCode: EXIT.usage,
    });
  }
  return r.types;
}

/** The walk's globs and -t/-T types. */
function filtersOf(req: Omit<SearchRequest, "pattern">): { globs: string[]; iglobs: string[]; types: { include: string[]; exclude: string[] }; cwd: string } {
  for (const [flag, list] of [["--glob", req.globs], ["--iglob", req.iglobs]] as const) {
    for (const g of list ?? []) {
      const refused = globRefusal(g, flag);
      if (refused !== undefined) throw new ToolError({ code: LLMSEARCH_CODES.glob_syntax, error: "glob_syntax", ...refused, exitCode: EXIT.usage });
    }
  }
  const types = fileTypes(req.typeAdd ?? []);
  const t = typeGlobs(req.types ?? [], req.typesNot ?? [], types);
  if ("unknown" in t) {
    throw new ToolError({
      code: LLMSEARCH_CODES.unknown_type,
      error: "unknown_type",
      message: `unknown file type '${t.unknown}'`,
      remediation: `Known types: ${Object.keys(types).sort().join(", ")}; or select files with --glob '*.ext', or define one with --type-add 'name:*.ext'.`,
      exitCode: EXIT.usage,
    });
  }
  return { globs: req.globs ?? [], iglobs: req.iglobs ?? [], types: t, cwd: req.cwd ?? process.cwd() };
}

/** What a search, a file list and the account of files kept out all walk: the same starts, rules, depth, globs and types. */
function walkOptionsOf(root: string, starts: string[], req: Omit<SearchRequest, "pattern">, filters = filtersOf(req)): WalkOptions {
  return { root, start: starts.length ? starts : undefined, hidden: req.hidden, noIgnore: req.noIgnore, ignoreOff: req.ignoreOff, follow: req.follow, maxDepth: req.maxDepth, ...filters };
}

/**
 * The start paths that exist, and those that do not. As rg, a missing path among others is said
 * (a warning, the answer partial) and the others are searched; when none exists it is an error.
 */
function startsOf(req: SearchRequest, root: string, cwd: string): { starts: string[]; missing: string[] } {
  const starts: string[] = [];
  const missing: string[] = [];
  for (const p of req.paths ?? []) {
    const r = resolveInRoot(TOOL, root, p, cwd);
    try {
      statSync(r.abs);
    } catch {
      missing.push(p);
      continue;
    }
    starts.push(r.abs);
  }
  if (missing.length > 0 && starts.length === 0) throw missingPathsError(TOOL, missing);
  return { starts, missing };
}


/** The warning for paths that do not exist beside others that do (which were searched). */
function missingPaths(missing: string[]): Diagnostic[] {
  if (missing.length === 0) return [];
  return [
    {
      tool: TOOL,
      level: "warning",
      message: `no such file or directory: ${missing.join(", ")} (the other paths were searched, as rg does)`,
      code: commonCode(TOOL, "file_not_found"),
      remediation: missingPathsRemediation(missing),
    },
  ];
}

function sizeOf(abs: string): number {
  try {
    return statSync(abs).size;
  } catch {
    // Gone since the walk: a search would list it as unreadable, not skip it for its size.
    return 0;
  }
}

/** --files: the files a search would read, in path order, without searching them. */
export function listFiles(req: Omit<SearchRequest, "pattern">): { data: LlmsearchFileListData; diagnostics: Diagnostic[]; partial: boolean } {
  const cwd = req.cwd ?? process.cwd();
  const root = findWorkspaceRoot(TOOL, req.root, cwd);
  const { starts, missing } = startsOf({ ...req, pattern: "" }, root, cwd);
  const max = req.maxFilesize ?? 0;
  const files = walkFiles({ ...walkOptionsOf(root, starts, req), cache: warmCache() })
    // A file over --max-filesize is not searched, so not listed (rg --files --max-filesize alike).
    .filter((e) => max <= 0 || sizeOf(e.abs) <= max)
    .map((e) => e.rel);
  const unique = [...new Set(files)];
  const diagnostics: Diagnostic[] = missingPaths(missing);
  if (unique.length === 0) {
    diagnostics.push({
      tool: TOOL,
      level: "warning",
      message: `no files under ${starts.length ? (req.paths ?? []).join(", ") : root}: ${explainNoFiles({ ...req, pattern: "" }, excludedFiles(root, starts, req))}`,
      code: LLMSEARCH_CODES.no_files,
      remediation: "Check --glob / --type, or pass --hidden / --no-ignore to include hidden or ignored files.",
    });
  }
  return { data: { files: unique, file_count: unique.length }, diagnostics, partial: missing.length > 0 };
}

/** A usage error for flags that cannot go together. */
function combination(message: string, remediation: string): ToolError {
  return new ToolError({ code: LLMSEARCH_CODES.flag_combination, error: "flag_combination", message, remediation, exitCode: EXIT.usage });
}

export async function search(req: SearchRequest, sink?: MatchSink): Promise<SearchResponse> {
  const cwd = req.cwd ?? process.cwd();
  if (req.word && req.lineRegexp) {
    throw combination(
      "word and line_regexp (-w and -x) both given: ripgrep takes the later of the two flags, and a request has no order",
      "Give one: -x (line_regexp) for matches that are whole lines, -w (word) for whole words.",
    );
  }
  if (req.smartCase && !req.ignoreCase && !hasUppercase(req.pattern)) req = { ...req, ignoreCase: true };
  // The files without a match are the walk's files less those -l finds (and those skipped).
  if (req.filesWithoutMatch) req = { ...req, filesWithMatches: true, count: false, countMatches: false };
  const pattern = compilePattern(req);
  const spansLines = canMatchNewline(req, pattern);
  if (req.invert && spansLines) {
    throw combination(
      "--invert-match with --multiline and a pattern that can match a line feed: ripgrep then inverts by runs of lines that differ from a line-by-line answer, which llmsearch does not reproduce",
      "Drop -U (or the \\n from the pattern) to list the lines without a match, or drop -v.",
    );
  }
  const root = findWorkspaceRoot(TOOL, req.root, cwd);
  const filters = filtersOf(req);
  const { starts, missing } = startsOf(req, root, cwd);
  const limit = req.limit ?? 0;
  const counting = Boolean(req.count || req.countMatches);
  const init: Omit<WorkerInit, "state"> = {
    scan: {
      pattern,
      // -v's matches are other spans than the pattern's: another question.
      question: req.invert ? JSON.stringify([questionOf(req), "v"]) : questionOf(req),
      before: req.before ?? 0,
      after: req.after ?? 0,
      keep: limit > 0 ? limit : Number.MAX_SAFE_INTEGER,
      maxCount: req.maxCount ?? 0,
      invert: Boolean(req.invert),
      text: Boolean(req.text),
      maxCountUnit: !spansLines || req.invert ? "lines" : counting && !req.filesWithMatches ? "matches" : "groups",
    },
    maxFileSize: req.maxFilesize ?? 0,
    countOnly: Boolean(req.count || req.countMatches || req.filesWithMatches),
    // As rg -c: lines, except where a --multiline pattern can span lines (see canMatchNewline).
    // -v's matches are lines already: counted as matches they are rg -v -c's lines, and its --count-matches'.
    countLines: Boolean(req.count && !req.countMatches && !req.filesWithMatches && !spansLines && !req.invert),
  };
  const maxThreads = Math.max(1, req.threads ?? availableParallelism());
  const cache = warmCache();
  // Every change saved before this search is in the cache once this resolves (else: stats).
  const settled = cache ? await cache.settle(root) : false;

  const skipped: LlmsearchSkip[] = [];
  const diagnostics: Diagnostic[] = [];
  const matches: LlmsearchMatch[] = [];
  const counts: { file_path: string; count: number }[] = [];
  const withMatches: { file_path: string; count: number; checksum?: string }[] = [];
  const streamed = sink !== undefined && !counting && !req.filesWithMatches;
  let kept = 0;
  let total = 0;
  // Each file's result, in the answer's order.
  const take = (rel: string, r: FileResult): void => {
    if (r.skip) {
      skipped.push({ file_path: rel, reason: r.skip.reason, detail: r.skip.detail });
      if (r.skip.reason === "timeout") {
        diagnostics.push({
          tool: TOOL,
          level: "warning",
          message: `${rel}: ${r.skip.detail}; the file was not searched`,
          file: rel,
          code: LLMSEARCH_CODES.search_timeout,
          note: "A pattern with nested quantifiers such as (a+)+ can backtrack exponentially on a long line.",
          remediation: "Rewrite the pattern without nested quantifiers, anchor it, or raise --timeout.",
        });
      }
      if (r.skip.reason !== "binary" || r.count === 0) return;
    }
    total += r.count;
    if (req.filesWithMatches) {
      if (r.count > 0) withMatches.push(r.checksum ? { file_path: rel, count: r.count, checksum: r.checksum } : { file_path: rel, count: r.count });
    } else if (counting) {
      if (r.count > 0) counts.push({ file_path: rel, count: r.count });
    } else if (r.matches && (limit === 0 || kept < limit)) {
      const some = limit === 0 || kept + r.matches.length <= limit ? r.matches : r.matches.slice(0, limit - kept);
      kept += some.length;
      if (streamed) {
        if (some.length > 0) sink.write(some);
      } else for (const m of some) matches.push(m);
    }
  };
  // Threads boot while the walk runs, and files go to them as the walk finds them.
  // Several start paths are walked one after the other, so the walk's order is the answer's
  // only once it is sorted: then the results wait for the walk's end (no start: the root).
  const pool = new Pool(init, req.timeoutMs ?? DEFAULT_TIMEOUT_MS, take, starts.length > 1, cache, cancelSignal());
  const onlyFiles = starts.length > 0 && starts.every((a) => !isDir(a));
  const want = onlyFiles ? Math.min(maxThreads, starts.length) : maxThreads;
  if (pattern.literal.length > 0 || cache) {
    // The main thread reads each file and looks for the literal (linear, cannot hang); only
    // files holding it go to a thread for the regex, and a pure literal needs no thread at all.
    pool.prefilter(want);
    if (!pattern.pureLiteral) pool.grow(pattern.literal.length > 0 ? 1 : want);
  } else pool.grow(want);
  const done = pool.start();
  let files: WalkEntry[];
  let searched: number;
  try {
    const walk = (): WalkEntry[] =>
      walkFiles({
        ...walkOptionsOf(root, starts, req, filters),
        cache,
        onFile: (e) => pool.add(e),
        onSkip: (rel, why) => {
          if (why === "special") skipped.push({ file_path: rel, reason: "unreadable", detail: "not a regular file (a FIFO, socket or device): not read" });
        },
      });
    // The walk and the main thread's reads are synchronous: nothing else runs while the cache trusts.
    files = cache ? cache.trusted(settled, walk) : walk();
    pool.finish(files);
    searched = await done;
  } finally {
    await pool.close();
  }

  const cut = !counting && !req.filesWithMatches && limit > 0 && total > kept;
  const timedOut = skipped.some((s) => s.reason === "timeout");
  if (pool.notSearched > 0) {
    diagnostics.push({
      tool: TOOL,
      level: "error",
      message: `the search stopped after ${STOP_AFTER_TIMEOUTS} files ran past the ${req.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms budget per file: ${pool.notSearched} file${pool.notSearched === 1 ? " was" : "s were"} not searched; the matches are those of the files searched before`,
      code: LLMSEARCH_CODES.search_timeout,
      note: "The pattern backtracks catastrophically (nested quantifiers such as (\\w+\\s?)* before something that fails), so each file could take the whole budget.",
      remediation: "Rewrite the pattern without nested quantifiers (e.g. [\\w\\s]* instead of (\\w+\\s?)*), anchor it, or use -F for a fixed string; raise --timeout if the files are only large.",
    });
  }
  if (files.length === 0 && skipped.length === 0) {
    diagnostics.push({
      tool: TOOL,
      level: "warning",
      message: `no files to search under ${starts.length ? (req.paths ?? []).join(", ") : root}: ${explainNoFiles(req, excludedFiles(root, starts, req))}`,
      code: LLMSEARCH_CODES.no_files,
      remediation: "Check --glob (as rg's, globs match paths relative to the current directory; '**/*.rs' or '*.rs' at any depth), or pass --hidden / --no-ignore to include hidden or ignored files.",
    });
  } else if (searched === 0 && total === 0) {
    // Only when the answer is empty: a binary file's lines before its NUL are searched, and
    // their matches reported, although the file is listed in files_skipped.
    diagnostics.push({
      tool: TOOL,
      level: "warning",
      message: `all ${Math.max(files.length, skipped.length)} candidate files were skipped (${summarizeSkips(skipped)}); nothing was searched`,
      code: LLMSEARCH_CODES.all_skipped,
      remediation: "See data.files_skipped for each file and why; raise --max-filesize for large files.",
    });
  } else if (total === 0) {
    diagnostics.push({
      tool: TOOL,
      level: "note",
      message: `${req.invert ? "every line matched the pattern (--invert-match)" : "the pattern matched nothing"} in ${searched} searched file${searched === 1 ? "" : "s"}${skipped.length ? ` (${skipped.length} skipped: ${summarizeSkips(skipped)})` : ""}`,
      code: LLMSEARCH_CODES.no_match,
      remediation: `${operatorHint(req, pattern)}Try --ignore-case, a looser pattern, or --hidden / --no-ignore if the text may be in hidden or ignored files.`,
    });
  }
  if (cut) {
    diagnostics.push({
      tool: TOOL,
      level: "note",
      message: `showing the first ${kept} of ${total} matches (--limit ${limit})`,
      code: LLMSEARCH_CODES.limit_reached,
      remediation: "Raise --limit, narrow the pattern or --glob, or use --count for per-file totals.",
    });
  }
  diagnostics.push(...missingPaths(missing));
  skipped.sort((a, b) => (a.file_path < b.file_path ? -1 : a.file_path > b.file_path ? 1 : 0));
  const partial = cut || timedOut || missing.length > 0;
  const common = { total_count: total, files_searched: searched, files_skipped: skipped };
  let without: string[] = [];
  if (req.filesWithoutMatch) {
    const out = new Set([...withMatches.map((f) => f.file_path), ...skipped.map((f) => f.file_path)]);
    without = [...new Set(files.map((f) => f.rel))].filter((rel) => !out.has(rel)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
  const data: LlmsearchData | LlmsearchCountData | LlmsearchFilesWithMatchesData | LlmsearchFilesWithoutMatchData = req.filesWithoutMatch
    ? { pattern: req.pattern, files_without_match: without, file_count: without.length, files_searched: searched, files_skipped: skipped }
    : req.filesWithMatches
    ? { pattern: req.pattern, files: withMatches, files_matched: withMatches.length, ...common }
    : counting
      ? { pattern: req.pattern, count_of: init.countLines || req.invert ? "lines" : "matches", counts, files_matched: counts.length, ...common }
      : { pattern: req.pattern, matches, match_count: kept, ...common };
  return { data, partial, diagnostics: diagnostics.map((d) => omitUndefined(d)), exitCode: partial ? 4 : 0, streamed };
}

/** When no file was found: what the ignore rules and the hidden-file rule kept out under the same paths, globs, types and depth. */
function excludedFiles(root: string, starts: string[], req: Omit<SearchRequest, "pattern">): string[] {
  return excludedByRules(walkOptionsOf(root, starts, req));
}

function explainNoFiles(req: SearchRequest, excluded?: string[]): string {
  if (excluded && excluded.length > 0) return excluded.join("; ");
  const why: string[] = [];
  if (req.globs?.length) {
    const hint = directoryGlobHint(req.globs, [req.cwd ?? process.cwd()]);
    why.push(`no file matched --glob ${req.globs.map((g) => `'${g}'`).join(" ")}${hint ? ` (${hint})` : ""}`);
  }
  if (req.iglobs?.length) why.push(`no file matched --iglob ${req.iglobs.map((g) => `'${g}'`).join(" ")}`);
  if (req.maxDepth !== undefined) why.push(`--max-depth ${req.maxDepth} stops the walk ${req.maxDepth === 0 ? "at the start paths (a directory yields nothing)" : `${req.maxDepth} level${req.maxDepth === 1 ? "" : "s"} down`}`);
  if (req.types?.length) why.push(`no file is of type ${req.types.join(", ")} (-t matches file names: ${req.types.flatMap((t) => fileTypes(req.typeAdd ?? [])[t] ?? []).join(" ")})`);
  if (!req.noIgnore && excluded === undefined) why.push("ignore rules (.gitignore, .ignore) may exclude files");
  if (!req.hidden && excluded === undefined) why.push("hidden files are skipped without --hidden");
  return why.length ? why.join("; ") : "the directory holds no regular files";
}

/**
 * For a regex that matched nothing: when it does not even match its own text, the text as
 * written may be what was meant. `fn main() {` is an empty group and the character `{` (ripgrep
 * refuses it for that `{`, which llmsearch reads as text when it is no repetition): it looks for
 * "fn main {" and finds nothing, and "try --ignore-case" misled. Empty when nothing says so.
 */
function operatorHint(req: SearchRequest, compiled: CompiledPattern): string {
  // A class escape (\w, \d, \b, \p{..}) says the regex is meant as one.
  if (req.fixedStrings || req.invert || /\\[A-Za-z0-9]/.test(req.pattern)) return "";
  const ops = new Set<string>();
  for (let i = 0; i < req.pattern.length; i++) {
    const c = req.pattern[i] as string;
    if (c === "\\") i++;
    else if ("()[]{}*+?|".includes(c)) ops.add(c);
  }
  // An alternation is meant as a regex, and several -e patterns (with -F too) arrive joined by one.
  if (ops.size === 0 || ops.has("|")) return "";
  // Anchors at the ends are meant as anchors.
  const text = req.pattern.replace(/^\^/, "").replace(/([^\\])\$$/, "$1");
  try {
    if (new RegExp(compiled.source, compiled.flags.replace("g", "")).test(text)) return "";
  } catch {
    return "";
  }
  const empty = req.pattern.includes("()") ? " (`()` is an empty group)" : "";
  return `As a regular expression the pattern does not match its own text: ${[...ops].map((c) => `'${c}'`).join(" ")} ${ops.size === 1 ? "is an operator" : "are operators"} there${empty}. To search for the text as written, pass -F (--fixed-strings; over MCP fixed_strings: true) or escape them with '\\'. `;
}

function summarizeSkips(skipped: LlmsearchSkip[]): string {
  const by = new Map<string, number>();
  for (const s of skipped) by.set(s.reason, (by.get(s.reason) ?? 0) + 1);
  return [...by].map(([r, n]) => `${n} ${r}`).join(", ");
}

function isDir(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

interface Slot {
  worker: Worker;
  state: Float64Array;
  /** Matches taken in from the thread (it waits when too far ahead of this). */
  acked: Int32Array;
  inflight: Batch[];
}

/** While the walk still runs, results cannot be read (it holds the thread): queue deeper. */
const WALK_INFLIGHT = 6;
const WALK_BATCH = 64;
/** Files that passed the prefilter are few and each likely holds matches: smaller batches. */
const PRE_BATCH = 8;
/**
 * Matches of files done before an earlier one (a slow file, a thread stuck until its timeout)
 * wait in memory; past this many, threads get no new batch until the earlier file is delivered.
 */
const MAX_WAITING_MATCHES = 20_000;

/**
 * Worker threads fed with batches; a thread stuck on one file past the budget is replaced. Each
 * file's result goes to `deliver` in the walk's order, as soon as it and all before it are done.
 */
class Pool {
  private slots: Slot[] = [];
  /** Positions of files to search, ascending (requeued files come back at the front). */
  private queue: number[] = [];
  private files: WalkEntry[] = [];
  private seen = new Set<string>();
  /** Files that ran past the budget; at STOP_AFTER_TIMEOUTS the rest are not searched (stop()). */
  private timeouts = 0;
  private stopped = false;
  /** Files left unsearched once the search stopped. */
  notSearched = 0;
  /**
   * Files a thread had searched, before the one it got stuck on, whose answer went with it: sent
   * again alone, so that they are answered whatever comes after them.
   */
  private solo = new Set<number>();
  /** Files done while an earlier one is not (null: nothing to report), by position. */
  private early = new Map<number, FileResult | null>();
  /** Pieces of files not yet next in line (BatchResult.piece). */
  private pieces = new Map<number, LlmsearchMatch[][]>();
  /** Files whose pieces were taken (how many matches, over all their searches) while their result is still to come. */
  private pieced = new Map<number, number>();
  /** Files searched again after pieces of them were taken: how many of their first matches to drop. */
  private skip = new Map<number, number>();
  private earlyMatches = 0;
  /** How many files were delivered. */
  private next = 0;
  /** The delivery order (positions), once known; until then the walk's order, or none while `holding`. */
  private order: number[] | undefined;
  private lastRel: string | undefined;
  private failed = false;
  private searched = 0;
  private pending = 0;
  private nextId = 0;
  private walking = true;
  /** Main-thread prefilter: the job, and how many threads the regex may use. */
  private pre: { job: FileJob; maxThreads: number } | undefined;
  private done: (() => void) | undefined;
  private fail: ((e: unknown) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** Bytes of queued files, when the warm cache held them (sent to the thread with the batch). */
  private bytes = new Map<number, Buffer>();

  constructor(
    private readonly init: Omit<WorkerInit, "state">,
    private readonly timeoutMs: number,
    private readonly deliver: (rel: string, r: FileResult) => void,
    /** The walk's order is not the answer's: deliver nothing before `finish` gives the sorted list. */
    private holding: boolean,
    private readonly cache?: WarmCache,
    /** The caller went away (src/contract/cancel.ts): the search stops at the next watch. */
    private readonly signal?: AbortSignal,
  ) {}

  prefilter(maxThreads: number): void {
    this.pre = { job: { compiled: prepare(this.init.scan), maxFileSize: this.init.maxFileSize, countOnly: this.init.countOnly, countLines: this.init.countLines }, maxThreads };
  }

  grow(n: number): void {
    while (this.slots.length < n) this.spawn();
  }

  private spawn(): Slot {
    const sab = new SharedArrayBuffer(STATE_BYTES);
    const state = new Float64Array(sab, 0, 3);
    state[1] = -1;
    let worker: Worker;
    const idle = this.cache ? idleWorkers.pop() : undefined;
    if (idle) {
      // A thread kept from an earlier search: same code, new job.
      dropListeners(idle);
      idle.ref();
      worker = idle;
      worker.postMessage({ t: "init", init: { ...this.init, state: sab } } satisfies InitMessage);
    } else {
      worker = new Worker(new URL("./worker.js", import.meta.url), {
        workerData: { ...this.init, state: sab } satisfies WorkerInit,
        // A thread's garbage is the matches it built and sent: a small young generation keeps
        // each thread's heap small at no measured cost (typeorm -e e -j 2: 383 -> 278 MB peak RSS, same CPU).
        resourceLimits: { maxYoungGenerationSizeMb: 2 },
      });
    }
    const slot: Slot = { worker, state, acked: new Int32Array(sab, STATE_ACKED, 1), inflight: [] };
    worker.on("message", (r: BatchResult) => this.onResult(slot, r));
    worker.on("error", (e) =>
      this.fail?.(
        new ToolError({
          code: LLMSEARCH_CODES.worker_failed,
          error: "worker_failed",
          message: `a search thread failed: ${e instanceof Error ? e.message : String(e)}`,
          remediation: "Retry; if it persists, report it with the command line.",
        }),
      ),
    );
    worker.on("exit", (code) => {
      // A thread that ends on its own (not through terminate(), which drops it from the slots
      // first) would leave its batches unanswered forever: fail loudly instead of hanging.
      if (this.slots.includes(slot)) {
        this.fail?.(
          new ToolError({
            code: LLMSEARCH_CODES.worker_failed,
            error: "worker_failed",
            message: `a search thread exited unexpectedly (code ${code})`,
            remediation: "Retry; if it persists, report it with the command line.",
          }),
        );
      }
    });
    this.slots.push(slot);
    return slot;
  }

  /** Resolves with the number of files searched once every file is delivered. */
  start(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.done = () => resolve(this.searched);
      this.fail = (e) => {
        this.failed = true;
        reject(e);
      };
    });
  }

  /** File `i` is done (`r`: undefined when it has nothing to report); delivers what is now in order. */
  private complete(i: number, r: FileResult | undefined): void {
    if (this.failed) return;
    if (r?.matches) r = { ...r, matches: this.unseen(i, r.matches) };
    this.early.set(i, r ?? null);
    this.earlyMatches += r?.matches?.length ?? 0;
    if (!this.holding) this.drain();
  }

  /** The first matches of file `i`, before its result (see BatchResult.piece). */
  private piece(i: number, matches: LlmsearchMatch[]): void {
    if (this.failed) return;
    matches = this.unseen(i, matches);
    this.pieced.set(i, (this.pieced.get(i) ?? 0) + matches.length);
    if (matches.length === 0) return;
    const held = this.pieces.get(i);
    if (held) held.push(matches);
    else this.pieces.set(i, [matches]);
    this.earlyMatches += matches.length;
    if (!this.holding) this.drain();
  }

  /** Drops the matches of a file searched again that were already taken from its first search. */
  private unseen(i: number, matches: LlmsearchMatch[]): LlmsearchMatch[] {
    const skip = this.skip.get(i);
    if (skip === undefined) return matches;
    if (skip >= matches.length) {
      this.skip.set(i, skip - matches.length);
      return [];
    }
    this.skip.delete(i);
    return matches.slice(skip);
  }

  /** The position of the next file to deliver. */
  private wanted(): number {
    return this.order ? (this.order[this.next] ?? -1) : this.next;
  }

  /** Delivers what is next in line: the next file's pieces, and the files done, in order. */
  private drain(): void {
    while (!this.failed) {
      const i = this.wanted();
      const pieces = this.pieces.get(i);
      if (pieces) {
        this.pieces.delete(i);
        for (const p of pieces) {
          this.earlyMatches -= p.length;
          this.send(i, { i, count: 0, matches: p });
        }
      }
      if (!this.early.has(i)) return;
      const e = this.early.get(i) as FileResult | null;
      this.early.delete(i);
      this.pieced.delete(i);
      this.next++;
      if (e === null) continue;
      this.earlyMatches -= e.matches?.length ?? 0;
      this.send(i, e);
    }
  }

  private send(i: number, r: FileResult): void {
    try {
      this.deliver((this.files[i] as WalkEntry).rel, r);
    } catch (e) {
      // The consumer failed (e.g. its output): the search fails with its error.
      this.fail?.(e);
    }
  }

  /** A file found by the walk (duplicates, from overlapping start paths, are dropped). */
  add(entry: WalkEntry): void {
    if (this.failed || this.seen.has(entry.rel)) return;
    this.seen.add(entry.rel);
    if (!this.holding) {
      // Delivery follows the walk: a file out of path order would be written in the wrong place.
      if (this.lastRel !== undefined && entry.rel <= this.lastRel) {
        this.fail?.(new Error(`llmsearch: the walk met ${entry.rel} after ${this.lastRel}, out of path order`));
        return;
      }
      this.lastRel = entry.rel;
    }
    const i = this.files.length;
    this.files.push(entry);
    if (this.stopped) {
      this.notSearched++;
      this.complete(i, undefined);
      return;
    }
    const pre = this.pre;
    if (pre) {
      const got = this.cache ? this.readWarm(entry.abs, pre.job) : readIfMayMatch(entry.abs, pre.job.maxFileSize, pre.job.compiled);
      if (got === undefined) {
        this.searched++;
        this.complete(i, undefined);
        return;
      }
      if (isBinaryHead(got)) {
        if (pre.job.compiled.pattern.pureLiteral) this.complete(i, searchBinaryHead(got, i, entry.rel, pre.job));
        else this.queue.push(i);
        return;
      }
      if (!Buffer.isBuffer(got)) {
        this.complete(i, { i, count: 0, skip: got });
        return;
      }
      if (pre.job.compiled.pattern.pureLiteral) {
        // No regex: the matches are the literal's occurrences, found right here.
        this.searched++;
        this.complete(i, searchBytes(got, i, entry.rel, pre.job, true, (ms) => this.piece(i, ms)));
        return;
      }
      if (this.cache) this.bytes.set(i, got);
      this.queue.push(i);
      if (this.queue.length >= PRE_BATCH) {
        if (this.queue.length >= 4 * PRE_BATCH) this.grow(pre.maxThreads);
        this.feedAll();
      }
      return;
    }
    this.queue.push(i);
    if (this.queue.length >= WALK_BATCH) this.feedAll();
  }

  /** readIfMayMatch's answer from the warm cache (the cold read for a file it does not keep). */
  private readWarm(abs: string, job: FileJob): Buffer | BinaryHead | Skip | undefined {
    const cached = (this.cache as WarmCache).read(abs);
    // -a: the cache keeps only the first block of a file with an early NUL; the rest is on disk.
    // A UTF-16 file has NUL bytes early too, and is searched transcoded (searchBytes).
    if (!cached || (cached.earlyNul !== undefined && (job.compiled.text || utf16Bom(cached.bytes) !== undefined))) return readIfMayMatch(abs, job.maxFileSize, job.compiled);
    const got = classifyCached(cached, job.maxFileSize, job.compiled.text);
    return Buffer.isBuffer(got) && !mayMatch(got, job.compiled) ? undefined : got;
  }

  /** The walk ended; `sorted`: its files in the answer's order. */
  finish(sorted: WalkEntry[]): void {
    this.walking = false;
    if (this.holding && !this.failed) {
      const at = new Map(this.files.map((f, i) => [f.rel, i]));
      this.order = sorted.map((f) => at.get(f.rel) as number);
      this.holding = false;
      this.drain();
    }
    if (this.pre && this.queue.length > 0 && !this.stopped) this.grow(Math.min(this.pre.maxThreads, this.queue.length > 8 ? this.pre.maxThreads : 1));
    this.timer = setInterval(() => this.watch(), Math.max(10, Math.min(100, this.timeoutMs / 4)));
    this.feedAll();
    this.check();
  }

  private feedAll(): void {
    // Least-loaded first, so batches spread evenly.
    for (const s of [...this.slots].sort((a, b) => a.inflight.length - b.inflight.length)) this.feed(s);
  }

  private feed(slot: Slot): void {
    const maxInflight = this.walking ? WALK_INFLIGHT : 2;
    const walkBatch = this.pre ? PRE_BATCH : WALK_BATCH;
    while (slot.inflight.length < maxInflight && this.queue.length > 0) {
      if (this.walking && this.queue.length < walkBatch) return;
      // Enough waits on an earlier file; the next file to deliver (at the queue's head if queued)
      // always goes. In a sorted order of several walks, everything waits anyway.
      if (!this.order && this.earlyMatches >= MAX_WAITING_MATCHES && this.queue[0] !== this.next) return;
      const size = this.solo.has(this.queue[0] as number) ? 1 : this.walking ? walkBatch : Math.max(1, Math.min(64, Math.ceil(this.queue.length / (this.slots.length * 4))));
      const take = this.queue.splice(0, size);
      const batch: Batch = { id: this.nextId++, index: take, abs: [], rel: [] };
      if (this.cache) batch.bytes = [];
      for (const i of take) {
        const f = this.files[i] as WalkEntry;
        batch.abs.push(f.abs);
        batch.rel.push(f.rel);
        batch.bytes?.push(this.bytes.get(i) ?? null);
      }
      slot.inflight.push(batch);
      this.pending++;
      slot.worker.postMessage(batch);
      if (this.walking) return;
    }
  }

  private onResult(slot: Slot, r: BatchResult): void {
    let matches = 0;
    for (const fr of r.results) matches += fr.matches?.length ?? 0;
    Atomics.add(slot.acked, 0, matches);
    Atomics.notify(slot.acked, 0);
    const at = slot.inflight.findIndex((b) => b.id === r.id);
    if (at === -1) return;
    const batch = slot.inflight[at] as Batch;
    if (r.piece) {
      const fr = r.results[0] as FileResult;
      this.piece(fr.i, fr.matches ?? []);
      return;
    }
    this.searched += r.searched;
    // Results come in the batch's order, and only for files with something to report.
    const from = batch.answered ?? 0;
    const to = r.upTo ?? batch.index.length;
    let k = 0;
    for (let j = from; j < to; j++) {
      const i = batch.index[j] as number;
      const fr = r.results[k];
      if (fr?.i === i) k++;
      this.complete(i, fr?.i === i ? fr : undefined);
    }
    batch.answered = to;
    if (r.upTo !== undefined) return;
    slot.inflight.splice(slot.inflight.indexOf(batch), 1);
    this.pending--;
    // Delivery may have made room for every thread, not only this one.
    if (this.earlyMatches < MAX_WAITING_MATCHES) this.feedAll();
    else this.feed(slot);
    this.check();
  }

  private check(): void {
    if (this.failed || this.walking || this.pending > 0 || this.queue.length > 0) return;
    if (this.timer) clearInterval(this.timer);
    if (this.next !== this.files.length) {
      this.fail?.(new Error(`llmsearch: ${this.files.length - this.next} files were searched but never delivered`));
      return;
    }
    this.done?.();
  }

  /**
   * The pattern has run past the budget on STOP_AFTER_TIMEOUTS files: it backtracks
   * catastrophically, and every other file could cost the budget too (typeorm's 3,500 files at
   * 10 s each, two at a time: hours). The files not yet searched are left so, and counted; what
   * was found so far stands.
   */
  private stop(): void {
    this.stopped = true;
    const left = new Set<number>(this.queue);
    this.queue = [];
    for (const slot of this.slots) {
      for (const b of slot.inflight) for (const i of b.index.slice(b.answered ?? 0)) left.add(i);
      this.pending -= slot.inflight.length;
      slot.inflight = [];
      endWorker(slot.worker);
    }
    this.slots = [];
    for (const i of [...left].sort((x, y) => x - y)) {
      this.notSearched++;
      this.complete(i, undefined);
    }
  }

  /** Terminates a thread whose current file has run past the budget and requeues its work. */
  private watch(): void {
    if (this.signal?.aborted && !this.failed) {
      // Its threads are ended by close(): busy ones are never kept.
      this.fail?.(cancelledError(TOOL));
      return;
    }
    const now = Date.now();
    for (const slot of [...this.slots]) {
      const pos = slot.state[1] as number;
      if (pos < 0 || now - (slot.state[2] as number) <= this.timeoutMs) continue;
      const current = slot.inflight.find((b) => b.id === slot.state[0]);
      if (!current) continue;
      const stuck = current.index[pos] as number;
      // Pieces of it came: its regex has run, what is left ends (and some of it was passed on).
      if (this.pieced.has(stuck)) continue;
      for (const i of current.index.slice(current.answered ?? 0, pos)) this.solo.add(i);
      this.complete(stuck, {
        i: stuck,
        count: 0,
        skip: { reason: "timeout", detail: `search exceeded the ${this.timeoutMs} ms budget per file (--timeout)` },
      });
      // A batch's results arrive whole, so its other files (and any queued batch) start over.
      const redo = slot.inflight.flatMap((b) => b.index.slice(b.answered ?? 0)).filter((i) => i !== stuck);
      // A file searched again sends its matches from the first again: those already taken are dropped.
      for (const i of redo) {
        const taken = this.pieced.get(i);
        if (taken !== undefined) this.skip.set(i, taken);
      }
      this.pending -= slot.inflight.length;
      slot.inflight = [];
      // Kept ascending (two threads stuck at once requeue interleaved positions): the next file
      // to deliver, when queued, must be at the head (see feed).
      this.queue = [...redo, ...this.queue].sort((x, y) => x - y);
      this.slots = this.slots.filter((s) => s !== slot);
      endWorker(slot.worker);
      if (++this.timeouts >= STOP_AFTER_TIMEOUTS) {
        this.stop();
        break;
      }
      this.feed(this.spawn());
    }
    this.check();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const slots = this.slots;
    this.slots = [];
    const ending: Promise<number>[] = [];
    for (const s of slots) {
      // A long-lived process keeps idle threads for the next search; one still busy (a failed
      // search) is ended, since its late answers would reach the next search.
      if (this.cache && s.inflight.length === 0 && idleWorkers.length < availableParallelism()) keepIdle(s.worker);
      else ending.push(s.worker.terminate());
    }
    await Promise.all(ending);
  }
}

/** Search threads between searches (warm cache only): unreferenced, so they never hold a process open. */
const idleWorkers: Worker[] = [];

/** Only ours: Worker keeps internal listeners (its port's ref-counting) that must stay. */
function dropListeners(w: Worker): void {
  for (const ev of ["message", "error", "exit"]) w.removeAllListeners(ev);
}

/** Ends a thread whose late answers and exit no longer concern the search. */
function endWorker(w: Worker): void {
  dropListeners(w);
  w.on("error", () => undefined);
  void w.terminate();
}

function keepIdle(w: Worker): void {
  dropListeners(w);
  w.on("error", () => undefined);
  w.once("exit", () => {
    const at = idleWorkers.indexOf(w);
    if (at !== -1) idleWorkers.splice(at, 1);
  });
  w.unref();
  idleWorkers.push(w);
}
