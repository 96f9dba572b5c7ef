/**
 * The `docdex.ast_query` payload: which files of the workspace hold nodes of the asked kinds
 * (optionally with a given name or parent field), how many, and a few samples of each.
 */
import type { AstNode, AstQueryPayload } from "../../contract/tools/codeintel.js";
import type { Diagnostic } from "../../contract/schema.js";
import { errorCode } from "../../contract/codes.js";
import { EXIT, ToolError } from "../../contract/errors.js";
import { walkFiles } from "../../text/walk.js";
import { grammar, languageForPath, type LanguageId } from "../../lang/registry.js";
import { astNode, bestName, clamp, walkTree } from "./ast.js";
import { CODEINTEL_CODES, CODEINTEL_TOOL } from "./codes.js";
import { schemaMeta } from "./meta.js";
import { loadEntry } from "./source.js";

export const AST_QUERY_LIMIT = { default: 50, min: 1, max: 1000 } as const;
export const AST_QUERY_SAMPLE_LIMIT = { default: 25, min: 1, max: 500 } as const;

export interface AstQueryRequest {
  root: string;
  repoId: string;
  kinds: string[];
  mode?: "any" | "all";
  name?: string;
  field?: string;
  pathPrefix?: string;
  limit?: number;
  sampleLimit?: number;
}

/**
 * The kind that asks for the nodes tree-sitter inserted to recover from a syntax error (of any
 * kind: `;`, `identifier`), which the outcome's `syntax_errors` announces. They are no match of
 * their own kind: the file does not contain them.
 */
const MISSING = "MISSING";

const kindCache = new Map<LanguageId, Set<string>>();

/** Every node kind (named and anonymous) of a grammar, from its node-types.json. */
function kindsOf(id: LanguageId): Set<string> {
  let set = kindCache.get(id);
  if (!set) {
    set = new Set<string>();
    const info = (grammar(id) as unknown as { nodeTypeInfo: { type: string; fields?: Record<string, { types: { type: string }[] }>; children?: { types: { type: string }[] }; subtypes?: { type: string }[] }[] }).nodeTypeInfo;
    for (const e of info) {
      set.add(e.type);
      for (const f of Object.values(e.fields ?? {})) for (const t of f.types) set.add(t.type);
      for (const t of e.children?.types ?? []) set.add(t.type);
      for (const t of e.subtypes ?? []) set.add(t.type);
    }
    set.add("ERROR");
    set.add(MISSING);
    kindCache.set(id, set);
  }
  return set;
}

export interface AstQueryResult {
  payload: AstQueryPayload;
  diagnostics: Diagnostic[];
}

function note(message: string, code: string): Diagnostic {
  return { tool: CODEINTEL_TOOL, level: "note", message, code: errorCode(CODEINTEL_TOOL, code) };
}

export function astQuery(req: AstQueryRequest): AstQueryResult {
  const kinds = [...new Set(req.kinds.map((k) => k.trim()).filter((k) => k.length > 0))];
  if (kinds.length === 0) {
    throw new ToolError({
      code: errorCode(CODEINTEL_TOOL, CODEINTEL_CODES.invalid_filter),
      error: "invalid_filter",
      message: "--kinds names no node kind",
      remediation: "Pass tree-sitter node kinds separated by commas, e.g. --kinds function_declaration,class_declaration.",
      exitCode: EXIT.usage,
    });
  }
  const mode = req.mode ?? "any";
  const diagnostics: Diagnostic[] = [];
  const limit = clamp(req.limit ?? AST_QUERY_LIMIT.default, AST_QUERY_LIMIT);
  const sampleLimit = clamp(req.sampleLimit ?? AST_QUERY_SAMPLE_LIMIT.default, AST_QUERY_SAMPLE_LIMIT);
  if (req.limit !== undefined && req.limit !== limit) {
    diagnostics.push(note(`--limit ${req.limit} is outside ${AST_QUERY_LIMIT.min}..${AST_QUERY_LIMIT.max}; applied ${limit}`, "W183"));
  }
  if (req.sampleLimit !== undefined && req.sampleLimit !== sampleLimit) {
    diagnostics.push(
      note(`--sample-limit ${req.sampleLimit} is outside ${AST_QUERY_SAMPLE_LIMIT.min}..${AST_QUERY_SAMPLE_LIMIT.max}; applied ${sampleLimit}`, "W183"),
    );
  }
  const prefix = req.pathPrefix?.replace(/^\.\//, "");
  const kindSet = new Set(kinds);
  const matches: AstQueryPayload["matches"] = [];
  let truncated = false;
  let parsed = 0;
  let skipped = 0;
  const entries = walkFiles({ root: req.root }).filter((e) => (prefix ? e.rel.startsWith(prefix) : true) && languageForPath(e.rel) !== undefined);
  for (const entry of entries) {
    const loaded = loadEntry(entry.abs, entry.rel);
    if (!loaded.ok) {
      skipped++;
      continue;
    }
    parsed++;
    const file = loaded.file;
    const samples: AstNode[] = [];
    const seenKinds = new Set<string>();
    let count = 0;
    walkTree(file.tree, (v) => {
      const kind = v.isMissing ? MISSING : v.kind;
      if (!kindSet.has(kind)) return;
      if (req.field !== undefined && v.field !== req.field) return;
      if (req.name !== undefined && bestName(file, v) !== req.name) return;
      seenKinds.add(kind);
      count++;
      if (samples.length < sampleLimit) samples.push(astNode(file, v));
    });
    if (count === 0) continue;
    if (mode === "all" && seenKinds.size < kindSet.size) continue;
    if (matches.length >= limit) {
      truncated = true;
      break;
    }
    matches.push({ file: file.rel, matchCount: count, samples });
  }
  // A kind no grammar of the files searched knows is a typo, not an empty codebase.
  const languages = new Set<LanguageId>();
  for (const e of entries) {
    const l = languageForPath(e.rel);
    if (l) languages.add(l.id);
  }
  const unknownKinds = kinds.filter((k) => ![...languages].some((l) => kindsOf(l).has(k)));
  if (unknownKinds.length > 0 && languages.size > 0) {
    diagnostics.push({
      tool: CODEINTEL_TOOL,
      level: "warning",
      message: `no grammar of the files searched (${[...languages].sort().join(", ")}) has node kind(s): ${unknownKinds.join(", ")}`,
      code: errorCode(CODEINTEL_TOOL, "W182"),
      remediation: "List a file's real node kinds with 'magellan ast --file <f>'.",
    });
  }
  if (matches.length === 0) {
    const why =
      entries.length === 0
        ? `no file of a known language${prefix ? ` under '${prefix}'` : ""} in the workspace`
        : `no node of kind ${kinds.join(", ")}${req.field ? ` in field '${req.field}'` : ""}${req.name ? ` named '${req.name}'` : ""} in ${parsed} parsed file(s)${mode === "all" && kinds.length > 1 ? " (mode all: every kind must occur in one file)" : ""}`;
    diagnostics.push(note(`empty result: ${why}`, "W184"));
  }
  if (skipped > 0) diagnostics.push(note(`${skipped} file(s) not parsed (binary, too large or unreadable)`, "W185"));
  const payload: AstQueryPayload = {
    schema: schemaMeta("ast_query"),
    repoId: req.repoId,
    kinds,
    mode,
    limit,
    sampleLimit,
    truncated,
    matches,
  };
  if (req.name !== undefined) payload.name = req.name;
  if (req.field !== undefined) payload.field = req.field;
  if (prefix !== undefined) payload.pathPrefix = prefix;
  return { payload, diagnostics };
}
