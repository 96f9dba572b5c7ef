import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

/** Absolute path of `cmd` on PATH (as the child would find it), or undefined when absent. */
export function which(cmd: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface ProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs a checker with a deadline. The child leads its own process group so a timeout kills
 * everything it started (cargo's rustc, javac's JVM threads), not just the first process.
 */
export function runProcess(
  cmd: string,
  args: string[],
  opts: { cwd?: string; input?: Uint8Array | string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutMs);
    // A checker must not outlive us when we are interrupted.
    const onExit = (): void => kill();
    process.once("exit", onExit);
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.stdin.on("error", () => undefined);
    child.on("error", (e) => {
      clearTimeout(timer);
      process.removeListener("exit", onExit);
      reject(e);
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      process.removeListener("exit", onExit);
      resolve({ status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), timedOut });
    });
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}

/** The nearest directory from `startDir` up to `root` (inclusive) holding one of `names`. */
export function findUp(startDir: string, root: string, names: string[]): { dir: string; file: string } | undefined {
  let dir = startDir;
  for (;;) {
    for (const n of names) {
      const p = join(dir, n);
      if (existsSync(p)) return { dir, file: p };
    }
    if (dir === root || !dir.startsWith(root)) return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** A directory's entry names, or none when it cannot be read (absent, not a directory). */
export function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const liveTempDirs = new Set<string>();
let exitHookInstalled = false;

/**
 * A private temp directory for one checker run, removed when `fn` settles and, should the
 * process exit first (timeout, SIGTERM turned into exit by the CLI), on exit: checkers never
 * leave files behind.
 */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const d of liveTempDirs) rmSync(d, { recursive: true, force: true });
    });
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  liveTempDirs.add(dir);
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    liveTempDirs.delete(dir);
  }
}
