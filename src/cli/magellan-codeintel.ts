/**
 * The seed 04 payload commands of magellan: `symbols`, `ast`, `ast-query`. magellan.ts calls
 * `registerCodeIntelCommands(program)` to add them; each prints the query envelope (tool
 * "magellan", command = the subcommand) with the seed 04 payload in `data`.
 *
 * Hand-off: when `onResult` is given, the subcommand's action passes it the finished
 * `CliResult` (envelope + exit code) and prints nothing, so magellan's runCli action can return
 * it. Without `onResult` the action prints the envelope itself and ends the process with the
 * exit code, so it works under any runCli action.
 */
import type { Command } from "commander";
import { EXIT, ToolError } from "../contract/errors.js";
import type { Diagnostic } from "../contract/schema.js";
import { extractFacts } from "../lang/extract.js";
import { findWorkspaceRoot } from "../text/root.js";
import { AST_MAX_NODES, astPayload, clamp } from "../tools/codeintel/ast.js";
import { AST_QUERY_LIMIT, AST_QUERY_SAMPLE_LIMIT, astQuery } from "../tools/codeintel/ast-query.js";
import { CODEINTEL_TOOL } from "../tools/codeintel/codes.js";
import { repoId } from "../tools/codeintel/repo-id.js";
import { loadFile } from "../tools/codeintel/source.js";
import { symbolsPayload } from "../tools/codeintel/symbols.js";
import { outcomeDiagnostics, symbolsDiagnostics } from "../tools/codeintel/diagnostics.js";
import { queryEnvelope } from "../contract/envelope.js";
import { intOption, type CliResult } from "./run.js";

const TOOL = CODEINTEL_TOOL;

interface Computed {
  data: unknown;
  diagnostics?: Diagnostic[];
  partial?: boolean;
}

async function finish(command: string, compute: () => Promise<Computed> | Computed, onResult?: (r: CliResult) => void): Promise<void> {
  let result: CliResult;
  try {
    const c = await compute();
    const partial = c.partial ?? false;
    result = {
      envelope: queryEnvelope(TOOL, command, c.data, { partial, diagnostics: c.diagnostics ?? [] }),
      exitCode: partial ? EXIT.partial : EXIT.ok,
    };
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    result = {
      envelope: queryEnvelope(TOOL, command, err.toErrorResponse(), { diagnostics: [err.toDiagnostic(TOOL)] }),
      exitCode: err.exitCode,
    };
  }
  if (onResult) {
    onResult(result);
    return;
  }
  const pretty = process.argv.includes("--pretty");
  const text = pretty ? JSON.stringify(result.envelope, null, 2) : JSON.stringify(result.envelope);
  await new Promise<void>((resolve) => process.stdout.write(`${text}\n`, () => resolve()));
  process.exit(result.exitCode);
}

function rootOf(cmd: Command): string {
  const opts = cmd.optsWithGlobals<{ root?: string }>();
  return findWorkspaceRoot(TOOL, opts.root);
}

const EXIT_HELP = `
Output: the query envelope (tool "magellan") with the code-intelligence payload in data; ranges are 1-based
(lines and byte columns). Exit codes: 0 success (also empty results: diagnostics say why),
1 failure (file not found), 2 invalid arguments (bad flag, path outside the root),
4 partial (truncated by --max-nodes or --limit).`;

