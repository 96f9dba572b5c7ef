/**
 * llmtransform on real files from node_modules: many edits computed the way an agent would (from
 * byte offsets found in the file), checked against an independent string rewrite and against a
 * real consumer of the result (node --check, JSON.parse).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { checksum } from "../../src/text/checksum.js";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

function offsetsOf(haystack: Buffer, needle: string): number[] {
  const n = Buffer.from(needle);
  const out: number[] = [];
  for (let i = haystack.indexOf(n); i !== -1; i = haystack.indexOf(n, i + n.length)) out.push(i);
  return out;
}

interface Result {
  status: string;
  result: { applied_count: number; final_checksum: string; edits: { new_span: { byte_start: number; byte_end: number } }[] };
}

describe("llmtransform on real code", () => {
  test("renames every `_name` in commander's command.js; the result equals a string rewrite and still parses", async () => {
    const dir = tempDir("llmtransform-real-");
    const file = join(dir, "command.js");
    copyFileSync(join(REPO_ROOT, "node_modules/commander/lib/command.js"), file);
    const original = readFileSync(file);
    const at = offsetsOf(original, "._name");
    assert.ok(at.length >= 10, `expected many ._name in command.js, found ${at.length}`);
    const edits = at.map((o) => ({ byte_start: o + 1, byte_end: o + 6, new_content: "_label" }));
    const r = await runTool("llmtransform", ["--root", dir, "--file", "command.js", "--expected-checksum", checksum(original), "--edits", "-"], {
      cwd: dir,
      input: JSON.stringify(edits),
    });
    assert.equal(r.code, 0, r.stdout);
    const final = readFileSync(file);
    assert.equal(final.toString("utf8"), original.toString("utf8").split("._name").join("._label"));
    const env = r.json as Result;
    assert.equal(env.result.applied_count, at.length);
    assert.equal(env.result.final_checksum, checksum(final));
    for (const e of env.result.edits) assert.equal(final.subarray(e.new_span.byte_start, e.new_span.byte_end).toString(), "_label");
    const check = spawnSync(process.execPath, ["--check", file], { encoding: "utf8" });
    assert.equal(check.status, 0, check.stderr);
  });

  test("replaces 1,900 Chinese full stops in TypeScript's zh-cn messages, half of them addressed by line/col", async () => {
    const dir = tempDir("llmtransform-real-");
    const file = join(dir, "messages.json");
    copyFileSync(join(REPO_ROOT, "node_modules/typescript/lib/zh-cn/diagnosticMessages.generated.json"), file);
    const original = readFileSync(file);
    const stop = "\u3002";
    const at = offsetsOf(original, stop);
    assert.ok(at.length > 1000, `found ${at.length}`);
    const lineStarts = [0, ...offsetsOf(original, "\n").map((o) => o + 1)];
    const position = (o: number): { line: number; col: number } => {
      let line = 0;
      while (line + 1 < lineStarts.length && (lineStarts[line + 1] as number) <= o) line++;
      return { line: line + 1, col: o - (lineStarts[line] as number) };
    };
    const edits = at.map((o, i) => {
      if (i % 2 === 0) return { byte_start: o, byte_end: o + 3, new_content: "." };
      const p = position(o);
      return { line_start: p.line, col_start: p.col, line_end: p.line, col_end: p.col + 3, replacement: "." };
    });
    const r = await runTool("llmtransform", ["--root", dir], {
      cwd: dir,
      input: JSON.stringify({ file: "messages.json", expected_checksum: checksum(original), edits }),
    });
    assert.equal(r.code, 0, r.stdout);
    const final = readFileSync(file, "utf8");
    assert.equal(final, original.toString("utf8").split(stop).join("."));
    const parsed = JSON.parse(final) as Record<string, string>;
    assert.equal(Object.keys(parsed).length, Object.keys(JSON.parse(original.toString("utf8")) as object).length);
  });
});
