/**
 * -x/--line-regexp and -s/--case-sensitive as ripgrep has them, and ripgrep's rule that the last
 * of -i/-S/-s (and of -w/-x) given decides; each answer compared with rg's on the same files.
 */
import assert from "node:assert/strict";
import { before, test } from "node:test";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { rgJson } from "../support/rg.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";

before(() => {
  root = tempDir("llmsearch-linecase-");
  writeTree(root, {
    "a.txt": "foo\nfoo bar\n foo\nFoo\nfoobar\nfoo|bar\nbar\n\nFOO\n",
    // CRLF lines: a whole line is the text before the \r\n (as rg --crlf).
    "c.txt": "foo\r\nbar \r\n\r\nfoo",
    // A BOM is not text: the first line starts after it.
    "b.txt": "\ufefffoo\nx\n",
  });
});

async function spans(args: string[]): Promise<string[]> {
  const r = await runTool("llmsearch", ["--root", root, ...args], { cwd: root });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stdout}`);
  return (r.json as { data: LlmsearchData }).data.matches.map((m) => `${m.span.file_path}:${m.span.byte_start}:${m.span.byte_end}`).sort();
}

/** rg's spans; a BOM's 3 bytes, which rg strips, added back (llmsearch's offsets are into the file as stored). */
function theirs(args: string[]): string[] {
  return [...rgJson(root, ["--crlf", ...args, "."]).spans]
    .map((k) => (k.startsWith("b.txt:") ? k.replace(/:(\d+):(\d+)$/, (_, s: string, e: string) => `:${Number(s) + 3}:${Number(e) + 3}`) : k))
    .sort();
}

test("-x keeps only matches that are whole lines, as rg -x (--crlf)", async () => {
  for (const args of [
    ["-x", "foo"],
    ["-x", "foo|bar"],
    ["-x", "-F", "foo|bar"],
    ["-x", "-i", "foo"],
    ["--line-regexp", "o*"],
    ["-x", ".*"],
    ["-x", "bar\\s*"],
    ["-x", "-e", "foo", "-e", "bar"],
    ["-x", "-U", "foo\\nfoo.*"],
    ["-x", ""],
  ]) {
    const want = theirs(args);
    assert.deepEqual(await spans(args), want, args.join(" "));
  }
  // Without -x the same patterns match more: the comparison tested -x.
  assert.ok((await spans(["foo"])).length > (await spans(["-x", "foo"])).length);
});

test("the last of -i, -S and -s decides, and the last of -w and -x, as in rg", async () => {
  const orders = [
    ["-i", "-s"],
    ["-s", "-i"],
    ["-is"],
    ["-si"],
    ["-i", "-S"],
    ["-S", "-i"],
    ["-s", "-S"],
    ["-S", "-s"],
    ["--ignore-case", "--case-sensitive"],
    ["-w", "-x"],
    ["-x", "-w"],
    ["-x", "--word-regexp"],
    ["-i", "-x", "-s", "-w"],
  ];
  for (const flags of orders) {
    for (const pattern of ["FOO", "foo"]) {
      const args = [...flags, pattern];
      assert.deepEqual(await spans(args), theirs(args), args.join(" "));
    }
  }
});

test("word and line_regexp together in a request (which has no flag order) are refused with a stable code", async () => {
  const { search } = await import("../../src/tools/llmsearch/search.js");
  await assert.rejects(search({ pattern: "foo", root, word: true, lineRegexp: true }), (e: { code?: string; exitCode?: number; remediation?: string }) => {
    assert.equal(e.code, "LLMSEARCH_E110");
    assert.equal(e.exitCode, 2);
    assert.ok(e.remediation);
    return true;
  });
});
