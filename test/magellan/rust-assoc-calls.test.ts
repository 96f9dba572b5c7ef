/**
 * Rust: `x.stdout()` calls a method, never an associated function without a `self` parameter
 * (`fn stdout() -> Self`), which only a path through its type reaches (`OutputType::stdout()`).
 * bat's 249 `lessopen_command.stdout(Stdio::piped())`-like calls on std/execute commands were
 * `ambiguous` between its `OutputType::stdout()` and a copy in the syntax tests.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { indexed, mg } from "./support.js";

interface Ref {
  span: { file_path: string; start_line: number };
  reference_kind: string;
  resolution: string;
  target_symbol_id?: string;
  candidates?: string[];
}

async function refsOf(root: string, name: string): Promise<Ref[]> {
  const { r, env } = await mg(root, ["refs", "--name", name]);
  assert.equal(r.code, 0, r.stdout);
  return (env.data as unknown as { references: Ref[] }).references;
}

test("a method call through a value never names an associated function without self; a path through the type does", async () => {
  const root = await indexed("rust-assoc");
  const stdout = await refsOf(root, "OutputType::stdout");
  const lines = stdout.filter((x) => x.reference_kind === "call").map((x) => `${x.span.file_path}:${x.span.start_line} ${x.resolution}`);
  // OutputType::stdout() and crate::output::OutputType::stdout(), not lessopen_command.stdout(..).
  assert.deepEqual(lines.sort(), ["src/main.rs:16 imported", "src/main.rs:17 exact"]);
  // Methods with `&mut self` and `self: &Self` stay reachable through a value.
  for (const name of ["OutputType::handle", "OutputType::code"]) {
    const calls = (await refsOf(root, name)).filter((x) => x.reference_kind === "call" && x.span.start_line === 12);
    assert.equal(calls.length, 1, `${name}: ${JSON.stringify(calls)}`);
    assert.ok(calls[0]?.target_symbol_id !== undefined, JSON.stringify(calls));
  }
});
