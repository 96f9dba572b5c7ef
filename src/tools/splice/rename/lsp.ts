/**
 * Rename through a language server over LSP (stdio JSON-RPC): pyright for Python, gopls for Go,
 * clangd for C/C++, rust-analyzer for Rust. One short-lived session per rename: initialize with
 * the workspace root, open the target file (and every overlaid file of the language, with the
 * overlay's text), prepareRename, rename, turn the WorkspaceEdit into byte locations, then check
 * the renamed text for captures (see checkCaptures) before shutting the server down.
 */
import { guessedIncludeFlags } from "../../../validate/checkers/c.js";
import { GO_TOO_OLD, goModNewerThan } from "../../../validate/checkers/go.js";
import { stdioConnection } from "../../../validate/lsp-stdio.js";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { MessageConnection } from "vscode-jsonrpc/node";
import { ToolError } from "../../../contract/errors.js";
import type { Diagnostic } from "../../../contract/schema.js";
import { type LanguageId, languageForPath, parse } from "../../../lang/registry.js";
import type Parser from "tree-sitter";
import { walkFiles } from "../../../text/walk.js";
import { commentsAndStrings } from "../code-text.js";
import { renameError, renameNote } from "./codes.js";
import { TextOffsets } from "./offsets.js";
import type { Sources } from "./sources.js";
import type { RenameLocation, RenamePlan, RenameTarget } from "./types.js";

const localRequire = createRequire(import.meta.url);

export interface ServerSpec {
  name: string;
  command: string;
  args: string[];
  /** LSP languageId for didOpen */
  languageId: string;
  /** extensions of files to open when overlaid */
  extensions: RegExp;
  /** clangd indexes in the background: a cross-file rename must wait for the index. */
  waitForIndex?: boolean;
  /**
   * The server's rename reaches only the files of its configured project (pyright: `include` of
   * pyrightconfig.json / [tool.pyright], often just `src`). The workspace's other files that
   * mention the name are opened, and each mention the rename left alone is asked for its
   * definition: one that leads to the renamed symbol is renamed too (tests and examples outside
   * `include` would break otherwise).
   */
  openMentions?: boolean;
  /** Sent with `initialize`. */
  initializationOptions?: Record<string, unknown>;
  version?: string;
}

function which(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return undefined;
}

/** Runs `cmd --version`; a proxy that cannot start its server (rustup without the component) fails here. */
function probe(cmd: string, args: string[]): { ok: boolean; version?: string; reason?: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 10_000 });
  if (r.status === 0) return { ok: true, version: `${r.stdout}${r.stderr}`.trim().split("\n")[0] ?? "" };
  return { ok: false, reason: `${r.error?.message ?? ""}${r.stderr ?? ""}`.trim().split("\n")[0] ?? `exit ${r.status}` };
}

const probes = new Map<string, ReturnType<typeof probe>>();
function probeOnce(cmd: string, args: string[]): ReturnType<typeof probe> {
  let p = probes.get(cmd);
  if (!p) {
    p = probe(cmd, args);
    probes.set(cmd, p);
  }
  return p;
}

