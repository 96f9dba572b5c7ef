/**
 * Shapes from session 30's repositories (zoxide): each case is the smallest tree that showed the
 * fault.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

describe("session 30 shapes", () => {
  it("Rust: callers of a trait impl's method count the ambiguous calls that name the trait's method (zoxide's `Cmd::Add(cmd) => cmd.run()`)", async () => {
    const root = writeTree(tempDir("magellan-rust-dispatch-"), {
      "Cargo.toml": '[package]\nname = "z"\nversion = "0.1.0"\n',
      "src/main.rs": "mod cmd;\n\nuse crate::cmd::{Cmd, Run};\n\nfn main() {\n    let _ = Cmd::Add(cmd::Add).run();\n}\n",
      "src/cmd/mod.rs": [
        "mod add;",
        "pub use add::Add;",
        "",
        "pub trait Run {",
        "    fn run(&self) -> u8;",
        "}",
        "",
        "pub enum Cmd {",
        "    Add(Add),",
        "}",
        "",
        "impl Run for Cmd {",
        "    fn run(&self) -> u8 {",
        "        match self {",
        "            Cmd::Add(cmd) => cmd.run(),",
        "        }",
        "    }",
        "}",
        "",
      ].join("\n"),
      "src/cmd/add.rs": "use super::Run;\n\npub struct Add;\n\nimpl Run for Add {\n    fn run(&self) -> u8 {\n        1\n    }\n}\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const { env } = await mg(root, ["callers", "--name", "run", "--path", "src/cmd/add.rs"]);
    const overrides = env.data.overrides as { display_fqn: string; references: number; ambiguous?: number }[];
    const trait = overrides.find((o) => o.display_fqn === "crate::cmd::Run::run");
    assert.ok(trait, JSON.stringify(overrides));
    // Neither call is tied to the trait's method (each is ambiguous among the impls), yet both may
    // run through it: the answer counts them and warns, where it said only "no indexed reference
    // resolves to this symbol".
    assert.equal(trait.references, 0);
    assert.equal(trait.ambiguous, 2, JSON.stringify(overrides));
    const warning = env.diagnostics?.find((d) => d.code === "MAGELLAN_E115" && d.level === "warning");
    assert.ok(warning?.message.includes("2 ambiguous"), JSON.stringify(env.diagnostics));
  });
});
