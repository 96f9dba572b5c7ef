#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `splice` command: the bundled CLI with a V8 code cache (see src/launch/code-cache.cts). */
import { runTool } from "../launch/code-cache.cjs";

runTool(__dirname, "splice", []);
