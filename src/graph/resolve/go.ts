/** Go import paths: a directory under the go.mod whose module path prefixes them. */
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { FileLookup } from "./files.js";

export class GoModules {
  private readonly goModules = new Map<string, { dir: string; path: string } | null>();

  constructor(private readonly files: FileLookup) {}

  resolve(fromPath: string, source: string, out: number[]): void {
    // Within the module (go.mod's `module` path), an import path is a directory under go.mod's.
    const mod = this.goModule(posix.dirname(fromPath));
    if (mod && (source === mod.path || source.startsWith(`${mod.path}/`))) {
      this.files.dirFiles(posix.join(mod.dir, source.slice(mod.path.length + 1)), ".go", out);
    } else this.files.dirMatch(source, ".go", out);
  }

  external(fromPath: string, source: string): boolean {
    const mod = this.goModule(posix.dirname(fromPath));
    return !mod || !(source === mod.path || source.startsWith(`${mod.path}/`));
  }

  /** The go.mod that governs directory `dir` (its directory and module path), read from disk. */
  goModule(dir: string): { dir: string; path: string } | undefined {
    const root = this.files.root;
    if (root === undefined) return undefined;
    const hit = this.goModules.get(dir);
    if (hit !== undefined) return hit ?? undefined;
    let found: { dir: string; path: string } | null = null;
    try {
      const text = readFileSync(join(root, dir, "go.mod"), "utf8");
      const m = /^\s*module\s+"?([^\s"]+)"?/m.exec(text);
      if (m) found = { dir, path: m[1] as string };
    } catch {
      found = dir === "." || dir === "" ? null : (this.goModule(posix.dirname(dir)) ?? null);
    }
    this.goModules.set(dir, found);
    return found ?? undefined;
  }
}
