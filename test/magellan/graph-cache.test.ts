/**
 * A long-lived process (daemon, MCP server) keeps the symbol graph between graph queries; an
 * index run by anyone in between must be seen at the next query, never the graph as it was.
 */
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { reachable } from "../../src/tools/magellan/graph.js";
import { indexed, mg } from "./support.js";

test("reachable in one process: a caller added and indexed by another process is in the next answer", async () => {
  const root = await indexed("graph");
  const callersOfA = (): string[] =>
    ((reachable({ root, symbol: "a", reverse: true, maxDepth: 1, edges: "call" }).data.symbols as { name: string }[]) ?? []).map((s) => s.name).sort();
  const before = callersOfA();
  assert.ok(before.includes("b"), before.join(" "));
  assert.deepEqual(callersOfA(), before, "the same answer from the kept graph");
  appendFileSync(join(root, "src", "a.ts"), "\nexport function newcomer(): number {\n  return a(3);\n}\n");
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stdout);
  const after = callersOfA();
  assert.deepEqual(after, [...before, "newcomer"].sort());
});
