/**
 * Rename's error codes. splice numbers its faults from E100; the rename engines own the E2xx
 * block so that the two branches that write splice never hand out the same number.
 */
import { ToolError } from "../../../contract/errors.js";
import type { Diagnostic } from "../../../contract/schema.js";

export const RENAME_CODES = {
  invalid_identifier: "SPLICE_E200",
  keyword: "SPLICE_E201",
  clash: "SPLICE_E202",
  heuristic_locations: "SPLICE_E203",
  no_engine: "SPLICE_E204",
  not_renameable: "SPLICE_E205",
  engine_failed: "SPLICE_E206",
  target_mismatch: "SPLICE_E207",
  outside_root: "SPLICE_E208",
  same_name: "SPLICE_E209",
  stale_index: "SPLICE_E210",
  overrides_left: "SPLICE_E211",
  // SPLICE_E212 is splice's shared_declaration (../codes.ts): the next engine code is E213.
} as const;

/** Notes and warnings a plan carries (not failures). */
export const RENAME_NOTES = {
  referencing_project: "SPLICE_W210",
  no_project: "SPLICE_W211",
  fallback: "SPLICE_W212",
  server_note: "SPLICE_W213",
  untyped_uses: "SPLICE_W214",
  string_keyed_uses: "SPLICE_W216",
  unsearched_mentions: "SPLICE_W217",
} as const;

export function renameNote(kind: keyof typeof RENAME_NOTES, message: string, level: "note" | "warning" = "note"): Diagnostic {
  return { tool: "splice", level, message, code: RENAME_NOTES[kind] };
}

export type RenameFault = keyof typeof RENAME_CODES;

export function renameError(fault: RenameFault, message: string, remediation: string, extra: { file?: string; note?: string; usage?: boolean } = {}): ToolError {
  return new ToolError({
    code: RENAME_CODES[fault],
    error: `rename_${fault}`,
    message,
    remediation,
    ...(extra.file !== undefined ? { file: extra.file } : {}),
    ...(extra.note !== undefined ? { note: extra.note } : {}),
    exitCode: extra.usage ? 2 : 1,
  });
}
