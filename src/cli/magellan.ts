#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * magellan: the SQLite code graph. A thin adapter: argv -> request -> src/tools/magellan ->
 * query envelope (command = the subcommand) -> stdout. Each subcommand declares its envelope
 * command name and loads its tool module only when it runs, so start-up stays lean.
 */
import type { Command } from "commander";
import { EXIT, ToolError } from "../contract/errors.js";
import type { Diagnostic } from "../contract/schema.js";
import { MAGELLAN_CODES } from "../graph/codes.js";
import { queryEnvelope } from "./envelope.js";
import { type CliResult, baseProgram, intOption, runCli } from "./run.js";

const TOOL = "magellan";
const CODEINTEL = new Set(["symbols", "ast", "ast-query"]);

interface Chosen {
  command: string;
  run: () => Promise<CliResult>;
}

let chosen: Chosen | undefined;
let codeintelResult: CliResult | undefined;

type Opts = Record<string, unknown>;
type Answer = { data: unknown; diagnostics: Diagnostic[]; partial?: boolean };

function answerResult(command: string, a: Answer): CliResult {
  const partial = a.partial ?? false;
  return { envelope: queryEnvelope(TOOL, command, a.data, { partial, diagnostics: a.diagnostics }), exitCode: partial ? EXIT.partial : EXIT.ok };
}

function usage(message: string, remediation: string): ToolError {
  return new ToolError({ code: MAGELLAN_CODES.usage, error: "invalid_arguments", message, remediation, exitCode: EXIT.usage });
}

function choice<T extends string>(flag: string, allowed: readonly T[]): (v: string) => T {
  return (v) => {
    if (!(allowed as readonly string[]).includes(v)) throw usage(`${flag} must be one of ${allowed.join(", ")}, got '${v}'`, `Pass ${flag} ${allowed[0]}.`);
    return v as T;
  };
}

/** A subcommand that prints the envelope named `command`; `run` gets the parsed options. */
function sub(program: Command, command: string, description: string, run: (o: Opts) => Promise<CliResult>): Command {
  return program
    .command(command)
    .description(description)
    .option("--root <dir>", "workspace root (default: the enclosing git work tree, else the current directory; for queries, the root the index was built from)")
    .option("--db <file>", "index database (default: <root>/.magellan/code.db)")
    .option("--pretty", "indent the JSON output")
    .action((opts: Opts) => {
      chosen = { command, run: () => run(opts) };
    });
}

function loc(o: Opts): { root?: string; db?: string } {
  return { root: o.root as string | undefined, db: o.db as string | undefined };
}

function rich(cmd: Command): Command {
  return cmd
    .option("--with-context <n>", "add SpanContext: n lines before and after each span", intOption(TOOL, "--with-context"))
    .option("--with-checksums", "add SpanChecksums: sha256 of the span's bytes and of its file as on disk")
    .option("--with-callers", "add SpanRelationships.callers (call sites resolved to the symbol)")
    .option("--with-callees", "add SpanRelationships.callees (calls made from inside the symbol)");
}

function richOf(o: Opts): { context?: number; checksums?: boolean; callers?: boolean; callees?: boolean } {
  return {
    context: o.withContext as number | undefined,
    checksums: Boolean(o.withChecksums),
    callers: Boolean(o.withCallers),
    callees: Boolean(o.withCallees),
  };
}

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

