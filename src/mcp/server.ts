/**
 * The MCP server: the tool table (./tools.ts) behind the SDK's low-level Server, with roots,
 * argument checking, token-budgeted pages and error results. One McpState per process holds
 * what is worth keeping warm between calls and between sessions (HTTP serves several): the
 * roots given on the command line and each root's validation session. Open graphs and compiled
 * queries are kept by the tool modules themselves (magellan's read handles, llmastsearch's
 * compiled queries), which live as long as this process.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  RootsListChangedNotificationSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { provideCancelSignal } from "../contract/cancel.js";
import { commonCode } from "../contract/codes.js";
import { errorEnvelope, queryEnvelope } from "../contract/envelope.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { nativeFault } from "../contract/native.js";
import { CommonInput, PagingInput } from "../contract/tools/requests.js";
import { packageVersion } from "../contract/version.js";
import { ValidationSession } from "../validate/index.js";
import { PreciseService, preciseOptionsFromEnv } from "../graph/precise/service.js";
import { IndexKeeper } from "../server/keeper.js";
import { MCP_CODES, MCP_TOOL } from "./codes.js";
import { DEFAULT_MAX_TOKENS, decodeCursor, encodeCursor, fetchLimit, fitItems, questionHash, tokensOf } from "./paging.js";
import { renderText } from "./render.js";
import { type McpToolSpec, TOOLS } from "./tools.js";
import { distance } from "fastest-levenshtein";

/** Arguments larger than this are refused, but for the writers' content. */
/** The signal of the tool call running (its client may cancel it), for src/contract/cancel.ts. */
const calls = new AsyncLocalStorage<AbortSignal | undefined>();
provideCancelSignal(() => calls.getStore());

const MAX_ARGUMENT_CHARS = 1024 * 1024;
const MAX_LARGE_ARGUMENT_CHARS = 20 * 1024 * 1024;

export interface McpOptions {
  /** --root: fixed roots (real paths). Empty: the client's MCP roots. */
  roots: string[];
}

/** Tools that answer from the code graph: the changes the watcher has seen are taken in first. */
const INDEX_READERS = new Set(["magellan_find", "magellan_refs", "magellan_callers", "magellan_callees", "magellan_status", "magellan_impact", "magellan_impact_diagnostics", "magellan_graph"]);

export class McpState {
  private readonly sessions = new Map<string, ValidationSession>();
  private readonly keepers = new Map<string, IndexKeeper>();
  /** TypeScript language services for magellan_refs/callers/callees (precise unless --no-precise), in worker threads. */
  readonly precise: PreciseService | undefined;
  constructor(
    readonly fixedRoots: string[],
    precise = true,
    /** false (--no-watch): files changed by other means reach the graph only through magellan_index. */
    readonly watch = true,
  ) {
    this.precise = precise ? new PreciseService(preciseOptionsFromEnv()) : undefined;
    for (const root of fixedRoots) this.keeper(root);
  }

  /**
   * Keeps `root`'s code graph fresh from here on, as the daemon does (src/server/keeper.ts): a
   * file an editor, git or the agent's own file tools change is in the graph before the next
   * magellan answer. Only a root with an index is watched (a server given a large folder as its
   * root watches nothing until magellan_index builds one there).
   */
  private keeper(root: string): IndexKeeper | undefined {
    if (!this.watch) return undefined;
    let k = this.keepers.get(root);
    if (k === undefined && existsSync(join(root, ".magellan", "code.db"))) {
      const keeper = new IndexKeeper(root, 20, (m) => process.stderr.write(`llmtools mcp: ${root}: ${m}\n`));
      keeper.onFileEvent = (abs) => this.precise?.changed(root, [abs]);
      // Not waited for: the watcher's first scan takes seconds on a large tree (6 s on a 76 MB
      // one), and until it is ready answers are what they were without it (STALE_INDEX per file).
      keeper.startInBackground();
      this.keepers.set(root, keeper);
      k = keeper;
    }
    return k;
  }

