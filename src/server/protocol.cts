/**
 * What a client and the daemon agree on: where a workspace's daemon listens, how messages are
 * framed, and which versions may talk. CommonJS (a .cts file) and builtins only, because every
 * bin loads it before any tool code (src/launch/code-cache.cts): a run that finds no daemon pays
 * for a few stat calls, nothing more.
 *
 * A frame is a 4-byte big-endian length, then one type byte, then the payload (length counts the
 * type byte and the payload). Control messages are JSON (type J); stdout, stderr and stdin bytes
 * travel raw (types O, E, I), so output is relayed byte for byte.
 */
import { existsSync, mkdirSync, lstatSync, readFileSync, realpathSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

let buildCache: string | undefined;
/**
 * The package version plus this build's time (tsc rewrites every file on each build): a daemon
 * left running by an earlier build of the same version is replaced like one of another version.
 */
export function buildId(): string {
  buildCache ??= `${packageVersion()}+${Math.trunc(statSync(join(serverDir(), "protocol.cjs")).mtimeMs)}`;
  return buildCache;
}

/** Bumped whenever a message changes shape; a client and daemon of different protocols never talk. */
export const PROTOCOL_VERSION = 1;

export const FRAME_JSON = 0x4a;
export const FRAME_STDOUT = 0x4f;
export const FRAME_STDERR = 0x45;
export const FRAME_STDIN = 0x49;

/** sun_path holds 108 bytes with its NUL on Linux, 104 on macOS: stay well below both. */
export const MAX_SOCKET_PATH = 100;

/**
 * dist/src/server/, where this module is built. A bundle that takes this module in (llmtools's,
 * in dist/src/cli/) has its own __dirname: the server folder is then its sibling.
 */
function serverDir(): string {
  return basename(__dirname) === "server" ? __dirname : join(__dirname, "..", "server");
}

let versionCache: string | undefined;
/** The package version (dist/src/server/ -> ../../../package.json). */
export function packageVersion(): string {
  versionCache ??= (JSON.parse(readFileSync(join(serverDir(), "..", "..", "..", "package.json"), "utf8")) as { version: string }).version;
  return versionCache;
}

export function encodeFrame(type: number, payload: Buffer | string): Buffer {
  const body = typeof payload === "string" ? Buffer.from(payload, "utf8") : payload;
  return Buffer.concat([frameHead(type, body.length), body]);
}

/** A frame's 5 header bytes: a large payload can then be written after it without a copy. */
export function frameHead(type: number, payloadLength: number): Buffer {
  const head = Buffer.allocUnsafe(5);
  head.writeUInt32BE(payloadLength + 1, 0);
  head[4] = type;
  return head;
}

export function jsonFrame(message: object): Buffer {
  return encodeFrame(FRAME_JSON, JSON.stringify(message));
}

/** A frame larger than this is a corrupt stream, not a message (an answer is at most a few hundred MB). */
const MAX_FRAME = 1 << 30;

/**
 * Cuts a byte stream into frames; `onFrame` gets each whole one. Chunks are joined only once a
 * whole frame is there, so a frame of a few MB that arrives in 64 KB reads is copied once, not
 * once per read.
 */
export class FrameReader {
  private pending: Buffer[] = [];
  private size = 0;
  /** Bytes needed before the next step can be taken: a header, then the header's whole frame. */
  private need = 4;
  constructor(private readonly onFrame: (type: number, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.pending.push(chunk);
    this.size += chunk.length;
    while (this.size >= this.need) {
      let buf = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending, this.size);
      const len = buf.readUInt32BE(0);
      if (len < 1 || len > MAX_FRAME) throw new Error(`bad frame length ${len}`);
      if (buf.length < 4 + len) {
        this.pending = [buf];
        this.need = 4 + len;
        return;
      }
      const type = buf[4] as number;
      const payload = buf.subarray(5, 4 + len);
      buf = buf.subarray(4 + len);
      this.pending = buf.length > 0 ? [buf] : [];
      this.size = buf.length;
      this.need = 4;
      this.onFrame(type, payload);
    }
  }
}

/**
 * The workspace root a command line is about (CONTRACT.md: `--root`, else the enclosing git work
 * tree, else the current directory), as a real path; undefined when `--root` names nothing, so
 * the tool itself reports that. Only routing depends on it: any daemon runs any command line
 * with the client's own cwd, so a wrong guess never changes an answer.
 */
export function workspaceRootOf(args: readonly string[], cwd: string): string | undefined {
  let explicit: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--") break;
    if (a === "--root" && i + 1 < args.length) explicit = args[i + 1];
    else if (a.startsWith("--root=")) explicit = a.slice("--root=".length);
  }
  try {
    if (explicit !== undefined) {
      const abs = realpathSync(resolve(cwd, explicit));
      return statSync(abs).isDirectory() ? abs : undefined;
    }
    const start = realpathSync(cwd);
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, ".git"))) return dir;
      if (dirname(dir) === dir) return start;
    }
  } catch {
    return undefined;
  }
}

