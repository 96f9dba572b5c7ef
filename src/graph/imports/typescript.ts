/**
 * TypeScript/JavaScript specifiers through the TypeScript compiler's own module resolution
 * (`ts.resolveModuleName`) with the compiler options of the importing file's nearest
 * tsconfig.json/jsconfig.json (extends chains included): relative paths with extension and index
 * probing, `.js` -> `.ts`, `paths`/`baseUrl`, package.json `exports`/`imports` with conditions.
 * The host answers only from the index (and the configuration files on disk), so the answer is a
 * function of what is indexed; workspace packages (npm/yarn `workspaces`, pnpm-workspace.yaml)
 * are seen through a virtual node_modules that maps each package name to its directory, as the
 * package manager's symlinks would once installed. Any other bare specifier is external.
 */
import { createRequire } from "node:module";
import { isBuiltin } from "node:module";
import { posix } from "node:path";
import picomatch from "picomatch";
import type TS from "typescript";
import { parse as parseYaml } from "yaml";
import { loadWithCodeCache, moduleCachePath } from "../../launch/code-cache.cjs";
import type { RepoFiles } from "./repo.js";
import { ASSET, type DepOutcome, type DepRow, EXTERNAL, outcome, UNRESOLVED } from "./types.js";

let tsModule: { ts: typeof TS; save(): void } | undefined;
function ts(): typeof TS {
  // Loaded on first use: only repositories with TypeScript or JavaScript pay for it.
  tsModule ??= loadTypeScript();
  return tsModule.ts;
}

/**
 * The compiler's 9 MB module, compiled from a V8 code cache of the functions an impact update
 * ran (~130 -> ~50 ms of CPU for the load and the first resolutions, on every index run that
 * resolves a TS/JS dependency), unless this process loaded it already (one copy: a server's
 * other users of the compiler require it too). Without a usable cache directory, a plain require.
 */
function loadTypeScript(): { ts: typeof TS; save(): void } {
  const require = createRequire(import.meta.url);
  const file = require.resolve("typescript");
  const had = require.cache[file];
  if (had) return { ts: had.exports as typeof TS, save: () => undefined };
  const cachePath = moduleCachePath(file, "typescript-impact");
  if (cachePath === undefined) return { ts: require(file) as typeof TS, save: () => undefined };
  const m = loadWithCodeCache(file, cachePath);
  return { ts: m.exports as typeof TS, save: m.save };
}

/** Writes the compiler's code cache once an update has resolved with it (a no-op unless there was none). */
export function saveTypeScriptCodeCache(): void {
  tsModule?.save();
}

interface Project {
  options: TS.CompilerOptions;
  cache: TS.ModuleResolutionCache;
  /**
   * Whether a bare specifier that no `paths` pattern matches can resolve only as a package (no
   * `baseUrl`, and a resolution that looks for packages in node_modules rather than for `foo.ts`
   * up the tree).
   */
  packagesOnly: boolean;
  /** The `paths` patterns, as [prefix, suffix] (no `*`: the whole key and null). */
  pathPatterns: [string, string | null][];
}

/** A package.json's `name`, or null (no file, no name, not JSON). */
function packageName(text: string | undefined): string | null {
  if (!text) return null;
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === "string" ? name : null;
  } catch {
    return null;
  }
}

const CODE_EXTS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

export class TypeScriptImports {
  private readonly projects = new Map<string, Project>();
  private readonly configOf = new Map<string, string | null>();
  private workspaces: Map<string, string> | undefined;
  private readonly host: TS.ModuleResolutionHost;
  private readonly rootAbs: string;

  constructor(private readonly repo: RepoFiles) {
    this.rootAbs = posix.normalize(repo.root.replace(/\\/g, "/")).replace(/\/$/, "");
    this.host = {
      fileExists: (p) => {
        const r = this.toRepo(p);
        if (r === undefined) return false;
        if (posix.basename(r) === "package.json") return this.repo.readConfig(r) !== undefined;
        return this.repo.has(r);
      },
      readFile: (p) => {
        const r = this.toRepo(p);
        return r === undefined ? undefined : this.repo.readConfig(r);
      },
      directoryExists: (p) => {
        if (this.isVirtualScope(p)) return true;
        const r = this.toRepo(p);
        return r !== undefined && (r === "." || this.repo.dirs.has(r));
      },
      realpath: (p) => p,
      getCurrentDirectory: () => this.rootAbs,
    };
  }

