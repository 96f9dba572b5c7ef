/**
 * Python: pyright's language server over LSP stdio. The new content is opened at the file's real
 * URI (didOpen), so pyright checks it in its project (pyrightconfig.json / pyproject.toml, the
 * same imports) while nothing is written anywhere; diagnostics are pulled with
 * textDocument/diagnostic, which answers once the file is analysed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Rpc from "vscode-jsonrpc/node";
import { stdioConnection } from "../lsp-stdio.js";
import { findUp } from "../process.js";
import type { ContentPositions } from "../positions.js";
import type { ChangeCheck, ChangeCheckContext, Raw } from "../change.js";
import { ContentPositions as Positions } from "../positions.js";
import type { CheckerOutcome, Level } from "../types.js";
import { failed, timedOut, type CheckContext } from "./common.js";

const require = createRequire(import.meta.url);

interface LspDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  message: string;
  source?: string;
}

export class PyrightServer {
  private readonly child: ChildProcess;
  private readonly conn: Rpc.MessageConnection;
  private readonly versions = new Map<string, number>();
  private ready: Promise<void>;
  readonly version: string;
  private dead = false;

  constructor(readonly workspaceDir: string, env: NodeJS.ProcessEnv) {
    const pkgDir = dirname(require.resolve("pyright/package.json"));
    this.version = (require("pyright/package.json") as { version: string }).version;
    this.child = spawn(process.execPath, [join(pkgDir, "dist", "pyright-langserver.js"), "--stdio"], {
      stdio: ["pipe", "pipe", "ignore"],
      env,
    });
    this.child.on("exit", () => {
      this.dead = true;
    });
    const stdout = this.child.stdout;
    const stdin = this.child.stdin;
    if (!stdout || !stdin) throw new Error("pyright-langserver: no stdio pipes");
    // Connected after the server is spawned: its start waits for nothing.
    this.conn = stdioConnection(stdout, stdin);
    this.conn.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => null));
    this.conn.onRequest("client/registerCapability", () => null);
    this.conn.onRequest("window/workDoneProgress/create", () => null);
    this.conn.onNotification(() => undefined);
    this.conn.onRequest((method: string) => {
      if (process.env.LLMTOOLS_DEBUG_LSP) process.stderr.write(`pyright asked ${method}\n`);
      return null;
    });
    this.conn.onError(() => undefined);
    this.conn.listen();
    const rootUri = pathToFileURL(workspaceDir).href;
    this.ready = this.conn
      .sendRequest("initialize", {
        processId: process.pid,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: "workspace" }],
        capabilities: {
          workspace: { configuration: true, workspaceFolders: true },
          textDocument: { publishDiagnostics: {}, diagnostic: { dynamicRegistration: true } },
        },
      })
      .then(() => this.conn.sendNotification("initialized", {}));
  }

  get alive(): boolean {
    return !this.dead;
  }

  async diagnostics(abs: string, text: string): Promise<LspDiagnostic[]> {
    await this.show(abs, text);
    return this.pull(abs);
  }

  /** Gives the server this text for the file (open, or a new version of an open document). */
  async show(abs: string, text: string): Promise<void> {
    await this.ready;
    const uri = pathToFileURL(abs).href;
    const v = this.versions.get(uri);
    if (v === undefined) {
      await this.conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "python", version: 1, text } });
      this.versions.set(uri, 1);
    } else {
      await this.conn.sendNotification("textDocument/didChange", { textDocument: { uri, version: v + 1 }, contentChanges: [{ text }] });
      this.versions.set(uri, v + 1);
    }
  }

  /** The diagnostics of a file as the server sees it now, with every document shown so far. */
  async pull(abs: string): Promise<LspDiagnostic[]> {
    await this.ready;
    const uri = pathToFileURL(abs).href;
    const report = (await this.conn.sendRequest("textDocument/diagnostic", { textDocument: { uri } })) as { items?: LspDiagnostic[] };
    return report.items ?? [];
  }

  /** Forgets an open document, so that the server reads the file from disk again. */
  async close(abs: string): Promise<void> {
    const uri = pathToFileURL(abs).href;
    if (!this.versions.has(uri)) return;
    this.versions.delete(uri);
    await this.conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
  }

  dispose(): void {
    this.dead = true;
    this.conn.dispose();
    this.child.kill("SIGKILL");
  }
}

const LEVEL: Record<number, Level> = { 1: "error", 2: "warning", 3: "note" };

