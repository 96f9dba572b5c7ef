/**
 * Whether the caller of the running work is still there. In the daemon a request belongs to a
 * client on a socket; when that client goes (killed, Ctrl-C) nobody reads the answer, and long
 * work (a search whose regex backtracks for minutes per file) would keep a core busy and hold
 * the daemon's cwd gate, on which requests from other directories wait. The daemon provides the
 * request's signal here (by a global symbol, as src/cli/output.ts finds the run hooks, so any
 * copy of this module sees it); long-running tools poll it and stop. Outside the daemon there is
 * no signal: a CLI run ends with its process.
 */
import { commonCode } from "./codes.js";
import { EXIT, ToolError } from "./errors.js";

const KEY = Symbol.for("llmtools.cancelSignal");

type Lookup = () => AbortSignal | undefined;

/** Installed once by the daemon: the current request's signal. */
export function provideCancelSignal(lookup: Lookup): void {
  (globalThis as Record<symbol, unknown>)[KEY] = lookup;
}

/** The current request's signal, if it runs where a caller can go away. */
export function cancelSignal(): AbortSignal | undefined {
  const lookup = (globalThis as Record<symbol, unknown>)[KEY] as Lookup | undefined;
  return lookup?.();
}

export function cancelledError(tool: string): ToolError {
  return new ToolError({
    code: commonCode(tool, "cancelled"),
    error: "cancelled",
    message: "the caller went away (its connection closed) before the answer was ready; the work stopped",
    remediation: "Nothing to do: run the command again if the answer is still wanted.",
    exitCode: EXIT.failure,
  });
}
