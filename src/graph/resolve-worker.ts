/**
 * Worker thread of a cold index's resolution: opens the index read-only (every file and symbol
 * is committed before it starts), loads all candidate symbols once, and resolves the references
 * of each batch of files it is sent; the main thread stores them. See resolve-pool.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDb } from "./db.js";
import { Resolver } from "./resolve.js";
import type { ResolveBatch, ResolvedBatch } from "./resolve-pool.js";

const { dbPath, root } = workerData as { dbPath: string; root: string };
const db = openDb(dbPath, { write: false });
// After the one scan of preload() it reads a few rows per file by index: a small page cache does.
db.pragma("cache_size = -8000");
const resolver = new Resolver(db, root);
resolver.preload();

parentPort?.on("message", (batch: ResolveBatch) => {
  const targets: (string | null)[] = [];
  const hows: string[] = [];
  const candidates: (string | null)[] = [];
  for (const f of batch.files) {
    for (let i = 0; i < f.names.length; i++) {
      const r = resolver.resolveRef({
        id: 0,
        file_id: f.id,
        name: f.names[i] as string,
        kind: f.kinds[i] as string,
        qualifier: f.qualifiers[i] ?? null,
        caller_symbol_id: f.callers[i] ?? null,
      });
      targets.push(r.target);
      hows.push(r.how);
      candidates.push(r.candidates ? JSON.stringify(r.candidates) : null);
    }
  }
  const out: ResolvedBatch = { batch: batch.batch, targets, hows, candidates };
  parentPort?.postMessage(out);
});
