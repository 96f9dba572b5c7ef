/** TypeScript/JavaScript module specifiers: relative paths, tsconfig/jsconfig `paths` and `baseUrl`. */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as Jsonc from "jsonc-parser";
import { join, posix } from "node:path";
import type { FileLookup } from "./files.js";

export const TS_EXTS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** What module resolution takes from a tsconfig: repository-relative directories. */
export interface TsConfig {
  baseUrl?: string;
  /** The directory `paths` targets are relative to: baseUrl, else the config that set them. */
  pathsBase: string;
  paths: [string, string[]][];
}

/**
 * Reads a tsconfig (JSON with comments and trailing commas) and the configs it extends by
 * relative path; a package name in `extends` is not followed (it lives in node_modules).
 */
export function readTsConfig(root: string, rel: string, depth: number): TsConfig | undefined {
  let raw: unknown;
  try {
    // Loaded here: only repositories with a tsconfig pay for it, and no query command does.
    const jsonc = createRequire(import.meta.url)("jsonc-parser") as typeof Jsonc;
    raw = jsonc.parse(readFileSync(join(root, rel), "utf8"), [], { allowTrailingComma: true });
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== "object") return undefined;
  const cfgDir = posix.dirname(rel);
  const { extends: ext, compilerOptions } = raw as { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } };
  let out: TsConfig = { pathsBase: cfgDir, paths: [] };
  for (const e of typeof ext === "string" ? [ext] : Array.isArray(ext) ? ext : []) {
    if (typeof e !== "string" || !e.startsWith(".") || depth > 8) continue;
    const target = posix.normalize(posix.join(cfgDir, e.endsWith(".json") ? e : `${e}.json`));
    const base = readTsConfig(root, target, depth + 1);
    if (base) out = base;
  }
  const baseUrl = typeof compilerOptions?.baseUrl === "string" ? posix.normalize(posix.join(cfgDir, compilerOptions.baseUrl)) : undefined;
  if (baseUrl !== undefined) out = { ...out, baseUrl, pathsBase: baseUrl };
  const paths = compilerOptions?.paths;
  if (paths && typeof paths === "object") {
    out = {
      ...out,
      pathsBase: baseUrl ?? cfgDir,
      paths: Object.entries(paths as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : []]),
    };
  }
  return out;
}

/** The targets of the `paths` pattern that matches `source` (exact first, then the longest prefix), with `*` filled in. */
export function matchTsPaths(paths: [string, string[]][], source: string): string[] | undefined {
  let best: { prefix: number; targets: string[] } | undefined;
  for (const [pattern, targets] of paths) {
    const star = pattern.indexOf("*");
    if (star < 0) {
      if (pattern === source) return targets;
      continue;
    }
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (source.length < prefix.length + suffix.length || !source.startsWith(prefix) || !source.endsWith(suffix)) continue;
    if (best && best.prefix >= prefix.length) continue;
    const captured = source.slice(prefix.length, source.length - suffix.length);
    best = { prefix: prefix.length, targets: targets.map((t) => t.replace("*", captured)) };
  }
  return best?.targets;
}

interface PackageJson {
  name?: unknown;
  exports?: unknown;
  types?: unknown;
  typings?: unknown;
  module?: unknown;
  main?: unknown;
}

/** The targets an `exports` entry names, every condition's, in order (`{ "@zod/source": "./src/index.ts", "types": ..., "import": ... }`). */
function exportTargets(entry: unknown): string[] {
  if (typeof entry === "string") return [entry];
  if (Array.isArray(entry)) return entry.flatMap(exportTargets);
  if (entry && typeof entry === "object") return Object.values(entry).flatMap(exportTargets);
  return [];
}

export class TypeScriptModules {
  private readonly tsConfigs = new Map<string, TsConfig | null>();

  constructor(private readonly files: FileLookup) {}

  resolve(fromPath: string, source: string, out: number[]): void {
    const dir = posix.dirname(fromPath);
    // A module path as TypeScript resolves it: the file, another extension, a folder's index.
    const tryPath = (p: string): boolean => this.files.tryPath(p, out);
    const tsFile = (base: string): boolean => {
      const stem = base.replace(/\.(m|c)?js$|\.jsx$/, "");
      return tryPath(base) || TS_EXTS.some((e) => tryPath(stem + e)) || TS_EXTS.some((e) => tryPath(`${base}/index${e}`));
    };
    if (source.startsWith(".")) tsFile(posix.join(dir, source));
    else {
      // tsconfig/jsconfig `paths` (`@/components/ui/button`) and `baseUrl`.
      const cfg = this.tsConfig(dir);
      const n = out.length;
      if (cfg) {
        const hit = matchTsPaths(cfg.paths, source);
        const done = hit !== undefined && hit.some((t) => tsFile(posix.join(cfg.pathsBase, t)));
        if (!done && cfg.baseUrl !== undefined) tsFile(posix.join(cfg.baseUrl, source));
      }
      if (out.length === n) this.packageEntry(source, tsFile);
    }
  }

  private packages: Map<string, { dir: string; json: PackageJson }> | undefined;

