/**
 * One file beyond what extraction may cost must never take the run (and its envelope) down: it is
 * skipped with a reason, and every other file is indexed. Budgets and the worker heap are set
 * small through the environment so that a generated file of a few hundred KB stands for the
 * 50 MB ones of real life.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runTool, tempDir } from "../support/run.js";
import type { Envelope } from "./support.js";

interface IndexData {
  files_indexed: number;
  files_skipped: number;
  skipped: { path: string; reason: string; detail: string }[];
  files: number;
}

/** Generated code: `n` calls, each a reference row and a few dozen syntax nodes. */
function generated(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`callee${i % 997}(value${i}, { key${i}: [${i}, ${i + 1}, "s${i}"] });`);
  return lines.join("\n") + "\n";
}

/** `a.js`, `b.js`, the generated files, then `z0.js`… so the culprit sits inside a chunk with files after it. */
function tree(big: Record<string, string>, small = 40): string {
  const root = tempDir("mg-memory-");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "a.js"), "export function alpha(x) { return beta(x) + 1; }\n");
  writeFileSync(join(root, "src", "b.js"), "export function beta(x) { return x * 2; }\n");
  for (const [name, text] of Object.entries(big)) writeFileSync(join(root, "src", name), text);
  for (let i = 0; i < small; i++) writeFileSync(join(root, "src", `z${i}.js`), `export function zeta${i}(y) { return alpha(y) + ${i}; }\n`);
  return root;
}

async function index(root: string, env: Record<string, string>): Promise<{ code: number; data: IndexData; env: Envelope }> {
  const r = await runTool("magellan", ["index", "--root", root, "--threads", "2"], { cwd: root, env, timeoutMs: 120_000 });
  const e = r.json as Envelope;
  return { code: r.code, data: e.data as unknown as IndexData, env: e };
}

async function findsName(root: string, name: string): Promise<boolean> {
  const r = await runTool("magellan", ["find", "--name", name, "--root", root], { cwd: root, raw: true });
  const e = r.json as Envelope | undefined;
  return (e?.data.matches?.length ?? 0) > 0;
}

