/**
 * magellan's response shapes (seed 01's response types, CONTRACT.md's envelope). Each command
 * prints `queryResponseSchema(<its data>)`.
 */
import { z } from "zod";
import { queryResponseSchema, ReferenceMatchSchema, SpanSchema, SymbolMatchSchema } from "../schema.js";

const hex16 = z.string().regex(/^[0-9a-f]{16}$/);
const uint = z.number().int().nonnegative();
const checksum = z.string().regex(/^sha256:[0-9a-f]{64}$/);

export const SpanContextSchema = z.object({ before: z.array(z.string()), selected: z.array(z.string()), after: z.array(z.string()) }).strict();
export const SpanChecksumsSchema = z.object({ checksum_before: checksum, file_checksum_before: checksum }).strict();
/** A call site (its Span) and the symbol at the other end: the caller for callers, the callee for callees. */
const RelatedSchema = z.object({ symbol: z.string(), symbol_id: hex16.optional(), resolution: z.string().optional(), span: SpanSchema }).strict();
export const SpanRelationshipsSchema = z
  .object({ callers: z.array(RelatedSchema), callees: z.array(RelatedSchema), imports: z.array(z.string()), exports: z.array(z.string()) })
  .strict();

const rich = {
  context: SpanContextSchema.optional(),
  checksums: SpanChecksumsSchema.optional(),
  relationships: SpanRelationshipsSchema.optional(),
};

export const MagellanSymbolMatchSchema = SymbolMatchSchema.extend({
  symbol_id: hex16,
  kind_normalized: z.string(),
  language: z.string(),
  canonical_fqn: z.string(),
  display_fqn: z.string(),
  name_span: SpanSchema,
  parent_symbol_id: hex16.optional(),
  flags: z.array(z.string()).optional(),
  /** Java and C++ functions, methods and constructors: the arguments a call may pass (`2`, `1-3`, `2+`). */
  arity: z.string().optional(),
  ...rich,
}).strict();

/** How a reference was tied to its target: `compiler` when the TypeScript language service said so (--precise). */
export const ResolutionSchema = z.enum(["compiler", "exact", "imported", "heuristic", "ambiguous", "unresolved"]);

export const MagellanReferenceMatchSchema = ReferenceMatchSchema.extend({
  resolution: ResolutionSchema,
  candidates: z.array(hex16).optional(),
  qualifier: z.string().optional(),
  caller: z.string().optional(),
  caller_symbol_id: hex16.optional(),
  target_display_fqn: z.string().optional(),
  ...rich,
}).strict();

const SkippedSchema = z.object({ path: z.string(), reason: z.string(), detail: z.string() }).strict();

export const IndexResponseSchema = z
  .object({
    root: z.string(),
    db_path: z.string(),
    mode: z.enum(["full", "incremental", "rebuild"]),
    files_scanned: uint,
    files_indexed: uint,
    files_unchanged: uint,
    files_removed: uint,
    files_skipped: uint,
    skipped: z.array(SkippedSchema),
    parse_recovered: z.array(z.string()),
    references_resolved: uint,
    files: uint,
    symbols: uint,
    references: uint,
    calls: uint,
    duration_ms: uint,
  })
  .strict();

export const WatchEventSchema = z
  .object({
    event: z.enum(["ready", "indexed", "error", "stopped"]),
    root: z.string(),
    db_path: z.string(),
    changed_paths: z.array(z.string()),
    removed_paths: z.array(z.string()),
    files_indexed: uint,
    files_removed: uint,
    files_skipped: uint,
    duration_ms: uint,
    cycles: uint,
  })
  .strict();

export const StatusResponseSchema = z
  .object({
    files: uint,
    symbols: uint,
    references: uint,
    calls: uint,
    code_chunks: uint,
    db_schema_version: uint,
    last_index_time: z.string().optional(),
    stale_files: uint,
    missing_files: uint,
    root: z.string(),
    db_path: z.string(),
    languages: z.record(z.string(), uint),
    resolution: z.record(z.string(), uint),
  })
  .strict();

export const QueryResponseSchema = z
  .object({ symbols: z.array(MagellanSymbolMatchSchema), file_path: z.string(), kind_filter: z.string().optional() })
  .strict();

