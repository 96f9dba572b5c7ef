import { readFileSync } from "node:fs";

/** Version of the wire contract (CONTRACT.md: semver, starting at 1.0.0). */
export const SCHEMA_VERSION = "1.0.0";

let cached: string | undefined;
/** The package version, read once from package.json so `--version` never drifts. */
export function packageVersion(): string {
  if (cached === undefined) {
    // dist/src/contract/version.js -> ../../../package.json
    const url = new URL("../../../package.json", import.meta.url);
    cached = (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
  }
  return cached;
}
