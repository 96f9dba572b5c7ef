/** llmastsearch's output (seed 02 §4 inside the query envelope), as zod. */
import { z } from "zod";
import { queryResponseSchema, SpanSchema } from "../schema.js";

const uint = z.number().int().nonnegative();

export const AstCaptureSchema = z
  .object({ name: z.string(), byte_start: uint, byte_end: uint, content: z.string(), span: SpanSchema })
  .strict();

export const AstMatchSchema = z
  .object({
    match_id: z.string().regex(/^[0-9a-f]{16}$/),
    span: SpanSchema,
    pattern_index: uint,
    captures: z.array(AstCaptureSchema).min(1),
    file_path: z.string(),
    language: z.string(),
    context_before: z.array(z.string()).optional(),
    context_after: z.array(z.string()).optional(),
  })
  .strict();

export const LlmastsearchDataSchema = z
  .object({
    file_path: z.string().optional(),
    language: z.string().optional(),
    query: z.string(),
    matches: z.array(AstMatchSchema),
    match_count: uint,
    total_matches: uint,
    files_searched: uint,
    files_with_matches: uint,
    languages: z.array(z.string()),
  })
  .strict();

export const LlmastsearchResponseSchema = queryResponseSchema(LlmastsearchDataSchema);

export const schemas: Record<string, z.ZodType> = {
  "llmastsearch-response": LlmastsearchResponseSchema,
  "llmastsearch-match": AstMatchSchema,
};