export const FindResponseSchema = z
  .object({
    matches: z.array(MagellanSymbolMatchSchema),
    query_name: z.string().optional(),
    symbol_id: hex16.optional(),
    file_filter: z.string().optional(),
    kind_filter: z.string().optional(),
    match_mode: z.enum(["exact", "prefix", "substring", "fuzzy"]),
    count: uint,
  })
  .strict();

export const RefsResponseSchema = z
  .object({
    references: z.array(MagellanReferenceMatchSchema),
    symbol_name: z.string(),
    symbol_ids: z.array(hex16),
    file_path: z.string().optional(),
    direction: z.enum(["in", "out"]),
    reference_kinds: z.array(z.string()).optional(),
    /** References listed (after --limit; over MCP, on this page). */
    count: uint,
    /** References found (before --limit). */
    total_count: uint,
    /** References the graph could not tie to one symbol: named like it (in) or made from it (out). */
    unresolved: z
      .object({
        count: uint,
        by_reason: z.partialRecord(z.enum(["unresolved_import", "dynamic_receiver", "ambiguous_candidates", "no_definition_in_reach"]), uint),
        samples: z.array(
          z
            .object({ span: SpanSchema, name: z.string(), reference_kind: z.string(), reason: z.string(), qualifier: z.string().optional(), caller: z.string().optional() })
            .strict(),
        ),
      })
      .strict(),
    /** resolved / (resolved + ambiguous + unresolved): how much of the question the answer covers. */
    coverage: z.object({ resolved: uint, ambiguous: uint, unresolved: uint, ratio: z.number().min(0).max(1) }).strict(),
    /**
     * Direction in, for a method: the methods it overrides or implements (by its class's base
     * names), each with the references tied to it, and `ambiguous`: the ambiguous references
     * that name it among their candidates (when there are any). A call through the base type may
     * run this method (virtual dispatch); those calls are not among `references`.
     */
    overrides: z.array(z.object({ symbol_id: hex16, display_fqn: z.string(), references: uint, ambiguous: uint.optional() }).strict()).optional(),
    /** Direction in, for a method: the methods that override or implement it, each with the references tied to it (and `ambiguous` as in overrides). */
    overridden_by: z.array(z.object({ symbol_id: hex16, display_fqn: z.string(), references: uint, ambiguous: uint.optional() }).strict()).optional(),
    /** The other half of a C++ function declared in its class and defined outside it, or a Python definition's other platform variants, whose references are listed too. */
    same_function: z
      .array(z.object({ symbol_id: hex16, display_fqn: z.string(), path: z.string(), line: uint, declaration: z.boolean(), references: uint }).strict())
      .optional(),
    /**
     * --precise (default in the daemon and the MCP server): whether the TypeScript language service
     * answered (`answered`), or was wanted but still building (`warming`) or dead (`unavailable`), the
     * answer then being the index's; the references asked of it, and what it said.
     */
    precise: z.object({ status: z.enum(["answered", "warming", "unavailable"]), asked: uint, compiler: uint, rejected: uint, external: uint, no_answer: uint }).strict().optional(),
  })
  .strict();

export const FilesResponseSchema = z
  .object({ files: z.array(z.string()), symbol_counts: z.record(z.string(), uint).optional() })
  .strict();

const ValidationItemSchema = z
  .object({ code: z.string(), message: z.string(), entity_id: z.string(), details: z.record(z.string(), z.unknown()) })
  .strict();
export const ValidationResponseSchema = z
  .object({
    passed: z.boolean(),
    error_count: uint,
    errors: z.array(ValidationItemSchema),
    warning_count: uint,
    warnings: z.array(ValidationItemSchema),
  })
  .strict();

export const FileExportSchema = z.object({ path: z.string(), hash: checksum }).strict();
const pos = { byte_start: uint, byte_end: uint, start_line: uint, start_col: uint, end_line: uint, end_col: uint };
export const SymbolExportSchema = z
  .object({
    symbol_id: hex16,
    canonical_fqn: z.string(),
    display_fqn: z.string(),
    name: z.string(),
    kind: z.string(),
    kind_normalized: z.string(),
    file: z.string(),
    parent: z.string().optional(),
    ...pos,
  })
  .strict();
