/**
 * llmastsearch: a tree-sitter query over the files of a workspace, every match with exact byte
 * spans for the match and for each capture (seed 02 §4). Plain request -> response; the CLI
 * only renders it.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { cancelSignal, cancelledError } from "../../contract/cancel.js";
import { COMMON_CODES, commonCode } from "../../contract/codes.js";
import { EXIT, missingPathsRemediation, ToolError, missingPathsError } from "../../contract/errors.js";
import type { Diagnostic } from "../../contract/schema.js";
import { resolveInRoot } from "../../text/root.js";
import { excludedByRules, walkFiles } from "../../text/walk.js";
import { directoryGlobHint, globRefusal } from "../../text/glob-check.js";
import { isSharedHeader, languageForPath, languageInfo, languageOfFile, type LanguageId } from "../../lang/registry.js";
import { CODES, code, TOOL } from "./codes.js";
import { captureNames, compileQuery, nearest, requireCaptures, type QuerySource } from "./query.js";
import { compareMatches, DEFAULT_AST_TIMEOUT_MS, holdYoungGeneration, reclaim, scanFile, type AstMatch, type ScanFile, type ScanOptions, type ScanResult } from "./scan.js";
import type { WorkerJob, WorkerMessage } from "./worker.js";
import { type TreeCache, treeCache, warmLater } from "./warm.js";
import { warmCache } from "../../text/warm-cache.js";

export interface SearchRequest {
  /** Real absolute workspace root. */
  root: string;
  query: QuerySource;
  /** Files or directories (user spelling) to search; default the root. */
  paths?: string[];
  /** The directory relative paths are read from first (then the root), and `globs` matched from, as ripgrep's -g; default process.cwd(). */
  cwd?: string;
  globs?: string[];
  /** Parse every file as this language; else by extension. */
  language?: LanguageId;
  capture?: string;
  limit?: number;
  context?: number;
  hidden?: boolean;
  noIgnore?: boolean;
  /** Threads including the main one; default: see defaultThreads(), fewer for few files. */
  threads?: number;
  maxFileBytes?: number;
  /** The query engine's time budget per file (ms); see scan.ts DEFAULT_AST_TIMEOUT_MS. */
  timeoutMs?: number;
}

export interface SearchData {
  query: string;
  /** The language's display name, when one language was searched (seed 02 §4's single-file shape). */
  language?: string;
  /** The file, when exactly one file was searched. */
  file_path?: string;
  matches: AstMatch[];
  match_count: number;
  /** Matches found before --limit cut the list. */
  total_matches: number;
  files_searched: number;
  files_with_matches: number;
  /** Languages the query ran over (registry ids). */
  languages: string[];
}

export interface SearchResponse {
  data: SearchData;
  diagnostics: Diagnostic[];
  partial: boolean;
  /** The matches went to the sink (data.matches is empty): it was opened. */
  streamed: boolean;
}

/**
 * Takes the matches as they are found, in the answer's order (path, then offsets), so that a CLI
 * can write them at once instead of holding them all (src/cli/stream.ts). Opened before the first
 * match with the fields that precede the list and whether --limit cut it: without --limit at the
 * first match, with it once more than the limit were found (never when all fit in the limit: then
 * the matches come back in the response as usual).
 */
export interface MatchSink {
  open(head: Pick<SearchData, "file_path" | "language" | "query">, partial: boolean): void;
  write(matches: AstMatch[]): void;
}

export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Below this many files, starting a worker costs more than it saves. */
const PARALLEL_MIN_FILES = 24;

/**
 * Whether a symlink the walk passed over could have held something to search: one to a
 * directory, or to a file whose name has a grammar (of `language`, when one is asked for). cli's
 * `docs/CODE_OF_CONDUCT.md -> ../CODE_OF_CONDUCT.md` gave "1 symlink(s) ... were not followed" on
 * every Go search, naming nothing: a link the search would never have parsed is no news.
 */
function symlinkMayHold(root: string, rel: string, language: LanguageId | undefined): boolean {
  let isDir: boolean;
  try {
    isDir = statSync(join(root, rel)).isDirectory();
  } catch {
    return false; // dangling: nothing to search
  }
  if (isDir) return true;
  const lang = languageForPath(rel);
  if (!lang) return false;
  // A `.h` is C or C++ by its content: either may be asked for.
  return language === undefined || lang.id === language || (isSharedHeader(rel) && (language === "c" || language === "cpp"));
}

