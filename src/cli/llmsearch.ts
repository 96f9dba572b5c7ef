#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * llmsearch CLI: argv -> SearchRequest -> search() -> query envelope on stdout, exit code.
 * All logic lives in src/tools/llmsearch/.
 */
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { TOOL } from "../tools/llmsearch/codes.js";
import { DEFAULT_TIMEOUT_MS, fileTypes, listFiles, search } from "../tools/llmsearch/search.js";
import { anyOf } from "../tools/llmsearch/pattern.js";
import { FILE_TYPES } from "../tools/llmsearch/types.js";
import { queryEnvelope } from "../contract/envelope.js";
import { findWorkspaceRoot, searchScope } from "../text/root.js";
import { stdoutWriter } from "./stdout.js";
import { LIST_MARK, ListStream } from "./stream.js";
import { baseProgram, collect, intOption, Option, runCli } from "./run.js";

/** rg-style sizes: 4096, 512K, 10M, 1G. */
function sizeOption(value: string): number {
  const m = /^(\d+)([KMG]?)$/i.exec(value.trim());
  if (!m) {
    throw new ToolError({
      code: commonCode(TOOL, "usage"),
      error: "invalid_arguments",
      message: `--max-filesize expects a size like 4096, 512K, 10M or 1G, got '${value}'`,
      remediation: "Pass a number of bytes, optionally with a K, M or G suffix.",
      exitCode: EXIT.usage,
    });
  }
  const mult = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(m[2] as string).toUpperCase() as "" | "K" | "M" | "G"];
  return Number(m[1]) * mult;
}

