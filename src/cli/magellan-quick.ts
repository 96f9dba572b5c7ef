/**
 * magellan's index command and read-only commands (status, query, find, refs, files, validate,
 * collisions): their flags, how a request is made from them, and a way to run them without
 * commander.
 *
 * One table serves two parsers. magellan.ts registers these commands with commander, which gives
 * help, suggestions and every usage error. `runReadCommand` parses argv with node's own
 * `util.parseArgs` against the same table and runs the same handler; it declines (returns false)
 * on anything that is not a plain, valid command line (help, an unknown flag, a bad value), so
 * commander answers those as it always did. Loading commander and its runner is a third of an
 * answer's whole time, and agents call `find` and `refs` many times per task.
 *
 * The build bundles this module, magellan.ts and what they load into one CommonJS file, the bin
 * (scripts/bundle.ts); unbundled it behaves the same.
 */
import { parseArgs } from "node:util";
import { EXIT, ToolError } from "../contract/errors.js";
import type { Diagnostic } from "../contract/schema.js";
import { MAGELLAN_CODES } from "../graph/codes.js";
import { isKnownKind, kindSpellings } from "../graph/facts.js";
import { queryEnvelope } from "../contract/envelope.js";
import type { RefsRequest } from "../tools/magellan/queries.js";
import { type CliResult, failureResult, intOption, printResult, tolerateClosedStdout } from "./output.js";

export const TOOL = "magellan";

// For magellan.ts, which takes everything from this module so that its quick path loads one file.
export { EXIT, MAGELLAN_CODES, queryEnvelope };

export type Opts = Record<string, unknown>;
type Answer = { data: unknown; diagnostics: Diagnostic[]; partial?: boolean };

export interface OptionSpec {
  /** commander's syntax: `--name <value>` takes a value, `--flag` does not. */
  flags: string;
  description: string;
  parse?: (value: string) => unknown;
}

export interface CommandSpec {
  name: string;
  description: string;
  options: OptionSpec[];
  run: (o: Opts) => Promise<CliResult>;
}

export function answerResult(command: string, a: Answer): CliResult {
  const partial = a.partial ?? false;
  return { envelope: queryEnvelope(TOOL, command, a.data, { partial, diagnostics: a.diagnostics }), exitCode: partial ? EXIT.partial : EXIT.ok };
}

export function usage(message: string, remediation: string): ToolError {
  return new ToolError({ code: MAGELLAN_CODES.usage, error: "invalid_arguments", message, remediation, exitCode: EXIT.usage });
}

/** --kind: a kind the index can hold (function, Function or fn, ...), else a usage error naming them. */
function kindOption(v: string): string {
  if (!isKnownKind(v)) {
    throw usage(`--kind '${v}' is not a symbol kind; kinds: ${kindSpellings().join(", ")}`, "Pass one of those kinds (any spelling: function, Function or fn), or leave --kind out.");
  }
  return v;
}

export function choice<T extends string>(flag: string, allowed: readonly T[]): (v: string) => T {
  return (v) => {
    if (!(allowed as readonly string[]).includes(v)) throw usage(`${flag} must be one of ${allowed.join(", ")}, got '${v}'`, `Pass ${flag} ${allowed[0]}.`);
    return v as T;
  };
}

/** Every magellan command takes these. */
export const COMMON_OPTIONS: OptionSpec[] = [
  {
    flags: "--root <dir>",
    description: "workspace root (default: the enclosing git work tree, else the current directory; for queries, the root the index was built from)",
  },
  { flags: "--db <file>", description: "index database (default: <root>/.magellan/code.db)" },
  { flags: "--pretty", description: "indent the JSON output" },
];

export function loc(o: Opts): { root?: string; db?: string } {
  return { root: o.root as string | undefined, db: o.db as string | undefined };
}

const RICH: OptionSpec[] = [
  { flags: "--with-context <n>", description: "add SpanContext: n lines before and after each span", parse: intOption(TOOL, "--with-context") },
  { flags: "--with-checksums", description: "add SpanChecksums: sha256 of the span's bytes and of its file as on disk" },
  { flags: "--with-callers", description: "add SpanRelationships.callers (call sites resolved to the symbol; `refs` also lists ambiguous ones, with their candidates)" },
  { flags: "--with-callees", description: "add SpanRelationships.callees (calls made from inside the symbol)" },
];

