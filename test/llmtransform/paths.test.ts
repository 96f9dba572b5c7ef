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

  test("a root-relative path from llmsearch, run from a subdirectory holding the same relative path, is refused as ambiguous instead of editing the subdirectory's copy", async () => {
    const root = tempDir("llmtransform-ambiguous-");
    mkdirSync(join(root, ".git"));
    mkdirSync(join(root, "a"));
    mkdirSync(join(root, "sub/a"), { recursive: true });
    writeFileSync(join(root, "a/x.txt"), "same\n");
    writeFileSync(join(root, "sub/a/x.txt"), "same\n");
    const sub = join(root, "sub");
    // The documented pipeline: llmsearch's span and checksum straight into llmtransform.
    const found = await runTool("llmsearch", ["-e", "same", "../a/x.txt"], { cwd: sub });
    const m = (found.json as { data: { matches: { span: { file_path: string }; file_checksum: string }[] } }).data.matches[0];
    assert.ok(m);
    assert.equal(m.span.file_path, "a/x.txt");
    const request = { file_path: m.span.file_path, expected_checksum: m.file_checksum, edits: [{ span: m.span, new_content: "EDITED" }] };
    const r = await runTool("llmtransform", [], { cwd: sub, input: JSON.stringify(request) });
    const env = r.json as Envelope & { message: string };
    assert.equal(r.code, 2, r.stdout);
    assert.equal(env.error?.code, "LLMTRANSFORM_E005");
    assert.match(env.message, /names two files: sub\/a\/x\.txt .* and a\/x\.txt/);
    assert.equal(readFileSync(join(root, "a/x.txt"), "utf8"), "same\n");
    assert.equal(readFileSync(join(root, "sub/a/x.txt"), "utf8"), "same\n");
    // `./` says "from here"; the absolute path names the root's file.
    const here = await runTool("llmtransform", [], { cwd: sub, input: JSON.stringify({ ...request, file_path: "./a/x.txt", edits: [{ byte_start: 0, byte_end: 4, new_content: "HERE" }] }) });
    assert.equal(here.code, 0, here.stdout);
    assert.equal(readFileSync(join(root, "sub/a/x.txt"), "utf8"), "HERE\n");
    const there = await runTool("llmtransform", [], { cwd: sub, input: JSON.stringify({ ...request, file_path: join(root, "a/x.txt") }) });
    assert.equal(there.code, 0, there.stdout);
    assert.equal(readFileSync(join(root, "a/x.txt"), "utf8"), "EDITED\n");
  });
});
