#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** llmastsearch CLI: argv -> SearchRequest -> search() -> query envelope on stdout. */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { findWorkspaceRoot, searchScope, toRelative } from "../text/root.js";
import { languageByName, LANGUAGES } from "../lang/registry.js";
import { CODES, code, TOOL } from "../tools/llmastsearch/codes.js";
import { search, type MatchSink } from "../tools/llmastsearch/search.js";
import { queryEnvelope } from "../contract/envelope.js";
import { stdoutWriter } from "./stdout.js";
import { LIST_MARK, ListStream } from "./stream.js";
import { baseProgram, collect, intOption, runCli } from "./run.js";

const program = baseProgram(TOOL, "Tree-sitter query search with exact byte spans for every match and capture.")
  .argument("[paths...]", "files or directories to search (default: the current directory, or the root when the current directory is outside it); without --query, a first argument written as a query ('(identifier) @i') is the query")
  .option("-q, --query <query>", "tree-sitter query, e.g. '(function_item name: (identifier) @name)'")
  .option("--query-file <path>", "read the query from this file (.scm)")
  .option("-g, --glob <glob>", "include files matching this glob, or exclude with !glob (ripgrep semantics; repeatable)", collect, [])
  .option("-f, --file <path>", "search this file (repeatable; same as a positional path)", collect, [])
  .option("--root <dir>", "workspace root: file_path values are relative to it (default: enclosing git work tree, else the current directory)")
  .option(
    "-l, --language <lang>",
    `search only files of this language, and parse files named with --file as it whatever their extension: ${LANGUAGES.map((l) => l.id).join(", ")} (default: each file by its extension; a query over several languages runs only where it compiles)`,
  )
  .option("-c, --capture <name>", "keep only this capture, and only matches that have it; the match span is then the capture's")
  .option("--limit <n>", "report at most this many matches (in path, then offset order); partial:true and exit 4 when it cut", intOption(TOOL, "--limit", 1))
  .option("-C, --context <n>", "lines of context before and after each match (context_before/context_after)", intOption(TOOL, "--context", 0), 0)
  .option("--hidden", "search hidden files and directories too")
  .option("--no-ignore", "do not respect .gitignore, .ignore, .rgignore or .git/info/exclude")
  .option("--timeout <ms>", "time budget per file in milliseconds, of the parse and of the query engine each (default 10000); a file over it is skipped and the answer is partial", intOption(TOOL, "--timeout", 1))
  .option("-j, --threads <n>", "threads to use, the main one included (default: the machine's cores, at most 4; -j 1 uses least memory)", intOption(TOOL, "--threads", 1))
  .addHelpText(
    "after",
    `
Output: one JSON document (the query envelope; data = {file_path?, language?, query, matches[{match_id,
span, pattern_index, captures[{name, byte_start, byte_end, content, span}], file_path, language}],
match_count, total_matches, files_searched, files_with_matches, languages}).
Predicates: #eq? #not-eq? #match? #not-match? #any-of? (and their any-/not- forms).
Exit codes: 0 success (also no matches: diagnostics say why), 1 failure (e.g. a query that does not
compile: the code names the fault and the span points into the query), 2 invalid arguments,
4 partial (--limit cut the list, or a file ran past --timeout).`,
  );

interface Opts {
  query?: string;
  queryFile?: string;
  glob: string[];
  file: string[];
  root?: string;
  language?: string;
  capture?: string;
  limit?: number;
  context: number;
  hidden?: boolean;
  ignore: boolean;
  threads?: number;
  timeout?: number;
}

