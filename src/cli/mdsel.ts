#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * mdsel: index Markdown documents and select their parts by selector (seed 05). A thin adapter:
 * argv -> request -> src/tools/mdsel -> seed 05 envelope -> stdout + exit code.
 *
 * `mdsel index FILES...` and `mdsel select SELECTOR... [FILES...]` without any flag are run
 * without commander: nothing needs parsing, and loading commander and the shared CLI runner costs
 * more than a whole `select` on a README. They print exactly what the commander path prints;
 * anything that throws, or a usage error, is handed to that path, which reports it as every other
 * command does.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { EXIT, type ExitCode, type ToolError } from "../contract/errors.js";
import { executionId, timestamp } from "../contract/ids.js";
import { SCHEMA_VERSION } from "../contract/version.js";
import { findWorkspaceRoot } from "../text/root.js";
import { MDSEL_CODES, TOOL } from "../tools/mdsel/errors.js";
// Static: `index` and `select` are the commands that must start fast, and a bundle of this entry
// then holds them; the commander path below is imported dynamically, so only runs with flags,
// help or errors initialise it.
import { indexCommand, type CommandResult, type Outcome } from "../tools/mdsel/index-command.js";
import { MARKDOWN_EXTENSIONS, type Workspace } from "../tools/mdsel/load.js";
import { selectCommand } from "../tools/mdsel/select-command.js";

// For the bin's code cache (src/launch/code-cache.cts).
export { primeCodeCache } from "../tools/mdsel/prime.js";
import { type CliResult, printResult, tolerateClosedStdout } from "./output.js";

const HELP_AFTER = `
Selectors:
  [namespace::]segment[/segment...][?full=true]
  namespace       file name without extension, lower-cased (README.md -> readme)
  root            the whole document
  heading:hN[i]   the i-th level-N heading (N = 1..6) in scope, with its whole section
  section[i]      the i-th section (any heading level) in scope
  block:T[i]      the i-th block of type T in scope: paragraph, code, list, table, blockquote
  page[i]         the i-th page (500 words) of the node before it; last segment only
  ?full=true      return the whole content, no truncation at 500 words
  Indices start at 0 and default to [0]. A section owns everything up to the next heading of
  the same or a higher level, subsections included.

Exit codes:
  0  success
  1  failure (nothing could be indexed or selected)
  2  invalid arguments or usage (every selector syntactically invalid included)
  4  partial success (some files or selectors failed; partial results are in data)

Output: one JSON document on stdout (mdsel's envelope, see docs/contract.md); nothing else is printed there.`;

let command: "index" | "select" | "mdsel" = "mdsel";
let unknownCommand: string | undefined;
let request: { kind: "index"; files: string[] } | { kind: "select"; args: string[] } | undefined;

function readCommand(): void {
  const sub = process.argv[2];
  command = sub === "index" || sub === "select" ? sub : "mdsel";
}

/** The full CLI: commander parses argv, run.ts's runCli prints the envelope or the error. */
async function viaCommander(): Promise<void> {
  const { baseProgram, intOption, runCli } = await import("./run.js");
  const program = baseProgram(TOOL, "Index Markdown documents and select sections, headings, blocks and pages by selector.")
    .option("--max-bytes <n>", "refuse files larger than this many bytes (default 5242880)", intOption(TOOL, "--max-bytes", 1))
    .option("--root <dir>", "workspace root that file_path is relative to (default: the enclosing git work tree, else the current directory)")
    .addHelpText("after", HELP_AFTER)
    // Without this commander answers a bare `mdsel` with help on stderr and exit 0; the action
    // below turns it into a usage error envelope instead.
    .argument("[command]", "index or select")
    // commander's own usage line would name the command twice ("[command] [command]").
    .usage("[options] <index|select> [arguments...]")
    .action((cmd: string | undefined) => {
      unknownCommand = cmd;
    });

  program
    .command("index")
    .description("list every heading, section and block of the files, with selectors, word counts and spans")
    .argument("[files...]", "Markdown files, or directories standing for the Markdown files under them (default: the Markdown files of the current directory)")
    .action((files: string[]) => {
      request = { kind: "index", files };
    });

  program
    .command("select")
    .description("return the content of each selector; an argument that names an existing file, ends in a Markdown extension or is a directory spelled as a path (docs/, ./docs) and has no '::' is a file (a directory: the Markdown files under it), any other is a selector")
    .argument("<selector-or-file...>", "selectors, then optionally files (default files: the Markdown files of the current directory, parsed only when named)")
    .action((args: string[]) => {
      request = { kind: "select", args };
    });

  for (const c of program.commands) c.addHelpText("after", HELP_AFTER);

  await runCli(program, TOOL, { kind: "custom", errorEnvelope }, action);
}

/**
 * `index FILES...` or `select SELECTOR... [FILES...]` with no flag, as the commander path runs
 * them (same workspace, same request, same envelope, compact JSON and a newline, same exit code).
 * Null when it threw, or for a select without a selector (commander's path reports the usage error).
 */