function findUpFile(start: string, root: string, names: string[]): string | undefined {
  let dir = start;
  for (;;) {
    for (const n of names) if (existsSync(join(dir, n))) return join(dir, n);
    if (dir === root || dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

/** The server for a language, or why there is none (the caller falls back and says so). */
export function serverFor(language: LanguageId, root: string, abs: string): ServerSpec | { absent: string } {
  switch (language) {
    case "python": {
      const script = localRequire.resolve("pyright/langserver.index.js");
      const pkg = localRequire("pyright/package.json") as { version: string };
      return { name: "pyright", command: process.execPath, args: [script, "--stdio"], languageId: "python", extensions: /\.pyi?$/, version: pkg.version, openMentions: true };
    }
    case "go": {
      if (!which("gopls")) return { absent: "gopls is not on PATH" };
      const p = probeOnce("gopls", ["version"]);
      if (!p.ok) return { absent: `gopls does not run: ${p.reason}` };
      return { name: "gopls", command: "gopls", args: ["serve"], languageId: "go", extensions: /\.go$/, ...(p.version ? { version: p.version } : {}) };
    }
    case "c":
    case "cpp": {
      if (!which("clangd")) return { absent: "clangd is not on PATH" };
      const p = probeOnce("clangd", ["--version"]);
      if (!p.ok) return { absent: `clangd does not run: ${p.reason}` };
      const cc = findUpFile(dirname(abs), root, ["compile_commands.json", "build/compile_commands.json"]);
      const args = ["--background-index", "--log=error", "--pch-storage=memory"];
      if (cc) args.push(`--compile-commands-dir=${dirname(cc)}`);
      // Without a compilation database clangd parses a `.h` on its own as C++, where a C
      // function is another symbol than in the .c files (its USR carries the parameter types):
      // the fallback flags say which language the headers are.
      // (And the include/ and src/ directories the checker guesses too: libuv's uses of
      // uv__io_start in other .c files reach internal.h only through "uv-common.h" in src/.)
      const initializationOptions = cc ? {} : { fallbackFlags: [language === "c" ? "-xc" : "-xc++", ...guessedIncludeFlags(root)] };
      return { name: "clangd", command: "clangd", args, languageId: language, extensions: /\.(c|h|cc|cpp|cxx|hpp|hh|hxx)$/, waitForIndex: true, openMentions: !cc, initializationOptions, ...(p.version ? { version: p.version } : {}) };
    }
    case "rust": {
      if (!which("rust-analyzer")) return { absent: "rust-analyzer is not on PATH" };
      const p = probeOnce("rust-analyzer", ["--version"]);
      if (!p.ok) return { absent: `rust-analyzer is on PATH but does not run (${p.reason})` };
      return { name: "rust-analyzer", command: "rust-analyzer", args: [], languageId: "rust", extensions: /\.rs$/, ...(p.version ? { version: p.version } : {}) };
    }
    default:
      return { absent: `no language server is wired for ${language}` };
  }
}

interface Position {
  line: number;
  character: number;
}
interface Range {
  start: Position;
  end: Position;
}
interface TextEdit {
  range: Range;
  newText: string;
}
interface WorkspaceEdit {
  changes?: Record<string, TextEdit[]>;
  documentChanges?: ({ textDocument: { uri: string }; edits: TextEdit[] } | { kind: string; uri?: string; oldUri?: string })[];
}
interface LspLocation {
  uri: string;
  range: Range;
}

export class Session {
  private readonly child: ChildProcess;
  readonly conn: MessageConnection;
  private stderr = "";
  private exited: string | undefined;
  private readonly progress = new Map<string | number, "begin" | "end">();
  private progressListeners: (() => void)[] = [];
  private readonly versions = new Map<string, number>();
  private readonly exitPromise: Promise<never>;

  constructor(readonly spec: ServerSpec, cwd: string) {
    this.child = spawn(spec.command, spec.args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr!.on("data", (b: Buffer) => {
      if (this.stderr.length < 8000) this.stderr += b.toString("utf8");
    });
    this.child.on("exit", (code, sig) => {
      this.exited = `${spec.name} exited (${sig ?? code})${this.stderr ? `: ${this.stderr.trim().split("\n").slice(-3).join(" | ")}` : ""}`;
    });
    this.child.on("error", (e) => {
      this.exited = `${spec.name} did not start: ${e.message}`;
    });
    this.exitPromise = new Promise<never>((_, reject) => {
      const fail = (): void => reject(new Error(this.exited ?? `${spec.name} exited`));
      this.child.once("exit", fail);
      this.child.once("error", fail);
    });
    this.exitPromise.catch(() => undefined);
    // A server that exits while a message is in flight must not take this process down with
    // an unhandled EPIPE: its exit is reported through `failure`.
    this.child.stdin!.on("error", () => undefined);
    this.conn = stdioConnection(this.child.stdout!, this.child.stdin!);
    this.conn.onRequest("window/workDoneProgress/create", () => null);
    this.conn.onRequest("client/registerCapability", () => null);
    this.conn.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => null));
    this.conn.onRequest("workspace/workspaceFolders", () => null);
    this.conn.onNotification("$/progress", (p: { token: string | number; value: { kind: "begin" | "report" | "end" } }) => {
      if (p.value.kind === "begin" || p.value.kind === "end") this.progress.set(p.token, p.value.kind);
      for (const l of this.progressListeners) l();
    });
    this.conn.listen();
  }

  get failure(): string | undefined {
    return this.exited;
  }

  async request<T>(method: string, params: unknown, timeoutMs: number): Promise<T> {
    if (this.exited) throw new Error(this.exited);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.spec.name} did not answer ${method} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.conn.sendRequest<T>(method, params), timeout, this.exitPromise]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The text each open document has in the server. */
  readonly texts = new Map<string, string>();

  open(uri: string, text: string): void {
    this.versions.set(uri, 1);
    this.texts.set(uri, text);
    void this.conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: this.spec.languageId, version: 1, text } });
  }

  change(uri: string, text: string): void {
    const v = (this.versions.get(uri) ?? 0) + 1;
    if (v === 1) return this.open(uri, text);
    if (this.texts.get(uri) === text) return;
    this.versions.set(uri, v);
    this.texts.set(uri, text);
    void this.conn.sendNotification("textDocument/didChange", { textDocument: { uri, version: v }, contentChanges: [{ text }] });
  }

  /** Waits until every progress the server began has ended (an index), at most `ms`. */
  async idle(firstMs: number, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    const busy = (): boolean => [...this.progress.values()].some((k) => k === "begin");
    // Give the server a moment to begin its indexing at all.
    const began = Date.now() + firstMs;
    while (Date.now() < deadline && !this.exited) {
      if (!busy() && Date.now() >= began) return;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 100);
        this.progressListeners.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
      this.progressListeners = [];
    }
  }

  async close(): Promise<void> {
    if (!this.exited) {
      try {
        await this.request("shutdown", null, 3000);
        void this.conn.sendNotification("exit");
      } catch {
        // killed below
      }
    }
    await new Promise((r) => setTimeout(r, 50));
    this.conn.dispose();
    if (!this.exited) this.child.kill("SIGKILL");
    // A process the server started (gopls' `go list`, rust-analyzer's proc-macro server) may
    // hold the pipes after the server is gone: open, they kept this process alive until it ended.
    this.child.stdin?.destroy();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}

const uriOf = (abs: string): string => pathToFileURL(abs).href;
const pathOf = (uri: string): string => fileURLToPath(uri);

function editsOf(edit: WorkspaceEdit | null): Map<string, TextEdit[]> {
  const out = new Map<string, TextEdit[]>();
  if (!edit) return out;
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) out.set(uri, [...(out.get(uri) ?? []), ...edits]);
  for (const dc of edit.documentChanges ?? []) {
    if ("edits" in dc) out.set(dc.textDocument.uri, [...(out.get(dc.textDocument.uri) ?? []), ...dc.edits]);
    else throw renameError("not_renameable", `the language server's rename also wants to ${dc.kind} ${dc.uri ?? dc.oldUri ?? "a file"}`, "Rename the file with your own tools first, or rename another symbol.");
  }
  return out;
}

