/**
 * Definitions in shapes a sweep over real projects found splice cutting wrong: a file that opens
 * with a UTF-8 BOM (got's sources, click's modules), a declaration that declares several names
 * (Go `var a, b`, C `int a, b;`, Python `A, B = …`, TypeScript `export const a = …, b = …;`), a
 * one-line Python `def`, a tab-indented Python class patched with text indented by spaces.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { resultOf, splice } from "./helpers.js";

const TSCONFIG = JSON.stringify({ compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", strict: true, noEmit: true }, include: ["source"] });

/** A small project of `files` as its own git work tree. */
function tree(name: string, files: Record<string, string>): string {
  const dir = writeTree(tempDir(`splice-${name}-`), files);
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}

const bytes = (dir: string, rel: string): string => readFileSync(join(dir, rel), "latin1");
const text = (dir: string, rel: string): string => readFileSync(join(dir, rel), "utf8");

const BOM = "\ufeff";
const BOM_BYTES = "\xef\xbb\xbf";

test("a file with a BOM: the first definition's doc comment (TypeScript) or comment (Python) goes with it on delete and is replaced by a patch's; the BOM stays", async () => {
  const ts = tree("bom-ts", {
    "tsconfig.json": TSCONFIG,
    "source/core/utils/bom.ts": `${BOM}/** Doc. */\nexport function firstFn(): number {\n\treturn 1;\n}\n\nexport function secondFn(): number {\n\treturn 2;\n}\n`,
  });
  const patched = await splice(ts, { command: "patch", file: "source/core/utils/bom.ts", symbol: "firstFn", dry_run: true, content: "/** New doc. */\nexport function firstFn(): number {\n\treturn 11;\n}" });
  assert.equal(patched.status, "ok", patched.message);
  assert.match(resultOf(patched).diff ?? "", /^-.*\/\*\* Doc\. \*\/$/m, resultOf(patched).diff);
  assert.doesNotMatch(resultOf(patched).diff ?? "", /^ .*\/\*\* Doc\. \*\/$/m, "the old doc comment is replaced, not kept above the new one");
  const deleted = await splice(ts, { command: "delete", file: "source/core/utils/bom.ts", symbol: "firstFn" });
  assert.equal(deleted.status, "ok", deleted.message);
  assert.equal(bytes(ts, "source/core/utils/bom.ts"), `${BOM_BYTES}export function secondFn(): number {\n\treturn 2;\n}\n`);

  const py = tree("bom-py", { "src/click/bompy.py": `${BOM}# Leading comment of first.\ndef first():\n    return 1\n\n\ndef second():\n    return 2\n` });
  const gone = await splice(py, { command: "delete", file: "src/click/bompy.py", symbol: "first", timeout_ms: 30_000 });
  assert.equal(gone.status, "ok", gone.message);
  assert.equal(bytes(py, "src/click/bompy.py"), `${BOM_BYTES}def second():\n    return 2\n`);
  assert.ok(text(py, "src/click/bompy.py").startsWith(BOM));
});

test("delete of one name a declaration declares with others: its declarator goes with its comma (TypeScript, C, Go without values); where names pair with values by position (Go, Python) it is SPLICE_E212 naming the others, nothing cut", async () => {
  const ts = tree("multi-ts", { "tsconfig.json": TSCONFIG, "source/core/utils/multi.ts": "/** Helpers. */\nexport const other = (a: number) => a + 1, third = 3;\n" });
  const first = await splice(ts, { command: "delete", file: "source/core/utils/multi.ts", symbol: "other", dry_run: true });
  assert.equal(first.status, "ok", first.message);
  assert.match(resultOf(first).diff ?? "", /^\+export const third = 3;$/m, resultOf(first).diff);
  const last = await splice(ts, { command: "delete", file: "source/core/utils/multi.ts", symbol: "third" });
  assert.equal(last.status, "ok", last.message);
  assert.equal(text(ts, "source/core/utils/multi.ts"), "/** Helpers. */\nexport const other = (a: number) => a + 1;\n");

  const c = tree("multi-c", { "counter.c": "int counter_a = 1, counter_b = 2;\n\nint read_b(void) {\n    return counter_b;\n}\n" });
  const cPatch = await splice(c, { command: "patch", file: "counter.c", symbol: "counter_a", dry_run: true, timeout_ms: 30_000, content: "counter_a = 10" });
  assert.equal(cPatch.status, "ok", cPatch.message);
  assert.match(resultOf(cPatch).diff ?? "", /^\+int counter_a = 10, counter_b = 2;$/m, resultOf(cPatch).diff);
  const cOut = await splice(c, { command: "delete", file: "counter.c", symbol: "counter_a", timeout_ms: 30_000 });
  assert.equal(cOut.status, "ok", cOut.message);
  assert.equal(text(c, "counter.c"), "int counter_b = 2;\n\nint read_b(void) {\n    return counter_b;\n}\n");

  const go = tree("multi-go", {
    "go.mod": "module example.com/cli\n\ngo 1.19\n",
    "multi.go": "package cli\n\nvar multiA, multiB = 1, 2\n\nvar plainA, plainB int\n",
    "multiuse.go": "package cli\n\nfunc useB() int { return multiB + plainB }\n",
  });
  const paired = await splice(go, { command: "delete", file: "multi.go", symbol: "multiA", timeout_ms: 60_000 });
  assert.equal(paired.status, "error", paired.message);
  assert.equal(paired.error?.code, "SPLICE_E212");
  assert.match(paired.message, /multiB/);
  assert.equal(text(go, "multi.go"), "package cli\n\nvar multiA, multiB = 1, 2\n\nvar plainA, plainB int\n");
  const narrowed = await splice(go, { command: "patch", file: "multi.go", symbol: "multiA", dry_run: true, timeout_ms: 60_000, content: "var multiA = 3" });
  assert.equal(narrowed.error?.code, "SPLICE_E212", narrowed.message);
  const typed = await splice(go, { command: "delete", file: "multi.go", symbol: "plainA", timeout_ms: 60_000 });
  assert.equal(typed.status, "ok", typed.message);
  assert.equal(text(go, "multi.go"), "package cli\n\nvar multiA, multiB = 1, 2\n\nvar plainB int\n");

  const py = tree("multi-py", { "src/click/multi.py": "LOW, HIGH = 1, 2\n\n\ndef f():\n    return 0\n" });
  const tuple = await splice(py, { command: "delete", file: "src/click/multi.py", symbol: "LOW", dry_run: true, timeout_ms: 30_000 });
  assert.equal(tuple.status, "error", tuple.message);
  assert.equal(tuple.error?.code, "SPLICE_E212");
  assert.match(tuple.message, /HIGH/);
});

