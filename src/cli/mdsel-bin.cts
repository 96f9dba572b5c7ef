#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/** The `mdsel` command: through the workspace's daemon, else the bundled CLI (runBin in src/server/client.cts). */
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
// Run by the launcher (dist/src/cli/mdsel, see src/launch/snapshot.cts) when it found no
// startup snapshot for this build (it names it in LLMTOOLS_SNAPSHOT): this run builds it as it exits.
if (process.env.LLMTOOLS_SNAPSHOT !== undefined) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require("../launch/snapshot.cjs") as typeof import("../launch/snapshot.cjs")).buildSnapshotOnExit(__dirname, "mdsel");
}
runBin(__dirname, "mdsel", ["index", "select"]);