  /**
   * A package of the repository imported by its name (`import * as z from "zod/v4"` in zod's own
   * tests, a workspace package from its sibling): the file its package.json `exports` (any
   * condition whose target is an indexed file, `./dist/x.js` also read as `./src/x.ts`), or
   * `types`/`module`/`main`, or the subpath, names. The impact graph resolved these through the
   * compiler; references did not (zod: 5,480 `z.*` calls of its tests were unresolved).
   */
  private packageEntry(source: string, tsFile: (base: string) => boolean): boolean {
    const name = packageName(source);
    const pkg = this.packageMap().get(name);
    if (!pkg) return false;
    const sub = source.slice(name.length).replace(/^\//, "");
    const at = (target: string): boolean => {
      const t = posix.join(pkg.dir, target);
      if (tsFile(t)) return true;
      const src = t.replace(/(^|\/)(?:dist|lib|build|out|esm|cjs)\//, "$1src/").replace(/\.d\.([mc]?)ts$/, ".$1ts");
      if (src !== t && tsFile(src)) return true;
      // A package published from its build's root (drizzle-orm's `main: ./index.cjs`, its
      // `drizzle-orm/mysql-core` built from src/mysql-core): the same path under src/.
      const rel = posix.normalize(target);
      return !rel.startsWith("src/") && !rel.startsWith("..") && tsFile(posix.join(pkg.dir, "src", target.replace(/\.d\.([mc]?)ts$/, ".$1ts")));
    };
    const exp = pkg.json.exports;
    if (exp !== undefined && exp !== null) {
      const key = sub === "" ? "." : `./${sub}`;
      const map = typeof exp === "string" || Array.isArray(exp) || !Object.keys(exp).some((k) => k.startsWith(".")) ? { ".": exp } : (exp as Record<string, unknown>);
      let entry = map[key];
      if (entry === undefined) {
        // A pattern: `"./*": "./src/*.ts"`.
        for (const [k, v] of Object.entries(map)) {
          const star = k.indexOf("*");
          if (star < 0 || !key.startsWith(k.slice(0, star)) || !key.endsWith(k.slice(star + 1)) || key.length < k.length - 1) continue;
          const captured = key.slice(star, key.length - (k.length - star - 1));
          entry = JSON.parse(JSON.stringify(v).replaceAll("*", captured)) as unknown;
          break;
        }
      }
      for (const target of exportTargets(entry)) if (at(target)) return true;
      if (entry !== undefined) return false;
    }
    if (sub !== "") return at(sub);
    for (const f of [pkg.json.types, pkg.json.typings, pkg.json.module, pkg.json.main]) if (typeof f === "string" && at(f)) return true;
    return at("index") || at("src/index");
  }

  /** The repository's packages by name: the package.json files in the directories of indexed files and above them. */
  private packageMap(): Map<string, { dir: string; json: PackageJson }> {
    if (this.packages) return this.packages;
    const out = new Map<string, { dir: string; json: PackageJson }>();
    this.packages = out;
    const root = this.files.root;
    if (root === undefined || this.files.directories === undefined) return out;
    const seen = new Set<string>();
    for (let dir of this.files.directories()) {
      while (!seen.has(dir)) {
        seen.add(dir);
        if (!dir.split("/").includes("node_modules")) {
          try {
            const json = JSON.parse(readFileSync(join(root, dir === "." ? "package.json" : `${dir}/package.json`), "utf8")) as PackageJson;
            // The first directory (in path order) to claim a name keeps it.
            if (typeof json?.name === "string" && (!out.has(json.name) || dir < (out.get(json.name) as { dir: string }).dir)) out.set(json.name, { dir, json });
          } catch {
            // No package.json here, or an unreadable one.
          }
        }
        if (dir === "." || dir === "") break;
        dir = posix.dirname(dir);
      }
    }
    return out;
  }

  external(source: string): boolean {
    return !source.startsWith(".") && !source.startsWith("/");
  }

  /** Whether a bare specifier names a package of the repository (`drizzle-orm/mysql-core` in drizzle's own tests). */
  ownPackage(source: string): boolean {
    return !source.startsWith(".") && !source.startsWith("/") && this.packageMap().has(packageName(source));
  }

  /** The tsconfig.json (or jsconfig.json) nearest above directory `dir`, with what resolution needs of it. */
  private tsConfig(dir: string): TsConfig | undefined {
    const root = this.files.root;
    if (root === undefined) return undefined;
    const hit = this.tsConfigs.get(dir);
    if (hit !== undefined) return hit ?? undefined;
    let found: TsConfig | null = null;
    for (const name of ["tsconfig.json", "jsconfig.json"]) {
      const rel = dir === "." || dir === "" ? name : `${dir}/${name}`;
      if (existsSync(join(root, rel))) {
        found = readTsConfig(root, rel, 0) ?? null;
        break;
      }
    }
    if (found === null && dir !== "." && dir !== "") found = this.tsConfig(posix.dirname(dir)) ?? null;
    this.tsConfigs.set(dir, found);
    return found ?? undefined;
  }
}

/** The package a bare specifier names: `zod` of `zod/v4`, `@scope/pkg` of `@scope/pkg/sub`. */
function packageName(source: string): string {
  return source.startsWith("@") ? source.split("/").slice(0, 2).join("/") : (source.split("/")[0] as string);
}
