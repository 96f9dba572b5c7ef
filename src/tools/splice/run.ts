/**
 * splice as request -> outcome functions: plan every step in memory (ops.ts), validate the whole
 * change once with the project's checkers, then write every file or none through the change
 * pipeline, and bring magellan's index up to date for the files written. The CLI and the MCP
 * server call these; nothing here touches argv, stdout or exit codes.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch, diffLines } from "diff";
import { commonCode } from "../../contract/codes.js";
import { EXIT, type ExitCode, ToolError } from "../../contract/errors.js";
import type { Diagnostic } from "../../contract/schema.js";
import type { MutationRequest, Step } from "../../contract/tools/splice.js";
import { ExtractionBudgetError } from "../../lang/budget.js";
import { HEADER_SNIFF_BYTES, type LanguageId, languageForPath, refineLanguage } from "../../lang/registry.js";
import { LineIndex } from "../../text/lines.js";
import { findWorkspaceRoot } from "../../text/root.js";
import { makeSpan } from "../../text/span.js";
import { checksum } from "../../text/checksum.js";
import { CODES, TOOL } from "./codes.js";
import { applyFiles, del, edit, insert, patch, rename, type StepReport } from "./ops.js";
import { commitChange, CONFIG_NOT_APPLIED, listOperations, MISSING_DEPENDENCY, NOT_COMPILED, recover, recoverChanges, refuseIfShared, undoOperation, validateChange, type PlannedFile } from "./seam.js";
import { budgetError, Workspace } from "./workspace.js";

export interface SpliceOutcome {
  operationType: string;
  status: "ok" | "error";
  message: string;
  exitCode: ExitCode;
  workspace?: string;
  result?: Record<string, unknown>;
  error?: Diagnostic;
  diagnostics: Diagnostic[];
}

export interface RunOptions {
  cwd?: string;
  /** What the operation log records as the command (the CLI passes its argv). */
  commandLine?: string;
}

const MUTATION_KEYS = new Set(["root", "dry_run", "expected_checksum", "require_checker", "timeout_ms"]);

function stepOf(req: MutationRequest): Step {
  return Object.fromEntries(Object.entries(req).filter(([k]) => !MUTATION_KEYS.has(k))) as Step;
}

async function runStep(ws: Workspace, step: Step): Promise<StepReport> {
  switch (step.command) {
    case "patch":
      return patch(ws, step);
    case "insert":
      return insert(ws, step);
    case "delete":
      return del(ws, step);
    case "edit":
      return edit(ws, step);
    case "apply-files":
      return applyFiles(ws, step);
    case "rename":
      return await rename(ws, step);
  }
}

function stepCheck(step: Step, i: number | undefined): void {
  const where = i === undefined ? "" : `step ${i + 1}: `;
  const bad = (message: string, remediation: string): never => {
    throw new ToolError({ code: i === undefined ? CODES.usage : CODES.invalid_plan, error: "invalid_arguments", message: where + message, remediation, exitCode: EXIT.usage });
  };
  if (step.command === "insert" && (step.before_symbol === undefined) === (step.after_symbol === undefined)) bad("insert needs exactly one of --before-symbol / --after-symbol", "Name the sibling the new definition goes before or after.");
  if ((step.command === "patch" || step.command === "delete") && step.symbol === undefined && step.symbol_id === undefined) bad(`${step.command} needs --symbol or --symbol-id`, "Name the symbol (with --file) or give its id from 'magellan find'.");
  if ((step.command === "patch" || step.command === "delete" || step.command === "insert") && step.file === undefined && step.symbol_id === undefined) bad(`${step.command} needs --file (or --symbol-id)`, "Give the file that holds the symbol.");
  if (step.command === "rename" && step.symbol === undefined && step.symbol_id === undefined) bad("rename needs --symbol (with --file) or --symbol-id", "Name the symbol to rename.");
}

/**
 * What to do about a change the checker rejected, by what made it. "Fix the new text" answered a
 * rename too, which has no text of the agent's: its errors are uses or implementations the
 * engine left on the old name (gopls renamed Go's `Shape.Area` and its calls, not `Sq.Area`,
 * which implements it only structurally), and a delete's are the uses that still name the symbol.
 */
function rejectedRemediation(commands: string[]): string {
  const only = (c: string): boolean => commands.every((x) => x === c);
  if (only("rename")) {
    return "The rename left code that no longer compiles (result.introduced; result.diff shows what was renamed): a use or an implementation the engine did not rename still has the old name, or the new name clashes where it landed. Rename those with it in one change (splice batch: a rename step for each implementing method, or edit steps for the uses), or choose another name; then run again.";
  }
  if (only("delete")) return "Code still uses what the delete removes (result.introduced): change or remove those uses in the same change (splice batch), then run again.";
  if (!commands.some((c) => c === "rename" || c === "delete")) return "Fix the new text so the checker accepts it (see result.introduced), then run the command again.";
  return "Fix the step whose change the checker rejects (result.introduced and result.diff show where): the new text, or the uses and implementations a rename or delete left behind; then run the command again.";
}

