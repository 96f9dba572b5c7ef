#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `mdsel` command: the bundled CLI with a V8 code cache (see src/launch/code-cache.cts). */
import { runTool } from "../launch/code-cache.cjs";
import { buildSnapshotOnExit } from "../launch/snapshot.cjs";

// Run by the launcher (dist/src/cli/mdsel, see src/launch/snapshot.cts) when it found no
// startup snapshot for this build: this run builds it as it exits.
buildSnapshotOnExit(__dirname, "mdsel");
runTool(__dirname, "mdsel", ["index", "select"]);
