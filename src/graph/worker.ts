/** Worker thread: reads and extracts the files it is sent, answers with their rows. */
import { parentPort } from "node:worker_threads";
import { type FileRows, packRefs } from "./facts.js";
import { setOldGenerationLimit } from "../lang/heap.js";
import { workerHeapMb } from "./pool.js";
import { type FileOutcome, type FileTask, processFile } from "./process-file.js";

// The limit pool.ts gave this worker (resourceLimits.maxOldGenerationSizeMb): see lang/heap.ts.
setOldGenerationLimit(workerHeapMb() * 1024 * 1024);

/**
 * Each chunk is handled in its own turn of the event loop. node-tree-sitter frees a tree's
 * native memory in an N-API finalizer, and Node runs those from the loop's immediate queue; a
 * worker that always has its next message waiting drains its port without ever reaching that
 * phase, so the native trees of every file piled up (hundreds of MB on a large repository).
 */
const queue: Job[] = [];

/** Files `idx` of chunk `chunk`; each answer names its file, so that if this worker dies the pool knows which file it died on. */
interface Job {
  chunk: number;
  idx: number[];
  tasks: FileTask[];
}
let scheduled = false;

function drain(): void {
  scheduled = false;
  const job = queue.shift();
  if (!job) return;
  job.tasks.forEach((t, k) => {
    parentPort?.postMessage({ chunk: job.chunk, i: job.idx[k], out: forWire(processFile(t)), last: k === job.tasks.length - 1 });
  });
  if (queue.length > 0) {
    scheduled = true;
    setImmediate(drain);
  }
}

/** The outcome with its reference columns packed for the trip (pool.ts unpacks them). */
function forWire(out: FileOutcome): FileOutcome {
  if (out.kind !== "indexed") return out;
  return { ...out, rows: { ...out.rows, refs: packRefs(out.rows.refs) as FileRows["refs"] } };
}

parentPort?.on("message", (job: Job) => {
  queue.push(job);
  if (!scheduled) {
    scheduled = true;
    setImmediate(drain);
  }
});
