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
    /**
     * `sha256:<hex>` of the whole file the match is in, as read: llmtransform's expected_checksum,
     * so the span can be edited without reading the file again. Absent for a binary file, of
     * which only the lines before the NUL byte were read.
     */
    file_checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional(),
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

/**
 * --count (-c) / --count-matches: per file, as ripgrep counts them, only files with at least one,
 * in path order.
 */
export const LlmsearchCountDataSchema = z
  .object({
    pattern: z.string(),
    /** What `count` and `total_count` count: lines a match starts on (-c), or matches (--count-matches). */
    count_of: z.enum(["lines", "matches"]),
    counts: z.array(z.object({ file_path: z.string(), count: z.number().int().positive() }).strict()),
    /** Files listed in `counts`. */
    files_matched: uint,
    /** The sum of `counts`. */
    total_count: uint,
    files_searched: uint,
    files_skipped: z.array(LlmsearchSkipSchema),
  })
  .strict();
export type LlmsearchCountData = z.infer<typeof LlmsearchCountDataSchema>;

/** -l/--files-with-matches: the files with at least one match, in path order, with their checksum. */
export const LlmsearchFilesWithMatchesDataSchema = z
  .object({
    pattern: z.string(),
    files: z.array(z.object({ file_path: z.string(), count: z.number().int().positive(), checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional() }).strict()),
    files_matched: uint,
    total_count: uint,
    files_searched: uint,
    files_skipped: z.array(LlmsearchSkipSchema),
  })
  .strict();
export type LlmsearchFilesWithMatchesData = z.infer<typeof LlmsearchFilesWithMatchesDataSchema>;

/** --files-without-match (rg's): the searched files without a match, in path order (skipped files are in files_skipped, not here). */
export const LlmsearchFilesWithoutMatchDataSchema = z
  .object({
    pattern: z.string(),
    files_without_match: z.array(z.string()),
    file_count: uint,
    files_searched: uint,
    files_skipped: z.array(LlmsearchSkipSchema),
  })
  .strict();
export type LlmsearchFilesWithoutMatchData = z.infer<typeof LlmsearchFilesWithoutMatchDataSchema>;

/** --files: the files a search would read (walk, ignore rules, globs, types), no pattern. */
export const LlmsearchFileListDataSchema = z.object({ files: z.array(z.string()), file_count: uint }).strict();
export type LlmsearchFileListData = z.infer<typeof LlmsearchFileListDataSchema>;

/** --type-list: ripgrep's file types with this run's --type-add definitions, by name, each glob list sorted. */
export const LlmsearchTypeListDataSchema = z
  .object({ types: z.array(z.object({ name: z.string(), globs: z.array(z.string()) }).strict()), type_count: uint })
  .strict();
export type LlmsearchTypeListData = z.infer<typeof LlmsearchTypeListDataSchema>;

export const LlmsearchResponseSchema = queryResponseSchema(LlmsearchDataSchema);
export const LlmsearchTypeListResponseSchema = queryResponseSchema(LlmsearchTypeListDataSchema);
export const LlmsearchFilesWithoutMatchResponseSchema = queryResponseSchema(LlmsearchFilesWithoutMatchDataSchema);
export const LlmsearchFilesWithMatchesResponseSchema = queryResponseSchema(LlmsearchFilesWithMatchesDataSchema);
export const LlmsearchFileListResponseSchema = queryResponseSchema(LlmsearchFileListDataSchema);
export const LlmsearchCountResponseSchema = queryResponseSchema(LlmsearchCountDataSchema);

export const schemas: Record<string, z.ZodType> = {
  "llmsearch-data": LlmsearchDataSchema,
  "llmsearch-count-data": LlmsearchCountDataSchema,
  "llmsearch-response": LlmsearchResponseSchema,
  "llmsearch-count-response": LlmsearchCountResponseSchema,
  "llmsearch-files-with-matches-response": LlmsearchFilesWithMatchesResponseSchema,
  "llmsearch-file-list-response": LlmsearchFileListResponseSchema,
  "llmsearch-type-list-response": LlmsearchTypeListResponseSchema,
  "llmsearch-files-without-match-response": LlmsearchFilesWithoutMatchResponseSchema,
};
