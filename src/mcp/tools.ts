/**
 * The MCP tools, one per capability, as data: name, a description that says WHEN to use it, the
 * zod input (src/contract/tools/requests.ts, shared with the CLIs' requests), and a handler that
 * calls the tool function in-process and returns the envelope the CLI prints. Adding a tool
 * (splice, impact) is one entry here. Paths in arguments are resolved against the call's root
 * and refused outside it before any tool sees them.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { z } from "zod";
import { type EnvelopeKind, operationEnvelope, queryEnvelope } from "../contract/envelope.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { executionId, timestamp } from "../contract/ids.js";
import type { Diagnostic } from "../contract/schema.js";
import {
  EmptyInput,
  FileInput,
  LlmastsearchInput,
  LlmfilewriteInput,
  LlmsearchInput,
  LlmtransformInput,
  MagellanCallsInput,
  MagellanFindInput,
  MagellanGraphInput,
  MagellanImpactDiagnosticsInput,
  MagellanImpactInput,
  MagellanIndexInput,
  MagellanRefsInput,
  MdselIndexInput,
  MdselSelectInput,
  SpliceInput,
  SpliceLogInput,
  SpliceUndoInput,
} from "../contract/tools/requests.js";
import { SCHEMA_VERSION } from "../contract/version.js";
import { openDb } from "../graph/db.js";
import { indexTree } from "../graph/ingest.js";
import { extractFacts } from "../lang/extract.js";
import { LANGUAGES, languageByName } from "../lang/registry.js";
import { resolveInRoot } from "../text/root.js";
import { AST_MAX_NODES, astPayload, clamp } from "../tools/codeintel/ast.js";
import { CODEINTEL_TOOL } from "../tools/codeintel/codes.js";
import { repoId } from "../tools/codeintel/repo-id.js";
import { loadFile } from "../tools/codeintel/source.js";
import { symbolsPayload } from "../tools/codeintel/symbols.js";
import { CODES as AST_CODES, code as astCode } from "../tools/llmastsearch/codes.js";
import { search as astSearch } from "../tools/llmastsearch/search.js";
import { writeFile } from "../tools/llmfilewrite/index.js";
import { LLMSEARCH_CODES } from "../tools/llmsearch/codes.js";
import { search as textSearch } from "../tools/llmsearch/search.js";
import { buildRequest } from "../tools/llmtransform/request.js";
import { transform } from "../tools/llmtransform/transform.js";
import { index as magellanIndex } from "../tools/magellan/index.js";
import { impact, impactDiagnosticsQuery } from "../tools/magellan/impact-query.js";
import { condense, cycles, deadCode, paths, reachable } from "../tools/magellan/graph.js";
import { find, refs, status } from "../tools/magellan/queries.js";
import { indexCommand, type CommandResult, type Outcome } from "../tools/mdsel/index-command.js";
import { selectCommand } from "../tools/mdsel/select-command.js";
import { MCP_CODES, MCP_TOOL } from "./codes.js";
import { TOOL as SPLICE } from "../tools/splice/codes.js";
import { runLog, runMutation, runUndo, type SpliceOutcome } from "../tools/splice/run.js";
import { DIAG_LIMIT } from "../tools/codeintel/impact.js";
import { outcomeDiagnostics, symbolsDiagnostics } from "../tools/codeintel/diagnostics.js";
import type { ValidationSession } from "../validate/index.js";
import type { PreciseService } from "../graph/precise/service.js";
import { refsWithService } from "../tools/magellan/precise-refs.js";
import type { RefsRequest } from "../tools/magellan/queries.js";

export interface CallContext {
  /** Real absolute root of this call. */
  root: string;
  /** For listing tools: how many items to ask the tool for (enough for this page, and one more). */
  limit: number;
  /** The root's warm checkers (TypeScript service, pyright, ...), kept between calls. */
  session(): ValidationSession;
  /** The server's TypeScript language services for precise refs/callers/callees (absent: --no-precise). */
  precise?: PreciseService;
}

export interface ToolAnswer {
  /** The envelope the CLI prints for the same request. */
  envelope: Record<string, unknown>;
  isError: boolean;
}

