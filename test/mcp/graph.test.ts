/**
 * magellan's graph commands through MCP (one tool, `magellan_graph`, an `op` per algorithm), on
 * the graph fixture: a cycle across files, function cycles, a path, and a usage error as isError.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { REPO_ROOT, tempDir } from "../support/run.js";
import { call, errorCode, stdioClient } from "./support.js";

let root: string;
let client: Client;

before(async () => {
  root = tempDir("mcp-graph-");
  cpSync(join(REPO_ROOT, "test/fixtures/magellan/graph"), root, { recursive: true });
  client = await stdioClient(["--root", root]);
  const r = await call(client, "magellan_index", {});
  assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
});
after(async () => {
  await client.close();
});

describe("llmtools mcp: magellan_graph", () => {
  it("cycles at file and symbol level, a path, and what reaches a function", async () => {
    const files = await call(client, "magellan_graph", { op: "cycles" });
    assert.equal(files.isError, false, JSON.stringify(files.structuredContent));
    const fileCycles = (files.structuredContent.data as { cycles: { members: { file_path: string }[] }[] }).cycles;
    assert.deepEqual(fileCycles.map((c) => c.members.map((m) => m.file_path).sort()), [["src/a.ts", "src/b.ts"]]);
    const syms = await call(client, "magellan_graph", { op: "cycles", level: "symbol" });
    const names = (syms.structuredContent.data as { cycles: { members: { name: string }[] }[] }).cycles.map((c) => c.members.map((m) => m.name).sort().join("+"));
    assert.ok(names.includes("a+b") && names.includes("ping+pong"), names.join(" "));
    const path = await call(client, "magellan_graph", { op: "paths", symbol: "run", to: "b" });
    assert.equal(path.isError, false, JSON.stringify(path.structuredContent));
    const p = (path.structuredContent.data as { paths: { symbols: { name: string }[] }[] }).paths;
    assert.ok(p.length >= 1 && p[0]?.symbols.at(-1)?.name === "b", JSON.stringify(p));
    const back = await call(client, "magellan_graph", { op: "reachable", symbol: "a", reverse: true, max_depth: 1 });
    const reached = (back.structuredContent.data as { symbols: { name: string }[] }).symbols.map((s) => s.name);
    assert.ok(reached.includes("b"), reached.join(" "));
  });

  it("an op without what it needs is an isError result with a usage code", async () => {
    const r = await call(client, "magellan_graph", { op: "paths", symbol: "run" });
    assert.equal(r.isError, true);
    assert.equal(errorCode(r), "MAGELLAN_E000");
  });
});
