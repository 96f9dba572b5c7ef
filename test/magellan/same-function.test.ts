/**
 * A C++ function declared in its class and defined outside it is two symbols, and the resolver
 * ties each call to the one its file sees (the header's declaration): `callers` of the definition,
 * which `find --path s.cc` returns and an edit patches, answered 0 (re2's RE2::Match had 1 of
 * its 18). Either half's answer lists the other's references and says so (real tree-sitter, real
 * SQLite).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

type Ref = { span: { file_path: string } };
type Half = { symbol_id: string; path: string; declaration: boolean; references: number };

describe("magellan: a C++ declaration and its out-of-class definition are one function", () => {
  it("callers of either half list the calls tied to both; overloads stay apart", async () => {
    const root = tempDir("magellan-same-function-");
    writeTree(root, {
      "s.h": "#pragma once\nclass S {\n public:\n  int m(int x);\n  int m(int x, int y);\n  int n();\n};\n",
      "s.cc": "#include \"s.h\"\nint S::m(int x) { return x + 1; }\nint S::m(int x, int y) { return x + y; }\nint S::n() { return m(3); }\n",
      "u.cc": "#include \"s.h\"\nint use() { S s; return s.m(1) + s.m(2) + s.m(1, 2); }\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const found = await mg(root, ["find", "--name", "S::m", "--path", "s.cc"]);
    const [one, two] = (found.env.data.matches as unknown as { symbol_id: string; line: number }[]).sort((a, b) => a.line - b.line);
    const callers = await mg(root, ["callers", "--symbol-id", (one as { symbol_id: string }).symbol_id]);
    // u.cc's two one-argument calls are tied to the declaration, s.cc's m(3) to the definition.
    assert.deepEqual((callers.env.data.references as unknown as Ref[]).map((r) => r.span.file_path).sort(), ["s.cc", "u.cc", "u.cc"]);
    assert.equal(callers.env.data.count, 3);
    const halves = callers.env.data.same_function as unknown as Half[];
    assert.deepEqual(halves.map((h) => [h.path, h.declaration, h.references]), [["s.h", true, 2]]);
    assert.ok((callers.env.diagnostics ?? []).some((d) => d.code === "MAGELLAN_E117" && d.message.includes("s.h:4")));
    assert.ok(!(callers.env.diagnostics ?? []).some((d) => d.message.includes("no indexed reference")));
    // The two-argument overload has its own one call.
    const other = await mg(root, ["callers", "--symbol-id", (two as { symbol_id: string }).symbol_id]);
    assert.deepEqual((other.env.data.references as unknown as Ref[]).map((r) => r.span.file_path), ["u.cc"]);
    // From the declarations' side (both overloads), the definition's own call is listed too.
    const decl = await mg(root, ["callers", "--name", "m", "--path", "s.h", "--kind", "method"]);
    assert.equal(decl.env.data.count, 4);
    assert.deepEqual((decl.env.data.same_function as unknown as Half[]).map((h) => [h.path, h.declaration]), [["s.cc", false], ["s.cc", false]]);
  });
});
