#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * llmtools: the package's own command. Today `llmtools daemon start|stop|status` (src/server/);
 * the MCP server (`llmtools mcp`) registers beside it.
 */
import { registerDaemonCommands } from "../server/commands.js";
import { baseProgram } from "./run.js";

const program = baseProgram("llmtools", "The llmtools package's own command: the warm per-workspace daemon.");
registerDaemonCommands(program);
void program.parseAsync(process.argv);
