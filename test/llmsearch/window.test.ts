/**
 * The literal prefilter streams big files through a small window instead of reading them
 * whole. These files put the literal, a NUL byte and a KELVIN SIGN (which -i folds onto k)
 * around every read seam a file of a few hundred KiB can have, and check the answer byte for
 * byte: the exact spans, and the binary verdict with the first NUL's offset.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { runTool, tempDir } from "../support/run.js";

let root = "";
/** file -> the byte offset of its one literal. */
const placed = new Map<string, number>();

/** `size` bytes of ASCII lines with no 'n' or 'k' (so neither literal occurs by chance). */
function filler(size: number): Buffer {
  const line = Buffer.from("the quick brown fox jumps over a lazy dog; 0123456789\n".replace(/[nk]/g, "x"));
  const b = Buffer.alloc(size);
  for (let o = 0; o < size; o += line.length) line.copy(b, o, 0, Math.min(line.length, size - o));
  return b;
}

before(() => {
  root = tempDir("llmsearch-window-");
  // Every offset that straddles the end of the first block (64 KiB) or of a later read, for a
  // window of 128, 256 or 512 KiB less a small carry (two reads in for 256 KiB).
  const seams = [64 * 1024, ...[128, 256, 512].map((w) => 64 * 1024 + w * 1024), 64 * 1024 + 2 * 256 * 1024];
  const offsets = new Set<number>();
  for (const s of seams) for (let d = -16; d <= 2; d++) offsets.add(s + d);
  let n = 0;
  for (const at of [...offsets].sort((a, b) => a - b)) {
    const b = filler(at + 100);
    Buffer.from("needle").copy(b, at);
    const name = `seam-${String(n++).padStart(3, "0")}.txt`;
    writeFileSync(join(root, name), b);
    placed.set(name, at);
  }
  // A NUL far past the first block, with and without the literal before it.
  const lateNul = filler(500 * 1024);
  lateNul[300_001] = 0;
  writeFileSync(join(root, "late-nul.txt"), lateNul);
  const nulAfterHit = filler(500 * 1024);
  Buffer.from("needle").copy(nulAfterHit, 70_000);
  nulAfterHit[400_000] = 0;
  writeFileSync(join(root, "nul-after-hit.txt"), nulAfterHit);
  // KELVIN SIGN + "elvin" matches -i 'kelvin' (Unicode folding) though the ASCII finder cannot
  // see it; put it across the 64 KiB seam and deep in the file.
  const k = Buffer.from("\u212Aelvin");
  const seam = filler(600 * 1024);
  k.copy(seam, 64 * 1024 - 2);
  writeFileSync(join(root, "kelvin-seam.txt"), seam);
  const deep = filler(600 * 1024);
  k.copy(deep, 450_000);
  writeFileSync(join(root, "kelvin-deep.txt"), deep);
});

// Some 30 MB of files: do not leave them behind.
after(() => rmSync(root, { recursive: true, force: true }));

async function search(args: string[]): Promise<LlmsearchData> {
  const r = await runTool("llmsearch", ["--root", root, ...args]);
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stdout.slice(0, 1500)} ${r.stderr.slice(0, 500)}`);
  return (r.json as { data: LlmsearchData }).data;
}

test("a literal across any read seam of a big file is found at its exact offset", async () => {
  for (const args of [["--pattern", "needle"], ["--pattern", "nee+dle"], ["-i", "--pattern", "NEEDLE"]]) {
    const data = await search(args);
    const got = new Map(data.matches.map((m) => [m.span.file_path, m.span.byte_start]));
    for (const [file, at] of placed) assert.equal(got.get(file), at, `${args.join(" ")}: ${file}`);
    // The hit before the NUL of nul-after-hit.txt is reported, as ripgrep does.
    assert.equal(got.get("nul-after-hit.txt"), 70_000);
    assert.equal(data.total_count, placed.size + 1, `${args.join(" ")}: one match per seam file, one before the NUL, none elsewhere`);
    assert.deepEqual(
      data.files_skipped,
      [
        { file_path: "late-nul.txt", reason: "binary", detail: "NUL byte at offset 300001; 0 matches in the lines before it reported, the rest not searched" },
        { file_path: "nul-after-hit.txt", reason: "binary", detail: "NUL byte at offset 400000; 1 match in the lines before it reported, the rest not searched" },
      ],
      "a NUL anywhere makes the file binary, with the offset of the first",
    );
  }
});

test("-i: a KELVIN SIGN anywhere in a big file still folds onto k", async () => {
  const data = await search(["-i", "--pattern", "kelvin"]);
  assert.deepEqual(
    data.matches.map((m) => [m.span.file_path, m.span.byte_start, m.span.byte_end]),
    [
      ["kelvin-deep.txt", 450_000, 450_008],
      ["kelvin-seam.txt", 64 * 1024 - 2, 64 * 1024 - 2 + 8],
    ],
  );
});
