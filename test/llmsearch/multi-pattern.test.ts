/**
 * `-e a -e b` searches for either, as ripgrep does; only the last -e was kept, silently. Each
 * answer's spans are compared with `rg --json` on the same files (shaped like requests).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { runTool, tempDir } from "../support/run.js";

let root = "";

before(() => {
  root = tempDir("llmsearch-multi-");
  writeFileSync(
    join(root, "sessions.py"),
    "def merge_setting(request_setting, session_setting):\n    return request_setting\n\n\ndef merge_hooks(request_hooks, session_hooks):\n    return merge_setting(request_hooks, session_hooks)\n",
  );
  writeFileSync(join(root, "utils.py"), "URL = 'a.b'\nurl = URL + '(self)'\ndef get_url(u):\n    return u  # a.b (self)\n");
});

function rgSpans(args: string[]): string[] {
  const r = spawnSync("rg", ["--no-config", "--json", ...args, "."], { cwd: root, encoding: "utf8" });
  assert.ok(!r.error, `ripgrep (rg) is required for this test: ${String(r.error)}`);
  const out: string[] = [];
  for (const line of r.stdout.split("\n").filter(Boolean)) {
    const e = JSON.parse(line) as { type: string; data: { path: { text: string }; absolute_offset: number; submatches: { start: number; end: number }[] } };
    if (e.type !== "match") continue;
    for (const s of e.data.submatches) out.push(`${e.data.path.text.replace(/^\.\//, "")}:${e.data.absolute_offset + s.start}-${e.data.absolute_offset + s.end}`);
  }
  return out.sort();
}

async function spans(args: string[]): Promise<string[]> {
  const r = await runTool("llmsearch", ["--root", root, ...args], { cwd: root });
  assert.equal(r.code, 0, r.stdout);
  return (r.json as { data: LlmsearchData }).data.matches.map((m) => `${m.span.file_path}:${m.span.byte_start}-${m.span.byte_end}`).sort();
}

test("several -e patterns match any of them, with rg's spans", async () => {
  for (const args of [
    ["-e", "def merge_setting", "-e", "def merge_hooks"],
    ["-e", "session_\\w+", "-e", "request_\\w+"],
    ["-w", "-e", "url", "-e", "URL"],
    ["-i", "-e", "URL", "-e", "hooks"],
    ["-F", "-e", "(self)", "-e", "a.b"],
  ]) {
    const want = rgSpans(args);
    assert.ok(want.length > 1, args.join(" "));
    assert.deepEqual(await spans(args), want, args.join(" "));
  }
});