const program = baseProgram(
  TOOL,
  "Search files for a regular expression like ripgrep, and print every match with its exact byte span (UTF-8 offsets into the file as stored), line/column, stable ids and context lines as one JSON document.",
)
  .argument("[pattern-and-paths...]", "PATTERN [PATH...] as ripgrep takes them: the pattern first unless -e gives it, then files or directories inside the workspace root (default, as ripgrep: the current directory, or the whole root when the current directory is the root or outside it)")
  .option("-e, --pattern <regex>", "the pattern (JavaScript RegExp in Unicode mode; ripgrep habits such as (?i), \\A, \\z, [[:alpha:]], \\pL are translated); repeatable: a match of any of them, as rg -e a -e b", collect, [])
  .option("-S, --smart-case", "case-insensitive unless the pattern has an uppercase letter (ripgrep -S)")
  .option("-s, --case-sensitive", "match case-sensitively (the default); the last of -i, -S and -s given wins, as in ripgrep")
  .option("-t, --type <type>", `search only files of this ripgrep type (repeatable): any of the ${Object.keys(FILE_TYPES).length} of ripgrep 13's --type-list (c, cpp, go, java, js, py, ruby, rust, sh, ts, ...); an unknown one is refused, listing them`, collect, [])
  .option("-T, --type-not <type>", "do not search files of this type (repeatable)", collect, [])
  .option("--type-add <def>", "as rg --type-add: define or extend a type for this run, 'name:glob' (one glob; repeat the flag for more) or 'name:include:type1,type2' (repeatable)", collect, [])
  .option("--type-list", "print the file types and their globs (with --type-add's), search nothing")
  .addOption(new Option("-r, --replace <text>").hideHelp())
  .option("-l, --files-with-matches", "print the files with a match (path, count, sha256 checksum) instead of the matches")
  .option("--files-without-match", "print the searched files without a match (rg --files-without-match), in path order")
  .option("--files", "print the files that would be searched (after ignore rules, globs, types), without searching; takes no pattern")
  .option("-F, --fixed-strings", "treat the pattern as literal text, not a regex")
  .option("-i, --ignore-case", "match case-insensitively (Unicode simple case folding)")
  .option("-w, --word", "only matches with no word character (Unicode \\w) right before or after (ripgrep -w, --word-regexp)")
  .addOption(new Option("--word-regexp").hideHelp())
  .option("-x, --line-regexp", "only matches that are a whole line (ripgrep -x); the later of -w and -x wins, as in ripgrep")
  .option("-v, --invert-match", "the lines without a match, each as a match spanning the line's text without its line terminator (ripgrep -v); with -c, --count-matches, -l and -m they are what is counted; not with -U and a pattern that can match a line feed")
  .option("-U, --multiline", "let matches span lines (ripgrep -U); without it no match crosses a line break and \\n in the pattern is refused")
  .option("-g, --glob <glob>", "include files matching this gitignore-style glob, or exclude with '!glob'; repeatable, later wins (ripgrep --glob)", collect, [])
  .option("--iglob <glob>", "as --glob, matched ignoring case (ripgrep --iglob); repeatable; as in ripgrep 13 every --iglob is applied after every --glob, whatever their order, so a matching --iglob decides", collect, [])
  .option("--max-depth <n>", "descend at most n directory levels below each path given (ripgrep --max-depth; 0: only the paths themselves, so a directory yields nothing)", intOption(TOOL, "--max-depth", 0))
  .option("-a, --text", "search binary files as text: a NUL byte neither stops the search nor lists the file as binary (ripgrep -a)")
  .option("--root <dir>", "workspace root; file paths in the output are relative to it (default: the enclosing git work tree, else the current directory)")
  .option("-C, --context <n>", "lines of context before and after each match", intOption(TOOL, "--context"))
  .option("-B, --before <n>", "lines of context before each match (overrides --context)", intOption(TOOL, "--before"))
  .option("-A, --after <n>", "lines of context after each match (overrides --context)", intOption(TOOL, "--after"))
  .option("-m, --max-count <n>", "per file, only the first n lines with a match, as rg -m (with -U and a pattern that can match a line feed, rg's runs of matches on touching lines); -c, --count-matches and -l count only those; not partial", intOption(TOOL, "--max-count", 1))
  .option("--limit <n>", "over all files, keep only the first n matches in path/offset order; total_count still counts all (partial: true, exit 4 when cut); no ripgrep equivalent", intOption(TOOL, "--limit", 1))
  .option("--max-filesize <size>", "skip files larger than this (bytes, or with K/M/G suffix); they are listed in files_skipped", sizeOption)
  .option("--hidden", "search hidden files and directories (names starting with '.'); .git is never searched")
  .option("--no-ignore", "do not respect .gitignore, .ignore, .rgignore and .git/info/exclude")
  .option("--no-ignore-vcs", "do not respect .gitignore, .git/info/exclude or git's global excludes; .ignore and .rgignore still apply (ripgrep --no-ignore-vcs)")
  .option("--no-ignore-dot", "do not respect .ignore files (ripgrep --no-ignore-dot)")
  .option("--no-ignore-exclude", "do not respect .git/info/exclude (ripgrep --no-ignore-exclude)")
  .option("--no-ignore-global", "do not respect git's global excludes file (ripgrep --no-ignore-global)")
  .option("-u, --unrestricted", "as rg -u: -u is --no-ignore, -uu adds --hidden, -uuu adds --text", (_v: string, n: number) => n + 1, 0)
  .option("-L, --follow", "follow symbolic links, to what lies inside the root (ripgrep -L); a link out of the root or back up to a directory above it is skipped")
  .option("--glob-case-insensitive", "match every --glob ignoring case, as --iglob (ripgrep --glob-case-insensitive)")
  .addOption(new Option("--sort <by>", "as rg --sort path: the answer is always in path order, so only path and none are taken").choices(["path", "none"]))
  .addOption(new Option("--sort-files").hideHelp())
  .option("--crlf", "accepted for ripgrep habits: every file is already searched as rg --crlf searches it ($ before \\r\\n, no match takes the \\r)")
  .option("-P, --pcre2", "accepted: the pattern is a JavaScript RegExp, which has what rg needs -P for (lookaround, backreferences); it is read as without -P")
  .option("-c, --count", "print per file the number of lines with a match (as rg -c) instead of the matches")
  .option("--count-matches", "print per file the number of matches (as rg --count-matches) instead of the matches")
  .option("--timeout <ms>", `time budget per file in milliseconds (default ${DEFAULT_TIMEOUT_MS}); a file over it is skipped with reason "timeout"; after 3 such files the search stops`, intOption(TOOL, "--timeout", 1))
  .option("-j, --threads <n>", "search threads (default: the number of CPUs)", intOption(TOOL, "--threads", 1))
  .option("-o, --only-matching", "accepted for ripgrep habits: every match is only the matched text already; with -c it counts matches, as rg -c -o does")
  // ripgrep's display flags: they change how rg prints, never what it finds, and this output is
  // always one JSON document with paths, line numbers and byte columns. Listed in the help below.
  .addOption(new Option("-n, --line-number").hideHelp())
  .addOption(new Option("-N, --no-line-number").hideHelp())
  .addOption(new Option("--heading").hideHelp())
  .addOption(new Option("--no-heading").hideHelp())
  .addOption(new Option("-H, --with-filename").hideHelp())
  .addOption(new Option("--no-filename").hideHelp())
  .addOption(new Option("--column").hideHelp())
  .addOption(new Option("--vimgrep").hideHelp())
  .addOption(new Option("--json").hideHelp())
  .addOption(new Option("--color <when>").choices(["never", "auto", "always", "ansi"]).hideHelp())
  .addOption(new Option("-0, --null").hideHelp())
  .addOption(new Option("--no-messages").hideHelp())
  .addOption(new Option("--no-config").hideHelp())
  .addOption(new Option("--max-columns <n>").hideHelp())
  .addOption(new Option("--max-columns-preview").hideHelp())
  .addOption(new Option("--stats").hideHelp())
  .addHelpText(
    "after",
    `
Output: {schema_version, execution_id, tool:"llmsearch", command:"search", timestamp, partial, data, diagnostics?}
  data: {pattern, matches[{match_id, span{span_id, file_path, byte_start, byte_end, start_line, start_col,
         end_line, end_col}, matched_text, context_before[], context_after[]}], match_count, total_count,
         files_searched, files_skipped[{file_path, reason: binary|too_large|unreadable|timeout, detail}]}
  Each match also carries file_checksum ("sha256:<hex>" of the file): llmtransform's expected_checksum.
  with -c or --count-matches: {pattern, count_of ("lines" | "matches"), counts[{file_path, count}], files_matched, total_count, files_searched, files_skipped}
  with -l: {pattern, files[{file_path, count, checksum}], files_matched, total_count, files_searched, files_skipped}
  with --files-without-match: {pattern, files_without_match[path...], file_count, files_searched, files_skipped}
  with --files: {files[path...], file_count}
  byte_start inclusive, byte_end exclusive; lines 1-based, columns 0-based bytes. Matches are in file path
  order, then by offset. Files are walked like ripgrep: .gitignore/.ignore/.rgignore respected, hidden files and
  symlinks skipped; a file with a NUL byte is binary: the matches before it are reported, and it is listed.

Accepted for ripgrep habits and ignored, since the output is always this JSON document with paths,
line numbers and byte columns (they change how rg prints, not what it finds): -n/--line-number,
-N/--no-line-number, --heading, --no-heading, -H/--with-filename, --no-filename, --column,
--vimgrep, --json (the document is llmsearch's, not rg's JSON Lines), --color <never|auto|always|ansi>,
-0/--null, --no-messages, --no-config (no config file is read), --max-columns <n>, --max-columns-preview,
--stats; also --sort-files (the answer is always in path order).

Exit codes:
  0  success, including no match (diagnostics then say why the result is empty)
  1  failure (a search thread died, an I/O error)
  2  usage: bad flags, invalid or unsupported pattern, path outside the root, missing path
  4  partial: --limit cut the matches, or a file ran past --timeout

Examples:
  llmsearch TODO -t rust
  llmsearch --pattern "TODO" --glob "**/*.rs"
  llmsearch -i -w --pattern "parse_?config" --context 2 src
  llmsearch -l -S 'fn main' src
  llmsearch --files -t ts
`,
  );

