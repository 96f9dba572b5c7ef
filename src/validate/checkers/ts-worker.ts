/**
 * The TypeScript checker's worker thread. The compiler runs synchronously for seconds on a big
 * project; in a worker it can be stopped when --timeout runs out (Worker.terminate), and the
 * main thread never loads the compiler. One Program per project, kept for the worker's
 * life: the session keeps the worker, so later files are checked warm.
 */
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";
import { saveCodeCache, ts, type TS } from "./ts-compiler.js";
import { projectConfigFor, projectConfigsFor, TsProject } from "./typescript-project.js";

export interface TsCheckRequest {
  id: number;
  kind?: "file";
  root: string;
  abs: string;
  javascript: boolean;
  text: string;
}

export interface TsWireDiagnostic {
  category: "error" | "warning" | "note";
  code: number;
  message: string;
  /** Absolute path of the file the diagnostic is in, when it has one. */
  file?: string;
  start?: number;
  length?: number;
}

/** A whole change: every file's before and after content (null: absent), checked at once. */
export interface TsChangeRequest {
  id: number;
  kind: "change";
  root: string;
  files: { abs: string; javascript: boolean; before: string | null; after: string | null }[];
  /** Most importers of the changed files to check besides them. */
  importerLimit: number;
}

export interface TsChangeDiagnostic extends TsWireDiagnostic {
  /** Position in the file as it stood in that phase: 1-based line, 0-based byte column. */
  line?: number;
  byteCol?: number;
}

export type TsChangeResponse =
  | {
      id: number;
      ok: true;
      version: string;
      projects: { config?: string; configErrors: string[]; checked: number; importers: number; truncated: boolean }[];
      before: TsChangeDiagnostic[];
      after: TsChangeDiagnostic[];
    }
  | { id: number; ok: false; error: string };

export type TsCheckResponse =
  | { id: number; ok: true; version: string; config?: string; configErrors: string[]; diagnostics: TsWireDiagnostic[] }
  | { id: number; ok: false; error: string };

const CATEGORY: Record<TS.DiagnosticCategory, TsWireDiagnostic["category"]> = {
  [ts.DiagnosticCategory.Error]: "error",
  [ts.DiagnosticCategory.Warning]: "warning",
  [ts.DiagnosticCategory.Suggestion]: "note",
  [ts.DiagnosticCategory.Message]: "note",
};

const projects = new Map<string, TsProject>();

function handle(req: TsCheckRequest): TsCheckResponse {
  const config = projectConfigFor(req.root, req.abs, req.javascript);
  const key = config ?? `dir:${dirname(req.abs)}`;
  let project = projects.get(key);
  if (!project) {
    project = new TsProject(config, dirname(req.abs));
    projects.set(key, project);
  }
  const diagnostics = project.check(req.abs, req.text).map((d) => {
    const out: TsWireDiagnostic = { category: CATEGORY[d.category], code: d.code, message: ts.flattenDiagnosticMessageText(d.messageText, "\n") };
    if (d.file) out.file = d.file.fileName;
    if (d.start !== undefined) out.start = d.start;
    if (d.length !== undefined) out.length = d.length;
    return out;
  });
  return { id: req.id, ok: true, version: ts.version, config, configErrors: project.configErrors, diagnostics };
}

function projectsOf(root: string, abs: string, javascript: boolean): TsProject[] {
  return projectConfigsFor(root, abs, javascript).map((config) => {
    const key = config ?? `dir:${dirname(abs)}`;
    let project = projects.get(key);
    if (!project) {
      project = new TsProject(config, dirname(abs));
      projects.set(key, project);
    }
    return project;
  });
}

function located(d: TS.Diagnostic, texts: Map<string, string | null>): TsChangeDiagnostic {
  const out: TsChangeDiagnostic = { category: CATEGORY[d.category], code: d.code, message: ts.flattenDiagnosticMessageText(d.messageText, "\n") };
  if (d.file) {
    out.file = d.file.fileName;
    if (d.start !== undefined) {
      out.start = d.start;
      out.length = d.length ?? 0;
      const lc = d.file.getLineAndCharacterOfPosition(d.start);
      const lineStart = d.file.getPositionOfLineAndCharacter(lc.line, 0);
      out.line = lc.line + 1;
      const text = texts.get(d.file.fileName) ?? d.file.text;
      out.byteCol = Buffer.byteLength(text.slice(lineStart, d.start), "utf8");
    }
  }
  return out;
}

function handleChange(req: TsChangeRequest): TsChangeResponse {
  // Each changed file's project sees the whole change (a project may import another's files).
  const groups = new Map<TsProject, string[]>();
  for (const f of req.files) {
    for (const p of projectsOf(req.root, f.abs, f.javascript)) groups.set(p, [...(groups.get(p) ?? []), f.abs]);
  }
  const before = new Map(req.files.map((f) => [f.abs, f.before] as const));
  const after = new Map(req.files.map((f) => [f.abs, f.after] as const));
  const out: Extract<TsChangeResponse, { ok: true }> = { id: req.id, ok: true, version: ts.version, projects: [], before: [], after: [] };
  // (A file two projects hold is checked in both; a finding both report is one.)
  const seenBefore = new Set<string>();
  const seenAfter = new Set<string>();
  for (const [project, mine] of groups) {
    const importers = project.importersOf(mine, req.importerLimit);
    const check = [...mine, ...importers.files];
    const dedupe = (ds: TsChangeDiagnostic[], seen: Set<string>): TsChangeDiagnostic[] =>
      ds.filter((d) => {
        const k = `${d.file}\u0000${d.start}\u0000${d.code}\u0000${d.message}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    out.before.push(...dedupe(project.checkStates(before, check, true).map((d) => located(d, before)), seenBefore));
    out.after.push(...dedupe(project.checkStates(after, check).map((d) => located(d, after)), seenAfter));
    out.projects.push({ config: project.configFile, configErrors: project.configErrors, checked: check.length, importers: importers.files.length, truncated: importers.truncated });
  }
  return out;
}

parentPort?.on("message", (req: TsCheckRequest | TsChangeRequest) => {
  let res: TsCheckResponse | TsChangeResponse;
  try {
    res = req.kind === "change" ? handleChange(req) : handle(req);
    // Before answering, not after: the session may stop this thread as soon as it has the answer.
    saveCodeCache();
  } catch (e) {
    res = { id: req.id, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  parentPort?.postMessage(res);
});
