/**
 * llmsearch's data shapes (seed 02 §3 plus issue 2 §4): one match per regex hit with its exact
 * byte span, or, with --count, one count per file.
 */
import { z } from "zod";
import { queryResponseSchema, SpanSchema } from "../schema.js";

const uint = z.number().int().nonnegative();
const hex16 = z.string().regex(/^[0-9a-f]{16}$/);

export const LlmsearchMatchSchema = z
  .object({
    match_id: hex16,
    span: SpanSchema,
    /** The matched bytes as text (invalid UTF-8 shown as U+FFFD; the span stays exact). */
    matched_text: z.string(),
    /** Up to --before/--context lines before the match's first line, without terminators. */
    context_before: z.array(z.string()),
    /** Up to --after/--context lines after the match's last line, without terminators. */
    context_after: z.array(z.string()),
  })
  .strict();
export type LlmsearchMatch = z.infer<typeof LlmsearchMatchSchema>;

/** A file the walk offered but the search did not read through, and why. */
export const LlmsearchSkipSchema = z
  .object({
    file_path: z.string(),
    reason: z.enum(["binary", "too_large", "unreadable", "timeout"]),
    detail: z.string(),
  })
  .strict();
export type LlmsearchSkip = z.infer<typeof LlmsearchSkipSchema>;

export const LlmsearchDataSchema = z
  .object({
    pattern: z.string(),
    matches: z.array(LlmsearchMatchSchema),
    /** Matches in `matches` (after --limit). */
    match_count: uint,
    /** Matches found in all searched files (before --limit). */
    total_count: uint,
    files_searched: uint,
    files_skipped: z.array(LlmsearchSkipSchema),
  })
  .strict();
export type LlmsearchData = z.infer<typeof LlmsearchDataSchema>;

/** --count: matches per file, only files with at least one, in path order. */
export const LlmsearchCountDataSchema = z
  .object({
    pattern: z.string(),
    counts: z.array(z.object({ file_path: z.string(), count: z.number().int().positive() }).strict()),
    /** Files listed in `counts`. */
    files_matched: uint,
    total_count: uint,
    files_searched: uint,
    files_skipped: z.array(LlmsearchSkipSchema),
  })
  .strict();
export type LlmsearchCountData = z.infer<typeof LlmsearchCountDataSchema>;

export const LlmsearchResponseSchema = queryResponseSchema(LlmsearchDataSchema);
export const LlmsearchCountResponseSchema = queryResponseSchema(LlmsearchCountDataSchema);

export const schemas: Record<string, z.ZodType> = {
  "llmsearch-data": LlmsearchDataSchema,
  "llmsearch-count-data": LlmsearchCountDataSchema,
  "llmsearch-response": LlmsearchResponseSchema,
  "llmsearch-count-response": LlmsearchCountResponseSchema,
};
