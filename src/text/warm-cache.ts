/**
 * What a long-lived process (the daemon, the MCP server) keeps between searches: directory
 * listings, ignore-rule files and file contents, each remembered with the stat it was read
 * under. By default nothing is trusted without a fresh stat (a directory's mtime changes when an
 * entry is added, removed or renamed; a file's mtime/ctime/size/inode when it is written or
 * replaced), so an answer never comes from stale bytes.
 *
 * With a watcher (`watch: true`, see ./warm-watch.ts) the stats are skipped where the watcher
 * stands in for them: an entry checked by a stat (or read) while its directory was watched is
 * trusted as is until an event for it (or its directory, or the epoch) says otherwise, and only
 * inside `trusted()`, which a search enters after `settle()`: a barrier guaranteeing that every
 * change saved before the search has been delivered. Anything else is stat-checked as before.
 *
 * Timestamps are coarse (the kernel stamps with a clock that ticks every few ms), so a write
 * landing in the same tick as our read could leave the stat unchanged: as git does with its
 * "racily clean" entries, anything whose mtime is this recent is read again next time rather
 * than trusted.
 *
 * File contents are bounded by a byte cap with least-recently-used eviction (LLMTOOLS_WARM_CACHE_MB,
 * default 256); files over a per-file cap are not kept (the cold path reads them).
 */
import { type Dirent, readdirSync, readFileSync, statSync, type Stats } from "node:fs";
import { freezeChecksum } from "./checksum.js";
import { WarmWatch, type WatchSink, type WatchStats } from "./warm-watch.js";

/** The stat fields that change when a file or directory is written, replaced or renamed over. */
interface Stamp {
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  ino: number;
}

/** Within this many ms of now a stamp may not yet reflect a write in the same clock tick. */
const RACY_MS = 2000;

function stampOf(st: Stats): Stamp {
  return { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, size: st.size, ino: st.ino };
}

function same(a: Stamp, st: Stats): boolean {
  return a.mtimeMs === st.mtimeMs && a.ctimeMs === st.ctimeMs && a.size === st.size && a.ino === st.ino;
}


/** A file's bytes as cached: whole, or (a NUL in the first block: binary) just that first block. */
export interface CachedFile {
  /** The whole file, or its first `HEAD` bytes when `early` says a NUL lies in them. */
  bytes: Buffer;
  /** Size on disk when read. */
  size: number;
  /** Index of a NUL byte in the first block, when there is one (the rest was not kept). */
  earlyNul?: number;
}

interface FileEntry extends CachedFile {
  stamp: Stamp;
  racy: boolean;
  /** The watcher's epoch when last checked under a watch; -1: not trusted without a stat. */
  trust: number;
  /** When last used (the cache's use counter): eviction takes the least recent. */
  used: number;
}

interface DirEntry {
  stamp: Stamp;
  racy: boolean;
  entries: Dirent[];
  trust: number;
}

interface RulesEntry {
  stamp: Stamp | undefined;
  racy: boolean;
  text: string | undefined;
  trust: number;
}

/** The first block ripgrep (and llmsearch's cold path) looks at to call a file binary. */
export const HEAD_BLOCK = 64 * 1024;

export interface WarmCacheOptions {
  /** Bytes of file contents kept at most. */
  maxBytes?: number;
  /** Files larger than this are never kept. */
  maxFileBytes?: number;
  /**
   * Stamps this recent are re-read rather than trusted (default 2000 ms). Tests set 0 to
   * exercise the stat checks alone; no process should.
   */
  racyMs?: number;
  /** Let a directory watcher stand in for the stats (Linux, local filesystems; else stats). */
  watch?: boolean;
  /** How long a barrier waits for the watcher before the search stats instead (default 100 ms). */
  barrierTimeoutMs?: number;
  /** The kernel's event queue length the overflow rule assumes (default: /proc's max_queued_events); tests set it low. */
  maxQueuedEvents?: number;
  /** Directories watched at most (default: half of /proc's max_user_watches, at most 100,000); the rest are stat-checked. */
  maxWatches?: number;
}