export const ReferenceExportSchema = z
  .object({
    file: z.string(),
    referenced_symbol: z.string(),
    reference_kind: z.string(),
    target_symbol_id: hex16.optional(),
    resolution: ResolutionSchema,
    candidates: z.array(hex16).optional(),
    ...pos,
  })
  .strict();
export const CallExportSchema = z
  .object({
    file: z.string(),
    caller: z.string(),
    callee: z.string(),
    caller_symbol_id: hex16,
    callee_symbol_id: hex16.optional(),
    resolution: ResolutionSchema,
    ...pos,
  })
  .strict();
export const CollisionExportSchema = z
  .object({
    field: z.string(),
    value: z.string(),
    count: uint,
    candidates: z.array(
      z
        .object({ entity_id: uint, symbol_id: hex16, canonical_fqn: z.string(), display_fqn: z.string(), name: z.string(), file_path: z.string() })
        .strict(),
    ),
  })
  .strict();
export const GraphExportSchema = z
  .object({
    version: z.literal("2.0.0"),
    files: z.array(FileExportSchema),
    symbols: z.array(SymbolExportSchema),
    references: z.array(ReferenceExportSchema),
    calls: z.array(CallExportSchema),
    collisions: z.array(CollisionExportSchema),
  })
  .strict();
export const ExportSummarySchema = z
  .object({
    format: z.enum(["json", "jsonl", "csv"]),
    version: z.literal("2.0.0"),
    output: z.string().optional(),
    content: z.string().optional(),
    files: uint,
    symbols: uint,
    references: uint,
    calls: uint,
    collisions: uint,
  })
  .strict();

export const CollisionsResponseSchema = z
  .object({ field: z.string(), collisions: z.array(CollisionExportSchema), count: uint })
  .strict();

/** The JSONL export's records: the version record first, then one record per entity. */
export const ExportRecordSchema = z.union([
  z.object({ type: z.literal("Version"), version: z.literal("2.0.0") }).strict(),
  FileExportSchema.extend({ type: z.literal("File") }).strict(),
  SymbolExportSchema.extend({ type: z.literal("Symbol") }).strict(),
  ReferenceExportSchema.extend({ type: z.literal("Reference") }).strict(),
  CallExportSchema.extend({ type: z.literal("Call") }).strict(),
  CollisionExportSchema.extend({ type: z.literal("Collision") }).strict(),
]);

/** A symbol in a graph answer. */
const GraphSymbolSchema = z.object({ symbol_id: hex16, name: z.string(), kind: z.string(), display_fqn: z.string(), span: SpanSchema }).strict();
/** How a graph edge is known: a reference's resolution, or `dispatch` (an override, implementation or C/C++ definition a call to a base, interface or declaration may run). */
const EvidenceLabelSchema = z.enum(["compiler", "exact", "imported", "heuristic", "dispatch"]);
const countsBy = z.partialRecord(EvidenceLabelSchema, uint);
/** What an answer's edges rest on: counts by resolution label, and (when listed) each edge. */
const GraphEvidenceSchema = z
  .object({
    by_resolution: countsBy,
    edge_count: uint,
    edges: z
      .array(z.object({ from: z.string(), to: z.string(), count: uint, resolution: countsBy, kinds: z.record(z.string(), uint) }).strict())
      .optional(),
  })
  .strict();
const GapReasonSchema = z.enum(["unresolved_import", "dynamic_receiver", "ambiguous_candidates", "no_definition_in_reach"]);
/** The references an answer could not follow: count by reason, samples with exact spans. */
const GraphGapSchema = z
  .object({
    count: uint,
    by_reason: z.partialRecord(GapReasonSchema, uint),
    samples: z.array(
      z.union([
        z
          .object({ span: SpanSchema, name: z.string(), reference_kind: z.string(), reason: GapReasonSchema, qualifier: z.string().optional(), caller: z.string().optional() })
          .strict(),
        z.object({ file_path: z.string(), line: uint, text: z.string(), reason: z.literal("unresolved_import") }).strict(),
      ]),
    ),
  })
  .strict();
const EdgeSetSchema = z.enum(["call", "all"]);

