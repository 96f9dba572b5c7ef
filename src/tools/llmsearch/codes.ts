import { errorCode } from "../../contract/codes.js";

export const TOOL = "llmsearch";

/** llmsearch's own codes (E1xx); shared faults use contract/codes.ts. Never reuse a number. */
export const LLMSEARCH_CODES = {
  /** The pattern does not compile (JS RegExp error, after translation). */
  pattern_syntax: errorCode(TOOL, "E100"),
  /** The pattern uses ripgrep/Rust syntax this tool cannot express in a JS RegExp. */
  pattern_unsupported: errorCode(TOOL, "E101"),
  /** A line terminator in the pattern without --multiline (ripgrep refuses it too). */
  pattern_newline: errorCode(TOOL, "E102"),
  /** A file's search ran past the --timeout budget (catastrophic backtracking). */
  search_timeout: errorCode(TOOL, "E103"),
  /** Nothing was searched: the globs, ignore rules or paths left no file. */
  no_files: errorCode(TOOL, "E104"),
  /** Every candidate file was skipped (binary, too large, unreadable). */
  all_skipped: errorCode(TOOL, "E105"),
  /** A search worker died for a reason other than the time budget. */
  worker_failed: errorCode(TOOL, "E106"),
  /** Note: files were searched and the pattern matched nothing. */
  no_match: errorCode(TOOL, "E107"),
  /** Note: --limit cut the list (data.total_count has the full number). */
  limit_reached: errorCode(TOOL, "E108"),
  /** -t/-T named a file type this tool does not know. */
  unknown_type: errorCode(TOOL, "E109"),
  /** Flags that cannot be combined: the answer would not be ripgrep's (or they ask two things at once). */
  flag_combination: errorCode(TOOL, "E110"),
  /** A --glob/--iglob ripgrep refuses to parse ("error parsing glob"), or a bare '!'. */
  glob_syntax: errorCode(TOOL, "E111"),
} as const;
