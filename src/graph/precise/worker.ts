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
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import { type Definition, PreciseTs } from "./typescript.js";

export interface AskMessage {
  t: "ask";
  id: number;
  questions: [string, number][];
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
}

const port = parentPort;
if (!port) throw new Error("src/graph/precise/worker.ts runs as a worker thread");
const { root, maxHeapBytes } = workerData as { root: string; maxHeapBytes: number };
const precise = new PreciseTs(root);

/**
 * The heap in use after a batch, garbage excluded when it matters: past the limit, a full
 * collection first, so that a worker is ended for what it holds, not for what it dropped.
 * (`gc` from a context made after --expose-gc is set: the flag only shows it to new contexts.)
 */
let collect: (() => void) | undefined;
function heapUsed(): number {
  const used = getHeapStatistics().used_heap_size;
  if (maxHeapBytes <= 0 || used <= maxHeapBytes) return used;
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
  return getHeapStatistics().used_heap_size;
}

function mtime(f: string): number | null {
  try {
    return statSync(f).mtimeMs;
  } catch {
    return null;
  }
}

port.on("message", (m: AskMessage | ChangedMessage) => {
  if (m.t === "changed") {
    precise.changed(m.paths);
    return;
  }
  const t0 = performance.now();
  precise.refresh();
  const answers = m.questions.map(([rel, byte]) => precise.definition(rel, byte) ?? null);
  const reply: AnswersMessage = {
    t: "answers",
    id: m.id,
    answers,
    configs: precise.configFiles().map((f) => [f, mtime(f)]),
    ms: Math.round(performance.now() - t0),
    heap_used: heapUsed(),
  };
  port.postMessage(reply);
});
