/**
 * A Rust crate whose root file Cargo.toml declares outside `src/` (ripgrep's `[[bin]] path =
 * "crates/core/main.rs"`): `crate::`, `super::` and `use crate::flags::HiArgs` start from that
 * root. They were looked for at the repository's top (no `src/` above the file), and each of the
 * rg binary's 1,723 such references was unresolved (real tree-sitter, real SQLite). A call
 * through such a path (`crate::messages::set_messages(..)`) looked for `crate::messages::...`
 * among display names that are `crate::crates::core::messages::...` and stayed unresolved.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { copyFixture, mg, refLines } from "./support.js";

it("Rust: crate:: and super:: paths start from a [[bin]] path's crate root outside src/", async () => {
  const root = copyFixture("rust-bin-path");
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  let rows: [string, number, string, string | null, string][];
  let searchCall: unknown;
  try {
    // `crate::search()` calls the function, not the `mod search;` of the same path: a call names no module.
    searchCall = d
      .prepare(
        `SELECT r.start_line, substr(t.canonical_fqn, instr(t.canonical_fqn, '::') + 2), r.resolution FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id
         WHERE f.path = 'crates/core/main.rs' AND r.name = 'search' AND r.kind = 'call'`,
      )
      .raw()
      .all();
    rows = d
      .prepare(
        `SELECT f.path, r.start_line, r.name, substr(t.canonical_fqn, instr(t.canonical_fqn, '::') + 2), r.resolution FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id
         WHERE f.path LIKE 'crates/core/%' AND r.name IN ('HiArgs', 'SearchMode', 'search_all', 'reset', 'new', 'defaults')
         ORDER BY f.path, r.byte_start`,
      )
      .raw()
      .all() as [string, number, string, string | null, string][];
  } finally {
    d.close();
  }
  assert.deepEqual(searchCall, [[19, "crates/core/main.rs::Function search", "exact"]]);
  const fqn = (path: string, what: string): string => `${path}::${what}`;
  // The library crate's same-named HiArgs and search_all are never the targets.
  const HIARGS = fqn("crates/core/flags/hiargs.rs", "Struct HiArgs");
  const MODE = fqn("crates/core/flags/mod.rs", "Enum SearchMode");
  const SEARCH_ALL = fqn("crates/core/search.rs", "Function search_all");
  const DEFAULTS = fqn("crates/core/flags/mod.rs", "Function defaults");
  assert.deepEqual(rows, [
    ["crates/core/flags/hiargs.rs", 1, "SearchMode", MODE, "imported"],
    ["crates/core/flags/hiargs.rs", 5, "SearchMode", MODE, "imported"],
    ["crates/core/flags/hiargs.rs", 9, "HiArgs", HIARGS, "exact"],
    ["crates/core/flags/hiargs.rs", 10, "HiArgs", HIARGS, "exact"],
    ["crates/core/flags/mod.rs", 1, "HiArgs", HIARGS, "imported"],
    ["crates/core/flags/mod.rs", 11, "HiArgs", HIARGS, "imported"],
    ["crates/core/flags/mod.rs", 12, "reset", fqn("crates/core/search.rs", "Function reset"), "exact"],
    ["crates/core/flags/mod.rs", 13, "HiArgs", HIARGS, "imported"],
    ["crates/core/flags/mod.rs", 13, "new", fqn("crates/core/flags/hiargs.rs", "Method HiArgs::new"), "imported"],
    ["crates/core/main.rs", 1, "defaults", DEFAULTS, "imported"],
    ["crates/core/main.rs", 1, "SearchMode", MODE, "imported"],
    ["crates/core/main.rs", 2, "search_all", SEARCH_ALL, "imported"],
    ["crates/core/main.rs", 8, "defaults", DEFAULTS, "imported"],
    ["crates/core/main.rs", 9, "SearchMode", MODE, "imported"],
    ["crates/core/main.rs", 12, "SearchMode", MODE, "imported"],
    ["crates/core/main.rs", 13, "search_all", SEARCH_ALL, "imported"],
    // A call through a crate:: path names its target's module: crate is the declared root's.
    ["crates/core/main.rs", 17, "reset", fqn("crates/core/search.rs", "Function reset"), "exact"],
    ["crates/core/main.rs", 18, "defaults", DEFAULTS, "exact"],
    ["crates/core/search.rs", 1, "SearchMode", MODE, "imported"],
    ["crates/core/search.rs", 3, "SearchMode", MODE, "imported"],
  ]);
});

it("Rust: a build script declared by [package] build = \"build/main.rs\" is a crate root: its crate:: paths start there (bat's build/application.rs)", async () => {
  const root = writeTree(tempDir("magellan-rust-build-"), {
    "Cargo.toml": '[package]\nname = "bat"\nversion = "0.1.0"\nbuild = "build/main.rs"\n',
    "src/lib.rs": "pub fn render_template() {}\n",
    "build/main.rs": "mod application;\nmod util;\n\nfn main() {\n    application::gen();\n}\n",
    "build/util.rs": "pub fn render_template() {}\n",
    "build/application.rs": "use crate::util::render_template;\n\npub fn gen() {\n    render_template();\n}\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  assert.deepEqual(refLines(root, "r.name = 'render_template'"), [
    "build/application.rs:1 crate::util.render_template imported crate::build::util::render_template",
    "build/application.rs:4 .render_template imported crate::build::util::render_template",
  ]);
});
