/**
 * The journal under <root>/.splice/: one JSON file per operation, rewritten atomically at each
 * phase (preparing -> committing -> done). Temp files beside each target are the redo log: once
 * an entry says "committing", every temp is complete and synced, so recovery rolls forward.
 */
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFileSync } from "../text/atomic.js";
import { changeError } from "./errors.js";
import { ownerAlive } from "./lock.js";

export type JournalStatus = "preparing" | "committing" | "done" | "rolled_back" | "recovery_failed" | "undone";

export interface JournalFile {
  /** As the caller named it (root-relative). */
  path: string;
  /** Root-relative real path that was written (symlinks resolved). */
  real: string;
  /** Temp file's name in the target's directory, null for a delete. */
  temp: string | null;
  before_checksum: string | null;
  after_checksum: string | null;
  /** Relative to the operation's backup directory; null when not backed up or the file did not exist. */
  backup: string | null;
  mode?: number;
}

export interface JournalEntry {
  version: 1;
  operation_id: string;
  time: string;
  tool: string;
  command: string;
  status: JournalStatus;
  owner: { pid: number; start: string | null; host: string };
  backup: boolean;
  files: JournalFile[];
  undo_of?: string;
  undone_by?: string;
  note?: string;
}

export const STATE_DIR = ".splice";

export function stateDir(root: string): string {
  return join(root, STATE_DIR);
}

function journalDir(root: string): string {
  return join(root, STATE_DIR, "journal");
}

export function backupDir(root: string, operationId: string): string {
  return join(root, STATE_DIR, "backups", operationId);
}

/** Creates .splice/ (with a .gitignore of `*`) and its sub-directories; refuses a symlinked one. */
export function ensureStateDir(root: string, tool: string): void {
  const dir = stateDir(root);
  try {
    mkdirSync(dir, { mode: 0o755 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const st = lstatSync(dir);
  if (!st.isDirectory()) {
    throw changeError(tool, "journal_recovery", `${dir} is not a directory (a symlink or a file); the journal cannot be kept`, `Remove ${dir}; the tools recreate it.`);
  }
  try {
    writeFileSync(join(dir, ".gitignore"), "*\n", { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  mkdirSync(journalDir(root), { recursive: true });
  mkdirSync(join(dir, "backups"), { recursive: true });
}

function pendingDir(root: string): string {
  return join(root, STATE_DIR, "pending");
}

/**
 * Writes an entry atomically. An unfinished operation also has a marker in pending/, made before
 * its first entry and removed after its last, so that recovery (run at the start of every commit)
 * reads only the unfinished ones, not the whole history.
 */
export function writeEntry(root: string, entry: JournalEntry): void {
  const marker = join(pendingDir(root), entry.operation_id);
  const unfinished = entry.status === "preparing" || entry.status === "committing";
  if (unfinished) {
    mkdirSync(pendingDir(root), { recursive: true });
    writeFileSync(marker, JSON.stringify(entry.owner));
  }
  atomicWriteFileSync(join(journalDir(root), `${entry.operation_id}.json`), Buffer.from(`${JSON.stringify(entry, null, 1)}\n`));
  if (!unfinished) rmSync(marker, { force: true });
}

export function readEntry(root: string, operationId: string): JournalEntry | undefined {
  try {
    const e = JSON.parse(readFileSync(join(journalDir(root), `${operationId}.json`), "utf8")) as JournalEntry;
    return e && e.version === 1 && e.operation_id === operationId ? e : undefined;
  } catch {
    return undefined;
  }
}

/** Entries of operations that had not finished when last written (their writer may be running, or dead). */
export function unfinishedEntries(root: string): JournalEntry[] {
  let ids: string[];
  try {
    ids = readdirSync(pendingDir(root));
  } catch {
    return [];
  }
  const out: JournalEntry[] = [];
  for (const id of ids) {
    const e = readEntry(root, id);
    if (e && (e.status === "preparing" || e.status === "committing")) {
      out.push(e);
      continue;
    }
    // A marker with no unfinished entry: its writer is between the two writes, or died there.
    const marker = join(pendingDir(root), id);
    let owner: JournalEntry["owner"] | undefined;
    try {
      owner = JSON.parse(readFileSync(marker, "utf8")) as JournalEntry["owner"];
    } catch {
      owner = undefined;
    }
    if (!owner || !ownerAlive(owner)) rmSync(marker, { force: true });
  }
  return out.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}

export function readEntries(root: string): JournalEntry[] {
  let names: string[];
  try {
    names = readdirSync(journalDir(root));
  } catch {
    return [];
  }
  const out: JournalEntry[] = [];
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    try {
      const e = JSON.parse(readFileSync(join(journalDir(root), name), "utf8")) as JournalEntry;
      if (e && e.version === 1 && typeof e.operation_id === "string") out.push(e);
    } catch {
      // a torn entry cannot exist (atomic writes); anything else here is not ours
    }
  }
  return out.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}

/** Writes a file and syncs it before returning: a backup must be on disk before the journal says it is. */
export function writeDurable(path: string, data: Uint8Array): void {
  const fd = openSync(path, constants.O_CREAT | constants.O_TRUNC | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a directory; the renames themselves are still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A sortable timestamp with sub-millisecond order inside one process. */
let lastTime = "";
export function stamp(): string {
  let t = new Date().toISOString();
  if (t <= lastTime) {
    // Same millisecond as the previous operation of this process: keep order by a suffix.
    const base = lastTime.slice(0, 24);
    const n = Number(lastTime.slice(24) || "0") + 1;
    t = `${base}${String(n).padStart(3, "0")}`;
  }
  lastTime = t;
  return t;
}