describe("magellan index: a file beyond the memory budget", () => {
  it("a worker that runs out of its heap costs only the file it held", async () => {
    const root = tree({ "gen.js": generated(40_000) });
    const { code, data, env } = await index(root, { MAGELLAN_WORKER_HEAP_MB: "24" });
    assert.ok(code === 0 || code === 4, `exit ${code}`);
    const skip = data.skipped.find((s) => s.path === "src/gen.js");
    assert.ok(skip, JSON.stringify(data.skipped));
    assert.equal(skip.reason, "out_of_memory");
    assert.match(skip.detail, /24 MB heap/);
    assert.equal(data.files_skipped, 1, JSON.stringify(data.skipped));
    assert.equal(data.files_indexed, 42);
    assert.equal(data.files, 42);
    assert.ok(env.diagnostics?.some((d) => d.file === "src/gen.js" && d.level === "warning" && (d.remediation ?? "").includes("MAGELLAN_WORKER_HEAP_MB")));
    // Files extracted after the culprit in its own chunk went to a fresh worker.
    assert.ok(await findsName(root, "zeta0"));
    assert.ok(await findsName(root, "zeta39"));
    assert.ok(await findsName(root, "beta"));
  });

  it("a file over the parse budget (bytes, or syntax nodes) is skipped as too_large_to_index, alone", async () => {
    const root = tree({ "gen-bytes.js": generated(6_000), "gen-nodes.js": generated(600) }, 4);
    const { code, data } = await index(root, { MAGELLAN_MAX_PARSE_BYTES: "200000", MAGELLAN_MAX_PARSE_NODES: "5000" });
    assert.ok(code === 0 || code === 4, `exit ${code}`);
    const byPath = new Map(data.skipped.map((s) => [s.path, s]));
    assert.equal(byPath.get("src/gen-bytes.js")?.reason, "too_large_to_index");
    assert.match(byPath.get("src/gen-bytes.js")?.detail ?? "", /bytes > the per-file parse budget of 200000/);
    assert.equal(byPath.get("src/gen-nodes.js")?.reason, "too_large_to_index");
    assert.match(byPath.get("src/gen-nodes.js")?.detail ?? "", /syntax nodes > the per-file budget of 5000/);
    assert.equal(data.files_skipped, 2);
    assert.equal(data.files_indexed, 6);
    assert.ok(await findsName(root, "zeta3"));
  });

  it("definitions nested over 256 deep make their file too_large_to_index, on the main thread of a small run too; 200 deep is indexed", async () => {
    // Each symbol carries its whole scope: 20,000 nested functions exhausted a 4 GB heap.
    const nested = (prefix: string, n: number): string => Array.from({ length: n }, (_, i) => `function ${prefix}${i}() {\n`).join("") + "}\n".repeat(n);
    const root = tree({ "deep.ts": nested("deep", 300), "ok.ts": nested("ok", 200) }, 2);
    const { code, data } = await index(root, {});
    assert.ok(code === 0 || code === 4, `exit ${code}`);
    assert.deepEqual(
      data.skipped.map((s) => [s.path, s.reason]),
      [["src/deep.ts", "too_large_to_index"]],
    );
    assert.match(data.skipped[0]?.detail ?? "", /definitions nested more than 256 deep/);
    assert.ok(await findsName(root, "ok199"));
    assert.equal(await findsName(root, "deep0"), false);
  });

  it("a file of more tokens than the parse budget is skipped before it is parsed; one of as many bytes but fewer tokens is indexed", async () => {
    // 20,000 numbers and their commas: 40,000 tokens in ~100 KB (a list of numbers cost tree-sitter
    // ~210 bytes a token). The same bytes as names in a comment are a few thousand tokens.
    const numbers = `export const TABLE = [${Array.from({ length: 20_000 }, (_, i) => String(i % 97)).join(",")}];\n`;
    const words = `/* ${Array.from({ length: 20_000 }, (_, i) => `w${i % 97}`).join(" ").replace(/(.{2000})/g, "$1\n")} */\nexport function wordy() { return 1; }\n`;
    assert.ok(words.length > numbers.length);
    const root = tree({ "table.js": numbers, "wordy.js": words }, 4);
    const { code, data } = await index(root, { MAGELLAN_MAX_PARSE_TOKENS: "30000" });
    assert.ok(code === 0 || code === 4, `exit ${code}`);
    const byPath = new Map(data.skipped.map((s) => [s.path, s]));
    assert.equal(byPath.get("src/table.js")?.reason, "too_large_to_index", JSON.stringify(data.skipped));
    assert.match(byPath.get("src/table.js")?.detail ?? "", /^over 30000 tokens \(\d+ bytes\)/);
    assert.equal(data.files_skipped, 1, JSON.stringify(data.skipped));
    assert.ok(await findsName(root, "wordy"));
    assert.equal(await findsName(root, "TABLE"), false);
  });

  it("a parse that does not end in its time budget is stopped and its file skipped as too_large_to_index, alone", async () => {
    // tree-sitter's error recovery is quadratic on generic call signatures it cannot read: these
    // 8,000 (170 KB) take it ~16 s here (4,000 took 4.1 s), far past a budget of half a second.
    const signatures = `export interface Overloads {\n${"  a: B\n  <K>(k: K): K\n".repeat(8000)}}\n`;
    const root = tree({ "overloads.ts": signatures }, 4);
    const started = Date.now();
    const { code, data, env } = await index(root, { MAGELLAN_MAX_PARSE_SECONDS: "0.5" });
    assert.ok(code === 0 || code === 4, `exit ${code}`);
    assert.ok(Date.now() - started < 15_000, "the parse was not stopped");
    assert.deepEqual(data.skipped.map((s) => [s.path, s.reason]), [["src/overloads.ts", "too_large_to_index"]]);
    assert.match(data.skipped[0]?.detail ?? "", /^tree-sitter took more than 0\.5 s to parse it \(MAGELLAN_MAX_PARSE_SECONDS\)/);
    assert.ok(env.diagnostics?.some((d) => d.file === "src/overloads.ts" && (d.remediation ?? "").includes("MAGELLAN_MAX_PARSE_SECONDS")));
    // The parser is reset after the stop: every other file of the run (and of its worker) is indexed.
    assert.equal(data.files_indexed, 6);
    assert.ok(await findsName(root, "zeta3"));
  });
});
