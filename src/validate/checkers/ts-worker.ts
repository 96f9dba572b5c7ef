/**
 * The TypeScript checker's worker thread. The compiler runs synchronously for seconds on a big
 * project; in a worker it can be stopped when --timeout runs out (Worker.terminate), and the
 * main thread never loads the compiler. One Program per project, kept for the worker's
 * life: the session keeps the worker, so later files are checked warm.
 */
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";
import { saveCodeCache, ts, type TS } from "./ts-compiler.js";
import { projectConfigFor, TsProject } from "./typescript-project.js";

export interface TsCheckRequest {
  id: number;
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

parentPort?.on("message", (req: TsCheckRequest) => {
  let res: TsCheckResponse;
  try {
    res = handle(req);
    // Before answering, not after: the session may stop this thread as soon as it has the answer.
    saveCodeCache();
  } catch (e) {
    res = { id: req.id, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  parentPort?.postMessage(res);
});
