/**
 * -m/--max-count is ripgrep's: per file, the first n lines with a match (with -U and a pattern
 * that can match a line feed, rg's runs of matches on touching lines), also under -c,
 * --count-matches and -l; each answer is compared with rg's on the same files. --limit stays the
 * global cap on matches it was (it was -m's long name before).
 */
import assert from "node:assert/strict";
import { before, test } from "node:test";
import type { LlmsearchCountData, LlmsearchData, LlmsearchFilesWithMatchesData } from "../../src/contract/tools/llmsearch.js";
import { rgCounts, rgJson, rgPaths } from "../support/rg.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";

before(() => {
  root = tempDir("llmsearch-maxcount-");
  writeTree(root, {
    // Two matches on line 1 and on line 4: -m counts lines, and keeps every match of a line it keeps.
    "a.txt": "foo foo\nbar\nfoo\nbaz foo\nfoo\n",
    "b.txt": "foo\r\nfoo foo\r\nx\r\nfoo",
    "c.txt": "nothing here\n",
    "d/e.txt": "foo\nfoo\nx\nfoo\nfoo\nfoo\n",
  });
});

async function search(args: string[]): Promise<{ code: number; data: LlmsearchData; partial: boolean }> {
  const r = await runTool("llmsearch", ["--root", root, ...args], { cwd: root });
  const env = r.json as { data: LlmsearchData; partial: boolean };
  return { code: r.code, data: env.data, partial: env.partial };
}

const spans = (d: LlmsearchData): string[] => d.matches.map((m) => `${m.span.file_path}:${m.span.byte_start}:${m.span.byte_end}`).sort();

const CASES: string[][] = [
  ["-m", "1", "foo"],
  ["-m", "2", "foo"],
  ["-m", "3", "-i", "FOO"],
  ["--max-count", "2", "o\\b"],
  ["-m", "1", "-w", "foo"],
  // -U with a pattern that cannot match a line feed: rg still searches (and counts) line by line.
  ["-U", "-m", "2", "foo"],
  // -U with one that can: rg counts runs of matches on touching lines.
  ["-U", "-m", "1", "foo\\n|foo"],
  ["-U", "-m", "2", "foo\\n|foo"],
  ["-U", "-m", "1", "o\\nf|x"],
  ["-U", "-m", "2", "o\\nb|bar"],
];

test("-m keeps the matches of the first n matching lines of each file, as rg -m", async () => {
  for (const args of CASES) {
    const r = await search(args);
    assert.equal(r.code, 0, args.join(" "));
    assert.equal(r.partial, false, `${args.join(" ")}: -m is not a cut of the answer`);
    const theirs = [...rgJson(root, ["--crlf", ...args, "."]).spans].sort();
    assert.ok(theirs.length > 0, `rg found nothing for ${args.join(" ")}`);
    assert.deepEqual(spans(r.data), theirs, args.join(" "));
    assert.equal(r.data.total_count, theirs.length, `${args.join(" ")}: total_count counts what -m keeps`);
  }
  // Without -m the same searches find more: the comparison above tested a cap.
  assert.ok((await search(["foo"])).data.total_count > (await search(["-m", "2", "foo"])).data.total_count);
});

test("-m with -c, --count-matches and -l counts as rg does, -U runs included", async () => {
  for (const args of CASES) {
    for (const flag of ["-c", "--count-matches"]) {
      const r = await runTool("llmsearch", ["--root", root, flag, ...args], { cwd: root });
      assert.equal(r.code, 0, r.stdout);
      const data = (r.json as { data: LlmsearchCountData }).data;
      assert.deepEqual(new Map(data.counts.map((c) => [c.file_path, c.count])), rgCounts(root, ["--crlf", flag, ...args, "."]), `${flag} ${args.join(" ")}`);
    }
    const l = await runTool("llmsearch", ["--root", root, "-l", ...args], { cwd: root });
    const files = (l.json as { data: LlmsearchFilesWithMatchesData }).data.files;
    assert.deepEqual(files.map((f) => f.file_path).sort(), rgPaths(root, ["--crlf", "-l", ...args, "."]), `-l ${args.join(" ")}`);
    // The count beside each file is that of the matches -m keeps.
    const kept = await search(args);
    for (const f of files) assert.equal(f.count, kept.data.matches.filter((m) => m.span.file_path === f.file_path).length, `-l ${args.join(" ")} ${f.file_path}`);
  }
});

test("--limit is still the global cap (partial, exit 4, total_count counts all) and has no short flag", async () => {
  const all = await search(["foo"]);
  const cut = await search(["--limit", "2", "foo"]);
  assert.equal(cut.code, 4);
  assert.equal(cut.partial, true);
  assert.equal(cut.data.matches.length, 2);
  assert.equal(cut.data.total_count, all.data.total_count);
  assert.deepEqual(
    cut.data.matches.map((m) => m.span.span_id),
    all.data.matches.slice(0, 2).map((m) => m.span.span_id),
  );
  const perFile = await search(["-m", "2", "foo"]);
  assert.equal(perFile.code, 0, "-m keeps whole answers: exit 0, not 4");
  assert.equal(perFile.partial, false);
  // Both together: -m per file first, then the global cap over what is left.
  const both = await search(["-m", "1", "--limit", "3", "foo"]);
  assert.equal(both.data.total_count, (await search(["-m", "1", "foo"])).data.total_count);
  assert.equal(both.data.matches.length, 3);
  const bad = await runTool("llmsearch", ["--root", root, "-m", "0", "foo"], { cwd: root });
  assert.equal(bad.code, 2, "-m 0 would search nothing: refused");
});
