/**
 * Real code to measure on, fetched from the npm registry (the one network this project may use)
 * into .bench-corpus/ on first use and kept there. Pinned versions, so runs compare.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./lib.js";

export const CORPUS_DIR = join(REPO_ROOT, ".bench-corpus");

/**
 * A real TypeScript code base: effect@3's sources and declaration files plus rxjs's
 * (about 395k lines of .ts). Returns the directory holding them.
 */
export function typescriptCorpus(): string {
  const dir = join(CORPUS_DIR, "typescript");
  for (const spec of ["effect@3.22.4", "rxjs@7.8.2"]) {
    const name = spec.slice(0, spec.lastIndexOf("@"));
    const target = join(dir, name);
    if (existsSync(target)) continue;
    mkdirSync(target, { recursive: true });
    const tgz = execFileSync("npm", ["pack", spec, "--silent", "--pack-destination", target], { encoding: "utf8" }).trim().split("\n").pop() as string;
    execFileSync("tar", ["xzf", join(target, tgz), "-C", target, "--strip-components=1"]);
  }
  return dir;
}

/** Lines in files with the given extensions under `dir` (for the table's notes). */
export function countLines(dir: string, extensions: string[]): { files: number; lines: number } {
  let files = 0;
  let lines = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && extensions.some((x) => e.name.endsWith(x)) && statSync(p).size > 0) {
        files++;
        const buf = readFileSync(p);
        for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
      }
    }
  };
  walk(dir);
  return { files, lines };
}
