import assert from "node:assert/strict";
import { test } from "node:test";
import { LineIndex } from "../../src/text/lines.js";
import { makeSpan } from "../../src/text/span.js";
import { isCharBoundary } from "../../src/text/utf8.js";

function at(text: Buffer, needle: string): number {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `${needle} not found`);
  return i;
}

test("multi-byte UTF-8: columns count bytes, not characters", () => {
  const buf = Buffer.from("let s = \"日本\"; fn main() {}\n");
  const idx = new LineIndex(buf);
  const start = at(buf, "main");
  assert.deepEqual(idx.position(start), { line: 1, col: start });
  assert.equal(start, 21); // `let s = "` (9) + 日本 (6 bytes) + `"; fn ` (6)
  const span = makeSpan("a.rs", start, start + 4, idx);
  assert.equal(buf.subarray(span.byte_start, span.byte_end).toString(), "main");
  assert.deepEqual([span.start_line, span.start_col, span.end_line, span.end_col], [1, 21, 1, 25]);
});

test("CRLF: the CR belongs to its line, the next line starts after LF", () => {
  const buf = Buffer.from("a\r\nbc\r\n");
  const idx = new LineIndex(buf);
  assert.deepEqual(idx.position(at(buf, "bc")), { line: 2, col: 0 });
  assert.deepEqual(idx.position(1), { line: 1, col: 1 }); // the CR
  assert.equal(idx.lineText(1), "a");
  assert.equal(idx.lineEnd(1), 2);
  assert.equal(idx.lineCount, 3);
});

test("BOM is part of line 1's bytes", () => {
  const buf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("x = 1\n")]);
  const idx = new LineIndex(buf);
  assert.deepEqual(idx.position(3), { line: 1, col: 3 });
  assert.equal(idx.offset(1, 3), 3);
});

test("no final newline, and the empty file", () => {
  const idx = new LineIndex(Buffer.from("a\nlast"));
  assert.deepEqual(idx.position(6), { line: 2, col: 4 });
  assert.equal(idx.lineText(2), "last");
  const empty = new LineIndex(Buffer.alloc(0));
  assert.deepEqual(empty.position(0), { line: 1, col: 0 });
  assert.equal(empty.lineCount, 1);
  assert.throws(() => empty.position(1), RangeError);
  const span = makeSpan("e.txt", 0, 0, empty);
  assert.deepEqual([span.start_line, span.start_col, span.end_line, span.end_col], [1, 0, 1, 0]);
});

test("offset(line, col) round-trips and refuses positions outside the file", () => {
  const buf = Buffer.from("ab\ncdé\n");
  const idx = new LineIndex(buf);
  for (let o = 0; o <= buf.length; o++) {
    const p = idx.position(o);
    assert.equal(idx.offset(p.line, p.col), o);
  }
  assert.throws(() => idx.offset(0, 0), RangeError);
  assert.throws(() => idx.offset(1, 3), RangeError);
  assert.throws(() => idx.offset(9, 0), RangeError);
});

test("char boundaries inside a multi-byte sequence are refused", () => {
  const buf = Buffer.from("aé😀");
  assert.ok(isCharBoundary(buf, 0));
  assert.ok(isCharBoundary(buf, 1));
  assert.ok(!isCharBoundary(buf, 2));
  assert.ok(isCharBoundary(buf, 3));
  assert.ok(!isCharBoundary(buf, 4));
  assert.ok(!isCharBoundary(buf, 6));
  assert.ok(isCharBoundary(buf, 7));
  assert.ok(!isCharBoundary(buf, 8));
});

test("lineOf answers the same whatever order it is asked in (it starts from its last answer)", () => {
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let round = 0; round < 20; round++) {
    const parts: string[] = [];
    for (let i = rnd(40); i >= 0; i--) parts.push("x".repeat(rnd(5)) + (rnd(3) === 0 ? "\r\n" : "\n"));
    if (rnd(2) === 0) parts.push("tail");
    const bytes = Buffer.from(parts.join(""));
    const expected = (o: number): number => 1 + [...bytes.subarray(0, o)].filter((b) => b === 0x0a).length;
    const lines = new LineIndex(bytes);
    const offsets = Array.from({ length: bytes.length + 1 }, (_, i) => i);
    // In order, backwards, and shuffled.
    const orders = [offsets, [...offsets].reverse(), offsets.map((o) => [rnd(1000), o]).sort((a, b) => (a[0] as number) - (b[0] as number)).map((p) => p[1] as number)];
    for (const order of orders) for (const o of order) assert.equal(lines.lineOf(o), expected(o), `offset ${o} of ${JSON.stringify(bytes.toString())}`);
  }
});
