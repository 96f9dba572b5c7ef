/**
 * Worker thread: started before the file walk so loading tree-sitter overlaps it, then given
 * the job. Takes files from the shared counter until none are left and sends back what it
 * found; the main thread takes from the same counter, so a slow file never idles a core.
 */
import { parentPort } from "node:worker_threads";
import { reclaim, scanFile, type ScanFile, type ScanOptions, type ScanResult } from "./scan.js";

export interface WorkerJob {
  files: ScanFile[];
  counter: SharedArrayBuffer;
  opts: ScanOptions;
}

parentPort?.once("message", async (job: WorkerJob) => {
  const counter = new Int32Array(job.counter);
  const results: ScanResult[] = [];
  for (;;) {
    const i = Atomics.add(counter, 0, 1);
    if (i >= job.files.length) break;
    results.push(scanFile(job.files[i] as ScanFile, job.opts));
    await reclaim();
  }
  parentPort?.postMessage(results);
});
