/**
 * A search thread: takes batches of files, reads each into one reused buffer, searches it and
 * answers once per batch (per-file messages cost more than the search of a small file). Before
 * each file it stamps which file and when into shared memory, so the pool can see a file that
 * runs past the time budget and terminate the thread.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { findMatches, materialize, prepare, type ScanOptions } from "./scan.js";
import type { Batch, BatchResult, FileResult } from "./protocol.js";

export interface WorkerInit {
  scan: ScanOptions;
  /** Skip files larger than this many bytes (0 = no limit). */
  maxFileSize: number;
  countOnly: boolean;
  /** Float64Array view: [batch id, index in batch (-1 idle), start time ms]. */
  state: SharedArrayBuffer;
}

const init = workerData as WorkerInit;
const compiled = prepare(init.scan);
const state = new Float64Array(init.state);
let scratch = Buffer.allocUnsafe(1 << 20);
const HEAD = 64 * 1024;

function read(abs: string): Buffer | FileResult["skip"] {
  let fd: number;
  try {
    fd = openSync(abs, "r");
  } catch (e) {
    return { reason: "unreadable", detail: errText(e) };
  }
  try {
    // ripgrep's habit: look at the first block before reading on, so a big binary costs 64 KiB.
    let total = readSync(fd, scratch, 0, HEAD, null);
    const nul = scratch.subarray(0, total).indexOf(0);
    if (nul !== -1) return { reason: "binary", detail: `NUL byte at offset ${nul}` };
    if (total === HEAD) {
      // Only files that fill the first block pay for a stat (most source files do not).
      const size = fstatSync(fd).size;
      if (init.maxFileSize > 0 && size > init.maxFileSize) {
        return { reason: "too_large", detail: `${size} bytes, over --max-filesize ${init.maxFileSize}` };
      }
      if (scratch.length < size + 1) {
        const bigger = Buffer.allocUnsafe(Math.max(size + 1, scratch.length * 2));
        scratch.copy(bigger, 0, 0, total);
        scratch = bigger;
      }
      for (;;) {
        // The file may grow while it is read: keep going until EOF, growing the buffer.
        if (total === scratch.length) {
          const bigger = Buffer.allocUnsafe(scratch.length * 2);
          scratch.copy(bigger, 0, 0, total);
          scratch = bigger;
        }
        const got = readSync(fd, scratch, total, scratch.length - total, null);
        if (got === 0) break;
        total += got;
      }
    }
    if (init.maxFileSize > 0 && total > init.maxFileSize) {
      return { reason: "too_large", detail: `${total} bytes, over --max-filesize ${init.maxFileSize}` };
    }
    return scratch.subarray(0, total);
  } catch (e) {
    return { reason: "unreadable", detail: errText(e) };
  } finally {
    closeSync(fd);
  }
}

function errText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${err.message}` : String(err.message ?? e);
}

function searchFile(index: number, abs: string, rel: string): FileResult | undefined {
  const got = read(abs);
  if (!Buffer.isBuffer(got)) return { i: index, count: 0, skip: got };
  const nul = got.length > HEAD ? got.indexOf(0, HEAD) : -1;
  if (nul !== -1) return { i: index, count: 0, skip: { reason: "binary", detail: `NUL byte at offset ${nul}` } };
  const spans = findMatches(got, compiled);
  if (spans.length === 0) return undefined;
  const count = spans.length / 2;
  if (init.countOnly) return { i: index, count };
  return { i: index, count, matches: materialize(got, rel, spans, compiled, init.scan.keep) };
}

parentPort?.on("message", (batch: Batch) => {
  const results: FileResult[] = [];
  let searched = 0;
  state[0] = batch.id;
  for (let k = 0; k < batch.index.length; k++) {
    state[2] = Date.now();
    state[1] = k;
    const r = searchFile(batch.index[k] as number, batch.abs[k] as string, batch.rel[k] as string);
    if (r === undefined || r.skip === undefined) searched++;
    if (r !== undefined) results.push(r);
  }
  state[1] = -1;
  const reply: BatchResult = { id: batch.id, searched, results };
  parentPort?.postMessage(reply);
});
