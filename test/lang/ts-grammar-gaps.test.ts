/**
 * TypeScript that tree-sitter-typescript 0.23 does not read (src/lang/preprocess.ts): generic call
 * signatures on lines of their own after a member whose type ends in a name (hono's
 * `interface Get<E> {\n  <Key ...>(key: Key): ...\n  <Key ...>(...): ...\n}`: its recovery lost
 * `class Factory`, `createFactory`, `createMiddleware` and 35 declarations of types.ts),
 * `static accessor`, `abstract override` properties, `export type *`, variance annotations.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { extractFacts } from "../../src/lang/extract.js";
import { maskForParse, parseSource } from "../../src/lang/preprocess.js";
import { parse as parseTree } from "../../src/lang/registry.js";
import { cpuTimed } from "../support/run.js";

function names(src: string, language: "typescript" | "tsx" = "typescript"): { errors: boolean; symbols: string[] } {
  const bytes = Buffer.from(src);
  const f = extractFacts(language, bytes);
  for (const s of f.symbols) assert.equal(bytes.subarray(s.name_range.byte_start, s.name_range.byte_end).toString(), s.name);
  return { errors: f.has_errors, symbols: f.symbols.map((s) => `${s.kind} ${[...s.scope, s.name].join(".")}`) };
}

const FACTORY = `interface Get<E extends Env> {
  <Key extends keyof E['Variables']>(key: Key): E['Variables'][Key]
  <Key extends keyof ContextVariableMap>(key: Key): ContextVariableMap[Key]
}

export interface CreateHandlersInterface<E extends Env, P extends string> {
  <I extends Input = {}, R extends HandlerResponse<any> = any>(handler1: H<E, P, I, R>): [H<E, P, I, R>]

  // handler x2
  <
    I extends Input = {},
    I2 extends Input = I,
  >(
    handler1: H<E, P, I>,
    handler2: H<E, P, I2>
  ): [H<E, P, I>, H<E, P, I2>]
  /** handler x3 */
  <I extends Input = {}>(handler1: H<E, P, I>): [H<E, P, I>]
}

type Fetcher = {
  base: URL
  <T>(input: T): Promise<T>
}

export class Factory<E extends Env = Env> {
  createApp = (): Hono<E> => new Hono<E>()
}