/**
 * Warm servers, for a long-lived process (the daemon): off by default, since a CLI must exit
 * and a server child would keep it alive. When on, a server stays up per (server, root)
 * between renames; before each reuse the workspace's files of its language are stat-ed and
 * every change since the last rename is told to it (workspace/didChangeWatchedFiles), so a
 * file written by a commit or another tool is read again.
 */
let reuse = false;
const warmServers = new Map<string, { session: Session; stamps: Map<string, number> }>();

export function setLanguageServerReuse(on: boolean): void {
  reuse = on;
}

export async function disposeLanguageServers(): Promise<void> {
  const all = [...warmServers.values()];
  warmServers.clear();
  await Promise.all(all.map((w) => w.session.close()));
}

const SKIP_DIRS = new Set([".git", "node_modules", ".magellan", ".splice", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache", "target"]);
const MAX_STAMPED = 50_000;

function stampFiles(root: string, ext: RegExp): Map<string, number> | undefined {
  const out = new Map<string, number>();
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) stack.push(p);
      } else if (ext.test(e.name) || /^(go\.mod|go\.sum|pyrightconfig\.json|pyproject\.toml)$/.test(e.name)) {
        try {
          out.set(p, statSync(p).mtimeMs);
        } catch {
          // gone meanwhile
        }
        if (out.size > MAX_STAMPED) return undefined;
      }
    }
  }
  return out;
}

const serverKey = (spec: ServerSpec, root: string): string => `${spec.name}\0${root}\0${spec.args.join(" ")}`;

async function acquire(spec: ServerSpec, sources: Sources): Promise<{ session: Session; warm: boolean }> {
  const key = serverKey(spec, sources.root);
  const w = warmServers.get(key);
  warmServers.delete(key);
  if (w && !w.session.failure && reuse) {
    const now = stampFiles(sources.root, spec.extensions);
    if (now) {
      const changes: { uri: string; type: number }[] = [];
      for (const [f, m] of now) {
        const old = w.stamps.get(f);
        if (old === undefined) changes.push({ uri: uriOf(f), type: 1 });
        else if (old !== m) changes.push({ uri: uriOf(f), type: 2 });
      }
      // A deleted file or a changed configuration (go.mod, pyproject.toml...) restarts the server.
      const deleted = [...w.stamps.keys()].some((f) => !now.has(f)) || changes.some((c) => !spec.extensions.test(fileURLToPath(c.uri)));
      // A server handles watched-file events in the background: a rename asked right after may
      // not see a file created meanwhile (pyright missed one). Files created or changed are sent
      // as open documents instead, which the server takes in order, before the rename; a
      // deletion, rarer, costs a cold start.
      if (!deleted) {
        if (changes.length) void w.session.conn.sendNotification("workspace/didChangeWatchedFiles", { changes });
        for (const c of changes) {
          try {
            w.session.change(c.uri, readFileSync(fileURLToPath(c.uri), "utf8"));
          } catch {
            // gone meanwhile: the next rename stamps it as deleted
          }
        }
        w.stamps = now;
        stamps.set(w.session, now);
        return { session: w.session, warm: true };
      }
    }
  }
  if (w) await w.session.close();
  const session = new Session(spec, sources.root);
  const rootUri = uriOf(sources.root);
  try {
    await session.request(
      "initialize",
      {
        processId: process.pid,
        rootUri,
        rootPath: sources.root,
        workspaceFolders: [{ uri: rootUri, name: "root" }],
        capabilities: {
          general: { positionEncodings: ["utf-16"] },
          window: { workDoneProgress: true },
          workspace: { workspaceEdit: { documentChanges: true }, workspaceFolders: true, configuration: true, didChangeWatchedFiles: { dynamicRegistration: false } },
          textDocument: {
            rename: { prepareSupport: true, dynamicRegistration: false },
            definition: { linkSupport: false },
            declaration: { linkSupport: false },
            synchronization: { didSave: false },
          },
        },
        initializationOptions: spec.initializationOptions ?? {},
      },
      60_000,
    );
  } catch (e) {
    await session.close();
    throw renameError("engine_failed", `${spec.name} did not start: ${session.failure ?? (e as Error).message}`, "Check that the language server runs in this workspace, or retry.");
  }
  void session.conn.sendNotification("initialized", {});
  if (reuse) {
    const st = stampFiles(sources.root, spec.extensions);
    if (st) stamps.set(session, st);
  }
  return { session, warm: false };
}

const stamps = new WeakMap<Session, Map<string, number>>();

function release(spec: ServerSpec, root: string, session: Session): void {
  const st = stamps.get(session);
  if (!st) {
    void session.close();
    return;
  }
  warmServers.set(serverKey(spec, root), { session, stamps: st });
}

/** How many mentioning files are opened at most (each is analysed by the server). */
const MENTION_LIMIT = 2000;