  /**
   * Workspace package name -> its directory (repository-relative), from every workspace root in
   * the repository (a package.json with `workspaces`, or a pnpm-workspace.yaml), globs relative
   * to it; the first directory (in path order) to claim a name keeps it.
   */
  private workspaceMap(): Map<string, string> {
    if (this.workspaces) return this.workspaces;
    const out = new Map<string, string>();
    const dirs = [...this.repo.dirs.keys()].filter((d) => !d.split("/").includes("node_modules")).sort();
    for (const wsRoot of dirs) {
      const at = (f: string): string => (wsRoot === "." ? f : `${wsRoot}/${f}`);
      const globs: string[] = [];
      const pkgText = this.repo.readConfig(at("package.json"));
      if (pkgText) {
        try {
          const pkg = JSON.parse(pkgText) as { workspaces?: string[] | { packages?: string[] } };
          const w = Array.isArray(pkg.workspaces) ? pkg.workspaces : pkg.workspaces?.packages;
          if (Array.isArray(w)) globs.push(...w.filter((x): x is string => typeof x === "string"));
        } catch {
          // A broken package.json names no workspaces.
        }
      }
      const pnpm = this.repo.readConfig(at("pnpm-workspace.yaml"));
      if (pnpm) {
        try {
          const y = parseYaml(pnpm) as { packages?: unknown };
          if (Array.isArray(y?.packages)) globs.push(...y.packages.filter((x): x is string => typeof x === "string"));
        } catch {
          // Unreadable YAML names no workspaces.
        }
      }
      const norm = (g: string): string => posix.normalize(at(g.replace(/^\.\//, "").replace(/\/$/, "")));
      const include = globs.filter((g) => !g.startsWith("!")).map(norm);
      const exclude = globs.filter((g) => g.startsWith("!")).map((g) => norm(g.slice(1)));
      if (include.length === 0) continue;
      const isIn = picomatch(include);
      const isOut = exclude.length > 0 ? picomatch(exclude) : () => false;
      for (const d of dirs) {
        if (d === "." || !isIn(d) || isOut(d)) continue;
        const name = packageName(this.repo.readConfig(`${d}/package.json`));
        if (name !== null && !out.has(name)) out.set(name, d);
      }
    }
    this.workspaces = out;
    return out;
  }

  private isVirtualScope(p: string): boolean {
    const m = /\/node_modules\/(@[^/]+)\/?$/.exec(p);
    if (!m) return /\/node_modules\/?$/.test(p);
    for (const name of this.workspaceMap().keys()) if (name.startsWith(`${m[1]}/`)) return true;
    return false;
  }

  /** An absolute path as a repository path; node_modules/<workspace package>/x maps to its directory. */
  private toRepo(p: string): string | undefined {
    const abs = p.replace(/\\/g, "/").replace(/(.)\/+$/, "$1");
    const nm = abs.lastIndexOf("/node_modules/");
    if (nm >= 0) {
      const rest = abs.slice(nm + "/node_modules/".length);
      const parts = rest.split("/");
      const name = parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1] ?? ""}` : (parts[0] ?? "");
      const dir = this.workspaceMap().get(name);
      if (dir === undefined) return undefined;
      const tail = rest.slice(name.length).replace(/^\//, "");
      return tail ? posix.join(dir, tail) : dir;
    }
    if (abs === this.rootAbs) return ".";
    if (!abs.startsWith(`${this.rootAbs}/`)) return undefined;
    return abs.slice(this.rootAbs.length + 1);
  }

  /** The nearest tsconfig.json/jsconfig.json above `dir`, or null. */
  private configFor(dir: string): string | null {
    return this.nearest(dir, ["tsconfig.json", "jsconfig.json"], this.configOf);
  }

  /** The first of `names` in `dir`, else in the nearest directory above it that has one (null: none), remembered per directory in `memo`. */
  private nearest(dir: string, names: string[], memo: Map<string, string | null>): string | null {
    const hit = memo.get(dir);
    if (hit !== undefined) return hit;
    let found: string | null = null;
    for (const name of names) {
      const rel = dir === "." ? name : `${dir}/${name}`;
      if (this.repo.readConfig(rel) !== undefined) {
        found = rel;
        break;
      }
    }
    if (found === null && dir !== ".") found = this.nearest(posix.dirname(dir), names, memo);
    memo.set(dir, found);
    return found;
  }

  private project(config: string | null): Project {
    const key = config ?? "";
    let p = this.projects.get(key);
    if (p) return p;
    const t = ts();
    let options: TS.CompilerOptions = {};
    if (config !== null) {
      const abs = `${this.rootAbs}/${config}`;
      const parseHost: TS.ParseConfigHost = {
        useCaseSensitiveFileNames: true,
        // The file list is not needed for module resolution, and walking the tree costs.
        readDirectory: () => [],
        fileExists: (f) => (this.toRepo(f) !== undefined ? this.repo.readConfig(this.toRepo(f) as string) !== undefined : t.sys.fileExists(f)),
        readFile: (f) => (this.toRepo(f) !== undefined ? this.repo.readConfig(this.toRepo(f) as string) : t.sys.readFile(f)),
      };
      const json = t.parseConfigFileTextToJson(abs, this.repo.readConfig(config) ?? "{}");
      const parsed = t.parseJsonConfigFileContent(json.config ?? {}, parseHost, posix.dirname(abs), undefined, abs);
      options = parsed.options;
    }
    // JavaScript and JSON modules are part of the graph whatever the project compiles.
    options = { ...options, allowJs: true, resolveJsonModule: true };
    if (options.moduleResolution === undefined && config === null) options.moduleResolution = t.ModuleResolutionKind.Bundler;
    if (options.moduleResolution === t.ModuleResolutionKind.Bundler && options.module === undefined) options.module = t.ModuleKind.ESNext;
    // (The compiler's own default for the options; internal, so without it no shortcut is taken.)
    const effective = (t as unknown as { getEmitModuleResolutionKind?: (o: TS.CompilerOptions) => TS.ModuleResolutionKind }).getEmitModuleResolutionKind;
    const kind = effective?.(options);
    const packagesOnly =
      options.baseUrl === undefined &&
      (kind === t.ModuleResolutionKind.Node10 || kind === t.ModuleResolutionKind.Node16 || kind === t.ModuleResolutionKind.NodeNext || kind === t.ModuleResolutionKind.Bundler);
    const pathPatterns = Object.keys(options.paths ?? {}).map((k): [string, string | null] => {
      const star = k.indexOf("*");
      return star < 0 ? [k, null] : [k.slice(0, star), k.slice(star + 1)];
    });
    p = { options, cache: t.createModuleResolutionCache(this.rootAbs, (s) => s, options), packagesOnly, pathPatterns };
    this.projects.set(key, p);
    return p;
  }

  resolve(from: string, dep: DepRow): DepOutcome {
    const spec = dep.spec;
    if (spec === null) return UNRESOLVED;
    if (isBuiltin(spec)) return EXTERNAL;
    const t = ts();
    const proj = this.project(this.configFor(posix.dirname(from)));
    const relative = spec.startsWith(".") || spec.startsWith("/");
    const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] as string);
    // A package that is neither a workspace package nor the importer's own (a self-reference
    // through its package.json `exports`) is outside the index, where this host finds nothing:
    // the compiler would only walk up the tree probing node_modules for it (a third of the TS/JS
    // dependencies' resolution time on the 76 MB mixed tree), to the same answer.
    if (
      !relative &&
      !spec.startsWith("#") &&
      proj.packagesOnly &&
      !proj.pathPatterns.some(([pre, suf]) => (suf === null ? spec === pre : spec.length >= pre.length + suf.length && spec.startsWith(pre) && spec.endsWith(suf))) &&
      !this.workspaceMap().has(name) &&
      !this.typesPackages() &&
      this.scopeName(posix.dirname(from)) !== name
    ) {
      return ASSET.test(spec) ? { status: "asset", targets: [] } : EXTERNAL;
    }
    const mode = dep.form === "require" ? t.ModuleKind.CommonJS : t.ModuleKind.ESNext;
    const r = t.resolveModuleName(spec, `${this.rootAbs}/${from}`, proj.options, this.host, proj.cache, undefined, mode);
    const file = r.resolvedModule?.resolvedFileName;
    if (file !== undefined) {
      let rel = this.toRepo(file);
      // TypeScript answers with the declaration file where a .js sits beside it; a JavaScript
      // importer loads the .js at run time, so that is the file it depends on.
      if (rel !== undefined && /\.d\.[mc]?ts$/.test(rel) && /\.[mc]?jsx?$/.test(from)) {
        const js = rel.replace(/\.d\.(m|c)?ts$/, ".$1js");
        if (this.repo.has(js)) rel = js;
      }
      const f = rel !== undefined ? this.repo.byPath.get(rel) : undefined;
      if (f) return outcome([f.id], UNRESOLVED);
    }
    // What TypeScript does not resolve but a bundler or Node does: a `.js` file under a folder
    // of the same name, a CSS or JSON asset.
    if (relative) {
      const base = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/(.)\/+$/, "$1");
      for (const p of [base, ...CODE_EXTS.map((e) => base + e), ...CODE_EXTS.map((e) => `${base}/index${e}`)]) {
        const f = this.repo.byPath.get(p);
        if (f) return outcome([f.id], UNRESOLVED);
      }
      return ASSET.test(spec) ? { status: "asset", targets: [] } : UNRESOLVED;
    }
    // A bare specifier: a workspace package that did not resolve is unresolved (its entry point
    // is missing), anything else is a library.
    if (this.workspaceMap().has(name)) return UNRESOLVED;
    if (spec.startsWith("#")) return UNRESOLVED;
    return ASSET.test(spec) ? { status: "asset", targets: [] } : EXTERNAL;
  }

  private typesWorkspace: boolean | undefined;

  /** Whether a workspace package is an `@types/` one, which the compiler finds for a bare name of another package. */
  private typesPackages(): boolean {
    this.typesWorkspace ??= [...this.workspaceMap().keys()].some((n) => n.startsWith("@types/"));
    return this.typesWorkspace;
  }

  /** Nearest package.json by directory, and the names of those read (asked once per bare specifier). */
  private readonly scopes = new Map<string, string | null>();
  private readonly scopeNames = new Map<string, string | null>();

  /** The `name` of the package.json nearest above `dir` (the package a file there belongs to), or null. */
  private scopeName(dir: string): string | null {
    const pkg = this.nearest(dir, ["package.json"], this.scopes);
    if (pkg === null) return null;
    let name = this.scopeNames.get(pkg);
    if (name === undefined) this.scopeNames.set(pkg, (name = packageName(this.repo.readConfig(pkg))));
    return name;
  }

  /** A template's pattern (`./locale/*.js`) against the indexed files: every match, smallest first. */
  matchPattern(from: string, pattern: string): number[] {
    if (!pattern.startsWith(".")) return [];
    const abs = posix.normalize(posix.join(posix.dirname(from), pattern));
    const re = new RegExp(`^${abs.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")}(${CODE_EXTS.map((e) => e.replace(".", "\\.")).join("|")})?$`);
    const dir = abs.slice(0, abs.indexOf("*")).replace(/\/[^/]*$/, "") || ".";
    const out: { path: string; id: number }[] = [];
    for (const [d, fs] of this.repo.dirs) {
      if (d !== dir && !d.startsWith(`${dir}/`)) continue;
      for (const f of fs) if (re.test(f.path)) out.push(f);
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : 1)).map((f) => f.id);
  }
}