  /** Before an answer from `root`'s graph: what the watcher has seen is in it (and a cycle running has ended). */
  async fresh(root: string): Promise<void> {
    await this.keeper(root)?.flush();
  }

  session(root: string): ValidationSession {
    let s = this.sessions.get(root);
    if (!s) {
      s = new ValidationSession();
      this.sessions.set(root, s);
    }
    return s;
  }

  dispose(): void {
    for (const s of this.sessions.values()) s.dispose();
    this.sessions.clear();
    for (const k of this.keepers.values()) void k.close();
    this.keepers.clear();
    void this.precise?.close();
  }
}

/** A directory given as --root, as a real path; a usage error when it is not one. */
export function checkRoot(dir: string): string {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    throw new ToolError({ code: MCP_CODES.invalid_root, error: "invalid_root", message: `root does not exist: ${dir}`, remediation: "Pass --root an existing directory.", exitCode: EXIT.usage });
  }
  if (!statSync(real).isDirectory()) {
    throw new ToolError({ code: MCP_CODES.invalid_root, error: "invalid_root", message: `root is not a directory: ${dir}`, remediation: "Pass --root a directory.", exitCode: EXIT.usage });
  }
  return real;
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * What tools/list need not repeat (its whole answer must stay small, see docs/mcp.md): JSON
 * Schema's bound of a safe integer, `additionalProperties: false` (unknown arguments are
 * still refused, with a message naming them), and the type beside a `const`.
 */
function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compact);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === "$schema" || (k === "maximum" && x === Number.MAX_SAFE_INTEGER) || (k === "additionalProperties" && x === false)) continue;
    if (k === "type" && "const" in (v as Record<string, unknown>)) continue;
    out[k] = compact(x);
  }
  return out;
}

/** The published form of each tool: JSON Schema of its input plus the shared fields. */
function listed(spec: McpToolSpec): Tool {
  const shape = { ...spec.input.shape, ...CommonInput, ...(spec.list ? PagingInput : {}) };
  const schema = compact(z.toJSONSchema(z.object(shape).strict(), { unrepresentable: "any" }));
  return { name: spec.name, description: spec.description, inputSchema: schema as Tool["inputSchema"] };
}

export const LISTED_TOOLS: Tool[] = TOOLS.map(listed);
const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

function zodMessage(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join(".") : "(arguments)"}: ${i.message}`)
    .join("; ");
}

/**
 * The tools' remediations name their CLI ("Run 'magellan index' (with the same --root and --db)
 * to build it first."); over MCP the way out is a tool call, and the agent may have no shell or
 * no such command on its PATH (npx -y llmtools mcp installs none). Only `remediation` strings are
 * rewritten: never data drawn from files.
 */
const MCP_REMEDIES: [RegExp, string][] = [
  [/'magellan index --rebuild'/g, "magellan_index with rebuild: true"],
  [/'magellan index' \(with the same --root and --db\)/g, "magellan_index"],
  [/'magellan index'/g, "magellan_index"],
  [/'magellan status'/g, "magellan_status"],
  [/'magellan ast --file <f>'/g, "magellan_ast"],
  [/[`']splice log[`']/g, "splice_log"],
];

function mcpRemedy(text: string): string {
  return MCP_REMEDIES.reduce((t, [from, to]) => t.replace(from, to), text);
}

/** Rewrites every `remediation` in an answer (diagnostics, error responses) in place. */
function mcpRemedies(v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) mcpRemedies(x);
    return;
  }
  if (v === null || typeof v !== "object") return;
  const o = v as Record<string, unknown>;
  for (const [k, x] of Object.entries(o)) {
    if (k === "remediation" && typeof x === "string") o[k] = mcpRemedy(x);
    else if (k === "diagnostics" || k === "error" || k === "errors" || k === "data" || k === "result") mcpRemedies(x);
  }
}

