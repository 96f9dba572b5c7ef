/**
 * A client whose server dies in the middle of a message: it connects to a child that writes the
 * first half of an LSP message and then waits, disposes the connection and kills the child,
 * as PyrightServer.dispose() does at the end of an operation. Then it has nothing left to do:
 * the process must exit on its own (test/validate/lsp-stdio.test.ts times it).
 */
import { spawn } from "node:child_process";
import { stdioConnection } from "../../src/validate/lsp-stdio.js";

const server = spawn(process.execPath, ["-e", "process.stdout.write('Content-Length: 200\\r\\n\\r\\n{\"jsonrpc\":\"2.0\",\"me'); setInterval(() => {}, 1000);"], { stdio: ["pipe", "pipe", "ignore"] });
const conn = stdioConnection(server.stdout, server.stdin);
conn.listen();
server.stdout.once("data", () => {
  // The reader has the half message once this turn of the loop is over.
  setImmediate(() => {
    conn.dispose();
    server.kill("SIGKILL");
    process.stdout.write("disposed\n");
  });
});