/**
 * The files whose index entries the steps read, when that is all of them: patch, insert and edit
 * in named files look only there. Anything that reads the whole graph (a symbol id or a name
 * without a file, the references a delete reports, rename, apply-files) refreshes the whole tree.
 */
function involved(steps: Step[], ws: Workspace): string[] | undefined {
  const files: string[] = [];
  for (const s of steps) {
    if ((s.command === "patch" || s.command === "insert" || s.command === "edit") && s.file !== undefined && s.symbol_id === undefined) files.push(ws.rel(s.file));
    else return undefined;
  }
  return files;
}

/** Changed spans on the new bytes and line counts, from a line diff of before and after. */
function fileReport(f: PlannedFile): Record<string, unknown> {
  const before = f.before ? Buffer.from(f.before).toString("utf8") : "";
  const after = f.after ? Buffer.from(f.after).toString("utf8") : "";
  const lines = new LineIndex(f.after ?? new Uint8Array());
  let added = 0;
  let removed = 0;
  let at = 0;
  const spans: ReturnType<typeof makeSpan>[] = [];
  let open: [number, number] | undefined;
  const close = (): void => {
    if (open) spans.push(makeSpan(f.path, open[0], open[1], lines));
    open = undefined;
  };
  for (const part of diffLines(before, after)) {
    const bytes = Buffer.byteLength(part.value, "utf8");
    if (part.added) {
      added += part.count ?? 0;
      open = open ? [open[0], at + bytes] : [at, at + bytes];
      at += bytes;
    } else if (part.removed) {
      removed += part.count ?? 0;
      open ??= [at, at];
    } else {
      close();
      at += bytes;
    }
  }
  close();
  return {
    file_path: f.path,
    before_checksum: f.before ? checksum(f.before) : null,
    after_checksum: f.after ? checksum(f.after) : null,
    lines_added: added,
    lines_removed: removed,
    changed_spans: spans,
  };
}

function unifiedDiff(files: PlannedFile[]): string {
  return files
    .map((f) => createTwoFilesPatch(f.before ? `a/${f.path}` : "/dev/null", f.after ? `b/${f.path}` : "/dev/null", f.before ? Buffer.from(f.before).toString("utf8") : "", f.after ? Buffer.from(f.after).toString("utf8") : ""))
    .join("");
}

function describe(req: MutationRequest): string {
  if (req.command === "batch") return `batch (${req.steps.length} steps)`;
  const s = stepOf(req) as Record<string, unknown>;
  return Object.entries(s)
    .filter(([k, v]) => k !== "command" && k !== "content" && v !== undefined && v !== false)
    .reduce<string>((acc, [k, v]) => `${acc} --${k.replace(/_/g, "-")}${v === true ? "" : ` ${JSON.stringify(v)}`}`, req.command);
}

/** A ToolError as the outcome the adapters print (status error, nothing written). */
export function failed(op: string, e: unknown, workspace?: string): SpliceOutcome {
  if (e instanceof ExtractionBudgetError) e = budgetError(e);
  if (!(e instanceof ToolError)) throw e;
  return { operationType: op, status: "error", message: e.message, exitCode: e.exitCode, workspace, error: e.toDiagnostic(TOOL), diagnostics: [] };
}

export async function runMutation(req: MutationRequest, options: RunOptions = {}): Promise<SpliceOutcome> {
  try {
    return await mutate(req, options);
  } catch (e) {
    return failed(req.command, e);
  }
}

