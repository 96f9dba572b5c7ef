/**
 * References into libraries are not guessed into the repository: a Go type reference through a
 * library package (cobra's `*flag.Flag`, pflag's type) was a `heuristic` reference to the method
 * `Command.Flag`, and Rust paths through other crates (fd's `use std::path::Path`,
 * `ignore::Error::Partial`) to the field `Opts::path` and the variant `WorkerResult::Error`. Real
 * tree-sitter, real SQLite.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

function resolved(root: string): string[] {
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    return d
      .prepare(
        `SELECT f.path || ':' || r.start_line || ' ' || coalesce(r.qualifier || '.', '') || r.name || ' ' || r.kind || ' ' || r.resolution || ' ' || coalesce(t.display_fqn, '-')
         FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id
         WHERE r.resolution != 'unresolved' ORDER BY f.path, r.byte_start`,
      )
      .pluck()
      .all() as string[];
  } finally {
    d.close();
  }
}

it("a type reference through a Go library package names no method or field of the repository", async () => {
  const root = writeTree(tempDir("magellan-go-lib-"), {
    "go.mod": "module example.com/c\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.5\n",
    "command.go":
      'package cobra\n\nimport (\n\tflag "github.com/spf13/pflag"\n)\n\ntype Command struct {\n\tName string\n}\n\ntype Flag struct{}\n\nfunc (c *Command) Flag(name string) (f *flag.Flag) { return nil }\n\nfunc local() *Flag { return nil }\n',
  });
  const r = await mg(root, ["index"]);
  assert.equal(r.r.code, 0, r.r.stdout);
  // Only the package's own types are reached (Flag on line 15); flag.Flag (line 13) is pflag's.
  assert.deepEqual(resolved(root), ["command.go:13 Command type exact Command", "command.go:15 Flag type exact Flag"]);
});

it("a Rust path through the standard library or a Cargo dependency names nothing of the crate", async () => {
  const root = writeTree(tempDir("magellan-rust-lib-"), {
    "Cargo.toml": '[package]\nname = "rfl"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nignore = "0.4"\n\n[dev-dependencies.regex-syntax]\nversion = "1"\n',
    "src/main.rs":
      "use std::path::Path;\npub struct Opts { pub path: String }\npub enum W { Error(String) }\nfn r(x: Result<(), ignore::Error>) -> bool {\n    match x { Err(ignore::Error::Partial(_)) => true, Err(W::Error(_)) => false, _ => regex_syntax::is_word_byte(0) }\n}\nfn main() { let _p = Path::new(\"x\"); }\n",
  });
  const r = await mg(root, ["index"]);
  assert.equal(r.r.code, 0, r.r.stdout);
  // The crate's own enum is still reached through its own path.
  assert.deepEqual(resolved(root), ["src/main.rs:5 W.Error read exact crate::W::Error", "src/main.rs:5 W read exact crate::W"].sort());
});

it("a Rust path through a workspace crate (a path dependency) reaches that crate's item, through its root's `pub use`", async () => {
  // ripgrep's shape: the core crate writes `ignore::WalkBuilder` and `use globset::Glob` for the
  // workspace's crates/ignore and crates/globset, whose lib.rs re-export their modules' items.
  const root = writeTree(tempDir("magellan-rust-ws-"), {
    "Cargo.toml":
      '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\nmembers = ["crates/walker", "crates/globs"]\n\n[workspace.dependencies]\nglobs = { path = "crates/globs" }\n\n[dependencies]\nwalker = { version = "0.4", path = "crates/walker" }\nglobs.workspace = true\nregex = "1"\n',
    "crates/walker/Cargo.toml": '[package]\nname = "walker"\nversion = "0.4.0"\nedition = "2021"\n',
    "crates/walker/src/lib.rs": "mod walk;\npub use crate::walk::{WalkBuilder, WalkState};\n",
    "crates/walker/src/walk.rs":
      "pub struct WalkBuilder { depth: usize }\nimpl WalkBuilder {\n    pub fn new(_p: &str) -> WalkBuilder { WalkBuilder { depth: 0 } }\n}\npub enum WalkState { Continue, Quit }\n",
    "crates/globs/Cargo.toml": '[package]\nname = "globs"\nversion = "0.1.0"\nedition = "2021"\n',
    "crates/globs/src/lib.rs": "pub struct Glob;\nimpl Glob {\n    pub fn new(_s: &str) -> Glob { Glob }\n}\n",
    "src/main.rs":
      'use globs::Glob;\nfn make() -> walker::WalkBuilder {\n    walker::WalkBuilder::new(".")\n}\nfn main() {\n    let _g = Glob::new("*.rs");\n    let _w = make();\n    let _s = walker::WalkState::Quit;\n    let _r = regex::Regex::new("x");\n}\n',
  });
  const r = await mg(root, ["index"]);
  assert.equal(r.r.code, 0, r.r.stdout);
  const main = resolved(root).filter((x) => x.startsWith("src/main.rs"));
  for (const want of [
    "src/main.rs:1 globs.Glob import imported crate::Glob",
    "src/main.rs:2 walker.WalkBuilder type imported crate::walk::WalkBuilder",
    "src/main.rs:3 walker::WalkBuilder.new call imported crate::walk::WalkBuilder::new",
    "src/main.rs:6 Glob.new call imported crate::Glob::new",
    "src/main.rs:8 walker::WalkState.Quit read imported crate::walk::WalkState::Quit",
  ]) {
    assert.ok(main.includes(want), `${want}\n${main.join("\n")}`);
  }
  // A registry dependency's path still names nothing of the repository.
  assert.ok(!main.some((x) => /Regex|regex/.test(x)), main.join("\n"));
});
