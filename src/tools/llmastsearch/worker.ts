/**
 * Worker thread: started before the file walk so loading tree-sitter overlaps it, then given
 * the job. Takes files from the shared counter until none are left and sends back each file's
 * result as it ends (the main thread delivers them in order, so matches can be written as they
 * come); the main thread takes from the same counter, so a slow file never idles a core.
 */
import { parentPort } from "node:worker_threads";
import { reclaim, scanFile, type ScanFile, type ScanOptions, type ScanResult } from "./scan.js";

export interface WorkerJob {
  files: ScanFile[];
  counter: SharedArrayBuffer;
  opts: ScanOptions;
}

/**
 * How far past the next result the main thread will deliver a worker may take files: when the
 * main thread is the slower (it writes a long answer as it goes), results would otherwise pile up
 * in its queue, as they did on typeorm's `(identifier) @i` (188,082 matches).
 */
export const WORKER_WINDOW = 64;

export type WorkerMessage = { done: false; i: number; r: ScanResult } | { done: true };

parentPort?.once("message", async (job: WorkerJob) => {
  const counter = new Int32Array(job.counter);
  for (;;) {
    const i = Atomics.add(counter, 0, 1);
    if (i >= job.files.length) break;
    for (let d = Atomics.load(counter, 1); i >= d + WORKER_WINDOW; d = Atomics.load(counter, 1)) {
      // Tell the main thread, which takes results in only when it yields, that one is waited for.
      Atomics.add(counter, 2, 1);
      Atomics.wait(counter, 1, d, 100);
      Atomics.sub(counter, 2, 1);
    }
    const m: WorkerMessage = { done: false, i, r: scanFile(job.files[i] as ScanFile, job.opts) };
    parentPort?.postMessage(m);
    await reclaim();
  }
  const end: WorkerMessage = { done: true };
  parentPort?.postMessage(end);
});
