import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { schemaFor } from "./schemas.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const DIST = join(REPO_ROOT, "dist");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not one JSON document). */
  json: unknown;
}

export interface RunOptions {
  cwd?: string;
  input?: string | Uint8Array;
  env?: Record<string, string>;
  /** Validate against this schema instead of the tool's registered one. */
  schema?: z.ZodType;
  /** Output is not one JSON document (help, version, JSONL): skip schema validation. */
  raw?: boolean;
  timeoutMs?: number;
}

const BINS = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { bin: Record<string, string> }).bin;

/** The file package.json's `bin` names for a tool (what `npm link` puts on the PATH). */
export function binPath(tool: string): string {
  const rel = BINS[tool];
  return rel ? join(REPO_ROOT, rel) : join(DIST, "src", "cli", `${tool}.js`);
}

/**
 * Runs a tool's built CLI as a user would (a real process, real argv, real stdin) and checks
 * its stdout against the contract: every test that runs a CLI gets its output validated.
 */
export async function runTool(tool: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const { child, closed, stdout: out, stderr: err } = startTool(tool, args, options);
  if (options.input !== undefined) child.stdin.end(options.input);
  else child.stdin.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const code = await closed;
  clearTimeout(timer);
  const stdout = out();
  const stderr = err();
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  if (!options.raw) {
    if (json === undefined) throw new Error(`${tool} ${args.join(" ")}: stdout is not one JSON document (exit ${code}):\n${stdout}\n${stderr}`);
    const schema = options.schema ?? schemaFor(tool, args, code);
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new Error(`${tool} ${args.join(" ")}: output violates the contract:\n${parsed.error.message}\n${stdout.slice(0, 4000)}`);
    }
  }
  return { code, stdout, stderr, json };
}

/** Temporary directories of this test process, removed when it exits (LLMTOOLS_KEEP_TEMP=1 keeps them, to look at a failure). */
const temps: string[] = [];
process.on("exit", () => {
  if (process.env.LLMTOOLS_KEEP_TEMP === "1") return;
  for (const d of temps) {
    try {
      rmSync(d, { recursive: true, force: true });
    } catch {
      // A directory a child process still writes in: left behind rather than failing the run.
    }
  }
});

/** A fresh real directory (symlinks of /tmp resolved, so paths compare with the tools'). */
export function tempDir(prefix = "llmtools-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

/**
 * A tool's built CLI started as a real process with its stdin left open (for tests that write it
 * in parts); its output is collected, `closed` gives its exit code.
 */
export function startTool(
  tool: string,
  args: string[],
  options: Pick<RunOptions, "cwd" | "env"> = {},
): { child: ChildProcessWithoutNullStreams; closed: Promise<number>; stdout: () => string; stderr: () => string } {
  const child = spawn(binPath(tool), args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  child.stdin.on("error", () => undefined);
  const closed = new Promise<number>((resolve) => child.on("close", (c) => resolve(c ?? -1)));
  return { child, closed, stdout: () => Buffer.concat(out).toString("utf8"), stderr: () => Buffer.concat(err).toString("utf8") };
}

/** Writes `files` (repository-relative path -> content) under `root`, directories made as needed; returns `root`. */
export function writeTree(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

/**
 * The CPU milliseconds (user + system, this process) that `fn` took, with its result. A guard
 * against quadratic work measures the work, not the wall clock: under CI beside other jobs a
 * linear 1.5 s of CPU took 7-10 s of wall time, and wall-clock limits failed.
 */
export function cpuTimed<T>(fn: () => T): { value: T; cpuMs: number } {
  const before = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(before);
  return { value, cpuMs: (used.user + used.system) / 1000 };
}