export interface WarmCacheStats {
  files: number;
  bytes: number;
  max_bytes: number;
  dirs: number;
  hits: number;
  misses: number;
  evictions: number;
  /** Listings, rule files and contents used without a stat, on the watcher's word. */
  trusted_hits: number;
  watch?: WatchStats;
}

export class WarmCache implements WatchSink {
  private readonly dirs = new Map<string, DirEntry>();
  private readonly rules = new Map<string, RulesEntry>();
  private readonly files = new Map<string, FileEntry>();
  /** Counts uses; an entry remembers its last (cheaper than moving it to the end of the map). */
  private tick = 0;
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxFileBytes: number;
  private hits = 0;
  private misses = 0;
  private evictions = 0;
  private trustedHits = 0;
  private readonly watcher: WarmWatch | undefined;
  /** Set by trusted(): the epoch entries must carry to be used without a stat. */
  private trustEpoch = -1;
  /** Compiled ignore rules by directory and text: their own per-path memo then stays warm too. */
  readonly compiled = new Map<string, unknown>();
  /** The walk's per-directory verdicts (src/text/walk.ts), tied to the listing they were made from. */
  readonly walkMemo = new Map<string, unknown>();
  /** Whole trusted walks (src/text/walk.ts), valid while walkStillValid(their version). */
  readonly walks = new Map<string, unknown>();
  /**
   * Moves on whenever a listing or rules file may differ from what a walk saw: an event that
   * creates, deletes or renames an entry, changes a rules file or a directory, or a listing or
   * rules file found changed by a stat (its event may still be on its way).
   */
  private listingVersion = 0;
  /** Listings and rules files used on a stat rather than on trust: a walk with any is not kept. */
  untrustedUses = 0;
  private listingEpoch = -1;

  constructor(opts: WarmCacheOptions = {}) {
    this.maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
    this.maxFileBytes = opts.maxFileBytes ?? 8 * 1024 * 1024;
    this.racyMs = opts.racyMs ?? RACY_MS;
    this.watcher = opts.watch ? new WarmWatch(this, { barrierTimeoutMs: opts.barrierTimeoutMs, maxQueuedEvents: opts.maxQueuedEvents, maxWatches: opts.maxWatches }) : undefined;
  }

  /**
   * Watches `root` (a real path) from now on, and waits until every change saved before this
   * call has reached the cache. true: the search may run inside trusted(); false: stat as usual.
   */
  async settle(root: string): Promise<boolean> {
    const w = this.watcher;
    if (!w) return false;
    w.addRoot(root);
    return w.barrier();
  }

  /** Runs `fn` (synchronous: no other request's changes can interleave) trusting watched entries when `settled`. */
  trusted<T>(settled: boolean, fn: () => T): T {
    const was = this.enter(settled);
    try {
      return fn();
    } finally {
      this.leave(was);
    }
  }

  /**
   * trusted() for a synchronous stretch that is not one function: trust from here (when
   * `settled`) until leave() is given what this returned, before the caller's next await.
   */
  enter(settled: boolean): number {
    const was = this.trustEpoch;
    if (settled && this.watcher) this.trustEpoch = this.watcher.epoch;
    return was;
  }

  leave(was: number): void {
    this.trustEpoch = was;
  }

  /** Whether trusted() is in force (the walk may then reuse whole walks). */
  isTrusting(): boolean {
    return this.trustEpoch >= 0;
  }

  /** The listing version a walk starting now would be valid for. */
  walkVersion(): number {
    if (this.listingEpoch !== this.trustEpoch) {
      this.listingEpoch = this.trustEpoch;
      this.listingVersion++;
    }
    return this.listingVersion;
  }

  /** Whether a walk made at `version` would find the same listings and rules now. */
  walkStillValid(version: number): boolean {
    return this.trustEpoch >= 0 && this.listingEpoch === this.trustEpoch && this.listingVersion === version;
  }

  /** The trust an entry of directory `dir` checked right now gets; asks for a watch when there is none. */
  private trustIn(dir: string): number {
    const w = this.watcher;
    if (!w) return -1;
    if (w.isActive(dir)) return w.epoch;
    w.want(dir);
    return -1;
  }