function wordRegExp(name: string, flags: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}_])`, `u${flags}`);
}

/** Adds to `want` every workspace file of the server's language whose text has `name` as a word; their absolute paths. */
function openMentions(sources: Sources, spec: ServerSpec, name: string, want: Map<string, string>): { files: string[]; capped: boolean } {
  const word = wordRegExp(name, "");
  const files: string[] = [];
  for (const e of walkFiles({ root: sources.root })) {
    if (!spec.extensions.test(e.rel)) continue;
    const t = sources.get(e.abs);
    if (!t || !t.text.includes(name) || !word.test(t.text)) continue;
    if (files.length >= MENTION_LIMIT) return { files, capped: true };
    files.push(e.abs);
    want.set(uriOf(e.abs), t.text);
  }
  return { files, capped: false };
}

/**
 * Where the server says the identifier at `position` of `abs` is defined (Location or
 * LocationLink answers alike). A refusal (a word in a comment: gopls renames doc comments) is no
 * definition; a server that died is an error.
 */
async function definitionsAt(session: Session, abs: string, position: Position, timeoutMs: number, method: "textDocument/definition" | "textDocument/declaration" = "textDocument/definition"): Promise<LspLocation[]> {
  let r: LspLocation | LspLocation[] | { targetUri: string; targetSelectionRange: Range }[] | null;
  try {
    r = await session.request(method, { textDocument: { uri: uriOf(abs) }, position }, timeoutMs);
  } catch (e) {
    if (session.failure) throw e;
    return [];
  }
  const list = r === null ? [] : Array.isArray(r) ? r : [r];
  return list.map((x) => ("targetUri" in x ? { uri: x.targetUri, range: x.targetSelectionRange } : x));
}

/**
 * The declarations of the symbol as the target's own translation unit sees them, that the
 * rename left out. Without compile_commands.json clangd parses a header opened on its own with
 * fallback flags, where its prototype may not even be a valid declaration (zlib's inffast.h:
 * `void ZLIB_INTERNAL inflate_fast(z_streamp strm, …)` names types from headers it does not
 * include): renaming `inflate_fast` changed its definition and calls but not that prototype,
 * and gcc then saw implicit declarations of the new name. From inffast.c, which includes the
 * header, clangd's go-to-declaration leads to it.
 */
async function declarationsSeenFromTarget(session: Session, sources: Sources, abs: string, position: Position, target: RenameTarget, newName: string, locations: RenameLocation[]): Promise<RenameLocation[]> {
  const have = new Set(locations.map((l) => `${l.file}\0${l.byte_start}`));
  const out: RenameLocation[] = [];
  for (const d of await definitionsAt(session, abs, position, 60_000, "textDocument/declaration")) {
    const f = pathOf(d.uri);
    const ft = sources.get(f);
    if (!ft || !sources.inside(f)) continue;
    const start = ft.positionToByte(d.range.start);
    const end = start + Buffer.byteLength(target.name);
    const rel = sources.rel(f);
    if (have.has(`${rel}\0${start}`) || Buffer.from(ft.bytes.subarray(start, end)).toString("utf8") !== target.name) continue;
    have.add(`${rel}\0${start}`);
    out.push({ file: rel, byte_start: start, byte_end: end, old_text: target.name, new_text: newName, evidence: "language_server" });
  }
  return out;
}

/** Whether a C/C++ text declares a function, method or field named `name` (unqualified). */
function declaresOwnCopy(abs: string, text: string, name: string): boolean {
  const lang = languageForPath(abs);
  if (!lang || (lang.id !== "c" && lang.id !== "cpp")) return false;
  const tree = parse(lang.id, text);
  for (const n of tree.rootNode.descendantsOfType(["function_declarator", "field_declaration"])) {
    const d = n.childForFieldName("declarator");
    if (d && (d.type === "identifier" || d.type === "field_identifier") && d.text === name) return true;
  }
  return false;
}

/**
 * The mentions of the name in files the server's rename did not touch, whose definition (asked
 * of the server, all requests in flight at once) is the renamed symbol's.
 */
async function mentionsOutsideProject(session: Session, sources: Sources, target: RenameTarget, newName: string, mentions: string[], locations: RenameLocation[]): Promise<RenameLocation[]> {
  const touched = new Set(locations.map((l) => l.file));
  const targetAbs = sources.abs(target.file);
  // A file of another project (its own pyproject.toml: a repository's examples) imports the
  // name through its own environment, where it may be another package's: left alone, as the
  // validation checks it in that project.
  const projectOf = (abs: string): string => findUpFile(dirname(abs), sources.root, ["pyrightconfig.json", "pyproject.toml"]) ?? "";
  const project = projectOf(targetAbs);
  const targetText = sources.get(targetAbs);
  if (!targetText) return [];
  // The symbol's own places: its target and every place the rename renamed. A C++ method
  // declared in its class and defined out of line is found at its definition (CLI11's
  // `opt->get_single_name()` in Config_inl.hpp goes to Option_inl.hpp, not to the declaration
  // in Option.hpp that was asked about), and such a use was left unrenamed.
  const own = new Set<string>();
  const place = (abs: string, p: Position): string => `${abs}\0${p.line}\0${p.character}`;
  own.add(place(targetAbs, targetText.byteToPosition(target.byte_start)));
  for (const l of locations) {
    const t = sources.get(sources.abs(l.file));
    if (t && l.old_text === target.name) own.add(place(sources.abs(l.file), t.byteToPosition(l.byte_start)));
  }
  const asks: Promise<RenameLocation | undefined>[] = [];
  let budget = 5000;
  for (const abs of mentions) {
    const rel = sources.rel(abs);
    if (touched.has(rel) || projectOf(abs) !== project) continue;
    const t = sources.get(abs);
    if (!t) continue;
    // A C/C++ file the rename did not touch that declares a function, method or field of that
    // name itself holds another copy (nlohmann/json's tests/abi json_v3_10_5.hpp, the 3.10.5
    // release whole): clangd's go-to-definition of a use in a template, which it cannot resolve,
    // falls back to a textual match in its index and led to the renamed one, so that copy's uses
    // were renamed and its own definition was not. Its uses are left, and named as such.
    if (declaresOwnCopy(abs, t.text, target.name)) continue;
    for (const m of t.text.matchAll(wordRegExp(target.name, "g"))) {
      if (budget-- <= 0) break;
      const b = t.charToByte(m.index);
      const ask = definitionsAt(session, abs, t.byteToPosition(b), 60_000).then((defs) => {
        const hit = defs.some((loc) => own.has(place(pathOf(loc.uri), loc.range.start)));
        return hit ? { file: rel, byte_start: b, byte_end: b + Buffer.byteLength(target.name), old_text: target.name, new_text: newName, evidence: "language_server" as const } : undefined;
      });
      asks.push(ask);
    }
  }
  return (await Promise.all(asks)).filter((l): l is RenameLocation => l !== undefined);
}

/** The field_identifier is the name a struct/union member declaration declares (through `*`, `[]`, a bit-field). */
function fieldDeclared(n: Parser.SyntaxNode): boolean {
  let p = n.parent;
  while (p && (p.type === "pointer_declarator" || p.type === "array_declarator" || p.type === "parenthesized_declarator" || p.type === "reference_declarator")) p = p.parent;
  return p?.type === "field_declaration";
}

/**
 * Identifiers spelled like the target, in the files the rename touched or that mention the
 * name, that the rename leaves as they are (`file:line`). tree-sitter reads both sides of every
 * #if, where clangd sees only the branch its flags select: a call in `#if defined(SDS_TEST_MAIN)`
 * is code to one and nothing to the other.
 */
