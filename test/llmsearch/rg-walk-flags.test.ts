/**
 * --max-depth, --iglob, -a/--text and ripgrep's refusal of globs it cannot parse, each compared
 * with rg 13 on the same tree: --files lists, search answers, exit codes.
 */
import assert from "node:assert/strict";
import { before, test } from "node:test";
import type { LlmsearchData, LlmsearchFileListData } from "../../src/contract/tools/llmsearch.js";
import { rgJson, rgPaths, rgRun } from "../support/rg.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";

before(() => {
  root = tempDir("llmsearch-walkflags-");
  writeTree(root, {
    "A.TXT": "foo\n",
    "b.txt": "foo\n",
    "Notes.Md": "foo\n",
    "d/c.txt": "foo\n",
    "d/C.md": "foo\n",
    "d/e/g.txt": "foo\n",
    "d/e/f/h.txt": "foo\n",
    "{x": "foo\n",
    // NUL bytes: in the first block (binary at once) and after a first line.
    "bin.dat": "foo\0bar\nfoo\n",
    "bins/z.bin": "x\nfoo\0\nfoo foo\n",
  });
});

async function files(args: string[]): Promise<string[]> {
  const r = await runTool("llmsearch", ["--root", root, "--files", ...args], { cwd: root });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stdout}`);
  return [...(r.json as { data: LlmsearchFileListData }).data.files].sort();
}

async function searched(args: string[]): Promise<{ spans: string[]; data: LlmsearchData }> {
  const r = await runTool("llmsearch", ["--root", root, ...args], { cwd: root });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stdout}`);
  const data = (r.json as { data: LlmsearchData }).data;
  return { spans: data.matches.map((m) => `${m.span.file_path}:${m.span.byte_start}:${m.span.byte_end}`).sort(), data };
}

test("--max-depth limits the walk below each path as rg --max-depth, in --files and in a search", async () => {
  for (const depth of ["0", "1", "2", "3"]) {
    for (const paths of [[], ["d"], ["b.txt", "d"], ["d/e"]]) {
      const args = ["--max-depth", depth, ...paths];
      // rg reads stdin (a pipe here) when given no path: name the directory.
      assert.deepEqual(await files(args), rgPaths(root, ["--files", ...args, ...(paths.length ? [] : ["."])]), args.join(" "));
      const got = await searched(["-a", "foo", ...args]);
      assert.deepEqual(got.spans, [...rgJson(root, ["-a", "foo", ...args, ...(paths.length ? [] : ["."])]).spans].sort(), `search ${args.join(" ")}`);
    }
  }
  assert.ok((await files(["--max-depth", "1"])).length < (await files([])).length);
});

test("--iglob matches ignoring case and, as in rg 13, wins over every -g whatever the order", async () => {
  for (const args of [
    ["--iglob", "*.txt"],
    ["--iglob", "*.md"],
    ["--iglob", "!*.TXT"],
    ["--iglob", "D/**"],
    ["--iglob", "!*.TXT", "-g", "*.txt"],
    ["-g", "*.txt", "--iglob", "!*.TXT"],
    ["-g", "!*.txt", "--iglob", "*.TXT"],
    ["--iglob", "*.{TXT,MD}"],
    ["--iglob", "*.txt", "--iglob", "!b.*"],
  ]) {
    const theirs = rgPaths(root, ["--files", ...args, "."]);
    assert.deepEqual(await files(args), theirs, args.join(" "));
  }
  // The case difference is real: -g '*.txt' leaves A.TXT out, --iglob '*.txt' takes it.
  assert.ok(!(await files(["-g", "*.txt"])).includes("A.TXT"));
  assert.ok((await files(["--iglob", "*.txt"])).includes("A.TXT"));
});

test("a glob rg cannot parse is refused with rg's reason (E111, exit 2); blank and comment globs are no rule, as in rg", async () => {
  for (const [flag, glob] of [
    ["-g", "["],
    ["-g", "{a,b"],
    ["-g", "{a,{b,c}}"],
    ["-g", "a\\"],
    ["-g", "[z-a]"],
    ["-g", "[]"],
    ["-g", "![!]"],
    ["--iglob", "*.{rs"],
  ] as const) {
    const theirs = rgRun(root, ["--files", flag, glob, "."]);
    assert.equal(theirs.status, 2, `rg accepts ${flag} ${glob}`);
    const reason = /error parsing glob '.*?': (.*)/.exec(theirs.stderr)?.[1] as string;
    for (const mode of [["--files"], ["foo"]]) {
      const r = await runTool("llmsearch", ["--root", root, ...mode, flag, glob], { cwd: root });
      assert.equal(r.code, 2, `${flag} ${glob}: ${r.stdout}`);
      const data = (r.json as { data: { code: string; message: string; remediation: string } }).data;
      assert.equal(data.code, "LLMSEARCH_E111");
      assert.ok(data.message.endsWith(reason), `${data.message} vs rg: ${reason}`);
      assert.ok(data.remediation.length > 0);
    }
  }
  // rg takes these: an empty glob, blanks and a comment are no rule at all; '{}', escapes and classes are globs.
  for (const glob of ["", " ", "#x", "!#x", "\\{x", "[{]x", "*.{txt}", "***", "a}"]) {
    assert.deepEqual(await files(["-g", glob]), rgPaths(root, ["--files", "-g", glob, "."]), `-g '${glob}'`);
  }
  // A bare '!' excludes every file in rg: refused as the mistake it almost always is.
  const bang = await runTool("llmsearch", ["--root", root, "--files", "-g", "!"], { cwd: root });
  assert.equal(bang.code, 2);
  assert.equal((bang.json as { data: { code: string } }).data.code, "LLMSEARCH_E111");
});

test("-a searches binary files as text, as rg -a: the matches after a NUL byte, and no file listed as binary", async () => {
  for (const args of [["-a", "foo"], ["-a", "-i", "FOO"], ["-a", "bar"], ["--text", "o\\x00"]]) {
    const got = await searched([...args, "."]);
    assert.deepEqual(got.spans, [...rgJson(root, [...args, "."]).spans].sort(), args.join(" "));
    assert.deepEqual(got.data.files_skipped, [], args.join(" "));
  }
  const plain = await searched(["foo", "."]);
  assert.ok(plain.data.files_skipped.some((s) => s.reason === "binary"), "without -a the NUL files are binary");
  assert.ok((await searched(["-a", "foo", "."])).spans.length > plain.spans.length);
});
