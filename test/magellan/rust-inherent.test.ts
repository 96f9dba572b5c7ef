/**
 * Rust method calls on `self` inside `impl Trait for T`: T's inherent method comes first, as
 * rustc picks it (fd's `impl Colorable for DirEntry { fn path(&self) { self.path() } }` was
 * resolved to itself, a false one-member cycle). Without an inherent one, the trait impl's own
 * method it is (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

const MAIN = `use std::path::Path;

pub trait Colorable {
    fn path(&self) -> &Path;
    fn name(&self) -> String;
}

pub struct DirEntry {
    p: std::path::PathBuf,
}

impl DirEntry {
    pub fn path(&self) -> &Path {
        &self.p
    }
}

impl Colorable for DirEntry {
    fn path(&self) -> &Path {
        self.path()
    }
    fn name(&self) -> String {
        self.label()
    }
}

impl DirEntry {
    fn label(&self) -> String {
        String::new()
    }
}

trait Shout {
    fn shout(&self) -> String;
    fn twice(&self) -> String;
}

impl Shout for DirEntry {
    fn shout(&self) -> String {
        String::new()
    }
    fn twice(&self) -> String {
        self.shout()
    }
}

fn main() {}
`;

it("Rust: self.m() in `impl Trait for T` is T's inherent m when there is one, else the impl's own", async () => {
  const root = writeTree(tempDir("magellan-inherent-"), { "Cargo.toml": '[package]\nname = "rt"\nversion = "0.1.0"\nedition = "2021"\n', "src/main.rs": MAIN });
  const r = await mg(root, ["index"]);
  assert.equal(r.r.code, 0, r.r.stdout);
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    // Each `self.` call: its caller's parent and the target's parent.
    const rows = d
      .prepare(
        `SELECT r.name, c.parent, t.parent, r.resolution FROM refs r JOIN symbols c ON c.symbol_id = r.caller_symbol_id
         JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE r.qualifier = 'self' AND r.kind = 'call' ORDER BY r.byte_start`,
      )
      .raw()
      .all();
    assert.deepEqual(rows, [
      ["path", "<DirEntry as Colorable>", "DirEntry", "exact"],
      // Not a member of the trait impl: DirEntry's own, from its other impl block (it was a
      // `heuristic` guess by name among the members in reach).
      ["label", "<DirEntry as Colorable>", "DirEntry", "exact"],
      ["shout", "<DirEntry as Shout>", "<DirEntry as Shout>", "exact"],
    ]);
  } finally {
    d.close();
  }
});
