/**
 * Rust: `macro_rules!` macros of the package are tied to their uses, which the module rules do
 * not reach: `#[macro_use] mod macros;` makes a macro visible to the rest of the crate, and
 * `#[macro_export]` puts it at the crate root, where the package's tests name it `mylib::shout!` or
 * import it with `use mylib::shout`. rust-lang/log's `info!` had no reference, its uses called
 * unresolved imports. Another crate's path (`other::shout!`) is not this macro (real tree-sitter,
 * real SQLite).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

it("Rust: a package's macro_rules! macro is tied to its invocations and imports in the crate and its tests", async () => {
  const root = tempDir("magellan-rust-macros-");
  writeTree(root, {
    "Cargo.toml": '[package]\nname = "mylib"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": "#[macro_use]\nmod macros;\n\npub fn hello() -> u32 { 1 }\n\npub fn inner() -> u32 { shout!(2) }\n",
    "src/macros.rs": "#[macro_export]\nmacro_rules! shout {\n    ($x:expr) => { $x + 1 };\n}\n",
    "tests/t.rs": "use mylib::{hello, shout};\n\n#[test]\nfn t() {\n    assert_eq!(hello(), 1);\n    assert_eq!(shout!(1), 2);\n    assert_eq!(mylib::shout!(1), 2);\n    other::shout!(3);\n}\n",
    // A package inside the repository that depends on it by path, as log's test_max_level_features.
    "tool/Cargo.toml": '[package]\nname = "tool"\nversion = "0.1.0"\nedition = "2021"\n\n[[bin]]\nname = "tool"\npath = "main.rs"\n\n[dependencies.mylib]\npath = ".."\n',
    "tool/main.rs": "use mylib::shout;\n\nfn main() {\n    println!(\"{}\", shout!(1));\n}\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const { env } = await mg(root, ["refs", "--name", "shout"]);
  const data = env.data as unknown as { references: { span: { file_path: string; start_line: number } }[] };
  assert.deepEqual(
    data.references.map((r) => `${r.span.file_path}:${r.span.start_line}`),
    ["src/lib.rs:6", "tests/t.rs:1", "tests/t.rs:6", "tests/t.rs:7", "tool/main.rs:1", "tool/main.rs:4"],
    "other::shout! (line 8) is another crate's",
  );
});
