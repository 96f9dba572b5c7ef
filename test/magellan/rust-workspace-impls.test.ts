/**
 * Rust: a type's impls are in its own crate. In a cargo workspace two crates' types of one name
 * (ripgrep's RegexMatcher in crates/regex and crates/pcre2, DirEntry in crates/ignore and its
 * examples/walk.rs) had each other's methods: `RegexMatcher::new(..)` after `use
 * grep_regex::RegexMatcher` was `ambiguous` between both crates' `new` (100 calls on ripgrep).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { copyFixture, mg } from "./support.js";

it("Rust: `Type::new` through a workspace crate's re-export is that crate's impl's, not a same-named type's of another crate", async () => {
  const root = copyFixture("rust-workspace-impls");
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stderr);
  const callers = async (path: string) => {
    const { env } = await mg(root, ["callers", "--name", "RegexMatcher::new", "--path", path]);
    return (env.data.references ?? []).map((x) => `${x.span.file_path}:${x.span.start_line} ${x.resolution}`);
  };
  // crates/c uses grep_a's, by the full path and through `use grep_a::RegexMatcher` in its tests.
  assert.deepEqual(await callers("crates/a/src/matcher.rs"), ["crates/c/src/lib.rs:2 imported", "crates/c/src/lib.rs:11 imported"]);
  // grep_b's is called by no one; its example's own type has its own call.
  assert.deepEqual(await callers("crates/b/src/matcher.rs"), []);
  assert.deepEqual(await callers("crates/b/examples/walk.rs"), ["crates/b/examples/walk.rs:11 exact"]);
});
