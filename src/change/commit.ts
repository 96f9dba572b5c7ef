/**
 * commitChange: lock every file (sorted, shared by all processes) -> re-read each and require the
 * planned before-bytes -> journal + backups (multi-file or undoable changes) -> temp + fsync per
 * file -> re-verify -> rename each -> journal done -> unlock. docs/change-pipeline.md.
 */
import { randomBytes, randomUUID } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
  type BigIntStats,
} from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { EXIT, ToolError } from "../contract/errors.js";
import { deadTempEntries } from "../text/atomic.js";
import { checksum } from "../text/checksum.js";
import { changeError } from "./errors.js";
import { backupDir, ensureStateDir, stamp, syncDir, writeDurable, writeEntry, type JournalEntry, type JournalFile } from "./journal.js";
import { DEFAULT_LOCK_TIMEOUT_MS, acquireLocks, releaseLocks, selfOwner, type HeldLock } from "./lock.js";
import { isInside, realExisting } from "../text/root.js";
import { VerifiedDir, assertWritablePath } from "./paths.js";
import { recover, refuseIfShared } from "./recover.js";
import type { ChangeCommit, ChangeRequest, CommitOptions, CommittedFile, PlannedFile } from "./types.js";

function toPosix(p: string): string {
  return sep === "/" ? p : p.split(sep).join("/");
}

function lockTimeout(opts: CommitOptions): number {
  if (opts.lockTimeoutMs !== undefined) return opts.lockTimeoutMs;
  const env = Number(process.env.LLMTOOLS_LOCK_TIMEOUT_MS);
  return Number.isFinite(env) && env >= 0 && process.env.LLMTOOLS_LOCK_TIMEOUT_MS ? env : DEFAULT_LOCK_TIMEOUT_MS;
}

interface Target {
  file: PlannedFile;
  /** Caller's path, normalised root-relative. */
  rel: string;
  /** Absolute real path written (a symlink inside the root is written through to its target). */
  real: string;
  /** `real` relative to the root. */
  realRel: string;
  name: string;
}

function resolveTarget(root: string, tool: string, file: PlannedFile): Target {
  if (typeof file?.path !== "string") throw changeError(tool, "invalid_request", "a planned file has no path", "Give every planned file a root-relative path.", { exitCode: EXIT.usage });
  if (file.before === null && file.after === null) {
    throw changeError(tool, "invalid_request", `${file.path}: before and after are both null (nothing to create or delete)`, "Give the bytes to write, or the bytes to delete.", { exitCode: EXIT.usage, file: file.path });
  }
  const rel = assertWritablePath(root, file.path, tool);
  const abs = join(root, rel);
  let isLink = false;
  try {
    isLink = lstatSync(abs).isSymbolicLink();
  } catch {
    // does not exist yet
  }
  let real: string;
  if (isLink) {
    try {
      real = realpathSync(abs);
    } catch {
      throw changeError(tool, "invalid_request", `${rel} is a symlink to a file that does not exist; nothing written`, "Name the link's target (inside the workspace root) instead, or remove the dangling link.", { file: rel, exitCode: EXIT.usage });
    }
  } else real = realExisting(abs);
  const realRel = toPosix(relative(root, real));
  if (!isInside(root, real) || realRel === "") throw changeError(tool, "path_outside_root", `${rel} resolves outside the workspace root`, "Name a file inside the workspace root.", { file: rel, exitCode: EXIT.usage });
  return { file, rel, real, realRel, name: basename(real) };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Test hook for the kill tests: pause this long (ms) after each rename of a journaled change. */
function testPause(): number {
  const v = Number(process.env.LLMTOOLS_CHANGE_TEST_PAUSE_MS ?? "0");
  return Number.isFinite(v) && v > 0 ? v : 0;
}

interface Staged {
  t: Target;
  dir: VerifiedDir;
  /** lstat of the target as read under the lock; null when it did not exist. */
  seen: BigIntStats | null;
  mode: number | undefined;
  owner: { uid: number; gid: number } | undefined;
  temp: string | null;
  tempId?: { dev: bigint; ino: bigint };
  current: Buffer | null;
  beforeSum?: string | null;
  afterSum?: string | null;
}

function changedOnDisk(tool: string, rels: string[], why: string) {
  return changeError(
    tool,
    "changed_on_disk",
    `${rels.join(", ")} ${rels.length === 1 ? "has" : "have"} changed on disk since the change was planned (${why}); nothing written`,
    "Re-read the file(s), plan the change again against the current bytes, and retry.",
    { file: rels[0] },
  );
}

function sameStat(a: BigIntStats | null, b: BigIntStats | null): boolean {
  if (a === null || b === null) return a === b;
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

function lstatOrNull(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** Reads the file through the verified directory without following a final symlink. */
function readCurrent(dir: VerifiedDir, name: string): { bytes: Buffer; st: BigIntStats } | null {
  let fd: number;
  try {
    fd = openSync(dir.at(name), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile()) throw Object.assign(new Error("not a regular file"), { code: "EISDIR" });
    return { bytes: readFileSync(fd), st };
  } finally {
    closeSync(fd);
  }
}

/** Temp files of a dead single-file writer (`.<name>.<pid>.<hex>.tmp`, also src/text/atomic.ts's) beside the target. */
function removeDeadTemps(dir: VerifiedDir, name: string, rel: string): string[] {
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir.at("."));
  } catch {
    return removed;
  }
  for (const entry of deadTempEntries(entries, name)) {
    try {
      unlinkSync(dir.at(entry));
      removed.push(`${rel.slice(0, rel.length - name.length)}${entry}`);
    } catch {
      // removed by someone else first
    }
  }
  return removed;
}

function writeTemp(s: Staged, data: Uint8Array): void {
  const fd = openSync(s.dir.at(s.temp as string), constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, s.mode ?? 0o666);
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    if (s.mode !== undefined) fchmodSync(fd, s.mode);
    if (s.owner && process.getuid?.() === 0) fchownSync(fd, s.owner.uid, s.owner.gid);
    fsyncSync(fd);
    const st = fstatSync(fd, { bigint: true });
    s.tempId = { dev: st.dev, ino: st.ino };
  } finally {
    closeSync(fd);
  }
}

