/**
 * Rust renames through magellan's index (rust-analyzer does not run here) of a field that
 * shorthand struct literals and patterns name, shaped like bat's src/vscreen.rs:
 * `EscapeSequenceOffsetsIterator { text, chars: … }`, `Self { text, … }`, `let
 * EscapeSequenceOffsetsIterator { text, .. } = self`, beside another struct with a field `text`
 * built and taken apart the same way.
 *
 * Before: the shorthands were left (the index ties `text` there to the variable only), so the
 * renamed field's struct no longer compiled ("struct has no field named `text`"); with cargo
 * offline the result said `unchecked` and nothing more.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { indexTree } from "../../src/graph/ingest.js";
import { planRename } from "../../src/tools/splice/rename/index.js";
import { applyLocations, copyFixture, targetAt } from "./rename-helpers.js";

const FILE = "src/vscreen.rs";
const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe("splice rename, Rust fallback: a field named by shorthand literals and patterns (bat's vscreen)", () => {
  it("writes `new: old` in the field's own struct's shorthands only; cargo accepts the result", async () => {
    const root = copyFixture("rust-shorthand");
    made.push(root);
    await indexTree({ root, dbPath: join(root, ".magellan", "code.db") });
    const target = targetAt(root, FILE, "rust", "    text: &'a str,\n    chars", "text");
    const plan = await planRename({ root, target, newName: "source" });
    assert.equal(plan.engine, "magellan-index");
    const before = readFileSync(join(root, FILE), "utf8");
    const after = applyLocations(root, plan.locations, true).get(FILE) ?? "";
    const expected = before
      .replace("    text: &'a str,\n    chars", "    source: &'a str,\n    chars")
      .replace("EscapeSequenceOffsetsIterator {\n            text,", "EscapeSequenceOffsetsIterator {\n            source: text,")
      .replace("Self {\n            text,", "Self {\n            source: text,")
      .replace("let text = self.text;", "let text = self.source;")
      .replace("let EscapeSequenceOffsetsIterator { text, .. } = self;", "let EscapeSequenceOffsetsIterator { source: text, .. } = self;")
      .replace("let end = self.text.len();", "let end = self.source.len();");
    assert.equal(after, expected);
    const r = spawnSync("cargo", ["check", "--offline", "--quiet"], { cwd: root, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
  });
});