/**
 * The links of `links` whose target the walk did not reach itself: ripgrep's `HomebrewFormula ->
 * pkg/brew` (and go-task's `src/shared -> ../shared`) point inside the root at a directory the
 * walk searched anyway, so "not followed ... name the path the link points to" sent an agent to
 * search again what it had. A target outside the root, ignored or hidden stays news.
 */
/**
 * When the walk found no file: the files the ignore rules and the hidden-file rule kept out under
 * the same paths and globs, as llmsearch says it. Naming the files works over MCP too, whose
 * llmastsearch has no hidden / no_ignore.
 */
function excludedFiles(req: SearchRequest, explicit: string[]): string[] {
  return excludedByRules({ root: req.root, start: explicit, globs: req.globs, cwd: req.cwd ?? process.cwd(), hidden: req.hidden, noIgnore: req.noIgnore }, (it) => `as does naming ${it} as a path`);
}

function notReached(root: string, links: string[], walked: readonly { rel: string }[]): string[] {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return links;
  }
  const targets = new Map<string, string>();
  for (const link of links) {
    try {
      const rel = relative(realRoot, realpathSync(join(root, link)));
      if (rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep)) targets.set(link, rel.split(sep).join("/"));
    } catch {
      // unreadable now: keep it
    }
  }
  if (targets.size === 0) return links;
  const rels = walked.map((e) => e.rel);
  return links.filter((link) => {
    const t = targets.get(link);
    return t === undefined || !rels.some((r) => r === t || r.startsWith(`${t}/`));
  });
}

function diag(level: Diagnostic["level"], num: string, message: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { tool: TOOL, level, message, code: code(num), ...extra };
}

/**
 * A worker thread costs ~20 MB of RSS under the bin's V8 lite mode (its own isolate, module graph,
 * malloc arena and parse working set). Issue 18's goals (<= 64 MB, <= 1.5x ast-grep's time) meet
 * only at the edge with one thread: typeorm's class query took 0.72-0.77 s (1.4-1.6x) at 60 MB,
 * and 0.48 s (1.0x) at 81 MB with 2. The default is the one that meets the time goal with room.
 * Start-up and the walk (~0.2 s of it) do not divide, so past 4 threads each would save little
 * for its memory.
 */
export function defaultThreads(): number {
  return Math.min(availableParallelism(), 4);
}

function startWorkers(n: number): Worker[] {
  const url = new URL("./worker.js", import.meta.url);
  return Array.from({ length: n }, () => new Worker(url));
}

