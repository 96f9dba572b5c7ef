/**
 * A search thread: takes batches of files, reads and searches each, and answers once per batch
 * (per-file messages cost more than the search of a small file). Before each file it stamps
 * which file and when into shared memory, so the pool can see a file that runs past the time
 * budget and terminate the thread. In a long-lived process a thread is reused by the next
 * search, which sends it its job first.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type FileJob, searchBytes, searchFile } from "./file.js";
import type { Batch, BatchResult, FileResult, InitMessage } from "./protocol.js";
import { prepare, type ScanOptions } from "./scan.js";

export interface WorkerInit {
  scan: ScanOptions;
  /** Skip files larger than this many bytes (0 = no limit). */
  maxFileSize: number;
  countOnly: boolean;
  /** Float64Array view: [batch id, index in batch (-1 idle), start time ms]. */
  state: SharedArrayBuffer;
}

let job: FileJob | undefined;
let state: Float64Array<ArrayBufferLike> = new Float64Array(1);

function setup(init: WorkerInit): void {
  job = { compiled: prepare(init.scan), maxFileSize: init.maxFileSize, countOnly: init.countOnly };
  state = new Float64Array(init.state);
}

if (workerData) setup(workerData as WorkerInit);

parentPort?.on("message", (msg: Batch | InitMessage) => {
  if ("t" in msg) {
    setup(msg.init);
    return;
  }
  const batch = msg;
  const j = job as FileJob;
  const results: FileResult[] = [];
  let searched = 0;
  state[0] = batch.id;
  for (let k = 0; k < batch.index.length; k++) {
    state[2] = Date.now();
    state[1] = k;
    const i = batch.index[k] as number;
    const bytes = batch.bytes?.[k];
    // Bytes sent along were classified as searchable text by the main thread already.
    const r = bytes ? searchBytes(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), i, batch.rel[k] as string, j) : searchFile(i, batch.abs[k] as string, batch.rel[k] as string, j);
    if (r === undefined || r.skip === undefined) searched++;
    if (r !== undefined) results.push(r);
  }
  state[1] = -1;
  const reply: BatchResult = { id: batch.id, searched, results };
  parentPort?.postMessage(reply);
});
