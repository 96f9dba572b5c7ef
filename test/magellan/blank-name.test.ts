/**
 * An empty --name is a usage error (exit 2), not "no symbol named '' ; did you mean: u?" with
 * exit 1, nor, with --match fuzzy, a page of arbitrary symbols.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT, tempDir } from "../support/run.js";
import { mg } from "./support.js";

test("an empty or blank symbol name is refused as a usage error by find, refs, callers and graph commands", async () => {
  const root = tempDir("magellan-blank-");
  cpSync(join(REPO_ROOT, "test", "fixtures", "lang", "c-declarators"), root, { recursive: true });
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  // The name does exist: the same commands answer it.
  const ok = await mg(root, ["find", "--name", "merges"]);
  assert.equal(ok.r.code, 0);
  for (const args of [
    ["find", "--name", ""],
    ["find", "--name", "  ", "--match", "fuzzy"],
    ["refs", "--name", ""],
    ["callers", "--name", " "],
    ["reachable", "--symbol", "  "],
  ]) {
    const { r: got, env } = await mg(root, args);
    assert.equal(got.code, 2, `${args.join(" ")}: ${got.stdout}`);
    assert.equal(env.data.code, "MAGELLAN_E000", args.join(" "));
    assert.match(String(env.data.message), /symbol name is empty/, args.join(" "));
    assert.ok(env.data.remediation, args.join(" "));
  }
});