export async function search(req: SearchRequest, sink?: MatchSink): Promise<SearchResponse> {
  const diagnostics: Diagnostic[] = [];
  const context = req.context ?? 0;
  const maxFileBytes = req.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (req.query.text.trim().length === 0) {
    throw new ToolError({
      code: code(CODES.query_missing),
      error: "query_missing",
      message: "the query is empty",
      remediation: 'Pass --query "(function_item name: (identifier) @name)" or --query-file q.scm.',
      exitCode: EXIT.usage,
    });
  }
  const defined = captureNames(req.query.text);
  if (req.capture !== undefined && !defined.includes(req.capture)) {
    throw new ToolError({
      code: code(CODES.query_capture),
      error: "query_unknown_capture",
      message: `--capture ${req.capture}: the query defines no capture @${req.capture}`,
      remediation: defined.length
        ? `Captures in the query: ${defined.map((c) => `@${c}`).join(", ")}; closest: ${nearest(req.capture, defined, 1).join("")}.`
        : "The query defines no capture; add one, e.g. (function_item) @fn, then --capture fn.",
      exitCode: EXIT.usage,
    });
  }
  for (const g of req.globs ?? []) {
    const refused = globRefusal(g, "--glob");
    if (refused !== undefined) throw new ToolError({ code: code(CODES.glob_syntax), error: "glob_syntax", ...refused, exitCode: EXIT.usage });
  }
  // A named language is checked before any file is read: a broken query fails fast.
  if (req.language) requireCaptures(req.query, compileQuery(req.language, req.query));

  const cache = warmCache();
  // Every change saved before this search is in the cache once this resolves (else: stats).
  const settled = cache ? await cache.settle(req.root) : false;
  let trustWas: number | undefined;
  const leave = (): void => {
    if (cache && trustWas !== undefined) cache.leave(trustWas);
    trustWas = undefined;
  };
  // A path that is not there is said, as rg and ast-grep say it: beside others that are (which
  // are searched) a warning and a partial answer; alone, an error, never an empty success.
  const missing: string[] = [];
  const explicit = (req.paths ?? []).flatMap((p) => {
    const abs = resolveInRoot(TOOL, req.root, p, req.cwd).abs;
    if (existsSync(abs)) return [abs];
    missing.push(p);
    return [];
  });
  if (missing.length > 0 && explicit.length === 0) throw missingPathsError(TOOL, missing);
  if (missing.length > 0) {
    diagnostics.push(
      diag("warning", COMMON_CODES.file_not_found, `no such file or directory: ${missing.join(", ")} (the other paths were searched)`, { remediation: missingPathsRemediation(missing) }),
    );
  }
  const threadsWanted = Math.max(1, req.threads ?? defaultThreads());
  const explicitFilesOnly = explicit.length > 0 && explicit.length < PARALLEL_MIN_FILES && explicit.every((p) => languageForPath(p) !== undefined);
  const trees = treeCache();
  // Start the workers now so their module loading overlaps the walk; ended if not needed. Warm,
  // most trees are usually kept: workers start after the walk, only for enough files to parse.
  const workers = threadsWanted > 1 && !explicitFilesOnly && !trees ? startWorkers(threadsWanted - 1) : [];
  const releaseYoung = holdYoungGeneration();
  try {
    const symlinks: string[] = [];
    const specials: string[] = [];
    // From the walk to the scan of kept trees all is synchronous: the cache may trust its watcher.
    trustWas = cache?.enter(settled);
    const walked = walkFiles({
      root: req.root,
      start: explicit,
      globs: req.globs,
      cwd: req.cwd ?? process.cwd(),
      hidden: req.hidden,
      noIgnore: req.noIgnore,
      cache,
      onSkip: (rel, why) => {
        if (why === "symlink" && symlinkMayHold(req.root, rel, req.language)) symlinks.push(rel);
        else if (why === "special") specials.push(rel);
      },
    });
    const unfollowed = symlinks.length > 0 ? notReached(req.root, symlinks, walked) : symlinks;
    const explicitSet = new Set(explicit);
    const files: ScanFile[] = [];
    let noGrammar = 0;
    let otherLanguage = 0;
    const noGrammarSample: string[] = [];
    const namedWithoutGrammar: string[] = [];
    for (const e of walked) {
      // A `.h` is C or C++ by its content, as magellan reads it.
      const detected = languageOfFile(e.rel, e.abs);
      let lang: LanguageId | undefined;
      if (req.language) {
        if (detected?.id === req.language || explicitSet.has(e.abs)) lang = req.language;
        else if (detected) otherLanguage++;
        else noGrammar++;
      } else if (detected) lang = detected.id;
      else {
        noGrammar++;
        if (noGrammarSample.length < 3) noGrammarSample.push(e.rel);
        if (explicitSet.has(e.abs)) namedWithoutGrammar.push(e.rel);
      }
      if (lang) files.push({ abs: e.abs, rel: e.rel, language: lang });
    }

    // One query may run over several languages only where it compiles; say what was skipped.
    const byLanguage = new Map<LanguageId, number>();
    for (const f of files) byLanguage.set(f.language, (byLanguage.get(f.language) ?? 0) + 1);
    const failures: { lang: LanguageId; files: number; err: ToolError }[] = [];
    const usable = new Set<LanguageId>();
    for (const [lang, count] of [...byLanguage].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
      try {
        const c = compileQuery(lang, req.query);
        requireCaptures(req.query, c);
        usable.add(lang);
        if (c.uncaptured.length > 0) {
          diagnostics.push(
            diag("warning", CODES.query_no_captures, `pattern(s) ${c.uncaptured.join(", ")} capture nothing; their matches cannot be located and are not reported`, {
              remediation: "Add a capture (@name) to each pattern whose matches you want back.",
            }),
          );
        }
      } catch (e) {
        if (!(e instanceof ToolError)) throw e;
        failures.push({ lang, files: count, err: e });
      }
    }
    if (usable.size === 0 && failures.length > 0) {
      const first = failures[0] as (typeof failures)[number];
      if (failures.length === 1) throw first.err;
      throw new ToolError({
        code: first.err.code,
        error: first.err.error,
        message: `the query compiles for none of the languages searched (${failures.map((f) => languageInfo(f.lang).name).join(", ")}): ${first.err.message}`,
        remediation: `${first.err.remediation ?? ""} Restrict the files with --glob or --language to the language the query is written for.`.trim(),
        file: first.err.file,
        span: first.err.span,
        exitCode: EXIT.failure,
      });
    }
    for (const f of failures) {
      diagnostics.push(
        diag("warning", CODES.language_skipped, `${f.files} ${languageInfo(f.lang).name} file(s) skipped: the query does not compile for ${languageInfo(f.lang).name}: ${f.err.message}`, {
          note: f.err.code,
          remediation: f.err.remediation,
          span: f.err.span,
        }),
      );
    }
    // The answer's order is the files' (path, then offsets): scanned in it, they can be delivered as they end.
    const todo = files.filter((f) => usable.has(f.language)).sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    const langs = [...usable].sort();
    // In the answer's order (orderData): the sink writes them before the list.
    const head = {
      ...(todo.length === 1 ? { file_path: (todo[0] as ScanFile).rel } : {}),
      ...(langs.length === 1 ? { language: languageInfo(langs[0] as LanguageId).name } : {}),
      query: req.query.text,
    };

    const limit = req.limit;
    const held: AstMatch[] = [];
    const skipped = new Map<string, string[]>();
    let searched = 0;
    let withMatches = 0;
    let total = 0;
    let opened = false;
    const recovered: string[] = [];
    const take = (r: ScanResult): void => {
      if (!r.ok) {
        const list = skipped.get(r.reason) ?? [];
        list.push(r.rel);
        skipped.set(r.reason, list);
        return;
      }
      searched++;
      if (r.matches.length === 0) return;
      withMatches++;
      if (r.recovered) recovered.push(`${r.rel} (${r.recovered})`);
      r.matches.sort(compareMatches);
      for (const m of r.matches) {
        total++;
        if (limit === undefined || total <= limit) held.push(m);
      }
      if (!sink) return;
      if (!opened && (limit === undefined || total > limit)) {
        sink.open(head, limit !== undefined || missing.length > 0);
        opened = true;
      }
      if (opened && held.length > 0) {
        sink.write(held);
        held.length = 0;
      }
    };

    const timeoutMs = req.timeoutMs ?? DEFAULT_AST_TIMEOUT_MS;
    const opts: ScanOptions = { source: req.query, capture: req.capture, context, maxFileBytes, timeoutMs };
    // The daemon's client or the MCP client went away (src/contract/cancel.ts): no file is begun after that.
    const signal = cancelSignal();
    if (trees) {
      // Kept trees are matched here and now; the rest are parsed, by threads when they are many.
      const hot: ScanFile[] = [];
      const cold: ScanFile[] = [];
      for (const f of todo) (trees.has(f.abs, f.language) ? hot : cold).push(f);
      const byRel = new Map<string, ScanResult>();
      // Under the watcher's trust, which holds only until the next await. A caller that can go
      // gets the kept trees matched here for 50 ms at most, and the rest between events, where
      // its going stops them: a combinatorial query over 16 MB of kept source runs each file to
      // its --timeout, minutes with nobody to answer (a save meanwhile only costs a re-parse).
      const until = signal === undefined ? Infinity : performance.now() + 50;
      let h = 0;
      for (; h < hot.length && performance.now() < until; h++) byRel.set((hot[h] as ScanFile).rel, scanFile(hot[h] as ScanFile, opts, trees));
      leave();
      if (h < hot.length) await runParallel(hot.slice(h), opts, [], (r) => byRel.set(r.rel, r), trees, signal);
      if (threadsWanted > 1 && cold.length >= PARALLEL_MIN_FILES) workers.push(...startWorkers(threadsWanted - 1));
      await runParallel(cold, opts, workers, (r) => byRel.set(r.rel, r), trees, signal);
      for (const f of todo) take(byRel.get(f.rel) as ScanResult);
      // Trees parsed by threads were not kept: parse them here between requests, once.
      const noMatches: ScanOptions = { ...opts, context: 0 };
      for (const f of cold) if (!trees.has(f.abs, f.language)) warmLater(f.abs, f.language, () => void scanFile(f, noMatches, trees));
    } else {
      leave();
      await runParallel(todo, opts, workers, take, undefined, signal);
    }
    const cut = limit !== undefined && total > limit;
    // A file whose parse or matching ran out of time is one whose matches are missing.
    const partial = cut || skipped.has("timeout") || skipped.has("parse_timeout") || missing.length > 0;
    const matches = opened ? [] : held;

    for (const [reason, list] of [...skipped].sort()) {
      const why =
        {
          binary: "binary (NUL byte)",
          too_large: `larger than ${maxFileBytes} bytes`,
          unreadable: "unreadable",
          parse_failed: "the parser failed",
          parse_timeout: `tree-sitter's parse ran past the ${timeoutMs} ms budget per file (--timeout; its error recovery can take that long on text it cannot read, such as a language newer than its grammar or a file that is not code)`,
          timeout: `the query ran past the ${timeoutMs} ms budget per file (--timeout; wildcard siblings like (_) @a (_) @b make matching combinatorial: anchor them or name their node types)`,
        }[reason] ?? reason;
      diagnostics.push(
        diag("warning", CODES.files_skipped, `${list.length} file(s) skipped, ${why}: ${list.slice(0, 5).join(", ")}${list.length > 5 ? ", ..." : ""}`, {
          code: reason === "binary" ? commonCode(TOOL, "binary_file") : reason === "too_large" ? commonCode(TOOL, "file_too_large") : code(CODES.files_skipped),
        }),
      );
    }
    if (specials.length > 0) {
      diagnostics.push(diag("warning", CODES.files_skipped, `${specials.length} path(s) skipped, not a regular file (a FIFO, socket or device), not read: ${specials.slice(0, 5).join(", ")}`));
    }
    if (unfollowed.length > 0) {
      diagnostics.push(
        diag("note", CODES.files_skipped, `${unfollowed.length} symlink(s) met during the walk were not followed: ${unfollowed.slice(0, 5).join(", ")}${unfollowed.length > 5 ? ", ..." : ""}`, {
          remediation: "llmastsearch does not follow symbolic links met in a walk; name the file or directory a link points to (inside the root) to search it.",
        }),
      );
    }
    // (A query that asks for ERROR or MISSING nodes knows.)
    if (recovered.length > 0 && !/\b(ERROR|MISSING)\b/.test(req.query.text)) {
      diagnostics.push(
        diag("warning", CODES.recovered, `matches in ${recovered.length} file(s) hold or lie in code tree-sitter could not parse, so their nodes are its error recovery's guess (one may span what the compiler reads as several): ${recovered.slice(0, 5).join(", ")}${recovered.length > 5 ? ", ..." : ""}`, {
          remediation: "Check those matches against the source; the query '(ERROR) @e' on those files shows where parsing failed.",
        }),
      );
    }
    if (cut) {
      diagnostics.push(
        diag("note", CODES.limit_reached, `--limit ${limit} reached: ${limit} of ${total} matches shown`, {
          remediation: "Raise --limit, or narrow the search with --glob or a more specific query.",
        }),
      );
    }
    if (total === 0) {
      let why: string;
      if (walked.length === 0) {
        const excluded = excludedFiles(req, explicit);
        const hint = directoryGlobHint(req.globs ?? [], [req.cwd ?? process.cwd()]);
        why =
          excluded.length > 0
            ? `no file to search: ${excluded.join("; ")}`
            : `no file matched the paths and --glob patterns (${hint ? `${hint}; ` : ""}ignored and hidden files are left out; see --hidden, --no-ignore)`;
      }
      else if (files.length === 0)
        why = req.language
          ? `none of the ${walked.length} file(s) is ${languageInfo(req.language).name} (${otherLanguage} of another language, ${noGrammar} without a grammar); pass --file to force one`
          : `none of the ${walked.length} file(s) has a language with a grammar (e.g. ${noGrammarSample.join(", ")})`;
      else if (todo.length === 0) why = "the query compiles for none of the languages of the files found";
      else why = `the query matched nothing in ${searched} file(s)${skipped.size ? " (some files were skipped, see above)" : ""}`;
      diagnostics.push(diag("note", CODES.empty_result, `no matches: ${why}`));
    }
    if (namedWithoutGrammar.length > 0) {
      // A file the user named and we could not search is worth a warning even when others matched.
      diagnostics.push(
        diag("warning", CODES.unknown_language, `not searched, no grammar for the extension: ${namedWithoutGrammar.join(", ")}`, {
          remediation: "Pass --language to parse them as one of the registry's languages.",
        }),
      );
    }

    const data: SearchData = {
      ...head,
      matches,
      match_count: opened ? Math.min(total, limit ?? total) : matches.length,
      total_matches: total,
      files_searched: searched,
      files_with_matches: withMatches,
      languages: langs,
    };
    return { data: orderData(data), diagnostics, partial, streamed: opened };
  } finally {
    releaseYoung();
    for (const w of workers) void w.terminate();
    leave();
  }
}

