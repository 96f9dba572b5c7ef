/**
 * ripgrep's language: PATTERN [PATH...], -t/-T, -S, -l, --files, and a sha256 checksum per
 * matched file, each compared with what rg itself answers on the same tree.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import {
  LlmsearchFileListResponseSchema,
  LlmsearchFilesWithMatchesResponseSchema,
  type LlmsearchData,
  type LlmsearchFileListData,
  type LlmsearchFilesWithMatchesData,
} from "../../src/contract/tools/llmsearch.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";

before(() => {
  root = tempDir("llmsearch-flags-");
  writeTree(root, {
    "src/main.rs": "fn main() {\n    let config = Config::load();\n}\n",
    "src/lib.rs": "pub struct Config;\n// TODO: config docs\n",
    "web/app.ts": "export const config = { todo: true };\n// TODO tidy\n",
    "web/view.tsx": "const Config = () => null; // todo\n",
    "README.md": "# Config\nTODO: write\n",
    "notes.txt": "config config\n",
  });
});

function rg(args: string[]): string[] {
  const r = spawnSync("rg", ["--no-config", ...args], { cwd: root, encoding: "utf8" });
  assert.ok(!r.error, `ripgrep (rg) is required for this test: ${String(r.error)}`);
  return r.stdout
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => l.replace(/^\.\//, ""))
    .sort();
}

async function files(args: string[]): Promise<string[]> {
  const r = await runTool("llmsearch", ["--root", root, ...args], { cwd: root, schema: LlmsearchFileListResponseSchema });
  assert.equal(r.code, 0, r.stdout);
  return [...(r.json as { data: LlmsearchFileListData }).data.files].sort();
}

async function withMatches(args: string[]): Promise<LlmsearchFilesWithMatchesData> {
  const r = await runTool("llmsearch", ["--root", root, "-l", ...args], { cwd: root, schema: LlmsearchFilesWithMatchesResponseSchema });
  assert.equal(r.code, 0, r.stdout);
  return (r.json as { data: LlmsearchFilesWithMatchesData }).data;
}

test("--files with -t/-T/-g lists what rg --files lists", async () => {
  // --max-filesize 40 leaves out the bigger half of the files, as a search would skip them.
  for (const args of [[], ["-t", "rust"], ["-t", "ts"], ["-T", "rust"], ["-t", "rust", "-t", "md"], ["-g", "*.txt"], ["src"], ["--max-filesize", "40"]]) {
    assert.deepEqual(await files(["--files", ...args]), rg(["--files", ...args]), args.join(" "));
  }
});

test("-l lists the files rg -l lists, each with its match count and sha256 checksum", async () => {
  for (const args of [["config"], ["-i", "todo"], ["-S", "todo"], ["-S", "Config"], ["-w", "config", "-t", "rust"], ["-F", "Config::load()"]]) {
    const data = await withMatches(args);
    // rg reads stdin (a pipe here) when given no path: name the directory.
    assert.deepEqual(data.files.map((f) => f.file_path).sort(), rg(["-l", ...args, "."]), args.join(" "));
    for (const f of data.files) {
      assert.equal(f.checksum, `sha256:${createHash("sha256").update(readFileSync(join(root, f.file_path))).digest("hex")}`);
      assert.ok(f.count > 0);
    }
  }
});

test("PATTERN [PATH...] positionally, as rg takes them; every match carries its file's checksum", async () => {
  const r = await runTool("llmsearch", ["--root", root, "TODO", "src", "web"], { cwd: root });
  assert.equal(r.code, 0, r.stdout);
  const data = (r.json as { data: LlmsearchData }).data;
  assert.deepEqual([...new Set(data.matches.map((m) => m.span.file_path))].sort(), rg(["-l", "TODO", "src", "web"]));
  for (const m of data.matches) {
    assert.equal(m.file_checksum, `sha256:${createHash("sha256").update(readFileSync(join(root, m.span.file_path))).digest("hex")}`);
  }
  // -S: lowercase is caseless, an uppercase letter makes it exact (as rg -S).
  const count = async (args: string[]): Promise<number> => ((await runTool("llmsearch", ["--root", root, ...args], { cwd: root })).json as { data: LlmsearchData }).data.total_count;
  assert.equal(await count(["-S", "todo"]), rg(["-S", "-o", "todo", "."]).length);
  assert.equal(await count(["-S", "Todo"]), 0);
  const bad = await runTool("llmsearch", ["--root", root, "x", "-t", "cobol"], { cwd: root });
  assert.equal(bad.code, 2);
  assert.equal((bad.json as { data: { code: string } }).data.code, "LLMSEARCH_E109");
});