export const createFactory = <E extends Env = Env>(): Factory<E> => new Factory<E>()
`;

test("generic call signatures on their own lines: the declarations after them are kept", () => {
  for (const language of ["typescript", "tsx"] as const) {
    assert.deepEqual(names(FACTORY, language), {
      errors: false,
      symbols: [
        "interface Get",
        "interface CreateHandlersInterface",
        "type_alias Fetcher",
        "field Fetcher.base",
        "class Factory",
        "method Factory.createApp",
        "function createFactory",
      ],
    }, language);
  }
  // Only a parse with errors is repaired, only inside them, and by the same length.
  const ok = "const x = a\n  <b\nconst y = 1\n";
  assert.equal(parseSource("typescript", ok).rootNode.text, ok);
});

test("modifiers the grammar lacks: static accessor, abstract override, export type *, in/out", () => {
  const src = [
    "export type * from './types'",
    "export type * as T from './types'",
    "interface Z<out O = unknown, in I = unknown, in out K> { a: O }",
    "abstract class C extends B {",
    "  static accessor count = 1",
    "  override accessor name = ''",
    "  abstract override p: string",
    "  m(accessor: number, override: string): void {}",
    "}",
    "export class After {}",
    "",
  ].join("\n");
  assert.deepEqual(names(src), {
    errors: false,
    symbols: ["interface Z", "field Z.a", "abstract_class C", "field C.count", "field C.name", "field C.p", "method C.m", "class After"],
  });
  const masked = maskForParse("typescript", src);
  assert.equal(masked.length, src.length);
  assert.ok(masked.includes("m(accessor: number, override: string)"), "a parameter named accessor or override stays");
  const f = extractFacts("typescript", Buffer.from(src));
  assert.deepEqual(f.imports.map((i) => `${i.source} ${JSON.stringify(i.names)}`), ['./types [{"name":"*"}]', './types [{"name":"*","alias":"T"}]']);
});

test("`in` and `instanceof` as property names at the start of a line keep their property (vue's jsx.ts `in?: string` after `name?: string`)", () => {
  const src = "export interface TransitionProps {\n  name?: string\n  in?: string\n  instanceof: boolean\n  appear?: boolean\n}\nconst op = {\n  in: 1,\n};\nfor (const k\n  in op) {}\n";
  const got = names(src);
  assert.equal(got.errors, false);
  assert.deepEqual(got.symbols.slice(0, 5), ["interface TransitionProps", "field TransitionProps.name", "field TransitionProps.in", "field TransitionProps.instanceof", "field TransitionProps.appear"]);
  // The keyword elsewhere is left alone: `for (... \n in op)`.
  assert.match(maskForParse("typescript", src), /\n {2}in op\)/);
});

/** styled-components and emotion type a component's props on its tagged template. */
const STYLED = [
  'import styled from "styled-components";',
  "type AvatarSize = 24 | 32;",
  "export const Relative = styled.div<{ $size: AvatarSize }>`",
  "  position: relative;",
  "  width: ${(props) => props.$size}px;",
  "`;",
  "const Label = styled.span<{ hasIcon?: boolean }>`",
  "  color: red;",
  "`;",
  "export const Inner = styled(Label)<Props>`margin: 0;`;",
  "export default function Avatar() { return Label; }",
  "",
].join("\n");

test("a tagged template with type arguments (styled-components) is valid code, not a file with syntax errors", async () => {
  const { parse } = await import("../../src/lang/registry.js");
  const { hasSyntaxErrors } = await import("../../src/lang/grammar-lags.js");
  const { treeSitterGate } = await import("../../src/validate/treesitter.js");
  const { ContentPositions } = await import("../../src/validate/positions.js");
  for (const language of ["typescript", "tsx"] as const) {
    const tree = parse(language, STYLED);
    // The grammar still inserts a MISSING `!` before each template: when an upgrade stops doing
    // so, this says the lag (src/lang/grammar-lags.ts) can go.
    assert.equal(tree.rootNode.hasError, true, `${language}: tree-sitter-typescript reads these without an error now`);
    assert.equal(hasSyntaxErrors(tree.rootNode), false, language);
    const got = names(STYLED, language);
    assert.deepEqual(got, { errors: false, symbols: ["type_alias AvatarSize", "constant Relative", "constant Label", "constant Inner", "function Avatar"] }, language);
    assert.deepEqual(treeSitterGate(language, new ContentPositions(Buffer.from(STYLED)), "a.tsx").diagnostics, [], language);
    // A real error beside them is still one; so is a MISSING `!` anywhere else.
    for (const broken of [`${STYLED}const x = ;\n`, `${STYLED}export function f( {\n`, `${STYLED}const y = (a<b>\n`]) {
      assert.equal(hasSyntaxErrors(parse(language, broken).rootNode), true, `${language}: ${broken.slice(STYLED.length)}`);
      assert.equal(names(broken, language).errors, true);
      assert.ok(treeSitterGate(language, new ContentPositions(Buffer.from(broken)), "a.tsx").diagnostics.length > 0);
    }
  }
  // A non-null assertion the user wrote is an ordinary node.
  assert.equal(names("declare const s: any;\nexport const T = s.div<{ a: 1 }>!`x`;\n").errors, false);
});

