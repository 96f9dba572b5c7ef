/**
 * A qualified name whose member is a JS/TS `#private` one (`Ky.#retry`, or the display_fqn the
 * tool prints, `k.Ky.#retry`) names it: the qualifier parser took `#` for a separator, looked up
 * `retry` and proposed an unrelated `export const retry` (on sindresorhus/ky, `constants.retry`).
 * Real tree-sitter, real SQLite.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

it("a qualified name accepts a #private member", async () => {
  const root = tempDir("magellan-private-");
  writeTree(root, {
    "k.ts": "export class Ky {\n  async #retry(): Promise<number> { return 1; }\n  retry2() { return this.#retry(); }\n}\nexport const retry = 3;\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  for (const name of ["Ky.#retry", "k.Ky.#retry"]) {
    const { r, env } = await mg(root, ["find", "--name", name]);
    assert.equal(r.code, 0, `${name}: ${r.stdout}`);
    assert.deepEqual((env.data.matches ?? []).map((m) => m.display_fqn), ["k.Ky.#retry"], name);
    const callers = (await mg(root, ["callers", "--name", name])).env.data.references ?? [];
    assert.deepEqual(callers.map((c) => c.caller), ["retry2"], name);
  }
  // A miss names the private member, not the unrelated `retry`.
  const miss = await mg(root, ["find", "--name", "Other.#retry"]);
  assert.equal(miss.r.code, 1);
  assert.match(String(miss.env.data.message), /symbols named '#retry': k\.Ky\.#retry/);
});
