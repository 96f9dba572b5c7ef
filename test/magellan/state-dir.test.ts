/**
 * `.magellan/` keeps itself out of git, as `.splice/` does: `git add -A` once committed the live
 * index, and the next checkout deleted it under a running daemon (real git).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

it("magellan index makes .magellan/ ignore itself; git add -A leaves the index out", async () => {
  const root = writeTree(tempDir("magellan-state-"), { "app.py": "def main():\n    return 1\n" });
  execFileSync("git", ["init", "-q", root]);
  const r = await mg(root, ["index"]);
  assert.equal(r.r.code, 0, r.r.stdout);
  assert.equal(readFileSync(join(root, ".magellan", ".gitignore"), "utf8"), "*\n");
  execFileSync("git", ["add", "-A"], { cwd: root });
  const staged = execFileSync("git", ["diff", "--cached", "--name-only"], { cwd: root, encoding: "utf8" }).trim().split("\n");
  assert.deepEqual(staged, ["app.py"]);
});
