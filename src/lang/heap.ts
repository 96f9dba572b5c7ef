/**
 * Room on this thread's heap before a native call that fills it in one go. A worker that reaches
 * its heap limit inside node-tree-sitter's native code does not end as an out-of-memory worker:
 * the binding's error cannot be thrown into a terminating isolate, and the C++ exception aborts
 * the whole process (SIGABRT, no envelope). One query call over a 256K-unit window of minified
 * code allocates up to ~32 MB (123 bytes a unit measured on pyright's bundle), so the room is
 * checked first, after a collection if it looks short, and a call that cannot fit is refused
 * with HeapLimitError, which extraction reports as `out_of_memory` for that file alone.
 */
import { isMainThread } from "node:worker_threads";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export class HeapLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HeapLimitError";
  }
}

/** Heap bytes one native query call may allocate per UTF-16 unit of the text it searches. */
export const QUERY_BYTES_PER_UNIT = 160;

let oldGenerationLimit: number | undefined;

/** A worker's old-generation limit (its resourceLimits), which V8's heap_size_limit overstates by the young generation. */
export function setOldGenerationLimit(bytes: number): void {
  if (!isMainThread) oldGenerationLimit = bytes;
}

let gc: (() => void) | undefined | null;

/** A full collection of this thread's heap now, where the runtime allows it; else nothing (V8 collects in its own time). */
export function collectGarbage(): void {
  if (gc === undefined) {
    try {
      // `gc` shows only in contexts made after the flag is set.
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
}

const MB = 1024 * 1024;

/** Throws HeapLimitError unless `bytes` more fit under this thread's limit. */
export function ensureHeadroom(bytes: number): void {
  const limit = oldGenerationLimit ?? getHeapStatistics().heap_size_limit;
  if (limit - getHeapStatistics().used_heap_size >= bytes) return;
  collectGarbage();
  const left = limit - getHeapStatistics().used_heap_size;
  if (left < bytes) {
    throw new HeapLimitError(`one query call needs ~${Math.ceil(bytes / MB)} MB of heap and ${Math.max(0, Math.floor(left / MB))} MB of the ${Math.round(limit / MB)} MB heap are left`);
  }
}

/**
 * Collects this thread's garbage now when its heap holds more than `bytes`. Between the windows of
 * one very large file: with a worker's limit far above what extraction needs, V8 let a 3.9 MB
 * bundle's windows pile ~40 MB of garbage on top of the file's tree, and that peak is the run's.
 */
export function trimHeap(bytes: number): void {
  if (getHeapStatistics().used_heap_size > bytes) collectGarbage();
}
