/**
 * The requests of the tools whose CLIs build them from flags (llmsearch, llmastsearch, magellan,
 * the seed 04 payloads, llmfilewrite, mdsel) as zod objects, snake_case as on the wire. The MCP
 * server publishes them as its tools' input schemas and parses arguments with them; each maps
 * field by field onto the tool function's own typed request (src/mcp/tools.ts), so the compiler
 * keeps the two in step. No `schemas` export: these are inputs, not published output shapes.
 * llmtransform's request already is a zod schema (./llmtransform.ts) and is reused as it is.
 * Descriptions are terse on purpose: they are read by an agent on every tools/list.
 */
import { z } from "zod";
import { LlmtransformEditSchema } from "./llmtransform.js";
import { BatchRequestSchema, LogRequestSchema, UndoRequestSchema } from "./splice.js";

const paths = z.array(z.string()).describe("default: the root");
const globs = z.array(z.string()).describe("'!glob' excludes");
const symbolKey = {
  name: z.string().optional().describe("or Qualified.name"),
  symbol_id: z.string().optional().describe("from an earlier answer"),
  path: z.string().optional().describe("file/folder filter"),
  kind: z.string().optional().describe("function, class, method..."),
};

export const MagellanFindInput = z
  .object({
    ...symbolKey,
    match: z.enum(["exact", "prefix", "substring", "fuzzy"]).optional(),
    context: z.number().int().min(0).max(50).optional().describe("context lines"),
  })
  .strict();

export const MagellanRefsInput = z
  .object({
    ...symbolKey,
    direction: z.enum(["in", "out"]).optional().describe("in: users (default); out: uses"),
  })
  .strict();

/** callers / callees: the call edges only, of `refs` in / out. */
export const MagellanCallsInput = z.object(symbolKey).strict();

export const FileInput = z.object({ file: z.string().describe("root-relative file") }).strict();

export const MagellanIndexInput = z
  .object({ rebuild: z.boolean().optional().describe("from scratch") })
  .strict();

export const EmptyInput = z.object({}).strict();

export const LlmsearchInput = z
  .object({
    pattern: z.string().describe("regex (ripgrep syntax)"),
    fixed_strings: z.boolean().optional(),
    ignore_case: z.boolean().optional(),
    word: z.boolean().optional(),
    line_regexp: z.boolean().optional(),
    invert_match: z.boolean().optional(),
    multiline: z.boolean().optional(),
    paths: paths.optional(),
    globs: globs.optional(),
    context: z.number().int().min(0).max(50).optional(),
    hidden: z.boolean().optional(),
    no_ignore: z.boolean().optional(),
    // Per-file counts instead of matches: of lines with a match (rg -c) or of matches (rg --count-matches).
    count: z.enum(["lines", "matches"]).optional(),
    // rg -m: per file, only the first n lines with a match (max_tokens still pages the whole answer).
    max_count: z.number().int().min(1).optional(),
  })
  .strict();

export const LlmastsearchInput = z
  .object({
    query: z.string().describe("tree-sitter query, e.g. (class_declaration name: (_) @n)"),
    paths: paths.optional(),
    globs: globs.optional(),
    language: z.string().optional().describe("only this language"),
    capture: z.string().optional().describe("keep only this capture"),
    context: z.number().int().min(0).max(50).optional(),
  })
  .strict();

export const LlmtransformInput = z
  .object({
    file_path: z.string(),
    expected_checksum: z.string().describe("sha256 of the file as read"),
    edits: z.array(LlmtransformEditSchema),
    dry_run: z.boolean().optional(),
    partial: z.boolean().optional().describe("apply the valid edits"),
  })
  .strict();

export const LlmfilewriteInput = z
  .object({
    path: z.string(),
    content: z.string(),
    language: z.string().optional().describe("default: by extension"),
    overwrite: z.boolean().optional(),
    expected_checksum: z.string().optional().describe("sha256 of the file replaced"),
    reject_on: z.enum(["error", "warning"]).optional(),
    timeout_seconds: z.number().positive().max(600).optional(),
    dry_run: z.boolean().optional(),
  })
  .strict();

export const MdselIndexInput = z
  .object({ files: z.array(z.string()).optional().describe("default: the root's") })
  .strict();

export const MdselSelectInput = z
  .object({
    selectors: z.array(z.string()).min(1).describe("e.g. readme::heading:h2[0]/block:code[0]"),
    files: z.array(z.string()).optional(),
  })
  .strict();

/**
 * splice's batch request (./splice.ts) without `command` (the tool names it) and `root` (every
 * MCP tool takes one): steps applied all together or not at all.
 */
export const SpliceInput = BatchRequestSchema.omit({ command: true, root: true }).extend({
  expected_checksum: z.array(z.string()).optional().describe("FILE=sha256:<hex>"),
});
export const SpliceUndoInput = UndoRequestSchema.omit({ command: true, root: true });
/** The log's `limit` is the page: max_tokens and cursor. */
export const SpliceLogInput = LogRequestSchema.omit({ command: true, root: true, limit: true });

/**
 * `magellan impact`'s flags as a request: one file's graph, or what the changes since a
 * revision reach (the CLI's --export writes a file and stays a CLI feature).
 */
export const MagellanImpactInput = z
  .object({
    file: z.string().optional().describe("root-relative file"),
    affected_since: z.string().optional().describe("git rev, instead of file"),
    direction: z.enum(["in", "out", "both"]).optional().describe("in: dependents"),
    max_depth: z.number().int().min(1).max(32).optional(),
    max_edges: z.number().int().min(1).max(100_000).optional(),
    edge_types: z.array(z.enum(["import", "include", "require"])).optional(),
  })
  .strict();

export const MagellanGraphInput = z
  .object({
    op: z.enum(["reachable", "slice", "dead_code", "cycles", "paths", "condense"]),
    symbol: z.string().optional().describe("paths: from"),
    to: z.string().optional(),
    reverse: z.boolean().optional(),
    level: z.enum(["file", "symbol"]).optional(),
    max_depth: z.number().int().min(1).max(64).optional(),
  })
  .strict();

export const MagellanImpactDiagnosticsInput = z.object({ file: z.string().optional().describe("only this file") }).strict();

/** What every MCP tool takes besides its own fields: which root (default: the first). */
export const CommonInput = {
  root: z.string().optional(),
};

/**
 * What every listing tool takes: a token budget (default 4000) and the cursor of the previous
 * page (the server's instructions say how to use it, once rather than per tool).
 */
export const PagingInput = {
  max_tokens: z.number().int().min(200).max(100_000).optional(),
  // No length bound: a cursor this server did not issue is refused whatever its size.
  cursor: z.string().optional(),
};
