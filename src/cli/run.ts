import { createRequire } from "node:module";
import type * as CommanderModule from "commander";
import type { Command } from "commander";
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { packageVersion } from "../contract/version.js";
import { type CliResult, type EnvelopeKind, errorEnvelope, failureResult, printResult, runFinished, tolerateClosedStdout } from "./output.js";

export { type CliResult, type EnvelopeKind, collect, intOption } from "./output.js";

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

/** commander's Option, for flags that need more than .option() says (hidden, choices). */
export const Option: typeof CommanderModule.Option = commander.Option;

/** A commander program with the habits every tool shares: --pretty, --version, no auto-exit. */
export function baseProgram(tool: string, description: string): Command {
  const program = new commander.Command(tool);
  program
    .description(description)
    .version(packageVersion(), "-V, --version", "print the version and exit")
    .helpOption("-h, --help", "show this help and exit")
    .configureHelp({
      // A repeatable flag starts from an empty list, which is no default to print: llmsearch's
      // help said "(default: [])" after six of its flags.
      optionDescription(option) {
        const empty = Array.isArray(option.defaultValue) && option.defaultValue.length === 0 && option.defaultValueDescription === undefined;
        const shown = empty ? Object.assign(Object.create(Object.getPrototypeOf(option) as object) as CommanderModule.Option, option, { defaultValue: undefined }) : option;
        return commander.Help.prototype.optionDescription.call(this, shown);
      },
    })
    .option("--pretty", "indent the JSON output")
    .showSuggestionAfterError(true)
    .allowExcessArguments(false);
  return program;
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
  tolerateClosedStdout();
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
    const interrupted = process.env.LLMTOOLS_DAEMON_INTERRUPTED;
    if (interrupted !== undefined) {
      const journal = process.env.LLMTOOLS_DAEMON_INTERRUPTED_JOURNAL;
      delete process.env.LLMTOOLS_DAEMON_INTERRUPTED;
      delete process.env.LLMTOOLS_DAEMON_INTERRUPTED_JOURNAL;
      throw new ToolError({
        code: commonCode(tool, "interrupted"),
        error: "interrupted",
        message: journal
          ? `the workspace's daemon ${interrupted} while it ran this change; it was not run again. The journal says: ${journal}`
          : `the workspace's daemon ${interrupted} while it ran this change: it may have been written, or not; it was not run again, which could apply it twice`,
        remediation: journal ? "Follow the journal's word above ('splice log' lists the operations)." : "Look at the files (or 'splice log' for the operation), then run the command again if the change is not there.",
      });
    }
    result = await action(program);
  } catch (err) {
    if (err instanceof commander.CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") {
        process.exitCode = EXIT.ok;
        runFinished(EXIT.ok);
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
    } else {
      result = failureResult(tool, resolveKind(), err);
    }
  }
  await printResult(result, pretty);
}