function removeTemp(s: Staged): void {
  if (!s.temp) return;
  try {
    unlinkSync(s.dir.at(s.temp));
  } catch {
    // never created, or already renamed
  }
}

/**
 * Commits a planned change: every file wholly written or none, under per-file locks shared by
 * all writers, after checking each file still holds the bytes the change was planned against.
 */
export async function commitChange(req: ChangeRequest, opts: CommitOptions = {}): Promise<ChangeCommit & { removed_temps?: string[] }> {
  const tool = req.tool;
  let root: string;
  try {
    root = realpathSync(req.root);
  } catch {
    throw changeError(tool, "invalid_root", `workspace root does not exist: ${req.root}`, "Pass the workspace root as an existing directory.", { exitCode: EXIT.usage });
  }
  if (!Array.isArray(req.files) || req.files.length === 0) {
    throw changeError(tool, "invalid_request", "the change names no files", "Plan at least one file.", { exitCode: EXIT.usage });
  }
  if (req.operationId !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(req.operationId)) {
    throw changeError(tool, "invalid_request", `operation id ${JSON.stringify(req.operationId)} is not a plain name`, "Omit operationId (a UUID v4 is made) or use letters, digits, '.', '_' and '-'.", { exitCode: EXIT.usage });
  }
  const targets = req.files.map((f) => resolveTarget(root, tool, f));
  recoverBefore(root, tool, targets);
  const seen = new Map<string, string>();
  for (const t of targets) {
    const other = seen.get(t.real);
    if (other !== undefined) {
      throw changeError(tool, "invalid_request", `${other} and ${t.rel} are the same file; a change may name each file once`, "Merge the two files' edits into one planned file.", { exitCode: EXIT.usage, file: t.rel });
    }
    seen.set(t.real, t.rel);
  }
  const shown = (real: string): string => targets.find((t) => t.real === real)?.rel ?? real;
  const timeout = lockTimeout(opts);
  let locks: HeldLock[] = [];
  for (let attempt = 0; ; attempt++) {
    const got = await acquireLocks(tool, targets.map((t) => t.real), timeout, shown);
    locks = got.locks;
    if (!got.tookOver || attempt >= 3) break;
    // A writer died holding one of these locks: finish or roll back its journal before we touch the files.
    releaseLocks(locks);
    recoverBefore(root, tool, targets);
  }
  try {
    return commitLocked(root, tool, req, targets, opts);
  } catch (e) {
    throw asToolError(tool, e);
  } finally {
    releaseLocks(locks);
  }
}