function leftUnrenamed(sources: Sources, target: RenameTarget, locations: RenameLocation[], files: string[], otherFields: string[] = []): string[] {
  const renamed = new Set(locations.map((l) => `${l.file}\u0000${l.byte_start}`));
  const out: string[] = [];
  for (const abs of files.sort()) {
    const lang = languageForPath(abs);
    const t = sources.get(abs);
    if (!t || !lang || (lang.id !== "c" && lang.id !== "cpp")) continue;
    const rel = sources.rel(abs);
    const tree = parse(lang.id, t.text);
    for (const n of tree.rootNode.descendantsOfType(["identifier", "field_identifier", "type_identifier"])) {
      // Node offsets index the decoded text (UTF-16), the locations bytes: after a non-ASCII
      // character (nlohmann/json's "Björn Hoehrmann" in a header's copyright line) every use
      // clangd renamed there was listed as left unchanged.
      if (n.endIndex - n.startIndex !== target.name.length || n.text !== target.name) continue;
      const at = t.charToByte(n.startIndex);
      if (renamed.has(`${rel}\u0000${at}`)) continue;
      // The declaration of another struct's field of that name (tmux's `struct mouse_event`
      // beside `struct session`, both with `statusat`) is no use left: it is named apart, and
      // the member accesses of that field, which look the same, are said to be possibly its.
      if (n.type === "field_identifier" && fieldDeclared(n)) {
        otherFields.push(`${rel}:${t.lineOf(at)}`);
        continue;
      }
      out.push(`${rel}:${t.lineOf(at)}`);
    }
    // A macro's body is text to tree-sitter and to clangd's rename, which changes uses where the
    // macro expands but not in its definition: kilo's FIND_RESTORE_HL reads `E.row[i].rsize`,
    // and renaming the field was rejected by gcc at the two expansions with nothing naming the
    // line to fix.
    for (const n of tree.rootNode.descendantsOfType("preproc_arg")) {
      const body = n.text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (m) => " ".repeat(m.length));
      const macro = n.parent?.childForFieldName("name")?.text;
      for (const m of body.matchAll(wordRegExp(target.name, "g"))) {
        const at = t.charToByte(n.startIndex + m.index);
        if (renamed.has(`${rel}\u0000${at}`)) continue;
        out.push(`${rel}:${t.lineOf(at)}${macro ? ` (in macro ${macro})` : ""}`);
      }
    }
  }
  return out;
}

/**
 * Why the go command cannot load the package in `dir` (a module that is not downloaded, a
 * syntax error), when it cannot: gopls then answers a rename with null and no reason.
 * GOPROXY=off: this asks what is on the machine, it never downloads.
 */
function goLoadError(dir: string): string | undefined {
  const r = spawnSync("go", ["list", "-e", "-f", "{{with .Error}}{{.Err}}\n{{end}}{{range .DepsErrors}}{{.Err}}\n{{end}}", "."], { cwd: dir, encoding: "utf8", timeout: 15_000, env: { ...process.env, GOPROXY: "off", GOFLAGS: "-mod=mod" } });
  const lines = `${r.stdout ?? ""}\n${r.stderr ?? ""}`
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("go: downloading"));
  return lines.length ? [...new Set(lines)].slice(0, 3).join("; ") : undefined;
}

/** `go1.19.8`, as `go env GOVERSION` says it. */
function goVersion(): string | undefined {
  const r = spawnSync("go", ["env", "GOVERSION"], { encoding: "utf8", timeout: 15_000, env: { ...process.env, GOTOOLCHAIN: "local" } });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}

