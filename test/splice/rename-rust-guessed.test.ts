/**
 * Rust renames through magellan's index (rust-analyzer does not run here) of an inherent method
 * whose name a trait's method and a field share, shaped like anyhow's `Error::context`: the trait
 * `Context` has a `context` method, `ContextError` a `context` field read inside
 * `ptr::addr_of!(…)`, and the tests call `err!(…).context(…)` on the macro's value, whose type the
 * index does not know.
 *
 * Before: the two field reads inside the macro (a read without qualifier) were offered as the
 * method's name-only uses, and renamed with --allow-heuristic into a field that does not exist;
 * the test calls, which the index guessed to be the trait's, were neither renamed nor listed.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { indexTree } from "../../src/graph/ingest.js";
import { planRename } from "../../src/tools/splice/rename/index.js";
import { isToolError } from "./rename-errors.js";
import { targetAt } from "./rename-helpers.js";
import { tempDir, writeTree } from "../support/run.js";

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const CRATE: Record<string, string> = {
  "Cargo.toml": '[package]\nname = "mini"\nversion = "0.1.0"\nedition = "2021"\n',
  "src/lib.rs":
    "mod error;\n\npub use crate::error::Error;\n\n#[macro_export]\nmacro_rules! err {\n    ($msg:expr) => {\n        $crate::Error::msg($msg)\n    };\n}\n\npub trait Context<T> {\n    fn context(self, context: &'static str) -> Result<T, Error>;\n}\n\nimpl<T> Context<T> for Option<T> {\n    fn context(self, context: &'static str) -> Result<T, Error> {\n        self.ok_or_else(|| Error::msg(context))\n    }\n}\n",
  "src/error.rs":
    "use core::ptr;\n\npub struct Error {\n    msg: &'static str,\n}\n\npub(crate) struct ContextError {\n    pub context: &'static str,\n    pub error: Error,\n}\n\npub(crate) struct Boxed<C> {\n    pub _object: C,\n}\n\nimpl Error {\n    pub fn msg(msg: &'static str) -> Self {\n        Error { msg }\n    }\n\n    pub fn context(self, context: &'static str) -> Self {\n        let _ = self.msg;\n        Error { msg: context }\n    }\n}\n\npub(crate) fn context_of(b: &Boxed<ContextError>) -> *const &'static str {\n    unsafe { ptr::addr_of!((*(b as *const Boxed<ContextError>))._object.context) }\n}\n",
  "tests/test_chain.rs": 'use mini::err;\n\n#[test]\nfn chain() {\n    let e = err!("0").context("1").context("2");\n    let _ = e;\n}\n',
};

describe("splice rename, Rust fallback: an inherent method beside a trait method and a field of its name (anyhow's Error::context)", () => {
  it("lists the calls the index guessed to the trait's method as name-only, and never a field access inside a macro", async () => {
    const root = writeTree(tempDir("splice-rename-rust-guessed-"), CRATE);
    made.push(root);
    await indexTree({ root, dbPath: join(root, ".magellan", "code.db") });
    const target = targetAt(root, "src/error.rs", "rust", "pub fn context", "context");
    await assert.rejects(
      planRename({ root, target, newName: "wrap_context" }),
      (e: unknown) => isToolError(e, "SPLICE_E203", /would touch 2 location\(s\) tied to it by name only: tests\/test_chain\.rs:5, tests\/test_chain\.rs:5$/),
    );
    const plan = await planRename({ root, target, newName: "wrap_context", allowHeuristic: true });
    assert.equal(plan.engine, "magellan-index");
    const error = readFileSync(join(root, "src/error.rs"), "utf8");
    const fieldRead = error.indexOf("._object.context") + "._object.".length;
    assert.ok(!plan.locations.some((l) => l.file === "src/error.rs" && l.byte_start === fieldRead), JSON.stringify(plan.locations));
    assert.deepEqual(
      plan.locations.map((l) => `${l.file} ${l.evidence}`),
      ["src/error.rs exact", "tests/test_chain.rs heuristic", "tests/test_chain.rs heuristic"],
    );
  });
});
