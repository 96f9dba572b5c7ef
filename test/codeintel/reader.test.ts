import assert from "node:assert/strict";
import { test } from "node:test";
import { ToolError } from "../../src/contract/errors.js";
import { readPayload, schemaMeta } from "../../src/tools/codeintel/meta.js";
import { REPO_ROOT, runTool } from "../support/run.js";

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ToolError, String(e));
    return e.code;
  }
  assert.fail("expected a rejection");
}

test("the reader accepts what magellan wrote, as JSON text and as a value", async () => {
  const r = await runTool("magellan", ["symbols", "--file", "src/text/span.ts", "--root", REPO_ROOT]);
  const data = (r.json as { data: unknown }).data;
  const read = readPayload("symbols", JSON.stringify(data));
  assert.deepEqual(read, data);
  const ast = (await runTool("magellan", ["ast", "--file", "src/text/span.ts", "--root", REPO_ROOT, "--max-nodes", "20"])).json as { data: unknown };
  assert.deepEqual(readPayload("ast", ast.data), ast.data);
});

test("the reader rejects another family's name and versions outside `compatible`", () => {
  const base = { schema: schemaMeta("ast"), repo_id: "a".repeat(64), file: "x.rs", nodes: [], total_nodes: 0, truncated: false };
  assert.equal(codeOf(() => readPayload("symbols", base)), "MAGELLAN_E191");
  assert.equal(codeOf(() => readPayload("ast", { ...base, schema: { name: "docdex.ast", version: 2, compatible: { min: 2, max: 3 } } })), "MAGELLAN_E192");
  assert.equal(codeOf(() => readPayload("ast", { ...base, schema: { name: "docdex.ast", version: 0, compatible: { min: 0, max: 0 } } })), "MAGELLAN_E192");
  assert.equal(codeOf(() => readPayload("ast", { ...base, schema: { name: "docdex.ast" } })), "MAGELLAN_E190");
  assert.equal(codeOf(() => readPayload("ast", "{not json")), "MAGELLAN_E190");
  assert.equal(codeOf(() => readPayload("ast", { ...base, nodes: "no" })), "MAGELLAN_E190");
});

test("a newer payload whose range includes this version is read; a legacy one without schema is migrated", () => {
  const body = { repo_id: "b".repeat(64), file: "x.py", symbols: [] };
  const newer = readPayload("symbols", { ...body, schema: { name: "docdex.symbols", version: 2, compatible: { min: 1, max: 2 } } });
  assert.deepEqual(newer.schema, schemaMeta("symbols"));
  const legacy = readPayload("symbols", body);
  assert.deepEqual(legacy.schema, schemaMeta("symbols"));
  assert.equal(legacy.file, "x.py");
  const q = readPayload("ast_query", {
    schema: schemaMeta("ast_query"),
    repoId: "c".repeat(64),
    kinds: ["function_item"],
    mode: "any",
    limit: 50,
    sampleLimit: 25,
    truncated: false,
    matches: [],
  });
  assert.equal(q.mode, "any");
});