export function registerCodeIntelCommands(program: Command, onResult?: (r: CliResult) => void): void {
  const hasGlobalRoot = program.options.some((o) => o.long === "--root");
  const withRoot = (cmd: Command): Command =>
    hasGlobalRoot ? cmd : cmd.option("--root <dir>", "workspace root (default: the enclosing git work tree, else the current directory)");

  withRoot(
    program
      .command("symbols")
      .description("docdex.symbols payload: the symbols defined in one file, with v1 symbol_id and outcome")
      .requiredOption("--file <path>", "the file, relative to the workspace root or the current directory")
      .option("--pretty", "indent the JSON output"),
  )
    .addHelpText("after", EXIT_HELP)
    .action(async (_opts: unknown, cmd: Command) => {
    await finish(
      "symbols",
      () => {
        const root = rootOf(cmd);
        const { file } = cmd.opts<{ file: string }>();
        const loaded = loadFile(root, file);
        const payload = symbolsPayload(repoId(root), loaded, extractFacts);
        return { data: payload, diagnostics: symbolsDiagnostics(payload) };
      },
      onResult,
    );
  });

  withRoot(
    program
      .command("ast")
      .description("docdex.ast payload: the file's tree-sitter nodes in pre-order, 1-based ranges")
      .requiredOption("--file <path>", "the file, relative to the workspace root or the current directory")
      .option(
        "--max-nodes <n>",
        `at most this many nodes (default ${AST_MAX_NODES.default}; clamped to ${AST_MAX_NODES.min}..${AST_MAX_NODES.max}); truncated says when the file had more`,
        intOption(TOOL, "--max-nodes", 0),
      )
      .option("--pretty", "indent the JSON output"),
  )
    .addHelpText("after", EXIT_HELP)
    .action(async (_opts: unknown, cmd: Command) => {
    await finish(
      "ast",
      () => {
        const root = rootOf(cmd);
        const { file, maxNodes } = cmd.opts<{ file: string; maxNodes?: number }>();
        const applied = clamp(maxNodes ?? AST_MAX_NODES.default, AST_MAX_NODES);
        const loaded = loadFile(root, file);
        const payload = astPayload(repoId(root), loaded, applied);
        const diagnostics = outcomeDiagnostics(payload.file, payload.outcome);
        if (maxNodes !== undefined && maxNodes !== applied) {
          diagnostics.push({ tool: TOOL, level: "note", message: `--max-nodes ${maxNodes} is outside ${AST_MAX_NODES.min}..${AST_MAX_NODES.max}; applied ${applied}`, code: "MAGELLAN_W183" });
        }
        if (payload.truncated) {
          diagnostics.push({
            tool: TOOL,
            level: "note",
            message: `${payload.nodes.length} of ${payload.total_nodes} nodes shown`,
            code: "MAGELLAN_W189",
            remediation: `Raise --max-nodes (up to ${AST_MAX_NODES.max}) to see more.`,
          });
        }
        return { data: payload, diagnostics, partial: payload.truncated };
      },
      onResult,
    );
  });

  withRoot(
    program
      .command("ast-query")
      .description("docdex.ast_query payload: files of the workspace holding nodes of the given kinds, with samples")
      .requiredOption("--kinds <k1,k2>", "tree-sitter node kinds, comma separated (e.g. function_declaration,class_declaration)")
      .option("--mode <mode>", "any: a file matches when it has any of the kinds; all: only when it has every kind", "any")
      .option("--name <name>", "only nodes whose best-effort name (the `name` field, or the identifier itself) is exactly this")
      .option("--field <field>", "only nodes sitting in this field of their parent (e.g. body, name)")
      .option("--path-prefix <prefix>", "only files whose root-relative path starts with this")
      .option(
        "--limit <n>",
        `at most this many files (default ${AST_QUERY_LIMIT.default}; clamped to ${AST_QUERY_LIMIT.min}..${AST_QUERY_LIMIT.max}); truncated says when more matched`,
        intOption(TOOL, "--limit", 0),
      )
      .option(
        "--sample-limit <n>",
        `at most this many sample nodes per file (default ${AST_QUERY_SAMPLE_LIMIT.default}; clamped to ${AST_QUERY_SAMPLE_LIMIT.min}..${AST_QUERY_SAMPLE_LIMIT.max})`,
        intOption(TOOL, "--sample-limit", 0),
      )
      .option("--pretty", "indent the JSON output"),
  )
    .addHelpText("after", EXIT_HELP)
    .action(async (_opts: unknown, cmd: Command) => {
    await finish(
      "ast-query",
      () => {
        const root = rootOf(cmd);
        const o = cmd.opts<{ kinds: string; mode: string; name?: string; field?: string; pathPrefix?: string; limit?: number; sampleLimit?: number }>();
        if (o.mode !== "any" && o.mode !== "all") {
          throw new ToolError({
            code: "MAGELLAN_E180",
            error: "invalid_filter",
            message: `--mode must be 'any' or 'all', got '${o.mode}'`,
            remediation: "Pass --mode any (a file with any of the kinds) or --mode all (a file with every kind).",
            exitCode: EXIT.usage,
          });
        }
        const { payload, diagnostics } = astQuery({
          root,
          repoId: repoId(root),
          kinds: o.kinds.split(","),
          mode: o.mode,
          name: o.name,
          field: o.field,
          pathPrefix: o.pathPrefix,
          limit: o.limit,
          sampleLimit: o.sampleLimit,
        });
        return { data: payload, diagnostics, partial: payload.truncated };
      },
      onResult,
    );
  });
}
