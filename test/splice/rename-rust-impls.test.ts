/**
 * A Rust type renamed through magellan's index (rust-analyzer does not run here) takes its impl
 * blocks with it (test/fixtures/splice-rename/rust-impls, ripgrep's grep-searcher `LineStep`:
 * `impl LineStep {…}`, `impl Default for LineStep`, a re-export in lib.rs, a `use` in another
 * module). The index holds an impl as a symbol named after its type, not as a reference to it,
 * so on ripgrep the rename changed every use but left `impl LineStep {` naming a type that no
 * longer exists; with ripgrep's dependencies out of reach cargo could not say so and the change
 * was written as `unchecked`. Here the crate has no dependency: real cargo checks the result.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { runTool } from "../support/run.js";
import { copyFixture } from "./rename-helpers.js";

it("Rust: renaming a struct renames its inherent and trait impl blocks", async () => {
  const root = copyFixture("rust-impls");
  const r = await runTool("splice", ["rename", "--file", "src/lines.rs", "--symbol", "LineStep", "--kind", "struct", "--to", "LineStepper", "--require-checker"], { cwd: root });
  const out = r.json as { status: string; result?: { validation: string; steps: { locations: { file: string; evidence: string }[] }[] } };
  assert.equal(out.status, "ok", r.stdout);
  assert.equal(out.result?.validation, "validated");
  assert.ok(out.result?.steps[0]?.locations.every((l) => l.evidence !== "heuristic"));
  const lines = readFileSync(join(root, "src/lines.rs"), "utf8");
  assert.match(lines, /\nimpl LineStepper \{\n/);
  assert.match(lines, /\nimpl Default for LineStepper \{\n/);
  assert.doesNotMatch(lines, /\bLineStep\b/);
  assert.match(readFileSync(join(root, "src/lib.rs"), "utf8"), /pub use crate::lines::\{LineIter, LineStepper\};/);
  assert.match(readFileSync(join(root, "src/searcher/mod.rs"), "utf8"), /let mut stepper = LineStepper::new\(/);
  const cargo = spawnSync("cargo", ["check", "--offline", "--all-targets", "--quiet"], { cwd: root, encoding: "utf8" });
  assert.equal(cargo.status, 0, cargo.stderr);
});
