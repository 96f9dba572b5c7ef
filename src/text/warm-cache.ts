/**
 * What a long-lived process (the daemon, the MCP server) keeps between searches: directory
 * listings, ignore-rule files and file contents, each remembered with the stat it was read
 * under. Nothing is trusted without a fresh stat (a directory's mtime changes when an entry is
 * added, removed or renamed; a file's mtime/ctime/size/inode when it is written or replaced),
 * so an answer never comes from stale bytes, whatever a watcher has or has not reported yet.
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
}

export interface WarmCacheStats {
  files: number;
  bytes: number;
  max_bytes: number;
  dirs: number;
  hits: number;
  misses: number;
  evictions: number;
}

export class WarmCache {
  private readonly dirs = new Map<string, { stamp: Stamp; racy: boolean; entries: Dirent[] }>();
  private readonly rules = new Map<string, { stamp: Stamp | undefined; racy: boolean; text: string | undefined }>();
  /** Map order is recency order: a hit moves the entry to the end, eviction takes from the front. */
  private readonly files = new Map<string, FileEntry>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxFileBytes: number;
  private hits = 0;
  private misses = 0;
  private evictions = 0;
  /** Compiled ignore rules by directory and text: their own per-path memo then stays warm too. */
  readonly compiled = new Map<string, unknown>();
  /** The walk's per-directory verdicts (src/text/walk.ts), tied to the listing they were made from. */
  readonly walkMemo = new Map<string, unknown>();

  constructor(opts: WarmCacheOptions = {}) {
    this.maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
    this.maxFileBytes = opts.maxFileBytes ?? 8 * 1024 * 1024;
    this.racyMs = opts.racyMs ?? RACY_MS;
  }

  private readonly racyMs: number;

  private racy(st: Stamp): boolean {
    return Date.now() - Math.max(st.mtimeMs, st.ctimeMs) < this.racyMs;
  }

  /** readdirSync(dir, { withFileTypes: true }), reused while the directory's stat is unchanged. Throws as readdirSync. */
  readdir(dir: string): Dirent[] {
    const st = statSync(dir);
    const hit = this.dirs.get(dir);
    if (hit && !hit.racy && same(hit.stamp, st)) return hit.entries;
    const entries = readdirSync(dir, { withFileTypes: true });
    const stamp = stampOf(st);
    this.dirs.set(dir, { stamp, racy: this.racy(stamp), entries });
    if (this.dirs.size > 200_000) this.dirs.clear();
    return entries;
  }

  /** A rules file's text (undefined when it cannot be read), reused while its stat is unchanged. */
  readRules(path: string): string | undefined {
    let st: Stats | undefined;
    try {
      st = statSync(path);
    } catch {
      st = undefined;
    }
    const hit = this.rules.get(path);
    if (hit && !hit.racy && (st === undefined ? hit.stamp === undefined : hit.stamp !== undefined && same(hit.stamp, st))) return hit.text;
    let text: string | undefined;
    try {
      text = st ? readFileSync(path, "utf8") : undefined;
    } catch {
      text = undefined;
    }
    const stamp = st ? stampOf(st) : undefined;
    this.rules.set(path, { stamp, racy: stamp ? this.racy(stamp) : false, text });
    if (this.rules.size > 200_000) this.rules.clear();
    return text;
  }

  /**
   * The file's current bytes, from memory when its stat still matches, else read and kept.
   * undefined when it is not a regular file this cache keeps (too large for it, unreadable,
   * gone): the caller then takes its cold path, which reports such files as it always did.
   */
  read(abs: string): CachedFile | undefined {
    let st: Stats;
    try {
      st = statSync(abs);
    } catch {
      this.drop(abs);
      return undefined;
    }
    const hit = this.files.get(abs);
    if (hit && !hit.racy && same(hit.stamp, st)) {
      this.hits++;
      this.files.delete(abs);
      this.files.set(abs, hit);
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
    const entry: FileEntry =
      nul === -1 ? { bytes, size: bytes.length, stamp, racy: this.racy(stamp) } : { bytes: Buffer.from(bytes.subarray(0, HEAD_BLOCK)), size: bytes.length, earlyNul: nul, stamp, racy: this.racy(stamp) };
    this.files.set(abs, entry);
    this.bytes += entry.bytes.length;
    while (this.bytes > this.maxBytes) {
      const oldest = this.files.keys().next();
      if (oldest.done) break;
      this.drop(oldest.value);
      this.evictions++;
    }
    return entry;
  }

  private drop(abs: string): void {
    const e = this.files.get(abs);
    if (!e) return;
    this.files.delete(abs);
    this.bytes -= e.bytes.length;
  }

  stats(): WarmCacheStats {
    return { files: this.files.size, bytes: this.bytes, max_bytes: this.maxBytes, dirs: this.dirs.size, hits: this.hits, misses: this.misses, evictions: this.evictions };
  }

  clear(): void {
    this.dirs.clear();
    this.rules.clear();
    this.files.clear();
    this.compiled.clear();
    this.walkMemo.clear();
    this.bytes = 0;
  }
}

let current: WarmCache | undefined;

/**
 * Turns the warm cache on for this process (the daemon and the MCP server call it once; a CLI
 * run never does, so a one-shot process keeps no copies).
 */
export function enableWarmCache(opts: WarmCacheOptions = {}): WarmCache {
  if (!current) {
    const mb = Number(process.env.LLMTOOLS_WARM_CACHE_MB);
    current = new WarmCache({ maxBytes: Number.isFinite(mb) && mb > 0 ? mb * 1024 * 1024 : undefined, ...opts });
  }
  return current;
}

export function disableWarmCache(): void {
  current?.clear();
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
