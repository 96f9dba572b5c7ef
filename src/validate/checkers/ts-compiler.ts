/**
 * The TypeScript compiler, loaded the cheap way for a process that checks one file and exits:
 *
 * - CommonJS evaluation, not an ESM import: importing this 9 MB CommonJS bundle makes Node 20
 *   sniff its module format and lex it for named exports before compiling it (~0.9 s of CPU
 *   on every cold check, against ~0.35 s for require()).
 * - A V8 code cache (what `tsc` gets from Node 22's module.enableCompileCache; Node 20 has no
 *   such switch): the bytecode of every function the first check compiled is saved once in a
 *   private per-user directory and handed to V8 on later runs, which then neither compiles the
 *   bundle's top level nor, lazily, the parser/binder/checker functions. V8 checks the cache
 *   against the source and its own version and flags and ignores a stale one; any trouble with
 *   the cache falls back to a plain load. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
import { createRequire } from "node:module";
import { workerData } from "node:worker_threads";
import type TS from "typescript";
import { loadWithCodeCache, moduleCachePath } from "../../launch/code-cache.cjs";

export type { TS };

const localRequire = createRequire(import.meta.url);
// The worker is told which compiler to load: the project's own (its version, its lib .d.ts files)
// when the project has one, else ours.
const FILE = (workerData as { typescript?: string } | null)?.typescript ?? localRequire.resolve("typescript");

interface Loaded {
  ts: typeof TS;
  /** Writes the code cache when there was none (or V8 refused it); a no-op otherwise. */
  saveCodeCache(): void;
}

function load(): Loaded {
  const cachePath = moduleCachePath(FILE, "typescript");
  if (cachePath === undefined) return { ts: localRequire(FILE) as typeof TS, saveCodeCache: () => undefined };
  // Node's CommonJS wrapper: the bundle sees its own require and __filename (ts.sys finds the lib
  // .d.ts files next to it).
  const m = loadWithCodeCache(FILE, cachePath);
  return { ts: m.exports as typeof TS, saveCodeCache: m.save };
}

const loaded = load();

export const ts = loaded.ts;
/** Call once a check has run, so the cache holds the functions a check needs. */
export const saveCodeCache = loaded.saveCodeCache;
