import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, tempDir } from "../support/run.js";

const CHILD = fileURLToPath(new URL("./fuzz-child.js", import.meta.url));

test("no query text crashes the process: 10,000 random and mutated real queries compile or fail with a ToolError", () => {
  const r = spawnSync(process.execPath, [CHILD], {
    env: { ...process.env, LLMAST_FUZZ_CHILD: "1", LLMAST_FUZZ_CASES: "10000", LLMAST_FUZZ_SEED: "20261125" },
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const lines = r.stdout.trim().split("\n");
  const last = lines[lines.length - 1] ?? "";
  assert.equal(r.signal, null, `the child died of ${r.signal} on ${last}`);
  assert.equal(r.status, 0, `the child failed (${r.status}) on ${last}\n${r.stderr}`);
  const done = (JSON.parse(last) as { done: { cases: number; compiled: number; refused: number; corpus: number } }).done;
  assert.equal(done.cases, 10000);
  assert.ok(done.corpus > 100, `the real query files give the mutations their material (${done.corpus} patterns)`);
  // Both outcomes are exercised, so the fuzz reaches past the first syntax check.
  assert.ok(done.compiled > 500 && done.refused > 500, JSON.stringify(done));
});

test("queries that crashed or hung tree-sitter's compiler are located E100 errors: fault at byte 0, predicate as a field or quantified, '+' over an optional pattern", async () => {
  const root = tempDir("llmastsearch-fuzz-");
  writeFileSync(join(root, "x.ts"), "const a = 1;\n");
  const crashers: [string, number][] = [
    // SIGSEGV: the binding took a fault at offset 0 for success.
    ...['"abc', '"', '"a\\', "foo", ")", "]", "@x", "#eq?", "."].map((q): [string, number] => [q, 0]),
    // SIGABRT: tree-sitter asserts when a field's value or a captured group holds only predicates.
    ["(identifier name: (#set! x))", 18],
    ["((#set! x)) @c", 0],
    ["(program ((#set! x))? @c)", 9],
    // An endless loop in the compiler: '+' over a pattern that can match nothing.
    ["(identifier)*+ @c", 13],
    ["((identifier)?)+ @c", 15],
    // SIGSEGV: the native parser recurses once per level on the C stack.
    [`${"(".repeat(50_000)}identifier${")".repeat(50_000)} @c`, 257],
  ];
  for (const [q, at] of crashers) {
    const r = await runTool("llmastsearch", ["--root", root, "-q", q, "-l", "typescript", "x.ts"]);
    assert.equal(r.code, 1, `query ${JSON.stringify(q.slice(0, 40))}: ${r.stdout}${r.stderr}`);
    const env = r.json as { data: { code: string; span: { byte_start: number }; remediation: string } };
    assert.match(env.data.code, /^LLMASTSEARCH_E10[0-5]$/, q);
    assert.equal(env.data.span.byte_start, at, `the fault is located: ${q.slice(0, 40)}`);
    assert.ok(env.data.remediation.length > 0);
  }
});
