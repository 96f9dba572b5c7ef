/**
 * Build step after tsc: replaces dist/src/cli/magellan-read.js (magellan's read commands and all
 * of our modules they load) by one bundled file. Node's ESM loader pays for every module it
 * resolves, reads, links and evaluates; one file instead of twenty takes about a fifth off a
 * `magellan find`. npm packages stay external. The unbundled tsc output behaves the same, only
 * slower, so this is an optimisation and never a source of truth.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

const ENTRIES = ["dist/src/cli/magellan-read.js"];

for (const entry of ENTRIES) {
  await build({
    entryPoints: [REPO + entry],
    outfile: REPO + entry,
    allowOverwrite: true,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
}