export interface McpToolSpec<S extends z.ZodObject = z.ZodObject> {
  name: string;
  /** Terse, and about WHEN to use it: every client reads all of them on each tools/list. */
  description: string;
  input: S;
  /** The envelope of a ToolError thrown by `run`. */
  kind: { tool: string; envelope: EnvelopeKind };
  /**
   * A listing tool: its items are `data[key]` (`result[key]` for an operation), paged by
   * max_tokens. `cutCode`: the code of the tool's note that it stopped at the limit it was given
   * (magellan's notes are known by their "raise --limit" text instead). `counts`: the field
   * that counts a list's items as the tool listed them (`matches` → `match_count`), which then
   * counts the page's. `nested`: each item holds a list of its own (mdsel_index's documents,
   * their headings) that is paged with it, so that one long item does not fill a page alone.
   */
  list?: { keys: string[]; minItemTokens: number; in?: "data" | "result"; cutCode?: string; counts?: Record<string, string>; nested?: string };
  /** Takes large content (writers); others refuse arguments over the small cap. */
  large?: boolean;
  run(args: z.infer<S>, ctx: CallContext): Promise<ToolAnswer>;
}

/** The absolute path of a user path, refused when it leaves the root. */
function inRoot(tool: string, root: string, p: string): string {
  return resolveInRoot(tool, root, p, root).abs;
}

/**
 * A user path checked as inRoot checks it, handed on as the user spelled it when relative, for the
 * tools that read it from `cwd: root` themselves: their answers and errors then name the path as
 * the CLI's do (`no such file or directory: src/x.ts`, not the server's absolute path).
 */
function asGiven(tool: string, root: string, p: string): string {
  const abs = inRoot(tool, root, p);
  return isAbsolute(p) ? abs : p;
}

/** Per root: the index refresh running, so that parallel writes take turns instead of waiting on the writer lock. */
const refreshing = new Map<string, Promise<unknown>>();

/**
 * After llmtransform or llmfilewrite wrote `rel`, brings the root's code graph up to date, as the
 * daemon does after a write made through it and splice does after its own: the magellan tools
 * then answer from what was just written (a new function is found; positions in the edited file
 * are its new ones, with no STALE_INDEX warning). Only an index that exists is kept. A file the
 * index holds is re-read alone; any other is left to the incremental walk, whose ignore rules
 * decide whether it belongs. A refresh that fails leaves the write done and says so.
 */
async function refreshAfterWrite(root: string, rel: string): Promise<Diagnostic[]> {
  const dbPath = join(root, ".magellan", "code.db");
  if (!existsSync(dbPath)) return [];
  const run = async (): Promise<void> => {
    const db = openDb(dbPath, { write: false });
    let held: boolean;
    try {
      held = db.prepare("SELECT 1 FROM files WHERE path = ?").get(rel) !== undefined;
    } finally {
      db.close();
    }
    await indexTree({ root, dbPath, paths: held ? [rel] : undefined });
  };
  const next = (refreshing.get(root) ?? Promise.resolve()).then(run, run);
  const settled = next.catch(() => undefined);
  refreshing.set(root, settled);
  void settled.then(() => {
    if (refreshing.get(root) === settled) refreshing.delete(root);
  });
  try {
    await next;
    return [];
  } catch (e) {
    return [
      {
        tool: MCP_TOOL,
        level: "warning",
        code: MCP_CODES.index_not_refreshed,
        message: `${rel} was written, but the code graph could not take it in: ${(e as Error).message}`,
        remediation: "Call magellan_index to bring the graph up to date; until then magellan answers from the file as it was.",
      },
    ];
  }
}

function ok(envelope: Record<string, unknown>, isError = false): ToolAnswer {
  return { envelope, isError };
}

function answer(tool: string, command: string, a: { data: unknown; diagnostics: Diagnostic[]; partial?: boolean }): ToolAnswer {
  return ok(queryEnvelope(tool, command, a.data, { partial: a.partial ?? false, diagnostics: a.diagnostics }));
}

const MAGELLAN = { tool: "magellan", envelope: { kind: "query", command: "find" } } as const;
const IMPACT = { tool: CODEINTEL_TOOL, envelope: { kind: "query", command: "impact" } } as const;