test("a generic call signature whose `<...>` the parse took for the previous type's arguments is repaired too (effect's Boolean.match)", () => {
  const src = [
    'import type { LazyArg } from "./Function.js"',
    "export const match: {",
    "  <A, B = A>(",
    "    options: {",
    "      readonly onFalse: LazyArg<A>",
    "      readonly onTrue: LazyArg<B>",
    "    }",
    "  ): (value: boolean) => A | B",
    "  /**",
    "   * Picks one of two functions by a boolean.",
    "   *",
    "   * @example",
    "   * ```ts",
    "   * assert.deepStrictEqual(Boolean.match(true, { onFalse: () => \"It's false!\", onTrue: () => \"It's true!\" }), \"It's true!\")",
    "   * ```",
    "   */",
    "  <A, B>(",
    "    value: boolean,",
    "    options: {",
    "      readonly onFalse: LazyArg<A>",
    "      readonly onTrue: LazyArg<B>",
    "    }",
    "  ): A | B",
    "} = dual(2, <A, B>(value: boolean, options: {",
    "  readonly onFalse: LazyArg<A>",
    "  readonly onTrue: LazyArg<B>",
    "}): A | B => value ? options.onTrue() : options.onFalse())",
    "export const not = (self: boolean): boolean => !self",
    "",
  ].join("\n");
  // tree-sitter alone: `B\n  <A, B>` is read as a generic type, and the ERROR starts at its `(`.
  const plain = parseTree("typescript", src);
  assert.equal(plain.rootNode.hasError, true);
  assert.equal(parseSource("typescript", src).rootNode.hasError, false);
  assert.deepEqual(names(src), { errors: false, symbols: ["constant match", "function not"] });
});

test("JavaScript: reserved words as import and export names (`export { void_ as void }`, as TypeScript emits effect's) are names, not errors", () => {
  const src = [
    'import { delete as del, new as make, plain } from "./a.js";',
    "const void_ = 1;",
    "const case_ = () => del(make(plain));",
    "export { void_ as void,",
    "  /**",
    "   * Its JSDoc, braces and all: `case_({ a: 1 })`.",
    "   */",
    "  case_ as case };",
    'export { typeof } from "./b.js";',
    "// a comment that says: export { x as void } is valid",
    "export const after = 1;",
    "",
  ].join("\n");
  assert.equal(parseTree("javascript", src).rootNode.hasError, true);
  const masked = maskForParse("javascript", src);
  assert.equal(masked.length, src.length);
  const f = extractFacts("javascript", Buffer.from(src));
  assert.equal(f.has_errors, false);
  assert.deepEqual(
    f.imports.map((i) => `${i.source} ${i.names.map((n) => (n.alias ? `${n.name} as ${n.alias}` : n.name)).join(", ")}`),
    ["./a.js delete as del, new as make, plain", " void_ as void, case_ as case", "./b.js typeof"],
  );
  assert.deepEqual(f.symbols.map((s) => s.name), ["void_", "case_", "after"]);
  assert.ok(masked.includes("`case_({ a: 1 })`") && masked.includes("case_ as _ase };"), masked);
  // Outside a clause's braces nothing changes: `const void_`, `del(make(plain))`.
  assert.equal(masked.split("\n").slice(1, 3).join("\n"), src.split("\n").slice(1, 3).join("\n"));
});

test("JavaScript specifier clauses are found in one pass: unclosed clauses do not make the masking quadratic", () => {
  // A regex that skipped comments inside the braces backtracked over every later clause when one
  // was never closed: 200,000 of these took ten minutes.
  const text = "export { a as void, /* x */ b\n".repeat(20_000) + "export { c as new };\n";
  const { value: masked, cpuMs } = cpuTimed(() => maskForParse("javascript", text));
  assert.ok(cpuMs < 1000, `masking took too long: ${Math.round(cpuMs)} ms of CPU`);
  assert.equal(masked.length, text.length);
  // The closed clause at the end is still masked; the unclosed ones are left as written.
  assert.ok(masked.endsWith("export { c as _ew };\n"));
  assert.ok(masked.startsWith("export { a as void, /* x */ b\nexport { a as void,"));
});
