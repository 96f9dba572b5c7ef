/**
 * The precise resolution of a long-lived process (the daemon, the MCP server): one worker thread
 * per root (src/graph/precise/worker.ts) holds that root's TypeScript language services, one per
 * tsconfig.json/jsconfig.json. It starts on the first question, stays warm, is replaced when a
 * config file it was built from changes or when it dies, and is asked one batch at a time.
 *
 * The caller's thread never waits on a build: `ask` gives up after its budget and says whether
 * the service is still warming (no batch answered yet) or failed; a batch whose asker gave up
 * is dropped before it reaches the worker, or its late answer discarded.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { clipText } from "../../text/clip.js";
import { WarmWatch } from "../../text/warm-watch.js";
import type { Definition } from "./typescript.js";
import type { AnswersMessage, AskMessage, ChangedMessage } from "./worker.js";

export type Question = [rel: string, byte: number];

export type PreciseAnswer =
  | { state: "answered"; answers: (Definition | null)[] }
  | { state: "warming"; waited_ms: number }
  | { state: "failed"; message: string };

export interface AskOptions {
  /** How long to wait while the service has not answered yet (it builds its program). */
  warmWaitMs: number;
  /** How long to wait for a service that has answered before. */
  answerWaitMs: number;
}

interface Batch {
  id: number;
  questions: Question[];
  done: (a: PreciseAnswer) => void;
  cancelled: boolean;
  /** The watcher's barrier held when the batch was asked: it may be answered without a stat of every file. */
  trust: boolean;
}

export interface PreciseServiceOptions {
  /** End a worker no question reached for this long (0: never); the next question builds again. */
  idleMs?: number;
  /** End a worker whose heap grew past this after a batch (its checkers' caches grow with each question). */
  maxHeapBytes?: number;
  log?: (message: string) => void;
}

/** Seconds without a precise question before a worker's memory is given back (default 600; 0: never). */
export const PRECISE_IDLE_ENV = "LLMTOOLS_PRECISE_IDLE_S";
/** MB of V8 heap past which a worker is ended after its batch (default 320: with the daemon's own ~200 MB, under 600 MB of RSS). */
export const PRECISE_MAX_HEAP_ENV = "LLMTOOLS_PRECISE_MAX_HEAP_MB";

/** The options a process takes from its environment (LLMTOOLS_PRECISE_IDLE_S, LLMTOOLS_PRECISE_MAX_HEAP_MB). */
export function preciseOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): PreciseServiceOptions {
  const num = (name: string, fallback: number): number => {
    const v = env[name];
    return v !== undefined && /^\d+$/.test(v) ? Number(v) : fallback;
  };
  return { idleMs: num(PRECISE_IDLE_ENV, 600) * 1000, maxHeapBytes: num(PRECISE_MAX_HEAP_ENV, 320) * 1024 * 1024 };
}

export interface PreciseRootStatus {
  root: string;
  state: "warming" | "ready";
  thread_id: number;
  started_at: string;
  /** The first batch's time: the program build (and those questions). */
  build_ms?: number;
  batches: number;
  queued: number;
  heap_used_bytes?: number;
}

export interface PreciseStats {
  workers_started: number;
  /** Workers that died (a crash, out of memory, killed) and were replaced on the next question. */
  worker_deaths: number;
  /** Workers replaced because a config file they were built from changed. */
  config_restarts: number;
  /** Workers ended because their heap passed the limit after a batch. */
  memory_restarts: number;
  /** Workers ended after going unasked for the idle time. */
  idle_releases: number;
  /** Answers given as the index's because the service was warming or failed. */
  fallbacks: number;
  /** Batches answered on the watcher's word (no stat of every file of the programs). */
  trusted_batches: number;
}

/** The package directory holding `dir` (node_modules/pkg or node_modules/@scope/pkg), else `dir` itself. */
function packageDirOf(dir: string): string {
  const m = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)(?:\/|$)/.exec(dir);
  return m?.[1] ?? dir;
}

class RootWorker {
  readonly worker: Worker;
  readonly startedAt = new Date().toISOString();
  ready = false;
  dead = false;
  /** Set when this side ends the worker (config change, shutdown): not a death. */
  retired = false;
  buildMs: number | undefined;
  heapUsed: number | undefined;
  lastUsed = Date.now();
  batches = 0;
  configs: [string, number | null][] = [];
  private readonly queue: Batch[] = [];
  private current: Batch | undefined;
  private nextId = 1;
  /**
   * A watcher of the programs' source directories (inotify, with an ordering barrier: see
   * src/text/warm-watch.ts). While it covers them all and has lost nothing, the changes it
   * reports are all there is to know, and a batch needs no stat of the programs' ~3,700 files.
   */
  private readonly watch: WarmWatch | undefined;
  private readonly changedPaths = new Set<string>();
  /** Set by a change the watcher could not name (a directory's, an overflow): the next batch checks every file. */
  private untrusted = true;
  private watchEpoch = -1;
  private dirs: string[] = [];
  /** Whether the last batch was answered on trust. */
  lastTrusted = false;

