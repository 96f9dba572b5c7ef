/**
 * magellan's index and read commands run without commander when their command line is plain
 * (src/cli/magellan-quick.ts), and through commander otherwise or when MAGELLAN_FULL_CLI is set.
 * Both must print the same envelope and exit with the same code, for answers, partial answers,
 * tool errors and usage errors alike. The quick path runs from the bundle the build makes, so
 * this also checks that the bundle behaves as the modules it was made from.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { runTool } from "../support/run.js";
import { indexed } from "./support.js";

/** The envelope without what differs between any two runs. */
function stable(text: string): unknown {
  const env = JSON.parse(text) as Record<string, unknown>;
  delete env.execution_id;
  delete env.timestamp;
  const data = env.data as Record<string, unknown> | undefined;
  if (data && env.command === "index") delete data.duration_ms;
  return env;
}

describe("magellan quick commands with and without commander", () => {
  let root: string;
  before(async () => {
    root = await indexed("multi", ["ts"]);
    // A file changed after indexing: answers drawn from it carry STALE_INDEX on both paths.
    writeFileSync(join(root, "ts", "other.ts"), "export const changed = 1;\n");
  });

  it("prints the same envelope and exit code on both paths", async () => {
    const cases: { args: string[]; code: number }[] = [
      { args: ["find", "--name", "helper"], code: 0 },
      { args: ["find", "--name=helper", "--pretty"], code: 0 },
      { args: ["find", "--name", "form", "--match", "prefix", "--with-context", "1", "--with-checksums"], code: 0 },
      { args: ["find", "--name", "format", "--limit", "1"], code: 4 },
      { args: ["find", "--name", "helpr"], code: 1 },
      { args: ["find", "--name", "helper", "--limit", "0"], code: 2 },
      { args: ["find", "--name", "helper", "--match", "regex"], code: 2 },
      { args: ["find", "--name", "helper", "--bogus"], code: 2 },
      { args: ["find", "stray"], code: 2 },
      { args: ["refs", "--name", "helper", "--with-callers"], code: 0 },
      { args: ["refs", "--name", "helper", "--direction", "out"], code: 0 },
      { args: ["query", "--file", "ts/util.ts", "--kind", "function"], code: 0 },
      { args: ["query", "--file", "ts/other.ts"], code: 0 },
      { args: ["query"], code: 2 },
      { args: ["status"], code: 0 },
      { args: ["files", "--symbols"], code: 0 },
      { args: ["collisions", "--field", "name"], code: 0 },
      { args: ["validate"], code: 0 },
      // Last: index takes in the stale file. Each of its runs first gets one changed file.
      { args: ["index", "--threads", "0"], code: 2 },
      { args: ["index"], code: 0 },
      { args: ["index", "--threads", "1", "--max-file-size", "100000"], code: 0 },
    ];
    let edit = 0;
    const touch = (): void => writeFileSync(join(root, "ts", "changed.ts"), `export const edit${edit++} = ${edit};\n`);
    for (const c of cases) {
      const args = [...c.args, "--root", root];
      if (c.args[0] === "index" && c.code === 0) {
        if (edit === 0) await runTool("magellan", ["index", "--root", root], { cwd: root });
        touch();
      }
      const quick = await runTool("magellan", args, { cwd: root });
      if (c.args[0] === "index" && c.code === 0) touch();
      const full = await runTool("magellan", args, { cwd: root, env: { MAGELLAN_FULL_CLI: "1" } });
      const what = c.args.join(" ");
      assert.equal(quick.code, c.code, `${what}: ${quick.stdout}${quick.stderr}`);
      assert.equal(full.code, c.code, `${what} (commander): ${full.stdout}${full.stderr}`);
      assert.deepEqual(stable(quick.stdout), stable(full.stdout), what);
      assert.equal(quick.stdout.includes("\n  "), full.stdout.includes("\n  "), `${what}: --pretty`);
    }
  });
});
