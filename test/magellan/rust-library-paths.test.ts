/**
 * A Rust call through a path to a library type (`tempfile::Builder::new()`, fd's tests) is the
 * library's: it stays unresolved rather than going to the repository's only `new`
 * (`TestEnv::new`), as `Builder::new()` after `use tempfile::Builder` already did. Once the
 * repository declares a `Builder`, an incremental run must end with a rebuild's graph (real
 * tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg, refLines, withIndex } from "./support.js";

const TESTENV = `pub struct TestEnv {
    dir: String,
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let temp_dir = tempfile::Builder::new().prefix("fd-tests").tempdir().unwrap();
        let cmd = std::process::Command::new("fd");
        let file = std::fs::File::open("fd.toml");
        TestEnv { dir: String::new() }
    }

    pub fn open(&self) {}
}
`;

it("Rust: a call through a path to a library type is unresolved, not the repository's same-named function", async () => {
  const root = writeTree(tempDir("magellan-rust-paths-"), {
    "Cargo.toml": '[package]\nname = "fdt"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/main.rs": "fn main() {}\n",
    "tests/testenv/mod.rs": TESTENV,
    "tests/tests.rs": "mod testenv;\n\n#[test]\nfn runs() {\n    let te = testenv::TestEnv::new();\n}\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const db = join(root, ".magellan", "code.db");
  const calls = (name = "new"): [string, string | null, string][] => {
    const d = new Database(db, { readonly: true });
    try {
      return d
        .prepare(
          `SELECT r.qualifier, t.display_fqn, r.resolution FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id
           WHERE r.name = ? AND r.kind = 'call' ORDER BY f.path, r.byte_start`,
        )
        .raw()
        .all(name) as [string, string | null, string][];
    } finally {
      d.close();
    }
  };
  assert.deepEqual(calls(), [
    ["tempfile::Builder", null, "unresolved"],
    ["std::process::Command", null, "unresolved"],
    ["String", null, "unresolved"],
    // `mod testenv;` in tests.rs: the path is relative to that module, so the type is known.
    ["testenv::TestEnv", "crate::testenv::TestEnv::new", "exact"],
  ]);
  assert.deepEqual(calls("open"), [["std::fs::File", null, "unresolved"]]);
  // The repository declares a Builder and a File now: a path's last segment may name one of its
  // types (tempfile is no dependency the Cargo.toml declares), but never through the standard
  // library (`std::fs::File` is std's File, whatever the crate declares).
  writeFileSync(join(root, "src/main.rs"), "pub struct Builder;\n\nimpl Builder {\n    pub fn new() -> Builder {\n        Builder\n    }\n}\n\npub struct File;\n\nfn main() {}\n");
  await assertIncrementalMatchesRebuild(root, "types-came");
  assert.notDeepEqual(calls()[0], ["tempfile::Builder", null, "unresolved"]);
  assert.deepEqual(calls("open"), [["std::fs::File", null, "unresolved"]]);
});

it("Rust: `use crate::Item` in a module reaches the item in the crate root (hexyl's lib.rs), also once the item is added later", async () => {
  const root = writeTree(tempDir("magellan-rust-crate-item-"), {
    "Cargo.toml": '[package]\nname = "hexy"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": "pub mod colors;\npub struct LibItem;\n",
    "src/colors.rs": "use crate::LibItem;\nuse crate::Later;\npub fn paint(_x: LibItem) -> LibItem {\n    LibItem\n}\npub fn later() -> Later {\n    Later\n}\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const rows = (): string[] => {
    const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
    try {
      return d
        .prepare("SELECT r.name || ' ' || r.kind || ' ' || r.resolution || ' ' || coalesce(t.display_fqn, '-') FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE f.path = 'src/colors.rs' AND r.name IN ('LibItem', 'Later') ORDER BY r.byte_start")
        .pluck()
        .all() as string[];
    } finally {
      d.close();
    }
  };
  assert.deepEqual(rows().filter((r) => r.startsWith("LibItem")), ["LibItem import imported crate::LibItem", "LibItem type imported crate::LibItem", "LibItem type imported crate::LibItem", "LibItem read imported crate::LibItem"]);
  assert.ok(rows().filter((r) => r.startsWith("Later")).every((r) => r.endsWith("unresolved -")), rows().join("\n"));
  writeFileSync(join(root, "src/lib.rs"), "pub mod colors;\npub struct LibItem;\npub struct Later;\n");
  await assertIncrementalMatchesRebuild(root, "item added to the crate root");
  assert.ok(rows().filter((r) => r.startsWith("Later")).every((r) => r.endsWith("imported crate::Later")), rows().join("\n"));
});

it("Rust: a bare `use a::Foo` is relative to the module (an inline `mod a`, or a module file), unless its head is another crate", async () => {
  const root = writeTree(tempDir("magellan-rust-relative-use-"), {
    "Cargo.toml": '[package]\nname = "rua"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nserde = "1"\n',
    "src/main.rs":
      "mod a {\n    pub struct Foo;\n    impl Foo {\n        pub fn new() -> Self { Foo }\n    }\n}\nmod b;\nuse a::Foo;\nuse b::Bar;\nuse serde::Deserialize;\nfn main() {\n    Foo::new();\n    Bar::make();\n}\n",
    "src/b.rs": "pub struct Deserialize;\npub struct Bar;\nimpl Bar {\n    pub fn make() -> Self { Bar }\n}\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    const rows = d
      .prepare(
        `SELECT r.start_line || ' ' || r.name || ' ' || r.kind || ' ' || r.resolution || ' ' || coalesce(t.display_fqn, '-') FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE f.path = 'src/main.rs' AND r.start_line >= 8 ORDER BY r.byte_start`,
      )
      .pluck()
      .all();
    assert.deepEqual(rows, [
      "8 Foo import imported crate::a::Foo",
      "9 Bar import imported crate::b::Bar",
      // serde's Deserialize, not the crate's own b::Deserialize.
      "10 Deserialize import unresolved -",
      "12 Foo read exact crate::a::Foo",
      "12 new call imported crate::a::Foo::new",
      "13 Bar read imported crate::b::Bar",
      "13 make call imported crate::b::Bar::make",
    ]);
  } finally {
    d.close();
  }
});

it("Rust: a path through a child module (`output::print()` beside `mod output;`) is the module's item, in this crate only", async () => {
  const root = writeTree(tempDir("magellan-rust-child-path-"), {
    "Cargo.toml": '[workspace]\nmembers = ["app", "other"]\n',
    "app/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n',
    // bat's build/main.rs, ripgrep's core: `mod x;` then `x::f()`, no `use`.
    "app/src/main.rs": "mod output;\nmod nested;\nuse std::error;\n\nfn check<E: error::Error>(_e: E) {}\n\nfn main() {\n    output::print(1);\n    nested::inner::deep();\n    helpers::missing();\n}\n",
    "app/src/output.rs": "pub fn print(n: u32) {\n    let _ = n;\n}\n",
    "app/src/nested.rs": "pub mod inner;\n",
    "app/src/nested/inner.rs": "pub fn deep() {}\n",
    // Another crate of the workspace has a `crate::error::Error` and a `crate::output::print` too.
    "other/Cargo.toml": '[package]\nname = "other"\nversion = "0.1.0"\nedition = "2021"\n',
    "other/src/lib.rs": "pub mod error;\npub mod output;\n",
    "other/src/error.rs": "pub struct Error;\n",
    "other/src/output.rs": "pub fn print(n: u32) {\n    let _ = n;\n}\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const rows = (): string[] =>
    withIndex(root, (d) =>
      (
        d
          .prepare(
            `SELECT r.qualifier, r.name, r.resolution, tf.path FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id
             LEFT JOIN files tf ON tf.id = t.file_id WHERE f.path = 'app/src/main.rs' AND r.qualifier IS NOT NULL AND r.kind <> 'import' ORDER BY r.byte_start`,
          )
          .raw()
          .all() as (string | null)[][]
      ).map((r) => r.join(" ")),
    );
  assert.deepEqual(rows(), [
    // std's, though the workspace's other crate has a `crate::error::Error`.
    "error Error unresolved ",
    "output print exact app/src/output.rs",
    "nested inner exact app/src/nested.rs",
    "nested::inner deep exact app/src/nested/inner.rs",
    "helpers missing unresolved ",
  ]);
  writeFileSync(join(root, "app/src/output.rs"), "pub fn print(n: u32) {\n    let _ = n;\n}\n\npub fn more() {}\n");
  await assertIncrementalMatchesRebuild(root, "child-changed");
  assert.equal(rows()[1], "output print exact app/src/output.rs");
});

it("Rust: a re-exported type's associated functions, a mod.rs's `pub use child::item`, and `self.m()` of a trait impl in another impl block", async () => {
  const root = writeTree(tempDir("magellan-rust-reexported-"), {
    "Cargo.toml": '[package]\nname = "rs2"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": "pub mod config;\npub mod engine;\npub mod other;\npub use engine::Engine;\n",
    // config/mod.rs re-exports from its child module config/parse.rs (looked for as src/parse.rs).
    "src/config/mod.rs": "mod parse;\npub use parse::parse_line;\npub struct Config;\n",
    "src/config/parse.rs": "pub fn parse_line(s: &str) -> usize {\n    s.len()\n}\n",
    "src/engine.rs":
      "use crate::config::{self, Config};\npub trait Runner {\n    fn run(&self) -> usize;\n}\npub struct Engine;\nimpl Engine {\n    pub fn new(_c: Config) -> Self {\n        Engine\n    }\n    pub fn start(&self) -> usize {\n        self.run() + config::parse_line(\"x\")\n    }\n}\nimpl Runner for Engine {\n    fn run(&self) -> usize {\n        1\n    }\n}\n",
    // Another `run` of another type, and another trait's: name-only guesses had three to choose from.
    "src/other.rs": "pub struct Other;\nimpl crate::engine::Runner for Other {\n    fn run(&self) -> usize {\n        2\n    }\n}\n",
    "src/main.rs": "use rs2::config::Config;\nuse rs2::Engine;\nfn main() {\n    let e = Engine::new(Config);\n    e.start();\n}\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  assert.deepEqual(refLines(root, "r.kind = 'call' AND r.name IN ('new', 'run', 'parse_line')"), [
    "src/engine.rs:11 self.run exact crate::engine::<Engine as Runner>::run",
    "src/engine.rs:11 config.parse_line imported crate::config::parse::parse_line",
    "src/main.rs:4 Engine.new imported crate::engine::Engine::new",
  ]);
});
