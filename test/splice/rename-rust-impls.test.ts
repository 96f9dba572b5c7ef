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
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { runTool } from "../support/run.js";
import { rustCompiledFiles } from "../../src/tools/splice/rename/fallback.js";
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

it("Rust: a .rs file that no target compiles (test data) is left alone by a rename", async () => {
  const root = copyFixture("rust-impls");
  // bat's tests/syntax-tests/source/Rust/output.rs: input for the highlighter, in no mod tree.
  mkdirSync(join(root, "tests/syntax/source"), { recursive: true });
  const data = "use crate::lines::LineStep;\n\nfn step(s: LineStep) -> LineStep {\n    s\n}\n";
  writeFileSync(join(root, "tests/syntax/source/lines.rs"), data);
  writeFileSync(join(root, "tests/it.rs"), "mod common;\n\nuse grep_searcher::LineStep;\n\n#[test]\nfn steps() {\n    common::check(LineStep::new(b'\\n', 0, 1));\n}\n");
  mkdirSync(join(root, "tests/common"));
  writeFileSync(join(root, "tests/common/mod.rs"), "pub fn check(_s: grep_searcher::LineStep) {}\n");
  const compiled = rustCompiledFiles(root);
  assert.deepEqual([...(compiled ?? [])].map((f) => f.slice(root.length + 1)).sort(), ["src/lib.rs", "src/lines.rs", "src/searcher/mod.rs", "tests/common/mod.rs", "tests/it.rs"]);
  const r = await runTool("splice", ["rename", "--file", "src/lines.rs", "--symbol", "LineStep", "--kind", "struct", "--to", "LineStepper", "--allow-heuristic", "--require-checker"], { cwd: root });
  const out = r.json as { status: string; result?: { validation: string } };
  assert.equal(out.status, "ok", r.stdout);
  assert.equal(out.result?.validation, "validated");
  assert.equal(readFileSync(join(root, "tests/syntax/source/lines.rs"), "utf8"), data);
  assert.match(readFileSync(join(root, "tests/it.rs"), "utf8"), /use grep_searcher::LineStepper;/);
  assert.match(readFileSync(join(root, "tests/common/mod.rs"), "utf8"), /_s: grep_searcher::LineStepper\)/);
});

// ripgrep's `Stats` (grep-printer): `struct Stats` and `impl Stats` are two symbols of one name.
// Without --kind the rename was "matches 2 symbols" (Struct, Impl); with --kind impl it renamed
// the `impl Stats` header and the other files' uses and left `struct Stats`, `-> Stats` and
// `Stats::default()` on the old name, `unchecked` there (cargo offline), so nothing said so.
for (const kind of [[], ["--kind", "impl"]]) {
  it(`Rust: a rename of a type's name ${kind.length ? "given as its impl block" : "without --kind"} renames the type with its impl blocks`, async () => {
    const root = copyFixture("rust-impls");
    const r = await runTool("splice", ["rename", "--file", "src/lines.rs", "--symbol", "LineStep", ...kind, "--to", "LineStepper", "--require-checker"], { cwd: root });
    const out = r.json as { status: string; result?: { validation: string; steps: { symbol: { kind: string } }[] } };
    assert.equal(out.status, "ok", r.stdout);
    assert.equal(out.result?.steps[0]?.symbol.kind, "Struct");
    assert.equal(out.result?.validation, "validated");
    const lines = readFileSync(join(root, "src/lines.rs"), "utf8");
    assert.match(lines, /\npub struct LineStepper \{\n/);
    assert.match(lines, /\nimpl LineStepper \{\n/);
    assert.doesNotMatch(lines, /\bLineStep\b/);
    const cargo = spawnSync("cargo", ["check", "--offline", "--all-targets", "--quiet"], { cwd: root, encoding: "utf8" });
    assert.equal(cargo.status, 0, cargo.stderr);
  });
}

it("Rust: a trait impl block (`<T as Trait>`) is no name to rename: refused, naming the type and the trait", async () => {
  const root = copyFixture("rust-impls");
  const before = readFileSync(join(root, "src/lines.rs"), "utf8");
  const r = await runTool("splice", ["rename", "--file", "src/lines.rs", "--symbol", "<LineStep as Default>", "--to", "Fallback"], { cwd: root });
  const out = r.json as { status: string; error?: { code: string; message: string; remediation: string } };
  assert.equal(out.status, "error", r.stdout);
  assert.equal(out.error?.code, "SPLICE_E205");
  assert.match(out.error?.message ?? "", /src\/lines\.rs:\d+: an impl block \(<LineStep as Default>\) has no name of its own/);
  assert.match(out.error?.remediation ?? "", /the type LineStep or the trait Default/);
  assert.equal(readFileSync(join(root, "src/lines.rs"), "utf8"), before);
});
