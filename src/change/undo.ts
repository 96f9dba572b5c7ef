/** The journal as history: `splice log` (listOperations) and `splice undo` (undoOperation). */
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { EXIT } from "../contract/errors.js";
import { checksum } from "../text/checksum.js";
import { commitChange } from "./commit.js";
import { changeError } from "./errors.js";
import { backupDir, readEntries, readEntry, writeEntry, type JournalEntry } from "./journal.js";
import { recoverChanges } from "./recover.js";
import type { ChangeCommit, CommitOptions, OperationInfo, PlannedFile } from "./types.js";

function info(e: JournalEntry): OperationInfo {
  return { operation_id: e.operation_id, time: e.time, tool: e.tool, command: e.command, files: e.files.map((f) => f.path), status: e.status };
}

/** Every journaled operation of the workspace, newest first (`splice log`). */
export function listOperations(root: string): OperationInfo[] {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return [];
  }
  return readEntries(realRoot).reverse().map(info);
}

/**
 * Restores every file of an operation from its backups, as a new operation (itself undoable).
 * Refuses, naming the files, when one changed since the operation wrote it.
 */
export async function undoOperation(root: string, sel: { operationId?: string; last?: boolean }, tool: string, opts: CommitOptions = {}): Promise<ChangeCommit> {
  const realRoot = realpathSync(root);
  recoverChanges(realRoot, tool);
  const entries = readEntries(realRoot);
  let entry: JournalEntry | undefined;
  if (sel.operationId !== undefined) {
    entry = entries.find((e) => e.operation_id === sel.operationId);
    if (!entry) {
      throw changeError(tool, "operation_not_found", `no operation ${sel.operationId} in ${join(realRoot, ".splice", "journal")}`, "List the operations with `splice log` and pass one of their ids.", { exitCode: EXIT.usage });
    }
  } else {
    // The newest change that is not itself an undo: repeated --last walks back through history.
    entry = [...entries].reverse().find((e) => e.status === "done" && e.backup && e.undo_of === undefined);
    if (!entry) {
      // What is left is undos: --last does not undo an undo (it would only toggle the newest
      // change), but one can be redone by its id; saying "no operation" hid that.
      const redo = [...entries].reverse().find((e) => e.status === "done" && e.backup && e.undo_of !== undefined);
      if (redo) {
        throw changeError(tool, "operation_not_found", `every change in this workspace's journal is undone; --last does not undo an undo (the newest, ${redo.operation_id}, undid ${redo.undo_of})`, `To redo that change, run \`splice undo --operation-id ${redo.operation_id}\`; \`splice log\` lists the rest.`, { exitCode: EXIT.usage });
      }
      throw changeError(tool, "operation_not_found", "no operation to undo in this workspace", "Only changes made with backups (splice) can be undone; `splice log` lists them.", { exitCode: EXIT.usage });
    }
  }
  if (entry.status !== "done") {
    throw changeError(tool, "undo_refused", `operation ${entry.operation_id} is ${entry.status}${entry.undone_by ? ` (by ${entry.undone_by})` : ""}, not done; nothing to undo`, "Undo an operation whose status is done (`splice log`).");
  }
  if (!entry.backup) {
    throw changeError(tool, "undo_refused", `operation ${entry.operation_id} (${entry.tool}) kept no backups`, "Only changes made with backups (splice) can be undone; restore the files from version control instead.");
  }
  const dir = backupDir(realRoot, entry.operation_id);
  const files: PlannedFile[] = [];
  const changed: string[] = [];
  for (const f of entry.files) {
    const abs = join(realRoot, f.real);
    let current: Buffer | null;
    try {
      current = readFileSync(abs);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      current = null;
    }
    if ((current === null ? null : checksum(current)) !== f.after_checksum) {
      changed.push(f.path);
      continue;
    }
    let before: Buffer | null = null;
    if (f.before_checksum !== null) {
      try {
        before = readFileSync(join(dir, f.backup ?? "-"));
      } catch {
        throw changeError(tool, "undo_refused", `the backup of ${f.path} in operation ${entry.operation_id} is missing`, `Restore ${f.path} from version control; ${dir} is incomplete.`, { file: f.path });
      }
      if (checksum(before) !== f.before_checksum) throw changeError(tool, "undo_refused", `the backup of ${f.path} in operation ${entry.operation_id} is damaged (checksum differs)`, `Restore ${f.path} from version control.`, { file: f.path });
    }
    const planned: PlannedFile = { path: f.real, before: current, after: before };
    if (f.mode !== undefined) planned.mode = f.mode;
    files.push(planned);
  }
  if (changed.length > 0) {
    throw changeError(
      tool,
      "undo_refused",
      `cannot undo ${entry.operation_id}: ${changed.join(", ")} changed since the operation wrote ${changed.length === 1 ? "it" : "them"}; nothing restored`,
      "Undo the later operations first (`splice log`), or restore these files by hand.",
      { file: changed[0], note: `changed since: ${changed.join(", ")}` },
    );
  }
  const commit = await commitChange({ root: realRoot, tool, command: `undo ${entry.operation_id}`, files, backup: true }, { ...opts, undoOf: entry.operation_id });
  const fresh = readEntry(realRoot, entry.operation_id);
  if (fresh) {
    fresh.status = "undone";
    fresh.undone_by = commit.operation_id;
    writeEntry(realRoot, fresh);
  }
  return { operation_id: commit.operation_id, files: commit.files };
}
