/**
 * An overloaded function (several signatures and one implementation) is one unit for delete,
 * patch, insert and edit, as it is for rename; a delete's uses tied to the symbol by name only
 * do not hold it back and are named as such. Shaped like hono's four `useRef` declarations and
 * starlette's `Config.get` (204 of the 213 uses a delete listed were dicts' `.get`).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { project, read, resultOf, splice } from "./helpers.js";

test("patch of an overloaded function replaces the implementation and keeps the signatures; text with every declaration replaces the group", async () => {
  const dir = project("ts-overloads");
  const before = read(dir, "src/hooks.ts");
  const impl = "export function useRef<T>(initialValue?: T | null): RefObject<T | null | undefined> {\n  const ref = { current: initialValue ?? null };\n  refs.push(ref);\n  return ref;\n}";
  const o = await splice(dir, { command: "patch", file: "src/hooks.ts", symbol: "useRef", content: impl });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated");
  const step = resultOf(o).steps[0] as { overloads: { declarations: number; replaced: string; kept: string[] } };
  assert.deepEqual(step.overloads, { declarations: 4, replaced: "implementation", kept: ["src/hooks.ts:6", "src/hooks.ts:7", "src/hooks.ts:8"] });
  assert.equal(read(dir, "src/hooks.ts"), before.replace("const ref = { current: initialValue };", "const ref = { current: initialValue ?? null };"));

  const group = "export function useRef<T>(initialValue: T): RefObject<T>;\nexport function useRef<T>(initialValue?: T | null): RefObject<T | null | undefined>;\nexport function useRef<T>(initialValue?: T | null): RefObject<T | null | undefined> {\n  return { current: initialValue };\n}";
  const g = await splice(dir, { command: "patch", file: "src/hooks.ts", symbol: "useRef", content: group });
  assert.equal(g.status, "ok", g.message);
  assert.equal((resultOf(g).steps[0] as { overloads: { replaced: string } }).overloads.replaced, "all");
  const text = read(dir, "src/hooks.ts");
  assert.equal(text.match(/function useRef/g)?.length, 3, text);
  assert.match(text, /\/\*\* A mutable ref that survives re-renders\. \*\/\nexport function useRef<T>\(initialValue: T\): RefObject<T>;\nexport function useRef<T>\(initialValue\?: T \| null\): RefObject<T \| null \| undefined>;\nexport function useRef/);

  // A method's overloads, body only.
  const b = await splice(dir, { command: "patch", file: "src/hooks.ts", symbol: "Store.get", body: true, content: "const v = this.items.get(key);\nreturn v === undefined ? fallback : v;" });
  assert.equal(b.status, "ok", b.message);
  assert.match(read(dir, "src/hooks.ts"), /  get\(key: string\): number \| undefined;\n  get\(key: string, fallback: number\): number;\n  get\(key: string, fallback\?: number\): number \| undefined \{\n    const v = this\.items\.get\(key\);\n    return v === undefined \? fallback : v;\n  \}/);
});

test("patch --body of an arrow function held by a const replaces its block (hono's `export const splitPath = (path) => {…}` had 'no body')", async () => {
  const dir = project("ts-overloads");
  const o = await splice(dir, { command: "patch", file: "src/hooks.ts", symbol: "splitPath", body: true, content: 'return path.split("/").filter((p) => p !== "");' });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated");
  assert.match(read(dir, "src/hooks.ts"), /export const splitPath = \(path: string\): string\[\] => \{\n  return path\.split\("\/"\)\.filter\(\(p\) => p !== ""\);\n\};\n/);
});

test("delete of an overloaded function removes every signature and the implementation, with the doc comment and one blank line's worth; insert goes around the group", async () => {
  const dir = project("ts-overloads");
  const before = read(dir, "src/hooks.ts");
  const ins = await splice(dir, { command: "insert", file: "src/hooks.ts", after_symbol: "useRef", content: "export function useFlag(): RefObject<boolean> {\n  return useRef(false);\n}" });
  assert.equal(ins.status, "ok", ins.message);
  assert.match(read(dir, "src/hooks.ts"), /  return ref;\n\}\n\nexport function useFlag\(\): RefObject<boolean> \{\n  return useRef\(false\);\n\}\n\nexport const splitPath/);
  const refused = await splice(dir, { command: "delete", file: "src/hooks.ts", symbol: "useRef" });
  assert.equal(refused.error?.code, "SPLICE_E108", refused.message);
  assert.match(refused.message, /src\/hooks\.ts:\d+:\d+ \(call, exact\)/);
  const d = await splice(dir, { command: "batch", steps: [
    { command: "delete", file: "src/hooks.ts", symbol: "useFlag" },
    { command: "delete", file: "src/hooks.ts", symbol: "useRef" },
  ] });
  assert.equal(d.status, "ok", d.message);
  assert.equal(resultOf(d).validation, "validated");
  assert.deepEqual((resultOf(d).steps[1] as { declarations_removed: string[] }).declarations_removed, ["src/hooks.ts:6", "src/hooks.ts:7", "src/hooks.ts:8", "src/hooks.ts:9"]);
  const start = before.indexOf("/** A mutable ref");
  assert.equal(read(dir, "src/hooks.ts"), before.slice(0, start) + before.slice(before.indexOf("export const splitPath")));
});

test("Python: @overload signatures and their implementation are one unit; a delete's name-only uses are named, not counted (starlette's Config.get against every dict's .get)", async () => {
  const dir = project("python-names");
  const before = read(dir, "app/config.py");
  const p = await splice(dir, { command: "patch", file: "app/config.py", symbol: "Config.cast", timeout_ms: 30_000, content: "def cast(self, key: str, kind: type) -> object:\n    return kind(self.environ.get(key, \"\"))" });
  assert.equal(p.status, "ok", p.message);
  assert.equal((resultOf(p).steps[0] as { overloads: { replaced: string } }).overloads.replaced, "implementation");
  assert.equal(read(dir, "app/config.py"), before.replace("return kind(self.environ[key])", 'return kind(self.environ.get(key, ""))'));

  const get = await splice(dir, { command: "delete", file: "app/config.py", symbol: "Config.get", timeout_ms: 30_000 });
  assert.equal(get.error?.code, "SPLICE_E108");
  // The resolved use first; then the name-only ones no other symbol of the workspace could be
  // (they may be this method's: they still block, labelled; a dict method's name on a value of
  // unknown type is no guess, ambiguous); dicts' .get among several symbols not counted.
  // (`self.environ.get()` and `self.names.get()` are dicts' gets: the attributes are assigned a
  // `dict(...)` and annotated `dict[str, str]`, so they are library members, not name-only uses.)
  assert.match(get.message, /^Config\.get is still referenced 1 time\(s\):\n  app\/handlers\.py:10:\d+ \(call, imported\)\nand 1 use\(s\) on values whose type the index does not know, tied to it by name only [^\n]*:\n  app\/handlers\.py:18:\d+ \(call, ambiguous\)$/);

  const lookup = await splice(dir, { command: "delete", file: "app/config.py", symbol: "Config.lookup", timeout_ms: 30_000 });
  assert.equal(lookup.status, "ok", lookup.message);
  const w = lookup.diagnostics.find((x) => x.code === "SPLICE_W108");
  assert.ok(w, JSON.stringify(lookup.diagnostics));
  assert.match(w.message, /^1 use\(s\) of 'lookup' that the index ties by name only to several symbols of that name, Config\.lookup among them: app\/handlers\.py:18\. They did not hold the delete back/);
  const step = resultOf(lookup).steps[0] as { remaining_references: unknown[]; name_only_references: { file: string; line: number; resolution: string }[] };
  assert.deepEqual(step.remaining_references, []);
  assert.deepEqual(step.name_only_references.map((r) => `${r.file}:${r.line} ${r.resolution}`), ["app/handlers.py:18 ambiguous"]);
  assert.doesNotMatch(read(dir, "app/config.py"), /def lookup/);

  const cast = await splice(dir, { command: "delete", file: "app/config.py", symbol: "Config.cast", force: true, timeout_ms: 30_000 });
  assert.equal(cast.status, "ok", cast.message);
  const text = read(dir, "app/config.py");
  assert.doesNotMatch(text, /cast|overload/);
  assert.match(text, /        return self\.environ\.get\(key, default\)\n$/);
});
