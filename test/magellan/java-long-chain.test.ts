/**
 * A call at the end of a builder chain longer than 200 characters (javapoet's tests write
 * `MethodSpec.methodBuilder(..).returns(..).addStatement("..", ..)` six times): its receiver was
 * stored cut to its last 100 characters (`…`), which names no chain, and the later calls were
 * `ambiguous` between MethodSpec.Builder's and CodeBlock.Builder's addStatement (93 on javapoet).
 * The receiver is now the chain with the calls' arguments left out.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { copyFixture, mg } from "./support.js";

it("Java: every call of a long builder chain is the builder's method, not ambiguous among same-named ones", async () => {
  const root = copyFixture("java-long-chain");
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stderr);
  const { env } = await mg(root, ["callers", "--name", "MethodSpec.Builder.addStatement"]);
  const refs = env.data.references ?? [];
  assert.deepEqual(
    refs.map((x) => `${x.span.start_line} ${x.resolution}`),
    ["9 imported", "10 imported", "11 imported", "12 imported", "13 imported"],
  );
  const build = await mg(root, ["callers", "--name", "MethodSpec.Builder.build"]);
  assert.deepEqual((build.env.data.references ?? []).map((x) => `${x.span.start_line} ${x.resolution}`), ["14 imported"]);
  const other = await mg(root, ["callers", "--name", "CodeBlock.Builder.addStatement"]);
  assert.deepEqual(other.env.data.references ?? [], []);
});
