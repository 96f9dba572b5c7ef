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
    // (The import brings both; the read `= $constructor` is the function's, see the next test.)
    const imported = refs.find((x) => x.span.file_path === "src/classic/factory.ts" && x.reference_kind === "import");
    assert.ok(imported, JSON.stringify(refs));
    assert.deepEqual([...(imported.candidates ?? [])].sort(), [iface, fn].sort());
    for (const x of refs) if (x.candidates) assert.equal(new Set(x.candidates).size, x.candidates.length, JSON.stringify(x));
  });

  it("a read names the value beside a type of that name; a read of a lone type still names it (zod's ZodIssueCode)", async () => {
    // `case ZodIssueCode.custom:` and `typeof ZodIssueCode` read the const; zod's 1,057 such
    // reads were ambiguous between it and `type ZodIssueCode` (or `interface $ZodType` beside
    // `const $ZodType`), and `keyof typeof ZodIssueCode` was tied to the type alias it defines.
    const root = await indexed("type-and-value");
    const { env: found } = await mg(root, ["find", "--name", "ZodIssueCode"]);
    const matches = (found.data as unknown as { matches: { symbol_id: string; kind: string }[] }).matches;
    const value = matches.find((m) => m.kind === "Constant")?.symbol_id;
    const type = matches.find((m) => m.kind === "TypeAlias")?.symbol_id;
    assert.ok(value && type, JSON.stringify(matches));
    const { env } = await mg(root, ["refs", "--symbol-id", value]);
    const refs = (env.data as unknown as { references: Ref[] }).references;
    const reads = refs.filter((x) => x.reference_kind === "read");
    assert.deepEqual(reads.map((x) => `${x.span.file_path}:${x.span.start_line} ${x.resolution}`).sort(), ["src/classic/messages.ts:5 imported", "src/classic/messages.ts:7 imported", "src/core/codes.ts:7 exact"]);
    for (const x of reads) assert.equal(x.target_symbol_id, value, JSON.stringify(x));
    // The annotation `code: ZodIssueCode` is the type's.
    const { env: typeEnv } = await mg(root, ["refs", "--symbol-id", type]);
    const typeRefs = (typeEnv.data as unknown as { references: Ref[] }).references;
    assert.ok(typeRefs.some((x) => x.reference_kind === "type" && x.span.start_line === 10 && x.target_symbol_id === type), JSON.stringify(typeRefs));
    // `export type { IssueBase }` reads the interface, the one symbol of that name.
    const { env: baseEnv } = await mg(root, ["refs", "--name", "IssueBase"]);
    const baseRefs = (baseEnv.data as unknown as { references: Ref[] }).references;
    const exported = baseRefs.find((x) => x.reference_kind === "read" && x.span.file_path === "src/classic/messages.ts" && x.span.start_line === 13);
    assert.ok(exported && exported.target_symbol_id !== undefined, JSON.stringify(baseRefs));
  });
});
