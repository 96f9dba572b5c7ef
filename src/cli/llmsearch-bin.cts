#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `llmsearch` command: the bundled CLI with a V8 code cache (see src/contract/code-cache.cts). */
import { runTool } from "../contract/code-cache.cjs";

runTool(__dirname, "llmsearch", []);
