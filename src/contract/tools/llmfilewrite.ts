/** llmfilewrite's output (seed 02 §6): an OperationResult whose result is a `create`. */
import { z } from "zod";
import { operationResultSchema } from "../schema.js";

const uint = z.number().int().nonnegative();

/** One finding of a validation gate. Positions are present when the checker located it in `file`. */
export const LlmfilewriteDiagnosticSchema = z
  .object({
    level: z.enum(["error", "warning", "note"]),
    message: z.string(),
    file: z.string(),
    start_line: uint.optional(),
    start_col: uint.optional(),
    end_line: uint.optional(),
    end_col: uint.optional(),
    byte_start: uint.optional(),
    byte_end: uint.optional(),
    code: z.string(),
    source: z.string(),
    pre_existing: z.boolean(),
  })
  .strict();

/** One language's checker in the validation of the file: what ran, or why it did not. */
export const LlmfilewriteCheckerSchema = z
  .object({
    language: z.string(),
    checker: z.string(),
    version: z.string().optional(),
    status: z.enum(["ran", "absent", "failed", "timeout"]),
    reason: z.string().optional(),
  })
  .strict();

export const LlmfilewriteResultSchema = z
  .object({
    type: z.literal("create"),
    path: z.string(),
    language: z.string(),
    /** validated: the language's checker ran and nothing new is wrong; unchecked: it could not run (syntax only), left the file out, ran without the project's configuration or its declared dependencies; rejected. */
    validation: z.enum(["validated", "unchecked", "rejected"]),
    checkers: z.array(LlmfilewriteCheckerSchema),
    lsp_used: z.string(),
    checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    diagnostics: z.array(LlmfilewriteDiagnosticSchema),
    checkers_run: z.array(z.string()),
    written: z.boolean(),
    overwritten: z.boolean(),
    dry_run: z.boolean(),
    previous_checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional(),
    removed_temps: z.array(z.string()).optional(),
  })
  .strict();

export const LlmfilewriteResponseSchema = operationResultSchema(LlmfilewriteResultSchema);

export const schemas: Record<string, z.ZodType> = {
  "llmfilewrite-diagnostic": LlmfilewriteDiagnosticSchema,
  "llmfilewrite-checker": LlmfilewriteCheckerSchema,
  "llmfilewrite-result": LlmfilewriteResultSchema,
  "llmfilewrite-response": LlmfilewriteResponseSchema,
};
