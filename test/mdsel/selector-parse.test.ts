/** The selector grammar, with the positions of faults. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSelector, SelectorSyntaxError } from "../../src/tools/mdsel/selector.js";

function fault(sel: string): SelectorSyntaxError {
  try {
    parseSelector(sel);
  } catch (e) {
    if (e instanceof SelectorSyntaxError) return e;
    throw e;
  }
  assert.fail(`'${sel}' parsed but should not`);
}

describe("selector parser", () => {
  it("parses every segment form, namespaces, indices and ?full", () => {
    const s = parseSelector("README::heading:h2[3]/section[1]/block:table[2]/page[4]?full=true");
    assert.equal(s.namespace, "readme");
    assert.equal(s.full, true);
    assert.deepEqual(
      s.segments.map((x) => ({ ...x, start: undefined, end: undefined })),
      [
        { kind: "heading", depth: 2, index: 3, start: undefined, end: undefined },
        { kind: "section", index: 1, start: undefined, end: undefined },
        { kind: "block", block: "table", index: 2, start: undefined, end: undefined },
        { kind: "page", index: 4, start: undefined, end: undefined },
      ],
    );
    assert.deepEqual(parseSelector("root").segments.map((x) => x.kind), ["root"]);
    assert.equal(parseSelector("root").namespace, undefined);
    assert.deepEqual(parseSelector("doc::").segments, []);
    assert.equal(parseSelector("block:code").segments[0]?.kind, "block");
    assert.equal((parseSelector("heading:h1").segments[0] as { index: number }).index, 0, "a missing index means [0]");
    for (const b of ["paragraph", "code", "list", "table", "blockquote"]) assert.equal(parseSelector(`block:${b}[1]`).segments.length, 1);
    assert.equal(parseSelector("x::root?full=false").full, false);
    assert.equal(parseSelector("  x::root  ").namespace, "x");
  });

  it("h7 and h0: invalid heading level at the level's position", () => {
    const e = fault("readme::heading:h7[0]");
    assert.equal(e.message, "Invalid heading level 'h7' - must be h1-h6");
    assert.deepEqual([e.start, e.end], [16, 18]);
    const z = fault("heading:h0");
    assert.deepEqual([z.start, z.end], [8, 10]);
    assert.deepEqual([fault("heading:x2").start, fault("heading").start], [8, 0]);
  });

  it("reports each other fault at its position", () => {
    const cases: [string, number, number, RegExp][] = [
      ["readme::block:paragrph[0]", 14, 22, /Unknown block type 'paragrph'/],
      ["readme::headng:h2[0]", 8, 14, /Unknown segment 'headng'/],
      ["readme::heading:h2[x]", 19, 20, /non-negative integer/],
      ["readme::heading:h2[-1]", 19, 21, /non-negative integer/],
      ["readme::heading:h2[99999999999999999999]", 19, 39, /Index 99999999999999999999 is too large/],
      ["readme::heading:h2[1", 18, 20, /Unclosed/],
      ["readme::heading:h2[1]x", 21, 22, /after index/],
      ["readme::heading:h2[0]//block:code[0]", 22, 23, /Empty path segment/],
      ["readme::block:code[0]/root", 22, 26, /'root' can only be the first/],
      ["readme::page[0]/block:code[0]", 8, 15, /'page\[i\]' can only be the last/],
      ["readme::root?fll=true", 13, 16, /Unknown query parameter 'fll'/],
      ["readme::root?full=yes", 18, 21, /Invalid value 'yes'/],
      ["bad ns::root", 0, 6, /Invalid namespace/],
      ["::root", 0, 1, /Empty namespace/],
      ["", 0, 0, /Empty selector/],
      ["root[1]", 0, 7, /'root' takes no type or index/],
      ["section:h2[0]", 7, 10, /'section' takes no type/],
    ];
    for (const [sel, start, end, msg] of cases) {
      const e = fault(sel);
      assert.match(e.message, msg, sel);
      assert.deepEqual([e.start, e.end], [start, end], `${sel}: ${e.message}`);
    }
  });
});
