import { readFileSync } from "node:fs";

/** Version of the wire contract (CONTRACT.md: semver, starting at 1.0.0). */
export const SCHEMA_VERSION = "1.0.0";

let cached: string | undefined;
/** The package version, read once from package.json so `--version` never drifts. */
export function packageVersion(): string {
  if (cached === undefined) {
    // The nearest package.json above this module: dist/src/contract/version.js, or a bundle
    // elsewhere under dist/.
    let url = new URL("./package.json", import.meta.url);
    for (;;) {
      try {
        cached = (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
        break;
      } catch (e) {
        const up = new URL("../package.json", url);
        if ((e as NodeJS.ErrnoException).code !== "ENOENT" || up.href === url.href) throw e;
        url = up;
      }
    }
  }
  return cached;
}
