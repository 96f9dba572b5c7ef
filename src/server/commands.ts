/**
 * `llmtools daemon start|stop|status`: each prints one query envelope (tool "llmtools", command
 * "daemon <sub>") describing the root's daemon.
 */
import type { Command } from "commander";
import { existsSync } from "node:fs";
import { EXIT, ToolError } from "../contract/errors.js";
import { commonCode } from "../contract/codes.js";
import { queryEnvelope } from "../contract/envelope.js";
import { type CliResult, failureResult, printResult } from "../cli/output.js";
import { killHung, ping, removeStale, startDaemon, startTimeoutMs } from "./client.cjs";
import { daemonMain, socketCandidates, workspaceRootOf } from "./protocol.cjs";
import { pidAlive } from "../text/atomic.js";
import { IDLE_TIMEOUT_ENV } from "./settings.js";

const TOOL = "llmtools";

interface Opts {
  root?: string;
  idleTimeout?: string;
  pretty?: boolean;
}

function rootOf(o: Opts): string {
  const root = workspaceRootOf(o.root !== undefined ? ["--root", o.root] : [], process.cwd());
  if (root === undefined) {
    throw new ToolError({
      code: commonCode(TOOL, "invalid_root"),
      error: "invalid_root",
      message: `workspace root does not exist or is not a directory: ${o.root}`,
      remediation: "Pass --root an existing directory, or omit it to use the enclosing git work tree.",
      exitCode: EXIT.usage,
    });
  }
  return root;
}

interface Running {
  socket: string;
  status: Record<string, unknown>;
}

/** The status a daemon of this package answers on `socket`; the raw answer (or none) otherwise. */
async function statusOn(socket: string): Promise<{ running?: Running; answer: Record<string, unknown> | undefined }> {
  const answer = await ping(socket, 5000, "status");
  if (answer?.t !== "status") return { answer };
  delete answer.t;
  return { running: { socket, status: answer }, answer };
}

/**
 * The live daemon of `root`: its socket and status, or undefined. `seen` learns of a daemon of
 * another version or build that answered (it stops on meeting this client, as on any mismatch).
 */
async function find(root: string, seen?: { other?: string }): Promise<Running | undefined> {
  for (const socket of socketCandidates(root)) {
    if (!existsSync(socket)) continue;
    const { running, answer } = await statusOn(socket);
    if (running) return running;
    if (answer?.t === "mismatch" && seen) seen.other = `${String(answer.pkg ?? "?")}, pid ${String(answer.pid ?? "?")}`;
    // Of another version, or not answering: not a daemon this package can use.
    if (answer === undefined) killHung(socket);
  }
  return undefined;
}

function answer(sub: string, data: Record<string, unknown>, exitCode: (typeof EXIT)[keyof typeof EXIT] = EXIT.ok): CliResult {
  return { envelope: queryEnvelope(TOOL, `daemon ${sub}`, data, { partial: false, diagnostics: [] }), exitCode };
}

async function start(o: Opts): Promise<CliResult> {
  if (process.platform === "win32") {
    throw new ToolError({
      code: commonCode(TOOL, "unsupported"),
      error: "unsupported",
      message: "the daemon listens on a Unix socket, which this build does not provide on Windows (named pipes are not implemented)",
      remediation: "Run the tools without a daemon (each works in-process), use `llmtools mcp` (a warm server of its own), or run under WSL.",
      exitCode: EXIT.usage,
    });
  }
  const root = rootOf(o);
  const running = await find(root);
  if (running) return answer("start", { state: "running", already_running: true, ...(await watching(running)).status });
  const idle = o.idleTimeout;
  if (idle !== undefined && !/^\d+$/.test(idle)) {
    throw new ToolError({
      code: commonCode(TOOL, "usage"),
      error: "invalid_arguments",
      message: `--idle-timeout expects whole seconds, got '${idle}'`,
      remediation: "Pass --idle-timeout 600 (0 keeps the daemon until stopped).",
      exitCode: EXIT.usage,
    });
  }
  const socket = await startDaemon(root, idle !== undefined ? ["--idle-timeout", idle] : []);
  const now = socket === undefined ? undefined : await find(root);
  if (!now) {
    throw new ToolError({
      code: commonCode(TOOL, "internal"),
      error: "daemon_start_failed",
      message: `the daemon for ${root} did not start`,
      remediation: `See the log beside its socket (${socketCandidates(root)[0] ?? "the runtime dir"}.log), or run it in the foreground: node ${daemonMain()} --root ${root}`,
    });
  }
  return answer("start", { state: "running", already_running: false, ...(await watching(now)).status });
}

