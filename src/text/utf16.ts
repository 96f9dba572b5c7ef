/**
 * Text files in UTF-16 with a byte order mark (Windows resource and script files, some CSV and
 * log exports). ripgrep searches them by transcoding to UTF-8 (its default `--encoding auto`
 * sniffs the BOM); the tools here do the same for the search, while every span stays in the
 * file's own bytes: the BOM is two bytes of line 1, each UTF-16 code unit two bytes after it, so
 * a string index `i` of the decoded text is byte `2 + 2i` of the file. Edits are written in the
 * file's encoding (see llmtransform's plan).
 */

export type Utf16Encoding = "utf-16le" | "utf-16be";

/** The UTF-16 encoding a BOM at the start of `bytes` names, if any. */
export function utf16Bom(bytes: Uint8Array): Utf16Encoding | undefined {
  if (bytes.length < 2) return undefined;
  const a = bytes[0];
  const b = bytes[1];
  if (a === 0xff && b === 0xfe) {
    // FF FE 00 00 is UTF-32LE's BOM, which ripgrep does not transcode either.
    return bytes.length >= 4 && bytes[2] === 0 && bytes[3] === 0 ? undefined : "utf-16le";
  }
  return a === 0xfe && b === 0xff ? "utf-16be" : undefined;
}

/** Bytes of the BOM, before the first code unit. */
export const UTF16_BOM_BYTES = 2;

/**
 * The text after the BOM, one string unit per code unit (lone surrogates kept as they are, so the
 * index-to-byte rule holds); a trailing odd byte becomes one U+FFFD at the end.
 */
export function decodeUtf16(bytes: Uint8Array, enc: Utf16Encoding): string {
  return decodeUnits(bytes, UTF16_BOM_BYTES, bytes.length, enc);
}

/** Bytes `start..end` of a UTF-16 file as text (an odd last byte: one U+FFFD). */
export function decodeUnits(bytes: Uint8Array, start: number, end: number, enc: Utf16Encoding): string {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, end - start));
  const even = body.length & ~1;
  const text = enc === "utf-16le" ? body.toString("utf16le", 0, even) : Buffer.from(body.subarray(0, even)).swap16().toString("utf16le");
  return even < body.length ? `${text}\ufffd` : text;
}

/** `text` in the file's encoding, without a BOM (for an edit inside the file). */
export function encodeUtf16(text: string, enc: Utf16Encoding): Buffer {
  const le = Buffer.from(text, "utf16le");
  return enc === "utf-16le" ? le : le.swap16();
}

/** The code unit at byte `offset` (an even offset past the BOM, inside the file). */
export function codeUnitAt(bytes: Uint8Array, offset: number, enc: Utf16Encoding): number {
  const a = bytes[offset] as number;
  const b = bytes[offset + 1] as number;
  return enc === "utf-16le" ? a | (b << 8) : (a << 8) | b;
}

/**
 * Whether an edit may start or end at byte `offset`: the file's ends, or the start of a code unit
 * after the BOM that is not the second half of a surrogate pair.
 */
export function isUtf16Boundary(bytes: Uint8Array, offset: number, enc: Utf16Encoding): boolean {
  if (offset === bytes.length) return true;
  if (offset < UTF16_BOM_BYTES || offset % 2 !== 0 || offset + 1 >= bytes.length) return false;
  const unit = codeUnitAt(bytes, offset, enc);
  if (unit < 0xdc00 || unit > 0xdfff || offset < UTF16_BOM_BYTES + 2) return true;
  const prev = codeUnitAt(bytes, offset - 2, enc);
  return prev < 0xd800 || prev > 0xdbff;
}

/** Where the lines begin (0, then past each U+000A code unit): a LineIndex's known starts. */
export function utf16LineStarts(bytes: Uint8Array, enc: Utf16Encoding): number[] {
  const starts = [0];
  const [lo, hi] = enc === "utf-16le" ? [0x0a, 0] : [0, 0x0a];
  for (let i = UTF16_BOM_BYTES; i + 1 < bytes.length; i += 2) {
    if (bytes[i] === lo && bytes[i + 1] === hi) starts.push(i + 2);
  }
  return starts;
}
