/**
 * A cold index's resolution on worker threads. Every reference is stored unresolved as files are
 * extracted; then workers (resolve-worker.ts, each with its own read-only connection) resolve
 * units of references while the main thread writes the outcomes of the units already resolved.
 *
 * A unit is a range of reference rowids: a worker holds one unit's references and a bounded cache
 * of candidate symbols at a time, whatever the repository's size. Outcomes are handed back
 * strictly in unit order.
 */
import { createRequire } from "node:module";
import type * as WorkerThreads from "node:worker_threads";
import type { ResolvedUnit } from "./resolve.js";

export interface ResolveUnit {
  unit: number;
  /** Reference rowids in (from, to]. */
  from: number;
  to: number;
}

export interface ResolvedUnitMessage extends ResolvedUnit {
  unit: number;
}

/** What resolveInWorkers handed over: units delivered, and how many each worker resolved. */
export interface ResolvePoolResult {
  delivered: number;
  perWorker: number[];
}

/**
 * Old generation of a resolve worker (MB): its cache of candidate symbols (resolve.ts
 * RESOLVE_CACHE_SYMBOLS) and one unit's references need far less; the limit turns a runaway into a
 * failed worker, whose remaining units the main thread resolves, instead of a V8 abort of the
 * whole process.
 */
export function resolveWorkerHeapMb(): number {
  return Number(process.env.MAGELLAN_RESOLVE_WORKER_HEAP_MB) || 256;
}

/**
 * Young generation of a resolve worker (MB). Each reference read back is a short-lived row and
 * key; at 16 MB (the other workers' size) the 76 MB mixed tree's resolution took 191 scavenges,
 * 728 ms, and 10 full collections, 85 ms (--trace-gc); at 48, 96 and 284 ms, 7 and 31 ms, for the
 * same peak within the runs' spread.
 */
const RESOLVE_WORKER_YOUNG_MB = 48;

/**
 * Units each worker holds, so it has work while the main thread is busy writing or building an
 * index between outcomes: refs_name takes ~0.9 s on the 76 MB mixed tree, ~30 units of ~30 ms. At
 * 8 the worker waited for it: that tree's resolution took 4.79-4.94 s, at 32 4.38-4.43 s, with
 * the same peak (3 interleaved runs each). A unit's outcomes hold ~200 KB of ids and strings
 * there. (MAGELLAN_RESOLVE_IN_FLIGHT: for measuring.)
 */
const IN_FLIGHT = Number(process.env.MAGELLAN_RESOLVE_IN_FLIGHT) || 32;

/**
 * Resolves units 0..count-1 (made on demand by `make`) on `threads` workers and calls `onUnit`
 * with each result in unit order. Returns how many units were handed over: all of them, or fewer
 * when a worker failed (the caller resolves the rest itself), and how many each worker resolved.
 * `idle` is this thread's own work, called between outcomes while it returns true (more to do);
 * what it has left when this returns is the caller's to finish.
 *
 * Each worker holds at most its share of the units at once (count / threads, up to IN_FLIGHT), so
 * that the first worker fed does not take them all: at 32 units in flight a worker took every
 * unit of a tree of up to 640,000 references, and the others idled (as every earlier measurement
 * of "two resolve workers" did). A share is a run of consecutive units, that is of files, whose
 * names the worker's cache mostly holds already.
 */
export async function resolveInWorkers(
  dbPath: string,
  root: string,
  count: number,
  make: (k: number) => ResolveUnit,
  threads: number,
  onUnit: (result: ResolvedUnitMessage) => void,
  idle?: () => boolean,
): Promise<ResolvePoolResult> {
  if (count === 0) return { delivered: 0, perWorker: [] };
  // require(): the bundled CLI runs as a script compiled from a code cache, where import() has no loader.
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof WorkerThreads;
  const url = new URL("./resolve-worker.js", import.meta.url);
  const n = Math.max(1, Math.min(threads, count));
  const workers = Array.from({ length: n }, () => new Worker(url, { workerData: { dbPath, root }, resourceLimits: { maxYoungGenerationSizeMb: RESOLVE_WORKER_YOUNG_MB, maxOldGenerationSizeMb: resolveWorkerHeapMb() } }));
  const share = Math.min(IN_FLIGHT, Math.ceil(count / n));
  const perWorker = new Array<number>(n).fill(0);
  const ready = new Map<number, ResolvedUnitMessage>();
  let next = 0;
  let delivered = 0;
  let failed = false;
  let storeError: unknown;
  // This thread's own work between outcomes (`idle`, one short slice per turn of the event loop,
  // so that outcomes arriving meanwhile wait for one slice at most), until the workers are done.
  let closed = false;
  let idleQueued = false;
  const runIdle = (): void => {
    idleQueued = false;
    if (closed || failed || !idle) return;
    let more: boolean;
    try {
      more = idle();
    } catch (e) {
      storeError ??= e;
      failed = true;
      return;
    }
    if (more && !idleQueued) {
      idleQueued = true;
      setImmediate(runIdle);
    }
  };
  try {
    await new Promise<void>((resolve) => {
      let live = n;
      const stop = (): void => {
        if (--live === 0) {
          closed = true;
          resolve();
        }
      };
      if (idle) {
        idleQueued = true;
        setImmediate(runIdle);
      }
      workers.forEach((w, k) => {
        let inFlight = 0;
        let stopped = false;
        const feed = (): void => {
          while (!failed && inFlight < share && next < count) {
            w.postMessage(make(next++));
            inFlight++;
          }
          if ((inFlight === 0 || failed) && !stopped) {
            stopped = true;
            stop();
          }
        };
        w.on("message", (r: ResolvedUnitMessage) => {
          inFlight--;
          perWorker[k] = (perWorker[k] as number) + 1;
          ready.set(r.unit, r);
          try {
            for (let b = ready.get(delivered); b !== undefined && !failed; b = ready.get(delivered)) {
              ready.delete(delivered);
              onUnit(b);
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
      });
    });
  } finally {
    closed = true;
    await Promise.all(workers.map((w) => w.terminate()));
  }
  if (storeError !== undefined) throw storeError;
  return { delivered, perWorker };
}
