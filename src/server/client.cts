/**
 * The client half of the daemon, run by every bin before it loads its tool (runBin below; the
 * build makes each bin one file with this module and protocol.cts). When a daemon listens for
 * the command line's workspace root, the command line, cwd, environment and (on demand) stdin
 * go to it, and its stdout, stderr and exit code come back byte for byte; otherwise, or with
 * `--no-daemon` / LLMTOOLS_NO_DAEMON=1, the tool runs in this process as it always did. A daemon
 * that is gone (a socket without a process), of another version, or silent past a timeout is
 * removed and replaced in the background, and this run does its work in-process: nothing ever
 * waits on a daemon for long.
 *
 * CommonJS and builtins only, loaded lazily: a run without a daemon costs a few stat calls.
 */
import { existsSync, lstatSync, readFileSync, readdirSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { cpuTicks } from "../text/cpu-ticks.cjs";
import {
  FRAME_JSON,
  FRAME_STDERR,
  FRAME_STDIN,
  FRAME_STDOUT,
  FrameReader,
  PROTOCOL_VERSION,
  buildId,
  daemonMain,
  encodeFrame,
  envMs,
  existingSocket,
  infoPathOf,
  jsonFrame,
  packageVersion,
  readInfo,
  socketCandidates,
  workspaceRootOf,
  writeNow,
} from "./protocol.cjs";

/** Set to anything but "" or "0" to bypass the daemon, as --no-daemon does. */
export const NO_DAEMON_ENV = "LLMTOOLS_NO_DAEMON";
/** Set to anything but "" or "0" to start a daemon when none runs, as --daemon does. */
export const DAEMON_ENV = "LLMTOOLS_DAEMON";
/** Set in the daemon's own environment: a command it runs never goes to a daemon again. */
export const IN_DAEMON_ENV = "LLMTOOLS_IN_DAEMON";

function envOn(name: string): boolean {
  const v = process.env[name];
  return v !== undefined && v !== "" && v !== "0";
}

/** How long a daemon may take to accept and greet a client before it counts as hung. */
const helloTimeoutMs = (): number => envMs("LLMTOOLS_DAEMON_CONNECT_TIMEOUT_MS", 5000);
/** How long a running request may stay silent (the daemon sends a heartbeat every second). */
const silenceTimeoutMs = (): number => envMs("LLMTOOLS_DAEMON_ANSWER_TIMEOUT_MS", 30000);
/** How long `--daemon` waits for a daemon it started to listen. */
export const startTimeoutMs = (): number => envMs("LLMTOOLS_DAEMON_START_TIMEOUT_MS", 10000);

/**
 * A connection to a daemon as the client uses it: bytes out, bytes in, and how it ended. Errors
 * carry the system error name (ECONNREFUSED, ENOENT, ...).
 */
export interface Channel {
  write(bytes: Buffer): void;
  close(): void;
}

export interface ChannelEvents {
  connect(): void;
  data(chunk: Buffer): void;
  error(code: string): void;
  /** The daemon closed the connection (end of stream). */
  end(): void;
}

/** The libuv handles below `net`, as Node's own net.Socket drives them (lib/net.js, lib/internal/stream_base_commons.js). */
interface PipeBindings {
  Pipe: new (type: number) => PipeHandle;
  PipeConnectWrap: new () => { oncomplete?: (status: number) => void };
  WriteWrap: new () => { handle?: PipeHandle; oncomplete?: (status: number) => void; async?: boolean };
  SOCKET: number;
  state: Int32Array;
  kReadBytesOrError: number;
  kArrayBufferOffset: number;
  isTTY: (fd: number) => boolean;
}

interface PipeHandle {
  /** The socket's descriptor (POSIX). */
  readonly fd: number;
  onread: (buffer: ArrayBuffer | undefined) => void;
  connect(req: object, path: string): number;
  readStart(): number;
  writeBuffer(req: object, bytes: Buffer): number;
  close(cb?: () => void): void;
}

let pipeBindings: PipeBindings | null | undefined;

/**
 * Node's pipe handles, when this process may use them quietly. Loading `net` and driving a
 * net.Socket costs a short-lived client about 4 ms of its ~10 ms above Node's own start-up
 * (streams, the module graph behind net, per-event ticks), most of a `magellan find` through the
 * daemon; the handles net.Socket is built on do the same connect, read and write without any of
 * it. process.binding() is deprecated (DEP0111) but still serves these modules silently (Node
 * 20); it warns only under --pending-deprecation, so then, or when anything here is not as
 * expected (another Node, the permission model), the client uses `net`.
 */
function nodePipes(): PipeBindings | undefined {
  if (pipeBindings !== undefined) return pipeBindings ?? undefined;
  pipeBindings = null;
  const flags = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
  if (flags.includes("--pending-deprecation") || envOn("NODE_PENDING_DEPRECATION") || envOn(NET_ONLY_ENV)) return undefined;
  try {
    const binding = (process as unknown as { binding: (name: string) => Record<string, unknown> }).binding;
    const pipe = binding("pipe_wrap");
    const stream = binding("stream_wrap");
    const tty = binding("tty_wrap");
    const constants = pipe.constants as Record<string, unknown> | undefined;
    const found = {
      Pipe: pipe.Pipe,
      PipeConnectWrap: pipe.PipeConnectWrap,
      WriteWrap: stream.WriteWrap,
      SOCKET: constants?.SOCKET,
      state: stream.streamBaseState,
      kReadBytesOrError: stream.kReadBytesOrError,
      kArrayBufferOffset: stream.kArrayBufferOffset,
      isTTY: tty.isTTY,
    };
    const fns = [found.Pipe, found.PipeConnectWrap, found.WriteWrap, found.isTTY].every((f) => typeof f === "function");
    const nums = [found.SOCKET, found.kReadBytesOrError, found.kArrayBufferOffset].every((n) => typeof n === "number");
    if (fns && nums && found.state instanceof Int32Array) pipeBindings = found as unknown as PipeBindings;
  } catch {
    // A runtime without them (or with the permission model, which forbids them): `net` it is.
  }
  return pipeBindings ?? undefined;
}

/** Whether this process talks to daemons through Node's pipe handles (else through `net`). */
export function pipeTransportAvailable(): boolean {
  return nodePipes() !== undefined;
}

/** libuv's end of stream, the same on every platform (uv/errno.h); the `uv` binding would cost 0.1 ms to ask. */
const UV_EOF = -4095;

/** Set to anything but "" or "0" to make the client talk to the daemon through `net` only. */
export const NET_ONLY_ENV = "LLMTOOLS_DAEMON_NET";

function errorName(status: number): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { getSystemErrorName } = require("node:util") as typeof import("node:util");
  try {
    return getSystemErrorName(status);
  } catch {
    return `error ${status}`;
  }
}