function build(): Command {
  const program = baseProgram(TOOL, "The SQLite code graph of a workspace: symbols, references, calls, imports for nine languages, kept fresh.");
  program.addHelpText(
    "after",
    `
Every command prints one JSON envelope {schema_version, execution_id, tool, command, timestamp, partial, data, diagnostics?}
on stdout (JSON Lines for 'export --format jsonl' and 'watch'). Answers drawn from files that changed since they were indexed
carry a STALE_INDEX warning (code ${MAGELLAN_CODES.stale_index}).

Exit codes: 0 success (also "no matches"), 1 failure (ErrorResponse in data), 2 invalid arguments, 4 partial (results cut at --limit).`,
  );

  sub(program, "index", "build the index, or refresh it incrementally (by content sha256)", async (o) => {
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
  })
    .option("--rebuild", "delete the index and build it from scratch (recovers a corrupt or other-version index)")
    .option("--max-file-size <bytes>", "skip (and count) files larger than this (default 4194304)", intOption(TOOL, "--max-file-size", 1))
    .option("--threads <n>", "extraction worker threads (default: the number of CPUs)", intOption(TOOL, "--threads", 1));

  sub(program, "watch", "index, then keep the index fresh as files change; prints one JSON line per index cycle", async (o) => {
    const { watch } = await import("../tools/magellan/watch.js");
    const line = (ev: unknown, err?: ToolError): void => {
      const env = queryEnvelope(TOOL, "watch", ev, err ? { diagnostics: [err.toDiagnostic(TOOL)] } : {});
      process.stdout.write(`${JSON.stringify(env)}\n`);
    };
    const last = await watch(
      {
        ...loc(o),
        debounceMs: o.debounce as number | undefined,
        timeoutMs: o.timeout !== undefined ? (o.timeout as number) * 1000 : undefined,
        maxCycles: o.maxCycles as number | undefined,
        maxBytes: o.maxFileSize as number | undefined,
      },
      line,
    );
    return { envelope: undefined, exitCode: EXIT.ok, jsonl: [queryEnvelope(TOOL, "watch", last)] };
  })
    .option("--debounce <ms>", "wait this long after the last file event before re-indexing (default 200)", intOption(TOOL, "--debounce"))
    .option("--timeout <seconds>", "stop after this many seconds (default: run until SIGINT/SIGTERM)", intOption(TOOL, "--timeout", 1))
    .option("--max-cycles <n>", "stop after n re-index cycles", intOption(TOOL, "--max-cycles", 1))
    .option("--max-file-size <bytes>", "skip files larger than this (default 4194304)", intOption(TOOL, "--max-file-size", 1));

  sub(program, "status", "counts, schema version, last index time, stale and missing files", async (o) => {
    const { status } = await import("../tools/magellan/queries.js");
    return answerResult("status", status(loc(o)));
  });

  rich(
    sub(program, "query", "the symbols defined in one file", async (o) => {
      const { query } = await import("../tools/magellan/queries.js");
      const file = (o.file ?? o.filePath) as string | undefined;
      if (!file) throw usage("query needs --file", "magellan query --file src/main.rs [--kind function]");
      return answerResult("query", query({ ...loc(o), ...richOf(o), file, kind: o.kind as string | undefined }));
    }),
  )
    .option("--file <path>", "the file (relative to the root or the current directory)")
    .option("--kind <kind>", "only symbols of this kind (function, Function or fn; class, method, struct, ...)");

  const matchModes = ["exact", "prefix", "substring", "fuzzy"] as const;
  rich(
    sub(program, "find", "symbols by name (exact, prefix, substring, fuzzy) or by symbol_id", async (o) => {
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
          match: o.match as (typeof matchModes)[number] | undefined,
          limit: o.limit as number | undefined,
        }),
      );
    }),
  )
    .option("--name <name>", "the symbol's name")
    .option("--symbol-id <id>", "a symbol_id from an earlier answer")
    .option("--path <path>", "only symbols in this file or under this folder")
    .option("--kind <kind>", "only symbols of this kind")
    .option("--match <mode>", "exact (default), prefix, substring or fuzzy (case-insensitive edit distance)", choice("--match", matchModes))
    .option("--limit <n>", "at most n matches (default 200; partial:true and exit 4 when cut)", intOption(TOOL, "--limit", 1));

  rich(
    sub(program, "refs", "references to a symbol (--direction in, default) or made from it (out)", async (o) => {
      const { refs } = await import("../tools/magellan/queries.js");
      return answerResult(
        "refs",
        refs({
          ...loc(o),
          ...richOf(o),
          name: o.name as string | undefined,
          symbolId: o.symbolId as string | undefined,
          direction: o.direction as "in" | "out" | undefined,
          path: o.path as string | undefined,
          kind: o.kind as string | undefined,
          limit: o.limit as number | undefined,
        }),
      );
    }),
  )
    .option("--name <name>", "the symbol's name (all symbols of that name, unless narrowed)")
    .option("--symbol-id <id>", "exactly one symbol")
    .option("--direction <dir>", "in: who refers to it; out: what it refers to", choice("--direction", ["in", "out"] as const))
    .option("--path <path>", "only definitions in this file or folder")
    .option("--kind <kind>", "only definitions of this kind")
    .option("--limit <n>", "at most n references (default 1000)", intOption(TOOL, "--limit", 1));

  sub(program, "files", "the indexed files", async (o) => {
    const { files } = await import("../tools/magellan/queries.js");
    return answerResult("files", files({ ...loc(o), symbols: Boolean(o.symbols) }));
  }).option("--symbols", "add symbol_counts per file");

  sub(program, "validate", "check the index against the disk: missing, stale and unindexed files, orphan edges", async (o) => {
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
  });

  sub(program, "collisions", "symbols that share a display_fqn (or a name)", async (o) => {
    const { collisions } = await import("../tools/magellan/queries.js");
    return answerResult("collisions", collisions({ ...loc(o), field: o.field as "fqn" | "name" | undefined, limit: o.limit as number | undefined }));
  })
    .option("--field <field>", "fqn (display_fqn, default) or name", choice("--field", ["fqn", "name"] as const))
    .option("--limit <n>", "at most n groups (default 1000)", intOption(TOOL, "--limit", 1));

  sub(program, "export", "the whole graph (seed 01 GraphExport 2.0.0)", async (o) => {
    const { exportGraph } = await import("../tools/magellan/export.js");
    const format = (o.format as "json" | "jsonl" | "csv" | undefined) ?? "json";
    const a = exportGraph({ ...loc(o), format, output: o.output as string | undefined });
    if (a.jsonl) {
      for (const d of a.diagnostics) process.stderr.write(`magellan: ${d.level}: ${d.message}\n`);
      return { envelope: undefined, exitCode: EXIT.ok, jsonl: a.jsonl };
    }
    return answerResult("export", a);
  })
    .option(
      "--format <format>",
      "json: GraphExport in data; jsonl: JSON Lines on stdout, the Version record first; csv: one table with a `# Magellan Export Version` comment (in data.content, or the file)",
      choice("--format", ["json", "jsonl", "csv"] as const),
    )
    .option("--output <file>", "write the export to this file (inside the root) and print a summary");

  // Without a command, the action below answers with a usage error (an envelope, exit 2)
  // instead of commander printing help to stderr and exiting 0.
  program.action(() => undefined);
  return program;
}

