import { createRequire } from "node:module";
import type * as CommanderModule from "commander";
import type { Command } from "commander";
import { commonCode } from "../contract/codes.js";
import { EXIT, type ExitCode, ToolError } from "../contract/errors.js";
import { packageVersion } from "../contract/version.js";
import { operationEnvelope, queryEnvelope } from "./envelope.js";

// require(), not import: Node 20 lexes a CommonJS package's whole source for named exports when
// ESM imports it, which costs tens of milliseconds of every tool's start-up.
const commander = loadCommander();

/**
 * commander requires node:child_process at load time, only to spawn executable subcommands,
 * which no tool here has; loading that builtin (and net, dgram, streams behind it) was the
 * largest single cost of every tool's start-up. While commander loads, it gets a stand-in that
 * loads the real module on first use, so behaviour is unchanged if it is ever used.
 */
function loadCommander(): typeof CommanderModule {
  const req = createRequire(import.meta.url);
  const proto = (req("node:module") as { prototype: { require: (id: string) => unknown } }).prototype;
  const original = proto.require;
  let real: Record<string | symbol, unknown> | undefined;
  const lazy = new Proxy({} as Record<string | symbol, unknown>, {
    get: (_t, key) => (real ??= req("node:child_process") as Record<string | symbol, unknown>)[key],
    has: (_t, key) => key in (real ??= req("node:child_process") as Record<string | symbol, unknown>),
  });
  proto.require = function (this: unknown, id: string): unknown {
    return id === "node:child_process" || id === "child_process" ? lazy : original.call(this, id);
  };
  try {
    return req("commander") as typeof CommanderModule;
  } finally {
    proto.require = original;
  }
}

export interface CliResult {
  envelope: unknown;
  exitCode: ExitCode;
  /** Print as JSON Lines (one record per line) instead of one document. */
  jsonl?: unknown[];
}

export type EnvelopeKind =
  | { kind: "query"; command: string }
  | { kind: "operation"; operationType: string }
  | { kind: "custom"; errorEnvelope: (err: ToolError) => unknown };

/** A commander program with the habits every tool shares: --pretty, --version, no auto-exit. */
export function baseProgram(tool: string, description: string): Command {
  const program = new commander.Command(tool);
  program
    .description(description)
    .version(packageVersion(), "-V, --version", "print the version and exit")
    .helpOption("-h, --help", "show this help and exit")
    .option("--pretty", "indent the JSON output")
    .showSuggestionAfterError(true)
    .allowExcessArguments(false);
  return program;
}

function serialize(value: unknown, pretty: boolean): string {
  return pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

/**
 * argv -> action -> envelope -> stdout + exit code. Only the JSON document reaches stdout
 * (help and version excepted, when asked for); usage errors exit 2 with an error envelope;
 * a ToolError becomes the contract's error shape; anything else is a bug: its stack goes to
 * stderr and the envelope says INTERNAL, exit 1.
 */
export async function runCli(
  program: Command,
  tool: string,
  kind: EnvelopeKind | ((program: Command) => EnvelopeKind),
  action: (program: Command) => Promise<CliResult>,
  argv: string[] = process.argv,
): Promise<void> {
  const resolveKind = (): EnvelopeKind => (typeof kind === "function" ? kind(program) : kind);
  let pretty = argv.includes("--pretty");
  const stderrMessages: string[] = [];
  // A reader that stops early (`| head`) closes the pipe: that is not an error of ours.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
  program.exitOverride();
  program.configureOutput({
    writeErr: (s) => stderrMessages.push(s),
    writeOut: (s) => process.stdout.write(s),
  });
  for (const sub of program.commands) {
    sub.exitOverride();
    sub.configureOutput({ writeErr: (s) => stderrMessages.push(s), writeOut: (s) => process.stdout.write(s) });
  }
  let result: CliResult;
  try {
    await program.parseAsync(argv);
    pretty = Boolean(program.opts().pretty) || pretty;
    result = await action(program);
  } catch (err) {
    if (err instanceof commander.CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") {
        process.exitCode = EXIT.ok;
        return;
      }
      const message = err.message.replace(/^error: /, "");
      const usage = new ToolError({
        code: commonCode(tool, "usage"),
        error: "invalid_arguments",
        message,
        remediation: `Run '${tool} --help' for the flags and their meaning.`,
        exitCode: EXIT.usage,
      });
      process.stderr.write(stderrMessages.join(""));
      result = { envelope: errorEnvelope(tool, resolveKind(), usage), exitCode: EXIT.usage };
    } else if (err instanceof ToolError) {
      result = { envelope: errorEnvelope(tool, resolveKind(), err), exitCode: err.exitCode };
    } else {
      process.stderr.write(`${tool}: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      const internal = new ToolError({
        code: commonCode(tool, "internal"),
        error: "internal",
        message: `internal error: ${err instanceof Error ? err.message : String(err)}`,
        remediation: "This is a bug in the tool; the stack trace is on stderr. Please report it with the command line.",
      });
      result = { envelope: errorEnvelope(tool, resolveKind(), internal), exitCode: EXIT.failure };
    }
  }
  const text = result.jsonl
    ? result.jsonl.map((r) => JSON.stringify(r)).join("\n")
    : serialize(result.envelope, pretty);
  await writeStdout(`${text}\n`);
  process.exitCode = result.exitCode;
}

function errorEnvelope(tool: string, kind: EnvelopeKind, err: ToolError): unknown {
  switch (kind.kind) {
    case "query":
      return queryEnvelope(tool, kind.command, err.toErrorResponse(), { diagnostics: [err.toDiagnostic(tool)] });
    case "operation":
      return operationEnvelope(tool, kind.operationType, "error", err.message, { error: err.toDiagnostic(tool) });
    case "custom":
      return kind.errorEnvelope(err);
  }
}

/** Resolves once the bytes are handed to the OS, so a piped reader gets the whole document. */
function writeStdout(text: string): Promise<void> {
  return new Promise((resolve) => {
    process.stdout.write(text, () => resolve());
  });
}

/** Parses a non-negative integer flag, as a usage error when it is not one. */
export function intOption(tool: string, flag: string, min = 0): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
      throw new ToolError({
        code: commonCode(tool, "usage"),
        error: "invalid_arguments",
        message: `${flag} expects an integer >= ${min}, got '${value}'`,
        remediation: `Pass ${flag} a whole number, e.g. ${flag} ${Math.max(min, 2)}.`,
        exitCode: EXIT.usage,
      });
    }
    return n;
  };
}

/** Collects a repeatable flag. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