  constructor(
    readonly root: string,
    private readonly onDeath: (w: RootWorker, why: string) => void,
    private readonly onBatch: (w: RootWorker) => void,
    maxHeapBytes: number,
    log: (message: string) => void,
  ) {
    // Its stdout and stderr are not the process's: inside the daemon those are a request's, and
    // a stray line of the compiler must not land in some client's answer.
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { workerData: { root, maxHeapBytes }, stdout: true, stderr: true });
    const drop = (b: Buffer): void => log(`precise worker output: ${clipText(b.toString("utf8"), 500)}`);
    this.worker.stdout.on("data", drop);
    this.worker.stderr.on("data", drop);
    // The process's lifetime is its own: a warm service never keeps it alive.
    this.worker.unref();
    this.worker.on("message", (m: AnswersMessage) => this.onAnswers(m));
    this.worker.on("error", (e) => this.die(`the TypeScript language service worker failed: ${e.message}`));
    this.worker.on("exit", (code) => this.die(`the TypeScript language service worker exited (code ${code})`));
    if (process.env.LLMTOOLS_WARM_WATCH !== "0") {
      this.watch = new WarmWatch({
        changed: (dir, name) => {
          if (name === undefined) this.untrusted = true;
          else this.changedPaths.add(join(dir, name));
        },
        lost: () => {
          this.untrusted = true;
        },
      });
      this.watch.addRoot(root);
    }
  }

  /** Whether a batch asked now may be answered on the watcher's word: its barrier held, every source directory is watched. */
  async trustNow(): Promise<boolean> {
    const w = this.watch;
    if (!w || !this.ready || this.untrusted || this.dirs.length === 0) return false;
    if (!(await w.barrier())) return false;
    return !this.untrusted && w.epoch === this.watchEpoch && this.dirs.every((d) => w.isActive(d));
  }

  ask(questions: Question[], trust = false): { batch: Batch; answer: Promise<PreciseAnswer> } {
    let done!: (a: PreciseAnswer) => void;
    const answer = new Promise<PreciseAnswer>((r) => (done = r));
    const batch: Batch = { id: this.nextId++, questions, done, cancelled: false, trust };
    this.lastUsed = Date.now();
    this.queue.push(batch);
    this.pump();
    return { batch, answer };
  }

  changed(paths: string[]): void {
    if (!this.dead) this.worker.postMessage({ t: "changed", paths } satisfies ChangedMessage);
  }

  /** Whether a config file the services were built from is not as it was. */
  configsChanged(): boolean {
    return this.configs.some(([f, was]) => {
      let now: number | null;
      try {
        now = statSync(f).mtimeMs;
      } catch {
        now = null;
      }
      return now !== was;
    });
  }

  status(): PreciseRootStatus {
    const s: PreciseRootStatus = {
      root: this.root,
      state: this.ready ? "ready" : "warming",
      thread_id: this.worker.threadId,
      started_at: this.startedAt,
      batches: this.batches,
      queued: this.queue.length + (this.current ? 1 : 0),
    };
    if (this.buildMs !== undefined) s.build_ms = this.buildMs;
    if (this.heapUsed !== undefined) s.heap_used_bytes = this.heapUsed;
    return s;
  }

  retire(): Promise<number> {
    this.retired = true;
    void this.watch?.close();
    return this.worker.terminate();
  }

  private pump(): void {
    if (this.current || this.dead) return;
    for (;;) {
      const next = this.queue.shift();
      if (!next) return;
      if (next.cancelled) continue;
      this.current = next;
      // Every change delivered so far goes first (the worker takes messages in order).
      if (this.changedPaths.size) {
        this.worker.postMessage({ t: "changed", paths: [...this.changedPaths] } satisfies ChangedMessage);
        this.changedPaths.clear();
      }
      const trust = next.trust && !this.untrusted && this.watch !== undefined && this.watch.epoch === this.watchEpoch;
      if (!trust && this.watch) {
        // This batch checks every file: what the watcher reports from here on is what changes after it.
        this.untrusted = false;
        this.watchEpoch = this.watch.epoch;
      }
      this.worker.postMessage({ t: "ask", id: next.id, questions: next.questions, trust } satisfies AskMessage);
      return;
    }
  }

  private onAnswers(m: AnswersMessage): void {
    if (!this.ready) this.buildMs = m.ms;
    this.ready = true;
    this.batches++;
    this.configs = m.configs;
    this.heapUsed = m.heap_used;
    this.lastTrusted = m.trusted;
    if (m.dirs) this.dirs = m.dirs;
    for (const d of m.dirs ?? []) {
      // Type packages found above the workspace (a parent's node_modules/@types) are watched too,
      // each from its package's directory.
      if (d !== this.root && !d.startsWith(`${this.root}/`)) this.watch?.addRoot(packageDirOf(d));
      this.watch?.want(d);
    }
    this.lastUsed = Date.now();
    const b = this.current;
    this.current = undefined;
    if (b && b.id === m.id && !b.cancelled) b.done({ state: "answered", answers: m.answers });
    this.pump();
    this.onBatch(this);
  }

  idle(): boolean {
    return !this.current && this.queue.length === 0;
  }

  private die(why: string): void {
    if (this.dead) return;
    this.dead = true;
    const failed: PreciseAnswer = { state: "failed", message: `${why}; it starts again on the next question` };
    for (const b of [...(this.current ? [this.current] : []), ...this.queue.splice(0)]) b.done(failed);
    this.current = undefined;
    void this.watch?.close();
    this.onDeath(this, why);
  }
}