function richOf(o: Opts): { context?: number; checksums?: boolean; callers?: boolean; callees?: boolean } {
  return {
    context: o.withContext as number | undefined,
    checksums: Boolean(o.withChecksums),
    callers: Boolean(o.withCallers),
    callees: Boolean(o.withCallees),
  };
}

const MATCH_MODES = ["exact", "prefix", "substring", "fuzzy"] as const;

function progressBar(): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stderr.write(`\rmagellan index [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} files`);
    if (done >= total) process.stderr.write("\n");
  };
}

const PRECISE: OptionSpec = {
  flags: "--precise",
  description:
    "TypeScript/JavaScript references: targets from the TypeScript language service (the project's tsconfig), labelled `compiler` (default in the daemon, which waits for its service only with this flag)",
};
const NO_PRECISE: OptionSpec = { flags: "--no-precise", description: "the index's targets only, also in the daemon" };

/**
 * refs/callers/callees. In-process, precise is off unless --precise. Inside the daemon (which
 * sets its precise service) it is on unless --no-precise, and asked of the daemon's worker
 * thread; without --precise it waits for a service still building only a moment.
 */
async function refsAnswer(command: string, o: Opts, req: RefsRequest): Promise<CliResult> {
  const off = o.noPrecise === true || o.precise === false;
  const on = o.precise === true && !off;
  if (!off) {
    const { sharedPrecise } = await import("../graph/precise/host.js");
    const service = sharedPrecise();
    if (service) {
      const { refsWithService } = await import("../tools/magellan/precise-refs.js");
      return answerResult(command, await refsWithService(req, service, on));
    }
  }
  const { refs } = await import("../tools/magellan/queries.js");
  if (on) {
    const { preciseFor } = await import("../graph/precise/typescript.js");
    return answerResult(command, refs({ ...req, precise: preciseFor }));
  }
  return answerResult(command, refs(req));
}

/** A symbol by name, qualified name or symbol_id (a name shared by several symbols is an error listing them). */
function symbolOption(o: Opts, flag: string, key: string): string {
  const v = o[key] as string | undefined;
  if (!v) throw usage(`${flag} is required`, `Pass ${flag} NAME, a qualified name (Class.method) or a symbol_id.`);
  return v;
}

function graphOpts(o: Opts): { root?: string; db?: string; edges?: "call" | "all"; limit?: number; gapSamples?: number } {
  return { ...loc(o), edges: o.edges as "call" | "all" | undefined, limit: o.limit as number | undefined, gapSamples: o.gapSamples as number | undefined };
}

const GRAPH_COMMON: OptionSpec[] = [
  { flags: "--edges <set>", description: "call: calls only; all: every resolved reference (default: all; cycles/condense at symbol level: call)", parse: choice("--edges", ["call", "all"] as const) },
  { flags: "--limit <n>", description: "at most n items listed (default 1000; partial:true and exit 4 when cut)", parse: intOption(TOOL, "--limit", 1) },
  { flags: "--gap-samples <n>", description: "how many references the answer could not follow to show (default 5)", parse: intOption(TOOL, "--gap-samples") },
];
const MAX_DEPTH: OptionSpec = { flags: "--max-depth <n>", description: "follow at most n edges", parse: intOption(TOOL, "--max-depth", 1) };
const LEVEL: OptionSpec = { flags: "--level <level>", description: "file (import graph, default) or symbol (call graph)", parse: choice("--level", ["file", "symbol"] as const) };

