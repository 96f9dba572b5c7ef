/**
 * -t/-T take ripgrep's own file types: llmsearch knows every type `rg --type-list` lists, each
 * with exactly its globs (sh missed .bash_profile, .zshenv, bashrc, ... so `-t sh` skipped
 * dotfiles rg searches; ruby, kotlin and 145 more were refused).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { FILE_TYPES } from "../../src/tools/llmsearch/types.js";

test("every llmsearch file type has ripgrep's globs", () => {
  const r = spawnSync("rg", ["--no-config", "--type-list"], { encoding: "utf8" });
  assert.ok(!r.error, `ripgrep (rg) is required for this test: ${String(r.error)}`);
  const rgTypes = new Map<string, string[]>();
  for (const line of r.stdout.split("\n")) {
    const at = line.indexOf(": ");
    if (at > 0) rgTypes.set(line.slice(0, at), line.slice(at + 2).split(", ").sort());
  }
  for (const [name, globs] of Object.entries(FILE_TYPES)) {
    assert.deepEqual([...globs].sort(), rgTypes.get(name), `-t ${name}`);
  }
  // And every type rg knows: `-t ruby` was refused (E109) where rg searched fzf's 549 matches.
  assert.deepEqual(Object.keys(FILE_TYPES).sort(), [...rgTypes.keys()].sort());
});
