/**
 * Python: pyright's language server over LSP stdio. The new content is opened at the file's real
 * URI (didOpen), so pyright checks it in its project (pyrightconfig.json / pyproject.toml, the
 * same imports) while nothing is written anywhere; diagnostics are pulled with
 * textDocument/diagnostic, which answers once the file is analysed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Rpc from "vscode-jsonrpc/node";
import { findUp } from "../process.js";
import type { ContentPositions } from "../positions.js";
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
    // Loaded after the server is spawned, and with require(): an ESM import of this CommonJS
    // package is lexed for named exports first; either way the server's start waits for nothing.
    const rpc = require("vscode-jsonrpc/node") as typeof Rpc;
    this.conn = rpc.createMessageConnection(new rpc.StreamMessageReader(stdout), new rpc.StreamMessageWriter(stdin));
    this.conn.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => null));
    this.conn.onRequest("client/registerCapability", () => null);
    this.conn.onRequest("window/workDoneProgress/create", () => null);
    this.conn.onNotification(() => undefined);
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
    const report = (await this.conn.sendRequest("textDocument/diagnostic", { textDocument: { uri } })) as { items?: LspDiagnostic[] };
    return report.items ?? [];
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
