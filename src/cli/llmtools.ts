#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * llmtools: the long-lived front ends of the tools. `llmtools mcp` serves every tool over MCP
 * (stdio, or Streamable HTTP on loopback); the daemon commands are added by src/server/.
 * The server modules load only when a command runs, so --help and usage errors stay quick.
 */
import type { Command } from "commander";
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { baseProgram, collect, runCli } from "./run.js";

const TOOL = "llmtools";

let chosen: ((program: Command) => Promise<void>) | undefined;

function usage(message: string, remediation: string): ToolError {
  return new ToolError({ code: commonCode(TOOL, "usage"), error: "invalid_arguments", message, remediation, exitCode: EXIT.usage });
}

function portOption(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw usage(`--http expects a TCP port (0-65535; 0 picks a free one), got '${value}'`, "Pass e.g. --http 8765.");
  return n;
}

const program = baseProgram(TOOL, "Serve the llmtools (magellan, llmsearch, llmastsearch, llmtransform, llmfilewrite, mdsel) to agents over MCP.");

program
  .command("mcp")
  .description("run the MCP server: stdio by default (what MCP clients spawn), or Streamable HTTP on 127.0.0.1 with --http")
  .option("--http <port>", "serve Streamable HTTP at http://127.0.0.1:PORT/mcp (loopback only; a bearer token is printed on stderr)", portOption)
  .option("--root <dir>", "workspace root the tools may read and write (repeatable; default: the client's MCP roots)", collect, [])
  .addHelpText(
    "after",
    `
Tools: magellan_find, magellan_refs, magellan_callers, magellan_callees, magellan_symbols, magellan_ast,
magellan_status, magellan_index, llmsearch, llmastsearch, llmtransform, llmfilewrite, mdsel_index, mdsel_select.
Register with a client: {"mcpServers": {"llmtools": {"command": "npx", "args": ["-y", "llmtools", "mcp", "--root", "/path/to/project"]}}}`,
  )
  .action((opts: { http?: number; root: string[] }) => {
    chosen = async () => {
      const { runMcp } = await import("../mcp/main.js");
      await runMcp({ http: opts.http, roots: opts.root });
    };
  });

// ---- DAEMON HOOK (branch `daemon`) -------------------------------------------------------------
// The daemon engineer adds `llmtools daemon start|stop|status` here with one call:
//   import { registerDaemonCommands } from "../server/commands.js";
//   registerDaemonCommands(program);
// ---- END DAEMON HOOK ---------------------------------------------------------------------------

// Without a command, the action below answers with a usage error (an envelope, exit 2).
program.action(() => undefined);

// No top-level await: the build bundles this entry as CommonJS (see scripts/bundle.ts).
void runCli(program, TOOL, { kind: "query", command: "llmtools" }, async (p) => {
  if (!chosen) throw usage("a command is required", "Run 'llmtools mcp' to serve the tools over MCP; 'llmtools --help' lists the commands.");
  await chosen(p);
  // A server returns only when its client has gone; it printed its own output (the protocol).
  process.exit(EXIT.ok);
});
