/**
 * magellan_callers through `llmtools mcp` answers precisely by default: the server's worker
 * thread holds the TypeScript language service (test/fixtures/magellan/precise: `s.get` and
 * `c.get` are ambiguous to the index, a Store's and a Cache's to the compiler); `--no-precise`
 * gives the index's answer.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { REPO_ROOT, tempDir } from "../support/run.js";
import { call, stdioClient } from "./support.js";

interface Data {
  references: { resolution: string; span: { start_line: number } }[];
  precise?: { status: string };
  matches?: { symbol_id: string; parent?: string }[];
}

const clients: Client[] = [];
after(async () => {
  for (const c of clients) await c.close();
});

async function server(args: string[]): Promise<{ client: Client; storeGet: string }> {
  const root = tempDir("mcp-precise-");
  cpSync(join(REPO_ROOT, "test", "fixtures", "magellan", "precise"), root, { recursive: true });
  const client = await stdioClient(["--root", root, ...args]);
  clients.push(client);
  assert.equal((await call(client, "magellan_index", {})).isError, false);
  const found = (await call(client, "magellan_find", { name: "get" })).structuredContent.data as unknown as Data;
  const storeGet = found.matches?.find((m) => m.parent === "Store")?.symbol_id as string;
  assert.ok(storeGet);
  return { client, storeGet };
}

const shape = (d: Data): string[] => d.references.map((r) => `${r.span.start_line}:${r.resolution}`);

describe("llmtools mcp: precise callers", { concurrency: 2 }, () => {
  it("by default: the compiler's targets once the service is built (warming answers before that are the index's)", async () => {
    const { client, storeGet } = await server([]);
    const deadline = Date.now() + 60_000;
    let d: Data;
    for (;;) {
      const r = await call(client, "magellan_callers", { symbol_id: storeGet });
      assert.equal(r.isError, false);
      d = r.structuredContent.data as unknown as Data;
      if (d.precise?.status === "answered") break;
      assert.equal(d.precise?.status, "warming");
      assert.deepEqual(shape(d), ["5:ambiguous", "10:ambiguous"]);
      assert.ok(r.structuredContent.diagnostics?.some((x) => x.code === "MAGELLAN_E113"));
      assert.ok(Date.now() < deadline, "the service never answered");
      await new Promise((res) => setTimeout(res, 250));
    }
    assert.deepEqual(shape(d), ["5:compiler"]);
  });

  it("--no-precise: the index's answer, no precise report", async () => {
    const { client, storeGet } = await server(["--no-precise"]);
    const d = (await call(client, "magellan_callers", { symbol_id: storeGet })).structuredContent.data as unknown as Data;
    assert.deepEqual(shape(d), ["5:ambiguous", "10:ambiguous"]);
    assert.equal(d.precise, undefined);
  });
});
