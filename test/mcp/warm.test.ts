import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { call, stdioClient, workspace } from "./support.js";

describe("llmtools mcp keeps searches warm and never answers from stale bytes", () => {
  let client: Client;
  let root: string;
  before(async () => {
    root = workspace();
    client = await stdioClient(["--root", root]);
  });
  after(async () => {
    await client.close();
  });

  it("sees an edit, a new file, a deleted file and a .gitignore change made between two calls", async () => {
    const count = async (pattern: string): Promise<number> => (await call(client, "llmsearch", { pattern, fixed_strings: true })).structuredContent.data.total_count as number;
    const classes = async (): Promise<string[]> =>
      ((await call(client, "llmastsearch", { query: "(class_declaration name: (_) @name)" })).structuredContent.data.matches as { captures: { content: string }[] }[])
        .map((m) => m.captures[0]?.content ?? "")
        .sort();
    assert.equal(await count("warmMarker"), 0);
    const before = await classes();
    for (let k = 1; k <= 3; k++) {
      writeFileSync(join(root, "src", "added.ts"), `export class WarmAdded${k} {}\n${"// warmMarker\n".repeat(k)}`);
      assert.equal(await count("warmMarker"), k, `write ${k}`);
      assert.deepEqual(await classes(), [...before, `WarmAdded${k}`].sort(), `write ${k}`);
    }
    writeFileSync(join(root, ".gitignore"), "src/added.ts\n");
    mkdirSync(join(root, ".git"));
    assert.equal(await count("warmMarker"), 0, "ignored once the root is a git work tree with that rule");
    rmSync(join(root, ".gitignore"));
    assert.equal(await count("warmMarker"), 3);
    rmSync(join(root, "src", "added.ts"));
    assert.equal(await count("warmMarker"), 0);
    assert.deepEqual(await classes(), before);
  });
});