const GRAPH_COMMANDS: CommandSpec[] = [
  {
    name: "reachable",
    description: "the symbols a symbol reaches through resolved references (--reverse: the symbols that reach it)",
    options: [{ flags: "--symbol <s>", description: "name, qualified name or symbol_id" }, { flags: "--reverse", description: "follow edges backwards" }, MAX_DEPTH, ...GRAPH_COMMON],
    run: async (o) => {
      const { reachable } = await import("../tools/magellan/graph.js");
      return answerResult("reachable", reachable({ ...graphOpts(o), symbol: symbolOption(o, "--symbol", "symbol"), reverse: Boolean(o.reverse), maxDepth: o.maxDepth as number | undefined }));
    },
  },
  {
    name: "slice",
    description: "what a symbol depends on (--direction forward) or what depends on it (backward), transitively, with the edges",
    options: [
      { flags: "--symbol <s>", description: "name, qualified name or symbol_id" },
      { flags: "--direction <dir>", description: "backward: what depends on it; forward: what it depends on", parse: choice("--direction", ["backward", "forward"] as const) },
      MAX_DEPTH,
      ...GRAPH_COMMON,
    ],
    run: async (o) => {
      const { slice } = await import("../tools/magellan/graph.js");
      const direction = o.direction as "backward" | "forward" | undefined;
      if (!direction) throw usage("slice needs --direction backward|forward", "magellan slice --symbol S --direction backward");
      return answerResult("slice", slice({ ...graphOpts(o), symbol: symbolOption(o, "--symbol", "symbol"), direction, maxDepth: o.maxDepth as number | undefined }));
    },
  },
  {
    name: "dead-code",
    description:
      "functions, methods and classes no entry point reaches (exported API, main, tests, framework hooks, module top level; overrides, constructors and object-literal methods live with what holds them; rules in docs/graph.md)",
    options: [
      { flags: "--entry <names>", description: "extra entry points, comma-separated (names, qualified names or symbol_ids)" },
      { flags: "--no-default-entries", description: "start only from --entry" },
      ...GRAPH_COMMON,
    ],
    run: async (o) => {
      const { deadCode } = await import("../tools/magellan/graph.js");
      const entries = typeof o.entry === "string" ? o.entry.split(",").map((s) => s.trim()).filter(Boolean) : undefined;
      return answerResult("dead-code", deadCode({ ...graphOpts(o), entries, defaultEntries: !(o.noDefaultEntries === true || o.defaultEntries === false) }));
    },
  },
  {
    name: "cycles",
    description: "dependency cycles: strongly connected components of the file import graph or the symbol call graph",
    options: [LEVEL, ...GRAPH_COMMON],
    run: async (o) => {
      const { cycles } = await import("../tools/magellan/graph.js");
      return answerResult("cycles", cycles({ ...graphOpts(o), level: o.level as "file" | "symbol" | undefined }));
    },
  },
  {
    name: "condense",
    description: "the DAG of strongly connected components: components with their members, edges between them",
    options: [LEVEL, ...GRAPH_COMMON],
    run: async (o) => {
      const { condense } = await import("../tools/magellan/graph.js");
      return answerResult("condense", condense({ ...graphOpts(o), level: o.level as "file" | "symbol" | undefined }));
    },
  },
  {
    name: "paths",
    description: "simple paths from one symbol to another, shortest first",
    options: [
      { flags: "--from <s>", description: "start symbol: name, qualified name or symbol_id" },
      { flags: "--to <s>", description: "end symbol" },
      { flags: "--max-depth <n>", description: "paths of at most n edges (default 10)", parse: intOption(TOOL, "--max-depth", 1) },
      { flags: "--max-paths <n>", description: "at most n paths (default 10; partial when more exist)", parse: intOption(TOOL, "--max-paths", 1) },
      ...GRAPH_COMMON,
    ],
    run: async (o) => {
      const { paths } = await import("../tools/magellan/graph.js");
      return answerResult(
        "paths",
        paths({ ...graphOpts(o), from: symbolOption(o, "--from", "from"), to: symbolOption(o, "--to", "to"), maxDepth: o.maxDepth as number | undefined, maxPaths: o.maxPaths as number | undefined }),
      );
    },
  },
];