  changed(dir: string, name: string | undefined, rename: boolean): void {
    if (name === undefined) {
      this.lost(dir);
      return;
    }
    const p = `${dir}/${name}`;
    if (rename) {
      this.listingVersion++;
      const d = this.dirs.get(dir);
      if (d) d.trust = -1;
    }
    const f = this.files.get(p);
    if (f) f.trust = -1;
    const r = this.rules.get(p);
    if (r) {
      this.listingVersion++;
      r.trust = -1;
    }
    // A child directory's attributes (permissions decide whether it can be listed), or the
    // watched directory itself (an event about it carries its own name).
    if (this.dirs.has(p)) this.lost(p);
    if (dir.endsWith(`/${name}`)) this.lost(dir);
  }

  lost(dir: string): void {
    this.listingVersion++;
    const under = `${dir}/`;
    for (const m of [this.dirs, this.files, this.rules] as Map<string, { trust: number }>[]) {
      for (const [k, e] of m) if (k === dir || k.startsWith(under)) e.trust = -1;
    }
  }

  private readonly racyMs: number;

  /** The entry, when it was kept under the trust this search holds: answered without a stat (and counted). */
  private trustedNow<T extends { trust: number }>(entry: T | undefined): T | undefined {
    if (!entry || entry.trust !== this.trustEpoch || entry.trust < 0) return undefined;
    this.trustedHits++;
    return entry;
  }

  private racy(st: Stamp): boolean {
    return Date.now() - Math.max(st.mtimeMs, st.ctimeMs) < this.racyMs;
  }

  /** readdirSync(dir, { withFileTypes: true }), reused while the directory's stat is unchanged. Throws as readdirSync. */
  readdir(dir: string): Dirent[] {
    const hit = this.dirs.get(dir);
    const trusted = this.trustedNow(hit);
    if (trusted) return trusted.entries;
    this.untrustedUses++;
    const st = statSync(dir);
    if (hit && !hit.racy && same(hit.stamp, st)) {
      hit.trust = this.trustIn(dir);
      return hit.entries;
    }
    this.listingVersion++;
    const trust = this.trustIn(dir);
    const entries = readdirSync(dir, { withFileTypes: true });
    const stamp = stampOf(st);
    this.dirs.set(dir, { stamp, racy: this.racy(stamp), entries, trust });
    if (this.dirs.size > 200_000) this.dirs.clear();
    return entries;
  }

  /** A rules file's text (undefined when it cannot be read), reused while its stat is unchanged. */
  readRules(path: string): string | undefined {
    const hit = this.rules.get(path);
    const trusted = this.trustedNow(hit);
    if (trusted) return trusted.text;
    this.untrustedUses++;
    const trust = this.trustIn(dirOf(path));
    let st: Stats | undefined;
    try {
      st = statSync(path);
    } catch {
      st = undefined;
    }
    if (hit && !hit.racy && (st === undefined ? hit.stamp === undefined : hit.stamp !== undefined && same(hit.stamp, st))) {
      hit.trust = trust;
      return hit.text;
    }
    let text: string | undefined;
    try {
      text = st ? readFileSync(path, "utf8") : undefined;
    } catch {
      text = undefined;
    }
    if (text !== hit?.text) this.listingVersion++;
    const stamp = st ? stampOf(st) : undefined;
    this.rules.set(path, { stamp, racy: stamp ? this.racy(stamp) : false, text, trust });
    if (this.rules.size > 200_000) this.rules.clear();
    return text;
  }

