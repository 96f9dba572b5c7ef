/**
 * Qualifiers read as chains of calls (src/lang/type-text.ts chainOf), which resolution follows
 * link by link: arguments skipped whatever they hold, anything else refused.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { chainCallee, chainMarker, chainOf, readChainMarker } from "../../src/lang/type-text.js";

test("chainOf: a head, its call, and each link's name and call; arguments with strings, brackets and lambdas skipped", () => {
  assert.deepEqual(chainOf('repo.createQueryBuilder("u").where("a")'), {
    head: "repo",
    ctor: false,
    headCall: false,
    steps: [
      { name: "createQueryBuilder", call: true },
      { name: "where", call: true },
    ],
  });
  assert.deepEqual(chainOf('new Foo.Bar(1, ")").build()'), { head: "Foo.Bar", ctor: true, headCall: true, steps: [{ name: "build", call: true }] });
  assert.deepEqual(chainOf("make().x")?.steps, [{ name: "x", call: false }]);
  assert.deepEqual(chainOf("a!.b()?.c")?.steps, [
    { name: "b", call: true },
    { name: "c", call: false },
  ]);
  assert.deepEqual(chainOf("items.filter((x)=>x.a(1)).map(y)")?.steps.map((s) => s.name), ["filter", "map"]);
  assert.deepEqual(chainOf('qb.select(["a.b","c"]).from(User,"user")')?.steps.map((s) => s.name), ["select", "from"]);
});

test("chainOf: no call, an index, an optional call, an unclosed call, a cut qualifier, `new` without arguments, `::` are no chains", () => {
  for (const q of ["a.b.c", "a[0].b()", "f?.()", "x.y(", "…x().y", "new Foo", "Foo::new()", "a.b(')')c"]) assert.equal(chainOf(q), undefined, q);
});

test("chainCallee names what the first call is made on; a marker round-trips, nested in another's receiver type", () => {
  assert.equal(chainCallee(chainOf("self.client.get(url).json()") as NonNullable<ReturnType<typeof chainOf>>), "self.client");
  assert.equal(chainCallee(chainOf("make().x") as NonNullable<ReturnType<typeof chainOf>>), undefined);
  const inner = chainMarker("ds.getRepository(Post)", false, "DataSource") as string;
  const outer = chainMarker("repo.find()", true, inner) as string;
  const m = readChainMarker(outer);
  assert.equal(m?.awaited, true);
  assert.equal(m?.text, "repo.find()");
  assert.equal(m?.receiverType, inner);
  assert.equal(readChainMarker(m?.receiverType as string)?.receiverType, "DataSource");
  assert.equal(readChainMarker("DataSource"), undefined);
  assert.equal(chainMarker("x".repeat(700) + "()", false, undefined), undefined);
});
