import { isAscii, isUtf8 } from "node:buffer";

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
    return withSparseMap(text, buf);
  }
  const { text, table } = decodeLossy(buf);
  return withTable(text, table, false, buf.length);
}

/**
 * Bytes scanned per native isAscii call when looking for non-ASCII characters: source files are
 * mostly ASCII, so most chunks are skipped without a JS loop. Over typeorm's non-ASCII files 1 KiB
 * beat 256 B..4 KiB (and a regex over the text, 2x slower) once optimised.
 */
const CHUNK = 1024;

/**
 * Valid, not pure ASCII: source files carry a few non-ASCII characters in a sea of ASCII, so
 * rather than a table entry per UTF-16 unit, keep one per non-ASCII unit: its index `pos[k]` and
 * `extra[k]`, the bytes beyond one per unit used by units 0..pos[k] inclusive. Between two
 * non-ASCII units the byte offset is the index plus a constant, found by binary search.
 *
 * Each non-ASCII unit takes at least two bytes, so there are at most bytes - units of them. A
 * surrogate pair (4 bytes) counts one extra byte per half, which puts the low half at the pair's
 * start + 2, as the dense table did ("mid-character").
 */
function withSparseMap(text: string, buf: Buffer): DecodedText {
  const cap = buf.length - text.length;
  const pos = new Int32Array(cap);
  const extra = new Int32Array(cap);
  let k = 0;
  let x = 0;
  let b = 0;
  const n = buf.length;
  for (let s = 0; s < n; s += CHUNK) {
    const e = Math.min(n, s + CHUNK);
    // b may already be past s: the last character of the previous chunk ran into this one.
    if (b >= e || isAscii(buf.subarray(b, e))) {
      b = Math.max(b, e);
      continue;
    }
    while (b < e) {
      const c = buf[b] as number;
      if (c < 0x80) {
        b++;
        continue;
      }
      const i = b - x;
      if (c < 0xe0) {
        x += 1;
        b += 2;
      } else if (c < 0xf0) {
        x += 2;
        b += 3;
      } else {
        pos[k] = i;
        extra[k++] = x + 1;
        x += 2;
        pos[k] = i + 1;
        extra[k++] = x;
        b += 4;
        continue;
      }
      pos[k] = i;
      extra[k++] = x;
    }
  }
  return sparse(text, pos, extra, k, n);
}

function sparse(text: string, pos: Int32Array, extra: Int32Array, k: number, byteLength: number): DecodedText {
  return {
    text,
    valid: true,
    ascii: false,
    toByte: (i) => {
      if (i < 0 || i > text.length) throw new RangeError(`index ${i} outside 0..${text.length}`);
      // lo ends as the number of non-ASCII units before i.
      let lo = 0;
      let hi = k;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((pos[mid] as number) < i) lo = mid + 1;
        else hi = mid;
      }
      return lo === 0 ? i : i + (extra[lo - 1] as number);
    },
    toIndex: (b) => {
      if (b < 0 || b > byteLength) throw new RangeError(`byte ${b} outside 0..${byteLength}`);
      // lo ends as the number of non-ASCII units that end at or before b (unit m ends at byte
      // pos[m] + 1 + extra[m]).
      let lo = 0;
      let hi = k;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((pos[mid] as number) + 1 + (extra[mid] as number) <= b) lo = mid + 1;
        else hi = mid;
      }
      const i = lo === 0 ? b : b - (extra[lo - 1] as number);
      // Past the start of unit lo, b is inside that unit's bytes: it maps to the unit's start.
      return lo < k && i > (pos[lo] as number) ? (pos[lo] as number) : i;
    },
  };
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
