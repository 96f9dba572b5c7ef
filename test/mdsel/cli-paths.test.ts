/**
 * `mdsel index FILES...` without flags skips commander (src/cli/mdsel.ts); with any flag it goes
 * through commander and runCli. Both must print the same envelope and exit with the same code,
 * for successes, failures and partial results alike.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { index, SEED, select } from "./helpers.js";

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

describe("a directory", () => {
  it("stands for the Markdown files under it (ignored and hidden ones left out), in index and select, with and without flags", async () => {
    const dir = tempDir("mdsel-dir-");
    mkdirSync(join(dir, ".git"));
    writeTree(dir, {
      ".gitignore": "build/\n",
      "docs/intro.md": "# Intro\n\nHello.\n",
      "docs/guide/setup.markdown": "# Setup\n\n## Install\n\nRun it.\n",
      "docs/guide/notes.txt": "# not Markdown\n",
      "docs/build/out.md": "# generated\n",
      "docs/.drafts/wip.md": "# draft\n",
      "empty/x.txt": "x\n",
    });
    for (const flags of [[], ["--max-bytes", "5242880"]]) {
      for (const spelled of ["docs", "docs/", "./docs"]) {
        const r = await index([...flags, spelled], { cwd: dir });
        assert.equal(r.code, 0, JSON.stringify(r.env.errors));
        assert.deepEqual(
          r.env.data?.documents.map((d) => [d.namespace, d.file_path]),
          [
            ["setup", "docs/guide/setup.markdown"],
            ["intro", "docs/intro.md"],
          ],
          spelled,
        );
      }
    }
    const s = await select(["setup::heading:h2[0]", "docs/"], { cwd: dir });
    assert.equal(s.code, 0, JSON.stringify(s.env.errors));
    assert.equal(s.env.data?.matches[0]?.content, "## Install\n\nRun it.");
    // A bare word stays a selector, even where a directory of that name exists.
    const bare = await select(["docs"], { cwd: dir });
    assert.notEqual(bare.env.data?.matches[0]?.type, "root");
    const none = await index(["empty"], { cwd: dir });
    assert.equal(none.code, 1);
    assert.match(JSON.stringify(none.env.errors), /empty is a directory with no Markdown file/);
  });
});
