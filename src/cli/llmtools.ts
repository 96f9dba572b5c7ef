#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * llmtools: the package's own command. Today `llmtools daemon start|stop|status` (src/server/);
 * the MCP server (`llmtools mcp`) registers beside it. Each subcommand prints its own envelope;
 * help, version and usage errors are answered as every tool answers them.
 */
import { CommanderError } from "commander";
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { registerDaemonCommands } from "../server/commands.js";
import { errorEnvelope, printResult } from "./output.js";
import { baseProgram } from "./run.js";

const TOOL = "llmtools";

const program = baseProgram(TOOL, "The llmtools package's own command: the warm per-workspace daemon.");
registerDaemonCommands(program);
const stderr: string[] = [];
const configure = (c: typeof program): void => {
  c.exitOverride();
  c.configureOutput({ writeErr: (s) => stderr.push(s) });
  for (const sub of c.commands) configure(sub);
};
configure(program);
program.action(() => {
  throw new CommanderError(EXIT.usage, "llmtools.noCommand", "a command is required: llmtools daemon start|stop|status");
});

void program.parseAsync(process.argv).catch(async (err: unknown) => {
  if (err instanceof CommanderError && (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help")) {
    process.exitCode = EXIT.ok;
    return;
  }
  process.stderr.write(stderr.join(""));
  const usage = new ToolError({
    code: commonCode(TOOL, "usage"),
    error: "invalid_arguments",
    message: err instanceof Error ? err.message.replace(/^error: /, "") : String(err),
    remediation: `Run '${TOOL} --help' for the commands and their flags.`,
    exitCode: EXIT.usage,
  });
  await printResult({ envelope: errorEnvelope(TOOL, { kind: "query", command: TOOL }, usage), exitCode: EXIT.usage }, process.argv.includes("--pretty"));
});