/**
 * Writes what the socket takes at once, during the script rather than after Node's first turn
 * of the event loop: connect() on a Unix socket completes (or fails) at once, so the daemon can
 * start on the request while this process is still on its way into the loop. Returns how many
 * bytes went; the rest goes through the handle once it says it is connected.
 */
function sendNow(fd: number, bytes: Buffer): number {
  let off = 0;
  if (!(fd >= 0)) return off;
  try {
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
  } catch {
    // EAGAIN (a full socket buffer), or a connect that failed: its callback reports that.
  }
  return off;
}

/** A channel on Node's pipe handle (see nodePipes); throws when the handle refuses to start. */
function pipeChannel(b: PipeBindings, sock: string, ev: ChannelEvents, first: Buffer | undefined): Channel {
  const handle = new b.Pipe(b.SOCKET);
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    handle.close();
  };
  const fail = (status: number): void => {
    if (closed) return;
    close();
    ev.error(errorName(status));
  };
  handle.onread = (buffer) => {
    const n = b.state[b.kReadBytesOrError] as number;
    if (closed) return;
    if (n > 0 && buffer) ev.data(Buffer.from(buffer, b.state[b.kArrayBufferOffset], n));
    else if (n === UV_EOF) {
      close();
      ev.end();
    } else if (n < 0) fail(n);
  };
  let sent = 0;
  const req = new b.PipeConnectWrap();
  req.oncomplete = (status) => {
    if (closed) return;
    if (status < 0) return fail(status);
    const err = handle.readStart();
    if (err < 0) return fail(err);
    if (first && sent < first.length) channel.write(first.subarray(sent));
    ev.connect();
  };
  const err = handle.connect(req, sock);
  if (err < 0) {
    // Reported as net reports it: after this call returns.
    process.nextTick(() => fail(err));
  } else if (first) sent = sendNow(handle.fd, first);
  const channel: Channel = {
    write(bytes) {
      if (closed) return;
      const w = new b.WriteWrap();
      w.handle = handle;
      w.async = false;
      // The handle keeps `bytes` alive until a write it could not finish at once completes.
      w.oncomplete = (status) => {
        if (status < 0) fail(status);
      };
      const e = handle.writeBuffer(w, bytes);
      if (e < 0) fail(e);
    },
    close,
  };
  return channel;
}

