/**
 * `magellan export` without --output: the answer goes to stdout while the index is read
 * (src/tools/magellan/export.ts), in the very bytes printResult would print for the whole
 * envelope. The result returned carries the open document; printResult runs the daemon's hooks
 * on the envelope (a freshness note joins its diagnostics, which come after the data) and then
 * closes it.
 */
import { EXIT } from "../contract/errors.js";
import { type ExportRequest, exportGraph } from "../tools/magellan/export.js";
import { JsonDocument } from "../text/json-document.js";
import { TOOL, queryEnvelope } from "./magellan-quick.js";
import { type CliResult, type StreamedDocument, failureResult } from "./output.js";
import { stdoutWriter } from "./stdout.js";

/** JSON Lines are complete once written: printResult has nothing left to print. */
const PRINTED: StreamedDocument = { opened: true, ended: true, finish: () => Promise.resolve() };

export function exportToStdout(req: ExportRequest, pretty: boolean): CliResult {
  // Synchronous, and waits out a full pipe: process.stdout.write would queue what a slow reader
  // has not taken (typeorm's json into a slow pipe: 339 MB of RSS; with it, 116 MB).
  const write = stdoutWriter();
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
