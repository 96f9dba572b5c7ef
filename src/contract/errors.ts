import { commonCode } from "./codes.js";
import type { Diagnostic, ErrorResponse, Span } from "./schema.js";

/** Exit codes shared by every tool (CONTRACT.md / seed 05). */
export const EXIT = { ok: 0, failure: 1, usage: 2, partial: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface ToolErrorInit {
  /** Stable code, prefixed by tool: `LLMSEARCH_E003`. */
  code: string;
  /** Short snake_case name of the fault (`pattern_syntax`), ErrorResponse.error. */
  error: string;
  message: string;
  remediation?: string;
  note?: string;
  file?: string;
  span?: Span;
  /** 2 for invalid arguments or usage, 1 for any other failure. */
  exitCode?: ExitCode;
  /** Warnings that qualify the failure (an incomplete index behind a not-found), after its own diagnostic. */
  diagnostics?: Diagnostic[];
  /** The failure may be a false one because what answered is incomplete: the envelope says partial. */
  partial?: boolean;
}

const TOOL_ERROR = Symbol.for("llmtools.ToolError");

/**
 * An expected failure: bad input, refused path, stale checksum. The CLI layer turns it into
 * ErrorResponse + DiagnosticPayload. Anything that is not a ToolError is a bug.
 */
export class ToolError extends Error {
  /**
   * `instanceof` by a registered symbol, not by prototype: a bundled CLI file carries its own
   * copy of this class, and an error thrown by one copy must still be recognised by the other.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[TOOL_ERROR] === true;
  }

  readonly code: string;
  readonly error: string;
  readonly remediation: string | undefined;
  readonly note: string | undefined;
  readonly file: string | undefined;
  readonly span: Span | undefined;
  readonly exitCode: ExitCode;
  readonly diagnostics: Diagnostic[];
  readonly partial: boolean;

  constructor(init: ToolErrorInit) {
    super(init.message);
    this.name = "ToolError";
    this.code = init.code;
    this.error = init.error;
    this.remediation = init.remediation;
    this.note = init.note;
    this.file = init.file;
    this.span = init.span;
    this.exitCode = init.exitCode ?? EXIT.failure;
    this.diagnostics = init.diagnostics ?? [];
    this.partial = init.partial ?? false;
    Object.defineProperty(this, TOOL_ERROR, { value: true });
  }

  /** The same failure, qualified by more warnings (and partial when they say the answer may be false). */
  qualified(diagnostics: Diagnostic[], partial: boolean): ToolError {
    return new ToolError({
      code: this.code,
      error: this.error,
      message: this.message,
      remediation: this.remediation,
      note: this.note,
      file: this.file,
      span: this.span,
      exitCode: this.exitCode,
      diagnostics: [...this.diagnostics, ...diagnostics],
      partial: this.partial || partial,
    });
  }

  toDiagnostic(tool: string): Diagnostic {
    return omitUndefined({
      tool,
      level: "error" as const,
      message: this.message,
      file: this.file,
      span: this.span,
      code: this.code,
      note: this.note,
      remediation: this.remediation,
    });
  }

  toErrorResponse(): ErrorResponse {
    // seed 01 shows `span: null` when there is none; CONTRACT.md keeps seed nulls.
    return omitUndefined({
      code: this.code,
      error: this.error,
      message: this.message,
      span: this.span ?? null,
      remediation: this.remediation ?? "",
    });
  }
}

/** CONTRACT.md: optional fields are omitted, never null. */
export function omitUndefined<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** What to do about a named path that does not exist (the search tools' E002). */
export const MISSING_PATHS_REMEDIATION = "Name files or directories that exist inside the workspace root (paths are taken from the current directory, else from the root).";

/**
 * What to do about paths that do not exist. One written as a glob (`src/*.rs`) was meant to be
 * expanded, which a shell does and a JSON call (MCP, a quoted argument) does not: say to pass it
 * as a glob, which the searches match as rg's -g does, rather than only "name files that exist".
 */
export function missingPathsRemediation(missing: readonly string[]): string {
  const globs = missing.filter((p) => /[*?[{]/u.test(p));
  if (globs.length === 0) return MISSING_PATHS_REMEDIATION;
  const list = globs.map((g) => `'${g}'`).join(", ");
  return `${list} ${globs.length === 1 ? "is a glob" : "are globs"}, which no path argument expands (a shell does): pass ${globs.length === 1 ? "it" : "them"} as --glob (MCP: globs), e.g. --glob ${list.split(", ")[0]}. ${MISSING_PATHS_REMEDIATION}`;
}

/**
 * The usage error of a search whose named paths all do not exist. (When some exist, they are
 * searched and the missing ones are a warning, as rg and ast-grep do.)
 */
export function missingPathsError(tool: string, missing: string[]): ToolError {
  return new ToolError({
    code: commonCode(tool, "file_not_found"),
    error: "file_not_found",
    message: `no such file or directory: ${missing.join(", ")}`,
    remediation: missingPathsRemediation(missing),
    exitCode: EXIT.usage,
  });
}
