/**
 * A language server killed in the middle of a message must not keep the client process alive:
 * vscode-jsonrpc's partial-message timer re-arms itself for ever and survives dispose(), which
 * hung test/splice/crlf.test.js (and so CI) whenever pyright was stopped mid-message.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const CLIENT = join(fileURLToPath(new URL("..", import.meta.url)), "support", "lsp-partial-client.js");

test("a client whose server was killed mid-message exits once it has disposed the connection", async () => {
  const child = spawn(process.execPath, [CLIENT], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr.on("data", (b: Buffer) => (err += b.toString()));
  // The bug's timer fires every 10 s: a client still alive after 15 s would never exit.
  const exited = await new Promise<number | string>((resolve) => {
    const limit = setTimeout(() => resolve("still running after 15 s"), 15_000);
    child.on("exit", (code, sig) => {
      clearTimeout(limit);
      resolve(code ?? String(sig));
    });
  });
  if (exited === "still running after 15 s") child.kill("SIGKILL");
  assert.equal(out, "disposed\n", err);
  assert.equal(exited, 0, err);
});
