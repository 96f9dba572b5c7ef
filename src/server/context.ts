/**
 * Per-request process state inside the daemon. A CLI reads process.argv, process.cwd(),
 * process.env and process.stdin, writes process.stdout and process.stderr, and ends with an exit
 * code; in the daemon several command lines run at once in one process, so each of those is
 * looked up in the request's AsyncLocalStorage context and falls back to the real one outside a
 * request. The tools below the CLI layer stay untouched and warm.
 *
 * How a run ends: src/cli/output.ts calls the run hooks (`finished`) once it printed the answer
 * (runCli and the quick paths all print through it), and process.exit inside a request ends that
 * request instead of the daemon.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { Readable, Writable } from "node:stream";
import { provideCancelSignal } from "../contract/cancel.js";

export interface RequestIO {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** The tool started reading stdin: ask the client for it. */
  wantStdin(): void;
}

export interface RequestSpec {
  tool: string;
  /** The arguments after the command name. */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  tty: { stdin: boolean; stdout: boolean; stderr: boolean };
  columns?: number;
}

/** Thrown by process.exit inside a request to unwind it; the daemon ignores it. */
export class RequestExit extends Error {
  constructor(readonly code: number) {
    super(`request exited with ${code}`);
  }
}

export class RequestContext {
  readonly argv: string[];
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdin: Readable;
  readonly env: Record<string, string>;
  /** Set by the daemon before printing: a diagnostic every answer carries when the index lags. */
  freshness: (() => object | undefined) | undefined;
  private done = false;
  private resolveFinished!: (code: number) => void;
  readonly finished: Promise<number>;

  constructor(
    readonly spec: RequestSpec,
    binPath: string,
    io: RequestIO,
    /** Aborted when the client goes away before the answer (src/contract/cancel.ts). */
    readonly signal?: AbortSignal,
  ) {
    this.argv = [process.execPath, binPath, ...spec.argv];
    // A bin a request starts (a tool spawning another) runs in its own process: asking this
    // daemon back could wait on the cwd gate behind the very request that started it.
    this.env = { ...spec.env, LLMTOOLS_IN_DAEMON: "1" };
    this.finished = new Promise((r) => (this.resolveFinished = r));
    const writer = (send: (b: Buffer) => void, isTTY: boolean): Writable => {
      const w = new Writable({
        write: (chunk: Buffer | string, enc: BufferEncoding, cb: (e?: Error | null) => void) => {
          if (!this.done) send(typeof chunk === "string" ? Buffer.from(chunk, enc) : chunk);
          cb();
        },
      });
      return Object.assign(w, { isTTY, columns: isTTY ? spec.columns : undefined });
    };
    this.stdout = writer((b) => io.stdout(b), spec.tty.stdout);
    this.stderr = writer((b) => io.stderr(b), spec.tty.stderr);
    let asked = false;
    this.stdin = Object.assign(
      new Readable({
        read: () => {
          if (!asked) {
            asked = true;
            io.wantStdin();
          }
        },
      }),
      { isTTY: spec.tty.stdin },
    );
  }

  get cwd(): string {
    return this.spec.cwd;
  }

  /** The run's exit code is known; the first call wins. */
  finish(code: number): void {
    if (this.done) return;
    this.done = true;
    this.resolveFinished(code);
  }

  get isDone(): boolean {
    return this.done;
  }
}

export const requests = new AsyncLocalStorage<RequestContext>();

/** What src/cli/output.ts looks up (by this global symbol, so any copy of that module finds it). */
const HOOKS = Symbol.for("llmtools.runHooks");

let installed = false;

/** Routes process.argv/cwd/env/stdio/exit through the current request. Called once, in the daemon. */
export function installRequestContext(): void {
  if (installed) return;
  installed = true;
  provideCancelSignal(() => requests.getStore()?.signal);
  const realCwd = process.cwd.bind(process);
  process.cwd = () => requests.getStore()?.cwd ?? realCwd();

  let realArgv = process.argv;
  Object.defineProperty(process, "argv", {
    configurable: true,
    enumerable: true,
    get: () => requests.getStore()?.argv ?? realArgv,
    set: (v: string[]) => {
      realArgv = v;
    },
  });

  for (const name of ["stdout", "stderr", "stdin"] as const) {
    const desc = Object.getOwnPropertyDescriptor(process, name) as PropertyDescriptor;
    const realGet = desc.get as () => unknown;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: desc.enumerable ?? true,
      get() {
        const s = requests.getStore();
        return s ? s[name] : realGet.call(process);
      },
    });
  }

  const realEnv = process.env;
  const envOf = (): Record<string, string | undefined> => requests.getStore()?.env ?? realEnv;
  process.env = new Proxy(realEnv, {
    get: (_t, k) => (typeof k === "string" ? envOf()[k] : undefined),
    set: (_t, k, v) => {
      if (typeof k === "string") envOf()[k] = String(v);
      return true;
    },
    has: (_t, k) => typeof k === "string" && k in envOf(),
    deleteProperty: (_t, k) => {
      if (typeof k === "string") delete envOf()[k];
      return true;
    },
    ownKeys: () => Reflect.ownKeys(envOf()),
    getOwnPropertyDescriptor: (_t, k) => {
      const env = envOf();
      return typeof k === "string" && k in env ? { value: env[k], writable: true, enumerable: true, configurable: true } : undefined;
    },
  });

  const realExit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => {
    const s = requests.getStore();
    if (!s) return realExit(code as number | undefined);
    const n = code === undefined || code === null ? 0 : Number(code);
    s.finish(n);
    throw new RequestExit(n);
  }) as typeof process.exit;

  // A CLI that turns SIGINT/SIGTERM into its own exit (llmfilewrite) must not take the daemon's
  // signals over, once per request.
  const signals = new Set(["SIGINT", "SIGTERM", "SIGHUP"]);
  for (const method of ["on", "once", "addListener", "prependListener", "prependOnceListener"] as const) {
    const real = process[method].bind(process) as (event: string | symbol, fn: (...a: unknown[]) => void) => NodeJS.Process;
    (process as unknown as Record<string, unknown>)[method] = (event: string | symbol, fn: (...a: unknown[]) => void) =>
      requests.getStore() && typeof event === "string" && signals.has(event) ? process : real(event, fn);
  }

  (globalThis as Record<symbol, unknown>)[HOOKS] = {
    beforePrint(result: { envelope: unknown }): void {
      const s = requests.getStore();
      const note = s?.freshness?.();
      const env = result.envelope as { diagnostics?: unknown[]; tool?: unknown } | undefined;
      if (!note || !env || typeof env !== "object" || typeof env.tool !== "string" || env.tool === "mdsel") return;
      env.diagnostics = [...(env.diagnostics ?? []), note];
    },
    finished(code: number): void {
      requests.getStore()?.finish(code);
    },
  };
}
