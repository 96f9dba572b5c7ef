import assert from "node:assert/strict";
import { isAscii, isUtf8 } from "node:buffer";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
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

/**
 * The reference: one table entry per UTF-16 unit, filled by walking every unit (decodeBytes'
 * former representation). The low half of a surrogate pair sits 2 bytes into its character.
 */
function denseTable(text: string): number[] {
  const table: number[] = [];
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    table.push(b);
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        table.push(b + 2);
        b += 4;
        i++;
        continue;
      }
    }
    b += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  table.push(b);
  return table;
}

/** Every index and every byte of `bytes` mapped both ways, against the dense reference. */
function assertMapsLikeDense(bytes: Buffer, label: string): void {
  const d = decodeBytes(bytes);
  assert.ok(d.valid, label);
  assert.equal(d.text, bytes.toString("utf8"), label);
  const table = denseTable(d.text);
  assert.equal(table[d.text.length], bytes.length, label);
  assert.equal(d.ascii, d.text.length === bytes.length, label);
  for (let i = 0; i <= d.text.length; i++) assert.equal(d.toByte(i), table[i], `${label}: toByte(${i})`);
  let i = 0;
  for (let b = 0; b <= bytes.length; b++) {
    while (i < d.text.length && (table[i + 1] as number) <= b) i++;
    assert.equal(d.toIndex(b), i, `${label}: toIndex(${b})`);
  }
  if (d.ascii) return;
  assert.throws(() => d.toByte(-1), RangeError);
  assert.throws(() => d.toByte(d.text.length + 1), RangeError);
  assert.throws(() => d.toIndex(-1), RangeError);
  assert.throws(() => d.toIndex(bytes.length + 1), RangeError);
}

test("valid UTF-8: toByte and toIndex agree with a per-unit table at every index and byte", () => {
  // 1-, 2-, 3- and 4-byte characters; ASCII dominates some strings (as in source files) and is
  // rare in others, and long strings put characters across the 1 KiB scan chunks.
  const pools = [["a", "z", "\n", " ", "{"], ["é", "ß", "Ж", "ߐ"], ["€", "—", "田", "\u0800", "\uffff"], ["😀", "𝔘", "\u{10000}", "\u{10ffff}"]];
  let seed = 20261125;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let t = 0; t < 300; t++) {
    const len = t < 200 ? Math.floor(rnd() * 40) : 900 + Math.floor(rnd() * 1500);
    const asciiShare = [0, 0.5, 0.97, 1][t % 4] as number;
    let s = "";
    for (let k = 0; k < len; k++) {
      const pool = (rnd() < asciiShare ? pools[0] : pools[1 + Math.floor(rnd() * 3)]) as string[];
      s += pool[Math.floor(rnd() * pool.length)];
    }
    assertMapsLikeDense(Buffer.from(s, "utf8"), `case ${t} ${JSON.stringify(s.slice(0, 40))}`);
  }
  // A multi-byte character across each position of a chunk edge.
  for (const ch of ["é", "€", "😀"]) {
    for (let pad = 1018; pad <= 1026; pad++) assertMapsLikeDense(Buffer.from(`${"x".repeat(pad)}${ch}y${ch}`), `${ch} after ${pad}`);
  }
  // A plain Uint8Array view that starts inside its ArrayBuffer maps the same as a Buffer.
  const whole = new Uint8Array(Buffer.from(`skip${"é".repeat(3)}${"a".repeat(1500)}😀—z`));
  const view = whole.subarray(4);
  const d = decodeBytes(view);
  const ref = denseTable(d.text);
  for (let i = 0; i <= d.text.length; i++) assert.equal(d.toByte(i), ref[i], `view toByte(${i})`);
});

test("valid UTF-8: real files with non-ASCII text map like the per-unit table", () => {
  const fixtures = fileURLToPath(new URL("../../../test/fixtures/", import.meta.url));
  const files = readdirSync(fixtures, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
  let n = 0;
  for (const f of files) {
    const bytes = readFileSync(f);
    if (!isUtf8(bytes) || isAscii(bytes)) continue;
    assertMapsLikeDense(bytes, f.slice(fixtures.length));
    n++;
  }
  assert.ok(n >= 10, `${n} non-ASCII fixture files`);
  const d = decodeBytes(readFileSync(join(fixtures, "text", "i18n.ts")));
  const i = d.text.indexOf("👨‍👩‍👧");
  assert.equal(d.toByte(i + 1), d.toByte(i) + 2);
  assert.equal(d.toIndex(d.toByte(i) + 3), i + 1);
});
