import { spanId } from "../contract/ids.js";
import type { Span } from "../contract/schema.js";
import type { LineIndex } from "./lines.js";

/** Builds a CONTRACT.md Span; the eight fields in their fixed order. */
export function makeSpan(filePath: string, byteStart: number, byteEnd: number, lines: LineIndex): Span {
  if (byteStart > byteEnd) throw new RangeError(`span start ${byteStart} after end ${byteEnd}`);
  const s = lines.position(byteStart);
  const e = lines.position(byteEnd);
  return {
    span_id: spanId(filePath, byteStart, byteEnd),
    file_path: filePath,
    byte_start: byteStart,
    byte_end: byteEnd,
    start_line: s.line,
    start_col: s.col,
    end_line: e.line,
    end_col: e.col,
  };
}