function loc(ctx: CallContext): { root: string; cwd: string } {
  return { root: ctx.root, cwd: ctx.root };
}

/**
 * callers / callees: `refs` in / out over call edges only, so that the answer's gap report
 * (unresolved calls, coverage) is about calls too.
 */
async function calls(direction: "in" | "out", args: z.infer<typeof MagellanCallsInput>, ctx: CallContext): Promise<ToolAnswer> {
  return answer(
    "magellan",
    direction === "in" ? "callers" : "callees",
    await preciseRefs({ ...loc(ctx), name: args.name, symbolId: args.symbol_id, path: args.path, kind: args.kind, direction, referenceKinds: ["call"], limit: ctx.limit }, ctx),
  );
}

/**
 * refs with precise TypeScript/JavaScript targets from the server's worker threads, as the
 * daemon answers by default (a service still building: the index's answer and MAGELLAN_E113, see
 * precise-refs.ts); `llmtools mcp --no-precise`: the index's. The tools' inputs have no flag for
 * it: tools/list stays within its size budget.
 */
async function preciseRefs(req: RefsRequest, ctx: CallContext): Promise<ReturnType<typeof refs>> {
  return ctx.precise ? refsWithService(req, ctx.precise, false) : refs(req);
}

/** splice's OperationResult, as src/cli/splice.ts prints it. */
function spliceAnswer(o: SpliceOutcome): ToolAnswer {
  return ok(operationEnvelope(SPLICE, o.operationType, o.status, o.message, { workspace: o.workspace, result: o.result, error: o.error, diagnostics: o.diagnostics }), o.status === "error");
}

/** mdsel's own envelope (seed 05), as src/cli/mdsel.ts prints it. */
function mdselEnvelope(command: "index" | "select", r: CommandResult<unknown, unknown>): ToolAnswer {
  const env: Record<string, unknown> = {
    schema_version: SCHEMA_VERSION,
    execution_id: executionId(),
    tool: "mdsel",
    success: r.outcome === "ok",
    command,
    timestamp: timestamp(),
    data: r.data,
  };
  if (r.partial_results) env.partial_results = r.partial_results;
  if (r.unresolved_selectors) env.unresolved_selectors = r.unresolved_selectors;
  if (r.warnings) env.warnings = r.warnings;
  if (r.errors) env.errors = r.errors;
  const failed: Outcome[] = ["failure", "usage"];
  return ok(env, failed.includes(r.outcome));
}

function tool<S extends z.ZodObject>(spec: McpToolSpec<S>): McpToolSpec {
  return spec as unknown as McpToolSpec;
}

