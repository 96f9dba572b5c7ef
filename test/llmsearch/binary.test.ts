import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { runTool, tempDir } from "../support/run.js";

test("a NUL byte: the matches in the lines before it are reported and the file is listed as binary, as ripgrep does", async () => {
  const root = tempDir("llmsearch-nul-");
  writeFileSync(join(root, "log.txt"), "hello\nworld hello\nbin\0ary hello\nhello\n");
  // Past the first 64 KiB block too (the prefilter's later windows and the full read).
  writeFileSync(join(root, "big.txt"), `${"hello there\n".repeat(10_000)}\0hello\n`);
  writeFileSync(join(root, "head.bin"), "\0hello\n");
  for (const pattern of ["hello", "hel+o"]) {
    const r = await runTool("llmsearch", ["--root", root, "-e", pattern]);
    assert.equal(r.code, 0, r.stdout);
    const data = (r.json as { data: LlmsearchData }).data;
    const log = data.matches.filter((m) => m.span.file_path === "log.txt").map((m) => m.span.byte_start);
    assert.deepEqual(log, [0, 12], `${pattern}: the two matches before the NUL's line, none on or after it`);
    assert.equal(data.matches.filter((m) => m.span.file_path === "big.txt").length, 10_000, pattern);
    assert.equal(data.matches.filter((m) => m.span.file_path === "head.bin").length, 0);
    const skipped = Object.fromEntries(data.files_skipped.map((s) => [s.file_path, s]));
    assert.equal(skipped["log.txt"]?.reason, "binary");
    assert.match(skipped["log.txt"]?.detail ?? "", /NUL byte at offset 21; 2 matches/);
    assert.equal(skipped["big.txt"]?.reason, "binary");
    assert.equal(skipped["head.bin"]?.reason, "binary");
    assert.equal(data.total_count, 10_002);
  }
});