/** A channel on a net.Socket: what every runtime has. */
function netChannel(sock: string, ev: ChannelEvents, first: Buffer | undefined): Channel {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const net = require("node:net") as typeof import("node:net");
  const s = net.connect(sock);
  // Held by the socket until it is connected.
  if (first) s.write(first);
  let closed = false;
  s.on("connect", () => ev.connect());
  s.on("data", (d: Buffer) => {
    if (!closed) ev.data(d);
  });
  s.on("error", (e: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    s.destroy();
    ev.error(e.code ?? e.message);
  });
  s.on("end", () => {
    if (closed) return;
    closed = true;
    s.destroy();
    ev.end();
  });
  s.on("close", () => {
    if (closed) return;
    closed = true;
    ev.end();
  });
  return {
    write: (bytes) => {
      if (!closed) s.write(bytes);
    },
    close: () => {
      closed = true;
      s.destroy();
    },
  };
}

/**
 * Connects to the daemon on `sock`: through Node's pipe handle when it may be used (`pipes`
 * true, the default when available), else through `net`. `first` is sent as soon as the
 * connection is there, before `connect` is called. Events arrive after this returns.
 */
export function openChannel(sock: string, ev: ChannelEvents, pipes = true, first?: Buffer): Channel {
  const b = pipes ? nodePipes() : undefined;
  if (b) {
    try {
      return pipeChannel(b, sock, ev, first);
    } catch {
      pipeBindings = null;
    }
  }
  return netChannel(sock, ev, first);
}

/** isatty without loading `tty` (which loads `net`) when the pipe bindings are there. */
function isatty(fd: number): boolean {
  const b = nodePipes();
  if (b) return b.isTTY(fd);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}

/**
 * An answer is held until the daemon says it is complete, so that a daemon failing mid-answer
 * leaves nothing on stdout and the run falls back cleanly. Past this many bytes it goes out as it
 * comes instead (a long answer, which the tools write as they produce it, must not pile up here):
 * a failure after that cannot fall back, and says so.
 */
const holdAnswerBytes = (): number => envMs("LLMTOOLS_DAEMON_HOLD_BYTES", 8 * 1024 * 1024);

type Mode = "auto" | "start" | "off";

/**
 * Takes --daemon and --no-daemon out of process.argv (the tools' own parsers never see them) and
 * says what the command line asked for. Arguments after `--` are the tool's.
 */
