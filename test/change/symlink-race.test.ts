/**
 * Issue 18.4: a directory of the path swapped for a symlink to outside the root while a writer
 * checks and writes must never make it write outside the root. A second process swaps
 * `sub` <-> a symlink to an outside directory as fast as it can while commitChange (and
 * llmtransform on top of it) edit and create files under `sub/`.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { commitChange } from "../../src/change/index.js";
import { ToolError } from "../../src/contract/errors.js";
import { checksum } from "../../src/text/checksum.js";
import { transform } from "../../src/tools/llmtransform/transform.js";
import { tempDir } from "../support/run.js";

// A create may find \`sub\` missing for an instant and make a new one; the swapper parks such a
// directory as made.<n> (inside the root) and goes on swapping.
const SWAPPER = `
const { renameSync, symlinkSync } = require("node:fs");
process.chdir(process.argv[1]);
symlinkSync(process.argv[2], "sub.link");
process.stdout.write("swapping\\n");
let made = 0;
const put = (from) => {
  for (;;) {
    try { renameSync(from, "sub"); return; } catch { try { renameSync("sub", "made." + made++); } catch {} }
  }
};
for (;;) {
  renameSync("sub", "sub.real"); put("sub.link");
  renameSync("sub", "sub.link"); put("sub.real");
}`;

describe("change pipeline: symlink swap during the write", () => {
  test("240 writes racing a directory <-> symlink swap: 0 bytes written outside the root", async () => {
    const root = tempDir("change-race-");
    const outside = tempDir("change-race-outside-");
    mkdirSync(join(root, "sub"));
    const TRIALS = 240;
    const base = Buffer.from("v\n");
    // The same bytes on both sides, so that a write resolved through the link would pass the before-check.
    for (let i = 0; i < TRIALS; i++) {
      writeFileSync(join(root, "sub", `f${i}.txt`), base);
      writeFileSync(join(outside, `f${i}.txt`), base);
    }
    const outsideBefore = readdirSync(outside).sort();
    const swapper = spawn(process.execPath, ["-e", SWAPPER, root, outside], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise((resolve) => swapper.stdout.once("data", resolve));
    const tally = { written: 0, refused: 0, other: [] as string[] };
    const trial = async (i: number): Promise<void> => {
        const after = Buffer.from(`trial ${i}\n`);
        try {
          if (i % 3 === 0 || i >= TRIALS) {
            await commitChange({ root, tool: "llmfilewrite", command: "create", files: [{ path: `sub/n${i}.txt`, before: null, after }] });
          } else if (i % 3 === 1) {
            await commitChange({ root, tool: "splice", command: "edit", files: [{ path: `sub/f${i}.txt`, before: base, after }] });
          } else {
            const out = await transform({ file_path: `sub/f${i}.txt`, expected_checksum: checksum(base), edits: [{ byte_start: 0, byte_end: 1, new_content: `trial ${i}` }] }, { root, cwd: root });
            if (!out.result.written) throw new Error(out.message);
          }
          tally.written++;
        } catch (e) {
          if (e instanceof ToolError) tally.refused++;
          else tally.other.push(String(e));
        }
    };
    try {
      for (let i = 0; i < TRIALS; i++) {
        await trial(i);
        if (i % 40 === 39) await sleep(1); // let the swapper's process run on a busy machine
      }
      // On a loaded machine the swapper can win every round; creates spaced out give the writes
      // their turns, so that the race is known to be live both ways.
      for (let i = TRIALS; tally.written === 0 && i < TRIALS + 200; i++) {
        await sleep(5);
        await trial(i);
      }
    } finally {
      swapper.kill("SIGKILL");
      await new Promise((resolve) => swapper.on("close", resolve));
    }
    // The link goes; what is left are real directories inside the root: `sub`, `sub.real` (the
    // swapper's parking name) and made.<n> (made by a create that found no `sub`).
    for (const name of ["sub", "sub.link"]) {
      if (existsSync(join(root, name)) && lstatSync(join(root, name)).isSymbolicLink()) unlinkSync(join(root, name));
    }

    assert.deepEqual(readdirSync(outside).sort(), outsideBefore, "no file (and no temp file) appeared outside the root");
    for (const f of outsideBefore) assert.deepEqual(readFileSync(join(outside, f)), base, `${f} outside the root is untouched`);
    // Every write that reported success is inside the root.
    const inside = readdirSync(root)
      .filter((d) => d === "sub" || d === "sub.real" || d.startsWith("made."))
      .filter((d) => !lstatSync(join(root, d)).isSymbolicLink())
      .flatMap((d) => readdirSync(join(root, d)).filter((f) => readFileSync(join(root, d, f), "utf8").startsWith("trial")));
    assert.equal(inside.length, tally.written, JSON.stringify(tally));
    assert.deepEqual(tally.other, [], "every refusal is a ToolError with a code");
    // The race was live: some writes went through, some were refused.
    assert.ok(tally.written > 0 && tally.refused > 0, JSON.stringify(tally));
    process.stderr.write(`symlink race: ${JSON.stringify({ trials: TRIALS, written: tally.written, refused: tally.refused, outside: 0 })}\n`);
  });
});
