/**
 * Issue 18.3: llmtransform must not edit git's own files (`.git/config`'s core.hooksPath is code
 * execution on the next git command) nor the tools' state directories; the real CLI, real files.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { checksum } from "../../src/text/checksum.js";
import { runTool, tempDir } from "../support/run.js";

interface Envelope {
  status: string;
  error?: { code: string; remediation?: string };
}

describe("llmtransform: forbidden paths", () => {
  test(".git/config, a worktree's .git file, .magellan/, .splice/ and a symlink into .git are refused with E010, exit 2, file untouched", async () => {
    const root = tempDir("llmtransform-git-");
    mkdirSync(join(root, ".git/hooks"), { recursive: true });
    mkdirSync(join(root, ".magellan"));
    mkdirSync(join(root, "wt"));
    const files: Record<string, string> = {
      ".git/config": "[core]\n\tbare = false\n",
      "wt/.git": "gitdir: ../.git/worktrees/wt\n",
      ".magellan/state.json": "{}\n",
      ".git/hooks/pre-commit": "#!/bin/sh\n",
    };
    for (const [p, text] of Object.entries(files)) writeFileSync(join(root, p), text);
    symlinkSync(".git/hooks", join(root, "hooks"));
    const targets = [...Object.keys(files), "hooks/pre-commit"];
    for (const p of targets) {
      const text = readFileSync(join(root, p), "utf8");
      for (const dry of [[], ["--dry-run"]]) {
        const r = await runTool("llmtransform", ["--root", root, "--file", p, "--expected-checksum", checksum(Buffer.from(text)), "--edits", "-", ...dry], {
          cwd: root,
          input: JSON.stringify([{ byte_start: 0, byte_end: 0, new_content: "[core]\n\thooksPath = /tmp/evil\n" }]),
        });
        assert.equal(r.code, 2, `${p} ${dry.join("")}: ${r.stdout}`);
        const env = r.json as Envelope;
        assert.equal(env.error?.code, "LLMTRANSFORM_E010", p);
        assert.ok(env.error?.remediation);
      }
      assert.equal(readFileSync(join(root, p), "utf8"), text, `${p} untouched`);
    }
  });
});
