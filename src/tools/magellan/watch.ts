/**
 * `magellan watch`: keeps the index fresh. File events are debounced and each quiet moment runs
 * one incremental index, which compares the tree with the index by content hash. That single
 * path covers editors that save by writing a temp file and renaming it, deletions, and a branch
 * switch that touches hundreds of files at once (one cycle, not hundreds).
 */
import { sep } from "node:path";
import { watch as chokidarWatch } from "chokidar";
import { MAGELLAN_CODES } from "../../graph/codes.js";
import { type IndexResult, indexTree } from "../../graph/ingest.js";
import { ToolError } from "../../contract/errors.js";
import { type Location, locateForWrite } from "./common.js";

export interface WatchRequest extends Location {
  debounceMs?: number;
  /** Stop after this long (ms); default: until SIGINT/SIGTERM. */
  timeoutMs?: number;
  /** Stop after this many index cycles after the first. */
  maxCycles?: number;
  maxBytes?: number;
}

export interface WatchEvent {
  event: "ready" | "indexed" | "error" | "stopped";
  root: string;
  db_path: string;
  changed_paths: string[];
  removed_paths: string[];
  files_indexed: number;
  files_removed: number;
  files_skipped: number;
  duration_ms: number;
  cycles: number;
}

export async function watch(req: WatchRequest, emit: (e: WatchEvent, error?: ToolError) => void): Promise<WatchEvent> {
  const { root, dbPath } = locateForWrite(req);
  const debounceMs = req.debounceMs ?? 200;
  let cycles = 0;
  const event = (kind: WatchEvent["event"], r?: IndexResult): WatchEvent => ({
    event: kind,
    root,
    db_path: dbPath,
    changed_paths: r?.changed_paths ?? [],
    removed_paths: r?.removed_paths ?? [],
    files_indexed: r?.files_indexed ?? 0,
    files_removed: r?.files_removed ?? 0,
    files_skipped: r?.files_skipped ?? 0,
    duration_ms: r?.duration_ms ?? 0,
    cycles,
  });
  const first = await indexTree({ root, dbPath, maxBytes: req.maxBytes });
  const dbDir = dbPath.slice(0, dbPath.lastIndexOf(sep));
  const watcher = chokidarWatch(root, {
    ignoreInitial: true,
    // Hidden entries are never indexed (same rule as the walk); the index's own folder neither.
    ignored: (p: string) => {
      if (p === root) return false;
      if (p.startsWith(dbPath)) return true; // the database, its -wal/-shm and lock files
      if (dbDir !== root && (p === dbDir || p.startsWith(dbDir + sep))) return true;
      const rel = p.slice(root.length + 1);
      return rel.split(sep).some((seg) => seg.startsWith(".") || seg === "node_modules");
    },
  });
  await new Promise<void>((resolve, reject) => {
    watcher.once("ready", () => resolve());
    watcher.once("error", (e) => reject(e));
  });
  emit(event("ready", first));

  return await new Promise<WatchEvent>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let running = false;
    let again = false;
    let stopped = false;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      const finish = (): void => {
        void watcher.close().then(() => resolve(event("stopped")));
      };
      if (running) {
        const poll = setInterval(() => {
          if (!running) {
            clearInterval(poll);
            finish();
          }
        }, 20);
      } else finish();
    };
    const cycle = async (): Promise<void> => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const r = await indexTree({ root, dbPath, maxBytes: req.maxBytes });
          if (r.files_indexed + r.files_removed > 0) {
            cycles++;
            emit(event("indexed", r));
          }
        } while (again && !stopped);
      } catch (e) {
        const err =
          e instanceof ToolError
            ? e
            : new ToolError({ code: MAGELLAN_CODES.watch_failed, error: "watch_failed", message: `re-index failed: ${(e as Error).message}`, remediation: "The watcher keeps running; fix the cause or restart it." });
        emit(event("error"), err);
      } finally {
        running = false;
      }
      if (req.maxCycles !== undefined && cycles >= req.maxCycles) stop();
    };
    const schedule = (): void => {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void cycle(), debounceMs);
    };
    watcher.on("all", schedule);
    watcher.on("error", (e) => {
      emit(event("error"), new ToolError({ code: MAGELLAN_CODES.watch_failed, error: "watch_failed", message: `file watcher error: ${(e as Error).message}`, remediation: "Restart 'magellan watch'." }));
    });
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    if (req.timeoutMs !== undefined) setTimeout(stop, req.timeoutMs).unref();
  });
}
