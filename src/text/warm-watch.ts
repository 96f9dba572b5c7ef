/**
 * What lets the warm cache (./warm-cache.ts) skip its per-use stats: a watcher of the
 * directories it holds, with an ordering barrier.
 *
 * The watcher is a worker thread (./warm-watch-worker.ts) with an inotify instance of its own.
 * One inotify instance keeps one queue, in the order the kernel saw the changes, and a write's
 * event is queued before the write returns. So a barrier is: create a new file in a private
 * sentinel directory this watcher watches, and wait until its event comes back. Every change
 * saved before that file was created has by then been delivered, and its cache entry dropped.
 *
 * Why not chokidar (which src/server/keeper.ts uses for the index): in the main thread it shares
 * the event loop's one inotify instance with every other watcher of the process and is only
 * drained between two synchronous searches; it stats each event's path before reporting it
 * (and may hold events back with awaitWriteFinish/atomic), and cannot tell that the kernel's
 * queue overflowed. Neither can fs.watch: libuv drops the IN_Q_OVERFLOW event. Hence the count
 * below: an overflow needs the whole queue (max_queued_events) to have been full, all of which
 * reaches us before the next barrier's mark; once half that many events arrived in one epoch,
 * the epoch ends and every entry is checked by a stat again before it is trusted anew.
 *
 * Trust is withheld (the cache stats as before) for: a platform other than Linux, a root on a
 * filesystem whose changes need not come from this kernel (network, FUSE, 9p...), paths under
 * `.git/`, directories reached through a symlink, files with more than one hard link (a write
 * through another link is reported in the other directory), directories past the watch cap, and
 * whenever the worker reported an error or a barrier's mark did not come back in time.
 * Known limits, as for every inotify user: writes through a shared mmap are not reported, and
 * neither are writes through a hard link made after the file was cached (its creation is an
 * event in the other directory only); LLMTOOLS_WARM_WATCH=0 turns trust off for such trees.
 */
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";

/** Messages to the worker. */
export type WatchIn = { t: "root"; d: string } | { t: "watch"; dirs: { d: string; g: number }[] } | { t: "unwatch"; d: string };

/** Messages from the worker (in batches, in event order). */
export type WatchOut =
  | { t: "ready" }
  | { t: "fatal"; why: string }
  | { t: "on"; d: string; g: number }
  | { t: "off"; d: string; g: number; why: string }
  | { t: "lost"; d: string; why: string }
  | { t: "ev"; d: string; n: string | undefined; r: boolean }
  | { t: "mark"; n: string };

export interface WatchWorkerData {
  sentinelDir: string;
  roots: string[];
  maxWatches: number;
}

/** Filesystems whose every change goes through this kernel, so inotify sees it. */
const LOCAL_FS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs
  0x2fc12fc1, // zfs
  0xf2f52010, // f2fs
  0x3153464a, // jfs
  0x52654973, // reiserfs
]);

export interface WatchStats {
  healthy: boolean;
  why_not?: string;
  roots: number;
  watched_dirs: number;
  epoch: number;
  events: number;
  barriers: number;
  barrier_timeouts: number;
  refused: number;
}

export interface WatchSink {
  /** A change in `dir` to entry `name` (undefined: unknown, treat the whole directory as changed); `rename`: created, deleted or moved. */
  changed(dir: string, name: string | undefined, rename: boolean): void;
  /** Everything at or below `dir` may have changed and is no longer watched. */
  lost(dir: string): void;
}

function procNumber(path: string, fallback: number): number {
  try {
    const n = Number(readFileSync(path, "utf8").trim());
    return Number.isFinite(n) && n > 0 ? n : fallback;
  } catch {
    return fallback;
  }
}

function isWritableDir(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

const SENTINEL_PREFIX = "llmtools-watch-";

/** Removes the sentinel directories of processes that are gone (killed: no exit hook ran). */
function sweepDead(base: string): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const m = new RegExp(`^${SENTINEL_PREFIX}(\\d+)-`).exec(name);
    if (!m) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch (e) {
      // EPERM: alive, someone else's. ESRCH: gone.
      if ((e as NodeJS.ErrnoException).code === "ESRCH") rmSync(join(base, name), { recursive: true, force: true });
    }
  }
}

/** Sentinel directories of this process's watchers, removed when it exits. */
const sentinelDirs = new Set<string>();
let exitHook = false;

function removeOnExit(dir: string): void {
  sentinelDirs.add(dir);
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const d of sentinelDirs) rmSync(d, { recursive: true, force: true });
  });
}

