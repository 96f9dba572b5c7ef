/**
 * splice's commands on real fixture projects, with the real checkers: layout of text given at
 * column 0, deletes that take their doc comments and decorators along, edit's near misses, a
 * batch that is all or nothing, undo that refuses after an outside change, a rejected change
 * and a dry run that write nothing.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runLog, runUndo } from "../../src/tools/splice/run.js";
import { project, read, resultOf, snapshot, splice } from "./helpers.js";

test("patch: a TypeScript method given at column 0 lands inside its class, indented like its siblings", async () => {
  const dir = project("ts");
  const o = await splice(dir, { command: "patch", file: "src/cart.ts", symbol: "Cart.total", content: "total(): number {\n  // every line counts\n  return this.lines.reduce((sum, l) => sum + l.price * l.quantity, 0);\n}\n" });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated");
  assert.match(read(dir, "src/cart.ts"), /\n {2}total\(\): number \{\n {4}\/\/ every line counts\n {4}return this\.lines\.reduce\(\(sum, l\) => sum \+ l\.price \* l\.quantity, 0\);\n {2}\}\n\n {2}describe\(\)/);
  const f = resultOf(o).files[0];
  assert.ok(f && f.lines_added === 1 && f.lines_removed === 0, JSON.stringify(f));
  // The changed span is on the new bytes: it holds the added line.
  const span = f.changed_spans[0];
  assert.ok(span);
  assert.equal(read(dir, "src/cart.ts").slice(span.byte_start, span.byte_end), "    // every line counts\n");
});

test("insert: a Java method at column 0 after a sibling gets the class's indentation and a blank line on each side", async () => {
  const dir = project("java");
  const o = await splice(dir, { command: "insert", file: "src/shop/Cart.java", after_symbol: "add", content: "public int size() {\n    return prices.size();\n}" });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated", JSON.stringify(resultOf(o).checkers));
  assert.match(read(dir, "src/shop/Cart.java"), /prices\.add\(price\);\n {4}\}\n\n {4}public int size\(\) \{\n {8}return prices\.size\(\);\n {4}\}\n\n {4}@Override/);
});

test("patch: a Rust impl method given at column 0 keeps its doc comment and lands at the impl's indentation (cargo check validates)", async () => {
  const dir = project("rust");
  const o = await splice(dir, { command: "patch", file: "src/lib.rs", symbol: "Tally.add", content: "pub fn add(&mut self, n: usize) {\n    self.total = self.total.saturating_add(n);\n}" });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated");
  assert.match(read(dir, "src/lib.rs"), /impl Tally \{\n {4}\/\/\/ Adds `n` to the tally\.\n {4}pub fn add\(&mut self, n: usize\) \{\n {8}self\.total = self\.total\.saturating_add\(n\);\n {4}\}\n\n {4}pub fn total/);
  assert.match(resultOf(o).checkers[0]?.checker ?? "", /cargo/);
});

test("insert and patch: Python methods given at column 0 land in the class body; a decorated method keeps its decorator", async () => {
  const dir = project("python");
  const o = await splice(dir, {
    command: "batch",
    timeout_ms: 20_000,
    steps: [
      { command: "insert", file: "inventory.py", after_symbol: "Inventory.add", content: "def count(self) -> int:\n    \"\"\"How many items.\"\"\"\n    return len(self.items)\n" },
      { command: "patch", file: "inventory.py", symbol: "Inventory.lookup", content: "def lookup(self, name: str) -> Item | None:\n    return self.items.get(name.strip())\n" },
    ],
  });
  assert.equal(o.status, "ok", o.message);
  assert.match(
    read(dir, "inventory.py"),
    /\n {4}def add\(self, item: Item\) -> None:\n {8}self\.items\[item\.name\] = item\n\n {4}def count\(self\) -> int:\n {8}"""How many items\."""\n {8}return len\(self\.items\)\n\n {4}@functools\.lru_cache\(maxsize=None\)\n {4}def lookup\(self, name: str\) -> Item \| None:\n {8}return self\.items\.get\(name\.strip\(\)\)\n\n {4}def total/,
  );
});

test("delete: a decorated Python method goes with its decorator, and the blank line it leaves goes too", async () => {
  const dir = project("python");
  const before = read(dir, "inventory.py");
  const o = await splice(dir, { command: "delete", file: "inventory.py", symbol: "Inventory.total", dry_run: true, timeout_ms: 20_000 });
  assert.equal(o.status, "ok", o.message);
  assert.equal(read(dir, "inventory.py"), before, "dry run wrote nothing");
  // --force passes the reference check, not the checker: restock still calls lookup.
  const forced = await splice(dir, { command: "delete", file: "inventory.py", symbol: "lookup", force: true, timeout_ms: 20_000 });
  assert.equal(forced.status, "error", forced.message);
  const refs = (resultOf(forced).steps[0] as { remaining_references: { file: string; line: number }[] }).remaining_references;
  assert.ok(refs.some((r) => r.file === "inventory.py" && r.line === 43), "restock's call to lookup is reported");
  assert.equal(read(dir, "inventory.py"), before);
  // One batch updates the caller and deletes: no reference remains, no --force needed.
  const d = await splice(dir, {
    command: "batch",
    timeout_ms: 20_000,
    steps: [
      { command: "edit", file: "inventory.py", symbol: "restock", old: "inv.lookup(name)", new: "inv.items.get(name)" },
      { command: "delete", file: "inventory.py", symbol: "lookup" },
    ],
  });
  assert.equal(d.status, "ok", d.message);
  assert.equal(read(dir, "inventory.py"), before.replace("    @functools.lru_cache(maxsize=None)\n    def lookup(self, name: str) -> Item | None:\n        return self.items.get(name)\n\n", "").replace("inv.lookup(name)", "inv.items.get(name)"));
});

test("delete: a Python class's last method leaves the two blank lines between the class and the next definition, taking the one above it", async () => {
  const dir = project("python");
  const before = read(dir, "inventory.py");
  const o = await splice(dir, { command: "delete", file: "inventory.py", symbol: "Inventory.total", timeout_ms: 20_000 });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated", JSON.stringify(resultOf(o).checkers));
  assert.equal(read(dir, "inventory.py"), before.replace("\n\n    def total(self) -> float:\n        return sum(i.value for i in self.items.values())\n", "\n"));
  assert.match(read(dir, "inventory.py"), /return self\.items\.get\(name\)\n\n\ndef restock/);
});

test("delete: a Python block's only statement leaves `pass` in its place, not an empty block the parser rejects", async () => {
  const dir = project("python");
  writeFileSync(join(dir, "shelf.py"), 'class Shelf:\n    # the label\n    def label(self) -> str:\n        return "shelf"\n\n\ndef make() -> Shelf:\n    return Shelf()\n');
  const o = await splice(dir, { command: "delete", file: "shelf.py", symbol: "Shelf.label", timeout_ms: 20_000 });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated", JSON.stringify(resultOf(o).introduced));
  assert.equal(read(dir, "shelf.py"), "class Shelf:\n    # the label\n    pass\n\n\ndef make() -> Shelf:\n    return Shelf()\n");
});

test("delete: a referenced symbol is refused without --force, naming the references; Java annotations and Javadoc go along", async () => {
  const dir = project("java");
  const before = read(dir, "src/shop/Cart.java");
  const refused = await splice(dir, { command: "delete", file: "src/shop/Cart.java", symbol: "total" });
  assert.equal(refused.status, "error");
  assert.equal(refused.error?.code, "SPLICE_E108");
  assert.match(refused.message, /Cart\.java:\d+/);
  assert.equal(read(dir, "src/shop/Cart.java"), before);
  const o = await splice(dir, { command: "delete", file: "src/shop/Cart.java", symbol: "legacyTotal" });
  assert.equal(o.status, "ok", o.message);
  assert.equal(read(dir, "src/shop/Cart.java"), before.replace("    @Deprecated\n    public int legacyTotal() {\n        return total();\n    }\n\n", ""));
  const o2 = await splice(dir, { command: "delete", file: "src/shop/Cart.java", symbol: "add" });
  assert.equal(o2.status, "ok", o2.message);
  assert.doesNotMatch(read(dir, "src/shop/Cart.java"), /Adds a price/);
});

test("edit: whitespace-only near miss shows the exact text; several matches list their lines; one match is replaced", async () => {
  const dir = project("ts");
  const before = read(dir, "src/cart.ts");
  const near = await splice(dir, { command: "edit", file: "src/cart.ts", old: "return this.lines.reduce((sum, l) =>   sum + l.price * l.quantity, 0);", new: "return 0;" });
  assert.equal(near.error?.code, "SPLICE_E107");
  assert.equal(near.error?.note, "return this.lines.reduce((sum, l) => sum + l.price * l.quantity, 0);");
  assert.match(near.message, /line 32/);
  const many = await splice(dir, { command: "edit", file: "src/cart.ts", old: "this.lines", new: "this.rows" });
  assert.equal(many.error?.code, "SPLICE_E106");
  assert.match(many.message, /line 23:.*\n.*line 27:/);
  const none = await splice(dir, { command: "edit", file: "src/cart.ts", old: "no such text", new: "x" });
  assert.equal(none.error?.code, "SPLICE_E105");
  assert.equal(read(dir, "src/cart.ts"), before);
  const inSymbol = await splice(dir, { command: "edit", file: "src/cart.ts", symbol: "Cart.describe", old: "this.lines.length", new: "this.lines.length + 0" });
  assert.equal(inSymbol.status, "ok", inSymbol.message);
  assert.match(read(dir, "src/cart.ts"), /\$\{this\.lines\.length \+ 0\} lines/);
});

test("batch: a failing step writes nothing; steps see earlier steps; one operation, one undo", async () => {
  const dir = project("ts");
  const before = snapshot(dir);
  const bad = await splice(dir, {
    command: "batch",
    steps: [
      { command: "edit", file: "src/format.ts", old: "return 42;", new: "return 43;" },
      { command: "patch", file: "src/cart.ts", symbol: "noSuchFunction", content: "function noSuchFunction() {}" },
    ],
  });
  assert.equal(bad.status, "error");
  assert.equal(bad.error?.code, "SPLICE_E100");
  assert.match(bad.message, /step 2 \(patch\)/);
  assert.deepEqual(snapshot(dir), before);
  const good = await splice(dir, {
    command: "batch",
    steps: [
      { command: "insert", file: "src/format.ts", after_symbol: "formatPrice", content: "export function formatCents(cents: number): string {\n  return formatPrice(cents / 100);\n}" },
      { command: "patch", file: "src/format.ts", symbol: "formatCents", content: "export function formatCents(cents: number): string {\n  return formatPrice(Math.round(cents) / 100);\n}" },
      { command: "edit", file: "src/cart.ts", old: "import { formatPrice } from \"./format\";", new: "import { formatCents, formatPrice } from \"./format\";\n\nexport const cents = (c: number): string => formatCents(c);" },
    ],
  });
  assert.equal(good.status, "ok", good.message);
  assert.equal(resultOf(good).validation, "validated");
  assert.equal(resultOf(good).files.length, 2);
  assert.match(read(dir, "src/format.ts"), /\n\nexport function formatCents\(cents: number\): string \{\n {2}return formatPrice\(Math\.round\(cents\) \/ 100\);\n\}\n\nexport function unusedHelper/);
  const ops = runLog({ root: dir }).result as { operations: { operation_id: string }[] };
  assert.equal(ops.operations.length, 1);
  const u = await runUndo({ root: dir, last: true });
  assert.equal(u.status, "ok");
  assert.deepEqual(snapshot(dir), before);
});

test("undo refuses, naming the file, when it changed since the operation", async () => {
  const dir = project("ts");
  const o = await splice(dir, { command: "edit", file: "src/format.ts", old: "return 42;", new: "return 41;" });
  assert.equal(o.status, "ok", o.message);
  writeFileSync(join(dir, "src/format.ts"), read(dir, "src/format.ts").replace("41", "40"));
  const changed = read(dir, "src/format.ts");
  await assert.rejects(runUndo({ root: dir, operation_id: resultOf(o).operation_id }), (e: Error) => /src\/format\.ts/.test(e.message));
  assert.equal(read(dir, "src/format.ts"), changed);
});

test("a change the checker rejects (a type error) writes nothing and reports the introduced diagnostic", async () => {
  const dir = project("ts");
  const before = snapshot(dir);
  const o = await splice(dir, { command: "patch", file: "src/cart.ts", symbol: "totalOf", content: "export function totalOf(cart: Cart): number {\n  return cart.describe();\n}" });
  assert.equal(o.status, "error");
  assert.equal(o.error?.code, "SPLICE_E110");
  assert.equal(resultOf(o).validation, "rejected");
  assert.equal(resultOf(o).written, false);
  assert.ok(resultOf(o).introduced.some((d) => d.code === "TS2322" && d.file === "src/cart.ts"), JSON.stringify(resultOf(o).introduced));
  assert.match(resultOf(o).diff ?? "", /^\+ {2}return cart\.describe\(\);$/m);
  assert.deepEqual(snapshot(dir), before);
});

test("dry run: the diff and the full result, nothing written, no operation logged", async () => {
  const dir = project("go");
  const before = snapshot(dir);
  const o = await splice(dir, { command: "patch", file: "stack.go", symbol: "Len", dry_run: true, content: "// Len reports how many items the stack holds.\nfunc (s *Stack) Len() int {\n\treturn len(s.items)\n}" });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).written, false);
  assert.match(resultOf(o).diff ?? "", /^-\/\/ Len reports the number of items\.$/m);
  assert.match(resultOf(o).diff ?? "", /^\+\/\/ Len reports how many items the stack holds\.$/m);
  assert.equal(resultOf(o).files[0]?.before_checksum?.startsWith("sha256:"), true);
  assert.deepEqual(snapshot(dir), before);
  assert.equal((runLog({ root: dir }).result as { operations: unknown[] }).operations.length, 0);
});

test("an ambiguous name lists every candidate; a qualified name or --kind picks one; a stale checksum refuses", async () => {
  const dir = project("rust");
  const o = await splice(dir, { command: "patch", file: "src/lib.rs", symbol: "Tally", content: "pub struct Tally {\n    total: usize,\n}" });
  assert.equal(o.error?.code, "SPLICE_E101");
  assert.match(o.message, /[0-9a-f]{16} Struct Tally src\/lib\.rs:19/);
  assert.match(o.message, /[0-9a-f]{16} Impl Tally src\/lib\.rs:23/);
  const stale = await splice(dir, { command: "edit", file: "src/lib.rs", old: "total: usize,", new: "total: u64,", expected_checksum: [`src/lib.rs=sha256:${"0".repeat(64)}`] });
  assert.equal(stale.error?.code, "SPLICE_E109");
});

test("an ambiguous name's overloads are told apart by their parameter lists (jackson-core's getValueAsInt() and getValueAsInt(int def))", async () => {
  const dir = project("java");
  writeFileSync(
    join(dir, "Parser.java"),
    "public abstract class Parser {\n    public int getValueAsInt() {\n        return getValueAsInt(0);\n    }\n\n    public int getValueAsInt(int def)\n            throws java.io.IOException {\n        return def;\n    }\n\n    public <T extends Number> int getValueAsInt(T  value,\n                                                  String label) {\n        return value.intValue();\n    }\n}\n",
  );
  const o = await splice(dir, { command: "delete", file: "Parser.java", symbol: "Parser.getValueAsInt", dry_run: true });
  assert.equal(o.error?.code, "SPLICE_E101", o.message);
  assert.match(o.message, /[0-9a-f]{16} Method Parser\.getValueAsInt\(\) Parser\.java:2$/m);
  assert.match(o.message, /[0-9a-f]{16} Method Parser\.getValueAsInt\(int def\) Parser\.java:6$/m);
  assert.match(o.message, /[0-9a-f]{16} Method Parser\.getValueAsInt\(T value, String label\) Parser\.java:11$/m);
});

test("patch --body replaces only the body (braces kept, text re-indented); insert --before-symbol; apply-files --regex with groups", async () => {
  const dir = project("go");
  const o = await splice(dir, {
    command: "batch",
    steps: [
      { command: "patch", file: "stack.go", symbol: "Len", body: true, content: "n := len(s.items)\nreturn n" },
      { command: "insert", file: "stack.go", before_symbol: "Len", content: "// Empty reports whether the stack has no items.\nfunc (s *Stack) Empty() bool {\n\treturn s.Len() == 0\n}" },
      { command: "apply-files", glob: "*.go", find: "s\\.items\\[len\\(s\\.items\\)-1\\]", replace: "s.items[s.Len()-1]", regex: true },
      { command: "apply-files", glob: "*.go", find: "func \\(s \\*Stack\\) (\\w+)\\(v int\\)", replace: "func (s *Stack) $1(v int)", regex: true },
    ],
  });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated", JSON.stringify(resultOf(o).checkers));
  const text = read(dir, "stack.go");
  assert.match(text, /\n\/\/ Empty reports whether the stack has no items\.\nfunc \(s \*Stack\) Empty\(\) bool \{\n\treturn s\.Len\(\) == 0\n\}\n\n\/\/ Len reports the number of items\.\nfunc \(s \*Stack\) Len\(\) int \{\n\tn := len\(s\.items\)\n\treturn n\n\}\n$/);
  assert.match(text, /v := s\.items\[s\.Len\(\)-1\]/);
  const py = project("python");
  const b = await splice(py, { command: "patch", file: "inventory.py", symbol: "restock", body: true, dry_run: true, timeout_ms: 15_000, content: "inv.add(Item(name, 0.0, n))\n" });
  assert.equal(b.status, "ok", b.message);
  assert.match(resultOf(b).diff ?? "", /^-    """Adds n units of an item that is already stocked\."""\n-    item = inv\.lookup\(name\)\n-    if item is not None:\n-        item\.quantity \+= n\n\+    inv\.add\(Item\(name, 0\.0, n\)\)$/m);
});
