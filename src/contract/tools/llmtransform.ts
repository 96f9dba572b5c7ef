/**
 * llmtransform's shapes (issue 2 §5, seed 02 §5, seed 03 EditRequest/EditResponse). The request
 * schema is the canonical form after legacy aliases are mapped (src/tools/llmtransform/request.ts);
 * the response is seed 02's OperationResult whose `result` is the edit report.
 */
import { z } from "zod";
import { DiagnosticSchema, SpanSchema, operationResultSchema } from "../schema.js";

const uint = z.number().int().nonnegative();
const sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/**
 * One edit. Each end is given either as a byte offset or as a (line, column) position
 * (1-based line, 0-based byte column, CONTRACT.md); when both are given they must agree.
 */
export const LlmtransformEditSchema = z
  .object({
    byte_start: uint.optional().describe("inclusive UTF-8 byte offset, file as stored"),
    byte_end: uint.optional().describe("exclusive; = byte_start to insert"),
    start_line: z.number().int().min(1).optional().describe("1-based, instead of byte_start"),
    start_col: uint.optional().describe("0-based byte column"),
    end_line: z.number().int().min(1).optional().describe("1-based, instead of byte_end"),
    end_col: uint.optional().describe("0-based byte column"),
    new_content: z.string().describe("replacement text (legacy: replacement)"),
  })
  .strict();

export const LlmtransformRequestSchema = z
  .object({
    schema_version: z.string().optional().describe("Contract version the request was written for (legacy name: version)."),
    execution_id: z
      .string()
      .optional()
      .describe("UUID v4 chosen by the caller; echoed as the response's execution_id (legacy name: operation_id)."),
    file_path: z.string().describe("File to edit, relative to the workspace root (legacy name: file)."),
    expected_checksum: z
      .string()
      .describe("sha256:<64 hex> (or the bare hex) of the file the edits were computed against."),
    edits: z.array(LlmtransformEditSchema),
  })
  .strict();
export type LlmtransformRequest = z.infer<typeof LlmtransformRequestSchema>;

export const EditStatusSchema = z.enum(["applied", "skipped", "error"]);

export const LlmtransformEditResultSchema = z
  .object({
    index: uint.describe("Position of this edit in the request's edits array (0-based)."),
    match_id: z
      .string()
      .regex(/^[0-9a-f]{16}$/)
      .describe('matchId("llmtransform", span_id of the requested range, new_content).'),
    span: SpanSchema.optional().describe(
      "The edited range in the ORIGINAL file, line/col from the original. Absent only when the range cannot be located (out of bounds, reversed, unknown line).",
    ),
    requested: z
      .object({ byte_start: z.number().int(), byte_end: z.number().int() })
      .strict()
      .optional()
      .describe("The byte range as asked, given when no span could be built for it."),
    status: EditStatusSchema.describe(
      "applied: in the final file (in a --dry-run: would be). skipped: valid but not applied because another edit failed and the request is all-or-nothing. error: invalid, see `error`.",
    ),
    before_checksum: sha256
      .optional()
      .describe("sha256 of the original bytes the edit replaces, file[byte_start:byte_end] (sha256 of nothing for an insertion)."),
    after_checksum: sha256
      .optional()
      .describe("sha256 of the edit's new bytes, UTF-8 of new_content == final_file[new_span.byte_start:new_span.byte_end]."),
    new_span: SpanSchema.optional().describe(
      "Where the new text lies in the FINAL file, line/col of the final file; present for applied edits.",
    ),
    error: DiagnosticSchema.optional().describe("Why this edit was rejected (status error)."),
  })
  .strict();

export const LlmtransformResultSchema = z
  .object({
    type: z.literal("edit"),
    file_path: z.string(),
    original_checksum: sha256.describe("sha256 of the file as read (it matched expected_checksum)."),
    final_checksum: sha256.describe("sha256 of the file after this run (unchanged when nothing was written; predicted in a --dry-run)."),
    total_byte_shift: z.number().int().describe("final size minus original size, over the applied edits."),
    applied_count: uint,
    skipped_count: uint,
    error_count: uint,
    dry_run: z.boolean(),
    written: z.boolean().describe("True when the file on disk was replaced by this run."),
    edits: z.array(LlmtransformEditResultSchema).describe("One entry per requested edit, in request order."),
  })
  .strict();
export type LlmtransformResult = z.infer<typeof LlmtransformResultSchema>;
export type LlmtransformEditResult = z.infer<typeof LlmtransformEditResultSchema>;

export const LlmtransformResponseSchema = operationResultSchema(LlmtransformResultSchema);

export const schemas: Record<string, z.ZodType> = {
  "llmtransform-request": LlmtransformRequestSchema,
  "llmtransform-response": LlmtransformResponseSchema,
};