export class WarmWatch {
  private worker: Worker | undefined;
  private readonly sentinelDir: string | undefined;
  private readonly roots: string[] = [];
  /** Each root's inode when its watch was asked for: another inode at that path (an ancestor renamed) is another tree. */
  private readonly rootIds = new Map<string, string>();
  /** Directories with an acknowledged watch: their entries may be trusted (while the epoch holds). */
  private readonly active = new Set<string>();
  private readonly pending = new Map<string, number>();
  /** Directories the worker would not watch (cap, symlink, gone): not asked again this epoch. */
  private readonly refused = new Set<string>();
  private gen = 0;
  /** Entries are trusted only when stamped with the current epoch. */
  epoch = 0;
  private eventsThisEpoch = 0;
  private readonly epochLimit: number;
  private ready = false;
  private whyNot: string | undefined;
  private seq = 0;
  private readonly waiters = new Map<string, () => void>();
  /** Sentinel files created and not yet removed (their deletion is an event too, ignored). */
  private readonly sentinels = new Set<string>();
  private readonly counts = { events: 0, barriers: 0, barrier_timeouts: 0, refused: 0 };

  private readonly barrierTimeoutMs: number;

  constructor(
    private readonly sink: WatchSink,
    opts: { barrierTimeoutMs?: number; maxQueuedEvents?: number; maxWatches?: number } = {},
  ) {
    this.barrierTimeoutMs = opts.barrierTimeoutMs ?? 100;
    this.epochLimit = Math.max(1, Math.floor((opts.maxQueuedEvents ?? procNumber("/proc/sys/fs/inotify/max_queued_events", 16384)) / 2));
    if (process.platform !== "linux") {
      this.whyNot = `no ordered watcher on ${process.platform}`;
      return;
    }
    try {
      // A barrier creates a file there per search: in memory (tmpfs) when the machine has one.
      const base = isWritableDir("/dev/shm") ? "/dev/shm" : tmpdir();
      sweepDead(base);
      this.sentinelDir = mkdtempSync(join(base, `${SENTINEL_PREFIX}${process.pid}-`));
      removeOnExit(this.sentinelDir);
      const maxWatches = opts.maxWatches ?? Math.min(100_000, Math.floor(procNumber("/proc/sys/fs/inotify/max_user_watches", 8192) / 2));
      const worker = new Worker(new URL("./warm-watch-worker.js", import.meta.url), {
        workerData: { sentinelDir: this.sentinelDir, roots: [], maxWatches } satisfies WatchWorkerData,
      });
      worker.unref();
      worker.on("message", (batch: WatchOut[]) => this.onBatch(batch));
      worker.on("error", (e) => this.fail(`watcher thread: ${e.message}`));
      worker.on("exit", (code) => this.fail(`watcher thread exited (${code})`));
      this.worker = worker;
    } catch (e) {
      this.whyNot = `watcher: ${(e as Error).message}`;
    }
  }

  get healthy(): boolean {
    return this.whyNot === undefined && this.worker !== undefined;
  }

  /** Starts watching `root` (a real path) when its filesystem reports every change here. */
  addRoot(root: string): void {
    if (!this.healthy) return;
    if (this.roots.includes(root)) {
      // The watches follow inodes: a rename above the root puts another tree at its path.
      let id: string | undefined;
      try {
        const st = statSync(root);
        id = `${st.dev}:${st.ino}`;
      } catch {
        id = undefined;
      }
      if (id !== this.rootIds.get(root)) {
        if (id) this.rootIds.set(root, id);
        else this.rootIds.delete(root);
        this.drop(root);
        this.want(root);
      }
      return;
    }
    try {
      if (!LOCAL_FS.has(statfsSync(root).type)) return;
      const st = statSync(root);
      this.rootIds.set(root, `${st.dev}:${st.ino}`);
    } catch {
      return;
    }
    this.roots.push(root);
    this.post({ t: "root", d: root });
    this.want(root);
  }

  /** Whether `dir`'s entries may be trusted: its watch (and its parents') is in place. */
  isActive(dir: string): boolean {
    return this.active.has(dir);
  }

  /** Asks for `dir` (and the directories from its root down to it) to be watched. */
  want(dir: string): void {
    if (this.active.has(dir) || this.pending.has(dir) || this.refused.has(dir) || !this.healthy) return;
    const root = this.roots.find((r) => dir === r || dir.startsWith(`${r}/`));
    if (root === undefined || dir.includes("/.git/") || dir.endsWith("/.git")) return;
    const chain: string[] = [];
    for (let d = dir; ; d = dirname(d)) {
      if (this.active.has(d) || this.pending.has(d)) break;
      chain.push(d);
      if (d === root) break;
    }
    const dirs = chain.reverse().map((d) => {
      const g = ++this.gen;
      this.pending.set(d, g);
      return { d, g };
    });
    this.post({ t: "watch", dirs });
  }

