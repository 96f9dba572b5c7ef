/**
 * The worker thread that holds a root's TypeScript language services for a long-lived process
 * (the daemon, the MCP server): building a program takes seconds on a large project (~15 s on
 * typeorm), and in a worker that time never holds up the process's own thread. It answers one
 * batch of definition questions at a time, re-checking each file's version (stat, plus the change
 * notices it was sent) before a batch, so no answer comes from text older than the disk.
 *
 * Messages in: {t: "ask", id, questions: [rel, byte][]}, {t: "changed", paths: abs[]}.
 * Out: {t: "answers", id, answers: (Definition | null)[], configs, ms}.
 * src/graph/precise/service.ts is the other side.
 */
import { statSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { collectGarbage } from "../../lang/heap.js";
import { type Definition, PreciseTs } from "./typescript.js";

export interface AskMessage {
  t: "ask";
  id: number;
  questions: [string, number][];
  /**
   * The asker's watcher covers every source directory this worker reported and has delivered
   * every change made before the question (sent as `changed` first): the files' versions need
   * no fresh stat.
   */
  trust?: boolean;
}
export interface ChangedMessage {
  t: "changed";
  paths: string[];
}
export interface AnswersMessage {
  t: "answers";
  id: number;
  answers: (Definition | null)[];
  /** The config files the services were built from, with their mtime (null: absent). */
  configs: [string, number | null][];
  /** How long the batch took, program builds included. */
  ms: number;
  /** This thread's V8 heap in use after the batch (the programs and the checkers' caches). */
  heap_used: number;
  /** Whether the batch was answered on trust (no stat of the programs' files). */
  trusted: boolean;
  /** The directories a watcher must cover for the next batch to be trusted, when they may have changed (a question can add files to a program). */
  dirs?: string[];
}

const port = parentPort;
if (!port) throw new Error("src/graph/precise/worker.ts runs as a worker thread");
const { root, maxHeapBytes } = workerData as { root: string; maxHeapBytes: number };
const precise = new PreciseTs(root, true);

/**
 * The heap in use after a batch, garbage excluded when it matters: past the limit, a full
 * collection first, so that a worker is ended for what it holds, not for what it dropped.
 */
function heapUsed(): number {
  const used = getHeapStatistics().used_heap_size;
  if (maxHeapBytes <= 0 || used <= maxHeapBytes) return used;
  collectGarbage();
  return getHeapStatistics().used_heap_size;
}

function mtime(f: string): number | null {
  try {
    return statSync(f).mtimeMs;
  } catch {
    return null;
  }
}

let sentFor = -1;
/** The source directories, when the programs' file count moved since they were last sent (1,800 paths: not copied per batch). */
function dirsIfNew(): { dirs?: string[] } {
  const n = precise.sourceFileCount();
  if (n === sentFor) return {};
  sentFor = n;
  return { dirs: precise.sourceDirs() };
}

port.on("message", (m: AskMessage | ChangedMessage) => {
  if (m.t === "changed") {
    precise.changed(m.paths);
    return;
  }
  const t0 = performance.now();
  // A full refresh stats every file of the programs (~10 ms for typeorm's 3,700) on each batch.
  const trusted = m.trust === true;
  if (!trusted) precise.refresh();
  precise.prepare(m.questions.map(([rel]) => rel));
  const answers = m.questions.map(([rel, byte]) => precise.definition(rel, byte) ?? null);
  const reply: AnswersMessage = {
    t: "answers",
    id: m.id,
    answers,
    configs: precise.configFiles().map((f) => [f, mtime(f)]),
    ms: Math.round(performance.now() - t0),
    heap_used: heapUsed(),
    trusted,
    ...dirsIfNew(),
  };
  port.postMessage(reply);
});