export async function checkPython(ctx: CheckContext, _content: Uint8Array, pos: ContentPositions): Promise<CheckerOutcome> {
  const project = findUp(dirname(ctx.abs), ctx.root, ["pyrightconfig.json", "pyproject.toml"]);
  const workspace = project?.dir ?? ctx.root;
  const key = `pyright:${workspace}`;
  const server = ctx.session.get(key, () => new PyrightServer(workspace, ctx.env));
  const ran = `pyright ${server.version} (langserver, workspace ${workspace === ctx.root ? "." : workspace.slice(ctx.root.length + 1)})`;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ctx.timeoutMs);
  });
  let items: LspDiagnostic[] | "timeout";
  try {
    items = await Promise.race([server.diagnostics(ctx.abs, pos.text), deadline]);
  } catch (e) {
    ctx.session.drop(key);
    return failed(ctx, "pyright", e instanceof Error ? e.message : String(e));
  } finally {
    clearTimeout(timer);
  }
  if (items === "timeout") {
    ctx.session.drop(key);
    return timedOut(ctx, "pyright");
  }
  const diagnostics: CheckerOutcome["diagnostics"] = [];
  for (const d of items) {
    // Severity 4 (hint) is pyright's greyed-out "unused"/"unreachable" marking, not a finding.
    const level = LEVEL[d.severity ?? 1];
    if (!level) continue;
    diagnostics.push({
      level,
      message: d.message,
      file: ctx.relPath,
      ...pos.fromLsp(d.range),
      code: d.code === undefined ? "pyright" : String(d.code),
      source: "pyright",
    });
  }
  return { ran, diagnostics };
}

const SKIP_DIRS = new Set([".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", "build", "dist"]);
const IMPORTER_LIMIT = 500;

/**
 * Python files of the project at `dir` (bounded): virtualenvs and caches skipped, and so are
 * sub-directories with a configuration of their own (another project, checked in its own).
 */
function pythonFiles(dir: string, limit: number): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    if (d !== dir && entries.some((e) => e.isFile() && (e.name === "pyrightconfig.json" || e.name === "pyproject.toml"))) return;
    for (const e of entries) {
      if (out.length >= limit) return;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) walk(join(d, e.name));
      } else if (e.isFile() && /\.pyi?$/.test(e.name)) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

/**
 * Modules that may import one of `changed`: an import naming the changed module (or its package,
 * for __init__), and, through a package's `__init__.py` that imports it (the way a package
 * re-exports its API), the modules importing that package: typer's docs call `app.add_typer`
 * after `import typer`, whose `__init__.py` takes Typer from `.main`, and a change to
 * `add_typer`'s keywords in typer/main.py was checked against typer's own modules only.
 */
function importersOf(workspace: string, changed: string[]): { files: string[]; truncated: boolean } {
  const all = pythonFiles(workspace, 20_000);
  const set = new Set(changed);
  const texts = new Map<string, string | null>();
  const textOf = (f: string): string | null => {
    if (!texts.has(f)) {
      try {
        texts.set(f, readFileSync(f, "utf8"));
      } catch {
        texts.set(f, null);
      }
    }
    return texts.get(f) ?? null;
  };
  const nameOf = (c: string): string => {
    const stem = basename(c).replace(/\.pyi?$/, "");
    return stem === "__init__" ? basename(dirname(c)) : stem;
  };
  let names = new Set(changed.map(nameOf));
  const found = new Set<string>();
  const files: string[] = [];
  for (let round = 0; round < 3 && names.size > 0; round++) {
    const alt = [...names].map((n) => n.replace(/[^\w]/g, "")).filter(Boolean).join("|");
    if (!alt) break;
    const re = new RegExp(`^\\s*(from\\s+[\\w.]*\\b(${alt})\\b[\\w.]*\\s+import|import\\s+[\\w., ]*\\b(${alt})\\b|from\\s+[.\\w]+\\s+import\\s+[^\\n]*\\b(${alt})\\b)`, "m");
    const next = new Set<string>();
    for (const f of all) {
      if (set.has(f) || found.has(f)) continue;
      const text = textOf(f);
      if (text === null || !re.test(text)) continue;
      found.add(f);
      files.push(f);
      if (basename(f) === "__init__.py") next.add(nameOf(f));
      if (files.length >= IMPORTER_LIMIT) return { files, truncated: true };
    }
    names = next;
  }
  return { files, truncated: false };
}

/**
 * Python over a whole change: one pyright server per project, the changed files opened with
 * their before content, then their after content, diagnostics pulled each time for them and for
 * the project modules importing them (a caller of a changed signature); the documents are closed
 * afterwards so the server reads the disk again.
 */
/**
 * Each changed file is checked in its own pyright project (the nearest pyrightconfig.json or
 * pyproject.toml): a repository's examples or sub-packages often have their own, with other
 * import roots. One server per project, the projects one after the other.
 */
