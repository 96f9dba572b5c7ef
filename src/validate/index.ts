/**
 * The validation gates llmfilewrite and splice share. Given the bytes a file would hold, in
 * order: (1) the tree-sitter parse, (2) the project's own checker for the language, run on the
 * content as if it stood at its path, (3) for a replacement, the split between diagnostics the
 * change introduced and those the previous content already had. Nothing is written to the
 * file's path; checkers that need files on disk get private temp copies that are removed.
 */
import { join } from "node:path";
import type { CheckContext } from "./checkers/common.js";
import { FILE_CHECKERS } from "./checkers/registry.js";
import { ContentPositions } from "./positions.js";
import { ValidationSession } from "./session.js";
import { treeSitterGate } from "./treesitter.js";
import type { CheckerOutcome, ValidateRequest, ValidationDiagnostic, ValidationReport } from "./types.js";

export { ValidationSession } from "./session.js";
// Whole-change validation (splice, llmfilewrite): docs/validation.md.
export { validateChange } from "./change.js";
export type { ChangeFileInput, ChangeValidationReport, ChangeValidationRequest, CheckerRun } from "./change.js";
export type { ValidateRequest, ValidationDiagnostic, ValidationReport } from "./types.js";


type Raw = Omit<ValidationDiagnostic, "pre_existing">;

async function gates(ctx: CheckContext, content: Uint8Array): Promise<{ diagnostics: Raw[]; ran: string[]; checker?: string }> {
  const pos = new ContentPositions(content);
  const diagnostics: Raw[] = [];
  const ran: string[] = [];
  if (!pos.decoded.valid) {
    diagnostics.push({
      level: "error",
      message: "content is not valid UTF-8; checkers would see replacement characters, not these bytes",
      file: ctx.relPath,
      code: "content.invalid_utf8",
      source: "llmfilewrite",
    });
  }
  // The checker starts first (its own process or worker thread: check() starts it before its
  // first await) and works while tree-sitter parses here, so a cold start overlaps ours.
  const check = await FILE_CHECKERS[ctx.language]();
  const checking = check(ctx, content, pos);
  let syntax: CheckerOutcome;
  try {
    syntax = treeSitterGate(ctx.language, pos, ctx.relPath);
  } catch (e) {
    // Let the checker finish starting (it registers its worker or server with the session as
    // it goes), so that the session's dispose stops it rather than leaving it to hold the
    // process open.
    await checking.catch(() => undefined);
    throw e;
  }
  ran.push(syntax.ran as string);
  diagnostics.push(...syntax.diagnostics);
  const outcome: CheckerOutcome = await checking;
  if (outcome.ran) ran.push(outcome.ran);
  // One finding reported twice (cargo checks the lib and its test build) is one finding.
  const seen = new Set<string>();
  for (const d of outcome.diagnostics) {
    const k = `${key(d)}\u0000${d.byte_start ?? ""}\u0000${d.byte_end ?? ""}`;
    if (seen.has(k)) continue;
    seen.add(k);
    diagnostics.push(d);
  }
  return { diagnostics, ran, checker: outcome.ran };
}

/** What makes two diagnostics "the same finding" regardless of where the lines moved. */
function key(d: Raw): string {
  return `${d.source}\u0000${d.code}\u0000${d.level}\u0000${d.file}\u0000${d.message}`;
}

/**
 * Runs the gates on `content` (and on `previousContent`, when given, to mark what was already
 * wrong). Pass a session to reuse language servers across calls; without one, a session is
 * made for this call and disposed before returning.
 */
export async function validateContent(req: ValidateRequest, session?: ValidationSession): Promise<ValidationReport> {
  const own = session === undefined;
  const s = session ?? new ValidationSession();
  try {
    const ctx: CheckContext = {
      root: req.root,
      relPath: req.relPath,
      abs: join(req.root, req.relPath),
      language: req.language,
      timeoutMs: req.timeoutMs,
      session: s,
      env: s.env,
    };
    // The old content first: a checker that keeps the file's content (the TypeScript program)
    // is then left holding the new one, which later files of the session should see.
    // Multiset matching: two identical old errors excuse at most two identical new ones.
    const old = new Map<string, number>();
    if (req.previousContent !== undefined) {
      const before = await gates(ctx, req.previousContent);
      for (const d of before.diagnostics) old.set(key(d), (old.get(key(d)) ?? 0) + 1);
    }
    const now = await gates(ctx, req.content);
    const diagnostics: ValidationDiagnostic[] = now.diagnostics.map((d) => {
      const k = key(d);
      const left = old.get(k) ?? 0;
      if (left > 0) old.set(k, left - 1);
      return { ...d, pre_existing: left > 0 };
    });
    const introduced = {
      errors: diagnostics.filter((d) => !d.pre_existing && d.level === "error").length,
      warnings: diagnostics.filter((d) => !d.pre_existing && d.level === "warning").length,
    };
    return { diagnostics, checkers_run: now.ran, lsp_used: now.checker ?? "none", introduced };
  } finally {
    if (own) s.dispose();
  }
}
