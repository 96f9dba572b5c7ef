import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  openSync,
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
  const dir = dirname(absPath);
  let mode = options.mode;
  let owner: { uid: number; gid: number } | undefined;
  try {
    const st = statSync(absPath);
    mode = st.mode & 0o7777;
    owner = { uid: st.uid, gid: st.gid };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  const temp = join(dir, `.${basename(absPath)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", mode ?? 0o666);
  let renamed = false;
  try {
    try {
      let off = 0;
      while (off < data.length) off += writeSync(fd, data, off, data.length - off);
      if (mode !== undefined) fchmodSync(fd, mode);
      if (owner && process.getuid?.() === 0) fchownSync(fd, owner.uid, owner.gid);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    options.beforeRename?.(temp);
    renameSync(temp, absPath);
    renamed = true;
    syncDir(dir);
  } finally {
    if (!renamed) {
      try {
        unlinkSync(temp);
      } catch {
        // already gone
      }
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
