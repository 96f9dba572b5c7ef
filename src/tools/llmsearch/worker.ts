/**
 * A search thread: takes batches of files, reads and searches each, and answers once per batch
 * (per-file messages cost more than the search of a small file). Before each file it stamps
 * which file and when into shared memory, so the pool can see a file that runs past the time
 * budget and terminate the thread. In a long-lived process a thread is reused by the next
 * search, which sends it its job first.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type FileJob, type OnPiece, searchBytes, searchFile } from "./file.js";
import { type Batch, type BatchResult, type FileResult, type InitMessage, STATE_ACKED } from "./protocol.js";
import { prepare, type ScanOptions } from "./scan.js";

export interface WorkerInit {
  scan: ScanOptions;
  /** Skip files larger than this many bytes (0 = no limit). */
  maxFileSize: number;
  countOnly: boolean;
  /** With countOnly: lines a match starts on, not matches (see FileJob). */
  countLines: boolean;
  /**
   * Float64Array view of the first 24 bytes: [batch id, index in batch (-1 idle), start time ms];
   * Int32Array view of the next 4 (STATE_ACKED): how many matches the pool has taken in.
   */
  state: SharedArrayBuffer;
}

/** A thread answers in parts once it holds this many matches (see BatchResult.upTo). */
const PART_MATCHES = 2000;
/**
 * Matches sent that the pool has not taken in yet: past this many the thread waits, so that a
 * pool slower than its threads (writing a long answer) does not gather their messages in memory.
 */
const AHEAD_MATCHES = 8000;

let job: FileJob | undefined;
let state: Float64Array<ArrayBufferLike> = new Float64Array(1);
let acked: Int32Array<ArrayBufferLike> = new Int32Array(1);
let sent = 0;

function setup(init: WorkerInit): void {
  job = { compiled: prepare(init.scan), maxFileSize: init.maxFileSize, countOnly: init.countOnly, countLines: init.countLines };
  state = new Float64Array(init.state, 0, 3);
  acked = new Int32Array(init.state, STATE_ACKED, 1);
  sent = 0;
}

function send(reply: BatchResult, matches: number): void {
  parentPort?.postMessage(reply);
  sent = (sent + matches) | 0;
  if (((sent - Atomics.load(acked, 0)) | 0) <= AHEAD_MATCHES) return;
  // Idle while waiting, or the pool would take the wait for a file past its time budget.
  const at = state[1] as number;
  state[1] = -1;
  for (let seen = Atomics.load(acked, 0); ((sent - seen) | 0) > AHEAD_MATCHES; seen = Atomics.load(acked, 0)) Atomics.wait(acked, 0, seen, 100);
  state[2] = Date.now();
  state[1] = at;
}

if (workerData) setup(workerData as WorkerInit);

parentPort?.on("message", (msg: Batch | InitMessage) => {
  if ("t" in msg) {
    setup(msg.init);
    return;
  }
  const batch = msg;
  const j = job as FileJob;
  let results: FileResult[] = [];
  let searched = 0;
  let held = 0;
  /** Files of the batch answered so far (by parts). */
  let covered = 0;
  state[0] = batch.id;
  for (let k = 0; k < batch.index.length; k++) {
    state[2] = Date.now();
    state[1] = k;
    const i = batch.index[k] as number;
    const bytes = batch.bytes?.[k];
    const piece: OnPiece = (matches) => {
      // The files before this one first, so that the pool can pass the pieces on at once.
      if (k > covered) {
        send({ id: batch.id, upTo: k, searched, results }, held);
        results = [];
        searched = 0;
        held = 0;
        covered = k;
      }
      send({ id: batch.id, searched: 0, results: [{ i, count: 0, matches }], piece: true }, matches.length);
    };
    // Bytes sent along were classified as searchable text by the main thread already.
    const r = bytes ? searchBytes(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), i, batch.rel[k] as string, j, true, piece) : searchFile(i, batch.abs[k] as string, batch.rel[k] as string, j, piece);
    if (r === undefined || r.skip === undefined) searched++;
    if (r !== undefined) {
      results.push(r);
      held += r.matches?.length ?? 0;
    }
    if (held >= PART_MATCHES && k + 1 < batch.index.length) {
      send({ id: batch.id, upTo: k + 1, searched, results }, held);
      results = [];
      searched = 0;
      held = 0;
      covered = k + 1;
    }
  }
  state[1] = -1;
  send({ id: batch.id, searched, results }, held);
});
