#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `llmtools` command (the MCP server, the daemon): always in-process, from the bundled CLI (runBin in src/server/client.cts). */
import { runBin } from "../server/client.cjs";

runBin(__dirname, "llmtools", ["mcp", "daemon"]);
