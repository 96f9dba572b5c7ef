import { commonCode, errorCode } from "../../contract/codes.js";

export const TOOL = "splice";

/**
 * splice's own codes (E1xx). Numbers are stable: never renumber, never reuse a retired one.
 * Shared faults (usage, path outside the root, file not found, bad request) use the E0xx codes.
 * The rename engines (src/tools/splice/rename/) number theirs from E200 up.
 */
export const CODES = {
  symbol_not_found: errorCode(TOOL, "E100"),
  ambiguous_symbol: errorCode(TOOL, "E101"),
  unsupported_language: errorCode(TOOL, "E102"),
  no_body: errorCode(TOOL, "E103"),
  empty_content: errorCode(TOOL, "E104"),
  old_text_not_found: errorCode(TOOL, "E105"),
  old_text_ambiguous: errorCode(TOOL, "E106"),
  whitespace_near_miss: errorCode(TOOL, "E107"),
  references_remain: errorCode(TOOL, "E108"),
  checksum_mismatch: errorCode(TOOL, "E109"),
  validation_rejected: errorCode(TOOL, "E110"),
  checker_required: errorCode(TOOL, "E111"),
  no_change: errorCode(TOOL, "E112"),
  invalid_plan: errorCode(TOOL, "E113"),
  batch_step_failed: errorCode(TOOL, "E114"),
  invalid_regex: errorCode(TOOL, "E115"),
  no_files_matched: errorCode(TOOL, "E116"),
  not_a_definition_span: errorCode(TOOL, "E117"),
  /** The file is beyond what symbol extraction reads (definitions nested over 256 deep, or a parse past its time budget). */
  too_large_to_index: errorCode(TOOL, "E118"),
  /**
   * A symbol that shares its declaration with other names (`var a, b = 1, 2`, `A, B = 1, 2`) that
   * a delete or patch cannot leave out. E212: the number after the rename engines' last, which
   * stop at E211 (rename/codes.ts).
   */
  shared_declaration: errorCode(TOOL, "E212"),
  /** A warning: uses the index ties to a deleted symbol by name only (docs/splice.md). */
  name_only_uses: errorCode(TOOL, "W108"),
  usage: commonCode(TOOL, "usage"),
  path_outside_root: commonCode(TOOL, "path_outside_root"),
  file_not_found: commonCode(TOOL, "file_not_found"),
  io_error: commonCode(TOOL, "io_error"),
  invalid_request: commonCode(TOOL, "invalid_request"),
  binary_file: commonCode(TOOL, "binary_file"),
} as const;
