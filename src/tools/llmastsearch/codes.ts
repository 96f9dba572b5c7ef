/** llmastsearch's own codes (E1xx); shared faults use COMMON_CODES. Never reuse a number. */
export const TOOL = "llmastsearch";

export const CODES = {
  query_syntax: "E100",
  query_node_type: "E101",
  query_field: "E102",
  query_capture: "E103",
  query_structure: "E104",
  query_predicate: "E105",
  query_no_captures: "E106",
  unknown_language: "E107",
  query_missing: "E108",
  /** A --glob ripgrep refuses to parse, or a bare `!`: refused as llmsearch refuses it (its E111). */
  glob_syntax: "E109",
  /** Notes and warnings about what was left out (never an error). */
  language_skipped: "W110",
  files_skipped: "W111",
  empty_result: "W112",
  limit_reached: "W113",
  recovered: "W114",
} as const;

export function code(num: string): string {
  return `LLMASTSEARCH_${num}`;
}
