/**
 * V8 code caches for short-lived processes on Node 20, which has no module.enableCompileCache:
 * the bytecode of every function a run compiled is saved once and handed to V8 on later runs,
 * which then compiles neither the file's top level nor, lazily, the functions that run.
 *
 * CommonJS (a .cts file), so that a bin can load it with require() before any ES module loader
 * is set up; ES modules import it too.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";

/**
 * The per-user cache directory, only if it is ours alone (a cache planted by someone else would
 * be code we run). Undefined when caching is off (NODE_DISABLE_COMPILE_CACHE, as Node 22 spells
 * it) or the directory cannot be trusted.
 */
export function privateCacheDir(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const dir = join(tmpdir(), `llmtools-v8-cache-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0 ? dir : undefined;
}

/**
 * Where the code cache of a module loaded with loadWithCodeCache lives: `<prefix>-<hash>.v8` in
 * the private cache directory, the hash over Node's version, architecture and flags and the
 * file's path, size and mtime. Undefined when there is no usable directory.
 */
export function moduleCachePath(file: string, prefix: string): string | undefined {
  try {
    const dir = privateCacheDir();
    if (!dir) return undefined;
    const st = statSync(file);
    const key = [process.version, process.arch, file, st.size, st.mtimeMs, process.execArgv.join(" ")].join("\u0000");
    const path = join(dir, `${prefix}-${createHash("sha256").update(key).digest("hex").slice(0, 32)}.v8`);
    if (!existsSync(path)) pruneModuleCaches(dir, prefix, MODULE_CACHES_KEPT - 1);
    return path;
  } catch {
    return undefined;
  }
}

/**
 * Module caches kept per prefix, the most recently written: one per compiler install in use (a
 * project's own TypeScript is loaded from its path, ~3 MB of cache each), not one per install
 * ever seen (a test suite left 186 MB of them).
 */
export const MODULE_CACHES_KEPT = 8;

function pruneModuleCaches(dir: string, prefix: string, keep: number): void {
  const own = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-[0-9a-f]{32}\\.v8$`);
  const caches = readdirSync(dir)
    .filter((n) => own.test(n))
    .map((n) => {
      try {
        return { n, t: statSync(join(dir, n)).mtimeMs };
      } catch {
        return { n, t: 0 };
      }
    })
    .sort((a, b) => b.t - a.t);
  for (const c of caches.slice(keep)) rmSync(join(dir, c.n), { force: true });
}