test("patch of one declarator of a TypeScript `export const a = …, b = …;`: the declarator alone replaces it; a whole statement is SPLICE_E212, not text spliced into the statement", async () => {
  const ts = tree("multi-ts-patch", { "tsconfig.json": TSCONFIG, "source/core/utils/multi.ts": "export const other = (a: number) => a + 1, third = 3;\n" });
  const statement = await splice(ts, { command: "patch", file: "source/core/utils/multi.ts", symbol: "other", dry_run: true, content: "export const other = (a: number) => a + 2;" });
  assert.equal(statement.status, "error", statement.message);
  assert.equal(statement.error?.code, "SPLICE_E212");
  assert.match(statement.message, /third/);
  const bare = await splice(ts, { command: "patch", file: "source/core/utils/multi.ts", symbol: "third", dry_run: true, content: "const third = 4;" });
  assert.equal(bare.error?.code, "SPLICE_E212");
  const declarator = await splice(ts, { command: "patch", file: "source/core/utils/multi.ts", symbol: "other", content: "other = (a: number) => a + 2" });
  assert.equal(declarator.status, "ok", declarator.message);
  assert.equal(text(ts, "source/core/utils/multi.ts"), "export const other = (a: number) => a + 2, third = 3;\n");
});

test("patch --body of a one-line Python def (a function, a method): the new body goes on indented lines of its own below the `def`", async () => {
  const py = tree("oneliner", { "src/click/oneliner.py": "def one(): return 1\n\n\nclass K:\n    def two(self): return 2\n" });
  const fn = await splice(py, { command: "patch", file: "src/click/oneliner.py", symbol: "one", body: true, content: "x = 5\nreturn x", timeout_ms: 30_000 });
  assert.equal(fn.status, "ok", fn.message);
  const method = await splice(py, { command: "patch", file: "src/click/oneliner.py", symbol: "K.two", body: true, content: "y = 6\nreturn y", timeout_ms: 30_000 });
  assert.equal(method.status, "ok", method.message);
  assert.equal(resultOf(method).validation, "validated", JSON.stringify(resultOf(method).checkers));
  assert.equal(text(py, "src/click/oneliner.py"), "def one():\n    x = 5\n    return x\n\n\nclass K:\n    def two(self):\n        y = 6\n        return y\n");
});

test("patch into a tab-indented Python class with text indented by spaces: the text's levels become tabs, none mixed", async () => {
  const py = tree("tabby", { "src/click/tabby.py": "class Tabby:\n\tdef a(self):\n\t\tx = 1\n\t\treturn x\n\n\tdef b(self):\n\t\treturn 2\n" });
  const o = await splice(py, { command: "patch", file: "src/click/tabby.py", symbol: "Tabby.a", content: "def a(self):\n    x = 1\n    if x:\n        x = 2\n    return x", timeout_ms: 30_000 });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated", JSON.stringify(resultOf(o).checkers));
  assert.equal(text(py, "src/click/tabby.py"), "class Tabby:\n\tdef a(self):\n\t\tx = 1\n\t\tif x:\n\t\t\tx = 2\n\t\treturn x\n\n\tdef b(self):\n\t\treturn 2\n");
  // Text copied from the file (tabs, first line cut at the `def`) lands as it was.
  const copied = await splice(py, { command: "patch", file: "src/click/tabby.py", symbol: "Tabby.b", content: "def b(self):\n\t\ty = 3\n\t\treturn y", timeout_ms: 30_000 });
  assert.equal(copied.status, "ok", copied.message);
  assert.match(text(py, "src/click/tabby.py"), /\n\tdef b\(self\):\n\t\ty = 3\n\t\treturn y\n$/);
});