export const TOOLS: McpToolSpec[] = [
  tool({
    name: "magellan_find",
    description: "Find where a symbol is defined. Use before reading or editing code you know by name.",
    input: MagellanFindInput,
    kind: MAGELLAN,
    list: { keys: ["matches"], minItemTokens: 60, counts: { matches: "count" } },
    run: async (a, ctx) =>
      answer(
        "magellan",
        "find",
        find({ ...loc(ctx), name: a.name, symbolId: a.symbol_id, path: a.path, kind: a.kind, match: a.match, context: a.context, limit: ctx.limit }),
      ),
  }),
  tool({
    name: "magellan_refs",
    description: "References to a symbol (in) or from it (out). Use before changing its name or signature.",
    input: MagellanRefsInput,
    kind: { tool: "magellan", envelope: { kind: "query", command: "refs" } },
    list: { keys: ["references"], minItemTokens: 50, counts: { references: "count" } },
    run: async (a, ctx) =>
      answer(
        "magellan",
        "refs",
        await preciseRefs({ ...loc(ctx), name: a.name, symbolId: a.symbol_id, path: a.path, kind: a.kind, direction: a.direction, limit: ctx.limit }, ctx),
      ),
  }),
  tool({
    name: "magellan_callers",
    description: "Call sites of a function. Use to see who a change to it affects.",
    input: MagellanCallsInput,
    kind: { tool: "magellan", envelope: { kind: "query", command: "callers" } },
    list: { keys: ["references"], minItemTokens: 50, counts: { references: "count" } },
    run: (a, ctx) => calls("in", a, ctx),
  }),
  tool({
    name: "magellan_callees",
    description: "Calls made from a function. Use to see what it depends on.",
    input: MagellanCallsInput,
    kind: { tool: "magellan", envelope: { kind: "query", command: "callees" } },
    list: { keys: ["references"], minItemTokens: 50, counts: { references: "count" } },
    run: (a, ctx) => calls("out", a, ctx),
  }),
  tool({
    name: "magellan_symbols",
    description: "A file's symbols with ranges. Use for its outline without reading it.",
    input: FileInput,
    kind: { tool: CODEINTEL_TOOL, envelope: { kind: "query", command: "symbols" } },
    list: { keys: ["symbols"], minItemTokens: 30 },
    run: async (a, ctx) => {
      const payload = symbolsPayload(repoId(ctx.root), loadFile(ctx.root, inRoot(CODEINTEL_TOOL, ctx.root, a.file)), extractFacts);
      return answer(CODEINTEL_TOOL, "symbols", { data: payload, diagnostics: symbolsDiagnostics(payload) });
    },
  }),
  tool({
    name: "magellan_ast",
    description: "A file's syntax nodes. Use to learn node kinds for llmastsearch queries.",
    input: FileInput,
    kind: { tool: CODEINTEL_TOOL, envelope: { kind: "query", command: "ast" } },
    list: { keys: ["nodes"], minItemTokens: 25 },
    run: async (a, ctx) => {
      const payload = astPayload(repoId(ctx.root), loadFile(ctx.root, inRoot(CODEINTEL_TOOL, ctx.root, a.file)), clamp(ctx.limit, AST_MAX_NODES));
      return answer(CODEINTEL_TOOL, "ast", { data: payload, diagnostics: outcomeDiagnostics(payload.file, payload.outcome), partial: payload.truncated });
    },
  }),
  tool({
    name: "magellan_status",
    description: "Index counts and stale files. Use when symbol answers look missing or stale.",
    input: EmptyInput,
    kind: { tool: "magellan", envelope: { kind: "query", command: "status" } },
    run: async (_a, ctx) => answer("magellan", "status", status(loc(ctx))),
  }),
  tool({
    name: "magellan_index",
    description: "Build/refresh the code index. Use before magellan_* tools and after big changes.",
    input: MagellanIndexInput,
    kind: { tool: "magellan", envelope: { kind: "query", command: "index" } },
    run: async (a, ctx) => answer("magellan", "index", await magellanIndex({ ...loc(ctx), rebuild: Boolean(a.rebuild) })),
  }),
  tool({
    name: "magellan_impact",
    description: "Files a file imports and is imported by, or that changes since a git rev reach. Use to scope a change.",
    input: MagellanImpactInput,
    kind: IMPACT,
    run: async (a, ctx) =>
      answer(
        CODEINTEL_TOOL,
        "impact",
        impact({ ...loc(ctx), file: a.file, affectedSince: a.affected_since, direction: a.direction, maxDepth: a.max_depth, maxEdges: a.max_edges, edgeTypes: a.edge_types }),
      ),
  }),
  tool({
    name: "magellan_impact_diagnostics",
    description: "Files with unresolved imports. Use when magellan_impact looks incomplete.",
    input: MagellanImpactDiagnosticsInput,
    kind: { tool: CODEINTEL_TOOL, envelope: { kind: "query", command: "impact-diagnostics" } },
    list: { keys: ["diagnostics"], minItemTokens: 30 },
    run: async (a, ctx) =>
      answer(CODEINTEL_TOOL, "impact-diagnostics", impactDiagnosticsQuery({ ...loc(ctx), file: a.file, limit: Math.min(ctx.limit, DIAG_LIMIT.max) })),
  }),
  tool({
    name: "magellan_graph",
    description: "Call graph: reachable, slice, dead_code, cycles, paths, condense. Use before deleting or restructuring code.",
    input: MagellanGraphInput,
    kind: { tool: "magellan", envelope: { kind: "query", command: "graph" } },
    list: { keys: ["symbols", "cycles", "paths", "components"], minItemTokens: 40 },
    run: async (a, ctx) => {
      const base = { ...loc(ctx), limit: ctx.limit };
      const need = (v: string | undefined, what: string): string => {
        if (v === undefined) {
          throw new ToolError({ code: "MAGELLAN_E000", error: "invalid_arguments", message: `op ${a.op} needs ${what}`, remediation: `Pass ${what}.`, exitCode: EXIT.usage });
        }
        return v;
      };
      const command = a.op.replace("_", "-");
      switch (a.op) {
        case "reachable":
        case "slice":
          return answer("magellan", command, reachable({ ...base, symbol: need(a.symbol, "symbol"), reverse: a.reverse, maxDepth: a.max_depth }));
        case "dead_code":
          return answer("magellan", command, deadCode(base));
        case "cycles":
          return answer("magellan", command, cycles({ ...base, level: a.level }));
        case "condense":
          return answer("magellan", command, condense({ ...base, level: a.level }));
        case "paths":
          return answer("magellan", command, paths({ ...base, from: need(a.symbol, "symbol (from)"), to: need(a.to, "to"), maxDepth: a.max_depth }));
      }
    },
  }),
  tool({
    name: "llmsearch",
    description: "Text search like ripgrep. Use for strings, comments, config, any text.",
    input: LlmsearchInput,
    kind: { tool: "llmsearch", envelope: { kind: "query", command: "search" } },
    list: { keys: ["matches", "counts"], minItemTokens: 50, cutCode: LLMSEARCH_CODES.limit_reached, counts: { matches: "match_count" } },
    run: async (a, ctx) => {
      const r = await textSearch({
        pattern: a.pattern,
        fixedStrings: a.fixed_strings,
        ignoreCase: a.ignore_case,
        word: a.word,
        lineRegexp: a.line_regexp,
        invert: a.invert_match,
        multiline: a.multiline,
        root: ctx.root,
        cwd: ctx.root,
        paths: (a.paths ?? []).map((p) => asGiven("llmsearch", ctx.root, p)),
        globs: a.globs ?? [],
        before: a.context,
        after: a.context,
        limit: ctx.limit,
        hidden: a.hidden,
        noIgnore: a.no_ignore,
        count: a.count === "lines",
        countMatches: a.count === "matches",
        maxCount: a.max_count,
      });
      return answer("llmsearch", "search", r);
    },
  }),
  tool({
    name: "llmastsearch",
    description: "Tree-sitter query search. Use to find code by shape rather than by text.",
    input: LlmastsearchInput,
    kind: { tool: "llmastsearch", envelope: { kind: "query", command: "search" } },
    list: { keys: ["matches"], minItemTokens: 60, cutCode: astCode(AST_CODES.limit_reached), counts: { matches: "match_count" } },
    run: async (a, ctx) => {
      let language;
      if (a.language !== undefined) {
        language = languageByName(a.language)?.id;
        if (!language) {
          throw new ToolError({
            code: astCode(AST_CODES.unknown_language),
            error: "unknown_language",
            message: `unknown language '${a.language}'`,
            remediation: `Languages with a grammar: ${LANGUAGES.map((l) => l.id).join(", ")}.`,
            exitCode: EXIT.usage,
          });
        }
      }
      const r = await astSearch({
        root: ctx.root,
        query: { text: a.query, origin: "<query>" },
        cwd: ctx.root,
        paths: (a.paths ?? []).map((p) => asGiven("llmastsearch", ctx.root, p)),
        globs: a.globs ?? [],
        language,
        capture: a.capture,
        limit: ctx.limit,
        context: a.context ?? 0,
      });
      return answer("llmastsearch", "search", r);
    },
  }),
  tool({
    name: "llmtransform",
    description: "Byte-range edits of one file, refused if its sha256 changed. Use for precise small edits.",
    input: LlmtransformInput,
    kind: { tool: "llmtransform", envelope: { kind: "operation", operationType: "edit" } },
    large: true,
    run: async (a, ctx) => {
      const req = buildRequest({
        document: { value: { file_path: a.file_path, expected_checksum: a.expected_checksum, edits: a.edits }, origin: "arguments" },
      });
      const { rel } = resolveInRoot("llmtransform", ctx.root, req.file_path, ctx.root);
      const out = await transform(req, { root: ctx.root, cwd: ctx.root, dryRun: a.dry_run, partial: a.partial });
      const written = out.status !== "error" && !a.dry_run;
      const env = operationEnvelope("llmtransform", "edit", out.status, out.message, {
        workspace: ctx.root,
        result: out.result,
        error: out.error,
        diagnostics: [...out.diagnostics, ...(written ? await refreshAfterWrite(ctx.root, rel) : [])],
      });
      return ok(env, out.status === "error");
    },
  }),
  tool({
    name: "llmfilewrite",
    description: "Write a file only if it parses and type-checks. Use instead of writing code files directly.",
    input: LlmfilewriteInput,
    kind: { tool: "llmfilewrite", envelope: { kind: "operation", operationType: "create" } },
    large: true,
    run: async (a, ctx) => {
      const { abs, rel } = resolveInRoot("llmfilewrite", ctx.root, a.path, ctx.root);
      const out = await writeFile(
        {
          root: ctx.root,
          path: abs,
          cwd: ctx.root,
          language: a.language ?? "auto",
          content: Buffer.from(a.content, "utf8"),
          overwrite: Boolean(a.overwrite),
          expectedChecksum: a.expected_checksum,
          rejectOn: a.reject_on ?? "error",
          timeoutMs: Math.round((a.timeout_seconds ?? 60) * 1000),
          dryRun: Boolean(a.dry_run),
        },
        ctx.session(),
      );
      const written = out.status === "approved" && !a.dry_run;
      const diagnostics = written ? await refreshAfterWrite(ctx.root, rel) : [];
      return ok(operationEnvelope("llmfilewrite", "create", out.status, out.message, { workspace: ctx.root, result: out.result, diagnostics }), out.status !== "approved");
    },
  }),
  tool({
    name: "splice",
    description: "Change code by symbol (patch/insert/delete/rename) or exact text; type-checked, all steps or none. Use for code changes.",
    input: SpliceInput,
    kind: { tool: SPLICE, envelope: { kind: "operation", operationType: "batch" } },
    large: true,
    run: async (a, ctx) => spliceAnswer(await runMutation({ command: "batch", ...a, root: ctx.root }, { cwd: ctx.root, commandLine: `mcp splice (${a.steps.length} steps)` })),
  }),
  tool({
    name: "splice_undo",
    description: "Restore the files of a splice operation (default: the last one).",
    input: SpliceUndoInput,
    kind: { tool: SPLICE, envelope: { kind: "operation", operationType: "undo" } },
    run: async (a, ctx) => spliceAnswer(await runUndo({ ...a, root: ctx.root }, { cwd: ctx.root })),
  }),
  tool({
    name: "splice_log",
    description: "List splice operations, newest first, with ids for splice_undo.",
    input: SpliceLogInput,
    kind: { tool: SPLICE, envelope: { kind: "operation", operationType: "log" } },
    list: { keys: ["operations"], minItemTokens: 40, in: "result" },
    run: async (_a, ctx) => spliceAnswer(runLog({ root: ctx.root, limit: ctx.limit }, { cwd: ctx.root })),
  }),
  tool({
    name: "mdsel_index",
    description: "Outline Markdown files with selectors. Use before reading long docs.",
    input: MdselIndexInput,
    kind: { tool: "mdsel", envelope: { kind: "query", command: "index" } },
    list: { keys: ["documents"], minItemTokens: 80, nested: "headings" },
    run: async (a, ctx) =>
      mdselEnvelope("index", await indexCommand({ cwd: ctx.root, root: ctx.root, regularOnly: true }, { files: (a.files ?? []).map((p) => asGiven("mdsel", ctx.root, p)) })),
  }),
  tool({
    name: "mdsel_select",
    description: "Read Markdown by selector (from mdsel_index). Use to read one section, not the file.",
    input: MdselSelectInput,
    kind: { tool: "mdsel", envelope: { kind: "query", command: "select" } },
    list: { keys: ["matches"], minItemTokens: 40, nested: "children_available" },
    run: async (a, ctx) =>
      mdselEnvelope(
        "select",
        await selectCommand({ cwd: ctx.root, root: ctx.root, regularOnly: true }, { selectors: a.selectors, files: (a.files ?? []).map((p) => asGiven("mdsel", ctx.root, p)) }),
      ),
  }),
];
