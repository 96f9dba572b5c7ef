/**
 * The wire contract (../shared/CONTRACT.md, seeds 01–03) as zod schemas: the one source of
 * truth for every shape a tool prints. `schemas/*.json` are generated from here.
 */
import { z } from "zod";

const hex16 = z.string().regex(/^[0-9a-f]{16}$/);
const uint = z.number().int().nonnegative();

/** Always these eight fields, in this order (CONTRACT.md). */
export const SpanSchema = z
  .object({
    span_id: hex16,
    file_path: z.string(),
    byte_start: uint,
    byte_end: uint,
    start_line: uint,
    start_col: uint,
    end_line: uint,
    end_col: uint,
  })
  .strict();
export type Span = z.infer<typeof SpanSchema>;

export const DiagnosticLevelSchema = z.enum(["error", "warning", "note"]);

export const DiagnosticSchema = z
  .object({
    tool: z.string(),
    level: DiagnosticLevelSchema,
    message: z.string(),
    file: z.string().optional(),
    span: SpanSchema.optional(),
    code: z.string().regex(/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/),
    note: z.string().optional(),
    remediation: z.string().optional(),
  })
  .strict();
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/** seed 01's ErrorResponse; `span` is null when the error has no location (as the seed shows). */
export const ErrorResponseSchema = z
  .object({
    code: z.string(),
    error: z.string(),
    message: z.string(),
    span: SpanSchema.nullable(),
    remediation: z.string(),
  })
  .strict();
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

export const MatchSchema = z
  .object({
    match_id: hex16,
    span: SpanSchema,
    content: z.string(),
    kind: z.string().optional(),
    parent: z.string().optional(),
    symbol_id: hex16.optional(),
  })
  .strict();

export const SymbolMatchSchema = z
  .object({
    match_id: hex16,
    span: SpanSchema,
    name: z.string(),
    kind: z.string(),
    parent: z.string().optional(),
    symbol_id: hex16.optional(),
  })
  .passthrough();
export type SymbolMatch = z.infer<typeof SymbolMatchSchema>;

export const ReferenceMatchSchema = z
  .object({
    match_id: z.string(),
    span: SpanSchema,
    referenced_symbol: z.string(),
    reference_kind: z.string().optional(),
    target_symbol_id: hex16.optional(),
  })
  .passthrough();
export type ReferenceMatch = z.infer<typeof ReferenceMatchSchema>;

const semver = z.string().regex(/^\d+\.\d+\.\d+$/);
const rfc3339utc = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
const uuidV4 = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

/** Query tools: seed 01's JsonResponse plus `command` and `diagnostics` (CONTRACT.md). */
export function queryResponseSchema<T extends z.ZodType>(data: T) {
  return z
    .object({
      schema_version: semver,
      execution_id: uuidV4,
      tool: z.string(),
      command: z.string(),
      timestamp: rfc3339utc,
      partial: z.boolean(),
      data,
      diagnostics: z.array(DiagnosticSchema).optional(),
    })
    .strict();
}

export const OperationStatusSchema = z.enum(["ok", "error", "partial", "approved", "rejected"]);

/** Mutation tools: seed 02's OperationResult (CONTRACT.md). */
export function operationResultSchema<T extends z.ZodType>(result: T) {
  return z
    .object({
      schema_version: semver,
      execution_id: uuidV4,
      tool: z.string(),
      operation_type: z.string(),
      status: OperationStatusSchema,
      message: z.string(),
      timestamp: rfc3339utc,
      workspace: z.string().optional(),
      result: result.optional(),
      error: DiagnosticSchema.optional(),
      diagnostics: z.array(DiagnosticSchema).optional(),
    })
    .strict();
}

/** The envelope of a failed query command: ErrorResponse in `data`. */
export const QueryErrorResponseSchema = queryResponseSchema(ErrorResponseSchema);
