/**
 * `magellan export` without --output: the answer goes to stdout while the index is read
 * (src/tools/magellan/export.ts), in the very bytes printResult would print for the whole
 * envelope. The result returned carries the open document; printResult runs the daemon's hooks
 * on the envelope (a freshness note joins its diagnostics, which come after the data) and then
 * closes it.
 */
import { writeSync } from "node:fs";
import { EXIT } from "../contract/errors.js";
import { type ExportRequest, exportGraph } from "../tools/magellan/export.js";
import { JsonDocument } from "../tools/magellan/export-writer.js";
import { TOOL, queryEnvelope } from "./magellan-quick.js";
import { type CliResult, type StreamedDocument, failureResult } from "./output.js";

/** The reader went away (`| head`): nothing more to write. */
class StdoutClosed extends Error {}

/** JSON Lines are complete once written: printResult has nothing left to print. */
const PRINTED: StreamedDocument = { opened: true, ended: true, close: () => undefined };

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes to a file descriptor and returns once the bytes are handed over. process.stdout.write on
 * a pipe queues in memory what the reader has not taken yet (`magellan export | gzip` held the
 * whole 104 MB answer: 339 MB of RSS); the pipe is non-blocking (libuv), so a full one is waited
 * on here, which the export's synchronous reads allow.
 */
function writeFdSync(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") Atomics.wait(pause, 0, 0, 1);
      else if (code === "EPIPE") throw new StdoutClosed();
      else throw e;
    }
  }
}

export function exportToStdout(req: ExportRequest, pretty: boolean): CliResult {
  // Inside the daemon, stdout is the request's stream (src/server/context.ts), without a descriptor.
  const fd = (process.stdout as { fd?: unknown }).fd;
  const write =
    typeof fd === "number"
      ? (text: string): void => writeFdSync(fd, text)
      : (text: string): void => {
          const out = process.stdout as NodeJS.WriteStream & { errored?: unknown };
          if (out.destroyed || out.errored) throw new StdoutClosed();
          out.write(text);
        };
  const document = new JsonDocument(pretty, write);
  let envelope: Record<string, unknown> | undefined;
  let partial = false;
  try {
    exportGraph(req, {
      document,
      write,
      frame: (data, p, diagnostics) => {
        partial = p;
        if (data === undefined) {
          for (const d of diagnostics) process.stderr.write(`magellan: ${d.level}: ${d.message}\n`);
          return undefined;
        }
        envelope = queryEnvelope(TOOL, "export", data, { partial, diagnostics });
        return envelope;
      },
    });
  } catch (e) {
    if (e instanceof StdoutClosed) process.exit(process.exitCode ?? 0);
    // JSON Lines records already out are followed by the error envelope, as its last line.
    if (!document.opened || !envelope) throw e;
    // Half a document is out: it ends as valid JSON, its lists as far as they got, the error last.
    const failed = failureResult(TOOL, { kind: "query", command: "export" }, e);
    envelope.diagnostics = [...((envelope.diagnostics as unknown[] | undefined) ?? []), ...((failed.envelope as { diagnostics?: unknown[] }).diagnostics ?? [])];
    document.abort(envelope);
    return { ...failed, stream: document };
  }
  if (!envelope) return { envelope: undefined, exitCode: EXIT.ok, stream: PRINTED };
  return { envelope, exitCode: partial ? EXIT.partial : EXIT.ok, stream: document };
}
