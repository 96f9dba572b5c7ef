/**
 * Byte offset <-> (line, column) over the raw bytes of a file.
 *
 * Lines are split on LF only: in a CRLF file the CR is the last byte of its line, which keeps
 * columns true byte offsets and spans exact. A BOM is ordinary bytes of line 1 (CONTRACT.md:
 * offsets are into the file as stored). Lines are 1-based, columns 0-based bytes.
 */
import { decodeUnits, UTF16_BOM_BYTES, type Utf16Encoding, utf16LineStarts } from "./utf16.js";

/** Where each line of a string starts (UTF-16 indices): 0, then one past each LF. */
export function textLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The 0-based line holding offset `at`: the last of `starts` (ascending, from 0) at or before it. */
export function lineAt(starts: ArrayLike<number>, at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((starts[mid] as number) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export class LineIndex {
  /** starts[i] = byte offset where line i+1 begins. */
  private readonly starts: readonly number[];
  /** The 0-based line of the last lineOf answer. */
  private last = 0;
  readonly length: number;

  /**
   * `knownStarts`: the byte offsets where the lines of `bytes` begin (0, then one past each LF),
   * when the caller found them already; otherwise they are found here.
   */
  constructor(
    private readonly bytes: Uint8Array,
    knownStarts?: readonly number[],
    /** UTF-16 text with a BOM (src/text/utf16.ts): its lines start past each two-byte LF and decode from it. */
    private readonly utf16?: Utf16Encoding,
  ) {
    this.length = bytes.length;
    knownStarts ??= utf16 ? utf16LineStarts(bytes, utf16) : undefined;
    if (knownStarts) {
      this.starts = knownStarts;
      return;
    }
    const starts = [0];
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let i = buf.indexOf(0x0a);
    while (i !== -1) {
      starts.push(i + 1);
      i = buf.indexOf(0x0a, i + 1);
    }
    this.starts = starts;
  }

  /** Number of lines; a file ending in "\n" has an empty last line that is counted. */
  get lineCount(): number {
    return this.starts.length;
  }

  /** 1-based line containing `offset` (offset == length maps to the last line). */
  lineOf(offset: number): number {
    if (offset < 0 || offset > this.length) throw new RangeError(`offset ${offset} outside 0..${this.length}`);
    // Callers mostly ask in file order: the line of the last answer, or the next, first.
    const starts = this.starts;
    const k = this.last;
    if ((starts[k] as number) <= offset) {
      const next = starts[k + 1];
      if (next === undefined || offset < next) return k + 1;
      const after = starts[k + 2];
      if (after === undefined || offset < after) {
        this.last = k + 1;
        return k + 2;
      }
    }
    const line = lineAt(starts, offset);
    this.last = line;
    return line + 1;
  }

  position(offset: number): { line: number; col: number } {
    const line = this.lineOf(offset);
    return { line, col: offset - (this.starts[line - 1] as number) };
  }

  /** Byte offset of (1-based line, 0-based byte column); throws when outside the file. */
  offset(line: number, col: number): number {
    if (!Number.isInteger(line) || line < 1 || line > this.starts.length) {
      throw new RangeError(`line ${line} outside 1..${this.starts.length}`);
    }
    const start = this.starts[line - 1] as number;
    const end = this.lineEnd(line);
    if (!Number.isInteger(col) || col < 0 || start + col > end) {
      throw new RangeError(`column ${col} outside 0..${end - start} on line ${line}`);
    }
    return start + col;
  }

  lineStart(line: number): number {
    return this.starts[line - 1] as number;
  }

  /** Offset just past the line's content, before its LF (a CR stays part of the content). */
  lineEnd(line: number): number {
    const next = this.starts[line];
    return next === undefined ? this.length : next - (this.utf16 ? 2 : 1);
  }

  /** Text of a line without its terminator (CR of CRLF removed too, for display). */
  lineText(line: number): string {
    const start = this.lineStart(line);
    let end = this.lineEnd(line);
    if (this.utf16) {
      // Line 1 starts at the BOM, which is not text.
      return decodeUnits(this.bytes, Math.max(start, UTF16_BOM_BYTES), end, this.utf16).replace(/\r$/, "");
    }
    if (end > start && this.bytes[end - 1] === 0x0d) end -= 1;
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + start, end - start).toString("utf8");
  }
}
