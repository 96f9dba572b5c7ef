/**
 * UTF-8 byte offsets (the contract's unit) against UTF-16 code units (TypeScript's unit) and
 * LSP positions (line + UTF-16 column, the protocol's default encoding), for one text.
 */
import { lineAt, textLineStarts } from "../../../text/lines.js";

export class TextOffsets {
  readonly text: string;
  private readonly ascii: boolean;
  /** byte offset of each UTF-16 index (length text.length + 1), built only for non-ASCII text. */
  private byteAt: Uint32Array | undefined;
  private lineStarts: number[] | undefined;

  constructor(readonly bytes: Uint8Array) {
    // ignoreBOM keeps a BOM as U+FEFF so that every offset maps one-to-one; TypeScript and the
    // language servers skip it as trivia.
    this.text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    this.ascii = this.text.length === bytes.length;
  }

  static fromText(text: string): TextOffsets {
    return new TextOffsets(new TextEncoder().encode(text));
  }

  private table(): Uint32Array {
    if (this.byteAt) return this.byteAt;
    const t = this.text;
    const out = new Uint32Array(t.length + 1);
    let b = 0;
    for (let i = 0; i < t.length; i++) {
      out[i] = b;
      const c = t.charCodeAt(i);
      if (c < 0x80) b += 1;
      else if (c < 0x800) b += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length) {
        // a surrogate pair is one 4-byte character; its low half has no byte offset of its own
        out[++i] = b;
        b += 4;
      } else b += 3;
    }
    out[t.length] = b;
    this.byteAt = out;
    return out;
  }

  charToByte(i: number): number {
    return this.ascii ? i : (this.table()[i] as number);
  }

  byteToChar(b: number): number {
    if (this.ascii) return b;
    const t = this.table();
    let lo = 0;
    let hi = this.text.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((t[mid] as number) < b) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private lines(): number[] {
    return (this.lineStarts ??= textLineStarts(this.text));
  }

  /** LSP position (0-based line, UTF-16 character) of a byte offset. */
  byteToPosition(b: number): { line: number; character: number } {
    const c = this.byteToChar(b);
    const starts = this.lines();
    const line = lineAt(starts, c);
    return { line, character: c - (starts[line] as number) };
  }

  positionToByte(p: { line: number; character: number }): number {
    const starts = this.lines();
    const start = starts[Math.min(p.line, starts.length - 1)] as number;
    return this.charToByte(Math.min(start + p.character, this.text.length));
  }

  /** 1-based line of a byte offset. */
  lineOf(b: number): number {
    return this.byteToPosition(b).line + 1;
  }
}
