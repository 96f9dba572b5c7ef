/**
 * The warm cache's watcher thread (see ./warm-watch.ts). It runs in a worker so that it has an
 * inotify instance of its own (libuv keeps one per event loop): every event on that instance is
 * one of ours, in the kernel's order, and its queue is drained while the main thread is busy
 * with a search. Directories are watched one by one with fs.watch, never recursively, each only
 * after its parent (so a directory swapped for something else shows up in a watched parent),
 * and never through a symlink.
 *
 * Events go to the main thread in arrival order, batched per turn of this thread's loop; an
 * event in the sentinel directory is a barrier mark.
 */
import { type FSWatcher, lstatSync, watch } from "node:fs";
import { dirname } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import type { WatchIn, WatchOut, WatchWorkerData } from "./warm-watch.js";

const port = parentPort;
if (!port) throw new Error("warm-watch-worker runs as a worker thread");
const { sentinelDir, roots: initialRoots, maxWatches } = workerData as WatchWorkerData;

/** Each root and its device: a directory on another device (a mount inside the root) is not watched. */
const roots = new Map<string, number | undefined>(initialRoots.map((r) => [r, undefined]));
const watchers = new Map<string, FSWatcher>();
let out: WatchOut[] = [];
let scheduled = false;

function send(m: WatchOut): void {
  out.push(m);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

function flush(): void {
  scheduled = false;
  const batch = out;
  out = [];
  if (batch.length) (port as NonNullable<typeof port>).postMessage(batch);
}

function start(dir: string, onEvent: (event: string, name: string | Buffer | null) => void): FSWatcher {
  const w = watch(dir, { persistent: true }, onEvent);
  w.on("error", (e: Error) => send({ t: "lost", d: dir, why: e.message }));
  return w;
}

function watchDir(dir: string, gen: number): void {
  if (watchers.has(dir)) {
    send({ t: "on", d: dir, g: gen });
    return;
  }
  // A child only under a watched parent: a later swap of the child is an event in the parent.
  if (!roots.has(dir) && !watchers.has(dirname(dir))) {
    send({ t: "off", d: dir, g: gen, why: "parent not watched" });
    return;
  }
  if (watchers.size >= maxWatches) {
    send({ t: "off", d: dir, g: gen, why: `watch cap ${maxWatches} reached` });
    return;
  }
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory()) throw new Error("not a directory (or a symlink)");
    if (roots.has(dir)) roots.set(dir, st.dev);
    else {
      const root = [...roots.keys()].find((r) => dir.startsWith(`${r}/`));
      // Changes on another filesystem mounted here need not pass through this kernel (NFS, FUSE).
      if (root === undefined || roots.get(root) !== st.dev) throw new Error("outside its root's filesystem");
    }
    const w = start(dir, (event, name) => send({ t: "ev", d: dir, n: typeof name === "string" ? name : undefined, r: event === "rename" }));
    watchers.set(dir, w);
    send({ t: "on", d: dir, g: gen });
  } catch (e) {
    send({ t: "off", d: dir, g: gen, why: (e as Error).message });
  }
}

function unwatch(prefix: string): void {
  const under = prefix.endsWith("/") ? prefix : `${prefix}/`;
  for (const [dir, w] of watchers) {
    if (dir === prefix || dir.startsWith(under)) {
      w.close();
      watchers.delete(dir);
    }
  }
}

port.on("message", (m: WatchIn) => {
  if (m.t === "root") {
    if (!roots.has(m.d)) roots.set(m.d, undefined);
  }
  else if (m.t === "watch") for (const { d, g } of m.dirs) watchDir(d, g);
  else if (m.t === "unwatch") unwatch(m.d);
});

try {
  const w = watch(sentinelDir, { persistent: true }, (_event, name) => {
    if (typeof name === "string") send({ t: "mark", n: name });
  });
  w.on("error", (e: Error) => send({ t: "fatal", why: `sentinel: ${e.message}` }));
  send({ t: "ready" });
} catch (e) {
  send({ t: "fatal", why: `sentinel: ${(e as Error).message}` });
}
