/**
 * llmfilewrite: write a source file only after the validation gates accept it (seed 02 §6,
 * issue 5). Plain request -> outcome; the CLI turns it into the OperationResult envelope. The
 * file is one change of the toolset's pipeline: validated by validateChange (src/validate/
 * change.ts), written by commitChange (src/change/), under the same per-file locks as every
 * other writer.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { assertWritablePath, commitChange } from "../../change/index.js";
import { changeError } from "../../change/errors.js";
import { commonCode, errorCode } from "../../contract/codes.js";
import { EXIT, ToolError } from "../../contract/errors.js";
import { HEADER_SNIFF_BYTES, LANGUAGES, languageByName, languageForPath, languageInfo, type LanguageInfo, refineLanguage, sameLanguage } from "../../lang/registry.js";
import { checksum, normalizeChecksum } from "../../text/checksum.js";
import { resolveInRoot } from "../../text/root.js";
import { validateChange, type ChangeValidationReport } from "../../validate/change.js";
import { CONFIG_NOT_APPLIED, MISSING_DEPENDENCY, NOT_COMPILED } from "../../validate/notes.js";
import type { ValidationDiagnostic, ValidationSession } from "../../validate/index.js";

export const TOOL = "llmfilewrite";

export const CODES = {
  file_exists: errorCode(TOOL, "E101"),
  checksum_mismatch: errorCode(TOOL, "E102"),
  unsupported_language: errorCode(TOOL, "E103"),
  not_a_file: errorCode(TOOL, "E104"),
  invalid_checksum: errorCode(TOOL, "E105"),
  // E106 (changed on disk while validating) is retired: the pipeline's E012 says it now.
  language_mismatch: errorCode(TOOL, "E107"),
} as const;

/** Larger content is not source code an agent writes; refuse before spending checker time. */
export const MAX_CONTENT_BYTES = 16 * 1024 * 1024;

export interface WriteRequest {
  /** Workspace root, real absolute path. */
  root: string;
  /** The path as the user gave it (relative to cwd or root, or absolute inside the root). */
  path: string;
  cwd?: string;
  /** `auto` (by extension) or a language name / alias. */
  language: string;
  content: Uint8Array;
  overwrite: boolean;
  /** Required checksum of the file being replaced (`sha256:<hex>` or bare hex). */
  expectedChecksum?: string;
  rejectOn: "error" | "warning";
  timeoutMs: number;
  dryRun: boolean;
  /** Reject when a checker is absent, crashed or timed out, instead of writing the file unchecked. */
  requireChecker?: boolean;
}

export interface CreateResult {
  type: "create";
  path: string;
  language: string;
  /**
   * `validated`: every gate ran, the language's checker included, and nothing new is wrong;
   * `unchecked`: accepted on syntax alone because the checker could not run (a warning says why);
   * `rejected`: introduced errors (or --require-checker and no checker).
   */
  validation: ChangeValidationReport["validation"];
  /** Each checker of the change: what ran (name, version, scope) or why it did not. */
  checkers: ChangeValidationReport["checkers"];
  lsp_used: string;
  checksum: string;
  diagnostics: ValidationDiagnostic[];
  checkers_run: string[];
  written: boolean;
  overwritten: boolean;
  dry_run: boolean;
  previous_checksum?: string;
  /** Temp files of killed earlier runs that the write removed (root-relative). */
  removed_temps?: string[];
}

export interface WriteOutcome {
  status: "approved" | "rejected";
  message: string;
  result: CreateResult;
}

