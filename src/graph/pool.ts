/**
 * A worker_threads pool for extraction: workers read and parse, the main thread writes SQLite.
 * Each worker keeps two chunks in flight so it never idles while the main thread commits, and
 * results are handed over chunk by chunk, so no more than a few chunks of rows (and never a
 * whole repository's trees) are in memory at once.
 *
 * Workers run with a bounded heap. One that dies (out of memory, or any exit while it held work)
 * costs only the file it was extracting: that file is recorded as skipped, and the files it had
 * not finished go to a fresh worker.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { setFlagsFromString } from "node:v8";
import type * as WorkerThreads from "node:worker_threads";
import { type PackedRefs, unpackRefs } from "./facts.js";
import type { FileOutcome, FileTask } from "./process-file.js";

const CHUNK = 24;

/**
 * Heap of each extraction worker (MB). A file within the work budget (process-file.ts) needs a few
 * hundred MB at most; the limit turns a runaway into one skipped file instead of a V8 abort of the
 * whole process.
 */
export function workerHeapMb(): number {
  return Number(process.env.MAGELLAN_WORKER_HEAP_MB) || 1024;
}

/**
 * Young generation of an extraction worker (MB). Extraction allocates in bursts (a file's matches
 * live until its rows are made); at 32 fewer scavenges copy them: cold index of the bench tree
 * 2-3% less CPU than at 16 for 20-35 MB more peak (~330 MB), and 48 gave no more (interleaved
 * runs, 4-5 each, docs/magellan.md).
 */
export const EXTRACT_WORKER_YOUNG_MB = 32;

/**
 * How much a function runs before V8 optimizes it (its `--interrupt-budget`; default 66 KB of
 * bytecode). At the default, extraction's large functions (extractFromTree, extractSymbols,
 * finish) were optimized early, on little type feedback, and deoptimized as each new language or
 * shape came by, up to ten times per worker: on the 76 MB mixed tree the optimizing compiler
 * took ~4.5 s of CPU on V8's background threads, competing with the workers for two cores, and
 * `--no-opt` was as fast as the default. At 1 MB it took ~2 s: cold index 11.4-11.9 s -> 10.6-11.0 s,
 * CPU 20.9-21.7 s -> 18.9-19.7 s (3 interleaved runs each; 500 KB and 2 MB within that spread).
 * The flag is process-wide (every worker's isolate reads it), so it is set once, before the
 * first worker starts, and stays.
 */
let patient = false;
export function patientTiering(): void {
  if (patient) return;
  patient = true;
  try {
    setFlagsFromString("--interrupt-budget=1048576");
  } catch {
    // A runtime without the flag tiers up as it likes.
  }
}

/** Files of one chunk sent to one worker, in the order it extracts them. */
interface Unit {
  chunk: number;
  idx: number[];
}

