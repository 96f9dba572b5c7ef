import { isUtf8 } from "node:buffer";

/**
 * Text decoded from a file's bytes, with the way back from a JS string index (UTF-16 code unit,
 * as JS regexes and node-tree-sitter report positions) to the exact byte offset in the file.
 *
 * Invalid UTF-8 is decoded one U+FFFD per offending byte, so every byte stays addressable and
 * spans around it stay exact: `bytes[toByte(i)..toByte(j)]` is the text `text[i..j]` stood for.
 */
export interface DecodedText {
  text: string;
  /** Byte offset of UTF-16 index `i` (0 <= i <= text.length). */
  toByte(i: number): number;
  /** UTF-16 index of byte offset `b`; a byte inside a character maps to the character's start. */
  toIndex(b: number): number;
  /** True when the bytes were valid UTF-8. */
  valid: boolean;
  /** True when every byte is ASCII (index == byte offset). */
  ascii: boolean;
}

export function decodeBytes(bytes: Uint8Array): DecodedText {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buf)) {
    const text = buf.toString("utf8");
    if (text.length === buf.length) {
      return { text, toByte: (i) => i, toIndex: (b) => b, valid: true, ascii: true };
    }
    return withTable(text, utf8Table(text), true, buf.length);
  }
  const { text, table } = decodeLossy(buf);
  return withTable(text, table, false, buf.length);
}

function withTable(text: string, table: Uint32Array, valid: boolean, byteLength: number): DecodedText {
  return {
    text,
    valid,
    ascii: false,
    toByte: (i) => {
      if (i < 0 || i > text.length) throw new RangeError(`index ${i} outside 0..${text.length}`);
      return table[i] as number;
    },
    toIndex: (b) => {
      if (b < 0 || b > byteLength) throw new RangeError(`byte ${b} outside 0..${byteLength}`);
      // Largest i with table[i] <= b.
      let lo = 0;
      let hi = text.length;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if ((table[mid] as number) <= b) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    },
  };
}

/** table[i] = byte offset of UTF-16 unit i; the low half of a surrogate pair sits mid-character. */
function utf8Table(text: string): Uint32Array {
  const table = new Uint32Array(text.length + 1);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    table[i] = b;
    const c = text.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        table[i + 1] = b + 2;
        b += 4;
        i++;
        continue;
      }
      b += 3;
    } else b += 3;
  }
  table[text.length] = b;
  return table;
}

/** Decodes valid sequences normally and each invalid byte as one U+FFFD, recording offsets. */
function decodeLossy(buf: Buffer): { text: string; table: Uint32Array } {
  const units: number[] = [];
  const offsets: number[] = [];
  let i = 0;
  const n = buf.length;
  while (i < n) {
    const b0 = buf[i] as number;
    let len = 0;
    let cp = 0;
    if (b0 < 0x80) {
      len = 1;
      cp = b0;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      len = 2;
      cp = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      len = 3;
      cp = b0 & 0x0f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      len = 4;
      cp = b0 & 0x07;
    }
    let ok = len > 0 && i + len <= n;
    for (let k = 1; ok && k < len; k++) {
      const bk = buf[i + k] as number;
      if ((bk & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (bk & 0x3f);
    }
    // Reject overlongs, surrogates and values past U+10FFFF, as a strict decoder does.
    if (ok && len === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (ok && len === 4 && (cp < 0x10000 || cp > 0x10ffff)) ok = false;
    if (!ok) {
      units.push(0xfffd);
      offsets.push(i);
      i += 1;
      continue;
    }
    if (cp >= 0x10000) {
      const v = cp - 0x10000;
      units.push(0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff));
      offsets.push(i, i + 2);
    } else {
      units.push(cp);
      offsets.push(i);
    }
    i += len;
  }
  const table = new Uint32Array(units.length + 1);
  table.set(offsets);
  table[units.length] = n;
  let text = "";
  for (let k = 0; k < units.length; k += 8192) text += String.fromCharCode(...units.slice(k, k + 8192));
  return { text, table };
}
