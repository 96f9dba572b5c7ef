#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * llmtools: the package's own command. `llmtools mcp` serves every tool over MCP (src/mcp/);
 * `llmtools daemon start|stop|status` is the warm per-workspace daemon (src/server/). Each
 * subcommand prints its own output; help, version and usage errors are answered as every tool
 * answers them.
 */
import { CommanderError } from "commander";
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { registerMcpCommands } from "../mcp/commands.js";
import { registerDaemonCommands } from "../server/commands.js";
import { errorEnvelope, failureResult, printResult } from "./output.js";
import { baseProgram } from "./run.js";

const TOOL = "llmtools";

const program = baseProgram(TOOL, "The llmtools package's own command: the MCP server and the warm per-workspace daemon.");
registerMcpCommands(program);
registerDaemonCommands(program);
const stderr: string[] = [];
const configure = (c: typeof program): void => {
  c.exitOverride();
  c.configureOutput({ writeErr: (s) => stderr.push(s) });
  for (const sub of c.commands) configure(sub);
};
configure(program);
program.action(() => {
  throw new CommanderError(EXIT.usage, "llmtools.noCommand", "a command is required: llmtools mcp, or llmtools daemon start|stop|status");
});

// No top-level await: the build bundles this entry as CommonJS (see scripts/bundle.ts).
void program.parseAsync(process.argv).catch(async (err: unknown) => {
  if (err instanceof CommanderError && (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help")) {
    process.exitCode = EXIT.ok;
    return;
  }
  if (err instanceof ToolError || !(err instanceof CommanderError)) {
    await printResult(failureResult(TOOL, { kind: "query", command: TOOL }, err), process.argv.includes("--pretty"));
    return;
  }
  process.stderr.write(stderr.join(""));
  const usage = new ToolError({
    code: commonCode(TOOL, "usage"),
    error: "invalid_arguments",
    message: err.message.replace(/^error: /, ""),
    remediation: `Run '${TOOL} --help' for the commands and their flags.`,
    exitCode: EXIT.usage,
  });
  await printResult({ envelope: errorEnvelope(TOOL, { kind: "query", command: TOOL }, usage), exitCode: EXIT.usage }, process.argv.includes("--pretty"));
});
