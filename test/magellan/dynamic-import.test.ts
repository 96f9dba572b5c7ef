/**
 * Names taken from a dynamic import, `const {Foo} = await import("./a.js")` or `const m = await
 * import("./a.js"); m.Foo`, are bound as a static named import's are: the file imports them and
 * their uses resolve to the exported symbols. They were locals, so `refs --name Foo` said 0 with
 * coverage 1 (ky's test/retry.ts `const {HTTPError} = await import('../source/index.js')`).
 * Real tree-sitter, real SQLite.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { extractFacts } from "../../src/lang/extract.js";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

const B = "export async function f(e: unknown) {\n  const {Foo, helper: h} = await import('./a.js');\n  return e instanceof Foo && h() > 0;\n}\nexport async function g() {\n  const m = await import('./a.js');\n  return new m.Foo();\n}\n";

it("a destructured or bound dynamic import binds its names like a named import", async () => {
  const facts = extractFacts("typescript", new TextEncoder().encode(B));
  const named = facts.imports.find((i) => i.names.length > 0);
  assert.deepEqual(named?.names, [{ name: "Foo" }, { name: "helper", alias: "h" }]);
  assert.equal(facts.imports.find((i) => i.alias !== undefined)?.alias, "m");
  const root = tempDir("magellan-dynimport-");
  writeTree(root, {
    "a.ts": "export class Foo {}\nexport function helper(): number { return 1; }\n",
    "b.ts": B,
    "c.js": B.replace(/: unknown/, "").replace("./a.js", "./a.ts").replace("./a.js", "./a.ts"),
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const refs = (await mg(root, ["refs", "--name", "Foo"])).env.data.references ?? [];
  const uses = refs.filter((r) => r.reference_kind !== "import").map((r) => `${r.span.file_path}:${r.span.start_line} ${r.resolution}`);
  assert.deepEqual(uses.sort(), ["b.ts:3 imported", "b.ts:7 imported", "c.js:3 imported", "c.js:7 imported"]);
  const callers = (await mg(root, ["callers", "--name", "helper"])).env.data.references ?? [];
  assert.deepEqual(callers.map((r) => `${r.span.file_path}:${r.span.start_line} ${r.resolution}`).sort(), ["b.ts:3 imported", "c.js:3 imported"]);
});