/**
 * ripgrep lets the last of some flags decide (-i/-S/-s; -w/-x), where commander keeps one value
 * per flag and not their order: the order is taken from commander's per-option events, which
 * fire as it parses argv left to right (combined short flags such as -is included).
 */
function lastGiven(flags: string[]): () => string | undefined {
  let last: string | undefined;
  for (const f of flags) program.on(`option:${f}`, () => (last = f));
  return () => last;
}
const caseFlag = lastGiven(["ignore-case", "smart-case", "case-sensitive"]);
const wordFlag = lastGiven(["word", "word-regexp", "line-regexp"]);

interface Options {
  pattern: string[];
  fixedStrings?: boolean;
  ignoreCase?: boolean;
  word?: boolean;
  invertMatch?: boolean;
  multiline?: boolean;
  glob: string[];
  iglob: string[];
  maxDepth?: number;
  text?: boolean;
  root?: string;
  context?: number;
  before?: number;
  after?: number;
  limit?: number;
  maxCount?: number;
  maxFilesize?: number;
  hidden?: boolean;
  ignore: boolean;
  ignoreVcs: boolean;
  ignoreDot: boolean;
  ignoreExclude: boolean;
  ignoreGlobal: boolean;
  unrestricted: number;
  globCaseInsensitive?: boolean;
  follow?: boolean;
  count?: boolean;
  countMatches?: boolean;
  onlyMatching?: boolean;
  smartCase?: boolean;
  type: string[];
  typeNot: string[];
  typeAdd: string[];
  typeList?: boolean;
  replace?: string;
  filesWithMatches?: boolean;
  filesWithoutMatch?: boolean;
  files?: boolean;
  timeout?: number;
  threads?: number;
}