// Without top-level await, so that the build can bundle this entry as CommonJS (see scripts/bundle.ts);
// runCli reports every failure itself.
void runCli(program, TOOL, { kind: "query", command: "search" }, async (p) => {
  const o = p.opts<Opts>();
  const root = findWorkspaceRoot(TOOL, o.root);
  // `llmastsearch '(identifier) @i' src/`, as ast-grep and ripgrep take their pattern first: a
  // first argument that is written as a query and names no file is the query.
  const args = [...p.args];
  if (o.query === undefined && o.queryFile === undefined && args.length > 0 && /^\s*[([]/.test(args[0] as string) && !existsSync(resolve(args[0] as string))) {
    o.query = args.shift();
  }
  if ((o.query === undefined) === (o.queryFile === undefined)) {
    throw new ToolError({
      code: code(CODES.query_missing),
      error: "query_missing",
      message: o.query === undefined ? "no query: pass --query, --query-file, or the query as the first argument" : "pass either --query or --query-file, not both",
      remediation: 'e.g. llmastsearch --query "(function_item name: (identifier) @name)" --glob "**/*.rs"',
      exitCode: EXIT.usage,
    });
  }
  let source;
  if (o.queryFile !== undefined) {
    const abs = resolve(o.queryFile);
    let text: string;
    try {
      text = readFileSync(abs, "utf8");
    } catch (e) {
      throw new ToolError({
        code: commonCode(TOOL, "file_not_found"),
        error: "query_file_unreadable",
        message: `cannot read --query-file ${o.queryFile}: ${(e as Error).message}`,
        remediation: "Pass --query-file an existing, readable .scm file.",
        exitCode: EXIT.usage,
      });
    }
    const rel = toRelative(root, abs);
    source = { text, origin: rel.startsWith("..") ? abs : rel };
  } else {
    source = { text: o.query as string, origin: "<query>" };
  }
  let language;
  if (o.language !== undefined) {
    const info = languageByName(o.language);
    if (!info) {
      throw new ToolError({
        code: code(CODES.unknown_language),
        error: "unknown_language",
        message: `unknown language '${o.language}'`,
        remediation: `Languages with a grammar: ${LANGUAGES.map((l) => l.id).join(", ")}.`,
        exitCode: EXIT.usage,
      });
    }
    language = info.id;
  }
  let paths = [...args, ...o.file];
  if (paths.length === 0) paths = searchScope(root);
  // Matches are written as they are found, to a spool: memory stays flat however long the
  // answer, and `partial`, which precedes them in the envelope, is known only at the end (a later
  // file's parse or matching may run past --timeout). This run's stdout, taken now: inside the
  // daemon it is the request's (src/server/context.ts), and matches reach the stream from
  // worker-message callbacks.
  const stream = new ListStream(Boolean(p.opts<{ pretty?: boolean }>().pretty), stdoutWriter(), { spool: true });
  let envelope: Record<string, unknown> | undefined;
  const sink: MatchSink = {
    open: (head, partial) => {
      envelope = queryEnvelope(TOOL, "search", { ...head, matches: [LIST_MARK] }, { partial });
      stream.open(envelope);
    },
    write: (matches) => stream.write(matches),
  };
  const request = {
    root,
    query: source,
    paths,
    globs: o.glob,
    language,
    capture: o.capture,
    limit: o.limit,
    context: o.context,
    hidden: o.hidden,
    noIgnore: !o.ignore,
    threads: o.threads,
    timeoutMs: o.timeout,
  };
  let res: Awaited<ReturnType<typeof search>>;
  try {
    res = await search(request, sink);
  } catch (e) {
    // Nothing is out yet (the matches were spooled): the failure is reported alone.
    stream.discard();
    throw e;
  }
  if (res.streamed && envelope) {
    // The same envelope (ids, time) that was opened; the list's place keeps the marker.
    envelope.data = { ...res.data, matches: [LIST_MARK] };
    envelope.partial = res.partial;
    if (res.diagnostics.length > 0) envelope.diagnostics = res.diagnostics;
    return { envelope, exitCode: res.partial ? EXIT.partial : EXIT.ok, stream };
  }
  return {
    envelope: queryEnvelope(TOOL, "search", res.data, { partial: res.partial, diagnostics: res.diagnostics }),
    exitCode: res.partial ? EXIT.partial : EXIT.ok,
  };
});
