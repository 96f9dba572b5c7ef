/**
 * A cold index's resolution on worker threads. After extraction the main thread is the only busy
 * one: it resolved each reference and then inserted it, both in one thread, while the other core
 * idled. Now workers resolve batches of files (resolve-worker.ts, each with its own read-only
 * connection) while the main thread inserts the batches already resolved. Batches are handed
 * back strictly in order, so rows are stored, and numbered, exactly as one thread would.
 */
import { createRequire } from "node:module";
import type * as WorkerThreads from "node:worker_threads";
import { WORKER_YOUNG_MB } from "./pool.js";

export interface ResolveBatch {
  batch: number;
  files: { id: number; names: string[]; kinds: string[]; qualifiers: (string | null)[]; callers: (string | null)[] }[];
}

/** Per reference of the batch, in order: target symbol_id, resolution, candidates as JSON. */
export interface ResolvedBatch {
  batch: number;
  targets: (string | null)[];
  hows: string[];
  candidates: (string | null)[];
}

/** Batches each worker holds, so it has work while the main thread is busy inserting. */
const IN_FLIGHT = 3;

/**
 * Resolves batches 0..count-1 (made on demand by `make`) on `threads` workers and calls
 * `onBatch` with each result in batch order. Returns how many batches were handed over: all of
 * them, or fewer when a worker failed (the caller resolves the rest itself).
 */
export async function resolveInWorkers(
  dbPath: string,
  root: string,
  count: number,
  make: (k: number) => ResolveBatch,
  threads: number,
  onBatch: (result: ResolvedBatch) => void,
): Promise<number> {
  if (count === 0) return 0;
  // require(): the bundled CLI runs as a script compiled from a code cache, where import() has no loader.
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof WorkerThreads;
  const url = new URL("./resolve-worker.js", import.meta.url);
  const n = Math.max(1, Math.min(threads, count));
  const workers = Array.from({ length: n }, () => new Worker(url, { workerData: { dbPath, root }, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } }));
  const ready = new Map<number, ResolvedBatch>();
  let next = 0;
  let delivered = 0;
  let failed = false;
  let storeError: unknown;
  try {
    await new Promise<void>((resolve) => {
      let live = n;
      const stop = (): void => {
        if (--live === 0) resolve();
      };
      for (const w of workers) {
        let inFlight = 0;
        let stopped = false;
        const feed = (): void => {
          while (!failed && inFlight < IN_FLIGHT && next < count) {
            w.postMessage(make(next++));
            inFlight++;
          }
          if ((inFlight === 0 || failed) && !stopped) {
            stopped = true;
            stop();
          }
        };
        w.on("message", (r: ResolvedBatch) => {
          inFlight--;
          ready.set(r.batch, r);
          try {
            for (let b = ready.get(delivered); b !== undefined && !failed; b = ready.get(delivered)) {
              ready.delete(delivered);
              onBatch(b);
              delivered++;
            }
          } catch (e) {
            // Storing failed (not resolving): that is the caller's error, not a reason to retry.
            storeError ??= e;
            failed = true;
          }
          feed();
        });
        const fail = (): void => {
          failed = true;
          if (!stopped) {
            stopped = true;
            stop();
          }
        };
        w.on("error", fail);
        w.on("exit", () => {
          if (inFlight > 0 || next < count) fail();
        });
        feed();
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  if (storeError !== undefined) throw storeError;
  return delivered;
}