/** An OS error met while committing, as a coded refusal (nothing was written: commitLocked undoes its own steps). */
function asToolError(tool: string, e: unknown): unknown {
  if (e instanceof ToolError) return e;
  const code = (e as NodeJS.ErrnoException)?.code;
  const path = (e as NodeJS.ErrnoException)?.path;
  if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") {
    return changeError(tool, "changed_on_disk", `a directory of the path was moved or replaced during the write (${code}${path ? ` on ${path}` : ""}); nothing written`, "Re-read the file(s), plan the change again, and retry.");
  }
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
    return changeError(tool, "io_error", `no permission to write (${code}${path ? ` on ${path}` : ""}); nothing written`, "Make the file and its directory writable if they are meant to be edited.");
  }
  if (typeof code === "string") {
    return changeError(tool, "io_error", `${(e as Error).message}; nothing written`, "Check the disk (space, permissions) and retry.");
  }
  return e;
}

/**
 * Recovers dead writers' changes before this one. A change that cannot be recovered stops this
 * one only when they share a file: it is reported once (E013) and marked, and unrelated writers go on.
 */
function recoverBefore(root: string, tool: string, targets: Target[]): void {
  refuseIfShared(tool, recover(root, tool).failures, targets.map((t) => t.real));
}

function commitLocked(root: string, tool: string, req: ChangeRequest, targets: Target[], opts: CommitOptions): ChangeCommit & { removed_temps?: string[] } {
  const operationId = req.operationId ?? randomUUID();
  const journaled = targets.length > 1 || Boolean(req.backup);
  const staged: Staged[] = [];
  const removedTemps: string[] = [];
  const closeAll = (): void => staged.forEach((s) => s.dir.close());
  try {
    // 1. Under the locks: each file still holds the bytes the change was planned against.
    const mismatched: string[] = [];
    for (const t of targets) {
      const dir = VerifiedDir.open(tool, root, t.realRel, t.file.before === null && t.file.after !== null);
      const s: Staged = { t, dir, seen: null, mode: undefined, owner: undefined, temp: null, current: null };
      staged.push(s);
      // The directory locked (by real path) must be the one opened: a component replaced by a
      // symlink inside the root since the path was resolved would otherwise redirect the write.
      if (dir.real !== dirname(t.real)) throw changedOnDisk(tool, [t.rel], `its directory now resolves to ${dir.real}`);
      let cur: ReturnType<typeof readCurrent>;
      try {
        cur = readCurrent(dir, t.name);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ELOOP") throw changedOnDisk(tool, [t.rel], "it became a symlink");
        if (code === "EISDIR") throw changeError(tool, "invalid_request", `${t.rel} is not a regular file`, "Name a regular file.", { file: t.rel });
        throw e;
      }
      if (t.file.before === null ? cur !== null : cur === null || !sameBytes(cur.bytes, t.file.before)) {
        mismatched.push(t.rel);
        continue;
      }
      s.current = cur?.bytes ?? null;
      s.seen = cur ? lstatOrNull(dir.at(t.name)) : null;
      if (cur) {
        s.mode = Number(cur.st.mode & 0o7777n);
        s.owner = { uid: Number(cur.st.uid), gid: Number(cur.st.gid) };
      } else if (t.file.mode !== undefined) s.mode = t.file.mode;
      removedTemps.push(...removeDeadTemps(dir, t.name, t.realRel));
    }
    if (mismatched.length > 0) {
      const why = mismatched.length === 1 && targets.find((t) => t.rel === mismatched[0])?.file.before === null ? "it exists now" : "its bytes differ from the planned before-bytes";
      throw changedOnDisk(tool, mismatched, why);
    }
    for (const s of staged) {
      s.beforeSum = s.current === null ? null : checksum(s.current);
      s.afterSum = s.t.file.after === null ? null : checksum(s.t.file.after);
      if (s.t.file.after === null) continue;
      s.temp = journaled ? `.${s.t.name}.op-${operationId}.tmp` : `.${s.t.name}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    }

    // 2. Journal first (and backups), so that a crash from here on can be finished or undone.
    const entry: JournalEntry | undefined = journaled
      ? {
          version: 1,
          operation_id: operationId,
          time: stamp(),
          tool,
          command: req.command,
          status: "preparing",
          owner: selfOwner(),
          backup: Boolean(req.backup),
          ...(opts.undoOf !== undefined ? { undo_of: opts.undoOf } : {}),
          files: staged.map((s): JournalFile => {
            const f: JournalFile = {
              path: s.t.rel,
              real: s.t.realRel,
              temp: s.temp,
              before_checksum: s.beforeSum ?? null,
              after_checksum: s.afterSum ?? null,
              backup: null,
            };
            if (s.mode !== undefined) f.mode = s.mode;
            return f;
          }),
        }
      : undefined;
    if (entry) {
      ensureStateDir(root, tool);
      if (req.backup) {
        const dir = backupDir(root, operationId);
        try {
          mkdirSync(join(dir, "files"), { recursive: true });
          entry.files.forEach((f, i) => {
            const bytes = staged[i]?.current;
            if (bytes === null || bytes === undefined) return;
            f.backup = `files/${i}`;
            writeDurable(join(dir, f.backup), bytes);
          });
          const manifest = { operation_id: operationId, time: entry.time, tool, command: req.command, files: entry.files.map(({ path, before_checksum, after_checksum, backup, mode }) => ({ path, before_checksum, after_checksum, backup, mode })) };
          writeDurable(join(dir, "manifest.json"), Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`));
          syncDir(join(dir, "files"));
          syncDir(dir);
        } catch (e) {
          rmSync(dir, { recursive: true, force: true });
          throw e;
        }
      }
      writeEntry(root, entry);
    }

    // 3. Every new file complete and synced beside its target.
    try {
      for (const s of staged) if (s.t.file.after !== null) writeTemp(s, s.t.file.after);
      opts.beforeRename?.(staged.filter((s) => s.temp).map((s) => join(s.dir.real, s.temp as string)));
      // 4. Nothing moved while we wrote: the directory is where it was, the target is the file we read, the temp is ours.
      const moved: string[] = [];
      for (const s of staged) {
        s.dir.reverify(tool, root, s.t.rel);
        if (!sameStat(lstatOrNull(s.dir.at(s.t.name)), s.seen)) moved.push(s.t.rel);
        if (s.temp) {
          const st = lstatOrNull(s.dir.at(s.temp));
          if (!st || st.dev !== s.tempId?.dev || st.ino !== s.tempId?.ino) moved.push(s.t.rel);
        }
      }
      if (moved.length > 0) throw changedOnDisk(tool, [...new Set(moved)], "another program wrote it during the commit");
      // 5. The point of no return: from here recovery rolls forward. (atomicWriteFileSync throws
      // only before its rename, so a failure here leaves the entry "preparing": rolled back.)
      if (entry) {
        entry.status = "committing";
        writeEntry(root, entry);
      }
    } catch (e) {
      staged.forEach(removeTemp);
      if (entry) {
        entry.status = "rolled_back";
        entry.note = (e as Error).message;
        try {
          writeEntry(root, entry);
        } catch {
          // The entry stays "preparing": recovery rolls it back (removing temps already gone) once we exit.
        }
      }
      throw e;
    }

    const pause = entry ? testPause() : 0;
    let done = 0;
    try {
      for (const s of staged) {
        if (s.temp) renameSync(s.dir.at(s.temp), s.dir.at(s.t.name));
        else unlinkSync(s.dir.at(s.t.name));
        opts.afterEachRename?.(done);
        done++;
        if (pause) sleepSync(pause);
      }
    } catch (e) {
      rollBackInProcess(staged, done);
      if (entry) {
        entry.status = "rolled_back";
        entry.note = `rolled back after a failed rename: ${(e as Error).message}`;
        try {
          writeEntry(root, entry);
        } catch {
          // Left "committing": a later recovery finds the temps gone and marks it recovery_failed, every file at its before-bytes.
        }
      }
      throw changeError(tool, "io_error", `the change failed while renaming ${staged[done]?.t.rel}: ${(e as Error).message}; every file was put back as it was`, "Check the disk and the permissions of the directories, then retry.", { file: staged[done]?.t.rel });
    }
    for (const fd of new Set(staged.map((s) => s.dir))) fd.sync();
    if (entry) {
      entry.status = "done";
      try {
        writeEntry(root, entry);
      } catch {
        // Every file is written; an entry left "committing" is rolled forward (a no-op) by a later recovery.
      }
    }
    const files: CommittedFile[] = staged.map((s) => ({
      path: s.t.rel,
      before_checksum: s.beforeSum ?? null,
      after_checksum: s.afterSum ?? null,
    }));
    const out: ChangeCommit & { removed_temps?: string[] } = { operation_id: operationId, files };
    if (removedTemps.length > 0) out.removed_temps = removedTemps;
    return out;
  } finally {
    closeAll();
  }
}


/** Puts back the first `done` files from the before-bytes still in memory (a rename failed in this process). */
function rollBackInProcess(staged: Staged[], done: number): void {
  for (let i = 0; i < done; i++) {
    const s = staged[i] as Staged;
    try {
      if (s.current === null) unlinkSync(s.dir.at(s.t.name));
      else {
        s.temp = `.${s.t.name}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
        writeTemp(s, s.current);
        renameSync(s.dir.at(s.temp), s.dir.at(s.t.name));
      }
    } catch {
      // best effort; the journal records the failure
    }
  }
  for (let i = done; i < staged.length; i++) removeTemp(staged[i] as Staged);
}
