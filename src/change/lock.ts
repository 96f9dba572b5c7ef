/**
 * Per-file exclusive locks shared by every process of the toolset (llmtransform, llmfilewrite,
 * splice, the daemon). Node has no flock, so a lock is a file created with O_EXCL in a private
 * per-user directory, named by the sha256 of the locked file's real path and holding its owner
 * (pid + kernel start time, so a recycled pid is not mistaken for the owner). A lock whose owner
 * is dead is taken over; the take-over itself is serialised by a second O_EXCL file so that two
 * waiters cannot both break it and both believe they hold it.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { changeError } from "./errors.js";

interface Owner {
  pid: number;
  start: string | null;
  host: string;
  token: string;
  file: string;
  time: string;
}

/** A lock file left empty (its creator died between open and write) is stale after this long. */
const EMPTY_STALE_MS = 5_000;
/** A take-over marker is held for microseconds; one this old belongs to a dead breaker. */
const BREAKER_STALE_MS = 5_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

/** Kernel start time of a process (Linux /proc/<pid>/stat field 22), or null where unknown. */
export function processStart(pid: number): string | null {
  return procStat(pid)?.[19] ?? null;
}

/** The fields of /proc/PID/stat after the command name, from the state on; null where unreadable. */
function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

const SELF_START = processStart(process.pid);
const HOST = hostname();

/** Whether the process that wrote `owner` is still running (the same process, not a recycled pid). */
export function ownerAlive(owner: { pid: number; start: string | null; host?: string }): boolean {
  if (owner.host !== undefined && owner.host !== HOST) return true; // cannot tell: assume alive
  if (owner.pid === process.pid) return owner.start === null || SELF_START === null || owner.start === SELF_START;
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const stat = procStat(owner.pid);
  if (owner.start !== null) {
    const now = stat?.[19];
    if (now !== undefined && now !== owner.start) return false;
  }
  // A killed writer nobody reaped (a container whose PID 1 does not wait for orphans) stays a
  // zombie: signalable, same start time, but it will never finish its change.
  return !zombieState(stat);
}

/** Whether `pid` has exited and waits to be reaped (state Z or X in /proc; false where there is no /proc). */
export function isZombie(pid: number): boolean {
  return zombieState(procStat(pid));
}

function zombieState(stat: string[] | null): boolean {
  return stat?.[0] === "Z" || stat?.[0] === "X";
}

export function selfOwner(): { pid: number; start: string | null; host: string } {
  return { pid: process.pid, start: SELF_START, host: HOST };
}

let lockDirChecked: string | undefined;

/** The per-user lock directory: created 0700, refused when it is a symlink or someone else's. */
export function lockDir(tool: string): string {
  const dir = process.env.LLMTOOLS_LOCK_DIR || join(tmpdir(), `llmtools-locks-${process.getuid?.() ?? "user"}`);
  if (lockDirChecked === dir) return dir;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) {
    throw changeError(
      tool,
      "file_busy",
      `the lock directory ${dir} is not a private directory of this user (a symlink, someone else's, or writable by others); nothing written`,
      `Remove ${dir} (it only holds lock files) or set LLMTOOLS_LOCK_DIR to a directory only you can write.`,
    );
  }
  lockDirChecked = dir;
  return dir;
}

export function lockKey(realPath: string): string {
  return createHash("sha256").update(realPath).digest("hex").slice(0, 40);
}

function readOwner(path: string): { owner: Owner | null; raw: string; ageMs: number } | null {
  try {
    const raw = readFileSync(path, "utf8");
    const ageMs = Date.now() - statSync(path).mtimeMs;
    try {
      return { owner: JSON.parse(raw) as Owner, raw, ageMs };
    } catch {
      return { owner: null, raw, ageMs };
    }
  } catch {
    return null; // released meanwhile
  }
}

export interface HeldLock {
  path: string;
  token: string;
  file: string;
}

type Attempt = { held: HeldLock; tookOver: boolean } | { busy: Owner | null; tookOver: boolean };

/** One non-blocking attempt; breaks the lock first when its owner is dead. */
function tryLock(dir: string, realPath: string): Attempt {
  const path = join(dir, `${lockKey(realPath)}.lock`);
  const token = randomBytes(12).toString("hex");
  const owner: Owner = { ...selfOwner(), token, file: realPath, time: new Date().toISOString() };
  let tookOver = false;
  for (let round = 0; round < 2; round++) {
    try {
      const fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, JSON.stringify(owner));
      } finally {
        closeSync(fd);
      }
      return { held: { path, token, file: realPath }, tookOver };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const seen = readOwner(path);
    if (seen === null) continue; // released between our open and our read: try again now
    const stale = seen.owner ? !ownerAlive(seen.owner) : seen.ageMs > EMPTY_STALE_MS;
    if (!stale || !breakLock(path, seen.raw)) return { busy: seen.owner, tookOver };
    tookOver = true;
  }
  return { busy: null, tookOver };
}

