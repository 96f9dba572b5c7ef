#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `llmtools` command (the MCP server, the daemon): always in-process, from the bundled CLI (runBin in src/server/client.cts). */
import type * as Client from "../server/client.cjs";

const { runBin } = ((): typeof Client => {
  /* eslint-disable @typescript-eslint/no-require-imports -- the client alone, and in one file when the build bundled it */
  try {
    return require("../server/client.bundle.cjs") as typeof Client;
  } catch {
    return require("../server/client.cjs") as typeof Client;
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
})();
runBin(__dirname, "llmtools", ["mcp", "daemon"]);