export function takeDaemonFlags(argv: string[] = process.argv): Mode {
  let mode: Mode = envOn(DAEMON_ENV) ? "start" : "auto";
  let off = envOn(NO_DAEMON_ENV);
  const kept: string[] = [];
  let rest = false;
  for (const a of argv.slice(2)) {
    if (!rest && a === "--no-daemon") off = true;
    else if (!rest && a === "--daemon") mode = "start";
    else {
      if (a === "--") rest = true;
      kept.push(a);
    }
  }
  argv.splice(2, argv.length - 2, ...kept);
  // The daemon speaks over Unix sockets; on Windows every tool runs in-process (named pipes are
  // not built: `llmtools daemon start` says so).
  return off || envOn(IN_DAEMON_ENV) || process.platform === "win32" ? "off" : mode;
}

/**
 * Command lines that stay in-process: `magellan watch` streams until stopped; `llmtools` manages
 * the daemon itself and serves MCP sessions (a long-lived server of its own).
 */
function eligible(tool: string, args: readonly string[]): boolean {
  return tool !== "llmtools" && !(tool === "magellan" && args[0] === "watch");
}

/**
 * What splice's journal says of the operations the dead daemon began for this request (its pid,
 * since the request left): committed (`done`, or `committing`, which the next run rolls forward),
 * rolled back, or none at all. Undefined when the journal cannot be read.
 */
function journalOf(root: string, pid: number | undefined, since: number): string | undefined {
  if (pid === undefined) return undefined;
  const dir = join(root, ".splice", "journal");
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return "no operation of it is in the journal: nothing was written; run it again";
  }
  const ours: { id: string; status: string }[] = [];
  for (const n of names) {
    try {
      const e = JSON.parse(readFileSync(join(dir, n), "utf8")) as { operation_id: string; time: string; status: string; owner?: { pid?: number } };
      if (e.owner?.pid === pid && Date.parse(e.time) >= since - 1000) ours.push({ id: e.operation_id, status: e.status });
    } catch {
      return undefined;
    }
  }
  if (ours.length === 0) return "no operation of it is in the journal: nothing was written; run it again";
  return ours
    .map((o) =>
      o.status === "done" || o.status === "committing"
        ? `operation ${o.id} was committed${o.status === "committing" ? " (the next run completes it)" : ""}: do not run it again ('splice undo --operation-id ${o.id}' reverts it)`
        : `operation ${o.id} did not commit (${o.status}): nothing of it was written; run it again`,
    )
    .join("; ");
}

/** Whether the command line may change files (a writer that is not a dry run). */
function writes(tool: string, args: readonly string[]): boolean {
  if (args.includes("--dry-run") || args.includes("--help") || args.includes("-h")) return false;
  if (tool === "splice") return args[0] !== "log";
  return tool === "llmtransform" || tool === "llmfilewrite";
}

/**
 * A bin's entry: runs the command line through the root's daemon when one runs (or `--daemon`
 * asks for one), else calls `runLocal`, which loads and runs the tool in this process.
 */
export function runViaDaemon(tool: string, runLocal: () => void): void {
  const mode = takeDaemonFlags();
  const args = process.argv.slice(2);
  if (mode === "off" || !eligible(tool, args)) return runLocal();
  const cwd = process.cwd();
  const root = workspaceRootOf(args, cwd);
  if (root === undefined) return runLocal();
  const sock = existingSocket(root);
  if (sock !== undefined) {
    new Attempt(tool, args, cwd, root, sock, runLocal).start();
    return;
  }
  if (mode !== "start") return runLocal();
  startDaemon(root, [])
    .then((started) => {
      if (started === undefined) {
        note(`could not start a daemon for ${root}; running in-process`);
        runLocal();
      } else new Attempt(tool, args, cwd, root, started, runLocal).start();
    })
    .catch(() => runLocal());
}

