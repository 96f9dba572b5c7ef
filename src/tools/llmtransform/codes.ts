import { commonCode, errorCode } from "../../contract/codes.js";

export const TOOL = "llmtransform";

/**
 * llmtransform's own codes (E1xx). Numbers are stable: never renumber, never reuse a retired one.
 * Shared faults (path outside root, file not found, bad request JSON...) use the E0xx codes.
 */
export const CODES = {
  missing_checksum: errorCode(TOOL, "E100"),
  checksum_mismatch: errorCode(TOOL, "E101"),
  invalid_checksum: errorCode(TOOL, "E102"),
  invalid_edits: errorCode(TOOL, "E103"),
  out_of_bounds: errorCode(TOOL, "E104"),
  not_char_boundary: errorCode(TOOL, "E105"),
  overlap: errorCode(TOOL, "E106"),
  reversed_range: errorCode(TOOL, "E107"),
  invalid_position: errorCode(TOOL, "E108"),
  changed_during_write: errorCode(TOOL, "E109"),
  read_only: errorCode(TOOL, "E110"),
  not_regular_file: errorCode(TOOL, "E111"),
  request_conflict: errorCode(TOOL, "E112"),
  invalid_content: errorCode(TOOL, "E113"),
  unsupported_version: errorCode(TOOL, "E114"),
  stale_temp_removed: errorCode(TOOL, "E115"),
  no_edits: errorCode(TOOL, "E116"),
  hard_links: errorCode(TOOL, "E117"),
  symlink_followed: errorCode(TOOL, "E118"),
  mixed_encoding: errorCode(TOOL, "E119"),
  mixed_line_endings: errorCode(TOOL, "E120"),
  usage: commonCode(TOOL, "usage"),
  path_outside_root: commonCode(TOOL, "path_outside_root"),
  file_not_found: commonCode(TOOL, "file_not_found"),
  io_error: commonCode(TOOL, "io_error"),
  invalid_request: commonCode(TOOL, "invalid_request"),
} as const;
