/**
 * Error codes shared by every tool. A code is `<TOOL>_<NUMBER>` (CONTRACT.md): the number says
 * what went wrong, the prefix which tool said it. E0xx are shared faults; each tool numbers its
 * own from E100 up, in its own module, and never reuses a retired number.
 */
export const COMMON_CODES = {
  usage: "E000",
  path_outside_root: "E001",
  file_not_found: "E002",
  io_error: "E003",
  invalid_root: "E004",
  invalid_request: "E005",
  binary_file: "E006",
  file_too_large: "E007",
  // The change pipeline (src/change/), shared by every writer.
  path_forbidden: "E010",
  file_busy: "E011",
  changed_on_disk: "E012",
  journal_recovery: "E013",
  undo_refused: "E014",
  operation_not_found: "E015",
  /** What this platform's build does not provide (the daemon on Windows). */
  unsupported: "E016",
  /** A native add-on (SQLite, tree-sitter) did not load: the install's fault (src/contract/native.ts). */
  native_unavailable: "E017",
  /** The warm daemon stopped while it ran a change: not run again (src/server/client.cts). */
  interrupted: "E018",
  /** The caller went away (a daemon client that disconnected): the work stopped (src/contract/cancel.ts). */
  cancelled: "E019",
  /** A note, not a fault: the daemon's index lags behind files changed on disk (src/server/). */
  index_pending: "E090",
  internal: "E999",
} as const;

export type CommonFault = keyof typeof COMMON_CODES;

export function errorCode(tool: string, num: string): string {
  return `${tool.toUpperCase()}_${num}`;
}

export function commonCode(tool: string, fault: CommonFault): string {
  return errorCode(tool, COMMON_CODES[fault]);
}
