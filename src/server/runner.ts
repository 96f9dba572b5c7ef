/**
 * Runs a tool's CLI entry (dist/src/cli/<tool>.js) for one request inside the daemon.
 *
 * An entry keeps per-run state at its top level (its commander program, what was parsed), so
 * each request needs a fresh evaluation of it, but importing it again under a new URL would
 * keep every copy alive for the daemon's lifetime. Instead the entry's source is compiled once
 * into a function whose body is the module's, with its static imports turned into awaited
 * dynamic ones: each call is a fresh evaluation of that thin file, while everything it imports
 * (the tools, the graph, tree-sitter, the caches) is the ES module instance the daemon already
 * holds, warm.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { RequestContext, RequestExit, type RequestIO, type RequestSpec, requests } from "./context.js";

type EntryFn = (load: (spec: string) => Promise<unknown>, moduleUrl: string) => Promise<void>;

const CLI_DIR = new URL("../cli/", import.meta.url);

/** tsc's output for an entry, rewritten into the body of an async function (see above). */
export function entryBody(source: string): string {
  const lines = (m: string): string => "\n".repeat(m.split("\n").length - 1);
  const names = (list: string): string =>
    list
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n !== "")
      .map((n) => n.replace(/^(\S+)\s+as\s+(\S+)$/, "$1: $2"))
      .join(", ");
  return source
    .replace(/^#!.*/, "")
    .replace(/^import\s*\{([^}]*)\}\s*from\s*("[^"]+"|'[^']+');?/gm, (m, list: string, spec: string) => `const { ${names(list)} } = await __load(${spec});${lines(m)}`)
    .replace(/^import\s*\*\s*as\s+([\w$]+)\s+from\s*("[^"]+"|'[^']+');?/gm, (m, id: string, spec: string) => `const ${id} = await __load(${spec});${lines(m)}`)
    .replace(/^import\s+([\w$]+)\s+from\s*("[^"]+"|'[^']+');?/gm, (m, id: string, spec: string) => `const ${id} = (await __load(${spec})).default;${lines(m)}`)
    .replace(/^import\s*("[^"]+"|'[^']+');?/gm, (_m, spec: string) => `await __load(${spec});`)
    .replace(/^export\s*\{[^}]*\}(\s*from\s*("[^"]+"|'[^']+'))?;?/gm, (m) => lines(m))
    .replace(/^export\s+(default\s+)?(?=(async\s+)?function|const|let|var|class)/gm, "")
    .replace(/\bimport\(/g, "__load(")
    .replace(/\bimport\.meta\.url\b/g, "__moduleUrl");
}

const compiled = new Map<string, EntryFn>();

/** The compiled entry of `tool`, or undefined when there is no such CLI. */
export function entryOf(tool: string): EntryFn | undefined {
  if (!/^[a-z][a-z-]*$/.test(tool)) return undefined;
  let fn = compiled.get(tool);
  if (fn) return fn;
  const file = fileURLToPath(new URL(`${tool}.js`, CLI_DIR));
  if (!existsSync(file)) return undefined;
  const body = entryBody(readFileSync(file, "utf8"));
  const script = new Script(`(async function (__load, __moduleUrl) {"use strict";${body}\n})`, { filename: file });
  fn = script.runInThisContext() as EntryFn;
  compiled.set(tool, fn);
  return fn;
}

/** The bin a CLI run believes it was started as (process.argv[1]). */
function binOf(tool: string): string {
  return fileURLToPath(new URL(`${tool}-bin.cjs`, CLI_DIR));
}

/**
 * Real relative paths (fs calls the tools make with a path relative to the cwd) follow the
 * process's own cwd, so requests from different directories take turns: all requests from one
 * directory run together, and the daemon changes directory only when none is running.
 */
class CwdGate {
  private current = process.cwd();
  private active = 0;
  private readonly queue: { cwd: string; go: (err?: unknown) => void }[] = [];

  enter(cwd: string): Promise<void> {
    if (this.queue.length === 0 && (this.active === 0 || cwd === this.current)) {
      this.take(cwd);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.queue.push({ cwd, go: (e) => (e === undefined ? resolve() : reject(e)) }));
  }

  leave(): void {
    this.active--;
    while (this.queue.length > 0) {
      const next = this.queue[0] as { cwd: string; go: (err?: unknown) => void };
      if (this.active > 0 && next.cwd !== this.current) return;
      this.queue.shift();
      try {
        this.take(next.cwd);
        next.go();
      } catch (e) {
        next.go(e);
      }
    }
  }

  private take(cwd: string): void {
    if (cwd !== this.current) {
      process.chdir(cwd);
      this.current = cwd;
    }
    this.active++;
  }
}

const gate = new CwdGate();

export interface RunOptions {
  /** Adds the freshness note to the answer (see context.ts). */
  freshness?: () => object | undefined;
  /** Called with the request's context before the CLI runs (to feed its stdin). */
  onContext?: (ctx: RequestContext) => void;
  /** Aborted when the client went away: a request still waiting for its turn does not run. */
  signal?: AbortSignal;
}

/**
 * Runs one command line; resolves with its exit code once it printed its answer. Throws when
 * the request cannot run here at all (no such tool, the cwd is gone): the client then runs it
 * itself.
 */
export async function runRequest(spec: RequestSpec, io: RequestIO, opts: RunOptions = {}): Promise<number> {
  const entry = entryOf(spec.tool);
  if (!entry) throw new Error(`no CLI named ${spec.tool}`);
  await gate.enter(spec.cwd);
  try {
    // Its client left while it waited behind requests from another directory: nobody to answer.
    if (opts.signal?.aborted) return 1;
    const ctx = new RequestContext(spec, binOf(spec.tool), io, opts.signal);
    ctx.freshness = opts.freshness;
    opts.onContext?.(ctx);
    const moduleUrl = pathToFileURL(fileURLToPath(new URL(`${spec.tool}.js`, CLI_DIR))).href;
    const load = (s: string): Promise<unknown> => import(s.startsWith(".") ? new URL(s, moduleUrl).href : s);
    requests.run(ctx, () => {
      entry(load, moduleUrl).catch((e: unknown) => {
        if (e instanceof RequestExit) return;
        // The entry itself failed to load or threw at its top level: a bug, told as the CLI would.
        ctx.stderr.write(`${spec.tool}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
        ctx.finish(1);
      });
    });
    return await ctx.finished;
  } finally {
    gate.leave();
  }
}
