/**
 * A local made by a class named with one capital (`const b = new B()`, Python `c = C()`) is of
 * that class, as `Beta` or `Cat` would be: one-capital names were all taken for type parameters,
 * and `b.go()` was `ambiguous` among every `go`. A real type parameter (`x: T` with no class T)
 * still says nothing. Real tree-sitter, real SQLite.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

const TREE: Record<string, string> = {
  "r.ts": `class A { go(): number { return 1; } }
class B { go(): number { return 2; } }
export function k2(): number { const b = new B(); return b.go(); }
export function k3<T extends A>(x: T): number { return x.go(); }
`,
  "s.py": "class C:\n    def go(self):\n        return 1\n\nclass D:\n    def go(self):\n        return 2\n\ndef n1():\n    c = C()\n    return c.go()\n",
};

it("a local made by a one-capital class is of that class; a type parameter still says nothing", async () => {
  const root = tempDir("magellan-letters-");
  writeTree(root, TREE);
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const callees = async (name: string): Promise<string[]> =>
    ((await mg(root, ["callees", "--name", name])).env.data.references ?? [])
      .filter((r) => r.referenced_symbol === "go")
      .map((r) => `${r.resolution} ${(r as { target_display_fqn?: string }).target_display_fqn ?? "-"}`);
  assert.deepEqual(await callees("r.k2"), ["exact r.B.go"]);
  assert.deepEqual(await callees("s.n1"), ["exact s.C.go"]);
  assert.deepEqual(await callees("r.k3"), ["ambiguous -"]);
});
