/**
 * A worker_threads pool for extraction: workers read and parse, the main thread writes SQLite.
 * Each worker keeps two chunks in flight so it never idles while the main thread commits, and
 * results are handed over chunk by chunk, so no more than a few chunks of rows (and never a
 * whole repository's trees) are in memory at once.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import type * as WorkerThreads from "node:worker_threads";
import type { FileOutcome, FileTask } from "./process-file.js";

const CHUNK = 24;

export async function runPool(
  tasks: FileTask[],
  onResults: (outcomes: FileOutcome[]) => void,
  threads: number = Math.max(1, Math.min(availableParallelism(), 8)),
): Promise<void> {
  if (tasks.length === 0) return;
  const chunks: FileTask[][] = [];
  for (let i = 0; i < tasks.length; i += CHUNK) chunks.push(tasks.slice(i, i + CHUNK));
  const n = Math.max(1, Math.min(threads, chunks.length));
  let next = 0;
  let failure: Error | undefined;
  // Results are handed over in chunk order, whichever worker finishes first, so files get the
  // same row ids on every run and with any number of threads (exports list them in id order).
  const ready = new Map<number, FileOutcome[]>();
  let delivered = 0;
  const AHEAD = 4 * n + 4;
  const feeders: (() => void)[] = [];
  // Loaded here, not at start-up: most incremental runs take the few files inline. require(),
  // not import(): the bundled CLI runs as a script compiled from a code cache, where import()
  // has no loader.
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof WorkerThreads;
  const url = new URL("./worker.js", import.meta.url);
  const workers = Array.from({ length: n }, () => new Worker(url));
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            let inFlight = 0;
            const feed = (): void => {
              // At most AHEAD chunks past the first undelivered one: a slow chunk (one huge file)
              // must not let the others' rows pile up behind it.
              while (inFlight < 2 && next < chunks.length && !failure && next - delivered < AHEAD) {
                w.postMessage({ chunk: next, tasks: chunks[next] });
                next++;
                inFlight++;
              }
              if (inFlight === 0 && (next >= chunks.length || failure)) resolve();
            };
            feeders.push(feed);
            w.on("message", (msg: { chunk: number; outs: FileOutcome[] }) => {
              inFlight--;
              ready.set(msg.chunk, msg.outs);
              try {
                for (let outs = ready.get(delivered); outs !== undefined; outs = ready.get(delivered)) {
                  ready.delete(delivered);
                  delivered++;
                  onResults(outs);
                }
                // A delivery may let a worker held back by AHEAD take work again.
                for (const f of feeders) if (f !== feed) f();
              } catch (e) {
                failure = e as Error;
                reject(e);
                return;
              }
              feed();
            });
            w.on("error", (e) => {
              failure = e;
              reject(e);
            });
            w.on("exit", (code) => {
              if (inFlight > 0) reject(new Error(`extraction worker exited with code ${code}`));
            });
            feed();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  if (failure) throw failure;
}