export class PreciseService {
  private readonly workers = new Map<string, RootWorker>();
  readonly stats: PreciseStats = { workers_started: 0, worker_deaths: 0, config_restarts: 0, memory_restarts: 0, idle_releases: 0, fallbacks: 0, trusted_batches: 0 };
  private readonly log: (message: string) => void;
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly opts: PreciseServiceOptions = {}) {
    this.log = opts.log ?? (() => undefined);
    const idle = opts.idleMs ?? 0;
    if (idle > 0) {
      this.sweeper = setInterval(() => this.sweep(idle), Math.min(idle, 30_000));
      this.sweeper.unref();
    }
  }

  /** Gives back the memory of workers no question reached for `idleMs`. */
  private sweep(idleMs: number): void {
    for (const [root, w] of this.workers) {
      if (w.idle() && Date.now() - w.lastUsed >= idleMs) {
        this.stats.idle_releases++;
        this.log(`precise: the TypeScript language service of ${root} went unasked for ${Math.round(idleMs / 1000)} s; ended to give its memory back`);
        this.retire(w);
      }
    }
  }

  private retire(w: RootWorker): void {
    if (this.workers.get(w.root) === w) this.workers.delete(w.root);
    void w.retire();
  }

  private afterBatch(w: RootWorker): void {
    if (w.lastTrusted) this.stats.trusted_batches++;
    const max = this.opts.maxHeapBytes ?? 0;
    if (max > 0 && (w.heapUsed ?? 0) > max && w.idle()) {
      this.stats.memory_restarts++;
      this.log(`precise: the TypeScript language service of ${w.root} holds ${Math.round((w.heapUsed ?? 0) / 1048576)} MB of heap (limit ${Math.round(max / 1048576)} MB); ended, the next question builds it again`);
      this.retire(w);
    }
  }

  /** The definitions of `questions` (root-relative path, byte offset), or why there are none now. */
  async ask(root: string, questions: Question[], opts: AskOptions): Promise<PreciseAnswer> {
    if (questions.length === 0) return { state: "answered", answers: [] };
    const w = this.workerOf(root);
    const wasReady = w.ready;
    const budget = wasReady ? opts.answerWaitMs : opts.warmWaitMs;
    const t0 = Date.now();
    const trust = await w.trustNow();
    const { batch, answer } = w.ask(questions, trust);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<PreciseAnswer>((r) => {
      timer = setTimeout(() => {
        batch.cancelled = true;
        const waited = Date.now() - t0;
        r(
          wasReady
            ? { state: "failed", message: `the TypeScript language service did not answer within ${waited} ms (${questions.length} questions)` }
            : { state: "warming", waited_ms: waited },
        );
      }, budget);
    });
    const a = await Promise.race([answer, late]).finally(() => clearTimeout(timer));
    if (a.state !== "answered") this.stats.fallbacks++;
    return a;
  }

  /** Files (absolute) changed: the root's worker treats them as new versions. */
  changed(root: string, paths: string[]): void {
    this.workers.get(root)?.changed(paths);
  }

  status(): { workers: PreciseRootStatus[] } & PreciseStats {
    return { workers: [...this.workers.values()].map((w) => w.status()), ...this.stats };
  }

  /**
   * Ends every worker as if it had died (what a crash does): the next question starts a new one.
   * For freeing the memory of a process that no longer needs its services (and for tests).
   */
  async kill(): Promise<number> {
    const all = [...this.workers.values()];
    await Promise.all(all.map((w) => w.worker.terminate()));
    return all.length;
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    const all = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(all.map((w) => w.retire()));
  }

  private workerOf(root: string): RootWorker {
    const w = this.workers.get(root);
    if (w && !w.dead) {
      if (!w.configsChanged()) return w;
      this.stats.config_restarts++;
      this.log(`precise: a config file of ${root} changed; restarting its TypeScript language service`);
      this.retire(w);
    }
    const fresh = new RootWorker(
      root,
      (dead, why) => {
        if (dead.retired) return;
        this.stats.worker_deaths++;
        this.log(`precise: ${why}`);
        if (this.workers.get(root) === dead) this.workers.delete(root);
      },
      (w) => this.afterBatch(w),
      this.opts.maxHeapBytes ?? 0,
      this.log,
    );
    this.stats.workers_started++;
    this.workers.set(root, fresh);
    return fresh;
  }
}
