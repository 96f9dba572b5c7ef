/**
 * `mdsel index FILES...` without flags skips commander (src/cli/mdsel.ts); with any flag it goes
 * through commander and runCli. Both must print the same envelope and exit with the same code,
 * for successes, failures and partial results alike.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../support/run.js";
import { index, SEED } from "./helpers.js";

/** The envelope without what differs between any two runs. */
function stable(env: object): object {
  const { execution_id: _id, timestamp: _ts, ...rest } = env as Record<string, unknown>;
  return rest;
}

describe("index with and without flags", () => {
  it("prints the same envelope and exit code on the commander path (a flag given) and the direct one", async () => {
    const dir = tempDir("mdsel-paths-");
    writeFileSync(join(dir, "a.md"), "# A\n\n- one\n  - two\n\ntext\n");
    writeFileSync(join(dir, "b.md"), "> quote\n\n```\ncode\n```\n");
    writeFileSync(join(dir, "bin.md"), Buffer.from([0x23, 0x20, 0x00, 0x41]));
    const cases: { args: string[]; code: number }[] = [
      { args: ["a.md", "b.md"], code: 0 },
      { args: [join(SEED, "README.md")], code: 1 }, // outside the workspace root: not read
      { args: ["a.md", "missing.md"], code: 4 },
      { args: ["missing.md"], code: 1 },
      { args: ["bin.md"], code: 1 },
      { args: [], code: 4 }, // discovery: a.md, b.md and the binary bin.md
    ];
    for (const c of cases) {
      const direct = await index(c.args, { cwd: dir });
      const viaCommander = await index(["--max-bytes", "5242880", ...c.args], { cwd: dir });
      assert.equal(direct.code, c.code, `${c.args.join(" ")}: ${JSON.stringify(direct.env.errors)}`);
      assert.equal(viaCommander.code, c.code, c.args.join(" "));
      assert.deepEqual(stable(direct.env), stable(viaCommander.env), c.args.join(" "));
    }
  });
});
