import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeBytes } from "../../src/text/decode.js";

test("ASCII maps index to byte one to one", () => {
  const d = decodeBytes(Buffer.from("hello"));
  assert.ok(d.ascii && d.valid);
  assert.equal(d.toByte(5), 5);
});

test("valid UTF-8: indices map to exact byte offsets, astral characters included", () => {
  const bytes = Buffer.from("aé😀z");
  const d = decodeBytes(bytes);
  assert.ok(d.valid && !d.ascii);
  const zi = d.text.indexOf("z");
  assert.equal(d.toByte(zi), bytes.indexOf("z"));
  assert.equal(d.toByte(d.text.length), bytes.length);
  assert.equal(d.toIndex(bytes.indexOf("z")), zi);
  const e = d.text.indexOf("😀");
  assert.equal(bytes.subarray(d.toByte(e), d.toByte(e + 2)).toString(), "😀");
});

test("invalid UTF-8: each bad byte is one U+FFFD and every offset stays exact", () => {
  const bytes = Buffer.concat([Buffer.from("ab"), Buffer.from([0xff, 0xc3]), Buffer.from("(é)"), Buffer.from([0xe2, 0x82])]);
  const d = decodeBytes(bytes);
  assert.ok(!d.valid);
  assert.equal(d.text, "ab\ufffd\ufffd(é)\ufffd\ufffd");
  const i = d.text.indexOf("é");
  assert.equal(bytes.subarray(d.toByte(i), d.toByte(i + 1)).toString(), "é");
  assert.equal(d.toByte(d.text.length), bytes.length);
  // Overlong encodings and surrogates are invalid too.
  assert.equal(decodeBytes(Buffer.from([0xc0, 0xaf])).text, "\ufffd\ufffd");
  assert.equal(decodeBytes(Buffer.from([0xed, 0xa0, 0x80])).text, "\ufffd\ufffd\ufffd");
});
