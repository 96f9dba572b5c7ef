import { commonCode, errorCode } from "../contract/codes.js";

/** magellan's own error codes (E1xx) plus the shared ones it raises. Numbers are never reused. */
export const MAGELLAN_CODES = {
  usage: commonCode("magellan", "usage"),
  path_outside_root: commonCode("magellan", "path_outside_root"),
  file_not_found: commonCode("magellan", "file_not_found"),
  io_error: commonCode("magellan", "io_error"),
  binary_file: commonCode("magellan", "binary_file"),
  file_too_large: commonCode("magellan", "file_too_large"),
  index_missing: errorCode("magellan", "E100"),
  index_corrupt: errorCode("magellan", "E101"),
  schema_mismatch: errorCode("magellan", "E102"),
  index_locked: errorCode("magellan", "E103"),
  symbol_not_found: errorCode("magellan", "E104"),
  file_not_indexed: errorCode("magellan", "E105"),
  parse_recovered: errorCode("magellan", "E106"),
  file_skipped: errorCode("magellan", "E107"),
  stale_index: errorCode("magellan", "E108"),
  ambiguous_name: errorCode("magellan", "E109"),
  no_matches: errorCode("magellan", "E110"),
  watch_failed: errorCode("magellan", "E111"),
  unresolved_references: errorCode("magellan", "E112"),
  /** A daemon's or MCP server's TypeScript language service is still building: the answer is the index's. */
  precise_warming: errorCode("magellan", "E113"),
  /** The TypeScript language service died or did not answer in time: the answer is the index's. */
  precise_unavailable: errorCode("magellan", "E114"),
  /** Calls tied to a method this one overrides or implements may run it; they are not listed. */
  dispatch: errorCode("magellan", "E115"),
  /** A database named with --db was built from another tree, which still exists, than --root. */
  foreign_index: errorCode("magellan", "E116"),
  /** A C++ function's declaration and definition are two symbols: refs of one list the other's too. */
  same_function: errorCode("magellan", "E117"),
  /** The index's database file was deleted or replaced while an index run wrote to it. */
  index_removed: errorCode("magellan", "E120"),
} as const;

/** Files larger than this are skipped unless `index --max-file-size` raises it. */
export const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;
