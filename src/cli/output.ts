/**
 * What every CLI does after its arguments are parsed, without commander: turn a result or an
 * error into the envelope, print it, set the exit code. run.ts's runCli uses it after commander
 * parsed argv; a tool's quick path (no commander loaded) uses it directly, so both print alike.
 */
import { commonCode } from "../contract/codes.js";
import { EXIT, type ExitCode, ToolError } from "../contract/errors.js";
import { type EnvelopeKind, errorEnvelope } from "../contract/envelope.js";
import { nativeFault } from "../contract/native.js";

export { type EnvelopeKind, errorEnvelope } from "../contract/envelope.js";

/**
 * A document written while it was produced (stream.ts's ListStream, magellan export's
 * JsonDocument): `finish` writes what follows its streamed parts from the final envelope.
 */
export interface StreamedDocument {
  readonly opened: boolean;
  readonly ended: boolean;
  finish(envelope: unknown): Promise<void>;
}

export interface CliResult {
  envelope: unknown;
  exitCode: ExitCode;
  /** Print as JSON Lines (one record per line) instead of one document. */
  jsonl?: unknown[];
  /**
   * The document's list was written while it was produced (stream.ts): once opened, only the
   * rest of `envelope` is printed, and nothing when the run already ended it (`abort`).
   */
  stream?: StreamedDocument;
}

/** A ToolError becomes its envelope; anything else is a bug: stack on stderr, INTERNAL, exit 1. */
export function failureResult(tool: string, kind: EnvelopeKind, err: unknown): CliResult {
  if (err instanceof ToolError) return { envelope: errorEnvelope(tool, kind, err), exitCode: err.exitCode };
  const native = nativeFault(tool, err);
  if (native) return { envelope: errorEnvelope(tool, kind, native), exitCode: native.exitCode };
  process.stderr.write(`${tool}: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  const internal = new ToolError({
    code: commonCode(tool, "internal"),
    error: "internal",
    message: `internal error: ${err instanceof Error ? err.message : String(err)}`,
    remediation: "This is a bug in the tool; the stack trace is on stderr. Please report it with the command line.",
  });
  return { envelope: errorEnvelope(tool, kind, internal), exitCode: EXIT.failure };
}

/** A reader that stops early (`| head`) closes the pipe: that is not an error of ours. */
export function tolerateClosedStdout(): void {
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
}

/**
 * Set only inside the warm daemon (src/server/context.ts), which runs CLIs in its own process:
 * it adds its freshness note before an answer is printed and learns that the run is over.
 */
interface RunHooks {
  beforePrint(result: CliResult): void;
  finished(exitCode: number): void;
}

function runHooks(): RunHooks | undefined {
  return (globalThis as Record<symbol, RunHooks | undefined>)[Symbol.for("llmtools.runHooks")];
}

/** A run that ends without printing a result (help, version) says so here. */
export function runFinished(exitCode: number): void {
  runHooks()?.finished(exitCode);
}

/** Prints the result (one JSON document, or JSON Lines) and sets the exit code. */
export async function printResult(result: CliResult, pretty: boolean): Promise<void> {
  runHooks()?.beforePrint(result);
  if (result.stream?.opened) {
    if (!result.stream.ended) await result.stream.finish(result.envelope);
    process.exitCode = result.exitCode;
    runFinished(result.exitCode);
    return;
  }
  const text = result.jsonl
    ? result.jsonl.map((r) => JSON.stringify(r)).join("\n")
    : pretty
      ? JSON.stringify(result.envelope, null, 2)
      : JSON.stringify(result.envelope);
  await writeStdout(`${text}\n`);
  process.exitCode = result.exitCode;
  runFinished(result.exitCode);
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
