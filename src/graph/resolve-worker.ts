/**
 * Worker thread of a cold index's resolution: opens the index read-only (every file, symbol and
 * reference is committed before it starts) and resolves the units it is sent (see
 * resolve-pool.ts), with a bounded cache of candidate symbols (resolve.ts RESOLVE_CACHE_SYMBOLS).
 */
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { openDb } from "./db.js";
import { Resolver } from "./resolve.js";
import type { ResolveUnit, ResolvedUnitMessage } from "./resolve-pool.js";

const { dbPath, root } = workerData as { dbPath: string; root: string };
const db = openDb(dbPath, { write: false });
// It reads candidates and a few rows per file by index and pages of references in rowid order:
// a small page cache does.
db.pragma("cache_size = -8000");
const resolver = new Resolver(db, root);
const debug = process.env.MAGELLAN_DEBUG
  ? (m: string): void => {
      const h = getHeapStatistics();
      process.stderr.write(`magellan: resolve worker: ${m} (heap ${h.used_heap_size >> 20} of ${h.total_heap_size >> 20} MB, rss ${process.memoryUsage.rss() >> 20} MB)\n`);
    }
  : undefined;

parentPort?.on("message", (u: ResolveUnit) => {
  const out: ResolvedUnitMessage = { unit: u.unit, ...resolver.resolveUnit(u.from, u.to) };
  if (u.unit % 16 === 15) debug?.(`resolved unit ${u.unit}`);
  parentPort?.postMessage(out);
});