export const ReachResponseSchema = z
  .object({
    symbol: GraphSymbolSchema,
    direction: z.enum(["forward", "backward"]),
    edges: EdgeSetSchema,
    count: uint,
    symbols: z.array(GraphSymbolSchema.extend({ depth: uint }).strict()),
    evidence: GraphEvidenceSchema,
    unresolved: GraphGapSchema,
    max_depth: uint.optional(),
  })
  .strict();

export const DeadCodeResponseSchema = z
  .object({
    edges: EdgeSetSchema,
    entries: z.object({ count: uint, by_rule: z.partialRecord(z.enum(["named", "test", "main", "exported", "framework", "top_level_reference", "object_literal", "initializer", "constructor", "nested", "override", "overload", "member"]), uint) }).strict(),
    count: uint,
    possibly_dynamic: uint,
    /** unresolved_uses_of_name: unresolved references bearing its name (a dynamic call may reach it); referenced_by_unreachable: unreachable symbols that refer to it */
    symbols: z.array(GraphSymbolSchema.extend({ unresolved_uses_of_name: uint, referenced_by_unreachable: uint }).strict()),
    evidence: GraphEvidenceSchema,
    unresolved: GraphGapSchema,
  })
  .strict();

export const PathsResponseSchema = z
  .object({
    from: GraphSymbolSchema,
    to: GraphSymbolSchema,
    edges: EdgeSetSchema,
    max_depth: uint,
    max_paths: uint,
    count: uint,
    paths: z.array(z.object({ length: uint, symbols: z.array(GraphSymbolSchema) }).strict()),
    evidence: GraphEvidenceSchema,
    unresolved: GraphGapSchema,
  })
  .strict();

const GraphMemberSchema = z.union([GraphSymbolSchema, z.object({ file_path: z.string() }).strict()]);

export const CyclesResponseSchema = z
  .object({
    level: z.enum(["file", "symbol"]),
    count: uint,
    cycles: z.array(z.object({ size: uint, members: z.array(GraphMemberSchema) }).strict()),
    evidence: GraphEvidenceSchema,
    unresolved: GraphGapSchema,
    edges: EdgeSetSchema.optional(),
  })
  .strict();

export const CondenseResponseSchema = z
  .object({
    level: z.enum(["file", "symbol"]),
    node_count: uint,
    count: uint,
    cyclic_count: uint,
    /** members: file paths (file level) or symbol_ids (symbol level) */
    components: z.array(z.object({ id: uint, size: uint, cyclic: z.boolean(), members: z.array(z.string()) }).strict()),
    edges: z.array(z.object({ from: uint, to: uint, edge_count: uint }).strict()),
    evidence: GraphEvidenceSchema,
    unresolved: GraphGapSchema,
    edge_set: EdgeSetSchema.optional(),
  })
  .strict();

/** data schema of each magellan subcommand that prints one envelope. */
export const MAGELLAN_DATA: Record<string, z.ZodType> = {
  index: IndexResponseSchema,
  status: StatusResponseSchema,
  query: QueryResponseSchema,
  find: FindResponseSchema,
  refs: RefsResponseSchema,
  callers: RefsResponseSchema,
  callees: RefsResponseSchema,
  files: FilesResponseSchema,
  validate: ValidationResponseSchema,
  collisions: CollisionsResponseSchema,
  export: z.union([GraphExportSchema, ExportSummarySchema]),
  watch: WatchEventSchema,
  reachable: ReachResponseSchema,
  slice: ReachResponseSchema,
  "dead-code": DeadCodeResponseSchema,
  cycles: CyclesResponseSchema,
  condense: CondenseResponseSchema,
  paths: PathsResponseSchema,
};

export const schemas: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(MAGELLAN_DATA).map(([cmd, data]) => [`magellan-${cmd}-response`, queryResponseSchema(data)]),
);
schemas["magellan-export-record"] = ExportRecordSchema;

/** The envelope schema of a graph subcommand's successful answer (tests pick by argv). */
export function magellanResponseSchema(command: string): z.ZodType {
  const s = schemas[`magellan-${command}-response`];
  if (!s) throw new Error(`no magellan schema for command '${command}'`);
  return s;
}
