/**
 * magellan's impact graph commands: `impact` (docdex.impact_graph v2 for one file, `--export` of
 * the impact_graph.json snapshot, `--snapshot` to answer from one, `--affected-since REV`) and
 * `impact-diagnostics` (docdex.impact_diagnostics). A thin adapter over
 * src/tools/magellan/impact-query.ts (which the MCP server calls too); registered by magellan.ts
 * only when one of them runs or help is listed. The seed 04 payload goes inside the query
 * envelope's data.
 */
import type { Command } from "commander";
import { EXIT, ToolError } from "../contract/errors.js";
import type { Diagnostic } from "../contract/schema.js";
import { queryEnvelope } from "../contract/envelope.js";
import { DIAG_LIMIT, EDGE_KINDS, MAX_DEPTH, MAX_EDGES } from "../tools/codeintel/impact.js";
import { CODEINTEL_TOOL } from "../tools/codeintel/codes.js";
import { impact, impactDiagnosticsQuery } from "../tools/magellan/impact-query.js";
import { intOption, type CliResult } from "./run.js";

const TOOL = CODEINTEL_TOOL;

interface Computed {
  data: unknown;
  diagnostics?: Diagnostic[];
  partial?: boolean;
}

async function finish(command: string, compute: () => Computed, onResult?: (r: CliResult) => void): Promise<void> {
  let result: CliResult;
  try {
    const c = compute();
    const partial = c.partial ?? false;
    result = { envelope: queryEnvelope(TOOL, command, c.data, { partial, diagnostics: c.diagnostics ?? [] }), exitCode: partial ? EXIT.partial : EXIT.ok };
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    result = { envelope: queryEnvelope(TOOL, command, err.toErrorResponse(), { diagnostics: [err.toDiagnostic(TOOL)] }), exitCode: err.exitCode };
  }
  if (onResult) {
    onResult(result);
    return;
  }
  const text = process.argv.includes("--pretty") ? JSON.stringify(result.envelope, null, 2) : JSON.stringify(result.envelope);
  await new Promise<void>((resolve) => process.stdout.write(`${text}\n`, () => resolve()));
  process.exit(result.exitCode);
}

interface ImpactOpts {
  root?: string;
  db?: string;
  file?: string;
  maxDepth?: number;
  maxEdges?: number;
  edgeTypes?: string;
  direction?: string;
  affectedSince?: string;
  export?: string | boolean;
  snapshot?: string;
  limit?: number;
  offset?: number;
}

export function registerImpactCommands(program: Command, onResult?: (r: CliResult) => void): void {
  const hasGlobalRoot = program.options.some((o) => o.long === "--root");
  const common = (cmd: Command): Command => {
    if (!hasGlobalRoot) cmd.option("--root <dir>", "workspace root (default: the enclosing git work tree, else the current directory)");
    return cmd.option("--db <file>", "index database (default: <root>/.magellan/code.db)").option("--pretty", "indent the JSON output");
  };

  common(
    program
      .command("impact")
      .description("docdex.impact_graph v2: the files a file depends on and the files that depend on it (file -> file imports, includes, requires)")
      .option("--file <path>", "the file (relative to the root or the current directory)")
      .option("--max-depth <n>", `follow edges this many steps (default ${MAX_DEPTH.default}, at most ${MAX_DEPTH.max})`, intOption(TOOL, "--max-depth", 1))
      .option("--max-edges <n>", `at most this many edges (default ${MAX_EDGES.default}); truncated says when more were met`, intOption(TOOL, "--max-edges", 1))
      .option("--edge-types <kinds>", `comma-separated edge kinds to follow (${EDGE_KINDS.join(",")}; default all)`)
      .option("--direction <dir>", "out: what the file depends on; in: what depends on it; both (default)")
      .option("--affected-since <rev>", "instead of --file: the files (and their symbols) that the changes since REV (working tree included) reach through the reverse graph; tests listed apart")
      .option("--export [file]", "write the whole graph as impact_graph.json (default <root>/.magellan/impact_graph.json) and print a summary")
      .option("--snapshot <file>", "answer from an impact_graph.json snapshot instead of the index"),
  )
    .addHelpText(
      "after",
      `
Edges: source is the importer, target the imported file. outbound = targets of edges whose source is --file;
inbound = sources of edges whose target is --file; edges = every edge met within --max-depth.
Exit codes: 0 success, 1 failure, 2 invalid arguments, 4 partial (truncated by --max-edges).`,
    )
    .action(async (_o: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<ImpactOpts>();
      await finish(
        "impact",
        () => impact({ root: o.root, db: o.db, file: o.file, maxDepth: o.maxDepth, maxEdges: o.maxEdges, edgeTypes: o.edgeTypes?.split(",").map((s) => s.trim()).filter(Boolean), direction: o.direction, affectedSince: o.affectedSince, export: o.export, snapshot: o.snapshot }),
        onResult,
      );
    });

  common(
    program
      .command("impact-diagnostics")
      .description("docdex.impact_diagnostics: files with dependencies that could not be resolved (dynamic imports, missing files), with samples")
      .option("--file <path>", "only this file")
      .option("--limit <n>", `at most this many files (default ${DIAG_LIMIT.default})`, intOption(TOOL, "--limit", 1))
      .option("--offset <n>", "skip this many files first (default 0)", intOption(TOOL, "--offset", 0))
      .option("--snapshot <file>", "answer from an impact_graph.json snapshot instead of the index"),
  ).action(async (_o: unknown, cmd: Command) => {
    const o = cmd.optsWithGlobals<ImpactOpts>();
    await finish(
      "impact-diagnostics",
      () => impactDiagnosticsQuery({ root: o.root, db: o.db, file: o.file, limit: o.limit, offset: o.offset, snapshot: o.snapshot }),
      onResult,
    );
  });
}