export async function runPool(
  tasks: FileTask[],
  onResults: (outcomes: FileOutcome[]) => void,
  threads: number = Math.max(1, Math.min(availableParallelism(), 8)),
): Promise<void> {
  if (tasks.length === 0) return;
  patientTiering();
  const chunks: FileTask[][] = [];
  for (let i = 0; i < tasks.length; i += CHUNK) chunks.push(tasks.slice(i, i + CHUNK));
  const n = Math.max(1, Math.min(threads, chunks.length));
  let next = 0;
  let failure: Error | undefined;
  // Results are handed over in chunk order, whichever worker finishes first, so files get the
  // same row ids on every run and with any number of threads (exports list them in id order).
  const outs = new Map<number, { outs: (FileOutcome | undefined)[]; missing: number }>();
  let delivered = 0;
  // Chunks past the first undelivered one a worker may take. Small: each is up to CHUNK files of
  // rows waiting in this thread's heap behind a slow chunk.
  const AHEAD = 2 * n + 2;
  // Files of dead workers' chunks, to be extracted again first.
  const retry: Unit[] = [];
  // Loaded here, not at start-up: most incremental runs take the few files inline. require(),
  // not import(): the bundled CLI runs as a script compiled from a code cache, where import()
  // has no loader.
  const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof WorkerThreads;
  const url = new URL("./worker.js", import.meta.url);
  const live = new Set<WorkerThreads.Worker>();
  let settle!: (e?: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    settle = (e) => (e ? reject(e) : resolve());
  });

  const deliver = (): void => {
    for (let c = outs.get(delivered); c !== undefined && c.missing === 0; c = outs.get(delivered)) {
      outs.delete(delivered);
      delivered++;
      onResults(c.outs as FileOutcome[]);
    }
  };
  /** Delivers what is ready; a consumer that throws fails the whole run (false: stop here). */
  const deliverOrFail = (): boolean => {
    try {
      deliver();
      return true;
    } catch (e) {
      failure = e as Error;
      settle(failure);
      return false;
    }
  };
  const record = (chunk: number, i: number, out: FileOutcome): void => {
    let c = outs.get(chunk);
    if (!c) {
      c = { outs: new Array<FileOutcome | undefined>((chunks[chunk] as FileTask[]).length), missing: (chunks[chunk] as FileTask[]).length };
      outs.set(chunk, c);
    }
    if (c.outs[i] === undefined) c.missing--;
    c.outs[i] = out;
  };
  const feedAll = (): void => {
    for (const w of live) (w as unknown as { feed: () => void }).feed();
    if (!failure && live.size === 0 && delivered >= chunks.length) settle();
  };

  const spawn = (): void => {
    const w = new Worker(url, { resourceLimits: { maxOldGenerationSizeMb: workerHeapMb(), maxYoungGenerationSizeMb: EXTRACT_WORKER_YOUNG_MB } });
    live.add(w);
    const sent: Unit[] = [];
    let ended = false;
    let lastError: Error | undefined;
    const feed = (): void => {
      if (ended || failure) return;
      while (sent.length < 2) {
        let unit = retry.shift();
        if (!unit && next < chunks.length && next - delivered < AHEAD) {
          unit = { chunk: next, idx: (chunks[next] as FileTask[]).map((_, i) => i) };
          next++;
        }
        if (!unit) break;
        sent.push(unit);
        const u = unit;
        w.postMessage({ chunk: u.chunk, idx: u.idx, tasks: u.idx.map((i) => (chunks[u.chunk] as FileTask[])[i]) });
      }
      if (sent.length === 0 && next >= chunks.length && retry.length === 0) {
        ended = true;
        live.delete(w);
        void w.terminate();
        feedAll();
      }
    };
    (w as unknown as { feed: () => void }).feed = feed;
    w.on("message", (msg: { chunk: number; i: number; out: FileOutcome; last: boolean }) => {
      const out = msg.out;
      if (out.kind === "indexed") out.rows.refs = unpackRefs(out.rows.refs as unknown as PackedRefs);
      record(msg.chunk, msg.i, out);
      if (msg.last) sent.shift();
      if (!deliverOrFail()) return;
      // A delivery may let a worker held back by AHEAD take work again.
      feedAll();
    });
    w.on("error", (e) => {
      lastError = e;
    });
    w.on("exit", (code) => {
      if (ended) return;
      ended = true;
      live.delete(w);
      if (failure) return feedAll();
      // It extracts its units in order, file by file: the first file without an answer is the
      // one it died on. The others go to a fresh worker.
      const culpritUnit = sent.find((u) => u.idx.some((i) => outs.get(u.chunk)?.outs[i] === undefined));
      for (const u of sent) {
        const left = u.idx.filter((i) => outs.get(u.chunk)?.outs[i] === undefined);
        if (u === culpritUnit && left.length > 0) {
          const i = left.shift() as number;
          const task = (chunks[u.chunk] as FileTask[])[i] as FileTask;
          const oom = (lastError as { code?: string } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY";
          record(u.chunk, i, {
            kind: "skipped",
            rel: task.rel,
            reason: oom ? "out_of_memory" : "extract_failed",
            detail: oom
              ? `extraction ran out of its ${workerHeapMb()} MB heap (MAGELLAN_WORKER_HEAP_MB)`
              : `the extraction worker died (exit code ${code}${lastError ? `: ${lastError.message}` : ""})`,
          });
        }
        if (left.length > 0) retry.push({ chunk: u.chunk, idx: left });
      }
      sent.length = 0;
      if (!deliverOrFail()) return;
      if (retry.length > 0 || next < chunks.length) spawn();
      feedAll();
    });
    feed();
  };

  for (let k = 0; k < n; k++) spawn();
  try {
    await finished;
  } finally {
    await Promise.all([...live].map((w) => w.terminate()));
  }
  if (failure) throw failure;
}
