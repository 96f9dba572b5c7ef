#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * magellan: the SQLite code graph. A thin adapter: argv -> request -> src/tools/magellan ->
 * query envelope (command = the subcommand) -> stdout. Each subcommand declares its envelope
 * command name and loads its tool module only when it runs, so start-up stays lean. The read
 * commands (find, refs, ...) run without commander when their command line is plain (see
 * magellan-quick.ts); everything else, help and usage errors included, goes through commander.
 */
import { createRequire } from "node:module";
import type { Command } from "commander";
import type * as FastestLevenshtein from "fastest-levenshtein";
import type { ToolError } from "../contract/errors.js";
import type * as RunModule from "./run.js";
// Everything this file loads statically comes through magellan-quick.js; the build bundles the two
// with what they load into the bin, and loads the rest (commander's runner, index, watch, export,
// the seed 04 commands) only when a command needs it.
import {
  COMMON_OPTIONS,
  type CommandSpec,
  EXIT,
  MAGELLAN_CODES,
  QUICK_COMMANDS,
  TOOL,
  type Opts,
  answerResult,
  choice,
  loc,
  queryEnvelope,
  runQuickCommand,
  usage,
} from "./magellan-quick.js";
import { CODEINTEL_COMMANDS, IMPACT_COMMANDS, MAGELLAN_COMMANDS } from "./magellan-commands.cjs";
import type { CliResult } from "./output.js";

/** Set (to anything) to send every command line through commander, e.g. to compare the two parsers. */
const FULL_CLI_ENV = "MAGELLAN_FULL_CLI";

const CODEINTEL = new Set<string>(CODEINTEL_COMMANDS);
const IMPACT = new Set<string>(IMPACT_COMMANDS);

interface Chosen {
  command: string;
  run: () => Promise<CliResult>;
}

let chosen: Chosen | undefined;
let codeintelResult: CliResult | undefined;

/** A subcommand that prints the envelope named `command`; `run` gets the parsed options. */
function sub(program: Command, command: string, description: string, run: (o: Opts) => Promise<CliResult>): Command {
  const cmd = program.command(command).description(description);
  for (const o of COMMON_OPTIONS) cmd.option(o.flags, o.description);
  return cmd.action((opts: Opts) => {
    chosen = { command, run: () => run(opts) };
  });
}

function register(program: Command, spec: CommandSpec): void {
  const cmd = sub(program, spec.name, spec.description, spec.run);
  for (const o of spec.options) {
    if (o.parse) cmd.option(o.flags, o.description, o.parse);
    else cmd.option(o.flags, o.description);
  }
}

function build({ baseProgram, intOption }: typeof RunModule): Command {
  const program = baseProgram(TOOL, "The SQLite code graph of a workspace: symbols, references, calls, imports for nine languages, kept fresh.");
  program.addHelpText(
    "after",
    `
Every command prints one JSON envelope {schema_version, execution_id, tool, command, timestamp, partial, data, diagnostics?}
on stdout (JSON Lines for 'export --format jsonl' and 'watch'). Answers drawn from files that changed since they were indexed
carry a STALE_INDEX warning (code ${MAGELLAN_CODES.stale_index}).

Exit codes: 0 success (also "no matches"), 1 failure (ErrorResponse in data), 2 invalid arguments, 4 partial (results cut at --limit).

Environment: ${FULL_CLI_ENV}=1 sends every command line through the full argument parser; by default index and the read
commands (status, query, find, refs, files, validate, collisions) take a quicker one when the line is plain. Both answer alike.`,
  );

  register(program, QUICK_COMMANDS.find((c) => c.name === "index") as CommandSpec);

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

  // The read-only commands, in the order --help lists them.
  for (const spec of QUICK_COMMANDS) if (spec.name !== "index") register(program, spec);

  sub(program, "export", "the whole graph (GraphExport 2.0.0, see docs/contract.md)", async (o) => {
    const format = (o.format as "json" | "jsonl" | "csv" | undefined) ?? "json";
    const req = { ...loc(o), format, output: o.output as string | undefined };
    if (req.output !== undefined) {
      const { exportGraph } = await import("../tools/magellan/export.js");
      return answerResult("export", exportGraph(req));
    }
    // Written while it is read: the graph need not fit in memory. runCli's own test for --pretty.
    const { exportToStdout } = await import("./magellan-export.js");
    return exportToStdout(req, process.argv.includes("--pretty"));
  })
    .option(
      "--format <format>",
      "json: GraphExport in data; jsonl: JSON Lines on stdout, the Version record first; csv: one table with a `# Magellan Export Version` comment (in data.content, or the file)",
      choice("--format", ["json", "jsonl", "csv"] as const),
    )
    .option("--output <file>", "write the export to this file (inside the root) and print a summary");

  // Without a command, the action below answers with a usage error (an envelope, exit 2)
  // instead of commander printing help to stderr and exiting 0.
  // An unknown command reaches it too (as an argument), to be named as such.
  program.action(() => undefined).allowExcessArguments(true);
  return program;
}

/** The subcommand named in argv, for the envelope of errors raised before an action ran. */
function commandInArgv(argv: string[]): string {
  return argv.slice(2).find((a) => MAGELLAN_COMMANDS.includes(a)) ?? "magellan";
}

/** Full parsing through commander: help, suggestions, usage errors, and the writing commands. */
async function viaCommander(argv: string[]): Promise<void> {
  const run = await import("./run.js");
  const program = build(run);
  const first = argv.slice(2).find((a) => !a.startsWith("-"));
  // The seed-04 commands load tree-sitter; register them only when they may run or be listed.
  if (first === undefined || CODEINTEL.has(first) || first === "help") {
    const { registerCodeIntelCommands } = await import("./magellan-codeintel.js");
    registerCodeIntelCommands(program, (r) => {
      codeintelResult = r;
    });
  }
  if (first === undefined || IMPACT.has(first) || first === "help") {
    const { registerImpactCommands } = await import("./magellan-impact.js");
    registerImpactCommands(program, (r) => {
      codeintelResult = r;
    });
  }
  // An unknown command is the error to report, not the options after it.
  if (first !== undefined && first !== "help" && !MAGELLAN_COMMANDS.includes(first)) program.allowUnknownOption(true);
  await run.runCli(
    program,
    TOOL,
    () => ({ kind: "query", command: chosen?.command ?? commandInArgv(argv) }),
    async (p) => {
      if (codeintelResult) return codeintelResult;
      const stray = p.args[0];
      if (!chosen && stray !== undefined) {
        const commands = MAGELLAN_COMMANDS;
        const { distance } = createRequire(import.meta.url)("fastest-levenshtein") as typeof FastestLevenshtein;
        const near = commands.filter((c) => distance(c, stray) <= Math.max(1, Math.floor(c.length / 3)));
        throw usage(
          `unknown command '${stray}'${near.length > 0 ? `; did you mean ${near.map((c) => `'${c}'`).join(" or ")}?` : ""}`,
          `The commands: ${commands.join(", ")}. Run 'magellan <command> --help' for one's flags.`,
        );
      }
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

async function main(argv: string[]): Promise<void> {
  if (process.env[FULL_CLI_ENV] || !(await runQuickCommand(argv))) await viaCommander(argv);
}

// No top-level await: the build bundles this file as CommonJS (see scripts/bundle.ts).
void main(process.argv);