async function runWithoutFlags(cmd: "index" | "select", args: string[]): Promise<CliResult | null> {
  try {
    const cwd = process.cwd();
    const ws: Workspace = { cwd, root: findWorkspaceRoot(TOOL, undefined, cwd) };
    let result: CommandResult<unknown, unknown>;
    if (cmd === "index") result = await indexCommand(ws, { files: args });
    else {
      const selectors = args.filter((a) => !isFileArg(a));
      if (selectors.length === 0) return null;
      result = await selectCommand(ws, { selectors, files: args.filter(isFileArg) });
    }
    return { envelope: envelope(cmd, result), exitCode: EXIT_OF[result.outcome] };
  } catch {
    return null;
  }
}

function isFileArg(arg: string): boolean {
  if (arg.includes("::")) return false;
  const lower = arg.toLowerCase();
  if (MARKDOWN_EXTENSIONS.some((x) => lower.endsWith(x))) return true;
  const abs = resolve(arg);
  // A pipe counts too: `mdsel select root <(curl -s URL)` names /dev/fd/63. A directory counts
  // when spelled as a path (`docs/`, `./docs`, `a/b`): its Markdown files are read, and a bare
  // word stays a selector (`root`, `section`), whatever directories the cwd holds.
  if (!existsSync(abs)) return false;
  return !statSync(abs).isDirectory() || arg === "." || arg.includes("/");
}

const EXIT_OF: Record<Outcome, ExitCode> = { ok: EXIT.ok, partial: EXIT.partial, failure: EXIT.failure, usage: EXIT.usage };

function envelope(cmd: typeof command, result: CommandResult<unknown, unknown>): Record<string, unknown> {
  const env: Record<string, unknown> = {
    schema_version: SCHEMA_VERSION,
    execution_id: executionId(),
    tool: TOOL,
    success: result.outcome === "ok",
    command: cmd,
    timestamp: timestamp(),
    data: result.data,
  };
  if (result.partial_results) env.partial_results = result.partial_results;
  if (result.unresolved_selectors) env.unresolved_selectors = result.unresolved_selectors;
  if (result.warnings) env.warnings = result.warnings;
  if (result.errors) env.errors = result.errors;
  return env;
}

function errorEnvelope(err: ToolError): unknown {
  const usage = err.exitCode === EXIT.usage;
  return envelope(command, {
    outcome: usage ? "usage" : "failure",
    data: null,
    errors: [
      {
        type: "PROCESSING_ERROR",
        code: usage ? MDSEL_CODES.usage : err.code.startsWith("MDSEL_E") ? err.code : MDSEL_CODES.internal,
        message: err.message,
        ...(err.remediation ? { remediation: err.remediation } : {}),
      },
    ],
  });
}

async function action(prog: Command): Promise<CliResult> {
  if (!request) {
    // No subcommand: commander printed nothing we can use; say so as a usage error.
    const { ToolError } = await import("../contract/errors.js");
    throw new ToolError({
      code: MDSEL_CODES.usage,
      error: "invalid_arguments",
      message: `${unknownCommand === undefined ? "missing command" : `unknown command '${unknownCommand}'`}: use 'mdsel index FILES...' or 'mdsel select SELECTOR... [FILES...]'`,
      remediation: "Run 'mdsel --help'.",
      exitCode: EXIT.usage,
    });
  }
  const opts = prog.opts<{ maxBytes?: number; root?: string }>();
  const cwd = process.cwd();
  const ws: Workspace = { cwd, root: findWorkspaceRoot(TOOL, opts.root, cwd), ...(opts.maxBytes ? { maxBytes: opts.maxBytes } : {}) };
  let result: CommandResult<unknown, unknown>;
  if (request.kind === "index") {
    result = await indexCommand(ws, { files: request.files });
  } else {
    const files = request.args.filter(isFileArg);
    const selectors = request.args.filter((a) => !isFileArg(a));
    if (selectors.length === 0) {
      const { ToolError } = await import("../contract/errors.js");
      throw new ToolError({
        code: MDSEL_CODES.usage,
        error: "invalid_arguments",
        message: "select needs at least one selector (every argument was taken as a file)",
        remediation: "Give a selector such as 'readme::heading:h2[0]' before the files.",
        exitCode: EXIT.usage,
      });
    }
    result = await selectCommand(ws, { selectors, files });
  }
  return { envelope: envelope(command, result), exitCode: EXIT_OF[result.outcome] };
}

/**
 * Without top-level await, so that this entry can also be bundled as CommonJS (a bundle skips the
 * ES module loader's per-module work, a large share of a short run); a rejection still ends the
 * process with the error printed and exit code 1, as an awaited one did.
 */
async function main(): Promise<void> {
  const rest = process.argv.slice(3);
  const plain = rest.every((a) => !a.startsWith("-"));
  const fast = command !== "mdsel" && plain && (command === "index" || rest.length > 0) ? await runWithoutFlags(command, rest) : null;
  if (fast) {
    // Printed as runCli prints: compact JSON and a newline, a closed pipe not an error.
    tolerateClosedStdout();
    await printResult(fast, false);
  } else await viaCommander();
}

/**
 * A run's start. A V8 startup snapshot (src/launch/snapshot.cts) loads this bundle once, when
 * the snapshot is built, and calls this in each process started from it; otherwise it runs now.
 */
export function start(): void {
  readCommand();
  void main();
}

if (!(globalThis as { __llmtoolsSnapshot?: boolean }).__llmtoolsSnapshot) start();
