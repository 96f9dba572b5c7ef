/**
 * The one way the toolset speaks LSP to a server it started: over the child's stdio, with
 * vscode-jsonrpc. Used by pyright's validation and by splice's rename servers.
 */
import { createRequire } from "node:module";
import type { Readable, Writable } from "node:stream";
import type * as Rpc from "vscode-jsonrpc/node";

const require = createRequire(import.meta.url);

export function stdioConnection(stdout: Readable, stdin: Writable): Rpc.MessageConnection {
  // Loaded on first use, with require(): an ESM import of this CommonJS package is lexed for
  // named exports first, and a run that starts no server should not pay for that.
  const rpc = require("vscode-jsonrpc/node") as typeof Rpc;
  const reader = new rpc.StreamMessageReader(stdout);
  // vscode-jsonrpc (10.0.0) arms a 10 s timer when a message has come in part, re-arms it for as
  // long as the rest does not come, and does not clear it on dispose(). A server killed in the
  // middle of a message (pyright, stopped at the end of each operation) left that timer ref'd,
  // and it kept this process alive for ever: the hang of test/splice/crlf and statement-shapes
  // under CI. Nothing here listens for partial messages, so the timer is not armed at all.
  reader.partialMessageTimeout = 0;
  return rpc.createMessageConnection(reader, new rpc.StreamMessageWriter(stdin));
}
