/**
 * Rust renames through magellan's index (rust-analyzer does not run here), on a file shaped like
 * ripgrep's crates/ignore/src/gitignore.rs, whose test module imports the file's own type with
 * `use super::Gitignore`.
 *
 * Before: every `Gitignore::…` path in the file was looked up in the crate root (through the
 * test module's `use super::…`) and stayed unresolved, so renaming `empty` was refused for
 * name-only locations.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { indexTree } from "../../src/graph/ingest.js";
import { planRename } from "../../src/tools/splice/rename/index.js";
import { applyLocations, copyFixture, targetAt } from "./rename-helpers.js";

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const FILE = "src/gitignore.rs";

async function indexed(): Promise<string> {
  const root = copyFixture("rust-fields");
  made.push(root);
  await indexTree({ root, dbPath: join(root, ".magellan", "code.db") });
  return root;
}

function cargoCheck(root: string): void {
  const r = spawnSync("cargo", ["check", "--offline", "--all-targets", "--quiet"], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
}

/** The 1-based lines of the locations in FILE. */
const lines = (root: string, locs: { file: string; byte_start: number }[]): number[] => {
  const src = readFileSync(join(root, FILE), "utf8");
  return locs.filter((l) => l.file === FILE).map((l) => src.slice(0, l.byte_start).split("\n").length);
};

describe("splice rename, Rust fallback: gitignore.rs-shaped", () => {
  it("`Gitignore::empty()` in a file whose test module imports `super::Gitignore` is the file's own (no name-only locations)", async () => {
    const root = await indexed();
    const plan = await planRename({ root, target: targetAt(root, FILE, "rust", "fn empty", "empty"), newName: "blank" });
    assert.deepEqual(lines(root, plan.locations), [17, 80]);
    assert.ok(plan.locations.every((l) => l.evidence === "exact"), JSON.stringify(plan.locations));
    applyLocations(root, plan.locations, true);
    cargoCheck(root);
  });
});
