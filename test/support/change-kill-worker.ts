/**
 * A real process that commits one 20-file change through src/change/ so that a test can SIGKILL
 * it at a random moment. Inert unless started by test/change/kill.test.ts (env).
 * argv: root, number of files, "backup" | "plain". Prints "go" right before commitChange and
 * "renaming <ms>" when every temp file is synced, "done <ms>" after the commit.
 */
import { writeSync } from "node:fs";
import { commitChange } from "../../src/change/index.js";

if (process.env.LLMTOOLS_KILL_WORKER === "1") {
  const [root, n, mode] = process.argv.slice(2);
  const files = Array.from({ length: Number(n) }, (_, i) => ({
    path: `pkg/m${String(i).padStart(2, "0")}.ts`,
    before: Buffer.from(`export const v${i} = "before";\n`.repeat(20)),
    after: Buffer.from(`export const v${i} = "after";\n`.repeat(21)),
  }));
  const t0 = performance.now();
  writeSync(1, "go\n");
  void commitChange({ root: root as string, tool: "splice", command: "kill-test", files, backup: mode === "backup" }, {
    beforeRename: () => void writeSync(1, `renaming ${(performance.now() - t0).toFixed(1)}\n`),
    afterEachRename: (i) => void writeSync(1, `renamed ${i}\n`),
  }).then(() => {
    writeSync(1, `done ${(performance.now() - t0).toFixed(1)}\n`);
  });
}