/** Throws the refusal that names why gopls cannot load the target's package, when it cannot. */
function unloadable(spec: ServerSpec, abs: string, file: string, serverSaid?: string): void {
  const broken = spec.name === "gopls" ? goLoadError(dirname(abs)) : undefined;
  if (!broken) return;
  const said = serverSaid ? ` (gopls: ${serverSaid.replace(/\s*\n\s*/g, " ").trim()})` : "";
  // A go.mod whose `go` line this toolchain cannot read or does not reach (echo's `go 1.25.0`
  // under go1.19: "invalid go version '1.25.0': must match format 1.23") is no download away:
  // 'go mod download' fails with the same words.
  // urfave/cli's `go 1.22` under go1.19: go reads it, then takes the standard `slices` for a
  // module's package and fails on a module it cannot download; 'go mod download' is no help.
  const version = spec.name === "gopls" ? goVersion() : undefined;
  const newer = spec.name === "gopls" ? goModNewerThan(dirname(abs), version) : undefined;
  const tooOld = GO_TOO_OLD.test(broken) || newer !== undefined;
  const remediation = tooOld
    ? `The go on PATH (${version ?? "its version unknown"}) is older than the module's go.mod asks for${newer ? ` (go ${newer})` : ""}: put a Go toolchain at least that new first on PATH, then rename again.`
    : "Make the module build first (e.g. 'go mod download' where the network reaches the module proxy), then rename again.";
  const why = newer ? ` (the module's go.mod asks for go ${newer}, newer than the go on PATH, ${version})` : "";
  throw renameError("engine_failed", `gopls cannot load the package of ${file}: ${broken}${said}${why}`, remediation, { file });
}

/** The server's refusal, with the way around it where there is one. */
export function refused(spec: Pick<ServerSpec, "name" | "version">, target: RenameTarget, msg: string): ToolError {
  // clangd leaves reserved names (`__x`, `_X`) out of its index, so it cannot prove a rename of
  // one complete, even of a static function used in its own file only.
  const reserved = spec.name === "clangd" && /not eligible for indexing/.test(msg) && /^_[_A-Z]/.test(target.name);
  // clangd before 16 renames no virtual method (an override family spans classes): it says "not
  // a supported kind (e.g. namespace, macro)", and the remediation asked for another name span,
  // which was no help with spdlog's `virtual void flush_()` (clangd 14).
  // A macro is the other thing clangd names in that refusal, and no clangd renames one: the
  // hint about virtual methods and clangd 16 sent cJSON's `cJSON_ArrayForEach` to a newer clangd
  // that would refuse it too.
  const unsupportedKind = spec.name === "clangd" && /not a supported kind/.test(msg);
  const macro = unsupportedKind && target.kind?.toLowerCase() === "macro";
  const virtual = unsupportedKind && !macro;
  // gopls renames a method that satisfies an interface only with the interface's, and (0.5, as
  // Debian ships it) renames an interface method without the methods that satisfy it: neither
  // order works, and a batch's second step meets a package that no longer builds ("has errors").
  const goInterface = spec.name === "gopls" && /no longer assignable to interface|has errors/.test(msg);
  return renameError(
    "not_renameable",
    `${spec.name} refuses to rename '${target.name}': ${msg}${macro ? " (clangd renames no macro, in any version)" : ""}${virtual ? ` (clangd before version 16 renames no virtual method, nor an override of one${spec.version ? `; this is ${spec.version}` : ""})` : ""}`,
    reserved
      ? `clangd does not index reserved names (a leading __, or _ and a capital). If '${target.name}' is used in ${target.file} only (static), rename it there with: splice apply-files --glob '${target.file}' --regex --find '\\b${target.name}\\b' --replace NEW_NAME (validated by the compiler like any change).`
      : macro
        ? `Rename the macro and its uses in one change: splice apply-files --glob '**/*.{c,h,cc,cpp,hpp}' --regex --find '\\b${target.name}\\b' --replace NEW_NAME (check the matches with --dry-run: the compiler validates the whole change; comments and strings are left alone).`
        : virtual
        ? `If '${target.name}' is a virtual method or overrides one, put clangd 16 or later on PATH and rename again, or rename the method, its overrides and their calls with splice batch (edit steps), which the compiler validates like any change.`
        : goInterface
          ? `An interface method and the methods that satisfy it are renamed together, or the package stops building, and gopls renames none of them with the others. Rename them and their calls in one change: splice apply-files --glob '**/*.go' --regex --find '\\b${target.name}\\b' --replace NEW_NAME (check the matches with --dry-run; the compiler validates the whole change).`
          : "Give the definition's name span of a symbol declared in the workspace.",
    { file: target.file },
  );
}

const CONFLICT = /conflict|already (declared|defined|exists)|shadow|redeclar|collid/i;

