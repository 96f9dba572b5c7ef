/**
 * TypeScript and JavaScript: the compiler API (a Program, typescript-project.ts) in a worker
 * thread (ts-worker.ts), so a check can be cut off at --timeout like any external checker. The
 * session keeps one worker, which keeps one service per project.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import type { ContentPositions } from "../positions.js";
import { CONFIG_NOT_APPLIED } from "../notes.js";
import type { CheckerOutcome } from "../types.js";
import { failed, timedOut, type CheckContext } from "./common.js";
import type { TsChangeRequest, TsChangeResponse, TsCheckRequest, TsCheckResponse } from "./ts-worker.js";

export interface TypeScriptChoice {
  /** The compiler's main file (lib/typescript.js). */
  path: string;
  version: string;
  /** True when it is the project's own (resolved from the workspace root), false for ours. */
  own: boolean;
}

const choices = new Map<string, TypeScriptChoice>();

/**
 * The compiler a project builds with: its own `typescript` as Node resolves it from the root (its
 * version and its lib .d.ts files decide what is valid), else the one llmtools ships. A project
 * compiler older than 4.0 lacks the API the checker uses: ours runs then, and says so.
 */
export function typeScriptFor(root: string): TypeScriptChoice {
  let c = choices.get(root);
  if (c) return c;
  const ours = (): TypeScriptChoice => {
    const req = createRequire(import.meta.url);
    const pkg = req.resolve("typescript/package.json");
    return { path: req.resolve("typescript"), version: (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version, own: false };
  };
  try {
    const req = createRequire(join(root, "package.json"));
    const pkg = req.resolve("typescript/package.json");
    const version = (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
    const major = Number(version.split(".")[0]);
    c = major >= 4 ? { path: join(dirname(pkg), "lib", "typescript.js"), version, own: true } : ours();
  } catch {
    c = ours();
  }
  choices.set(root, c);
  return c;
}

export function describeTypeScript(c: TypeScriptChoice): string {
  return c.own ? `typescript ${c.version} (the project's own)` : `typescript ${c.version} (llmtools' own: the project has none)`;
}

/** A stopped worker answers nothing (its exit may have come before the question): the question fails at once. */
function stopped(id: number): { id: number; ok: false; error: string } {
  return { id, ok: false, error: "the TypeScript worker was stopped" };
}

export class TsWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (r: TsCheckResponse) => void>();
  private nextId = 1;
  private dead = false;

  constructor(typescript?: string) {
    this.worker = new Worker(new URL("./ts-worker.js", import.meta.url), { workerData: { typescript } });
    this.worker.on("message", (r: TsCheckResponse) => {
      this.pending.get(r.id)?.(r);
      this.pending.delete(r.id);
    });
    const fail = (why: string): void => {
      this.dead = true;
      for (const [id, resolve] of this.pending) resolve({ id, ok: false, error: why });
      this.pending.clear();
    };
    this.worker.on("error", (e) => fail(e.stack ?? e.message));
    this.worker.on("exit", (code) => fail(`worker exited (${code})`));
  }

  get alive(): boolean {
    return !this.dead;
  }

  check(req: Omit<TsCheckRequest, "id">): Promise<TsCheckResponse> {
    const id = this.nextId++;
    if (this.dead) return Promise.resolve(stopped(id));
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ ...req, id });
    });
  }

  checkChange(req: Omit<TsChangeRequest, "id" | "kind">): Promise<TsChangeResponse> {
    const id = this.nextId++;
    if (this.dead) return Promise.resolve(stopped(id));
    return new Promise((resolve) => {
      this.pending.set(id, resolve as (r: TsCheckResponse) => void);
      this.worker.postMessage({ ...req, kind: "change", id });
    });
  }

  dispose(): void {
    this.dead = true;
    void this.worker.terminate();
  }
}

function relativeTo(root: string, abs: string): string {
  return abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : abs;
}

export async function checkTypeScript(ctx: CheckContext, _content: Uint8Array, pos: ContentPositions): Promise<CheckerOutcome> {
  const choice = typeScriptFor(ctx.root);
  const key = `typescript-worker:${choice.path}`;
  const worker = ctx.session.get(key, () => new TsWorker(choice.path));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ctx.timeoutMs);
  });
  const res = await Promise.race([worker.check({ root: ctx.root, abs: ctx.abs, javascript: ctx.language === "javascript", text: pos.text }), deadline]);
  clearTimeout(timer);
  if (res === "timeout") {
    ctx.session.drop(key);
    return timedOut(ctx, "the TypeScript compiler");
  }
  if (!res.ok) {
    ctx.session.drop(key);
    return failed(ctx, "the TypeScript compiler", res.error);
  }
  const config = res.config;
  const ran = `${describeTypeScript(choice)} compiler API${config ? ` (${relativeTo(ctx.root, config)})` : " (no tsconfig.json: default strict options)"}`;
  const diagnostics: CheckerOutcome["diagnostics"] = res.configErrors.map((m) => ({
    level: "warning" as const,
    message: m,
    file: config ? relativeTo(ctx.root, config) : ctx.relPath,
    code: CONFIG_NOT_APPLIED,
    source: "typescript",
  }));
  for (const d of res.diagnostics) {
    const code = `TS${d.code}`;
    if (d.file !== undefined && d.file !== ctx.abs) {
      diagnostics.push({ level: d.category, message: d.message, file: relativeTo(ctx.root, d.file), code, source: "typescript" });
    } else if (d.start !== undefined) {
      diagnostics.push({ level: d.category, message: d.message, file: ctx.relPath, ...pos.fromUtf16(d.start, d.start + (d.length ?? 0)), code, source: "typescript" });
    } else {
      diagnostics.push({ level: d.category, message: d.message, file: ctx.relPath, code, source: "typescript" });
    }
  }
  return { ran, diagnostics };
}