/** The per-user runtime directory: $XDG_RUNTIME_DIR, else a private folder in the temp dir. */
export function runtimeDir(create: boolean): string | undefined {
  const xdg = process.env.XDG_RUNTIME_DIR;
  if (xdg && existsSync(xdg)) return xdg;
  const uid = process.getuid?.() ?? 0;
  // node:os costs a client's start ~0.15 ms: loaded only when XDG_RUNTIME_DIR does not do.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { tmpdir } = require("node:os") as typeof import("node:os");
  const dir = join(tmpdir(), `llmtools-${uid}`);
  try {
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    // A folder someone else made (or opened to others) could hold their socket: not ours to use.
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a root's daemon may listen, in the order a client looks: `<root>/.magellan/daemon.sock`
 * when that path fits in sun_path, then a short name hashed from the root in the runtime dir.
 */
export function socketCandidates(root: string, create = false): string[] {
  const primary = primarySocket(root);
  const hashed = hashedSocket(root, create);
  return [...(primary ? [primary] : []), ...(hashed ? [hashed] : [])];
}

function primarySocket(root: string): string | undefined {
  const primary = join(root, ".magellan", "daemon.sock");
  return Buffer.byteLength(primary) <= MAX_SOCKET_PATH ? primary : undefined;
}

function hashedSocket(root: string, create: boolean): string | undefined {
  const rt = runtimeDir(create);
  if (rt === undefined) return undefined;
  // node:crypto costs milliseconds to load: only runs that need this name pay for it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  const hashed = join(rt, `llmtools-${createHash("sha256").update(root).digest("hex").slice(0, 16)}.sock`);
  return Buffer.byteLength(hashed) <= MAX_SOCKET_PATH ? hashed : undefined;
}

/** The socket a live daemon of `root` may be listening on: the first candidate that exists. */
export function existingSocket(root: string): string | undefined {
  const primary = primarySocket(root);
  if (primary !== undefined && existsSync(primary)) return primary;
  const hashed = hashedSocket(root, false);
  return hashed !== undefined && existsSync(hashed) ? hashed : undefined;
}

/** The daemon's description (pid, versions, root) beside its socket. */
export function infoPathOf(socketPath: string): string {
  return `${socketPath}.json`;
}

export interface DaemonInfo {
  pid: number;
  root: string;
  socket: string;
  package_version: string;
  protocol: number;
  started_at: string;
  idle_timeout_ms: number;
}

export function readInfo(socketPath: string): DaemonInfo | undefined {
  try {
    return JSON.parse(readFileSync(infoPathOf(socketPath), "utf8")) as DaemonInfo;
  } catch {
    return undefined;
  }
}

/** The daemon's entry script (dist/src/server/main.js). */
export function daemonMain(): string {
  return join(serverDir(), "main.js");
}

/** Milliseconds from an environment variable, or the default. */
export function envMs(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `bytes` to a descriptor now, waiting out a full pipe: one whose reader is slow,
 * or that someone else made non-blocking (EAGAIN), rather than queueing the rest in memory as
 * process.stdout.write does. Returns the error that stopped it (EPIPE: the reader is gone), if
 * any. The client relays a daemon's answer with it, and a CLI writes an answer it streams
 * (src/cli/stdout.ts).
 */
export function writeNow(fd: number, bytes: Uint8Array): NodeJS.ErrnoException | undefined {
  for (let off = 0; off < bytes.length; ) {
    try {
      off += writeSync(fd, bytes, off, bytes.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") return e as NodeJS.ErrnoException;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
  return undefined;
}
