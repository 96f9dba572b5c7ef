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
              while (inFlight < 2 && next < chunks.length && !failure) {
                w.postMessage(chunks[next++]);
                inFlight++;
              }
              if (inFlight === 0) resolve();
            };
            w.on("message", (outs: FileOutcome[]) => {
              inFlight--;
              try {
                onResults(outs);
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