  /**
   * Resolves true once every change made before the call has been delivered (and so dropped
   * from the cache); false when that cannot be known in time (then stat everything).
   */
  barrier(): Promise<boolean> {
    if (!this.healthy || !this.ready || this.sentinelDir === undefined) return Promise.resolve(false);
    const name = `b${++this.seq}`;
    const path = join(this.sentinelDir, name);
    this.counts.barriers++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(name);
        this.counts.barrier_timeouts++;
        resolve(false);
      }, this.barrierTimeoutMs);
      this.waiters.set(name, () => {
        clearTimeout(timer);
        resolve(this.healthy);
      });
      try {
        writeFileSync(path, "");
        this.sentinels.add(name);
      } catch {
        clearTimeout(timer);
        this.waiters.delete(name);
        resolve(false);
      }
    });
  }

  stats(): WatchStats {
    return {
      healthy: this.healthy,
      ...(this.whyNot ? { why_not: this.whyNot } : {}),
      roots: this.roots.length,
      watched_dirs: this.active.size,
      epoch: this.epoch,
      ...this.counts,
    };
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.whyNot ??= "closed";
    this.active.clear();
    this.pending.clear();
    if (w) await w.terminate();
    if (this.sentinelDir) {
      rmSync(this.sentinelDir, { recursive: true, force: true });
      sentinelDirs.delete(this.sentinelDir);
    }
  }

  private post(m: WatchIn): void {
    this.worker?.postMessage(m);
  }

  private fail(why: string): void {
    if (this.whyNot !== undefined) return;
    this.whyNot = why;
    this.active.clear();
    this.pending.clear();
    this.epoch++;
  }

  /** Forgets the watches at and below `dir` (the worker closes them) and tells the cache. */
  private drop(dir: string): void {
    const under = `${dir}/`;
    let closed = 0;
    for (const d of this.active) {
      if (d === dir || d.startsWith(under)) {
        this.active.delete(d);
        closed++;
      }
    }
    for (const d of this.pending.keys()) {
      if (d === dir || d.startsWith(under)) {
        this.pending.delete(d);
        closed++;
      }
    }
    // Each closed watch puts an IN_IGNORED in the kernel's queue that libuv never reports.
    this.count(closed);
    this.forgetRefused(dir);
    this.post({ t: "unwatch", d: dir });
    this.sink.lost(dir);
  }

  /**
   * Counts queue entries. The kernel's own IN_IGNORED (after a watched directory is deleted)
   * each follow a reported IN_DELETE_SELF, so what is counted is at least half of what filled
   * the queue, and half the queue's length is the limit.
   */
  private count(n: number): void {
    this.eventsThisEpoch += n;
    if (this.eventsThisEpoch >= this.epochLimit) {
      // As many events as could have filled the kernel's queue: some may have been lost.
      this.epoch++;
      this.refused.clear();
      this.eventsThisEpoch = 0;
    }
  }

  private forgetRefused(dir: string): void {
    const under = `${dir}/`;
    for (const d of this.refused) if (d === dir || d.startsWith(under)) this.refused.delete(d);
  }

  private onBatch(batch: WatchOut[]): void {
    for (const m of batch) {
      switch (m.t) {
        case "ev": {
          this.counts.events++;
          this.count(1);
          if (m.n === undefined) {
            this.drop(m.d);
            break;
          }
          const child = `${m.d}/${m.n}`;
          // A watched directory renamed, deleted or replaced: its watches follow the old inode.
          if (m.r && (this.active.has(child) || this.pending.has(child))) this.drop(child);
          // One that could not be watched (a symlink, say) may be a directory now.
          if (m.r && this.refused.size > 0) this.forgetRefused(child);
          // The watched directory itself (an event about it carries its own name).
          if (m.r && m.d.endsWith(`/${m.n}`) && this.active.has(m.d)) this.drop(m.d);
          this.sink.changed(m.d, m.n, m.r);
          break;
        }
        case "mark": {
          this.count(1);
          const done = this.waiters.get(m.n);
          if (done) {
            this.waiters.delete(m.n);
            done();
          }
          if (this.sentinelDir && this.sentinels.delete(m.n)) {
            try {
              unlinkSync(join(this.sentinelDir, m.n));
            } catch {
              // Removed by someone else: nothing to clean.
            }
          }
          break;
        }
        case "on":
          if (this.pending.get(m.d) === m.g) {
            this.pending.delete(m.d);
            if (this.roots.includes(m.d) || this.active.has(dirname(m.d))) this.active.add(m.d);
          }
          break;
        case "off":
          if (this.pending.get(m.d) === m.g) {
            this.pending.delete(m.d);
            this.refused.add(m.d);
            this.counts.refused++;
          }
          break;
        case "lost":
          this.epoch++;
          this.drop(m.d);
          break;
        case "ready":
          this.ready = true;
          break;
        case "fatal":
          this.fail(m.why);
          break;
      }
    }
  }
}
