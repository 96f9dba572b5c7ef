/**
 * Rust renames through magellan's index (rust-analyzer does not run here) of a field and a method
 * of the same name, shaped like ripgrep's `Gitignore`: its field `num_ignores` is read by its
 * method `num_ignores()` (`self.num_ignores`) and written by struct literals (`Gitignore { .. }`,
 * `Self { .. }`), and the file's test module imports the type with `use super::Gitignore`.
 *
 * Before: `self.num_ignores` was bound to the method, struct literal fields were no references,
 * and every `Gitignore::…` path in the file was looked up in the crate root (through the test
 * module's `use super::…`) and stayed unresolved. Renaming the field changed its declaration
 * alone; renaming the method renamed the field read too; renaming `empty` was refused for
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

describe("splice rename, Rust fallback: a field and a method of the same name", () => {
  it("renaming the field renames its struct literal fields and `self.` reads, not the method; cargo accepts it", async () => {
    const root = await indexed();
    const plan = await planRename({ root, target: targetAt(root, FILE, "rust", "num_ignores: u64", "num_ignores"), newName: "ignore_count" });
    assert.equal(plan.engine, "magellan-index");
    // The declaration, `Gitignore { num_ignores: 0 }`, `Self { num_ignores: … }`, `self.num_ignores`.
    assert.deepEqual(lines(root, plan.locations), [11, 21, 31, 54]);
    assert.ok(plan.locations.every((l) => l.evidence === "exact"), JSON.stringify(plan.locations));
    const files = applyLocations(root, plan.locations, true);
    assert.match(files.get(FILE) ?? "", /pub fn num_ignores\(&self\) -> u64 \{\n {8}self\.ignore_count\n/);
    cargoCheck(root);
  });

  it("renaming the method leaves the field read `self.num_ignores` alone; cargo accepts it", async () => {
    const root = await indexed();
    const plan = await planRename({ root, target: targetAt(root, FILE, "rust", "fn num_ignores", "num_ignores"), newName: "ignore_count", allowHeuristic: true });
    // The definition and the two calls.
    assert.deepEqual(lines(root, plan.locations), [53, 65, 78]);
    const files = applyLocations(root, plan.locations, true);
    assert.match(files.get(FILE) ?? "", /pub fn ignore_count\(&self\) -> u64 \{\n {8}self\.num_ignores\n/);
    cargoCheck(root);
  });

  it("`Gitignore::empty()` in a file whose test module imports `super::Gitignore` is the file's own (no name-only locations)", async () => {
    const root = await indexed();
    const plan = await planRename({ root, target: targetAt(root, FILE, "rust", "fn empty", "empty"), newName: "blank" });
    assert.deepEqual(lines(root, plan.locations), [17, 80]);
    assert.ok(plan.locations.every((l) => l.evidence === "exact"), JSON.stringify(plan.locations));
    applyLocations(root, plan.locations, true);
    cargoCheck(root);
  });
});