/** The subcommand named in argv, for the envelope of errors raised before an action ran. */
function commandInArgv(argv: string[]): string {
  const known = ["index", "watch", "status", "query", "find", "refs", "files", "validate", "collisions", "export", ...CODEINTEL];
  return argv.slice(2).find((a) => known.includes(a)) ?? "magellan";
}

async function main(): Promise<void> {
  const argv = process.argv;
  const program = build();
  const first = argv.slice(2).find((a) => !a.startsWith("-"));
  // The seed-04 commands load tree-sitter; register them only when they may run or be listed.
  if (first === undefined || CODEINTEL.has(first) || first === "help") {
    const { registerCodeIntelCommands } = await import("./magellan-codeintel.js");
    registerCodeIntelCommands(program, (r) => {
      codeintelResult = r;
    });
  }
  await runCli(
    program,
    TOOL,
    () => ({ kind: "query", command: chosen?.command ?? commandInArgv(argv) }),
    async () => {
      if (codeintelResult) return codeintelResult;
      if (!chosen) {
        throw usage(
          "a command is required",
          "Run 'magellan --help' for the commands: index, watch, status, query, find, refs, files, validate, collisions, export, symbols, ast, ast-query.",
        );
      }
      return chosen.run();
    },
    argv,
  );
}

await main();