// Without top-level await, so that the build can bundle this entry as CommonJS (see scripts/bundle.ts);
// runCli reports every failure itself.
void runCli(program, TOOL, { kind: "query", command: "search" }, async (p) => {
  const o = p.opts<Options>();
  // rg --glob-case-insensitive makes every --glob an --iglob; rg 13 adds the --iglob ones after them.
  const globs = o.globCaseInsensitive ? { globs: [], iglobs: [...o.glob, ...o.iglob] } : { globs: o.glob, iglobs: o.iglob };
  const ignoreOff = { vcs: !o.ignoreVcs, dot: !o.ignoreDot, exclude: !o.ignoreExclude, global: !o.ignoreGlobal };
  const walk = {
    root: o.root,
    ...globs,
    maxDepth: o.maxDepth,
    hidden: o.hidden || o.unrestricted >= 2,
    noIgnore: !o.ignore || o.unrestricted >= 1,
    ...(ignoreOff.vcs || ignoreOff.dot || ignoreOff.exclude || ignoreOff.global ? { ignoreOff } : {}),
    types: o.type,
    typesNot: o.typeNot,
    typeAdd: o.typeAdd,
    follow: o.follow,
  };
  if (o.replace !== undefined) {
    throw new ToolError({
      code: commonCode(TOOL, "usage"),
      error: "invalid_arguments",
      message: "-r/--replace: llmsearch finds and never rewrites text (rg -r only prints the replacement)",
      remediation: "Search without -r, then hand each match's span and file_checksum to llmtransform (or use splice) to replace it.",
      exitCode: EXIT.usage,
    });
  }
  if (o.typeList) {
    // As rg --type-list: every type and its globs, sorted, with this run's --type-add definitions.
    const types = Object.entries(fileTypes(o.typeAdd))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, globs]) => ({ name, globs: [...globs].sort() }));
    return { envelope: queryEnvelope(TOOL, "type-list", { types, type_count: types.length }, { partial: false }), exitCode: EXIT.ok };
  }
  if (o.files) {
    // As rg --files: every positional argument is a path, and there is no pattern.
    if (o.pattern.length > 0) {
      throw new ToolError({
        code: commonCode(TOOL, "usage"),
        error: "invalid_arguments",
        message: "--files lists files and takes no pattern",
        remediation: `Drop --pattern, e.g. ${TOOL} --files -t rust src.`,
        exitCode: EXIT.usage,
      });
    }
    const l = listFiles({ ...walk, paths: p.args.length > 0 ? p.args : searchScope(findWorkspaceRoot(TOOL, o.root)), maxFilesize: o.maxFilesize });
    return { envelope: queryEnvelope(TOOL, "files", l.data, { partial: l.partial, diagnostics: l.diagnostics }), exitCode: l.partial ? EXIT.partial : EXIT.ok };
  }
  // ripgrep's PATTERN [PATH...]: without -e the first positional argument is the pattern.
  const given = o.pattern.length > 0 ? anyOf(o.pattern, Boolean(o.fixedStrings)) : undefined;
  const pattern = given?.pattern ?? p.args[0];
  const named = given ? p.args : p.args.slice(1);
  // No path: the current directory, as ripgrep (when it lies inside the root).
  const paths = named.length > 0 ? named : searchScope(findWorkspaceRoot(TOOL, o.root));
  if (pattern === undefined) {
    throw new ToolError({
      code: commonCode(TOOL, "usage"),
      error: "invalid_arguments",
      message: "no pattern: pass it first (llmsearch PATTERN [PATH...]) or with --pattern",
      remediation: `Pass the regex to look for, e.g. ${TOOL} TODO -t rust, or ${TOOL} --pattern "TODO" --glob "**/*.rs".`,
      exitCode: EXIT.usage,
    });
  }
  // The matches are written as they come, to a spool: `partial` precedes them in the envelope and
  // is known only at the end (a later file may time out), and memory stays flat however long the
  // answer. This run's stdout, taken now (inside the daemon it is the request's, src/server/context.ts),
  // written synchronously: a pipe's reader may be slower than the spool is read.
  const stream = new ListStream(Boolean(p.opts<{ pretty?: boolean }>().pretty), stdoutWriter(), { spool: true });
  stream.open(queryEnvelope(TOOL, "search", { pattern, matches: [LIST_MARK] }, { partial: false }));
  const request = {
    ...walk,
    pattern,
    smartCase: caseFlag() === "smart-case",
    filesWithMatches: o.filesWithMatches,
    filesWithoutMatch: o.filesWithoutMatch,
    fixedStrings: given ? given.fixedStrings : o.fixedStrings,
    ignoreCase: caseFlag() === "ignore-case",
    word: wordFlag() === "word" || wordFlag() === "word-regexp",
    lineRegexp: wordFlag() === "line-regexp",
    multiline: o.multiline,
    invert: o.invertMatch,
    text: o.text || o.unrestricted >= 3,
    paths,
    before: o.before ?? o.context,
    after: o.after ?? o.context,
    limit: o.limit,
    maxCount: o.maxCount,
    maxFilesize: o.maxFilesize,
    count: o.count,
    // rg -c -o counts matches, not lines.
    countMatches: o.countMatches || (o.count && o.onlyMatching),
    timeoutMs: o.timeout,
    threads: o.threads,
  };
  let r: Awaited<ReturnType<typeof search>>;
  try {
    r = await search(request, { write: (matches) => stream.write(matches) });
  } catch (e) {
    // Nothing is out yet: the failure is reported alone, as it was before matches were streamed.
    stream.discard();
    throw e;
  }
  if (!r.streamed) {
    stream.discard();
    return { envelope: queryEnvelope(TOOL, "search", r.data, { partial: r.partial, diagnostics: r.diagnostics }), exitCode: r.exitCode };
  }
  const data = { ...r.data, matches: [LIST_MARK] };
  return { envelope: queryEnvelope(TOOL, "search", data, { partial: r.partial, diagnostics: r.diagnostics }), exitCode: r.exitCode, stream };
});