export async function renameWithServer(sources: Sources, target: RenameTarget, newName: string, spec: ServerSpec): Promise<RenamePlan> {
  const t0 = performance.now();
  const abs = sources.abs(target.file);
  const text = sources.get(abs);
  if (!text) throw renameError("target_mismatch", `${target.file} does not exist`, "Give the file that holds the symbol's definition.", { file: target.file });
  const at = text.text.slice(text.byteToChar(target.byte_start), text.byteToChar(target.byte_end));
  if (at !== target.name) {
    throw renameError("target_mismatch", `${target.file} holds '${at}' at bytes ${target.byte_start}..${target.byte_end}, not '${target.name}'`, "Re-read the symbol (magellan find) and rename again.", { file: target.file });
  }
  const { session, warm } = await acquire(spec, sources);
  const diagnostics: Diagnostic[] = [];
  let keep = false;
  try {
    // What the server must see: every overlaid file of its language and the target, with the
    // bytes planned against; documents left open by an earlier rename go back to theirs.
    const want = new Map<string, string>();
    for (const uri of session.texts.keys()) {
      const t = sources.get(pathOf(uri));
      if (t) want.set(uri, t.text);
    }
    for (const [f, bytes] of sources.overlays) if (spec.extensions.test(f)) want.set(uriOf(f), new TextOffsets(bytes).text);
    want.set(uriOf(abs), text.text);
    let mentions: string[] = [];
    if (spec.openMentions) {
      const opened = openMentions(sources, spec, target.name, want);
      mentions = opened.files;
      if (opened.capped) diagnostics.push(renameNote("server_note", `more than ${MENTION_LIMIT} files mention '${target.name}': only the first ${MENTION_LIMIT} were given to ${spec.name}; uses in the others are left to validation`, "warning"));
    }
    for (const [uri, t] of want) session.change(uri, t);
    const startup = performance.now() - t0;
    if (spec.waitForIndex && !warm) await session.idle(1500, 60_000);

    const position = text.byteToPosition(target.byte_start);
    const doc = { textDocument: { uri: uriOf(abs) }, position };
    let prepared: unknown;
    try {
      prepared = await session.request("textDocument/prepareRename", doc, 60_000);
    } catch (e) {
      unloadable(spec, abs, target.file);
      throw refused(spec, target, (e as Error).message);
    }
    if (prepared === null) {
      unloadable(spec, abs, target.file);
      throw renameError("not_renameable", `${spec.name} says '${target.name}' at ${target.file}:${text.lineOf(target.byte_start)} cannot be renamed`, "Give the definition's name span of a symbol declared in the workspace.", { file: target.file });
    }
    let edit: WorkspaceEdit | null;
    try {
      edit = await session.request<WorkspaceEdit | null>("textDocument/rename", { ...doc, newName }, 120_000);
    } catch (e) {
      const msg = (e as Error).message;
      if (CONFLICT.test(msg)) throw renameError("clash", `${spec.name}: ${msg}`, `Choose another name than '${newName}', or rename the other symbol first.`, { file: target.file });
      if (session.failure) throw renameError("engine_failed", `${spec.name} failed: ${session.failure}`, "Check that the language server runs in this workspace, or retry.", { file: target.file });
      unloadable(spec, abs, target.file, msg);
      throw refused(spec, target, msg);
    }
    const locations: RenameLocation[] = [];
    const outside: string[] = [];
    const byFile = editsOf(edit);
    for (const [uri, edits] of byFile) {
      const f = pathOf(uri);
      const ft = sources.get(f);
      if (!sources.inside(f) || !ft) {
        outside.push(f);
        continue;
      }
      for (const e of edits) {
        const s = ft.positionToByte(e.range.start);
        const en = ft.positionToByte(e.range.end);
        locations.push({ file: sources.rel(f), byte_start: s, byte_end: en, old_text: Buffer.from(ft.bytes.subarray(s, en)).toString("utf8"), new_text: e.newText, evidence: "language_server" });
      }
    }
    if (outside.length) throw renameError("outside_root", `renaming '${target.name}' would change files outside the workspace: ${outside.slice(0, 5).join(", ")}`, "Rename only symbols that the workspace owns.", { file: target.file });
    if (spec.name === "clangd" && locations.length) locations.push(...(await declarationsSeenFromTarget(session, sources, abs, doc.position, target, newName, locations)));
    if (mentions.length && locations.length) {
      const extra = await mentionsOutsideProject(session, sources, target, newName, mentions, locations);
      if (extra.length) {
        locations.push(...extra);
        diagnostics.push(renameNote("server_note", `${spec.name}'s rename did not reach ${new Set(extra.map((l) => l.file)).size} file(s) that use '${target.name}' (outside its configured project, or not in its index); ${extra.length} use(s) there were renamed where ${spec.name}'s go-to-definition leads to the symbol`));
      }
    }
    if (locations.length === 0) throw renameError("not_renameable", `${spec.name} found nothing to rename for '${target.name}'`, "Give the definition's name span of a symbol declared in the workspace.", { file: target.file });
    if (spec.name === "clangd") {
      const otherFields: string[] = [];
      const left = leftUnrenamed(sources, target, locations, [...new Set([...locations.map((l) => sources.abs(l.file)), ...mentions])], otherFields);
      if (left.length) {
        const others = otherFields.length
          ? `. Another field of that name is declared at ${otherFields.slice(0, 3).join(", ")}${otherFields.length > 3 ? ", ..." : ""}: member accesses of it look the same, and these may be its; rename by hand only those whose object is of the renamed field's struct`
          : "; rename them by hand if they are this one";
        diagnostics.push(
          renameNote(
            "server_note",
            `${left.length} use(s) of '${target.name}' in code were left unchanged: ${left.slice(0, 5).join(", ")}${left.length > 5 ? ", ..." : ""}. clangd did not take them for this symbol: most often code in an #if branch this configuration does not compile, or a macro's body, which clangd's rename never changes (or another symbol of that name)${others}`,
            "warning",
          ),
        );
      }
    }
    locations.sort((a, b) => (a.file === b.file ? a.byte_start - b.byte_start : a.file < b.file ? -1 : 1));

    const t2 = performance.now();
    const clash = await checkCaptures(session, sources, target, newName, locations);
    const checkMs = performance.now() - t2;
    for (const [uri, t] of want) session.change(uri, t);
    for (const uri of session.texts.keys()) {
      const t = sources.get(pathOf(uri));
      if (t) session.change(uri, t.text);
    }
    keep = reuse && !session.failure;
    if (clash) throw renameError("clash", `'${newName}' is already bound where '${target.name}' is used: ${clash}`, `Choose another name, or rename the other '${newName}' first.`, { file: target.file });
    return {
      engine: spec.name,
      ...(spec.version ? { engine_version: spec.version } : {}),
      locations,
      diagnostics,
      timing: { total_ms: Math.round(performance.now() - t0), startup_ms: Math.round(startup), check_ms: Math.round(checkMs), warm },
    };
  } catch (e) {
    if (!(e instanceof ToolError)) {
      throw renameError("engine_failed", `${spec.name} failed: ${session.failure ?? (e instanceof Error ? e.message : String(e))}`, "Check that the language server runs in this workspace, or retry.", { file: target.file });
    }
    throw e;
  } finally {
    if (keep) release(spec, sources.root, session);
    else await session.close();
  }
}

