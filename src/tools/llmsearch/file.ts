/**
 * One file, read and searched: the part the worker threads and the main thread's prefilter
 * share. Reads into one reused buffer (file contents are never retained), recognises binary
 * and oversized files, and runs the scanner.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { FileResult } from "./protocol.js";
import { type Compiled, findMatches, materialize } from "./scan.js";

let scratch = Buffer.allocUnsafe(1 << 20);
const HEAD = 64 * 1024;

export type Skip = NonNullable<FileResult["skip"]>;

/** The file's bytes (valid until the next call) or why it is skipped. */
export function readFile(abs: string, maxFileSize: number): Buffer | Skip {
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
      if (maxFileSize > 0 && size > maxFileSize) {
        return { reason: "too_large", detail: `${size} bytes, over --max-filesize ${maxFileSize}` };
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
    if (maxFileSize > 0 && total > maxFileSize) {
      return { reason: "too_large", detail: `${total} bytes, over --max-filesize ${maxFileSize}` };
    }
    const buf = scratch.subarray(0, total);
    const late = total > HEAD ? buf.indexOf(0, HEAD) : -1;
    if (late !== -1) return { reason: "binary", detail: `NUL byte at offset ${late}` };
    return buf;
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

export interface FileJob {
  compiled: Compiled;
  maxFileSize: number;
  countOnly: boolean;
}

/** undefined: searched, no match. */
export function searchBytes(buf: Buffer, index: number, rel: string, job: FileJob): FileResult | undefined {
  const spans = findMatches(buf, job.compiled);
  if (spans.length === 0) return undefined;
  const count = spans.length / 2;
  if (job.countOnly) return { i: index, count };
  return { i: index, count, matches: materialize(buf, rel, spans, job.compiled, job.compiled.keep) };
}

export function searchFile(index: number, abs: string, rel: string, job: FileJob): FileResult | undefined {
  const got = readFile(abs, job.maxFileSize);
  if (!Buffer.isBuffer(got)) return { i: index, count: 0, skip: got };
  return searchBytes(got, index, rel, job);
}
