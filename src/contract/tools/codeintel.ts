/**
 * Seed 04's code-intelligence payloads (`docdex.symbols`, `docdex.ast`, `docdex.ast_query`) as
 * zod shapes. They travel inside the query envelope's `data` (CONTRACT.md), field names exactly
 * as seed 04 spells them — including ast_query's camelCase (`repoId`, `sampleLimit`, ...).
 */
import { z } from "zod";
import { queryResponseSchema } from "../schema.js";

const uint = z.number().int().nonnegative();
const posInt = z.number().int().positive();
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** Seed 04: every payload names its family and the versions it is compatible with. */
export function payloadSchemaMeta<N extends string>(name: N, version: number) {
  return z
    .object({
      name: z.literal(name),
      version: z.literal(version),
      compatible: z.object({ min: posInt, max: posInt }).strict(),
    })
    .strict();
}

/** 1-based positions (seed 04): lines and columns both count from 1; columns are byte columns. */
export const CodeIntelRangeSchema = z
  .object({ start_line: posInt, start_col: posInt, end_line: posInt, end_col: posInt })
  .strict();

export const OutcomeSchema = z
  .object({
    status: z.enum(["ok", "skipped", "failed"]),
    reason: z.string().optional(),
    error_summary: z.string().max(500).optional(),
  })
  .strict();

export const CodeIntelSymbolSchema = z
  .object({
    symbol_id: z.string(),
    name: z.string(),
    kind: z.string(),
    range: CodeIntelRangeSchema,
    signature: z.string().optional(),
  })
  .strict();

export const SymbolsPayloadSchema = z
  .object({
    schema: payloadSchemaMeta("docdex.symbols", 1),
    repo_id: sha256Hex,
    file: z.string(),
    symbols: z.array(CodeIntelSymbolSchema),
    outcome: OutcomeSchema.optional(),
  })
  .strict();
export type SymbolsPayload = z.infer<typeof SymbolsPayloadSchema>;

export const AstNodeSchema = z
  .object({
    id: uint,
    parent_id: uint.optional(),
    kind: z.string(),
    field: z.string().optional(),
    name: z.string().optional(),
    is_named: z.boolean(),
    /**
     * Present (true) on a node tree-sitter inserted to recover from a syntax error (its `isMissing`):
     * a zero-width token or name the file does not contain, where the parser expected one.
     */
    is_missing: z.literal(true).optional(),
    range: CodeIntelRangeSchema,
    /** Beside the payload's 1-based range: the node's UTF-8 byte offsets in the file as stored (end exclusive). */
    byte_start: uint,
    byte_end: uint,
  })
  .strict();
export type AstNode = z.infer<typeof AstNodeSchema>;

export const AstPayloadSchema = z
  .object({
    schema: payloadSchemaMeta("docdex.ast", 1),
    repo_id: sha256Hex,
    file: z.string(),
    language: z.string().optional(),
    nodes: z.array(AstNodeSchema),
    total_nodes: uint,
    truncated: z.boolean(),
    outcome: OutcomeSchema.optional(),
  })
  .strict();
export type AstPayload = z.infer<typeof AstPayloadSchema>;

export const AstQueryMatchSchema = z
  .object({ file: z.string(), matchCount: posInt, samples: z.array(AstNodeSchema) })
  .strict();

export const AstQueryPayloadSchema = z
  .object({
    schema: payloadSchemaMeta("docdex.ast_query", 1),
    repoId: sha256Hex,
    kinds: z.array(z.string()).min(1),
    mode: z.enum(["any", "all"]),
    limit: posInt,
    sampleLimit: posInt,
    truncated: z.boolean(),
    matches: z.array(AstQueryMatchSchema),
    name: z.string().optional(),
    field: z.string().optional(),
    pathPrefix: z.string().optional(),
  })
  .strict();
export type AstQueryPayload = z.infer<typeof AstQueryPayloadSchema>;

export const MagellanSymbolsResponseSchema = queryResponseSchema(SymbolsPayloadSchema);
export const MagellanAstResponseSchema = queryResponseSchema(AstPayloadSchema);
export const MagellanAstQueryResponseSchema = queryResponseSchema(AstQueryPayloadSchema);

export const schemas: Record<string, z.ZodType> = {
  "codeintel-symbols-payload": SymbolsPayloadSchema,
  "codeintel-ast-payload": AstPayloadSchema,
  "codeintel-ast-query-payload": AstQueryPayloadSchema,
  "magellan-symbols-response": MagellanSymbolsResponseSchema,
  "magellan-ast-response": MagellanAstResponseSchema,
  "magellan-ast-query-response": MagellanAstQueryResponseSchema,
};
