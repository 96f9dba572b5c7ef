#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * llmsearch CLI: argv -> SearchRequest -> search() -> query envelope on stdout, exit code.
 * All logic lives in src/tools/llmsearch/.
 */
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { TOOL } from "../tools/llmsearch/codes.js";
import { DEFAULT_TIMEOUT_MS, search } from "../tools/llmsearch/search.js";
import { queryEnvelope } from "../contract/envelope.js";
import { baseProgram, collect, intOption, runCli } from "./run.js";

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
  .argument("[paths...]", "files or directories inside the workspace root to search (default: the whole root)")
  .option("-e, --pattern <regex>", "the pattern (JavaScript RegExp in Unicode mode; ripgrep habits such as (?i), \\A, \\z, [[:alpha:]], \\pL are translated)")
  .option("-F, --fixed-strings", "treat the pattern as literal text, not a regex")
  .option("-i, --ignore-case", "match case-insensitively (Unicode simple case folding)")
  .option("-w, --word", "only matches with no word character (Unicode \\w) right before or after")
  .option("-U, --multiline", "let matches span lines (ripgrep -U); without it no match crosses a line break and \\n in the pattern is refused")
  .option("-g, --glob <glob>", "include files matching this gitignore-style glob, or exclude with '!glob'; repeatable, later wins (ripgrep --glob)", collect, [])
  .option("--root <dir>", "workspace root; file paths in the output are relative to it (default: the enclosing git work tree, else the current directory)")
  .option("-C, --context <n>", "lines of context before and after each match", intOption(TOOL, "--context"))
  .option("-B, --before <n>", "lines of context before each match (overrides --context)", intOption(TOOL, "--before"))
  .option("-A, --after <n>", "lines of context after each match (overrides --context)", intOption(TOOL, "--after"))
  .option("-m, --limit <n>", "keep only the first n matches in path/offset order; total_count still counts all (partial: true, exit 4 when cut)", intOption(TOOL, "--limit", 1))
  .option("--max-filesize <size>", "skip files larger than this (bytes, or with K/M/G suffix); they are listed in files_skipped", sizeOption)
  .option("--hidden", "search hidden files and directories (names starting with '.'); .git is never searched")
  .option("--no-ignore", "do not respect .gitignore, .ignore and .git/info/exclude")
  .option("-c, --count", "print per-file match counts instead of the matches")
  .option("--timeout <ms>", `time budget per file in milliseconds (default ${DEFAULT_TIMEOUT_MS}); a file over it is skipped with reason "timeout"`, intOption(TOOL, "--timeout", 1))
  .option("-j, --threads <n>", "search threads (default: the number of CPUs)", intOption(TOOL, "--threads", 1))
  .addHelpText(
    "after",
    `
Output: {schema_version, execution_id, tool:"llmsearch", command:"search", timestamp, partial, data, diagnostics?}
  data: {pattern, matches[{match_id, span{span_id, file_path, byte_start, byte_end, start_line, start_col,
         end_line, end_col}, matched_text, context_before[], context_after[]}], match_count, total_count,
         files_searched, files_skipped[{file_path, reason: binary|too_large|unreadable|timeout, detail}]}
  with --count: {pattern, counts[{file_path, count}], files_matched, total_count, files_searched, files_skipped}
  byte_start inclusive, byte_end exclusive; lines 1-based, columns 0-based bytes. Matches are in file path
  order, then by offset. Files are walked like ripgrep: .gitignore/.ignore respected, hidden files and
  symlinks skipped, binary files (a NUL byte) skipped and listed.

Exit codes:
  0  success, including no match (diagnostics then say why the result is empty)
  1  failure (a search thread died, an I/O error)
  2  usage: bad flags, invalid or unsupported pattern, path outside the root, missing path
  4  partial: --limit cut the matches, or a file ran past --timeout

Examples:
  llmsearch --pattern "TODO" --glob "**/*.rs"
  llmsearch -i -w --pattern "parse_?config" --context 2 src
`,
  );

interface Options {
  pattern?: string;
  fixedStrings?: boolean;
  ignoreCase?: boolean;
  word?: boolean;
  multiline?: boolean;
  glob: string[];
  root?: string;
  context?: number;
  before?: number;
  after?: number;
  limit?: number;
  maxFilesize?: number;
  hidden?: boolean;
  ignore: boolean;
  count?: boolean;
  timeout?: number;
  threads?: number;
}

// Without top-level await, so that the build can bundle this entry as CommonJS (see scripts/bundle.ts);
// runCli reports every failure itself.
void runCli(program, TOOL, { kind: "query", command: "search" }, async (p) => {
  const o = p.opts<Options>();
  if (o.pattern === undefined) {
    throw new ToolError({
      code: commonCode(TOOL, "usage"),
      error: "invalid_arguments",
      message: "--pattern is required",
      remediation: `Pass the regex to look for, e.g. ${TOOL} --pattern "TODO" --glob "**/*.rs".`,
      exitCode: EXIT.usage,
    });
  }
  const r = await search({
    pattern: o.pattern,
    fixedStrings: o.fixedStrings,
    ignoreCase: o.ignoreCase,
    word: o.word,
    multiline: o.multiline,
    globs: o.glob,
    root: o.root,
    paths: p.args,
    before: o.before ?? o.context,
    after: o.after ?? o.context,
    limit: o.limit,
    maxFilesize: o.maxFilesize,
    hidden: o.hidden,
    noIgnore: !o.ignore,
    count: o.count,
    timeoutMs: o.timeout,
    threads: o.threads,
  });
  return { envelope: queryEnvelope(TOOL, "search", r.data, { partial: r.partial, diagnostics: r.diagnostics }), exitCode: r.exitCode };
});
