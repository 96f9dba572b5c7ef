/**
 * A synchronous writer for a CLI's answer that a long answer cannot pile up behind. On a pipe,
 * process.stdout.write queues in memory whatever the reader has not taken yet (libuv makes the pipe
 * non-blocking), so an answer written as it is produced (src/cli/stream.ts) would be held whole by
 * a slow reader. Here a full pipe is waited out instead (writeNow); the producers are synchronous anyway.
 */
import { writeNow } from "../server/protocol.cjs";

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
    const failed = writeNow(fd, typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
    if (failed?.code === "EPIPE") process.exit(process.exitCode ?? 0);
    if (failed) throw failed;
  };
}
