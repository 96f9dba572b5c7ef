/**
 * src/lang/registry.ts gives every node type SyntaxNode itself instead of node-tree-sitter's
 * generated per-type classes (a cost at every first parse of a language). What the code uses of
 * a node must still work: type, fields through childForFieldName, children, errors.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { grammar, parse } from "../../src/lang/registry.js";

describe("plain node class", () => {
  it("parses and reads nodes as before, without the generated classes", () => {
    const tree = parse("typescript", "export function f(a: number): number { return a; }\nclass C { m() {} }\n");
    const root = tree.rootNode;
    assert.equal(root.type, "program");
    assert.equal(root.hasError, false);
    const exp = root.namedChildren[0]!;
    assert.equal(exp.type, "export_statement");
    const fn = exp.childForFieldName("declaration")!;
    assert.equal(fn.type, "function_declaration");
    assert.equal(fn.childForFieldName("name")?.text, "f");
    assert.deepEqual(
      root.descendantsOfType("method_definition").map((n) => n.text),
      ["m() {}"],
    );
    assert.equal(parse("typescript", "let = ;").rootNode.hasError, true);
    // The language kept the plain class: node-tree-sitter did not build its own.
    const subclasses = (grammar("typescript") as unknown as { nodeSubclasses: unknown[] }).nodeSubclasses;
    assert.equal(subclasses[fn.typeId], (root.constructor as unknown));
  });
});
