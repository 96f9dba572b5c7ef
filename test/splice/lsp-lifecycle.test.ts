/**
 * A language server's own children must not keep splice alive after the session ends: gopls and
 * rust-analyzer start processes of their own, which inherit the server's pipes.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { tempDir } from "../support/run.js";

test("a session whose server left a child holding its pipes ends when it is closed, not when that child does", async () => {
  const dir = tempDir("splice-lsp-");
  const pidFile = join(dir, "grandchild.pid");
  // A server that starts a long-lived child on its own stdout/stderr and never answers (not even
  // `shutdown`), so close() has to kill it.
  const server = join(dir, "server.cjs");
  writeFileSync(
    server,
    `const { spawn } = require("node:child_process");
const c = spawn("sleep", ["60"], { stdio: ["ignore", "inherit", "inherit"] });
require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));
process.stdin.resume();
`,
  );
  const lsp = pathToFileURL(join(process.cwd(), "dist", "src", "tools", "splice", "rename", "lsp.js")).href;
  const client = `
const { Session } = await import(${JSON.stringify(lsp)});
const s = new Session({ name: "fake", command: process.execPath, args: [${JSON.stringify(server)}], languageId: "go", extensions: /\\.go$/ }, ${JSON.stringify(dir)});
while (!require("node:fs").existsSync(${JSON.stringify(pidFile)})) await new Promise((r) => setTimeout(r, 20));
await s.close();
`;
  const t0 = Date.now();
  const child = spawn(process.execPath, ["--input-type=module", "-e", `import { createRequire } from "node:module"; const require = createRequire(import.meta.url);${client}`], { stdio: "inherit" });
  try {
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const took = Date.now() - t0;
    assert.equal(code, 0);
    // close() waits 3 s for the unanswered shutdown; the server's child lives 60 s.
    assert.ok(took < 20_000, `the client process exited after ${took} ms: the server's child kept it alive`);
  } finally {
    child.kill("SIGKILL");
    if (existsSync(pidFile)) {
      try {
        process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
});
