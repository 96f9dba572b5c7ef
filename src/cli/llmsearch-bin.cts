#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `llmsearch` command: through the workspace's daemon, else the bundled CLI (runBin in src/server/client.cts; scripts/bundle.ts makes this one file with the client). */
import { runBin } from "../server/client.cjs";

runBin(__dirname, "llmsearch", []);
