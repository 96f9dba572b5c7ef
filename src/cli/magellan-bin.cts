#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `magellan` command: through the workspace's daemon, else the bundled CLI (runBin in src/server/client.cts; scripts/bundle.ts makes this one file with the client). */
import { runBin } from "../server/client.cjs";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- only a run in-process needs the list
runBin(__dirname, "magellan", () => (require("./magellan-commands.cjs") as typeof import("./magellan-commands.cjs")).MAGELLAN_COMMANDS);
