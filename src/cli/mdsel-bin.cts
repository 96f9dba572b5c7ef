#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `mdsel` command: through the workspace's daemon, else the bundled CLI (runBin in src/server/client.cts; scripts/bundle.ts makes this one file with the client). */
import { runBin } from "../server/client.cjs";

// Run by the launcher (dist/src/cli/mdsel, see src/launch/snapshot.cts) when it found no
// startup snapshot for this build (it names it in LLMTOOLS_SNAPSHOT): this run builds it as it exits.
if (process.env.LLMTOOLS_SNAPSHOT !== undefined) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require("../launch/snapshot.cjs") as typeof import("../launch/snapshot.cjs")).buildSnapshotOnExit(__dirname, "mdsel");
}
runBin(__dirname, "mdsel", ["index", "select"]);
