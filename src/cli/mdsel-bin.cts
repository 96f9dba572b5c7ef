#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `mdsel` command: the bundled CLI with a V8 code cache (see src/contract/code-cache.cts). */
import { runTool } from "../contract/code-cache.cjs";
import { buildSnapshotOnExit } from "../contract/snapshot.cjs";

// Run by the launcher (dist/src/cli/mdsel, see src/contract/snapshot.cts) when it found no
// startup snapshot for this build: this run builds it as it exits.
buildSnapshotOnExit(__dirname, "mdsel");
runTool(__dirname, "mdsel", ["index", "select"]);