/**
 * Waits (bounded) until the daemon's file watcher is set up: the daemon answers before it, and a
 * save made between the two would never be seen (the watcher's first scan takes it as it is).
 * After the bound, the status as it is says `watching: false`.
 */
async function watching(d: Running): Promise<Running> {
  const deadline = Date.now() + startTimeoutMs();
  let cur = d;
  for (;;) {
    const index = cur.status.index as { watching?: boolean; last_error?: string } | undefined;
    if (index?.watching !== false || index.last_error?.startsWith("watcher") || Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 25));
    const { running } = await statusOn(cur.socket);
    if (!running) break;
    cur = running;
  }
  return cur;
}

async function stop(o: Opts): Promise<CliResult> {
  const root = rootOf(o);
  const running = await find(root);
  if (!running) {
    for (const s of socketCandidates(root)) removeStale(s);
    return answer("stop", { state: "not_running", root });
  }
  const pid = running.status.pid as number;
  await ping(running.socket, 5000, "shutdown");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && pidAlive(pid)) await new Promise((r) => setTimeout(r, 25));
  if (pidAlive(pid)) killHung(running.socket);
  return answer("stop", { state: "stopped", root, pid });
}

async function status(o: Opts): Promise<CliResult> {
  const root = rootOf(o);
  const seen: { other?: string } = {};
  const running = await find(root, seen);
  if (running) return answer("status", { state: "running", ...running.status });
  const data: Record<string, unknown> = { state: "not_running", root };
  if (seen.other) {
    data.note = `a daemon of another version or build (${seen.other}) answered and stopped, as a daemon does on meeting a client of another build; 'llmtools daemon start' starts one of this build`;
  }
  return answer("status", data);
}

/** Adds `daemon start|stop|status` to the llmtools program. */
export function registerDaemonCommands(program: Command): void {
  const daemon = program.command("daemon").description("the warm per-workspace daemon every tool's CLI uses when it runs");
  const act = (sub: string, fn: (o: Opts) => Promise<CliResult>) => async (o: Opts) => {
    let result: CliResult;
    try {
      result = await fn(o);
    } catch (e) {
      result = failureResult(TOOL, { kind: "query", command: `daemon ${sub}` }, e);
    }
    await printResult(result, Boolean(o.pretty ?? program.opts().pretty));
  };
  daemon
    .command("start")
    .description("start the root's daemon unless it runs (tools then use it; --no-daemon bypasses it)")
    .option("--root <dir>", "workspace root (default: the enclosing git work tree, else the current directory)")
    .option("--idle-timeout <seconds>", `exit after this long without a request (default 1800, env ${IDLE_TIMEOUT_ENV}; 0: never)`)
    .option("--pretty", "indent the JSON output")
    .action(act("start", start));
  daemon
    .command("stop")
    .description("stop the root's daemon")
    .option("--root <dir>", "workspace root")
    .option("--pretty", "indent the JSON output")
    .action(act("stop", stop));
  daemon
    .command("status")
    .description("whether the root's daemon runs: pid, version, socket, requests served, memory, index freshness")
    .option("--root <dir>", "workspace root")
    .option("--pretty", "indent the JSON output")
    .action(act("status", status));
}