export const QUICK_COMMANDS: CommandSpec[] = [
  {
    name: "index",
    description: "build the index, or refresh it incrementally (by content sha256)",
    options: [
      { flags: "--rebuild", description: "delete the index and build it from scratch (recovers a corrupt or other-version index)" },
      { flags: "--max-file-size <bytes>", description: "skip (and count) files larger than this (default 4194304)", parse: intOption(TOOL, "--max-file-size", 1) },
      { flags: "--threads <n>", description: "extraction worker threads (default: the number of CPUs)", parse: intOption(TOOL, "--threads", 1) },
    ],
    run: async (o) => {
      const { index } = await import("../tools/magellan/index.js");
      return answerResult(
        "index",
        await index({
          ...loc(o),
          rebuild: Boolean(o.rebuild),
          maxBytes: o.maxFileSize as number | undefined,
          threads: o.threads as number | undefined,
          onProgress: progressBar(),
        }),
      );
    },
  },
  {
    name: "status",
    description: "counts, schema version, last index time, stale and missing files",
    options: [],
    run: async (o) => {
      const { status } = await import("../tools/magellan/queries.js");
      return answerResult("status", status(loc(o)));
    },
  },
  {
    name: "query",
    description: "the symbols defined in one file",
    options: [
      ...RICH,
      { flags: "--file <path>", description: "the file (relative to the root or the current directory)" },
      { flags: "--kind <kind>", description: "only symbols of this kind (function, Function or fn; class, method, struct, ...)", parse: kindOption },
    ],
    run: async (o) => {
      const { query } = await import("../tools/magellan/queries.js");
      const file = o.file as string | undefined;
      if (!file) throw usage("query needs --file", "magellan query --file src/main.rs [--kind function]");
      return answerResult("query", query({ ...loc(o), ...richOf(o), file, kind: o.kind as string | undefined }));
    },
  },
  {
    name: "find",
    description: "symbols by name (exact, prefix, substring, fuzzy) or by symbol_id",
    options: [
      ...RICH,
      { flags: "--name <name>", description: "the symbol's name; with --match exact also qualified by its scopes (Mux.ServeHTTP, click.core.Context, CLI::App::add_option)" },
      { flags: "--symbol-id <id>", description: "a symbol_id from an earlier answer" },
      { flags: "--path <path>", description: "only symbols in this file or under this folder" },
      { flags: "--kind <kind>", description: "only symbols of this kind", parse: kindOption },
      {
        flags: "--match <mode>",
        description: "exact (default), prefix, substring or fuzzy (case-insensitive edit distance)",
        parse: choice("--match", MATCH_MODES),
      },
      { flags: "--limit <n>", description: "at most n matches (default 200; partial:true and exit 4 when cut)", parse: intOption(TOOL, "--limit", 1) },
    ],
    run: async (o) => {
      const { find } = await import("../tools/magellan/queries.js");
      return answerResult(
        "find",
        find({
          ...loc(o),
          ...richOf(o),
          name: o.name as string | undefined,
          symbolId: o.symbolId as string | undefined,
          path: o.path as string | undefined,
          kind: o.kind as string | undefined,
          match: o.match as (typeof MATCH_MODES)[number] | undefined,
          limit: o.limit as number | undefined,
        }),
      );
    },
  },
  {
    name: "refs",
    description: "references to a symbol (--direction in, default) or made from it (out)",
    options: [
      ...RICH,
      { flags: "--name <name>", description: "the symbol's name (all symbols of that name, unless narrowed)" },
      { flags: "--symbol-id <id>", description: "exactly one symbol" },
      { flags: "--direction <dir>", description: "in: who refers to it; out: what it refers to", parse: choice("--direction", ["in", "out"] as const) },
      { flags: "--path <path>", description: "only definitions in this file or folder" },
      { flags: "--kind <kind>", description: "only definitions of this kind", parse: kindOption },
      { flags: "--limit <n>", description: "at most n references (default 1000)", parse: intOption(TOOL, "--limit", 1) },
      { flags: "--gap-samples <n>", description: "how many references that could not be tied to a symbol to show (default 5)", parse: intOption(TOOL, "--gap-samples") },
      PRECISE,
      NO_PRECISE,
    ],
    run: (o) =>
      refsAnswer("refs", o, {
        ...loc(o),
        ...richOf(o),
        name: o.name as string | undefined,
        symbolId: o.symbolId as string | undefined,
        direction: o.direction as "in" | "out" | undefined,
        path: o.path as string | undefined,
        kind: o.kind as string | undefined,
        limit: o.limit as number | undefined,
        gapSamples: o.gapSamples as number | undefined,
      }),
  },
  ...(["callers", "callees"] as const).map(
    (name): CommandSpec => ({
      name,
      description: name === "callers" ? "the call sites of a function or method, and the calls by its name that could not be tied to it" : "the calls made from inside a function or method, and those that could not be tied to one symbol",
      options: [
        ...RICH,
        { flags: "--name <name>", description: "the symbol's name (all symbols of that name, unless narrowed)" },
        { flags: "--symbol-id <id>", description: "exactly one symbol" },
        { flags: "--path <path>", description: "only definitions in this file or folder" },
        { flags: "--kind <kind>", description: "only definitions of this kind", parse: kindOption },
        { flags: "--limit <n>", description: "at most n calls (default 1000)", parse: intOption(TOOL, "--limit", 1) },
        { flags: "--gap-samples <n>", description: "how many unresolved calls to show (default 5)", parse: intOption(TOOL, "--gap-samples") },
        PRECISE,
        NO_PRECISE,
      ],
      run: (o) =>
        refsAnswer(name, o, {
          ...loc(o),
          ...richOf(o),
          name: o.name as string | undefined,
          symbolId: o.symbolId as string | undefined,
          direction: name === "callers" ? "in" : "out",
          path: o.path as string | undefined,
          kind: o.kind as string | undefined,
          limit: o.limit as number | undefined,
          referenceKinds: ["call"],
          gapSamples: o.gapSamples as number | undefined,
        }),
    }),
  ),
  ...GRAPH_COMMANDS,
  {
    name: "files",
    description: "the indexed files",
    options: [{ flags: "--symbols", description: "add symbol_counts per file" }],
    run: async (o) => {
      const { files } = await import("../tools/magellan/queries.js");
      return answerResult("files", files({ ...loc(o), symbols: Boolean(o.symbols) }));
    },
  },
  {
    name: "validate",
    description: "check the index against the disk: missing, stale and unindexed files, orphan edges",
    options: [],
    run: async (o) => {
      const [{ validate }, { locateForWrite }, { walkFiles }, { languageForPath }] = await Promise.all([
        import("../tools/magellan/queries.js"),
        import("../tools/magellan/common.js"),
        import("../text/walk.js"),
        import("../lang/registry.js"),
      ]);
      const walk = (): string[] => {
        const { root } = locateForWrite(loc(o));
        return walkFiles({ root })
          .map((e) => e.rel)
          .filter((p) => languageForPath(p) !== undefined);
      };
      return answerResult("validate", validate({ ...loc(o), walk: o.root !== undefined ? walk : undefined }));
    },
  },
  {
    name: "collisions",
    description: "symbols that share a display_fqn (or a name)",
    options: [
      { flags: "--field <field>", description: "fqn (display_fqn, default) or name", parse: choice("--field", ["fqn", "name"] as const) },
      { flags: "--limit <n>", description: "at most n groups (default 1000)", parse: intOption(TOOL, "--limit", 1) },
    ],
    run: async (o) => {
      const { collisions } = await import("../tools/magellan/queries.js");
      return answerResult("collisions", collisions({ ...loc(o), field: o.field as "fqn" | "name" | undefined, limit: o.limit as number | undefined }));
    },
  },
];

