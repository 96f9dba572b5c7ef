/**
 * Java: a varargs parameter (`final boolean... array2`, `T... values`) is an array, so its
 * `.length` is the language's: commons-lang's 100 such reads (ArrayUtils, ClassUtils,
 * IEEE754rUtils) were `ambiguous` between two benchmark classes' `length` fields.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { indexed, mg } from "./support.js";

interface Ref {
  span: { file_path: string; start_line: number };
  reference_kind: string;
  resolution: string;
}

test("a varargs parameter's .length names no repository field", async () => {
  const root = await indexed("java-varargs");
  const { r, env } = await mg(root, ["refs", "--name", "length"]);
  assert.equal(r.code, 0, r.stdout);
  const refs = (env.data as unknown as { references: Ref[] }).references;
  const fromArrays = refs.filter((x) => x.span.file_path.endsWith("ArrayUtils.java"));
  assert.deepEqual(fromArrays, [], JSON.stringify(fromArrays));
});
