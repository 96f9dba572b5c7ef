/**
 * Rust: a method a trait gives with a default body, called on a value of a type that implements
 * the trait without overriding it. `d.double()` on a known `Circle`, whose `impl Area for Circle`
 * has only `area`, was unresolved ("dynamic_receiver"), and `callers` of `Area::double` was
 * empty; the default body is what runs. A type that overrides it keeps its own (real tree-sitter,
 * real SQLite).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

it("Rust: a trait's default method called on a value of an implementing type is tied to the default; an override wins", async () => {
  const root = tempDir("magellan-rust-defaults-");
  writeTree(root, {
    "Cargo.toml": '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": [
      "pub mod circle;",
      "pub use circle::{Circle, Square};",
      "",
      "pub trait Area {",
      "    fn area(&self) -> f64;",
      "    fn double(&self) -> f64 { self.area() * 2.0 }",
      "}",
      "",
      "pub fn run() -> f64 {",
      "    let c = Circle::new(1.0);",
      "    let d = crate::circle::Circle::new(2.0);",
      "    let s = Square { a: 1.0 };",
      "    c.double() + d.double() + s.double()",
      "}",
      "",
    ].join("\n"),
    "src/circle.rs": [
      "use crate::Area;",
      "",
      "pub struct Circle { r: f64 }",
      "",
      "impl Circle {",
      "    pub fn new(r: f64) -> Self { Self { r } }",
      "}",
      "",
      "impl Area for Circle {",
      "    fn area(&self) -> f64 { 3.14 * self.r * self.r }",
      "}",
      "",
      "pub struct Square { pub a: f64 }",
      "",
      "impl Area for Square {",
      "    fn area(&self) -> f64 { self.a * self.a }",
      "    fn double(&self) -> f64 { 2.0 * self.area() }",
      "}",
      "",
    ].join("\n"),
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const lines = async (args: string[]): Promise<number[]> => {
    const { env } = await mg(root, args);
    return ((env.data as { references: { span: { file_path: string; start_line: number } }[] }).references ?? []).filter((r) => r.span.file_path === "src/lib.rs").map((r) => r.span.start_line);
  };
  const trait = (await mg(root, ["find", "--name", "Area.double"])).env.data as { matches: { symbol_id: string }[] };
  const over = (await mg(root, ["find", "--name", "double", "--path", "src/circle.rs"])).env.data as { matches: { symbol_id: string }[] };
  // c.double() and d.double() run the default; s.double() Square's own.
  assert.deepEqual(await lines(["refs", "--symbol-id", trait.matches[0]?.symbol_id as string]), [13, 13]);
  assert.deepEqual(await lines(["refs", "--symbol-id", over.matches[0]?.symbol_id as string]), [13]);
});