/** Writes a cache file whole or not at all (concurrent writers each rename their own file). */
function writeCacheFile(target: string, data: Buffer): void {
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, target);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * The cache file of a script: named by the script and its size and mtime (a rebuilt script gets
 * a new cache; V8's own check compares only the source length), by Node's version and flags (V8
 * refuses a cache from another version or other flags anyway), and by `variant`: what the run
 * does (a command), so that each kind of run keeps the functions it needs.
 */
function cacheFileFor(dir: string, file: string, variant: string): { path: string; build: string } {
  const st = statSync(file);
  const flags = process.execArgv.join(" ").replace(/[^\w.-]+/g, "_").slice(0, 64);
  const build = `-${st.size}-${Math.trunc(st.mtimeMs)}.v8`;
  return { path: join(dir, `${basename(file)}-${variant}-${process.version}-${process.arch}-${flags}${build}`), build };
}

export interface CachedModule {
  exports: unknown;
  /** True when there was no cache or V8 refused it: save() then writes one. */
  fresh: boolean;
  /**
   * Writes the cache (call once the run compiled what it needs), after running the file's
   * `primeCodeCache` export when it has one; a no-op unless fresh.
   */
  save(): void;
}

/**
 * Runs a CommonJS file as Node's loader would (the same wrapper: its own require, module,
 * __filename and __dirname), compiled from the code cache at `cachePath` when V8 accepts it.
 * `extras` are more bindings the file sees. Without a cache path it compiles as usual.
 */
export function loadWithCodeCache(file: string, cachePath: string | undefined, extras: readonly { name: string; value: unknown }[] = []): CachedModule {
  const source = readFileSync(file, "utf8");
  let cachedData: Buffer | undefined;
  try {
    if (cachePath !== undefined) cachedData = readFileSync(cachePath);
  } catch {
    cachedData = undefined;
  }
  // A shebang is not JavaScript once wrapped; a comment of the same length keeps the positions.
  const body = source.startsWith("#!") ? `//${source.slice(2)}` : source;
  const params = ["exports", "require", "module", "__filename", "__dirname", ...extras.map((e) => e.name)].join(", ");
  const script = new Script(`(function (${params}) {${body}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const mod = { exports: {} };
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file), ...extras.map((e) => e.value));
  const fresh = cachePath !== undefined && (cachedData === undefined || script.cachedDataRejected === true);
  return {
    get exports() {
      return mod.exports;
    },
    fresh,
    save: () => {
      if (!fresh || cachePath === undefined) return;
      // A bundle may name more work worth caching than this run did (mdsel: both Markdown
      // parsers, whatever the first document was); a failure there only means a smaller cache.
      const prime = (mod.exports as { primeCodeCache?: unknown }).primeCodeCache;
      try {
        if (typeof prime === "function") (prime as () => void)();
      } catch {
        // The cache still holds what the run compiled.
      }
      writeCacheFile(cachePath, script.createCachedData());
    },
  };
}

/**
 * Runs a CommonJS bundle (`file`) with a code cache when one can be kept. The bundle gets
 * `__esmImport(specifier)` for its dynamic imports of ES modules (a script compiled from a cache
 * loses the host data `import()` needs); a specifier is relative to the bundle. It also gets
 * `__bundledRequire(name)`, which loads a package the build bundled on its own beside it
 * (`<name>.bundle.cjs`, e.g. mdsel's markdown-it) with a code cache of its own, so that runs which
 * never need the package do not pay for its share of one large cache; without that file it is a
 * plain require. Each cache is written at exit, after the run compiled what it needed, when there
 * was none or V8 refused it; a missing or unusable cache only means compiling as usual.
 */
export function runBundle(file: string, variant: string): void {
  const dir = dirname(file);
  const esmImport = (specifier: string): Promise<unknown> => import(pathToFileURL(join(dir, specifier)).href);
  const libraries = new Map<string, unknown>();
  const bundledRequire = (name: string): unknown => {
    if (!libraries.has(name)) {
      const lib = join(dir, `${name}.bundle.cjs`);
      libraries.set(name, /^[a-z][a-z0-9.-]*$/.test(name) && existsSync(lib) ? loadCached(lib, "lib") : createRequire(file)(name));
    }
    return libraries.get(name);
  };
  loadCached(file, variant, [
    { name: "__esmImport", value: esmImport },
    { name: "__bundledRequire", value: bundledRequire },
  ]);
}

/** Loads `file` with its code cache for `variant`, and writes that cache at exit when it had none. */
function loadCached(file: string, variant: string, extras: readonly { name: string; value: unknown }[] = []): unknown {
  let cache: { path: string; build: string } | undefined;
  try {
    const dir = privateCacheDir();
    cache = dir === undefined ? undefined : cacheFileFor(dir, file, /^[a-z][a-z-]{0,23}$/.test(variant) ? variant : "other");
  } catch {
    cache = undefined;
  }
  const loaded = loadWithCodeCache(file, cache?.path, extras);
  if (cache && loaded.fresh) {
    const { path: target, build } = cache;
    process.once("exit", () => {
      try {
        loaded.save();
        // Caches of earlier builds of this script are of no further use.
        const stem = `${basename(file)}-`;
        for (const name of readdirSync(dirname(target))) {
          if (name.startsWith(stem) && name.endsWith(".v8") && !name.endsWith(build)) rmSync(join(dirname(target), name), { force: true });
        }
      } catch {
        // A cache is an optimisation: failing to keep one changes nothing else.
      }
    });
  }
  return loaded.exports;
}

/**
 * Runs a tool in this process: `<name>.bundle.cjs` beside it with a code cache per command (each
 * command compiles other functions; an unknown one shares the "other" cache), or, when the build
 * made no bundle (tsc alone), the ES module `<name>.js` tsc emitted, which behaves the same.
 */
export function runLocal(dir: string, name: string, commands: readonly string[]): void {
  const bundle = join(dir, `${name}.bundle.cjs`);
  const command = process.argv[2] ?? "";
  if (existsSync(bundle)) runBundle(bundle, commands.includes(command) ? command : "other");
  else void import(pathToFileURL(join(dir, `${name}.js`)).href);
}
