/**
 * -t/-T take ripgrep's own file types: llmsearch knows every type `rg --type-list` lists, each
 * with exactly its globs (sh missed .bash_profile, .zshenv, bashrc, ... so `-t sh` skipped
 * dotfiles rg searches; ruby, kotlin and 145 more were refused).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { FILE_TYPES } from "../../src/tools/llmsearch/types.js";
import { rgPaths } from "../support/rg.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

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

test("--type-list prints rg --type-list's types, and --type-add defines and extends types as rg 13 does", async () => {
  const adds = ["--type-add", "rust:*.foo", "--type-add", "web:*.html", "--type-add", "web:*.css", "--type-add", "mix:include:rust,toml"];
  const r = spawnSync("rg", ["--no-config", "--type-list", ...adds], { encoding: "utf8" });
  const ours = await runTool("llmsearch", ["--type-list", ...adds]);
  assert.equal(ours.code, 0, ours.stdout);
  const data = (ours.json as { data: { types: { name: string; globs: string[] }[]; type_count: number } }).data;
  assert.equal(data.types.map((t) => `${t.name}: ${t.globs.join(", ")}\n`).join(""), r.stdout);
  assert.equal(data.type_count, data.types.length);

  const root = tempDir("llmsearch-typeadd-");
  writeTree(root, { "a.rs": "x\n", "b.foo": "x\n", "c.toml": "x\n", "d.snap": "x\n", "e.txt": "x\n" });
  for (const args of [
    ["--type-add", "rust:*.foo", "-t", "rust"],
    ["--type-add", "snap:*.snap", "-T", "snap"],
    ["--type-add", "mix:include:rust,toml", "-t", "mix"],
  ]) {
    const got = await runTool("llmsearch", ["--root", root, "--files", ...args], { cwd: root });
    assert.deepEqual([...(got.json as { data: { files: string[] } }).data.files].sort(), rgPaths(root, ["--files", ...args, "."]), args.join(" "));
  }
  for (const bad of ["my_t:*.rs", "nocolon", "mix:include:rust,bogus"]) {
    const got = await runTool("llmsearch", ["--root", root, "--type-add", bad, "x"], { cwd: root });
    assert.equal(got.code, 2, bad);
    assert.equal(spawnSync("rg", ["--no-config", "--type-add", bad, "x", root]).status, 2, `rg refuses ${bad} too`);
  }
});

test("-r/--replace is refused with the way to replace: llmsearch never rewrites", async () => {
  const r = await runTool("llmsearch", ["-r", "y", "x"]);
  assert.equal(r.code, 2);
  assert.match(JSON.stringify(r.json), /llmtransform/);
});