async function mutate(req: MutationRequest, options: RunOptions): Promise<SpliceOutcome> {
  const op = req.command;
  const started = performance.now();
  const root = findWorkspaceRoot(TOOL, req.root, options.cwd);
  const diagnostics: Diagnostic[] = [];
  // An interrupted operation that cannot be completed stops this one only if they share a file
  // (docs/change-pipeline.md): it is reported here once, and marked.
  const { recovered, failures } = recover(root, TOOL);
  if (recovered.length > 0) diagnostics.push({ tool: TOOL, level: "warning", code: CODES.io_error, message: `recovered an interrupted operation first: ${recovered.join(", ")}` });
  const steps = req.command === "batch" ? req.steps : [stepOf(req)];
  steps.forEach((s, i) => stepCheck(s, req.command === "batch" ? i : undefined));
  const t0 = performance.now();
  const ws = new Workspace(root, options.cwd);
  // process_start_to_request: what the process spent before this function (start-up, argv).
  const timing: Record<string, number> = { process_start_to_request: started, recover: t0 - started };
  try {
    ws.expect(req.expected_checksum ?? []);
    await ws.refreshIndex(involved(steps, ws));
    timing.index = performance.now() - t0;
    const reports: StepReport[] = [];
    for (const [i, step] of steps.entries()) {
      try {
        reports.push({ command: step.command, ...(await runStep(ws, step)) });
      } catch (e) {
        if (e instanceof ToolError && req.command === "batch") {
          throw new ToolError({ code: e.code, error: e.error, message: `step ${i + 1} (${step.command}): ${e.message}; the batch wrote nothing`, file: e.file, note: e.note, remediation: e.remediation, exitCode: e.exitCode });
        }
        throw e;
      }
    }
    ws.checkExpected();
    // An engine's warnings (a use it left unchanged, files it could not reach) are the run's:
    // an agent reads the envelope's diagnostics, not every step's engine_diagnostics.
    for (const r of reports) {
      for (const d of [...((r.engine_diagnostics as Diagnostic[] | undefined) ?? []), ...((r.diagnostics as Diagnostic[] | undefined) ?? [])]) if (d.level !== "note") diagnostics.push(d);
    }
    const planned = ws.changed();
    if (failures.length > 0) {
      const realRoot = realpathSync(root);
      refuseIfShared(TOOL, failures, planned.map((f) => join(realRoot, f.path)));
      for (const f of failures) diagnostics.push({ tool: TOOL, level: "warning", code: commonCode(TOOL, "journal_recovery"), message: `an interrupted operation (${f.operationId}) could not be completed: ${f.message}; its files are left as they are, and this change does not touch them` });
    }
    timing.plan = performance.now() - t0;
    const base = { type: op, dry_run: req.dry_run === true, steps: reports };
    if (planned.length === 0) {
      return { operationType: op, status: "ok", message: nothingToChange(reports), exitCode: EXIT.ok, workspace: root, diagnostics, result: { ...base, written: false, validation: "not_needed", files: [], checkers: [], introduced: [], pre_existing_count: 0, duration_ms: timing } };
    }
    const tv = performance.now();
    // Milliseconds since the process started (performance's time origin) when the checker starts:
    // for a CLI run, the whole wall time of everything but validation and the write.
    timing.process_before_checker = tv;
    // The same in CPU time (user + system): what the wall time would be on an idle machine.
    const cpu = process.cpuUsage();
    timing.process_cpu_before_checker = (cpu.user + cpu.system) / 1000;
    const report = await validateChange({
      root,
      // (A `.h` is C++ when its code says so: spdlog's fmt_helper.h went to gcc as C, stopped at
      // <chrono>, and a rename that left 29 uses behind was written as unchecked.)
      files: planned.map((f) => ({ path: f.path, language: languageOfBytes(f.path, f.after ?? f.before), before: f.before, after: f.after })),
      requireChecker: req.require_checker,
      timeoutMs: req.timeout_ms,
      // A checker's message that named the old name names the new one after a rename.
      renames: reports.flatMap((r) => (r.command === "rename" && typeof r.to === "string" ? [{ from: (r.symbol as { name: string }).name, to: r.to }] : [])),
    });
    timing.validate = performance.now() - tv;
    const files = planned.map(fileReport);
    const result: Record<string, unknown> = {
      ...base,
      written: false,
      validation: report.validation,
      files,
      checkers: report.checkers,
      introduced: report.introduced,
      pre_existing_count: report.pre_existing_count,
      duration_ms: timing,
    };
    for (const w of report.warnings) diagnostics.push({ tool: TOOL, level: "warning", code: CODES.checker_required, message: `${w.file}: ${w.message}` });
    if (req.dry_run || report.validation === "rejected") result.diff = unifiedDiff(planned);
    if (report.validation === "rejected") {
      const errors = report.introduced.filter((d) => d.level === "error");
      const missing = [
        ...report.checkers.filter((c) => c.status !== "ran").map((c) => `${c.language} (${c.reason ?? c.status})`),
        ...report.warnings.filter((w) => w.code === NOT_COMPILED).map((w) => `${w.file} (not compiled)`),
        ...[...new Set(report.warnings.filter((w) => w.code === CONFIG_NOT_APPLIED).map((w) => w.file))].map((f) => `${f} (options not all applied)`),
        ...report.warnings.filter((w) => w.code === MISSING_DEPENDENCY).map((w) => `${w.file} (a declared dependency is not installed)`),
      ];
      const err = errors.length > 0
        ? new ToolError({ code: CODES.validation_rejected, error: "validation_rejected", message: `the change introduces ${errors.length} error(s); nothing was written: ${errors.slice(0, 5).map((d) => `${d.file}:${d.start_line ?? "?"}: ${d.message}`).join("; ")}`, remediation: rejectedRemediation(steps.map((st) => st.command)) })
        : new ToolError({ code: CODES.checker_required, error: "checker_required", message: `--require-checker: no checker ran for ${missing.join(", ")}; nothing was written`, remediation: "Install the language's checker, or drop --require-checker to accept an unchecked change." });
      return { operationType: op, status: "error", message: err.message, exitCode: EXIT.failure, workspace: root, result, error: err.toDiagnostic(TOOL), diagnostics };
    }
    if (req.dry_run) {
      return { operationType: op, status: "ok", message: `dry run: ${planned.length} file(s) would change (${report.validation}); nothing was written`, exitCode: EXIT.ok, workspace: root, result, diagnostics };
    }
    const tc = performance.now();
    ws.closeDb();
    const commit = await commitChange({ root, tool: TOOL, command: options.commandLine ?? describe(req), files: planned, backup: true });
    timing.commit = performance.now() - tc;
    const ti = performance.now();
    await ws.refreshIndex(planned.map((f) => f.path));
    timing.index_after = performance.now() - ti;
    result.operation_id = commit.operation_id;
    result.written = true;
    return { operationType: op, status: "ok", message: `${planned.length} file(s) changed (${report.validation}); undo with 'splice undo --operation-id ${commit.operation_id}'`, exitCode: EXIT.ok, workspace: root, result, diagnostics };
  } finally {
    ws.closeDb();
  }
}

