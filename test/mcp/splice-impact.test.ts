/**
 * splice and the impact graph through `llmtools mcp` (stdio, the SDK's Client, the built bin) on
 * a real TypeScript workspace: a patch is type-checked by the real checker and written, a dry
 * run and a rejected change write nothing, undo restores the bytes, and magellan_impact answers
 * docdex.impact_graph v2. callers/callees report the gaps of calls only.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { call, errorCode, stdioClient, workspace } from "./support.js";

let root: string;
let client: Client;
let original: string;

const read = (rel: string): string => readFileSync(join(root, rel), "utf8");
const result = (r: { structuredContent: Record<string, unknown> }): Record<string, unknown> & { files: { file_path: string }[]; checkers: { checker: string; status: string }[]; introduced: { message: string }[] } =>
  r.structuredContent.result as never;

before(async () => {
  root = workspace();
  original = read("src/util.ts");
  // Uses of helper and format through a receiver the graph cannot type: a call and two reads.
  writeFileSync(
    join(root, "src/gaps.ts"),
    'declare const registry: { [k: string]: { helper(x: number): number; format: unknown } };\nexport function wire(name: string): unknown {\n  const h = registry[name].helper;\n  registry[name].helper(2);\n  return [h, registry[name].format];\n}\n',
  );
  client = await stdioClient(["--root", root]);
  const r = await call(client, "magellan_index", {});
  assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
});
after(async () => {
  await client.close();
});

describe("llmtools mcp: splice and the impact graph", () => {
  it("patches a function through MCP: the TypeScript checker runs, the file changes, splice_log lists it, splice_undo restores it", async () => {
    const r = await call(client, "splice", {
      steps: [{ command: "patch", file: "src/util.ts", symbol: "helper", content: "export function helper(x: number): number {\n  return x * 3;\n}\n" }],
    });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    assert.equal(r.structuredContent.tool, "splice");
    assert.equal(r.structuredContent.status, "ok");
    const res = result(r);
    assert.equal(res.validation, "validated");
    assert.equal(res.written, true);
    assert.ok(res.checkers.some((c) => c.status === "ran"), JSON.stringify(res.checkers));
    assert.deepEqual(res.files.map((f) => f.file_path), ["src/util.ts"]);
    assert.match(read("src/util.ts"), /return x \* 3;/);
    const id = res.operation_id as string;
    assert.ok(id);

    const log = await call(client, "splice_log", {});
    assert.equal(log.isError, false);
    const ops = (log.structuredContent.result as { operations: { operation_id: string }[] }).operations;
    assert.equal(ops[0]?.operation_id, id);
    assert.match((log.content[0] as { text: string }).text, new RegExp(id));

    const u = await call(client, "splice_undo", { operation_id: id });
    assert.equal(u.isError, false, JSON.stringify(u.structuredContent));
    assert.equal(read("src/util.ts"), original);

    // The log pages result.operations by max_tokens like the other listings.
    const again = await call(client, "splice", { steps: [{ command: "edit", file: "src/other.ts", old: 'return "panel";', new: 'return "Panel";' }] });
    assert.equal(again.isError, false, JSON.stringify(again.structuredContent));
    const whole = (await call(client, "splice_log", {})).structuredContent.result as { operations: { operation_id: string }[] };
    assert.ok(whole.operations.length >= 2);
    const first = await call(client, "splice_log", { max_tokens: 200 });
    assert.equal(typeof first.structuredContent.cursor, "string");
    assert.equal((first.structuredContent.page as { list: string }).list, "result.operations");
    const seen = (first.structuredContent.result as { operations: { operation_id: string }[] }).operations.map((o) => o.operation_id);
    let cursor = first.structuredContent.cursor;
    while (cursor !== undefined) {
      const next = await call(client, "splice_log", { max_tokens: 200, cursor });
      seen.push(...(next.structuredContent.result as { operations: { operation_id: string }[] }).operations.map((o) => o.operation_id));
      cursor = next.structuredContent.cursor;
    }
    assert.deepEqual(seen, whole.operations.map((o) => o.operation_id));
    const back = await call(client, "splice_undo", {});
    assert.equal(back.isError, false, JSON.stringify(back.structuredContent));
    assert.match(read("src/other.ts"), /return "panel";/);
  });

  it("a dry run shows the diff and writes nothing", async () => {
    const r = await call(client, "splice", {
      dry_run: true,
      steps: [{ command: "edit", file: "src/util.ts", old: "return x * 2;", new: "return x + x;" }],
    });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    const res = result(r);
    assert.equal(res.written, false);
    assert.match(res.diff as string, /\+ {2}return x \+ x;/);
    assert.equal(read("src/util.ts"), original);
  });

  it("a change the checker rejects is an isError result with the diagnostic and writes nothing, not even its other steps", async () => {
    const before = read("src/other.ts");
    const r = await call(client, "splice", {
      steps: [
        { command: "edit", file: "src/other.ts", old: 'return "panel";', new: 'return "board";' },
        { command: "patch", file: "src/util.ts", symbol: "helper", content: 'export function helper(x: number): number {\n  return "x" + x;\n}\n' },
      ],
    });
    assert.equal(r.isError, true);
    const err = r.structuredContent.error as { code: string; message: string; remediation?: string };
    assert.equal(err.code, "SPLICE_E110");
    assert.ok(err.remediation);
    assert.ok(result(r).introduced.some((d) => /not assignable to type 'number'/.test(d.message)), JSON.stringify(result(r).introduced));
    assert.match((r.content[0] as { text: string }).text, /SPLICE_E110/);
    assert.equal(read("src/util.ts"), original);
    assert.equal(read("src/other.ts"), before);
  });

  it("a stale expected checksum refuses the whole change; the file's real checksum lets it through", async () => {
    const step = { command: "edit", file: "src/util.ts", old: "return x * 2;", new: "return 2 * x;" };
    const stale = await call(client, "splice", { dry_run: true, expected_checksum: [`src/util.ts=sha256:${"0".repeat(64)}`], steps: [step] });
    assert.equal(stale.isError, true);
    assert.equal(errorCode(stale), "SPLICE_E109");
    const sum = createHash("sha256").update(readFileSync(join(root, "src/util.ts"))).digest("hex");
    const fresh = await call(client, "splice", { dry_run: true, expected_checksum: [`src/util.ts=sha256:${sum}`], steps: [step] });
    assert.equal(fresh.isError, false, JSON.stringify(fresh.structuredContent));
    assert.equal(read("src/util.ts"), original);
  });

  it("refuses paths outside the root for splice and impact", async () => {
    const s = await call(client, "splice", { steps: [{ command: "edit", file: "../outside.ts", old: "a", new: "b" }] });
    assert.equal(s.isError, true);
    assert.equal(errorCode(s), "SPLICE_E001");
    assert.equal(existsSync(join(root, "..", "outside.ts")), false);
    const i = await call(client, "magellan_impact", { file: "../../etc/passwd" });
    assert.equal(i.isError, true);
    assert.match(errorCode(i) ?? "", /_E001$/);
  });

  it("answers docdex.impact_graph v2 for a file, and the impact diagnostics as a listing", async () => {
    const r = await call(client, "magellan_impact", { file: "src/app.ts", direction: "out" });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    const d = r.structuredContent.data as { schema: { name: string; version: number }; source: string; outbound: string[]; edges: { source: string; target: string }[] };
    assert.deepEqual([d.schema.name, d.schema.version], ["docdex.impact_graph", 2]);
    assert.equal(d.source, "src/app.ts");
    assert.deepEqual([...d.outbound].sort(), ["src/other.ts", "src/util.ts"]);
    assert.ok(d.edges.every((e) => e.source === "src/app.ts"));
    const back = await call(client, "magellan_impact", { file: "src/util.ts", direction: "in" });
    assert.ok((back.structuredContent.data as { inbound: string[] }).inbound.includes("src/app.ts"));

    const diag = await call(client, "magellan_impact_diagnostics", {});
    assert.equal(diag.isError, false, JSON.stringify(diag.structuredContent));
    assert.equal((diag.structuredContent.data as { schema: { name: string } }).schema.name, "docdex.impact_diagnostics");
    assert.equal((diag.structuredContent.page as { list: string }).list, "data.diagnostics");
  });

  it("callers and callees ask refs for call edges only, so the gap report counts unresolved calls, not reads", async () => {
    const c = await call(client, "magellan_callers", { name: "helper" });
    assert.equal(c.isError, false);
    const data = c.structuredContent.data as { reference_kinds: string[]; references: { reference_kind: string }[]; unresolved: { count: number; samples: { reference_kind: string }[] }; coverage: { unresolved: number } };
    assert.deepEqual(data.reference_kinds, ["call"]);
    assert.ok(data.references.length > 0 && data.references.every((r) => r.reference_kind === "call"));
    // gaps.ts reads registry[name].helper once and calls it once: only the call is a gap here.
    assert.equal(data.unresolved.count, 1, JSON.stringify(data.unresolved));
    assert.deepEqual(data.unresolved.samples.map((s) => s.reference_kind), ["call"]);
    assert.equal(data.coverage.unresolved, 1);
    // format is only read through the unknown receiver, never called: no call gap at all.
    const f = await call(client, "magellan_callers", { name: "format" });
    assert.equal((f.structuredContent.data as { coverage: { unresolved: number } }).coverage.unresolved, 0, JSON.stringify(f.structuredContent.data));
    const out = await call(client, "magellan_callees", { name: "main" });
    assert.ok((out.structuredContent.data.references as { reference_kind: string }[]).every((r) => r.reference_kind === "call"));
  });
});
