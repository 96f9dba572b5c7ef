import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { magellanResponseSchema } from "../../src/contract/tools/magellan.js";
import { binPath } from "../support/run.js";
import { copyFixture, mg } from "./support.js";

interface WatchLine {
  data: { event: string; changed_paths: string[]; removed_paths: string[]; files_indexed: number };
}

/**
 * Runs `magellan watch` for real: each stdout line is one envelope, validated against the
 * contract; `step` is called on every event so the test can edit files while it watches.
 */
function watchProcess(root: string, onEvent: (e: WatchLine, all: WatchLine[], stop: () => void) => void): Promise<WatchLine[]> {
  const child = spawn(process.execPath, [binPath("magellan"), "watch", "--root", root, "--debounce", "150", "--timeout", "40"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: WatchLine[] = [];
  let buf = "";
  child.stdout.on("data", (b: Buffer) => {
    buf += b.toString("utf8");
    let i: number;
    while ((i = buf.indexOf("\n")) !== -1) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const env = magellanResponseSchema("watch").parse(JSON.parse(line)) as WatchLine;
      lines.push(env);
      // SIGTERM makes watch finish its cycle, print the "stopped" line and exit.
      onEvent(env, lines, () => child.kill("SIGTERM"));
    }
  });
  return new Promise((resolve) => child.on("close", () => resolve(lines)));
}

describe("magellan watch", () => {
  it("follows edits, rename-saves, deletions and a burst of many files in one cycle", async () => {
    const root = copyFixture("multi", ["ts"]);
    const util = join(root, "ts/util.ts");
    let step = 0;
    const lines = await watchProcess(root, (e, all, stop) => {
      const cycles = all.filter((x) => x.data.event === "indexed");
      if (e.data.event === "ready" && step === 0) {
        step = 1;
        writeFileSync(util, "export function edited(): number { return 1; }\n");
      } else if (e.data.event === "indexed" && step === 1) {
        step = 2;
        // An editor's save: write a temp file, rename it over the original.
        writeFileSync(join(root, "ts/.app.ts.swp"), "export function savedByRename(): void {}\n");
        renameSync(join(root, "ts/.app.ts.swp"), join(root, "ts/app.ts"));
      } else if (e.data.event === "indexed" && step === 2) {
        step = 3;
        unlinkSync(join(root, "ts/other.ts"));
      } else if (e.data.event === "indexed" && step === 3) {
        step = 4;
        // A branch switch: many files at once.
        for (let i = 0; i < 150; i++) writeFileSync(join(root, `ts/gen${i}.ts`), `export function gen${i}(): number { return ${i}; }\n`);
      } else if (e.data.event === "indexed" && step === 4) {
        if (cycles.slice(3).reduce((n, x) => n + x.data.files_indexed, 0) >= 150) {
          step = 5;
          stop();
        }
      }
    });
    const events = lines.map((l) => l.data);
    assert.equal(events[0]?.event, "ready");
    const indexed = events.filter((e) => e.event === "indexed");
    assert.deepEqual(indexed[0]?.changed_paths, ["ts/util.ts"]);
    assert.deepEqual(indexed[1]?.changed_paths, ["ts/app.ts"]);
    assert.deepEqual(indexed[2]?.removed_paths, ["ts/other.ts"]);
    const burst = indexed.slice(3).reduce((n, e) => n + e.files_indexed, 0);
    assert.equal(burst, 150);
    assert.ok(indexed.length - 3 <= 3, `150 files in few cycles, got ${indexed.length - 3}`);
    assert.equal(events[events.length - 1]?.event, "stopped");
    const f = await mg(root, ["find", "--name", "savedByRename"]);
    assert.equal(f.r.code, 0);
  });
});