/**
 * A bin's whole job (src/cli/*-bin.cts): the command line goes to the workspace's daemon when one
 * runs; otherwise, or when it cannot answer, the tool runs here from its bundle with a V8 code
 * cache (src/launch/code-cache.cts), which only then is loaded. `commands` names the commands
 * that keep a code cache of their own (a function: only a run in-process needs them).
 */
export function runBin(dir: string, tool: string, commands: readonly string[] | (() => readonly string[])): void {
  runViaDaemon(tool, () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { runLocal } = require("../launch/code-cache.cjs") as typeof import("../launch/code-cache.cjs");
    runLocal(dir, tool, typeof commands === "function" ? commands() : commands);
  });
}

function note(message: string): void {
  process.stderr.write(`llmtools: ${message}\n`);
}

/** Removes a socket (and its info file) that no live daemon answers on, if it is ours. */
export function removeStale(sock: string): void {
  try {
    const st = lstatSync(sock);
    if (!st.isSocket() || st.uid !== process.getuid?.()) return;
    rmSync(sock, { force: true });
    rmSync(infoPathOf(sock), { force: true });
  } catch {
    // Already gone.
  }
}

/** Kills a daemon that stopped answering: the pid its info file names, if that file is about this socket. */
export function killHung(sock: string): void {
  const info = readInfo(sock);
  if (info && info.socket === sock && info.pid !== process.pid) {
    try {
      process.kill(info.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  removeStale(sock);
}

/** Starts a daemon for `root` in the background (detached, outliving this process). */
export function spawnDaemon(root: string, extra: readonly string[]): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require("node:child_process") as typeof import("node:child_process");
  const child = spawn(process.execPath, [daemonMain(), "--root", root, ...extra], {
    detached: true,
    stdio: "ignore",
    cwd: root,
    env: { ...process.env, [IN_DAEMON_ENV]: "1" },
  });
  child.unref();
}

/**
 * Sends one control message (`ping`, `status`, `shutdown`) and resolves with the daemon's first
 * answer (`hello`, `status`, `bye`, or `mismatch`), or undefined when nothing live answers in time.
 */
export function ping(sock: string, timeoutMs = helloTimeoutMs(), t: "ping" | "status" | "shutdown" = "ping"): Promise<Record<string, unknown> | undefined> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const net = require("node:net") as typeof import("node:net");
  return new Promise((resolve) => {
    const s = net.connect(sock);
    const done = (v: Record<string, unknown> | undefined): void => {
      clearTimeout(timer);
      s.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    const reader = new FrameReader((type, payload) => {
      if (type === FRAME_JSON) done(JSON.parse(payload.toString("utf8")) as Record<string, unknown>);
    });
    s.on("connect", () => s.write(jsonFrame({ t, protocol: PROTOCOL_VERSION, pkg: packageVersion(), build: buildId() })));
    s.on("data", (d: Buffer) => reader.push(d));
    s.on("error", () => done(undefined));
    s.on("close", () => done(undefined));
  });
}

/**
 * Starts a daemon for `root` unless one of this version already answers, and resolves with its
 * socket once it greets, or undefined after the start timeout.
 */
export async function startDaemon(root: string, extra: readonly string[]): Promise<string | undefined> {
  let replace = false;
  for (const sock of socketCandidates(root)) {
    if (!existsSync(sock)) continue;
    const hello = await ping(sock);
    if (hello?.t === "hello") return sock;
    // A daemon of another build stops itself on being greeted; the new one waits for its socket.
    if (hello?.t === "mismatch") replace = true;
    if (hello === undefined) killHung(sock);
  }
  spawnDaemon(root, replace ? [...extra, "--replace"] : extra);
  const deadline = Date.now() + startTimeoutMs();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    for (const sock of socketCandidates(root)) {
      if (!existsSync(sock)) continue;
      const hello = await ping(sock, 1000);
      if (hello?.t === "hello") return sock;
    }
  }
  return undefined;
}

/** How long an overdue daemon's CPU time is watched for movement (see Attempt.overdue). */
const BUSY_PROBE_MS = 200;

/** One command line sent to one daemon, with the in-process fallback when that fails. */
class Attempt {
  private channel: Channel | undefined;
  private phase: "connecting" | "running" | "done" = "connecting";
  private readonly out: Buffer[] = [];
  private outBytes = 0;
  /** Part of the answer is out already (see holdAnswerBytes): the rest follows as it comes. */
  private passing = false;
  private readonly err: Buffer[] = [];
  /** stdin bytes already sent to the daemon, replayed for the in-process run if it must take over. */
  private readonly stdinSeen: Buffer[] = [];
  private stdinEnded = false;
  private stdinForwarding = false;
  private timer: NodeJS.Timeout | undefined;
  /** The daemon's pid (from its greeting) and when this request left: to find its journal entries. */
  private daemonPid: number | undefined;
  private readonly sentAt = Date.now();

  constructor(
    private readonly tool: string,
    private readonly args: string[],
    private readonly cwd: string,
    private readonly root: string,
    private readonly sock: string,
    private readonly runLocal: () => void,
  ) {}

  start(): void {
    const reader = new FrameReader((type, payload) => this.onFrame(type, payload));
    const events: ChannelEvents = {
      connect: () => undefined,
      data: (d) => {
        try {
          reader.push(d);
        } catch {
          this.fallback("sent a malformed answer", "kill");
        }
      },
      error: (code) => {
        if (this.phase === "connecting" && (code === "ECONNREFUSED" || code === "ENOENT" || code === "ENOTSOCK")) this.fallback("is gone (stale socket)", "remove");
        // A daemon that dies with bytes of ours unread (stdin being forwarded) resets the
        // connection instead of ending it: the request had started all the same.
        else if (this.phase === "running") this.fallback("stopped mid-request", "none");
        else this.fallback(`connection failed (${code})`, "none");
      },
      end: () => {
        if (this.phase === "running") this.fallback("stopped mid-request", "none");
        else if (this.phase === "connecting") this.fallback("closed the connection", "none");
      },
    };
    // The request goes out with the connection, not after a greeting: one round trip in all.
    this.channel = openChannel(this.sock, events, true, this.runFrame());
    this.arm(helloTimeoutMs(), "did not answer");
  }

  private runFrame(): Buffer {
    const stdoutTTY = isatty(1);
    return runFrame(this.tool, this.args, this.cwd, { stdin: isatty(0), stdout: stdoutTTY, stderr: isatty(2) }, stdoutTTY ? process.stdout.columns : undefined);
  }

  private arm(ms: number, what: string): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.overdue(ms, what), ms);
  }

  /**
   * No greeting in time. A daemon whose CPU time moves is working, not hung: one client's request
   * can hold its event loop for seconds (a query matched against one file up to its budget, a busy
   * machine), and killing it then would end that client's request too and throw away every warm
   * cache. A reader runs here and leaves it be; a writer's request may already be queued in it, so
   * a busy daemon is still killed for a writer (its change must not be applied twice). One that
   * does not move (stopped, deadlocked) is killed, as is any when /proc cannot tell.
   */
  private overdue(ms: number, what: string): void {
    const hung = `${what} within ${ms} ms (hung)`;
    const pid = this.phase === "connecting" && !writes(this.tool, this.args) ? readInfo(this.sock)?.pid : undefined;
    const before = pid === undefined ? undefined : cpuTicks(`/proc/${pid}/stat`);
    if (before === undefined) {
      this.fallback(hung, "kill");
      return;
    }
    this.timer = setTimeout(() => {
      const after = cpuTicks(`/proc/${pid as number}/stat`);
      if (after !== undefined && after > before) this.fallback(`${what} within ${ms} ms: it is busy with another request (not hung), left running`, "none");
      else this.fallback(hung, "kill");
    }, BUSY_PROBE_MS);
  }

  private onFrame(type: number, payload: Buffer): void {
    if (this.phase === "done") return;
    if (type === FRAME_STDOUT) this.takeStdout(payload);
    else if (type === FRAME_STDERR) this.err.push(payload);
    else if (type === FRAME_JSON) {
      const m = JSON.parse(payload.toString("utf8")) as { t: string; code?: number; pkg?: string; protocol?: number; pid?: number };
      if (m.t === "hello") {
        this.phase = "running";
        if (typeof m.pid === "number") this.daemonPid = m.pid;
        this.arm(silenceTimeoutMs(), "went silent");
      } else if (m.t === "alive") this.arm(silenceTimeoutMs(), "went silent");
      else if (m.t === "stdin") this.forwardStdin();
      else if (m.t === "mismatch") this.fallback(`is of another version or build (${m.pkg}, protocol ${m.protocol}); replacing it`, "replace");
      else if (m.t === "exit") this.finish(m.code ?? 1);
      else if (m.t === "decline") this.decline();
    }
  }

  private takeStdout(payload: Buffer): void {
    this.outBytes += payload.length;
    if (!this.passing) {
      this.out.push(payload);
      if (this.outBytes <= holdAnswerBytes()) return;
      this.passing = true;
      if (this.err.length > 0) writeNow(2, Buffer.concat(this.err.splice(0)));
      payload = Buffer.concat(this.out.splice(0));
    }
    // Written before the next frame is read: a slow reader slows the daemon's socket, not this heap.
    // An error means the reader is gone (EPIPE and the like): nothing is left to do.
    if (writeNow(1, payload)) process.exit(0);
  }

  /** The daemon will not run this command line (its cwd is gone, no such tool here): run it here, quietly. */
  private decline(): void {
    this.phase = "done";
    if (this.timer) clearTimeout(this.timer);
    this.channel?.close();
    if (this.stdinForwarding) this.replayStdin();
    this.runLocal();
  }

  private forwardStdin(): void {
    if (this.stdinForwarding) return;
    this.stdinForwarding = true;
    const send = (frame: Buffer): void => {
      if (this.phase === "running") this.channel?.write(frame);
    };
    process.stdin.on("data", (c: Buffer) => {
      this.stdinSeen.push(c);
      send(encodeFrame(FRAME_STDIN, c));
    });
    process.stdin.on("end", () => {
      this.stdinEnded = true;
      send(jsonFrame({ t: "stdin-end" }));
    });
    process.stdin.on("error", () => {
      this.stdinEnded = true;
      send(jsonFrame({ t: "stdin-end" }));
    });
  }

  /** The answer, written whole, and the exit at once: nothing else is left to wait for. */
  private finish(code: number): void {
    this.phase = "done";
    if (this.timer) clearTimeout(this.timer);
    this.channel?.close();
    // EPIPE and the like: the reader is gone, as process.stdout's "error" would say.
    if (this.err.length > 0) writeNow(2, Buffer.concat(this.err));
    // The answer held whole; nothing when it was passed on as it came (see takeStdout).
    if (this.out.length > 0) writeNow(1, this.out.length === 1 ? (this.out[0] as Buffer) : Buffer.concat(this.out));
    process.exit(code);
  }

  /**
   * The daemon could not answer: deal with it (`remove` a dead socket, `kill` a hung daemon,
   * `replace` one of another version, which shuts itself down) and run the tool here, with the
   * stdin the daemon already took replayed first. stdout gets only this run's answer: nothing
   * the daemon sent is printed.
   */
  private fallback(why: string, action: "remove" | "kill" | "replace" | "none"): void {
    if (this.phase === "done") return;
    const started = this.phase === "running";
    this.phase = "done";
    if (this.timer) clearTimeout(this.timer);
    this.channel?.close();
    if (this.passing) {
      // Part of the daemon's answer is out: running here as well would print a second one.
      note(`the daemon for ${this.root} ${why} after ${this.outBytes} bytes of a long answer were written: the answer is cut; run again (--no-daemon runs it in this process)`);
      process.exit(1);
    }
    if (action === "remove") removeStale(this.sock);
    if (action === "kill") killHung(this.sock);
    // A change the daemon had started may be on disk already: run again, it would plan from the
    // changed files and apply a second time (an insert twice). The tool says so instead.
    // Still waiting for its stdin, a writer had not read its input, so it had written nothing.
    const interrupted = started && writes(this.tool, this.args) && !(this.stdinForwarding && !this.stdinEnded);
    note(`the daemon for ${this.root} ${why}; ${interrupted ? "the change is not run again" : "running in-process"}`);
    if (interrupted) {
      process.env.LLMTOOLS_DAEMON_INTERRUPTED = why;
      const journal = this.tool === "splice" ? journalOf(this.root, this.daemonPid, this.sentAt) : undefined;
      if (journal !== undefined) process.env.LLMTOOLS_DAEMON_INTERRUPTED_JOURNAL = journal;
    }
    if (action !== "none") {
      try {
        spawnDaemon(this.root, action === "replace" ? ["--replace"] : []);
      } catch {
        // The next run will try again.
      }
    }
    if (this.stdinForwarding) this.replayStdin();
    this.runLocal();
  }

  private replayStdin(): void {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PassThrough } = require("node:stream") as typeof import("node:stream");
    const real = process.stdin;
    const replay = new PassThrough();
    for (const c of this.stdinSeen) replay.write(c);
    if (this.stdinEnded) replay.end();
    else {
      real.removeAllListeners("data");
      real.removeAllListeners("end");
      real.pipe(replay);
    }
    Object.assign(replay, { isTTY: real.isTTY, fd: 0 });
    Object.defineProperty(process, "stdin", { configurable: true, enumerable: true, get: () => replay });
  }
}

