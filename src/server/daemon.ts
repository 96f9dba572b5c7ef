/**
 * The warm per-workspace daemon: one process per root, listening on a Unix socket (0600) that
 * only its user can reach. It runs every tool's CLI in-process for clients (src/server/client.cts)
 * with their argv, cwd, environment and stdin, and relays stdout, stderr and the exit code; the
 * tool modules, the opened graph, compiled tree-sitter queries and parsers stay loaded between
 * requests, and an IndexKeeper keeps the root's index fresh. It shuts down after an idle time.
 *
 * docs/daemon.md describes the lifecycle and the protocol.
 */
import { appendFileSync, chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { type Server, type Socket, connect, createServer } from "node:net";
import { dirname } from "node:path";
import { commonCode } from "../contract/codes.js";
import { timestamp } from "../contract/ids.js";
import { installRequestContext, RequestExit, type RequestSpec } from "./context.js";
import { IndexKeeper } from "./keeper.js";
import {
  FRAME_JSON,
  FRAME_STDERR,
  FRAME_STDIN,
  FRAME_STDOUT,
  FrameReader,
  PROTOCOL_VERSION,
  type DaemonInfo,
  buildId,
  encodeFrame,
  frameHead,
  infoPathOf,
  jsonFrame,
  packageVersion,
  readInfo,
  socketCandidates,
} from "./protocol.cjs";
import { runRequest } from "./runner.js";
import { shareValidationSessions } from "./warm.js";
import { enableWarmCache } from "../text/warm-cache.js";
import { setSharedPrecise } from "../graph/precise/host.js";
import { PreciseService, preciseOptionsFromEnv } from "../graph/precise/service.js";

export interface DaemonOptions {
  root: string;
  /** Shut down after this long without a request (0: never). */
  idleTimeoutMs: number;
  /** Wait for the file watcher's quiet moment this long before re-indexing. */
  debounceMs?: number;
  /** Another daemon (of another version) is shutting down on this socket: wait for it. */
  replace?: boolean;
}

/** How long an answer may be held back to leave in one write. */
const HOLD_MS = 30;
/** The longest a writer waits for the one before it. */
const WRITER_TURN_MS = 10_000;
/** Tools whose runs write files: the index takes their changes in before they answer. */
const WRITERS = new Set(["llmtransform", "llmfilewrite", "splice"]);
/** magellan commands that answer from the index: it is brought up to date first. */
const INDEX_READERS = new Set([
  ...["status", "query", "find", "refs", "callers", "callees", "files", "validate", "collisions", "export"],
  // The graph's and the impact graph's (these answered from before a save the watcher had seen).
  ...["reachable", "slice", "dead-code", "cycles", "condense", "paths", "impact", "impact-diagnostics"],
]);

export class Daemon {
  private server: Server | undefined;
  private socketPath = "";
  private socketIno = -1;
  private keeper: IndexKeeper;
  private active = 0;
  private served = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly startedAt = timestamp();
  private stopping = false;
  private readonly logPath: string | undefined;
  private stopCheckers: () => void = () => undefined;
  private stopRenameServers: () => Promise<void> = async () => undefined;
  private writers: Promise<unknown> = Promise.resolve();
  /** TypeScript language services for refs/callers/callees, in worker threads (precise by default here). */
  private readonly precise = new PreciseService({ ...preciseOptionsFromEnv(), log: (m) => this.log(m) });

  constructor(private readonly opts: DaemonOptions) {
    this.keeper = new IndexKeeper(opts.root, opts.debounceMs ?? 20, (m) => this.log(m));
    // Besides the stat of every file before each batch, a change the watcher saw gives that
    // file a new version (so an edit that kept its mtime and size is seen too).
    this.keeper.onFileEvent = (abs) => this.precise.changed(opts.root, [abs]);
    const first = socketCandidates(opts.root, true)[0];
    this.logPath = first === undefined ? undefined : `${first}.log`;
  }

  log(message: string): void {
    if (this.logPath === undefined) return;
    try {
      appendFileSync(this.logPath, `${new Date().toISOString()} [${process.pid}] ${message}\n`, { mode: 0o600 });
    } catch {
      // Logging is best effort.
    }
  }

  /** Listens (taking the socket over from a dead daemon), then starts the watcher. Resolves with the socket path. */
  async start(): Promise<string> {
    installRequestContext();
    this.stopCheckers = shareValidationSessions();
    // Searches through the daemon reuse listings and contents (each checked by a fresh stat).
    enableWarmCache();
    setSharedPrecise(this.precise);
    // Frees the language services' memory; they are built again on the next precise question.
    process.on("SIGUSR2", () => void this.precise.kill().then((n) => this.log(`SIGUSR2: ended ${n} precise worker(s)`)));
    // splice's rename language servers (pyright, gopls, clangd) stay up between renames here,
    // as the checkers do; a CLI process closes them after each rename so that it can exit.
    const lsp = await import("../tools/splice/rename/lsp.js");
    lsp.setLanguageServerReuse(true);
    this.stopRenameServers = () => lsp.disposeLanguageServers();
    process.on("unhandledRejection", (e) => {
      if (!(e instanceof RequestExit)) this.log(`unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    });
    process.on("uncaughtException", (e) => {
      if (!(e instanceof RequestExit)) this.log(`uncaught exception: ${e.stack ?? e.message}`);
    });
    this.socketPath = await this.listen();
    writeFileSync(infoPathOf(this.socketPath), `${JSON.stringify(this.info())}\n`, { mode: 0o600 });
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, () => void this.stop(`signal ${sig}`));
    this.log(`listening on ${this.socketPath} for ${this.opts.root} (version ${packageVersion()}, protocol ${PROTOCOL_VERSION})`);
    this.armIdle();
    // (`daemon start` waits for the watcher; a failure recorded in its stats tells it to stop waiting.)
    this.keeper.startInBackground();
    return this.socketPath;
  }

  private async listen(): Promise<string> {
    const candidates = socketCandidates(this.opts.root, true);
    let lastError: unknown;
    for (const path of candidates) {
      try {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        await this.listenOn(path);
        return path;
      } catch (e) {
        if ((e as Error).message === "already running") throw e;
        lastError = e;
      }
    }
    throw lastError instanceof Error ? lastError : new Error("no usable socket path");
  }

  private async listenOn(path: string): Promise<void> {
    const deadline = Date.now() + (this.opts.replace ? 5000 : 0);
    for (;;) {
      try {
        await this.bind(path);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
      }
      if (!(await answers(path))) {
        // A socket without a process behind it (a killed daemon): take it over.
        rmSync(path, { force: true });
        continue;
      }
      if (Date.now() >= deadline) throw new Error("already running");
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private bind(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const server = createServer((s) => this.onConnection(s));
      // The socket is created with these permissions (no window in which others could connect).
      const old = process.umask(0o177);
      server.once("error", (e) => {
        process.umask(old);
        reject(e);
      });
      server.listen(path, () => {
        process.umask(old);
        chmodSync(path, 0o600);
        this.socketIno = statSync(path).ino;
        this.server = server;
        resolve();
      });
    });
  }

  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.opts.idleTimeoutMs > 0 && this.active === 0) {
      this.idleTimer = setTimeout(() => void this.stop("idle"), this.opts.idleTimeoutMs);
    }
  }

  /** What the file beside the socket says of this daemon (and the head of its status). */
  private info(): DaemonInfo {
    return {
      pid: process.pid,
      root: this.opts.root,
      socket: this.socketPath,
      package_version: packageVersion(),
      protocol: PROTOCOL_VERSION,
      started_at: this.startedAt,
      idle_timeout_ms: this.opts.idleTimeoutMs,
    };
  }

  status(): Record<string, unknown> {
    const mem = process.memoryUsage();
    return {
      ...this.info(),
      requests_served: this.served,
      requests_active: this.active,
      rss_bytes: mem.rss,
      heap_used_bytes: mem.heapUsed,
      index: {
        db_path: this.keeper.dbPath,
        stale_files: this.keeper.staleCount(),
        ...this.keeper.stats,
      },
      precise: this.precise.status(),
    };
  }

  private onConnection(s: Socket): void {
    let request: RequestSpec | undefined;
    let stdinPush: ((chunk: Buffer | null) => void) | undefined;
    const earlyStdin: (Buffer | null)[] = [];
    const reader = new FrameReader((type, payload) => {
      if (type === FRAME_STDIN || (type === FRAME_JSON && request)) {
        const chunk = type === FRAME_STDIN ? payload : null;
        if (type === FRAME_JSON && (JSON.parse(payload.toString("utf8")) as { t?: string }).t !== "stdin-end") return;
        if (stdinPush) stdinPush(chunk);
        else earlyStdin.push(chunk);
        return;
      }
      if (type !== FRAME_JSON) return;
      const m = JSON.parse(payload.toString("utf8")) as Record<string, unknown>;
      if (m.protocol !== PROTOCOL_VERSION || m.build !== buildId()) {
        s.end(jsonFrame({ t: "mismatch", pkg: packageVersion(), protocol: PROTOCOL_VERSION, pid: process.pid }));
        // A client of another version or build replaces this daemon: make way for it.
        void this.stop(`client of version ${String(m.pkg)}, build ${String(m.build)} (protocol ${String(m.protocol)})`);
        return;
      }
      if (m.t === "ping") {
        s.end(jsonFrame({ t: "hello", pid: process.pid, pkg: packageVersion(), protocol: PROTOCOL_VERSION, root: this.opts.root }));
      } else if (m.t === "status") {
        s.end(jsonFrame({ t: "status", ...this.status() }));
      } else if (m.t === "shutdown") {
        s.end(jsonFrame({ t: "bye", pid: process.pid }));
        void this.stop("shutdown requested");
      } else if (m.t === "run") {
        request = m as unknown as RequestSpec;
        void this.serve(s, request, (push) => {
          stdinPush = push;
          for (const c of earlyStdin.splice(0)) push(c);
        });
      }
    });
    s.on("data", (d: Buffer) => {
      try {
        reader.push(d);
      } catch (e) {
        this.log(`bad frame from a client: ${(e as Error).message}`);
        s.destroy();
      }
    });
    s.on("error", () => undefined);
  }

  private async serve(s: Socket, spec: RequestSpec, onStdin: (push: (chunk: Buffer | null) => void) => void): Promise<void> {
    if (this.stopping) {
      s.end(jsonFrame({ t: "decline", reason: "shutting down" }));
      return;
    }
    this.active++;
    this.served++;
    this.armIdle();
    // The greeting leaves now, before any of the request's work: a request that holds the event
    // loop for longer than the client's greeting timeout (a query matched against one file up to
    // its budget; any request on a busy machine) made the client take this daemon for hung and
    // kill it, with every other client's request and every warm cache (the greeting, corked with
    // the answer, could not leave before the answer did). A quick answer's frames still leave in
    // one write; a longer one streams after HOLD_MS.
    s.write(jsonFrame({ t: "hello", pid: process.pid, pkg: packageVersion(), protocol: PROTOCOL_VERSION }));
    let streaming = false;
    const stream = (): void => {
      if (streaming) return;
      streaming = true;
      clearTimeout(hold);
      s.uncork();
    };
    s.cork();
    const hold = setTimeout(stream, HOLD_MS);
    const alive = setInterval(() => s.write(jsonFrame({ t: "alive" })), 1000);
    // A client that goes before its exit code (killed, Ctrl-C) reads nothing more: its request
    // is told to stop (src/contract/cancel.ts), so that it neither keeps a core busy nor holds
    // the cwd gate for requests from other directories.
    const gone = new AbortController();
    s.once("close", () => gone.abort());
    let code = 1;
    try {
      const magellanCommand = spec.tool === "magellan" ? spec.argv.find((a) => !a.startsWith("-")) : undefined;
      if (magellanCommand !== undefined && INDEX_READERS.has(magellanCommand)) await this.keeper.flush();
      const run = (): Promise<number> =>
        runRequest(
          spec,
          {
            stdout: (b) => sendBytes(s, FRAME_STDOUT, b),
            stderr: (b) => sendBytes(s, FRAME_STDERR, b),
            wantStdin: () => {
              s.write(jsonFrame({ t: "stdin" }));
              stream();
            },
          },
          { freshness: () => this.freshnessNote(spec.tool), onContext: (ctx) => onStdin((chunk) => ctx.stdin.push(chunk)), signal: gone.signal },
        );
      code =
        magellanCommand === "index"
          ? await this.keeper.withExclusive(run)
          : WRITERS.has(spec.tool) && !spec.argv.includes("--help")
            ? await this.oneWriter(run)
            : await run();
      // A write that happened (not a dry run, not refused) is in the index before the answer.
      if (WRITERS.has(spec.tool) && (code === 0 || code === 4) && !spec.argv.includes("--dry-run")) await this.keeper.flush(true);
      s.end(jsonFrame({ t: "exit", code }));
    } catch (e) {
      this.log(`request ${spec.tool} ${JSON.stringify(spec.argv)} not run: ${(e as Error).message}`);
      s.end(jsonFrame({ t: "decline", reason: (e as Error).message }));
    } finally {
      clearTimeout(hold);
      clearInterval(alive);
      this.active--;
      this.armIdle();
    }
  }

  /**
   * Writers take turns: they share the warm checkers (one dropped on a timeout would fail another
   * writer's check half-way), and each one's index refresh then covers its own write.
   */
  private oneWriter<T>(fn: () => Promise<T>): Promise<T> {
    // Bounded: a writer stuck on its client's stdin must not hold the others for ever.
    let timer: NodeJS.Timeout | undefined;
    const turn = Promise.race([this.writers, new Promise((r) => (timer = setTimeout(r, WRITER_TURN_MS)))]).finally(() => clearTimeout(timer));
    const next = turn.then(fn);
    this.writers = next.catch(() => undefined);
    return next;
  }

  /** The note every answer carries while the index lags behind the disk (CONTRACT.md: never silently stale). */
  private freshnessNote(tool: string): object | undefined {
    const n = this.keeper.staleCount();
    if (n === 0) return undefined;
    return {
      tool,
      level: "note",
      code: commonCode(tool, "index_pending"),
      message: `index freshness: ${n} file${n === 1 ? "" : "s"} changed on disk ${n === 1 ? "is" : "are"} not in the magellan index yet (the daemon is re-indexing)`,
      remediation: "Ask again in a moment; magellan queries through the daemon wait for the index to catch up.",
    };
  }

  async stop(why: string): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.log(`stopping: ${why}`);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    // Only our own socket and info: a replacement may already listen on the same path.
    try {
      if (statSync(this.socketPath).ino === this.socketIno) rmSync(this.socketPath, { force: true });
    } catch {
      // Already gone.
    }
    if (readInfo(this.socketPath)?.pid === process.pid) rmSync(infoPathOf(this.socketPath), { force: true });
    this.server?.close();
    const deadline = Date.now() + 10_000;
    while (this.active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await this.keeper.close().catch(() => undefined);
    this.stopCheckers();
    await this.precise.close().catch(() => undefined);
    await this.stopRenameServers().catch(() => undefined);
    process.exit(0);
  }
}

/**
 * One frame of output bytes. A large one (a search's few MB of JSON) goes out as its header and
 * the bytes themselves in one writev, rather than copied into a new buffer first.
 */
function sendBytes(s: Socket, type: number, bytes: Buffer): void {
  if (bytes.length < 64 * 1024) {
    s.write(encodeFrame(type, bytes));
    return;
  }
  s.cork();
  s.write(frameHead(type, bytes.length));
  s.write(bytes);
  s.uncork();
}

/** Whether a live process accepts connections on `path`. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    const t = setTimeout(() => {
      s.destroy();
      resolve(true);
    }, 2000);
    s.on("connect", () => {
      clearTimeout(t);
      s.destroy();
      resolve(true);
    });
    s.on("error", () => {
      clearTimeout(t);
      resolve(false);
    });
  });
}