/** Removes a dead owner's lock, unless someone else replaced it meanwhile. True when removed. */
function breakLock(path: string, staleRaw: string): boolean {
  const breaker = `${path}.break`;
  let fd: number;
  try {
    fd = openSync(breaker, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    try {
      if (Date.now() - statSync(breaker).mtimeMs > BREAKER_STALE_MS) unlinkSync(breaker);
    } catch {
      // gone already
    }
    return false;
  }
  closeSync(fd);
  try {
    const again = readOwner(path);
    if (again === null) return true;
    if (again.raw !== staleRaw) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false;
  } finally {
    try {
      unlinkSync(breaker);
    } catch {
      // nothing to do
    }
  }
}

export function releaseLocks(locks: HeldLock[]): void {
  for (const lock of [...locks].reverse()) {
    const seen = readOwner(lock.path);
    if (seen?.owner?.token !== lock.token) continue; // not ours any more (cannot happen while we live)
    try {
      unlinkSync(lock.path);
    } catch {
      // already gone
    }
  }
}

export interface Acquired {
  locks: HeldLock[];
  /** A dead writer's lock was taken over: its unfinished journal, if any, must be recovered first. */
  tookOver: boolean;
}

function busyError(tool: string, file: string, shown: string, owner: Owner | null, waited: number) {
  const who = owner ? `process ${owner.pid} (since ${owner.time})` : "another process";
  return changeError(
    tool,
    "file_busy",
    `${shown} is being written by ${who}; gave up after ${waited} ms; nothing written`,
    "Retry when the other writer has finished (raise LLMTOOLS_LOCK_TIMEOUT_MS to wait longer). If no writer is running, the lock is taken over automatically once its owner has exited.",
    { file: shown, note: `lock on ${file}` },
  );
}

/**
 * Locks every real path, in sorted order (so that two multi-file writers cannot deadlock),
 * waiting up to `timeoutMs` for each. `shown` maps a real path to the name used in errors.
 */
export async function acquireLocks(tool: string, realPaths: string[], timeoutMs: number, shown: (p: string) => string): Promise<Acquired> {
  return acquire(tool, realPaths, timeoutMs, shown);
}

/** The same, blocking the thread while it waits (recovery runs synchronously). */
export function acquireLocksSync(tool: string, realPaths: string[], timeoutMs: number, shown: (p: string) => string): Acquired {
  const state = newState(tool, realPaths);
  try {
    for (;;) {
      const ms = step(state, timeoutMs, shown);
      if (ms === undefined) return { locks: state.locks, tookOver: state.tookOver };
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    }
  } catch (e) {
    releaseLocks(state.locks);
    throw e;
  }
}

interface AcquireState {
  tool: string;
  dir: string;
  todo: string[];
  locks: HeldLock[];
  tookOver: boolean;
  t0: number;
  delay: number;
}

function newState(tool: string, realPaths: string[]): AcquireState {
  return { tool, dir: lockDir(tool), todo: [...new Set(realPaths)].sort(), locks: [], tookOver: false, t0: Date.now(), delay: 1 };
}

/** Takes every lock it can in order; returns how long to wait before the next try, or undefined when all are held. */
function step(s: AcquireState, timeoutMs: number, shown: (p: string) => string): number | undefined {
  while (s.todo.length > 0) {
    const real = s.todo[0] as string;
    const a = tryLock(s.dir, real);
    if (a.tookOver) s.tookOver = true;
    if ("held" in a) {
      s.locks.push(a.held);
      s.todo.shift();
      s.t0 = Date.now();
      s.delay = 1;
      continue;
    }
    const waited = Date.now() - s.t0;
    if (waited >= timeoutMs) throw busyError(s.tool, real, shown(real), a.busy, waited);
    const ms = Math.min(s.delay + Math.random() * s.delay, timeoutMs - waited);
    s.delay = Math.min(s.delay * 2, 50);
    return ms;
  }
  return undefined;
}

async function acquire(tool: string, realPaths: string[], timeoutMs: number, shown: (p: string) => string): Promise<Acquired> {
  const state = newState(tool, realPaths);
  try {
    for (;;) {
      const ms = step(state, timeoutMs, shown);
      if (ms === undefined) return { locks: state.locks, tookOver: state.tookOver };
      await sleep(ms);
    }
  } catch (e) {
    releaseLocks(state.locks);
    throw e;
  }
}