export async function checkPythonChange(ctx: ChangeCheckContext): Promise<ChangeCheck> {
  const groups = new Map<string, ChangeCheckContext["files"]>();
  for (const f of ctx.files) {
    const dir = findUp(dirname(join(ctx.root, f.path)), ctx.root, ["pyrightconfig.json", "pyproject.toml"])?.dir ?? ctx.root;
    const g = groups.get(dir);
    if (g) g.push(f);
    else groups.set(dir, [f]);
  }
  if (groups.size <= 1) return checkPythonProject(ctx, [...groups.keys()][0] ?? ctx.root);
  const parts: ChangeCheck[] = [];
  for (const [dir, files] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) parts.push(await checkPythonProject({ ...ctx, files }, dir));
  const bad = parts.find((p) => p.run.status !== "ran");
  return {
    run: { ...(bad ?? parts[0]!).run, checker: parts.map((p) => p.run.checker).join("; ") },
    before: parts.flatMap((p) => p.before),
    after: parts.flatMap((p) => p.after),
    notes: parts.flatMap((p) => p.notes),
  };
}

async function checkPythonProject(ctx: ChangeCheckContext, workspace: string): Promise<ChangeCheck> {
  const first = ctx.files[0];
  const language = "python" as const;
  const absOf = (p: string): string => join(ctx.root, p);
  const key = `pyright:${workspace}`;
  const server = ctx.session.get(key, () => new PyrightServer(workspace, ctx.env));
  const importers = importersOf(workspace, ctx.files.map((f) => absOf(f.path)));
  const where = workspace === ctx.root ? "." : relative(ctx.root, workspace);
  const name = `pyright ${server.version} (langserver, workspace ${where}, ${ctx.files.length} changed + ${importers.files.length} importing)`;
  const convert = (abs: string, items: LspDiagnostic[], pos: Positions | undefined): Raw[] => {
    const out: Raw[] = [];
    const file = relative(ctx.root, abs);
    for (const d of items) {
      const level = LEVEL[d.severity ?? 1];
      if (!level) continue;
      const base: Raw = { level, message: d.message, file, code: d.code === undefined ? "pyright" : String(d.code), source: "pyright" };
      out.push(pos ? { ...base, ...pos.fromLsp(d.range) } : { ...base, start_line: d.range.start.line + 1 });
    }
    return out;
  };
  const phase = async (which: "before" | "after"): Promise<Raw[]> => {
    // Every file of the phase is shown before any is pulled: a module checked while the one it
    // imports still had the other phase's text would report names that the change itself moved
    // (an importer sorted before the renamed definition was rejected that way).
    const shown: { abs: string; pos: Positions | undefined }[] = [];
    for (const f of ctx.files) {
      const bytes = which === "before" ? f.before : f.after;
      if (bytes === null) continue;
      await server.show(absOf(f.path), new TextDecoder().decode(bytes));
      shown.push({ abs: absOf(f.path), pos: which === "after" ? new Positions(bytes) : undefined });
    }
    for (const imp of importers.files) {
      // Opened with its disk content (unchanged by the change): pulled again in each phase.
      await server.show(imp, readFileSync(imp, "utf8"));
      shown.push({ abs: imp, pos: undefined });
    }
    const out: Raw[] = [];
    for (const s of shown) out.push(...convert(s.abs, await server.pull(s.abs), s.pos));
    return out;
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ctx.timeoutMs);
  });
  try {
    const run = (async () => {
      // Deleted files are closed and absent for the after phase only as far as pyright reads
      // the disk: a deletion's broken importers are not seen (said in the docs).
      const before = await phase("before");
      const after = await phase("after");
      return { before, after };
    })();
    const r = await Promise.race([run, deadline]);
    if (r === "timeout") {
      ctx.session.drop(key);
      return { run: { language, checker: name, version: server.version, status: "timeout", reason: `pyright gave no answer within ${Math.round(ctx.timeoutMs / 1000)} s` }, before: [], after: [], notes: [] };
    }
    const notes: Raw[] = importers.truncated
      ? [{ level: "warning", message: `more than ${IMPORTER_LIMIT} modules import the changed files; only the first ${IMPORTER_LIMIT} were checked for breakage`, file: first?.path ?? "", code: "checker.scope", source: "validate" }]
      : [];
    return { run: { language, checker: name, version: server.version, status: "ran" }, before: r.before, after: r.after, notes };
  } catch (e) {
    ctx.session.drop(key);
    return { run: { language, checker: name, version: server.version, status: "failed", reason: e instanceof Error ? e.message : String(e) }, before: [], after: [], notes: [] };
  } finally {
    clearTimeout(timer);
    if (server.alive) for (const f of [...ctx.files.map((x) => absOf(x.path)), ...importers.files]) await server.close(f).catch(() => undefined);
  }
}
