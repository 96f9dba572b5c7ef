/**
 * `llmtools mcp`, added to the llmtools program with one call (src/cli/llmtools.ts), beside the
 * daemon's commands. The server modules load only when the command runs, so help and usage
 * errors stay quick. A server speaks only the protocol on stdout and returns when its client
 * has gone.
 */
import type { Command } from "commander";
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { collect } from "../cli/output.js";
import { MCP_TOOL } from "./codes.js";

function portOption(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) {
    throw new ToolError({
      code: commonCode(MCP_TOOL, "usage"),
      error: "invalid_arguments",
      message: `--http expects a TCP port (0-65535; 0 picks a free one), got '${value}'`,
      remediation: "Pass e.g. --http 8765.",
      exitCode: EXIT.usage,
    });
  }
  return n;
}

export function registerMcpCommands(program: Command): void {
  program
    .command("mcp")
    .description("serve every tool over MCP: stdio by default (what MCP clients spawn), or Streamable HTTP on 127.0.0.1 with --http")
    .option("--http <port>", "serve Streamable HTTP at http://127.0.0.1:PORT/mcp (loopback only; a bearer token is printed on stderr)", portOption)
    .option("--root <dir>", "workspace root the tools may read and write (repeatable; default: the client's MCP roots)", collect)
    .option("--no-precise", "magellan_refs/callers/callees: the index's targets only (default: TypeScript/JavaScript targets from the TypeScript language service, in a worker thread)")
    .option("--no-watch", "do not watch the roots that have a code graph: files changed by other means (an editor, git) reach it only through magellan_index (default: watched, as by the daemon)")
    .addHelpText(
      "after",
      `
Tools: magellan_find, magellan_refs, magellan_callers, magellan_callees, magellan_graph, magellan_impact,
magellan_impact_diagnostics, magellan_symbols, magellan_ast, magellan_status, magellan_index, llmsearch,
llmastsearch, llmtransform, llmfilewrite, splice, splice_undo, splice_log, mdsel_index, mdsel_select.
Register with a client: {"mcpServers": {"llmtools": {"command": "npx", "args": ["-y", "llmtools", "mcp", "--root", "/path/to/project"]}}}`,
    )
    .action(async (opts: { http?: number; root?: string[]; precise: boolean; watch: boolean }) => {
      const { runMcp } = await import("./main.js");
      await runMcp({ http: opts.http, roots: opts.root ?? [], precise: opts.precise, watch: opts.watch });
      process.exit(EXIT.ok);
    });
}
