/**
 * A synchronous writer for a CLI's answer that a long answer cannot pile up behind. On a pipe,
 * process.stdout.write queues in memory whatever the reader has not taken yet (libuv makes the pipe
 * non-blocking), so an answer written as it is produced (src/cli/stream.ts) would be held whole by
 * a slow reader. Here a full pipe is waited out instead; the producers are synchronous anyway.
 */
import { writeSync } from "node:fs";

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes to this run's stdout. Inside the daemon stdout is the request's stream (src/server/context.ts),
 * without a descriptor: it is written as a stream there. A reader that went away (EPIPE) ends the
 * run as `tolerateClosedStdout` does: that is not an error of ours.
 */
export function stdoutWriter(): (chunk: string | Uint8Array) => void {
  const out = process.stdout as NodeJS.WriteStream & { fd?: unknown };
  const fd = out.fd;
  if (typeof fd !== "number") return (chunk) => void out.write(chunk);
  return (chunk) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    for (let at = 0; at < bytes.length; ) {
      try {
        at += writeSync(fd, bytes, at, bytes.length - at);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EAGAIN") Atomics.wait(pause, 0, 0, 1);
        else if (code === "EPIPE") process.exit(process.exitCode ?? 0);
        else throw e;
      }
    }
  };
}
