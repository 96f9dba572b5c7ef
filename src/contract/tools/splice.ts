/**
 * splice's requests and output. The request schemas are what the CLI builds from flags, what
 * `--json` reads from stdin, what a batch plan's steps are and what the MCP server exposes.
 */
import { z } from "zod";
import { DiagnosticSchema, SpanSchema, operationResultSchema } from "../schema.js";
import { LlmfilewriteCheckerSchema, LlmfilewriteDiagnosticSchema } from "./llmfilewrite.js";

const sel = {
  file: z.string().optional(),
  symbol: z.string().optional(),
  symbol_id: z.string().optional(),
  kind: z.string().optional(),
};

export const PatchStepSchema = z.object({ command: z.literal("patch"), ...sel, content: z.string(), body: z.boolean().optional() }).strict();
export const InsertStepSchema = z
  .object({ command: z.literal("insert"), file: z.string().optional(), before_symbol: z.string().optional(), after_symbol: z.string().optional(), symbol_id: z.string().optional(), kind: z.string().optional(), content: z.string() })
  .strict();
export const DeleteStepSchema = z.object({ command: z.literal("delete"), ...sel, force: z.boolean().optional() }).strict();
export const RenameStepSchema = z.object({ command: z.literal("rename"), ...sel, to: z.string(), allow_heuristic: z.boolean().optional() }).strict();
export const EditStepSchema = z.object({ command: z.literal("edit"), file: z.string(), old: z.string(), new: z.string(), symbol: z.string().optional(), symbol_id: z.string().optional(), kind: z.string().optional() }).strict();
export const ApplyFilesStepSchema = z
  .object({ command: z.literal("apply-files"), glob: z.string(), find: z.string(), replace: z.string(), regex: z.boolean().optional(), include_comments_strings: z.boolean().optional() })
  .strict();

export const StepSchema = z.discriminatedUnion("command", [PatchStepSchema, InsertStepSchema, DeleteStepSchema, RenameStepSchema, EditStepSchema, ApplyFilesStepSchema]);
export type PatchStep = z.infer<typeof PatchStepSchema>;
export type InsertStep = z.infer<typeof InsertStepSchema>;
export type DeleteStep = z.infer<typeof DeleteStepSchema>;
export type RenameStep = z.infer<typeof RenameStepSchema>;
export type EditStep = z.infer<typeof EditStepSchema>;
export type ApplyFilesStep = z.infer<typeof ApplyFilesStepSchema>;
export type Step = z.infer<typeof StepSchema>;

/** What every mutation accepts beside its step(s). */
const mutation = {
  root: z.string().optional(),
  dry_run: z.boolean().optional(),
  expected_checksum: z.array(z.string()).optional(),
  require_checker: z.boolean().optional(),
  timeout_ms: z.number().int().positive().optional(),
};

export const BatchRequestSchema = z.object({ command: z.literal("batch"), steps: z.array(StepSchema).min(1), ...mutation }).strict();
export const MutationRequestSchema = z.union([
  BatchRequestSchema,
  PatchStepSchema.extend(mutation),
  InsertStepSchema.extend(mutation),
  DeleteStepSchema.extend(mutation),
  RenameStepSchema.extend(mutation),
  EditStepSchema.extend(mutation),
  ApplyFilesStepSchema.extend(mutation),
]);
export type MutationRequest = z.infer<typeof MutationRequestSchema>;
export type BatchRequest = z.infer<typeof BatchRequestSchema>;

export const UndoRequestSchema = z.object({ command: z.literal("undo"), root: z.string().optional(), operation_id: z.string().optional(), last: z.boolean().optional() }).strict();
export const LogRequestSchema = z.object({ command: z.literal("log"), root: z.string().optional(), limit: z.number().int().positive().optional() }).strict();
export const RecoverRequestSchema = z.object({ command: z.literal("recover"), root: z.string().optional() }).strict();

const uint = z.number().int().nonnegative();
const sha = z.string().regex(/^sha256:[0-9a-f]{64}$/);

export const SpliceFileSchema = z
  .object({
    file_path: z.string(),
    before_checksum: sha.nullable(),
    after_checksum: sha.nullable(),
    lines_added: uint,
    lines_removed: uint,
    changed_spans: z.array(SpanSchema),
  })
  .strict();

/** The validation gates' finding and checker run, as llmfilewrite reports them (pre_existing optional here). */
export const SpliceValidationDiagnosticSchema = LlmfilewriteDiagnosticSchema.extend({ pre_existing: z.boolean().optional() }).passthrough();

export const CheckerRunSchema = LlmfilewriteCheckerSchema.passthrough();

export const SpliceResultSchema = z
  .object({
    type: z.string(),
    operation_id: z.string().optional(),
    dry_run: z.boolean(),
    written: z.boolean(),
    validation: z.enum(["validated", "unchecked", "rejected", "not_needed"]),
    files: z.array(SpliceFileSchema),
    checkers: z.array(CheckerRunSchema),
    introduced: z.array(SpliceValidationDiagnosticSchema),
    pre_existing_count: uint,
    steps: z.array(z.record(z.string(), z.unknown())),
    diff: z.string().optional(),
    duration_ms: z.record(z.string(), z.number()).optional(),
  })
  .passthrough();

export const SpliceLogResultSchema = z
  .object({
    type: z.literal("log"),
    operations: z.array(z.object({ operation_id: z.string(), time: z.string(), tool: z.string(), command: z.string(), files: z.array(z.string()), status: z.string() }).passthrough()),
  })
  .strict();

export const SpliceUndoResultSchema = z
  .object({
    type: z.literal("undo"),
    operation_id: z.string(),
    files: z.array(z.object({ file_path: z.string(), before_checksum: z.string().nullable(), after_checksum: z.string().nullable() }).strict()),
  })
  .strict();

export const SpliceResponseSchema = operationResultSchema(z.union([SpliceResultSchema, SpliceLogResultSchema, SpliceUndoResultSchema, z.object({ type: z.string() }).passthrough()]));

export const schemas: Record<string, z.ZodType> = {
  "splice-step": StepSchema,
  "splice-request": MutationRequestSchema,
  "splice-result": SpliceResultSchema,
  "splice-undo-result": SpliceUndoResultSchema,
  "splice-response": SpliceResponseSchema,
};
export { DiagnosticSchema };
