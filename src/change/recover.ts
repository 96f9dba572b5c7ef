/**
 * Recovery of changes whose writer died: an operation that had not reached "committing" is rolled
 * back (its temps removed; no file was touched), one that had is rolled forward from its synced
 * temp files. Every file ends wholly before or wholly after, the same way across files.
 */
import { readFileSync, realpathSync, renameSync, rmSync, unlinkSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { checksum } from "../text/checksum.js";
import { changeError } from "./errors.js";
import { backupDir, readEntry, unfinishedEntries, writeEntry, type JournalEntry, type JournalFile } from "./journal.js";
import { DEFAULT_LOCK_TIMEOUT_MS, acquireLocksSync, ownerAlive, releaseLocks } from "./lock.js";
import { VerifiedDir } from "./paths.js";

const RECOVERY_TOOL = "splice";

function toPosix(p: string): string {
  return sep === "/" ? p : p.split(sep).join("/");
}

function fileChecksum(path: string): string | null {
  try {
    return checksum(readFileSync(path));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/**
 * Finishes or rolls back every unfinished operation whose writer is dead, so that each of its
 * files is wholly before or wholly after, consistently across files: an operation that had not
 * reached "committing" is rolled back (temps removed; no file was touched), one that had is
 * rolled forward from its synced temp files.
 */
export function recoverChanges(root: string, tool: string = RECOVERY_TOOL): { recovered: string[] } {
  const { recovered, failures } = recover(root, tool);
  if (failures.length > 0) throw recoveryError(tool, failures);
  return { recovered };
}

export interface RecoveryFailure {
  operationId: string;
  /** Absolute real paths of the operation's files. */
  files: string[];
  message: string;
}

/**
 * Refuses a change (E013) when one of its files (absolute real paths) belongs to an interrupted
 * operation that could not be completed; a change of other files goes on.
 */
export function refuseIfShared(tool: string, failures: RecoveryFailure[], files: Iterable<string>): void {
  const ours = new Set(files);
  const blocking = failures.filter((f) => f.files.some((p) => ours.has(p)));
  if (blocking.length > 0) throw recoveryError(tool, blocking);
}

export function recoveryError(tool: string, failures: RecoveryFailure[]) {
  return changeError(
    tool,
    "journal_recovery",
    `an interrupted change could not be completed: ${failures.map((f) => `${f.operationId}: ${f.message}`).join(" | ")}`,
    "Another program changed these files after the interruption. Inspect them (the new bytes are in the temp files named in .splice/journal/), fix them by hand, then continue; the operation is marked recovery_failed and is not retried.",
  );
}

export function recover(root: string, tool: string): { recovered: string[]; failures: RecoveryFailure[] } {
  const recovered: string[] = [];
  const failures: RecoveryFailure[] = [];
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return { recovered, failures };
  }
  for (const entry of unfinishedEntries(realRoot)) {
    if (ownerAlive(entry.owner)) continue;
    const reals = entry.files.map((f) => join(realRoot, f.real));
    const got = acquireLocksSync(tool, reals, DEFAULT_LOCK_TIMEOUT_MS, (p) => toPosix(relative(realRoot, p)));
    try {
      // Re-read under the locks: another process may have recovered it meanwhile.
      const fresh = readEntry(realRoot, entry.operation_id);
      if (!fresh || (fresh.status !== "preparing" && fresh.status !== "committing")) continue;
      let problems: string[];
      try {
        problems = fresh.status === "preparing" ? rollBackEntry(realRoot, fresh, tool) : rollForwardEntry(realRoot, fresh, tool);
      } catch (e) {
        // A directory of the operation moved or vanished since: say so once, never wedge every later commit.
        problems = [(e as Error).message];
      }
      if (problems.length === 0) {
        fresh.note = `recovered by pid ${process.pid}: ${fresh.status === "preparing" ? "rolled back (no file had been written)" : "rolled forward (every file now has its new bytes)"}`;
        fresh.status = fresh.status === "preparing" ? "rolled_back" : "done";
        recovered.push(fresh.operation_id);
      } else {
        fresh.status = "recovery_failed";
        fresh.note = problems.join("; ");
        failures.push({ operationId: fresh.operation_id, files: reals, message: fresh.note });
      }
      writeEntry(realRoot, fresh);
    } finally {
      releaseLocks(got.locks);
    }
  }
  return { recovered, failures };
}

function dirOf(root: string, f: JournalFile, tool: string): VerifiedDir {
  const dir = VerifiedDir.open(tool, root, f.real, false);
  if (dir.real !== dirname(join(root, f.real))) {
    dir.close();
    throw new Error(`the directory of ${f.path} is no longer where the change wrote it`);
  }
  return dir;
}

function rollBackEntry(root: string, entry: JournalEntry, tool: string): string[] {
  for (const f of entry.files) {
    if (!f.temp) continue;
    try {
      const dir = dirOf(root, f, tool);
      try {
        unlinkSync(dir.at(f.temp));
      } catch {
        // never written
      }
      dir.close();
    } catch {
      // directory gone: nothing of ours left there
    }
  }
  rmSync(backupDir(root, entry.operation_id), { recursive: true, force: true });
  return [];
}

function rollForwardEntry(root: string, entry: JournalEntry, tool: string): string[] {
  const problems: string[] = [];
  const plan: { f: JournalFile; dir: VerifiedDir; action: "rename" | "unlink" | "none" }[] = [];
  try {
    // Decide every file before touching any, so a conflict leaves the whole operation as it is.
    for (const f of entry.files) {
      const dir = dirOf(root, f, tool);
      const name = basename(f.real);
      plan.push({ f, dir, action: "none" });
      const cur = fileChecksum(dir.at(name));
      if (cur === f.after_checksum) {
        if (f.temp) {
          try {
            unlinkSync(dir.at(f.temp));
          } catch {
            // renamed already
          }
        }
        continue;
      }
      if (cur !== f.before_checksum) {
        problems.push(`${f.path} is neither its before nor its after version`);
        continue;
      }
      if (f.after_checksum === null) {
        (plan[plan.length - 1] as (typeof plan)[number]).action = "unlink";
        continue;
      }
      const temp = f.temp ? fileChecksum(dir.at(f.temp)) : null;
      if (temp !== f.after_checksum) {
        problems.push(`${f.path}: its new bytes (temp ${f.temp}) are missing or damaged`);
        continue;
      }
      (plan[plan.length - 1] as (typeof plan)[number]).action = "rename";
    }
    if (problems.length > 0) return problems;
    for (const p of plan) {
      const name = basename(p.f.real);
      if (p.action === "rename") renameSync(p.dir.at(p.f.temp as string), p.dir.at(name));
      else if (p.action === "unlink") unlinkSync(p.dir.at(name));
    }
    for (const p of plan) p.dir.sync();
    return problems;
  } finally {
    for (const p of plan) p.dir.close();
  }
}
