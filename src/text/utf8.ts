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
