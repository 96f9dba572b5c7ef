/**
 * Seed 04's impact payloads as zod shapes: `docdex.impact_graph` (v2), its storage snapshot
 * (impact_graph.json) and `docdex.impact_diagnostics` (v1); plus magellan's `affected` answer
 * (what a diff reaches through the reverse graph). Field names exactly as seed 04 spells them.
 */
import { z } from "zod";
import { queryResponseSchema } from "../schema.js";
import { payloadSchemaMeta } from "./codeintel.js";

const uint = z.number().int().nonnegative();
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

export const ImpactEdgeSchema = z
  .object({
    source: z.string(),
    target: z.string(),
    kind: z.string().optional(),
    /** TypeScript `import type` / `export type … from`: erased at run time. */
    type_only: z.boolean().optional(),
    /** Found through include paths guessed from build files (no compile_commands.json). */
    guessed: z.boolean().optional(),
    /** From docdex.import_map.json or an import trace rather than resolution. */
    hint: z.enum(["import_map", "import_trace"]).optional(),
  })
  .strict();
export type ImpactEdge = z.infer<typeof ImpactEdgeSchema>;

export const ImportDiagnosticsSchema = z
  .object({ unresolvedImportsTotal: uint, unresolvedImportsSample: z.array(z.string()) })
  .strict();

export const ImpactGraphPayloadSchema = z
  .object({
    schema: payloadSchemaMeta("docdex.impact_graph", 2),
    repo_id: sha256Hex,
    source: z.string(),
    inbound: z.array(z.string()),
    outbound: z.array(z.string()),
    edges: z.array(ImpactEdgeSchema),
    truncated: z.boolean().optional(),
    diagnostics: ImportDiagnosticsSchema.optional(),
  })
  .strict();
export type ImpactGraphPayload = z.infer<typeof ImpactGraphPayloadSchema>;

export const ImpactGraphStoreSchema = z
  .object({
    schema: payloadSchemaMeta("docdex.impact_graph", 2),
    repo_id: sha256Hex,
    graphs: z.array(
      z
        .object({
          source: z.string(),
          edges: z.array(ImpactEdgeSchema),
          diagnostics: ImportDiagnosticsSchema.optional(),
        })
        .strict(),
    ),
  })
  .strict();
export type ImpactGraphStore = z.infer<typeof ImpactGraphStoreSchema>;

export const ImpactDiagnosticsPayloadSchema = z
  .object({
    schema: payloadSchemaMeta("docdex.impact_diagnostics", 1),
    repo_id: sha256Hex,
    total: uint,
    limit: uint,
    offset: uint,
    truncated: z.boolean(),
    diagnostics: z.array(z.object({ file: z.string(), diagnostics: ImportDiagnosticsSchema }).strict()),
  })
  .strict();
export type ImpactDiagnosticsPayload = z.infer<typeof ImpactDiagnosticsPayloadSchema>;

export const AffectedPayloadSchema = z
  .object({
    repo_id: sha256Hex,
    since: z.string(),
    changed: z.array(z.string()),
    affected: z.array(
      z
        .object({
          file: z.string(),
          /** 0 for a changed file, else the number of reverse edges from the nearest changed file. */
          depth: uint,
          is_test: z.boolean(),
          symbols: z.array(z.object({ symbol_id: z.string(), name: z.string(), kind: z.string() }).strict()),
        })
        .strict(),
    ),
    tests: z.array(z.string()),
    truncated: z.boolean(),
  })
  .strict();
export type AffectedPayload = z.infer<typeof AffectedPayloadSchema>;

export const schemas: Record<string, z.ZodType> = {
  "codeintel-impact-graph-payload": ImpactGraphPayloadSchema,
  "codeintel-impact-graph-store": ImpactGraphStoreSchema,
  "codeintel-impact-diagnostics-payload": ImpactDiagnosticsPayloadSchema,
  "magellan-impact-response": queryResponseSchema(ImpactGraphPayloadSchema),
  "magellan-impact-diagnostics-response": queryResponseSchema(ImpactDiagnosticsPayloadSchema),
  "magellan-affected-response": queryResponseSchema(AffectedPayloadSchema),
};
