/**
 * TypeScript lets a type and a value share a name, and zod does it for every schema:
 * `export interface $constructor<T>` beside `export function $constructor<T>(...)`, and
 * `export interface ZodError` beside `export const ZodError = core.$constructor(...)`. A call
 * names the value, a type annotation the type: neither is ambiguous between the two.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type SpanLike, indexed, mg, spanText } from "./support.js";

interface Ref {
  span: SpanLike;
  reference_kind: string;
  resolution: string;
  target_symbol_id?: string;
  candidates?: string[];
}

async function symbols(root: string): Promise<{ iface: string; fn: string }> {
  const { env } = await mg(root, ["find", "--name", "$constructor"]);
  const matches = (env.data as unknown as { matches: { symbol_id: string; kind: string }[] }).matches;
  const iface = matches.find((m) => m.kind === "Interface")?.symbol_id;
  const fn = matches.find((m) => m.kind === "Function")?.symbol_id;
  assert.ok(iface && fn, JSON.stringify(matches));
  return { iface, fn };
}

describe("a TypeScript name that is both a type and a value", () => {
  it("calls reach the function, annotations the interface (zod's core.$constructor)", async () => {
    const root = await indexed("type-and-value");
    const { iface, fn } = await symbols(root);
    const { r, env } = await mg(root, ["refs", "--name", "$constructor", "--path", "src/core/core.ts"]);
    assert.equal(r.code, 0, r.stdout);
    const refs = (env.data as unknown as { references: Ref[] }).references;
    const at = (kind: string, file: string, line: number): Ref => {
      const x = refs.find((y) => y.reference_kind === kind && y.span.file_path === file && y.span.start_line === line);
      assert.ok(x, `${kind} at ${file}:${line} in ${JSON.stringify(refs)}`);
      assert.equal(spanText(root, x.span), "$constructor");
      return x;
    };
    // `core.$constructor("ZodError", initializer)` through `import * as core` and a barrel.
    const call = at("call", "src/classic/errors.ts", 11);
    assert.equal(call.target_symbol_id, fn, JSON.stringify(call));
    assert.equal(call.resolution, "imported");
    // `const ZodError: core.$constructor<ZodError>` on the same line.
    const annotation = at("type", "src/classic/errors.ts", 11);
    assert.equal(annotation.target_symbol_id, iface, JSON.stringify(annotation));
    // The function's own return type and cast name the interface, not the function they are in.
    for (const line of [7, 12]) assert.equal(at("type", "src/core/core.ts", line).target_symbol_id, iface, `core.ts:${line}`);
    // `typeof $constructor` names the value: a read, never taken to the interface alone.
    const query = at("read", "src/core/core.ts", 16);
    assert.notEqual(query.target_symbol_id, iface, JSON.stringify(query));
    assert.ok(query.target_symbol_id === fn || (query.candidates ?? []).includes(fn), JSON.stringify(query));
  });

  it("a candidate reached through two re-export paths is listed once", async () => {
    // core/index.ts re-exports core.ts, and errors.ts, which imports `$constructor` from core.ts:
    // the barrel's `$constructor` listed each of the two symbols twice.
    const root = await indexed("type-and-value");
    const { iface, fn } = await symbols(root);
    const { env } = await mg(root, ["refs", "--name", "$constructor"]);
    const refs = (env.data as unknown as { references: Ref[] }).references;
    const read = refs.find((x) => x.span.file_path === "src/classic/factory.ts" && x.reference_kind === "read");
    assert.ok(read, JSON.stringify(refs));
    assert.deepEqual([...(read.candidates ?? [])].sort(), [iface, fn].sort());
    for (const x of refs) if (x.candidates) assert.equal(new Set(x.candidates).size, x.candidates.length, JSON.stringify(x));
  });
});
