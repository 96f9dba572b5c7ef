/**
 * mdsel's wire shapes: seed 05's CLIResponse envelope with CONTRACT.md's `schema_version`,
 * `execution_id` and `tool` in front. ErrorEntry keeps seed 05's own shape (with
 * `suggestions`); every node additionally carries its CONTRACT.md Span.
 */
import { z } from "zod";
import { SpanSchema } from "../schema.js";

const semver = z.string().regex(/^\d+\.\d+\.\d+$/);
const rfc3339utc = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
const uuidV4 = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
const uint = z.number().int().nonnegative();

export const MdselErrorTypeSchema = z.enum([
  "FILE_NOT_FOUND",
  "PARSE_ERROR",
  "INVALID_SELECTOR",
  "SELECTOR_NOT_FOUND",
  "NAMESPACE_NOT_FOUND",
  "PROCESSING_ERROR",
]);

/** seed 05 ErrorEntry, plus `position` (the fault inside the selector) and `remediation`. */
export const MdselErrorEntrySchema = z
  .object({
    file: z.string().optional(),
    selector: z.string().optional(),
    type: MdselErrorTypeSchema,
    message: z.string(),
    code: z.string().regex(/^MDSEL_E\d{3}$/),
    suggestions: z.array(z.string()).max(5).optional(),
    /** 0-based character offsets [start, end) of the fault inside `selector`. */
    position: z.object({ start: uint, end: uint }).strict().optional(),
    remediation: z.string().optional(),
  })
  .strict();

export const MdselNodeDescriptorSchema = z
  .object({
    selector: z.string(),
    type: z.string(),
    content_preview: z.string().max(80),
    truncated: z.boolean(),
    children_count: uint,
    word_count: uint,
    span: SpanSchema,
  })
  .strict();

export const MdselHeadingDescriptorSchema = z
  .object({
    selector: z.string(),
    type: z.string().regex(/^heading:h[1-6]$/),
    depth: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)]),
    text: z.string(),
    content_preview: z.string().max(80),
    truncated: z.boolean(),
    children_count: uint,
    word_count: uint,
    section_word_count: uint,
    section_truncated: z.boolean(),
    /** The whole section (what `select` of this selector returns with ?full=true). */
    span: SpanSchema,
  })
  .strict();

export const MdselBlockSummarySchema = z
  .object({ paragraphs: uint, code_blocks: uint, lists: uint, tables: uint, blockquotes: uint })
  .strict();

export const MdselDocumentIndexSchema = z
  .object({
    namespace: z.string(),
    file_path: z.string(),
    root: MdselNodeDescriptorSchema.nullable(),
    headings: z.array(MdselHeadingDescriptorSchema),
    blocks: MdselBlockSummarySchema,
  })
  .strict();

export const MdselIndexResponseSchema = z
  .object({
    documents: z.array(MdselDocumentIndexSchema),
    summary: z.object({ total_documents: uint, total_nodes: uint, total_selectors: uint }).strict(),
  })
  .strict();

export const MdselPaginationSchema = z
  .object({ current_page: uint, total_pages: uint, word_count: uint, has_more: z.boolean() })
  .strict();

export const MdselChildInfoSchema = z
  .object({ selector: z.string(), type: z.string(), preview: z.string().max(80), span: SpanSchema })
  .strict();

export const MdselSelectMatchSchema = z
  .object({
    selector: z.string(),
    type: z.string(),
    content: z.string(),
    truncated: z.boolean(),
    pagination: MdselPaginationSchema.optional(),
    children_available: z.array(MdselChildInfoSchema),
    /** The bytes `content` was taken from (the whole node when truncated, the page for page[i]). */
    span: SpanSchema,
  })
  .strict();

export const MdselUnresolvedSchema = z
  .object({ selector: z.string(), reason: z.string(), suggestions: z.array(z.string()).max(5) })
  .strict();

export const MdselSelectResponseSchema = z
  .object({ matches: z.array(MdselSelectMatchSchema), unresolved: z.array(MdselUnresolvedSchema) })
  .strict();

/** `command` is `mdsel` only when argv named no valid subcommand (a usage error). */
export const MdselCommandSchema = z.enum(["index", "select", "mdsel"]);

function envelope<D extends z.ZodType, P extends z.ZodType>(command: z.ZodType, data: D, partial: P) {
  return z
    .object({
      schema_version: semver,
      execution_id: uuidV4,
      tool: z.literal("mdsel"),
      success: z.boolean(),
      command,
      timestamp: rfc3339utc,
      data: data.nullable(),
      partial_results: z.array(partial).optional(),
      unresolved_selectors: z.array(z.string()).optional(),
      warnings: z.array(z.string()).optional(),
      errors: z.array(MdselErrorEntrySchema).optional(),
    })
    .strict();
}

export const MdselIndexEnvelopeSchema = envelope(z.literal("index"), MdselIndexResponseSchema, MdselDocumentIndexSchema);
export const MdselSelectEnvelopeSchema = envelope(z.literal("select"), MdselSelectResponseSchema, MdselSelectMatchSchema);
/** Any mdsel output, including usage errors (data null). */
export const MdselEnvelopeSchema = z.union([
  MdselIndexEnvelopeSchema,
  MdselSelectEnvelopeSchema,
  envelope(MdselCommandSchema, z.null(), z.unknown()),
]);

export type MdselErrorEntry = z.infer<typeof MdselErrorEntrySchema>;
export type MdselNodeDescriptor = z.infer<typeof MdselNodeDescriptorSchema>;
export type MdselHeadingDescriptor = z.infer<typeof MdselHeadingDescriptorSchema>;
export type MdselDocumentIndex = z.infer<typeof MdselDocumentIndexSchema>;
export type MdselIndexResponse = z.infer<typeof MdselIndexResponseSchema>;
export type MdselSelectMatch = z.infer<typeof MdselSelectMatchSchema>;
export type MdselSelectResponse = z.infer<typeof MdselSelectResponseSchema>;
export type MdselChildInfo = z.infer<typeof MdselChildInfoSchema>;
export type MdselUnresolved = z.infer<typeof MdselUnresolvedSchema>;

export const schemas: Record<string, z.ZodType> = {
  "mdsel-error-entry": MdselErrorEntrySchema,
  "mdsel-index-response": MdselIndexEnvelopeSchema,
  "mdsel-select-response": MdselSelectEnvelopeSchema,
  "mdsel-response": MdselEnvelopeSchema,
};