/**
 * Scope check on the renamed text, by the server itself: the edits are applied in memory and
 * sent as didChange; then every renamed location must still go to a renamed location (its own
 * declaration), and every pre-existing `newName` in the touched files must not go to one. A
 * location that now goes elsewhere is captured by another binding; a pre-existing use that now
 * goes to the renamed symbol is shadowed by it. Either is a clash, named with file:line.
 */
async function checkCaptures(session: Session, sources: Sources, target: RenameTarget, newName: string, locations: RenameLocation[]): Promise<string | undefined> {
  const byFile = new Map<string, RenameLocation[]>();
  for (const l of locations) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
  const after = new Map<string, { text: TextOffsets; renamed: [number, number][]; existing: number[] }>();
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${newName.replace(/\$/g, "\\$")}(?![\\p{L}\\p{N}_$])`, "gu");
  for (const [file, locs] of byFile) {
    const before = sources.get(sources.abs(file))!;
    const parts: Buffer[] = [];
    const renamed: [number, number][] = [];
    let prev = 0;
    let size = 0;
    for (const l of locs) {
      const head = Buffer.from(before.bytes.subarray(prev, l.byte_start));
      parts.push(head);
      size += head.length;
      const nt = Buffer.from(l.new_text);
      const k = nt.indexOf(newName);
      renamed.push([size + Math.max(k, 0), size + Math.max(k, 0) + Buffer.byteLength(newName)]);
      parts.push(nt);
      size += nt.length;
      prev = l.byte_end;
    }
    parts.push(Buffer.from(before.bytes.subarray(prev)));
    const text = new TextOffsets(Buffer.concat(parts));
    const existing: number[] = [];
    // A word in a comment or a string binds nothing, but a server's go-to-definition may still
    // answer for it by name (clangd did for `/* Buffer cursor */`, and renaming hiredis's
    // `redisReader.pos` to `cursor` was refused as a clash).
    const lang = languageForPath(file);
    let skip: [number, number][] = [];
    if (lang) {
      try {
        skip = commentsAndStrings(parse(lang.id, text.text));
      } catch {
        // No tree: every mention is checked.
      }
    }
    for (const m of text.text.matchAll(word)) {
      const b = text.charToByte(m.index);
      if (skip.some(([s, e]) => m.index >= s && m.index < e)) continue;
      if (!renamed.some(([s]) => s === b)) existing.push(b);
    }
    after.set(file, { text, renamed, existing });
    session.change(uriOf(sources.abs(file)), text.text);
  }
  const isRenamed = (loc: LspLocation): boolean => {
    const f = sources.inside(pathOf(loc.uri)) ? sources.rel(pathOf(loc.uri)) : undefined;
    const a = f !== undefined ? after.get(f) : undefined;
    if (!a) return false;
    const b = a.text.positionToByte(loc.range.start);
    return a.renamed.some(([s, e]) => b >= s && b < e);
  };
  /** Whether the text at a location is the new name (undefined: a file this cannot read). */
  const spelled = (loc: LspLocation): boolean | undefined => {
    const abs = pathOf(loc.uri);
    const a = sources.inside(abs) ? (after.get(sources.rel(abs))?.text ?? sources.get(abs)) : undefined;
    if (!a) return undefined;
    const b = a.positionToByte(loc.range.start);
    return Buffer.from(a.bytes.subarray(b, b + Buffer.byteLength(newName))).toString("utf8") === newName;
  };
  const where = (loc: LspLocation): string => {
    const abs = pathOf(loc.uri);
    const rel = sources.inside(abs) ? sources.rel(abs) : abs;
    const a = after.get(rel);
    const line = a ? a.text.lineOf(a.text.positionToByte(loc.range.start)) : loc.range.start.line + 1;
    return `${rel}:${line}`;
  };
  const definitionAt = (file: string, b: number): Promise<LspLocation[]> => definitionsAt(session, sources.abs(file), after.get(file)!.text.byteToPosition(b), 30_000);
  // Asked all at once: the server answers in order, without a round trip per location.
  const asks: Promise<string | undefined>[] = [];
  let budget = 1000;
  for (const [file, a] of after) {
    for (const [s] of a.renamed) {
      if (budget-- <= 0) break;
      asks.push(
        definitionAt(file, s).then((defs) => {
          // A binding the new name reaches is spelled with it. clangd, where a header's preamble
          // still had the old name, answered CLI11's renamed `opt->get_one_name()` with the
          // local `single_name` on that line: no binding of the new name, no capture.
          const other = defs.find((d) => !isRenamed(d) && spelled(d) !== false);
          // Every definition elsewhere: the renamed name now reaches another binding.
          return other && defs.every((d) => !isRenamed(d)) ? `${where(other)} (the '${newName}' that ${file}:${a.text.lineOf(s)} would refer to instead)` : undefined;
        }),
      );
    }
    for (const b of a.existing) {
      if (budget-- <= 0) break;
      asks.push(definitionAt(file, b).then((defs) => (defs.length > 0 && defs.some((d) => isRenamed(d)) ? `${file}:${a.text.lineOf(b)} (an existing '${newName}' that the renamed '${target.name}' would shadow)` : undefined)));
    }
  }
  for (const r of await Promise.all(asks)) if (r) return r;
  return undefined;
}

export function fallbackNote(language: LanguageId, why: string): Diagnostic {
  return renameNote("fallback", `${language}: ${why}; renamed from magellan's resolved references instead`, "warning");
}
