/**
 * TypeScript/JavaScript over a whole change: the project's tsconfig program (the project's own
 * compiler when it has one) with every changed file overlaid, once as before and once as after,
 * diagnostics of the changed files and of the project files that import them (directly or
 * through re-exports), so that a changed signature's broken callers count as introduced.
 */
import { join } from "node:path";
import type { ChangeCheck, ChangeCheckContext, Raw } from "../change.js";
import { ContentPositions } from "../positions.js";
import { CONFIG_NOT_APPLIED } from "../notes.js";
import { describeTypeScript, TsWorker, typeScriptFor } from "./typescript.js";
import type { TsChangeDiagnostic } from "./ts-worker.js";

/** Importers checked besides the changed files; a change imported by more says so. */
const IMPORTER_LIMIT = 2000;

function rel(root: string, abs: string): string {
  return abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : abs;
}

export async function checkTypeScriptChange(ctx: ChangeCheckContext): Promise<ChangeCheck> {
  const choice = typeScriptFor(ctx.root);
  const key = `typescript-worker:${choice.path}`;
  const worker = ctx.session.get(key, () => new TsWorker(choice.path));
  const decode = (b: Uint8Array | null): string | null => (b === null ? null : new TextDecoder().decode(b));
  const files = ctx.files.map((f) => ({ abs: join(ctx.root, f.path), javascript: f.language === "javascript", before: decode(f.before), after: decode(f.after) }));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ctx.timeoutMs);
  });
  const res = await Promise.race([worker.checkChange({ root: ctx.root, files, importerLimit: IMPORTER_LIMIT }), deadline]);
  clearTimeout(timer);
  const language = ctx.files[0]?.language ?? "typescript";
  const name = describeTypeScript(choice);
  if (res === "timeout") {
    ctx.session.drop(key);
    return { run: { language, checker: name, version: choice.version, status: "timeout", reason: `no answer within ${Math.round(ctx.timeoutMs / 1000)} s` }, before: [], after: [], notes: [] };
  }
  if (!res.ok) {
    ctx.session.drop(key);
    return { run: { language, checker: name, version: choice.version, status: "failed", reason: res.error.split("\n")[0] }, before: [], after: [], notes: [] };
  }
  const positions = new Map<string, ContentPositions>();
  for (const f of ctx.files) if (f.after !== null) positions.set(join(ctx.root, f.path), new ContentPositions(f.after));
  const convert = (d: TsChangeDiagnostic, phase: "before" | "after"): Raw => {
    const out: Raw = { level: d.category, message: d.message, file: d.file ? rel(ctx.root, d.file) : "", code: `TS${d.code}`, source: "typescript" };
    if (d.file === undefined || d.start === undefined) return out;
    const pos = phase === "after" ? positions.get(d.file) : undefined;
    if (pos) return { ...out, ...pos.fromUtf16(d.start, d.start + (d.length ?? 0)) };
    if (d.line !== undefined && d.byteCol !== undefined) return { ...out, start_line: d.line, start_col: d.byteCol };
    return out;
  };
  const notes: Raw[] = [];
  const scopes: string[] = [];
  for (const p of res.projects) {
    for (const m of p.configErrors) notes.push({ level: "warning", message: m, file: p.config ? rel(ctx.root, p.config) : "", code: CONFIG_NOT_APPLIED, source: "typescript" });
    if (p.truncated) {
      notes.push({ level: "warning", message: `more than ${IMPORTER_LIMIT} files import the changed files; only the first ${IMPORTER_LIMIT} were checked for breakage`, file: p.config ? rel(ctx.root, p.config) : "", code: "checker.scope", source: "validate" });
    }
    scopes.push(`${p.config ? rel(ctx.root, p.config) : language === "javascript" ? "no jsconfig.json or tsconfig.json that allows JavaScript: default options" : "no tsconfig.json: default strict options"}, ${p.checked} file${p.checked === 1 ? "" : "s"} checked, ${p.importers} of them importing the change`);
  }
  return {
    run: { language, checker: `${name} compiler API (${scopes.join("; ")})`, version: res.version, status: "ran" },
    before: res.before.map((d) => convert(d, "before")),
    after: res.after.map((d) => convert(d, "after")),
    notes,
  };
}
