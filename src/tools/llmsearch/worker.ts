/**
 * A search thread: takes batches of files, reads and searches each, and answers once per batch
 * (per-file messages cost more than the search of a small file). Before each file it stamps
 * which file and when into shared memory, so the pool can see a file that runs past the time
 * budget and terminate the thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type FileJob, searchFile } from "./file.js";
import type { Batch, BatchResult, FileResult } from "./protocol.js";
import { prepare, type ScanOptions } from "./scan.js";

export interface WorkerInit {
  scan: ScanOptions;
  /** Skip files larger than this many bytes (0 = no limit). */
  maxFileSize: number;
  countOnly: boolean;
  /** Float64Array view: [batch id, index in batch (-1 idle), start time ms]. */
  state: SharedArrayBuffer;
}

const init = workerData as WorkerInit;
const job: FileJob = { compiled: prepare(init.scan), maxFileSize: init.maxFileSize, countOnly: init.countOnly };
const state = new Float64Array(init.state);

parentPort?.on("message", (batch: Batch) => {
  const results: FileResult[] = [];
  let searched = 0;
  state[0] = batch.id;
  for (let k = 0; k < batch.index.length; k++) {
    state[2] = Date.now();
    state[1] = k;
    const r = searchFile(batch.index[k] as number, batch.abs[k] as string, batch.rel[k] as string, job);
    if (r === undefined || r.skip === undefined) searched++;
    if (r !== undefined) results.push(r);
  }
  state[1] = -1;
  const reply: BatchResult = { id: batch.id, searched, results };
  parentPort?.postMessage(reply);
});
