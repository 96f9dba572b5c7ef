import { decodeBytes, type DecodedText } from "../text/decode.js";
import { LineIndex } from "../text/lines.js";

export interface Located {
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
  byte_start: number;
  byte_end: number;
}

/**
 * Turns the many ways checkers report a place (byte offsets, UTF-16 indices, LSP line/character,
 * 1-based line/column) into exact byte spans of the validated content. Out-of-range input is
 * clamped: a checker pointing one past the end (EOF errors) still lands on the file's end.
 */
export class ContentPositions {
  readonly decoded: DecodedText;
  readonly lines: LineIndex;

  constructor(readonly bytes: Uint8Array) {
    this.decoded = decodeBytes(bytes);
    this.lines = new LineIndex(bytes);
  }

  get text(): string {
    return this.decoded.text;
  }

  private clampByte(b: number): number {
    return Math.min(Math.max(0, Math.trunc(b)), this.bytes.length);
  }

  fromBytes(start: number, end: number): Located {
    const bs = this.clampByte(start);
    const be = Math.max(bs, this.clampByte(end));
    const s = this.lines.position(bs);
    const e = this.lines.position(be);
    return { start_line: s.line, start_col: s.col, end_line: e.line, end_col: e.col, byte_start: bs, byte_end: be };
  }

  /** JS string indices (TypeScript's `start`/`length`, node-tree-sitter's indices). */
  fromUtf16(start: number, end: number): Located {
    const n = this.decoded.text.length;
    const clamp = (i: number): number => Math.min(Math.max(0, Math.trunc(i)), n);
    return this.fromBytes(this.decoded.toByte(clamp(start)), this.decoded.toByte(clamp(end)));
  }

  /** Byte offset of (0-based line, UTF-16 character in that line), as LSP counts. */
  byteOfLspPosition(line0: number, character: number): number {
    if (line0 >= this.lines.lineCount) return this.bytes.length;
    const lineStart = this.lines.lineStart(Math.max(0, line0) + 1);
    const lineEnd = this.lines.lineEnd(Math.max(0, line0) + 1);
    const idx = this.decoded.toIndex(lineStart) + Math.max(0, character);
    return Math.min(this.decoded.toByte(Math.min(idx, this.decoded.text.length)), lineEnd);
  }

  fromLsp(range: { start: { line: number; character: number }; end: { line: number; character: number } }): Located {
    return this.fromBytes(
      this.byteOfLspPosition(range.start.line, range.start.character),
      this.byteOfLspPosition(range.end.line, range.end.character),
    );
  }

  /** Byte offset of (1-based line, 1-based byte column), clamped to the line. */
  byteOfLineByteCol(line1: number, col1: number): number {
    if (line1 < 1) return 0;
    if (line1 > this.lines.lineCount) return this.bytes.length;
    const start = this.lines.lineStart(line1);
    return Math.min(start + Math.max(0, col1 - 1), this.lines.lineEnd(line1));
  }

  /** Byte offset of (1-based line, 1-based character column) where characters are code points. */
  byteOfLineCharCol(line1: number, col1: number): number {
    if (line1 < 1) return 0;
    if (line1 > this.lines.lineCount) return this.bytes.length;
    const start = this.lines.lineStart(line1);
    const end = this.lines.lineEnd(line1);
    const text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + start, end - start).toString("utf8");
    const chars = Array.from(text).slice(0, Math.max(0, col1 - 1)).join("");
    return Math.min(start + Buffer.byteLength(chars, "utf8"), end);
  }
}
