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

  it("Python: a local made by calling a parameter typed with a class that has `__call__` has what `__call__` returns (starlette's test_client_factory)", async () => {
    const root = writeTree(tempDir("magellan-py-call-protocol-"), {
      "pkg/__init__.py": "",
      "pkg/requests.py": "class Request:\n    async def json(self) -> dict:\n        return {}\n",
      "pkg/testclient.py": "import httpx\n\n\nclass TestClient(httpx.Client):\n    def get(self, url: str) -> httpx.Response:\n        return super().get(url)\n",
      "tests/__init__.py": "",
      "tests/types.py": [
        "from typing import Protocol",
        "",
        "from pkg.testclient import TestClient",
        "",
        "",
        "class TestClientFactory(Protocol):",
        "    def __call__(self, app: object) -> TestClient: ...",
        "",
      ].join("\n"),
      "tests/test_session.py": [
        "from tests.types import TestClientFactory",
        "",
        "",
        "def test_session(test_client_factory: TestClientFactory) -> None:",
        "    client = test_client_factory(object())",
        "    response = client.get(\"/view_session\")",
        "    assert response.json() == {}",
        "",
      ].join("\n"),
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const refs = (await mg(root, ["refs", "--name", "test_session", "--direction", "out"])).env.data.references as { referenced_symbol: string; resolution: string; target_display_fqn?: string }[];
    const get = refs.find((r) => r.referenced_symbol === "get");
    assert.equal(get?.target_display_fqn, "pkg.testclient.TestClient.get", JSON.stringify(refs));
    // httpx.Response.json, a library's: not Request.json by its name.
    const json = (await mg(root, ["callers", "--name", "Request.json"])).env.data.references as unknown[];
    assert.deepEqual(json, []);
  });
});
