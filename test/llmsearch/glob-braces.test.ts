/**
 * `--glob` takes ripgrep's `{a,b}` alternation (`-g '*.{c,h}'`): gitignore rules have none, so the
 * glob matched no file and the search answered "no files to search". llmsearch and llmastsearch
 * share the walk; each list is compared with `rg --files` on the same tree (shaped like cJSON).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { before, test } from "node:test";
import { LlmsearchFileListResponseSchema } from "../../src/contract/tools/llmsearch.js";
import { expandBraces } from "../../src/text/walk.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";

before(() => {
  root = tempDir("llmsearch-braces-");
  writeTree(root, {
    "cJSON.c": "void *p = malloc(1);\n",
    "cJSON.h": "void *malloc(unsigned long);\n",
    "cJSON_Utils.c": "/* malloc */\n",
    "test.c": "int main(void) { return malloc(2) == 0; }\n",
    "tests/parse_examples.c": "char *s = malloc(3);\n",
    "fuzzing/afl.c": "char *b = malloc(4);\n",
    "README.md": "malloc is wrapped by cJSON_InitHooks\n",
    "docs/{braces}.txt": "malloc\n",
  });
});

function rgFiles(args: string[]): string[] {
  const r = spawnSync("rg", ["--no-config", "--files", ...args], { cwd: root, encoding: "utf8" });
  assert.ok(!r.error, `ripgrep (rg) is required for this test: ${String(r.error)}`);
  return r.stdout.split("\n").filter(Boolean).sort();
}

// (Empty alternatives and escaped braces are left out: ripgrep 13 matches nothing with them.)
const GLOBS = [["*.{c,h}"], ["!**/{tests,fuzzing}/**"], ["{cJSON,test}.c"], ["cJSON{_Utils.c,.h}"], ["*.c", "!{test,cJSON}.c"], ["{docs,tests}/*"]];

test("llmsearch --files with brace globs lists what rg --files lists", async () => {
  for (const globs of GLOBS) {
    const args = globs.flatMap((g) => ["-g", g]);
    const r = await runTool("llmsearch", ["--root", root, "--files", ...args], { cwd: root, schema: LlmsearchFileListResponseSchema });
    assert.equal(r.code, 0, r.stdout);
    const got = [...(r.json as { data: { files: string[] } }).data.files].sort();
    const want = rgFiles(args);
    assert.ok(want.length > 0, globs.join(" "));
    assert.deepEqual(got, want, globs.join(" "));
  }
});

test("llmastsearch -g with a brace glob searches the same files", async () => {
  const r = await runTool("llmastsearch", ["--root", root, "-g", "*.{c,h}", "-q", "((identifier) @i (#eq? @i \"malloc\"))"], { cwd: root });
  assert.equal(r.code, 0, r.stdout);
  const files = [...new Set((r.json as { data: { matches: { span: { file_path: string } }[] } }).data.matches.map((m) => m.span.file_path))].sort();
  assert.deepEqual(files, ["cJSON.c", "cJSON.h", "fuzzing/afl.c", "test.c", "tests/parse_examples.c"]);
});

test("brace expansion: alternatives in order, nested groups, literal braces", () => {
  assert.deepEqual(expandBraces("!src/{a,b{1,2}}/*.{ts,tsx}"), ["!src/a/*.ts", "!src/a/*.tsx", "!src/b1/*.ts", "!src/b1/*.tsx", "!src/b2/*.ts", "!src/b2/*.tsx"]);
  assert.deepEqual(expandBraces("[{]x,y}"), ["[{]x,y}"]);
  assert.deepEqual(expandBraces("a\\{b,c}"), ["a\\{b,c}"]);
  assert.deepEqual(expandBraces("a{b"), ["a{b"]);
});
