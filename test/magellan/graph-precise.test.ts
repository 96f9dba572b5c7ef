/**
 * refs/callers/callees --precise: TypeScript references tied by the TypeScript language service
 * (the fixture's tsconfig), labelled `compiler`, where the name-based resolver sees two methods
 * named `get` (ambiguous) and cannot tell a receiver's type.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { indexed, mg, spanText } from "./support.js";

interface Refs {
  count: number;
  references: { referenced_symbol: string; resolution: string; target_display_fqn?: string; span: { file_path: string; start_line: number } }[];
  coverage: { resolved: number; ambiguous: number; unresolved: number; ratio: number };
  unresolved: { count: number };
  precise?: { status: string; asked: number; compiler: number; rejected: number; external: number; no_answer: number };
}

let root: string;
let storeGet: string;

describe("--precise", () => {
  before(async () => {
    root = await indexed("precise");
    const { env } = await mg(root, ["find", "--name", "get"]);
    storeGet = (env.data.matches ?? []).find((m) => m.parent === "Store")?.symbol_id as string;
    assert.ok(storeGet);
  });

  it("callers of Store.get: both get calls are ambiguous by name; the compiler keeps s.get and drops c.get (a Cache)", async () => {
    const plain = await mg(root, ["callers", "--symbol-id", storeGet]);
    const p = plain.env.data as unknown as Refs;
    assert.deepEqual(p.references.map((r) => r.resolution), ["ambiguous", "ambiguous"]);
    assert.equal(p.coverage.ratio, 0);
    const { r, env } = await mg(root, ["callers", "--symbol-id", storeGet, "--precise"]);
    assert.equal(r.code, 0, r.stdout);
    const d = env.data as unknown as Refs;
    assert.equal(d.count, 1);
    const only = d.references[0];
    assert.equal(only?.resolution, "compiler");
    assert.equal(only?.span.start_line, 5);
    assert.equal(spanText(root, only?.span as never), "get");
    assert.deepEqual(d.coverage, { resolved: 1, ambiguous: 0, unresolved: 0, ratio: 1 });
    assert.deepEqual(d.precise, { status: "answered", asked: 2, compiler: 1, rejected: 1, external: 0, no_answer: 0 });
  });

  it("callees: c.get goes to Cache.get, labelled compiler; other.format through a namespace import", async () => {
    const { r, env } = await mg(root, ["callees", "--name", "fromCache", "--precise"]);
    assert.equal(r.code, 0, r.stdout);
    const d = env.data as unknown as Refs;
    assert.deepEqual(
      d.references.map((x) => `${x.referenced_symbol}:${x.resolution}:${x.target_display_fqn}`),
      ["Cache:compiler:src/store.Cache", "get:compiler:src/store.Cache.get"],
    );
    const total = await mg(root, ["callers", "--name", "format", "--path", "src/other.ts", "--precise"]);
    const t = total.env.data as unknown as Refs;
    assert.deepEqual(t.references.map((x) => `${x.span.file_path}:${x.span.start_line}:${x.resolution}`), ["src/use.ts:14:compiler"]);
    // store.ts's format is called by nobody: the compiler says the one call goes to other.ts.
    const none = await mg(root, ["callers", "--name", "format", "--path", "src/store.ts", "--precise"]);
    assert.equal((none.env.data as unknown as Refs).count, 0);
  });

  it("JavaScript with no tsconfig or jsconfig: an inferred project answers; a renamed import's callee is the compiler's", async () => {
    const js = await indexed("precise-js");
    const callers = await mg(js, ["callers", "--name", "slug", "--path", "lib/slug.js", "--precise"]);
    assert.equal(callers.r.code, 0, callers.r.stdout);
    const c = callers.env.data as unknown as Refs;
    assert.deepEqual(c.references.map((x) => `${x.span.file_path}:${x.span.start_line}:${x.resolution}`), ["src/page.js:4:compiler"]);
    const callees = await mg(js, ["callees", "--name", "id", "--precise"]);
    const e = callees.env.data as unknown as Refs;
    assert.deepEqual(e.references.map((x) => `${x.referenced_symbol}:${x.resolution}:${x.target_display_fqn}`), ["makeSlug:compiler:lib/other.slug"]);
  });
});
