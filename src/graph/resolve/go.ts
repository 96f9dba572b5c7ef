/** Go import paths: a directory under the go.mod whose module path prefixes them. */
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { FileLookup } from "./files.js";

export class GoModules {
  private readonly goModules = new Map<string, { dir: string; path: string } | null>();
  private readonly packageNames = new Map<string, string | null>();

  constructor(private readonly files: FileLookup) {}

  resolve(fromPath: string, source: string, out: number[]): void {
    // Within the module (go.mod's `module` path), an import path is a directory under go.mod's.
    // An importer never sees the package's _test.go files (the impact graph's GoImports agrees),
    // but the package's own external tests (`package p_test` beside it) do, as `go test` builds
    // them (export_test.go).
    const n = out.length;
    const dir = this.packageDir(fromPath, source);
    if (dir !== undefined) this.files.dirFiles(dir, ".go", out);
    else this.files.dirMatch(source, ".go", out);
    const ownTest = fromPath.endsWith("_test.go");
    const found = out.splice(n).filter((id) => {
      const p = this.files.pathOf(id) ?? "";
      return !p.endsWith("_test.go") || (ownTest && posix.dirname(p) === posix.dirname(fromPath));
    });
    out.push(...found);
  }

  /** The directory of an import path of the importing file's own module. */
  private packageDir(fromPath: string, source: string): string | undefined {
    const mod = this.goModule(posix.dirname(fromPath));
    return mod && (source === mod.path || source.startsWith(`${mod.path}/`)) ? posix.join(mod.dir, source.slice(mod.path.length + 1)) : undefined;
  }

  /**
   * The name an import without an alias binds: the package clause of the package's files when
   * the module is the repository's, else as Go names packages by their path: the last element,
   * not a major version (`github.com/urfave/cli/v3` is `cli`, `gopkg.in/yaml.v3` is `yaml`).
   * The last element was taken, so `cli.Command` with `.../cli/v3` reached nothing.
   */
  packageName(fromPath: string, source: string): string | undefined {
    const dir = this.packageDir(fromPath, source);
    const root = this.files.root;
    if (dir !== undefined && root !== undefined) {
      let hit = this.packageNames.get(dir);
      if (hit === undefined) {
        hit = goDirPackage(root, dir);
        this.packageNames.set(dir, hit);
      }
      if (hit !== null) return hit;
    }
    return goPackageName(source);
  }

  /** The import path of directory `dir` in its module (undefined: no go.mod governs it). */
  importPath(dir: string): string | undefined {
    const mod = this.goModule(dir);
    if (!mod) return undefined;
    const rel = mod.dir === "." ? (dir === "." ? "" : dir) : dir === mod.dir ? "" : dir.slice(mod.dir.length + 1);
    return rel === "" ? mod.path : `${mod.path}/${rel}`;
  }

  external(fromPath: string, source: string): boolean {
    const mod = this.goModule(posix.dirname(fromPath));
    return !mod || !(source === mod.path || source.startsWith(`${mod.path}/`));
  }

  /** The go.mod that governs directory `dir` (its directory and module path), read from disk. */
  goModule(dir: string): { dir: string; path: string } | undefined {
    const root = this.files.root;
    return root === undefined ? undefined : goModuleOf(root, dir, this.goModules);
  }
}

/**
 * The go.mod that governs root-relative directory `dir`: the nearest at or above it, with its
 * `module` path; `cache` keeps what each directory asked came to.
 */
export function goModuleOf(root: string, dir: string, cache: Map<string, { dir: string; path: string } | null>): { dir: string; path: string } | undefined {
  const hit = cache.get(dir);
  if (hit !== undefined) return hit ?? undefined;
  let found: { dir: string; path: string } | null = null;
  try {
    const text = readFileSync(join(root, dir, "go.mod"), "utf8");
    const m = /^\s*module\s+"?([^\s"]+)"?/m.exec(text);
    if (m) found = { dir, path: m[1] as string };
  } catch {
    found = dir === "." || dir === "" ? null : (goModuleOf(root, posix.dirname(dir), cache) ?? null);
  }
  cache.set(dir, found);
  return found ?? undefined;
}

/**
 * The package a directory's Go files declare, as the package clause of the first of its files
 * (by name) that is not a test and has one; null when none does or the directory is unreadable.
 */
export function goDirPackage(root: string, dir: string): string | null {
  try {
    const names = readdirSync(join(root, dir))
      .filter((f) => f.endsWith(".go") && !f.endsWith("_test.go"))
      .sort();
    for (const f of names) {
      const head = readFileSync(join(root, dir, f), "utf8").slice(0, 16_384);
      const m = /^\s*package\s+([\p{L}_][\p{L}\p{N}_]*)/mu.exec(head.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ""));
      if (m) return m[1] as string;
    }
  } catch {
    // unreadable: no name
  }
  return null;
}

/** The package name Go's convention gives an import path: its last element, not a major version. */
export function goPackageName(source: string): string | undefined {
  const parts = source.split("/").filter(Boolean);
  let last = parts.pop();
  if (last !== undefined && /^v[0-9]+$/.test(last) && parts.length > 0) last = parts.pop();
  return last?.replace(/\.v[0-9]+$/, "");
}
