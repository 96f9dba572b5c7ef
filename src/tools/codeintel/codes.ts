/**
 * Codes of the seed 04 payload commands. They are magellan subcommands, so the prefix is
 * MAGELLAN; the numbers E180..E199 are reserved for them so they never collide with the graph
 * commands' own E1xx codes.
 */
export const CODEINTEL_TOOL = "magellan";

export const CODEINTEL_CODES = {
  /** --kinds empty, --mode unknown, ... */
  invalid_filter: "E180",
  /** File is not UTF-8 text a grammar can parse (binary). */
  binary_file: "E181",
  /** Stored payload is not JSON or not the family's shape. */
  payload_invalid: "E190",
  /** Stored payload's schema name is another family. */
  schema_name_mismatch: "E191",
  /** Stored payload's compatibility range excludes this implementation's version. */
  schema_incompatible: "E192",
  /** The index has no impact graph yet (built before it existed, or never completed). */
  impact_missing: "E193",
  /** `--affected-since`: git could not diff against the revision. */
  git_failed: "E194",
  /** docdex.import_map.json / import_traces.jsonl could not be read (a warning; hints skipped). */
  hint_invalid: "E195",
} as const;
