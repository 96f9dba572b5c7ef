/**
 * The shapes the validation gates share with their callers (llmfilewrite, splice). Positions
 * follow CONTRACT.md: lines 1-based, columns 0-based byte offsets within the line, byte offsets
 * into the content as it would be stored.
 */
import type { LanguageId } from "../lang/registry.js";

export type Level = "error" | "warning" | "note";

export interface ValidationDiagnostic {
  level: Level;
  message: string;
  /** Root-relative, `/`-separated; usually the validated file, sometimes a header it includes. */
  file: string;
  /** Present when the checker gave a location in `file`. */
  start_line?: number;
  start_col?: number;
  end_line?: number;
  end_col?: number;
  byte_start?: number;
  byte_end?: number;
  /** The checker's own code (`TS2322`, `E0308`, `reportAttributeAccessIssue`, `syntax.ERROR`). */
  code: string;
  /** Which gate said it: `tree-sitter`, `typescript`, `pyright`, `gcc`, `javac`, `rustc`, `cargo`, `go`, `llmfilewrite`. */
  source: string;
  /** True when the same diagnostic (source, code, message) was already reported on the previous content. */
  pre_existing: boolean;
}

/** What one checker found on one text, before the introduced/pre-existing split. */
export interface CheckerOutcome {
  /** Name and version of what ran (`typescript 6.0.3 compiler API`); undefined when nothing ran. */
  ran?: string;
  diagnostics: Omit<ValidationDiagnostic, "pre_existing">[];
}

export interface ValidateRequest {
  /** Workspace root, a real absolute path. */
  root: string;
  /** Path of the file relative to the root, `/` separators (the file need not exist). */
  relPath: string;
  language: LanguageId;
  /** The new bytes, exactly as they would be written. */
  content: Uint8Array;
  /** The bytes on disk now, for an overwrite: their diagnostics are marked pre-existing. */
  previousContent?: Uint8Array;
  /** Budget for each external checker, in milliseconds. */
  timeoutMs: number;
}

export interface ValidationReport {
  diagnostics: ValidationDiagnostic[];
  /** Every gate that actually ran, in order (`tree-sitter`, then the project checker). */
  checkers_run: string[];
  /** The project checker that ran, or `none` when it was absent or timed out. */
  lsp_used: string;
  /** Counts of diagnostics that were not on the previous content. */
  introduced: { errors: number; warnings: number };
}