/** Why a run planned no change: a search that replaced nothing is not text already in place. */
function nothingToChange(reports: StepReport[]): string {
  const searches = reports.filter((r) => r.command === "apply-files");
  if (searches.length > 0 && searches.length === reports.length) {
    const searched = searches.reduce((n, r) => n + Number(r.files_searched ?? 0), 0);
    const skipped = searches.reduce((n, r) => n + ((r.skipped as unknown[] | undefined)?.length ?? 0), 0);
    return `nothing to change: --find matched no code in the ${searched} file(s) searched (matches in comments, strings and regex literals are left alone unless --include-comments-strings)${skipped > 0 ? `; ${skipped} file(s) skipped, see steps` : ""}`;
  }
  return "nothing to change: the files already hold this text";
}

export async function runUndo(req: { root?: string; operation_id?: string; last?: boolean }, options: RunOptions = {}): Promise<SpliceOutcome> {
  const root = findWorkspaceRoot(TOOL, req.root, options.cwd);
  recoverChanges(root);
  const c = await undoOperation(root, { operationId: req.operation_id, last: req.last ?? req.operation_id === undefined }, TOOL);
  const ws = new Workspace(root, options.cwd);
  try {
    await ws.refreshIndex();
  } finally {
    ws.closeDb();
  }
  return { operationType: "undo", status: "ok", message: `restored ${c.files.length} file(s)`, exitCode: EXIT.ok, workspace: root, result: { type: "undo", operation_id: c.operation_id, files: c.files.map((f) => ({ file_path: f.path, before_checksum: f.before_checksum, after_checksum: f.after_checksum })) }, diagnostics: [] };
}

export function runLog(req: { root?: string; limit?: number }, options: RunOptions = {}): SpliceOutcome {
  const root = findWorkspaceRoot(TOOL, req.root, options.cwd);
  const ops = listOperations(root);
  const shown = req.limit ? ops.slice(0, req.limit) : ops; // newest first
  return { operationType: "log", status: "ok", message: `${shown.length} operation(s)`, exitCode: EXIT.ok, workspace: root, result: { type: "log", operations: shown }, diagnostics: [] };
}

export function runRecover(req: { root?: string }, options: RunOptions = {}): SpliceOutcome {
  const root = findWorkspaceRoot(TOOL, req.root, options.cwd);
  const r = recoverChanges(root);
  return { operationType: "recover", status: "ok", message: r.recovered.length ? `recovered ${r.recovered.join(", ")}` : "nothing to recover", exitCode: EXIT.ok, workspace: root, result: { type: "recover", recovered: r.recovered }, diagnostics: [] };
}

/** A file's language by extension, settled by its bytes where the extension is shared (`.h`). */
function languageOfBytes(path: string, bytes: Uint8Array | null | undefined): LanguageId | null {
  const id = languageForPath(path)?.id;
  if (!id) return null;
  return bytes ? refineLanguage(id, path, Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEADER_SNIFF_BYTES)).toString("utf8")) : id;
}