function errorResult(spec: McpToolSpec | undefined, err: unknown): CallToolResult {
  let e: ToolError;
  const native = nativeFault(spec?.kind.tool ?? MCP_TOOL, err);
  if (err instanceof ToolError) e = err;
  else if (native) e = native;
  else {
    process.stderr.write(`llmtools mcp: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    e = new ToolError({
      code: MCP_CODES.internal,
      error: "internal",
      message: `internal error: ${err instanceof Error ? err.message : String(err)}`,
      remediation: "This is a bug in llmtools; the stack trace is on the server's stderr. Please report it with the arguments.",
    });
  }
  const env = spec ? errorEnvelope(spec.kind.tool, spec.kind.envelope, e) : queryEnvelope(MCP_TOOL, "mcp", e.toErrorResponse(), { diagnostics: [e.toDiagnostic(MCP_TOOL)] });
  mcpRemedies(env);
  const text = `${e.code}: ${e.message}${e.remediation ? `\nremediation: ${mcpRemedy(e.remediation)}` : ""}`;
  return { content: [{ type: "text", text }], structuredContent: env as Record<string, unknown>, isError: true };
}

/**
 * Cuts the listing tool's items to the page the cursor and budget ask for, and says which slice
 * it is and where the next page starts. `partial` is true when a cursor is returned.
 */
/**
 * "Use 'paths' for 'path'. " for each argument the tool does not take that is near one it does (a
 * prefix either way, or one edit apart): agents guess the CLI's spelling or a singular.
 */
function nearKeys(given: string[], known: string[], args: Record<string, unknown> = {}): string {
  const near = (a: string, b: string): boolean => (a.length >= 3 && b.length >= 3 && (a.startsWith(b) || b.startsWith(a))) || distance(a, b) <= 1;
  const hints: string[] = [];
  for (const g of given) {
    if (known.includes(g)) {
      // A list argument given one string (`paths: "src"`): say how to write it.
      const v = args[g];
      if (typeof v === "string" && LIST_ARGS.has(g)) hints.push(`Pass '${g}' as a list: ${JSON.stringify({ [g]: [v] })}. `);
      continue;
    }
    const spelled = g.toLowerCase().replace(/-/g, "_");
    const k = known.find((c) => near(spelled, c)) ?? SYNONYMS[spelled]?.find((c) => known.includes(c));
    if (k) hints.push(`Use '${k}' for '${g}'. `);
    else if (TYPE_ARGS.has(spelled) && known.includes("globs")) hints.push(`No file types here: use 'globs' for '${g}', e.g. {"globs": ["*.py"]} for rg -t py. `);
  }
  return hints.join("");
}

/** Arguments that take a list, which agents often give as one string. */
const LIST_ARGS = new Set(["paths", "globs", "files", "selectors", "steps", "edits", "edge_types", "reject_on"]);

/** ripgrep's file-type flags, which the MCP tools take as globs. */
const TYPE_ARGS = new Set(["type", "types", "t", "file_type", "file_types", "filetype", "lang_type"]);

/**
 * Other names agents give an argument (the CLI's flags, other tools' words), by the argument's
 * own name; a hint names the first that the tool takes (llmsearch's `query` is its `pattern`,
 * llmastsearch's `pattern` is its `query`).
 */
const SYNONYMS: Record<string, string[]> = {
  query: ["pattern", "query"],
  pattern: ["query", "pattern"],
  regex: ["pattern", "query"],
  regexp: ["pattern", "query"],
  search: ["pattern", "query"],
  e: ["pattern"],
  q: ["query"],
  case_insensitive: ["ignore_case"],
  insensitive: ["ignore_case"],
  nocase: ["ignore_case"],
  i: ["ignore_case"],
  fixed: ["fixed_strings"],
  literal: ["fixed_strings"],
  f: ["fixed_strings"],
  whole_word: ["word"],
  word_regexp: ["word"],
  w: ["word"],
  x: ["line_regexp"],
  v: ["invert_match"],
  invert: ["invert_match"],
  dir: ["paths", "files"],
  directory: ["paths", "files"],
  directories: ["paths", "files"],
  folder: ["paths", "files"],
  file: ["paths", "files", "file_path", "path"],
  files: ["paths"],
  path: ["paths", "files", "file_path", "file"],
  filename: ["file_path", "path", "file", "paths"],
  include: ["globs"],
  exclude: ["globs"],
  context_lines: ["context"],
  after: ["context"],
  before: ["context"],
  lines: ["context"],
  lang: ["language"],
  m: ["max_count"],
  limit: ["max_tokens"],
  max_results: ["max_tokens"],
  selector: ["selectors"],
};

/** A listing tool's note that it stopped at its limit (src/tools/magellan: "more than N ...; raise --limit to see more"). */
const FETCH_CUT = /; raise --limit to see more$/;

function page(
  spec: McpToolSpec,
  env: Record<string, unknown>,
  offset: number,
  budget: number,
  hash: string,
): { cursor?: string; page?: { list: string; offset: number; returned: number } } {
  const where = spec.list?.in ?? "data";
  const data = env[where] as Record<string, unknown> | null | undefined;
  if (!spec.list || !data || typeof data !== "object") return {};
  const key = spec.list.keys.find((k) => Array.isArray(data[k]));
  if (!key) return {};
  const items = data[key] as unknown[];
  const overhead = tokensOf({ ...env, [where]: { ...data, [key]: [] } }) + 40;
  if (spec.list.nested !== undefined) return pageNested(env, data, key, spec.list.nested, items, offset, budget - overhead, hash, where);
  const n = fitItems(items, offset, budget, overhead);
  data[key] = items.slice(offset, offset + n);
  // The tool counted the items it listed, as many as this page might need (fetchLimit): a
  // magellan_callers page of 34 said `count: 81`, neither the page nor the whole answer (128).
  // It counts the page's; the tool's totals (total_count) stay the whole answer's.
  const counted = spec.list.counts?.[key];
  if (counted !== undefined && typeof data[counted] === "number") data[counted] = n;
  const next = offset + n;
  const info = { list: `${where}.${key}`, offset, returned: n };
  // The tool was asked for the items this page may need (fetchLimit): its note that it cut
  // them there ("raise --limit", "showing the first 41 of 1206 matches (--limit 41)") names a
  // limit the caller never gave and the CLI's remedy; the cursor is this one's.
  const notes = env.diagnostics as { message?: string; code?: string }[] | undefined;
  const cutCode = spec.list.cutCode;
  const isCut = (d: { message?: string; code?: string }): boolean => FETCH_CUT.test(d.message ?? "") || (cutCode !== undefined && d.code === cutCode);
  const cut = notes?.some(isCut) ?? false;
  if (notes && cut) {
    const rest = notes.filter((d) => !isCut(d));
    if (rest.length > 0) env.diagnostics = rest;
    else delete env.diagnostics;
  }
  if (next >= items.length && !cut) {
    if (offset > 0) env.partial = false;
    return { page: info };
  }
  env.partial = true;
  return { cursor: encodeCursor(next, hash), page: info };
}

/**
 * A page of a list whose items hold lists of their own (mdsel_index: documents and their
 * headings), by units: each inner item, and each outer item that holds none. A page keeps the
 * outer items it reaches, each with the inner items of the page; an outer item's own fields come
 * with it on every page it reaches. The outer item had been the unit: a changelog of 595
 * headings was one document, so every page, whatever its budget, was its whole 266 KB index.
 */
function pageNested(
  env: Record<string, unknown>,
  data: Record<string, unknown>,
  key: string,
  inner: string,
  items: unknown[],
  offset: number,
  budgetTokens: number,
  hash: string,
  where: string,
): { cursor?: string; page: { list: string; offset: number; returned: number } } {
  type Rec = Record<string, unknown>;
  const units: { item: number; inner: number }[] = [];
  items.forEach((it, i) => {
    const list = (it as Rec | null)?.[inner];
    if (Array.isArray(list) && list.length > 0) list.forEach((_, j) => units.push({ item: i, inner: j }));
    else units.push({ item: i, inner: -1 });
  });
  const shell = (i: number): Rec => ({ ...(items[i] as Rec), [inner]: [] });
  let left = budgetTokens;
  let n = 0;
  let lastItem = -1;
  for (let u = offset; u < units.length; u++) {
    const { item, inner: j } = units[u] as { item: number; inner: number };
    const t = (item !== lastItem ? tokensOf(shell(item)) + 1 : 0) + (j >= 0 ? tokensOf(((items[item] as Rec)[inner] as unknown[])[j]) + 1 : 0);
    if (n > 0 && t > left) break;
    left -= t;
    lastItem = item;
    n++;
  }
  const kept: { item: number; rec: Rec }[] = [];
  for (let u = offset; u < offset + n; u++) {
    const { item, inner: j } = units[u] as { item: number; inner: number };
    if (kept.at(-1)?.item !== item) kept.push({ item, rec: shell(item) });
    if (j >= 0) ((kept.at(-1) as { rec: Rec }).rec[inner] as unknown[]).push(((items[item] as Rec)[inner] as unknown[])[j]);
  }
  data[key] = kept.map(({ item, rec }) => {
    // An item without an inner list keeps its own shape (no empty list added).
    if (!Array.isArray((items[item] as Rec)[inner])) delete rec[inner];
    return rec;
  });
  const info = { list: `${where}.${key}[].${inner}`, offset, returned: n };
  if (offset + n >= units.length) {
    if (offset > 0) env.partial = false;
    return { page: info };
  }
  env.partial = true;
  return { cursor: encodeCursor(offset + n, hash), page: info };
}

export class CallHandler {
  private clientRoots: string[] | undefined;
  constructor(
    private readonly state: McpState,
    private readonly server: Server,
  ) {}

  rootsChanged(): void {
    this.clientRoots = undefined;
  }

  private async roots(): Promise<string[]> {
    if (this.state.fixedRoots.length > 0) return this.state.fixedRoots;
    if (this.clientRoots) return this.clientRoots;
    const out: string[] = [];
    if (this.server.getClientCapabilities()?.roots) {
      const { roots } = await this.server.listRoots();
      for (const r of roots) {
        if (!r.uri.startsWith("file://")) continue;
        try {
          out.push(checkRoot(fileURLToPath(r.uri)));
        } catch {
          // A root the client names but this machine lacks cannot be served; the others can.
        }
      }
    }
    this.clientRoots = out;
    return out;
  }

  private async rootFor(arg: string | undefined): Promise<string> {
    const roots = await this.roots();
    if (roots.length === 0) {
      throw new ToolError({
        code: MCP_CODES.no_root,
        error: "no_root",
        message: "no workspace root: the server was started without --root and the client offers no file:// roots",
        remediation: "Start the server with `llmtools mcp --root /path/to/project`, or use a client that sends MCP roots.",
      });
    }
    if (arg === undefined) return roots[0] as string;
    const real = checkRoot(isAbsolute(arg) ? arg : `${roots[0]}${sep}${arg}`);
    if (!roots.some((r) => inside(r, real))) {
      throw new ToolError({
        code: MCP_CODES.path_outside_root,
        error: "path_outside_root",
        message: `root ${arg} is outside the workspace roots (${roots.join(", ")})`,
        remediation: "Pass one of the roots, or a directory inside one, or omit root.",
        exitCode: EXIT.usage,
      });
    }
    return real;
  }

  async call(name: string, rawArgs: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<CallToolResult> {
    const spec = BY_NAME.get(name);
    if (!spec) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${name}'; tools/list names the tools`);
    // The client's notifications/cancelled (an SDK client sends it when its request times out)
    // aborts `signal`: long work polls it (src/contract/cancel.ts) and stops.
    const t0 = Date.now();
    const result = await calls.run(signal, () => this.answer(spec, name, rawArgs));
    if (signal?.aborted) process.stderr.write(`llmtools mcp: ${name} cancelled by the client after ${Date.now() - t0} ms\n`);
    return result;
  }

  private async answer(spec: McpToolSpec, name: string, rawArgs: Record<string, unknown> | undefined): Promise<CallToolResult> {
    try {
      const args = rawArgs ?? {};
      const size = JSON.stringify(args).length;
      if (size > (spec.large ? MAX_LARGE_ARGUMENT_CHARS : MAX_ARGUMENT_CHARS)) {
        throw new ToolError({
          code: MCP_CODES.arguments_too_large,
          error: "arguments_too_large",
          message: `arguments of ${size} characters are over the limit of ${spec.large ? MAX_LARGE_ARGUMENT_CHARS : MAX_ARGUMENT_CHARS} for ${name}`,
          remediation: "Send smaller arguments: narrow patterns and paths; write large files in parts.",
          exitCode: EXIT.usage,
        });
      }
      const parser = z.object({ ...spec.input.shape, ...CommonInput, ...(spec.list ? PagingInput : {}) }).strict();
      const parsed = parser.safeParse(args);
      if (!parsed.success) {
        throw new ToolError({
          code: commonCode(spec.kind.tool, "usage"),
          error: "invalid_arguments",
          message: `invalid arguments for ${name}: ${zodMessage(parsed.error)}`,
          remediation: `${nearKeys(Object.keys(args), Object.keys(parser.shape), args as Record<string, unknown>)}tools/list gives ${name}'s input schema.`,
          exitCode: EXIT.usage,
        });
      }
      const { root: rootArg, max_tokens: maxTokens, cursor, ...own } = parsed.data as Record<string, unknown> & { root?: string; max_tokens?: number; cursor?: string };
      const root = await this.rootFor(rootArg);
      const budget = maxTokens ?? DEFAULT_MAX_TOKENS;
      const hash = questionHash(name, root, own);
      const offset = spec.list ? decodeCursor(cursor, hash) : 0;
      const limit = spec.list ? fetchLimit(offset, budget, spec.list.minItemTokens) : 0;
      if (INDEX_READERS.has(name)) await this.state.fresh(root);
      const out = await spec.run(own, { root, limit, session: () => this.state.session(root), precise: this.state.precise });
      const paged = page(spec, out.envelope, offset, budget, hash);
      const structured: Record<string, unknown> = { ...out.envelope };
      mcpRemedies(structured);
      // Which slice of the tool's list this answer holds: the tool's own counts (match_count,
      // total_count) describe its whole answer, not the page.
      if (paged.page) structured.page = paged.page;
      if (paged.cursor !== undefined) structured.cursor = paged.cursor;
      return { content: [{ type: "text", text: renderText(structured) }], structuredContent: structured, isError: out.isError };
    } catch (err) {
      return errorResult(spec, err);
    }
  }
}

/** One MCP server (one session); `state` may be shared by several. */
export function createMcpServer(state: McpState): Server {
  const server = new Server(
    { name: "llmtools", version: packageVersion() },
    {
      capabilities: { tools: {} },
      instructions:
        "Code tools with exact byte spans. Call magellan_index once per workspace, then magellan_find/refs/callers/callees. `root` picks a workspace root (default: the first). Listing tools answer within max_tokens (default 4000) and return a cursor when they cut: call again with the same arguments and that cursor for the next page.",
    },
  );
  const handler = new CallHandler(state, server);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => handler.call(req.params.name, req.params.arguments, extra.signal));
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => handler.rootsChanged());
  return server;
}