/** Seed 02 §4 lists file_path, language, query first; keep that order for readers. */
function orderData(d: SearchData): SearchData {
  const out: Partial<SearchData> = {};
  if (d.file_path !== undefined) out.file_path = d.file_path;
  if (d.language !== undefined) out.language = d.language;
  out.query = d.query;
  out.matches = d.matches;
  out.match_count = d.match_count;
  out.total_matches = d.total_matches;
  out.files_searched = d.files_searched;
  out.files_with_matches = d.files_with_matches;
  out.languages = d.languages;
  return out as SearchData;
}

/**
 * Main thread and workers take files from one shared counter, in the list's order; each result is
 * handed to `deliver` in that order too (a result that ends early waits for those before it).
 * Throws the cancelled error once `signal` is set, after the files already begun.
 */
async function runParallel(files: ScanFile[], opts: ScanOptions, workers: Worker[], deliver: (r: ScanResult) => void, trees?: TreeCache, signal?: AbortSignal): Promise<void> {
  // The signal is set from an event (the client's socket closing): with a caller that can go,
  // the loop lets events in at least every 50 ms, not only when reclaim() does (by bytes parsed,
  // and a slow query over small files parses few).
  let turned = performance.now();
  const turn = async (): Promise<void> => {
    if (signal === undefined || performance.now() - turned < 50) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    turned = performance.now();
  };
  if (files.length < PARALLEL_MIN_FILES || workers.length === 0) {
    for (const f of files) {
      if (signal?.aborted) break;
      deliver(scanFile(f, opts, trees));
      await reclaim();
      await turn();
    }
    if (signal?.aborted) throw cancelledError(TOOL);
    return;
  }
  // [0]: the next file to take; [1]: the next result to deliver, which workers stay within
  // WORKER_WINDOW files of, so results waiting for an earlier one stay few (see worker.ts);
  // [2]: workers waiting for [1] to move.
  const counter = new SharedArrayBuffer(12);
  const shared = new Int32Array(counter);
  const early = new Map<number, ScanResult>();
  let next = 0;
  const put = (i: number, r: ScanResult): void => {
    if (i !== next) {
      early.set(i, r);
      return;
    }
    deliver(r);
    for (next++; early.has(next); next++) {
      const e = early.get(next) as ScanResult;
      early.delete(next);
      deliver(e);
    }
    Atomics.store(shared, 1, next);
    Atomics.notify(shared, 1);
  };
  const job: WorkerJob = { files, counter, opts };
  const pending = workers.map(
    (w) =>
      new Promise<void>((resolve, reject) => {
        w.on("message", (m: WorkerMessage) => {
          if (m.done) resolve();
          else put(m.i, m.r);
        });
        w.once("error", reject);
        w.once("exit", (c) => {
          if (c !== 0) reject(new Error(`llmastsearch worker exited with code ${c}`));
        });
      }),
  );
  for (const w of workers) w.postMessage(job);
  for (;;) {
    if (signal?.aborted) {
      // The workers take no file after their current one either.
      Atomics.store(shared, 0, files.length);
      break;
    }
    const i = Atomics.add(shared, 0, 1);
    if (i >= files.length) break;
    put(i, scanFile(files[i] as ScanFile, opts, trees));
    await reclaim();
    await turn();
    // A worker waits on results this thread has not taken in: take them (a turn of the event loop).
    if (Atomics.load(shared, 2) > 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await Promise.all(pending);
  if (signal?.aborted) throw cancelledError(TOOL);
}
