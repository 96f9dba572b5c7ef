import { isUtf8 } from "node:buffer";

/** True when `offset` does not fall inside a multi-byte UTF-8 sequence. */
export function isCharBoundary(bytes: Uint8Array, offset: number): boolean {
  if (offset === 0 || offset === bytes.length) return true;
  if (offset < 0 || offset > bytes.length) return false;
  return ((bytes[offset] as number) & 0xc0) !== 0x80;
}

export function isValidUtf8(bytes: Uint8Array): boolean {
  return isUtf8(bytes);
}

export const UTF8_BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * Offset of the first byte that does not start or continue a well-formed UTF-8 sequence (no
 * overlongs, surrogates or code points past U+10FFFF), or -1 when every byte does. Stops there,
 * without decoding anything: a large invalid file is refused at the cost of its first bad byte.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    // A sequence cut off by the end of the bytes.
    if (i + need > n - 1) return i;
    const second = bytes[i + 1] as number;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k] as number;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}
