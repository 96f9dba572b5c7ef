/**
 * magellan's subcommands, named once: the bin keeps a code cache per command, the CLI names the
 * command of an error raised before any action ran, and the seed-04 ones are loaded on demand.
 * CommonJS (a .cts file), so the bin can require it before any ES module loader is set up.
 */
export const CODEINTEL_COMMANDS = ["symbols", "ast", "ast-query"] as const;

/** The impact graph commands (magellan-impact.ts), loaded on demand as the seed-04 ones are. */
export const IMPACT_COMMANDS = ["impact", "impact-diagnostics"] as const;

export const MAGELLAN_COMMANDS: readonly string[] = [
  "index",
  "watch",
  "status",
  "query",
  "find",
  "refs",
  "callers",
  "callees",
  "files",
  "validate",
  "collisions",
  "reachable",
  "slice",
  "dead-code",
  "cycles",
  "condense",
  "paths",
  "export",
  ...CODEINTEL_COMMANDS,
  ...IMPACT_COMMANDS,
];
