import { languageInfo, type LanguageId } from "../../lang/registry.js";
import { clipText } from "../../text/clip.js";
import type { ContentPositions } from "../positions.js";
import type { CheckerOutcome } from "../types.js";
import type { ValidationSession } from "../session.js";

export interface CheckContext {
  root: string;
  /** Root-relative path of the validated file. */
  relPath: string;
  /** Absolute path where the file would stand. */
  abs: string;
  language: LanguageId;
  timeoutMs: number;
  session: ValidationSession;
  env: NodeJS.ProcessEnv;
  /** Unchanged files to compile with the content (Java: the classes that use it), absolute paths. */
  alsoCompile?: string[];
  /**
   * The change's other files of the language, in the same version as the content (the before
   * run gets their before bytes, the after run their after bytes; null: absent in that version).
   * Checkers that compile more than the file (Java, Rust) put them in place of the disk's.
   */
  companions?: Companion[];
}

export interface Companion {
  /** Root-relative, `/`-separated. */
  relPath: string;
  abs: string;
  content: Uint8Array | null;
}

export type Checker = (ctx: CheckContext, content: Uint8Array, pos: ContentPositions) => Promise<CheckerOutcome>;

/** A checker that could not run must say so: never a silent pass (issue 5). */
export function absent(ctx: CheckContext, checker: string, remediation: string): CheckerOutcome {
  return {
    diagnostics: [
      {
        level: "warning",
        message: `checker absent: ${checker} was not found, so the ${languageInfo(ctx.language).name} content was NOT checked beyond its syntax. ${remediation}`,
        file: ctx.relPath,
        code: "checker.absent",
        source: "llmfilewrite",
      },
    ],
  };
}

export function timedOut(ctx: CheckContext, checker: string): CheckerOutcome {
  return {
    diagnostics: [
      {
        level: "warning",
        message: `checker timed out: ${checker} gave no answer within ${Math.round(ctx.timeoutMs / 1000)} s, so the content was NOT checked beyond its syntax. Raise --timeout.`,
        file: ctx.relPath,
        code: "checker.timeout",
        source: "llmfilewrite",
      },
    ],
  };
}

export function failed(ctx: CheckContext, checker: string, detail: string): CheckerOutcome {
  return {
    ran: checker,
    diagnostics: [
      {
        level: "warning",
        message: `checker failed: ${checker} did not produce diagnostics we could read (${clipText(detail.trim(), 500)}), so the content was NOT fully checked.`,
        file: ctx.relPath,
        code: "checker.failed",
        source: "llmfilewrite",
      },
    ],
  };
}
