/**
 * The seam between splice and the three pieces built beside it: the change pipeline
 * (src/change/), whole-change validation (src/validate/change.ts) and the rename engines
 * (./rename/). The shapes are those of docs/interfaces; until each piece lands, the stand-in
 * here does the real work in the simplest honest way (per-file validation with the project's
 * checkers, backups + atomic writes), and is replaced by a re-export when it lands.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomUUID } from "node:crypto";
import { ToolError } from "../../contract/errors.js";
import type { Diagnostic } from "../../contract/schema.js";
import type { LanguageId } from "../../lang/registry.js";
import { atomicWriteFileSync } from "../../text/atomic.js";
import { checksum } from "../../text/checksum.js";
import { validateContent } from "../../validate/index.js";
import { ValidationSession } from "../../validate/session.js";
import type { ValidationDiagnostic } from "../../validate/types.js";
import { CODES, TOOL } from "./codes.js";

export interface PlannedFile { path: string; before: Uint8Array | null; after: Uint8Array | null; mode?: number }
export interface ChangeRequest { root: string; tool: string; command: string; files: PlannedFile[]; backup?: boolean; operationId?: string }
export interface CommittedFile { path: string; before_checksum: string | null; after_checksum: string | null }
export interface ChangeCommit { operation_id: string; files: CommittedFile[] }
export interface OperationRecord { operation_id: string; time: string; tool: string; command: string; files: string[]; status: string }

export interface ChangeFileInput { path: string; language: LanguageId | null; before: Uint8Array | null; after: Uint8Array | null }
export interface ChangeValidationRequest { root: string; files: ChangeFileInput[]; timeoutMs?: number; requireChecker?: boolean; session?: ValidationSession }
export interface CheckerRun { language: LanguageId; checker: string; version?: string; status: "ran" | "absent" | "failed" | "timeout"; reason?: string }
export interface ChangeValidationReport {
  validation: "validated" | "unchecked" | "rejected";
  checkers: CheckerRun[];
  introduced: ValidationDiagnostic[];
  pre_existing_count: number;
  warnings: ValidationDiagnostic[];
}

export interface RenameTarget { file: string; language: LanguageId; name: string; byte_start: number; byte_end: number; symbol_id?: string }
export interface RenameRequest { root: string; target: RenameTarget; newName: string; allowHeuristic?: boolean; overlays?: Map<string, Uint8Array> }
export type Evidence = "language_server" | "exact" | "imported" | "heuristic";
export interface RenameLocation { file: string; byte_start: number; byte_end: number; old_text: string; new_text: string; evidence: Evidence }
export interface RenamePlan { engine: string; engine_version?: string; locations: RenameLocation[]; diagnostics: Diagnostic[] }

// ---- stand-ins until src/validate/change.ts, src/change/ and ./rename/ land ----

export async function validateChange(req: ChangeValidationRequest): Promise<ChangeValidationReport> {
  const session = req.session ?? new ValidationSession();
  const report: ChangeValidationReport = { validation: "validated", checkers: [], introduced: [], pre_existing_count: 0, warnings: [] };
  try {
    for (const f of req.files) {
      if (f.language === null || f.after === null) continue;
      const r = await validateContent(
        { root: req.root, relPath: f.path, language: f.language, content: f.after, previousContent: f.before ?? undefined, timeoutMs: req.timeoutMs ?? 60_000 },
        session,
      );
      const checker = r.checkers_run.find((c) => c !== "tree-sitter");
      report.checkers.push(checker ? { language: f.language, checker, status: "ran" } : { language: f.language, checker: "none", status: "absent", reason: "no project checker ran" });
      for (const d of r.diagnostics) {
        if (d.pre_existing) report.pre_existing_count++;
        else if (d.level === "error" || d.level === "warning") report.introduced.push(d);
      }
    }
  } finally {
    if (!req.session) session.dispose();
  }
  if (report.introduced.some((d) => d.level === "error")) report.validation = "rejected";
  else if (report.checkers.some((c) => c.status !== "ran")) report.validation = req.requireChecker ? "rejected" : "unchecked";
  return report;
}

const stateDir = (root: string): string => join(root, ".splice");
const logPath = (root: string): string => join(stateDir(root), "operations.jsonl");

function ensureState(root: string): void {
  if (!existsSync(stateDir(root))) {
    mkdirSync(stateDir(root), { recursive: true });
    writeFileSync(join(stateDir(root), ".gitignore"), "*\n");
  }
}

function changedOnDisk(path: string): ToolError {
  return new ToolError({
    code: CODES.checksum_mismatch,
    error: "changed_on_disk",
    message: `${path} changed on disk since the change was planned; nothing was written`,
    file: path,
    remediation: "Run the command again: it plans against the file as it is now.",
  });
}

function readOrNull(abs: string): Uint8Array | null {
  return existsSync(abs) ? readFileSync(abs) : null;
}

const same = (a: Uint8Array | null, b: Uint8Array | null): boolean => (a === null || b === null ? a === b : Buffer.from(a).equals(Buffer.from(b)));

export async function commitChange(req: ChangeRequest): Promise<ChangeCommit> {
  const id = req.operationId ?? randomUUID();
  for (const f of req.files) if (!same(readOrNull(join(req.root, f.path)), f.before)) throw changedOnDisk(f.path);
  ensureState(req.root);
  const backups = join(stateDir(req.root), "backups", id);
  mkdirSync(backups, { recursive: true });
  const files: CommittedFile[] = req.files.map((f) => ({ path: f.path, before_checksum: f.before ? checksum(f.before) : null, after_checksum: f.after ? checksum(f.after) : null }));
  req.files.forEach((f, i) => f.before && writeFileSync(join(backups, String(i)), f.before));
  writeFileSync(join(backups, "manifest.json"), JSON.stringify({ operation_id: id, files }));
  for (const f of req.files) {
    if (f.after === null) continue;
    mkdirSync(dirname(join(req.root, f.path)), { recursive: true });
    atomicWriteFileSync(join(req.root, f.path), f.after, { mode: f.mode });
  }
  const rec: OperationRecord = { operation_id: id, time: new Date().toISOString(), tool: req.tool, command: req.command, files: req.files.map((f) => f.path), status: "done" };
  appendFileSync(logPath(req.root), `${JSON.stringify(rec)}\n`);
  return { operation_id: id, files };
}

export function listOperations(root: string): OperationRecord[] {
  if (!existsSync(logPath(root))) return [];
  const byId = new Map<string, OperationRecord>();
  for (const line of readFileSync(logPath(root), "utf8").split("\n")) if (line.trim()) {
    const r = JSON.parse(line) as OperationRecord;
    byId.set(r.operation_id, r);
  }
  return [...byId.values()];
}

export async function undoOperation(root: string, sel: { operationId?: string; last?: boolean }, tool: string): Promise<ChangeCommit> {
  const ops = listOperations(root).filter((o) => o.status === "done" && o.tool === tool);
  const op = sel.operationId ? ops.find((o) => o.operation_id === sel.operationId) : ops[ops.length - 1];
  if (!op) throw new ToolError({ code: CODES.invalid_request, error: "no_operation", message: sel.operationId ? `no operation ${sel.operationId} to undo` : "no operation to undo", remediation: "Run 'splice log' for the operations that can be undone." });
  const dir = join(stateDir(root), "backups", op.operation_id);
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { files: CommittedFile[] };
  const changed = manifest.files.filter((f) => {
    const now = readOrNull(join(root, f.path));
    return (now ? checksum(now) : null) !== f.after_checksum;
  });
  if (changed.length > 0) {
    throw new ToolError({ code: CODES.checksum_mismatch, error: "changed_since", message: `cannot undo ${op.operation_id}: ${changed.map((f) => f.path).join(", ")} changed since`, remediation: "Undo by hand or restore those files first; nothing was written." });
  }
  const files = manifest.files.map((f, i) => ({ path: f.path, before: readOrNull(join(root, f.path)), after: f.before_checksum ? readFileSync(join(dir, String(i))) : null }));
  const c = await commitChange({ root, tool, command: `undo ${op.operation_id}`, files, backup: true });
  appendFileSync(logPath(root), `${JSON.stringify({ ...op, status: "undone" })}\n`);
  return c;
}

export function recoverChanges(root: string): { recovered: string[] } {
  void root;
  return { recovered: [] };
}

export function assertWritablePath(root: string, rel: string, tool: string): string {
  if (rel.split("/").some((s) => s === ".git" || s === ".splice" || s === ".magellan")) {
    throw new ToolError({ code: `${tool.toUpperCase()}_E001`, error: "path_refused", message: `${rel}: inside a tool state directory`, remediation: "Name a source file." });
  }
  return rel;
}

export async function planRename(req: RenameRequest): Promise<RenamePlan> {
  throw new ToolError({
    code: CODES.rename_unavailable,
    error: "rename_unavailable",
    message: `no rename engine for ${req.target.language} in this build`,
    remediation: "Use 'splice edit' or 'splice apply-files' for this rename.",
  });
}
export { TOOL };