export interface DaemonAnswer {
  code: number;
  stdout: Buffer;
  stderr: Buffer;
}

/** The request that asks the daemon to run one command line (no terminal unless `tty` says so). */
export function runFrame(tool: string, argv: readonly string[], cwd: string, tty = { stdin: false, stdout: false, stderr: false }, columns?: number): Buffer {
  return jsonFrame({ t: "run", protocol: PROTOCOL_VERSION, pkg: packageVersion(), build: buildId(), tool, argv, cwd, env: process.env, tty, columns });
}

/**
 * One command line run by the daemon on `sock`, from a long-lived caller (a bench, a server):
 * rejects, instead of falling back, when the daemon cannot answer. No stdin.
 */
export function request(sock: string, tool: string, argv: readonly string[], cwd: string): Promise<DaemonAnswer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const net = require("node:net") as typeof import("node:net");
  return new Promise((resolve, reject) => {
    const s = net.connect(sock);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let settled = false;
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      s.destroy();
      reject(new Error(`daemon on ${sock}: ${why}`));
    };
    const reader = new FrameReader((type, payload) => {
      if (type === FRAME_STDOUT) out.push(payload);
      else if (type === FRAME_STDERR) err.push(payload);
      else if (type === FRAME_JSON) {
        const m = JSON.parse(payload.toString("utf8")) as { t: string; code?: number; reason?: string };
        if (m.t === "exit") {
          settled = true;
          s.destroy();
          resolve({ code: m.code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
        } else if (m.t === "stdin") s.write(jsonFrame({ t: "stdin-end" }));
        else if (m.t === "mismatch" || m.t === "decline") fail(m.reason ?? m.t);
      }
    });
    s.on("connect", () => s.write(runFrame(tool, argv, cwd)));
    s.on("data", (d: Buffer) => reader.push(d));
    s.on("error", (e) => fail(e.message));
    s.on("close", () => fail("closed the connection"));
  });
}
