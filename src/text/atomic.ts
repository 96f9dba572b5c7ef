import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

export interface AtomicWriteOptions {
  /** Permission bits for a new file; an existing file keeps its own mode and owner. */
  mode?: number;
  /** Test hook: called after the temp file is written and synced, before the rename. */
  beforeRename?: (tempPath: string) => void;
}

/**
 * Writes `data` to `absPath` so that a reader (or a crash) sees either the old bytes or the new
 * ones, never a mix: temp file in the same directory (same filesystem, so rename is atomic),
 * fsync, rename over the target, fsync the directory.
 */
export function atomicWriteFileSync(absPath: string, data: Uint8Array, options: AtomicWriteOptions = {}): void {
  const w = new AtomicFileWriter(absPath, options);
  try {
    w.write(data);
    w.commit();
  } finally {
    w.discard();
  }
}

/** True when a process with this pid exists (one we may not signal counts). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Of a directory's entries, the temp files that a single-file writer of `name` left when it died
 * (`.<name>.<pid>.<12 hex>.tmp`, whose pid is gone): AtomicFileWriter's and the change pipeline's.
 */
export function deadTempEntries(entries: readonly string[], name: string): string[] {
  const prefix = `.${name}.`;
  const dead: string[] = [];
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith(".tmp")) continue;
    const m = /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(entry.slice(prefix.length));
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && !pidAlive(pid)) dead.push(entry);
  }
  return dead;
}

/**
 * atomicWriteFileSync for content produced piece by piece (an export larger than memory should
 * hold): `write` as often as needed, then `commit`; `discard` (always safe to call, e.g. in a
 * finally) removes the temp file of a write that did not commit and leaves the target untouched.
 */
export class AtomicFileWriter {
  private readonly temp: string;
  private readonly fd: number;
  private readonly mode: number | undefined;
  private readonly owner: { uid: number; gid: number } | undefined;
  private state: "open" | "closed" | "committed" = "open";

  constructor(
    private readonly absPath: string,
    private readonly options: AtomicWriteOptions = {},
  ) {
    let mode = options.mode;
    try {
      const st = statSync(absPath);
      mode = st.mode & 0o7777;
      this.owner = { uid: st.uid, gid: st.gid };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    this.mode = mode;
    // A writer killed mid-write (a long export) left its temp file: the next write of the target removes it.
    try {
      for (const entry of deadTempEntries(readdirSync(dirname(absPath)), basename(absPath))) unlinkSync(join(dirname(absPath), entry));
    } catch {
      // Unlistable directory, or removed by someone else first: the write itself will say.
    }
    this.temp = join(dirname(absPath), `.${basename(absPath)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
    this.fd = openSync(this.temp, "wx", mode ?? 0o666);
  }

  /** The temp file's path (its directory is the target's). */
  get tempPath(): string {
    return this.temp;
  }

  write(data: Uint8Array | string): void {
    if (this.state !== "open") throw new Error("AtomicFileWriter: write after commit or discard");
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
  }

  /** fsync, rename over the target, fsync the directory. */
  commit(): void {
    if (this.state !== "open") throw new Error("AtomicFileWriter: commit after commit or discard");
    try {
      if (this.mode !== undefined) fchmodSync(this.fd, this.mode);
      if (this.owner && process.getuid?.() === 0) fchownSync(this.fd, this.owner.uid, this.owner.gid);
      fsyncSync(this.fd);
    } finally {
      this.state = "closed";
      closeSync(this.fd);
    }
    this.options.beforeRename?.(this.temp);
    renameSync(this.temp, this.absPath);
    this.state = "committed";
    syncDir(dirname(this.absPath));
  }

  /** Drops an uncommitted write: the temp file goes, the target keeps its bytes. */
  discard(): void {
    if (this.state === "committed") return;
    if (this.state === "open") {
      this.state = "closed";
      closeSync(this.fd);
    }
    try {
      unlinkSync(this.temp);
    } catch {
      // already gone
    }
  }
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