/** `--with-context <n>` -> ["with-context", true]; `--pretty` -> ["pretty", false]. */
function flagName(flags: string): [string, boolean] {
  const m = /^--([a-z][a-z-]*)( <[^>]+>)?$/.exec(flags);
  if (!m) throw new Error(`magellan: option syntax not understood: ${flags}`);
  return [m[1] as string, m[2] !== undefined];
}

/** commander's key for a long flag: --symbol-id -> symbolId. */
function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * Runs `magellan <quick command> [--flag value]...` when argv is exactly that, and returns true;
 * returns false, having printed nothing, when commander should handle the line instead.
 */
export async function runQuickCommand(argv: string[]): Promise<boolean> {
  const spec = QUICK_COMMANDS.find((c) => c.name === argv[2]);
  if (!spec) return false;
  const options: Record<string, { type: "string" | "boolean" }> = {};
  const parsers = new Map<string, (v: string) => unknown>();
  for (const o of [...COMMON_OPTIONS, ...spec.options]) {
    const [name, takesValue] = flagName(o.flags);
    options[name] = { type: takesValue ? "string" : "boolean" };
    if (o.parse) parsers.set(name, o.parse);
  }
  const opts: Opts = {};
  try {
    const { values } = parseArgs({ args: argv.slice(3), options, strict: true, allowPositionals: false });
    for (const [name, value] of Object.entries(values)) {
      const parse = parsers.get(name);
      opts[camel(name)] = parse && typeof value === "string" ? parse(value) : value;
    }
  } catch {
    return false;
  }
  tolerateClosedStdout();
  let result: CliResult;
  try {
    result = await spec.run(opts);
  } catch (err) {
    result = failureResult(TOOL, { kind: "query", command: spec.name }, err);
  }
  await printResult(result, Boolean(opts.pretty));
  return true;
}