  /**
   * The file's current bytes, from memory when its stat still matches, else read and kept.
   * undefined when it is not a regular file this cache keeps (too large for it, unreadable,
   * gone): the caller then takes its cold path, which reports such files as it always did.
   */
  read(abs: string): CachedFile | undefined {
    const trusted = this.trustedNow(this.files.get(abs));
    if (trusted) {
      this.hits++;
      trusted.used = ++this.tick;
      return trusted;
    }
    // Trusted only when the directory's watch was acknowledged before this stat and read (a
    // later change is then an event that drops the entry), and never a file with a second hard
    // link (a write through that one is reported in the other directory).
    const dirTrust = this.trustIn(dirOf(abs));
    let st: Stats;
    try {
      st = statSync(abs);
    } catch {
      this.drop(abs);
      return undefined;
    }
    const hit = this.files.get(abs);
    if (hit && !hit.racy && same(hit.stamp, st)) {
      hit.trust = st.nlink === 1 ? dirTrust : -1;
      this.hits++;
      hit.used = ++this.tick;
      return hit;
    }
    this.misses++;
    this.drop(abs);
    if (!st.isFile() || st.size > this.maxFileBytes) return undefined;
    let bytes: Buffer;
    try {
      bytes = readFileSync(abs);
    } catch {
      return undefined;
    }
    // Written while we read: the cold path copes with a growing file; keep nothing.
    if (bytes.length !== st.size) return undefined;
    const stamp = stampOf(st);
    const nul = bytes.subarray(0, HEAD_BLOCK).indexOf(0);
    const trust = st.nlink === 1 ? dirTrust : -1;
    const entry: FileEntry =
      nul === -1
        ? { bytes: shared(bytes), size: bytes.length, stamp, racy: this.racy(stamp), trust, used: ++this.tick }
        : { bytes: Buffer.from(bytes.subarray(0, HEAD_BLOCK)), size: bytes.length, earlyNul: nul, stamp, racy: this.racy(stamp), trust, used: ++this.tick };
    freezeChecksum(entry.bytes);
    this.files.set(abs, entry);
    this.bytes += entry.bytes.length;
    if (this.bytes > this.maxBytes) this.evict();
    return entry;
  }

  /** Drops the least recently used contents down to 90% of the cap (so that this runs seldom). */
  private evict(): void {
    const byAge = [...this.files].sort((a, b) => a[1].used - b[1].used);
    const target = this.maxBytes * 0.9;
    for (const [abs] of byAge) {
      if (this.bytes <= target) break;
      this.drop(abs);
      this.evictions++;
    }
  }

  private drop(abs: string): void {
    const e = this.files.get(abs);
    if (!e) return;
    this.files.delete(abs);
    this.bytes -= e.bytes.length;
  }

  stats(): WarmCacheStats {
    const s: WarmCacheStats = { files: this.files.size, bytes: this.bytes, max_bytes: this.maxBytes, dirs: this.dirs.size, hits: this.hits, misses: this.misses, evictions: this.evictions, trusted_hits: this.trustedHits };
    if (this.watcher) s.watch = this.watcher.stats();
    return s;
  }

  /** Clears the cache and stops its watcher. */
  async close(): Promise<void> {
    this.clear();
    await this.watcher?.close();
  }

  clear(): void {
    this.dirs.clear();
    this.rules.clear();
    this.files.clear();
    this.compiled.clear();
    this.walkMemo.clear();
    this.walks.clear();
    this.listingVersion++;
    this.bytes = 0;
  }
}

/**
 * The bytes in shared memory: handing them to a search thread (postMessage) then shares them
 * instead of copying the file on every search. One copy, when the file is read.
 */
function shared(bytes: Buffer): Buffer {
  const out = Buffer.from(new SharedArrayBuffer(bytes.length));
  bytes.copy(out);
  return out;
}

function dirOf(abs: string): string {
  const i = abs.lastIndexOf("/");
  return i <= 0 ? "/" : abs.slice(0, i);
}

let current: WarmCache | undefined;

/**
 * Turns the warm cache on for this process (the daemon and the MCP server call it once; a CLI
 * run never does, so a one-shot process keeps no copies).
 */
export function enableWarmCache(opts: WarmCacheOptions = {}): WarmCache {
  if (!current) {
    const mb = Number(process.env.LLMTOOLS_WARM_CACHE_MB);
    current = new WarmCache({
      maxBytes: Number.isFinite(mb) && mb > 0 ? mb * 1024 * 1024 : undefined,
      // LLMTOOLS_WARM_WATCH=0: stat every entry on every use, as without a watcher.
      watch: process.env.LLMTOOLS_WARM_WATCH !== "0",
      ...opts,
    });
  }
  return current;
}

export function disableWarmCache(): void {
  void current?.close();
  current = undefined;
}

/** Installs `c` as the process's cache (undefined: none); returns the one it replaces. */
export function useWarmCache(c: WarmCache | undefined): WarmCache | undefined {
  const was = current;
  current = c;
  return was;
}

/** The process's warm cache, when enabled. */
export function warmCache(): WarmCache | undefined {
  return current;
}
