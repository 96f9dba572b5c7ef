/**
 * `llmtools mcp --http`: the built bin on a free loopback port, driven by the SDK's
 * StreamableHTTPClientTransport with the bearer token it printed; requests without the token,
 * with a foreign Origin or a foreign Host are refused before they reach the MCP layer.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { binPath } from "../support/run.js";
import { call, workspace } from "./support.js";

let child: ChildProcess;
let url: string;
let token: string;

before(async () => {
  const root = workspace();
  child = spawn(binPath("llmtools"), ["mcp", "--http", "0", "--root", root], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr?.on("data", (b: Buffer) => (err += b.toString("utf8")));
  for (let i = 0; i < 200 && !/bearer token: \S+\n/.test(err); i++) await new Promise((r) => setTimeout(r, 50));
  url = /listening on (\S+)/.exec(err)?.[1] ?? "";
  token = /bearer token: (\S+)/.exec(err)?.[1] ?? "";
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/, err);
  assert.ok(token.length >= 32);
});
after(() => {
  child.kill("SIGTERM");
});

function rawPost(headers: Record<string, string>): Promise<number> {
  const u = new URL(url);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "0" } } });
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("llmtools mcp --http", () => {
  it("serves the SDK client that sends the bearer token", async () => {
    const client = new Client({ name: "http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      assert.equal((await call(client, "magellan_index", {})).isError, false);
      const r = await call(client, "magellan_find", { name: "Widget" });
      assert.equal(r.isError, false);
      assert.equal((r.structuredContent.data.matches as unknown[]).length, 1);
      const bad = await call(client, "llmsearch", { pattern: 1 });
      assert.equal(bad.isError, true);
      assert.equal((await call(client, "llmsearch", { pattern: "Widget" })).isError, false);
    } finally {
      await client.close();
    }
  });

  it("refuses a missing or wrong token, a foreign Origin and a foreign Host", async () => {
    assert.equal(await rawPost({}), 401);
    assert.equal(await rawPost({ authorization: "Bearer wrong" }), 401);
    assert.equal(await rawPost({ authorization: `Bearer ${token}`, origin: "http://evil.example" }), 403);
    assert.equal(await rawPost({ authorization: `Bearer ${token}`, host: "evil.example" }), 403);
    assert.equal(await rawPost({ authorization: `Bearer ${token}`, origin: new URL(url).origin }), 200);
    const client = new Client({ name: "no-token", version: "1.0.0" });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(url))));
  });
});