function pickLanguage(name: string, rel: string): LanguageInfo {
  const known = LANGUAGES.map((l) => l.id).join(", ");
  if (name === "auto") {
    const l = languageForPath(rel);
    if (!l) {
      throw new ToolError({
        code: CODES.unsupported_language,
        error: "unsupported_language",
        message: `cannot tell the language of ${rel} from its extension, and llmfilewrite only writes files it can validate`,
        remediation: `Name the language with --language (one of: ${known}); files in other languages are not supported.`,
        exitCode: EXIT.usage,
      });
    }
    return l;
  }
  const l = languageByName(name);
  if (!l) {
    throw new ToolError({
      code: CODES.unsupported_language,
      error: "unsupported_language",
      message: `unknown language '${name}'`,
      remediation: `Use --language auto or one of: ${known}.`,
      exitCode: EXIT.usage,
    });
  }
  // The extension is what the project's tools go by (pyright's include, the build, magellan,
  // splice): Rust written as src/click/rusty.py under --language rust was checked by rustc and
  // "validated", while pyright, the checker the project would run on it, never saw it.
  const byExtension = languageForPath(rel);
  if (byExtension && !sameLanguage(l.id, byExtension.id, rel)) {
    throw new ToolError({
      code: CODES.language_mismatch,
      error: "language_mismatch",
      message: `${rel} is ${byExtension.name} by its extension; --language ${name} (${l.name}) disagrees, and nothing was written`,
      remediation: `Drop --language (or pass --language auto) to write ${byExtension.name}, or give the file an extension of ${l.name} (.${l.extensions.join(", .")}). --language only chooses for a path whose extension names no language (or C++ for a .h).`,
      file: rel,
      exitCode: EXIT.usage,
    });
  }
  return l;
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** The bytes on disk now, or undefined when there is no file. */
function readExisting(abs: string, rel: string): Uint8Array | undefined {
  let st;
  try {
    st = lstatSync(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  let real = abs;
  if (st.isSymbolicLink()) {
    try {
      real = realpathSync(abs);
    } catch {
      throw changeError(TOOL, "invalid_request", `${rel} is a symlink to a file that does not exist; nothing written`, "Name the link's target (inside the workspace root) instead, or remove the dangling link.", { file: rel, exitCode: EXIT.usage });
    }
  }
  if (!lstatSync(real).isFile()) {
    throw new ToolError({
      code: CODES.not_a_file,
      error: "not_a_file",
      message: `${rel} exists and is not a regular file`,
      remediation: "Choose a file path; llmfilewrite never replaces directories or special files.",
      file: rel,
    });
  }
  return readFileSync(real);
}

/**
 * Warnings about the check, not the code, that say the code was checked: tree-sitter's complaint
 * the real checker overruled ("parser limit, not an error in the code": TypeScript 5's `export
 * type *` was rejected under --reject-on warning), and how far the check reached (a new Rust
 * module, checked attached to its crate before any `mod` declares it, could never be created:
 * the `mod` cannot compile before the file exists). An unchecked file's warning still counts.
 */
const ABOUT_THE_CHECK = new Set(["parser.limit", "checker.scope"]);

function summary(diags: ValidationDiagnostic[], rejectOn: "error" | "warning"): ValidationDiagnostic[] {
  return diags.filter((d) => !d.pre_existing && (d.level === "error" || (rejectOn === "warning" && d.level === "warning" && !ABOUT_THE_CHECK.has(d.code))));
}

function where(d: ValidationDiagnostic): string {
  return d.start_line === undefined ? d.file : d.start_col === undefined ? `${d.file}:${d.start_line}` : `${d.file}:${d.start_line}:${d.start_col}`;
}

export async function writeFile(req: WriteRequest, session?: ValidationSession): Promise<WriteOutcome> {
  const { abs, rel: named } = resolveInRoot(TOOL, req.root, req.path, req.cwd);
  // Refused before any work: .git/ and the tools' state directories (issue 18, item 3).
  const rel = assertWritablePath(req.root, named, TOOL);
  // Before the language: a directory has no extension, and "name the language with --language"
  // only led to this refusal one run later.
  const directory = isDirectory(abs);
  if (directory || /[\\/]$/.test(req.path)) {
    throw new ToolError({
      code: CODES.not_a_file,
      error: "not_a_file",
      message: directory ? `${rel} is a directory, not a file` : `${req.path} names a directory (it ends with '/'), not a file`,
      remediation: "Give the path of the file to write inside it (with its extension, e.g. dir/name.ts); llmfilewrite never replaces directories.",
      file: rel,
    });
  }
  const picked = pickLanguage(req.language, rel);
  // (`auto` and a `.h` whose code is C++: checked with g++, as splice and magellan read it.)
  const language = req.language === "auto" ? (languageInfo(refineLanguage(picked.id, rel, Buffer.from(req.content.buffer, req.content.byteOffset, Math.min(req.content.byteLength, HEADER_SNIFF_BYTES)).toString("utf8"))) ?? picked) : picked;
  if (req.content.length > MAX_CONTENT_BYTES) {
    throw new ToolError({
      code: commonCode(TOOL, "file_too_large"),
      error: "file_too_large",
      message: `content is ${req.content.length} bytes; llmfilewrite accepts at most ${MAX_CONTENT_BYTES}`,
      remediation: "Write generated or data files with another tool; llmfilewrite is for source code.",
    });
  }
  let expected: string | undefined;
  if (req.expectedChecksum !== undefined) {
    expected = normalizeChecksum(req.expectedChecksum);
    if (!expected) {
      throw new ToolError({
        code: CODES.invalid_checksum,
        error: "invalid_checksum",
        message: `--expected-checksum '${req.expectedChecksum}' is not a SHA-256 checksum`,
        remediation: "Pass sha256:<64 hex> (or the bare 64 hex digits) as printed by the tools.",
        exitCode: EXIT.usage,
      });
    }
  }
  const previous = readExisting(abs, rel);
  const previousChecksum = previous === undefined ? undefined : checksum(previous);
  if (previous !== undefined && !req.overwrite) {
    throw new ToolError({
      code: CODES.file_exists,
      error: "file_exists",
      message: `${rel} already exists; it was left unchanged`,
      remediation: `Pass --overwrite (ideally with --expected-checksum ${previousChecksum}) to replace it.`,
      file: rel,
    });
  }
  if (expected !== undefined && expected !== previousChecksum) {
    throw new ToolError({
      code: CODES.checksum_mismatch,
      error: "checksum_mismatch",
      message:
        previous === undefined
          ? `${rel} does not exist, but --expected-checksum ${expected} was given`
          : `${rel} has checksum ${previousChecksum}, not the expected ${expected}; it was left unchanged`,
      remediation: "Re-read the file, decide on the change again against its current content, and pass its current checksum.",
      file: rel,
    });
  }

  const report = await validateChange({
    root: req.root,
    files: [{ path: rel, language: language.id, before: previous ?? null, after: req.content }],
    timeoutMs: req.timeoutMs,
    requireChecker: req.requireChecker,
    session,
  });
  const ran = report.checkers.filter((c) => c.status === "ran").map((c) => c.checker);
  const diagnostics = [...report.introduced, ...report.warnings, ...(report.pre_existing ?? [])];
  const result: CreateResult = {
    type: "create",
    path: rel,
    language: language.name,
    validation: report.validation,
    checkers: report.checkers,
    lsp_used: ran[0] ?? "none",
    checksum: checksum(req.content),
    diagnostics,
    checkers_run: ["tree-sitter", ...ran],
    written: false,
    overwritten: false,
    dry_run: req.dryRun,
  };
  if (previousChecksum !== undefined) result.previous_checksum = previousChecksum;
  const blocking = summary(diagnostics, req.rejectOn);
  const notRun = report.checkers.filter((c) => c.status !== "ran");
  // What left the file unchecked: a checker that did not run, one that left it out, one that
  // ran without the project's configuration, or a declared dependency not installed.
  const left = [
    ...diagnostics.filter((d) => d.code === NOT_COMPILED).map((d) => `${d.file} not compiled`),
    ...[...new Set(diagnostics.filter((d) => d.code === CONFIG_NOT_APPLIED).map((d) => d.file))].map((f) => `${f} not fully applied`),
    ...[...new Set(diagnostics.filter((d) => d.code === MISSING_DEPENDENCY).map((d) => /^unchecked: (\S+)/.exec(d.message)?.[1] ?? d.file))].map((n) => `dependency ${n} not installed`),
  ];
  if (report.validation === "rejected" && blocking.length === 0 && notRun.length + left.length > 0) {
    return {
      status: "rejected",
      message: `Not validated: ${[...notRun.map((c) => `${c.checker} ${c.status}`), ...left].join(", ")}, and --require-checker was given. Nothing was written.`,
      result,
    };
  }
  if (blocking.length > 0) {
    const first = blocking[0] as ValidationDiagnostic;
    const kinds = req.rejectOn === "warning" ? "error(s) or warning(s)" : "error(s)";
    return {
      status: "rejected",
      message: `Validation failed: ${blocking.length} introduced ${kinds}, first ${first.code} at ${where(first)}: ${(first.message.split("\n")[0] as string).replace(/\.$/, "")}. Nothing was written.`,
      result,
    };
  }
  // ("syntax only" is not true of a checker that ran with other options than the project's.)
  const syntaxOnly = notRun.length > 0 || diagnostics.some((d) => d.code === NOT_COMPILED);
  const how = report.validation === "validated" ? "validated" : `NOT validated by a checker (${[...notRun.map((c) => `${c.checker}: ${c.status}`), ...left].join(", ")}; ${syntaxOnly ? "syntax only" : (diagnostics.some((d) => d.code === CONFIG_NOT_APPLIED) ? "checked without the project's own options" : "checked without the project's dependencies")}, see the warnings)`;
  if (req.dryRun) {
    return { status: "approved", message: `Content ${how} (dry run): nothing was written`, result };
  }
  const commit = await commitChange({
    root: req.root,
    tool: TOOL,
    command: `llmfilewrite --path ${rel}${previous !== undefined ? " --overwrite" : ""}`,
    files: [{ path: rel, before: previous ?? null, after: req.content }],
  });
  result.written = true;
  result.overwritten = previous !== undefined;
  if (commit.removed_temps?.length) result.removed_temps = commit.removed_temps;
  return {
    status: "approved",
    message: `${previous !== undefined ? "File replaced" : "File created"} and ${how}`,
    result,
  };
}
