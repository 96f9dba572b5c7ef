/**
 * Keeps a root's magellan index fresh while the daemon runs: a file watcher (chokidar, as
 * `magellan watch`) notes which files changed, and a short quiet moment later one incremental
 * index run takes them all in. A run compares the whole tree with the index (size and mtime,
 * then content hash), so an editor's write-and-rename, deletions and a branch switch that
 * touches thousands of files are all one run (events that arrive during a run cause one more,
 * not one per file).
 *
 * Only an index that exists is kept: the daemon never creates one unasked (`magellan index`
 * does). What the watcher has seen but the index does not hold yet is the freshness count every
 * answer carries, and `flush()` brings the index up to date before a magellan query or after a
 * write made through the daemon.
 */
import { existsSync } from "node:fs";
import { join, sep } from "node:path";
import { type FSWatcher, watch as chokidarWatch } from "chokidar";
import { openDb } from "../graph/db.js";
import { indexTree } from "../graph/ingest.js";
import { languageForPath } from "../lang/registry.js";

export interface KeeperStats {
  indexed_cycles: number;
  last_cycle_ms: number;
  last_error?: string;
  watching: boolean;
}

export class IndexKeeper {
  readonly dbPath: string;
  private watcher: FSWatcher | undefined;
  /** Files (root-relative) changed since the last index run started, and those that run is taking in. */
  private readonly pending = new Set<string>();
  private inFlight = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private exclusive: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Paths the index holds, known after a whole-tree run: changes to only these skip the walk. */
  private indexed: Set<string> | undefined;
  readonly stats: KeeperStats = { indexed_cycles: 0, last_cycle_ms: 0, watching: false };
  /** Told of each event on a source file (absolute path), as it arrives. */
  onFileEvent: ((abs: string) => void) | undefined;

  constructor(
    readonly root: string,
    private readonly debounceMs: number,
    private readonly log: (message: string) => void,
  ) {
    this.dbPath = join(root, ".magellan", "code.db");
  }

  /** Starts watching; brings an existing index up to date first (files may have changed while no daemon ran). */
  async start(): Promise<void> {
    const root = this.root;
    const dbDir = join(root, ".magellan");
    this.watcher = chokidarWatch(root, {
      ignoreInitial: true,
      // The walk never indexes hidden entries or node_modules; the index's own folder neither.
      ignored: (p: string) => {
        if (p === root) return false;
        if (p === dbDir || p.startsWith(dbDir + sep)) return true;
        const rel = p.slice(root.length + 1);
        return rel.split(sep).some((seg) => seg.startsWith(".") || seg === "node_modules");
      },
    });
    this.watcher.on("all", (_event, path: string) => this.onEvent(path));
    this.watcher.on("error", (e) => {
      this.stats.last_error = `watcher: ${(e as Error).message}`;
      this.log(this.stats.last_error);
    });
    await new Promise<void>((resolve) => {
      (this.watcher as FSWatcher).once("ready", () => resolve());
    });
    this.stats.watching = true;
    if (existsSync(this.dbPath)) await this.cycle();
  }

  /**
   * start(), not waited for: a watcher that fails to start is recorded in `stats.last_error`
   * (which `daemon start` and `daemon status` read) and logged, and the index stays as it is.
   */
  startInBackground(): void {
    this.start().catch((e: unknown) => {
      this.stats.last_error = `watcher: failed to start: ${(e as Error).message}`;
      this.log(this.stats.last_error);
    });
  }

  private onEvent(abs: string): void {
    if (this.closed || !abs.startsWith(this.root + sep)) return;
    const rel = abs.slice(this.root.length + 1).split(sep).join("/");
    if (languageForPath(rel) === undefined) return;
    this.onFileEvent?.(abs);
    this.pending.add(rel);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.cycle();
    }, this.debounceMs);
  }

  /** Files the index does not hold as they are on disk, as far as the watcher knows. */
  staleCount(): number {
    if (!existsSync(this.dbPath)) return 0;
    let n = this.pending.size;
    for (const p of this.inFlight) if (!this.pending.has(p)) n++;
    return n;
  }

  /** Runs an index cycle unless one runs (then one more follows it); resolves when the index is current. */
  cycle(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      if (this.closed || !existsSync(this.dbPath)) {
        this.pending.clear();
        return;
      }
      this.inFlight = new Set(this.pending);
      this.pending.clear();
      const t0 = performance.now();
      const known = this.indexed;
      // Saves of files the index holds (the usual edit) need no walk of the tree; a new file
      // does (ignore rules decide whether it belongs), and so does a forced flush.
      const only = known && this.inFlight.size > 0 && [...this.inFlight].every((p) => known.has(p)) ? [...this.inFlight] : undefined;
      try {
        const r = await this.withExclusive(() => indexTree({ root: this.root, dbPath: this.dbPath, paths: only }));
        if (only && known) for (const p of r.removed_paths) known.delete(p);
        else this.indexed = this.readIndexed();
        this.stats.indexed_cycles++;
        delete this.stats.last_error;
      } catch (e) {
        // The files stay pending: the next event or query tries again, with a whole-tree run.
        for (const p of this.inFlight) this.pending.add(p);
        this.indexed = undefined;
        this.stats.last_error = `index: ${(e as Error).message}`;
        this.log(this.stats.last_error);
      } finally {
        this.inFlight = new Set();
        this.stats.last_cycle_ms = Math.round(performance.now() - t0);
      }
    } while (this.again && !this.closed);
  }

  private readIndexed(): Set<string> | undefined {
    try {
      const db = openDb(this.dbPath, { write: false });
      try {
        return new Set((db.prepare("SELECT path FROM files").all() as { path: string }[]).map((r) => r.path));
      } finally {
        db.close();
      }
    } catch {
      return undefined;
    }
  }

  /**
   * Makes the index current: waits for a running cycle, and runs one if the watcher saw changes
   * (or `force`: a write just made may not have reached the watcher yet).
   */
  async flush(force = false): Promise<void> {
    if (!existsSync(this.dbPath)) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    // Forced (after a write): a whole-tree run, since the write's events may not have arrived.
    if (force) {
      if (this.running) await this.running;
      this.indexed = undefined;
      await this.cycle();
    } else if (this.pending.size > 0) await this.cycle();
    else if (this.running) await this.running;
    if (this.pending.size > 0) await this.cycle();
  }

  /** Runs `fn` with no index cycle of ours at the same time (`magellan index` through the daemon). */
  withExclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.exclusive.then(fn, fn);
    this.exclusive = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.watcher?.close();
    if (this.running) await this.running.catch(() => undefined);
  }
}
