/**
 * The heart of llmtransform, pure and in memory: resolve each edit to a byte range of the
 * original file, validate it (bounds, UTF-8 boundaries, overlaps), and compute the final bytes
 * with the position of every new text in them. Nothing here touches the disk.
 */
import { matchId, spanId } from "../../contract/ids.js";
import type { Diagnostic, Span } from "../../contract/schema.js";
import type { LlmtransformEditResult } from "../../contract/tools/llmtransform.js";
import { checksum } from "../../text/checksum.js";
import { LineIndex } from "../../text/lines.js";
import { makeSpan } from "../../text/span.js";
import { encodeUtf16, isUtf16Boundary, utf16Bom } from "../../text/utf16.js";
import { CODES, TOOL } from "./codes.js";
import type { EditInput } from "./request.js";

export interface PlanOptions {
  /** Apply the valid edits even when others are invalid (default: all or nothing). */
  partial?: boolean;
}

export interface Plan {
  /** One per requested edit, in request order. */
  edits: LlmtransformEditResult[];
  /** The file as it will be after the applied edits (the original bytes when none apply). */
  output: Buffer;
  totalByteShift: number;
  applied: number;
  skipped: number;
  errors: number;
}

interface Resolved {
  index: number;
  input: EditInput;
  newBytes: Buffer;
  /** Resolved byte range; undefined when a position could not be mapped to a byte. */
  start?: number;
  end?: number;
  error?: Diagnostic;
}

/**
 * True unless `offset` falls inside a well-formed multi-byte UTF-8 sequence, judged the way
 * src/text/decode.ts decodes (each invalid byte is a character of its own). On valid UTF-8 this
 * is exactly isCharBoundary; on invalid UTF-8 it lets edits sit next to the stray bytes.
 */
export function isEditBoundary(bytes: Uint8Array, offset: number): boolean {
  if (offset <= 0 || offset >= bytes.length) return true;
  if (((bytes[offset] as number) & 0xc0) !== 0x80) return true;
  // The sequence containing `offset`, if any, starts at the nearest non-continuation byte.
  for (let k = 1; k <= 3 && offset - k >= 0; k++) {
    const p = offset - k;
    if (((bytes[p] as number) & 0xc0) === 0x80) continue;
    return sequenceLength(bytes, p) <= k;
  }
  return true;
}

/** Length of the well-formed UTF-8 sequence starting at `i`, or 1 when it is not one. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i] as number;
  let len: number;
  let cp: number;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) [len, cp] = [2, b0 & 0x1f];
  else if (b0 >= 0xe0 && b0 <= 0xef) [len, cp] = [3, b0 & 0x0f];
  else if (b0 >= 0xf0 && b0 <= 0xf4) [len, cp] = [4, b0 & 0x07];
  else return 1;
  if (i + len > bytes.length) return 1;
  for (let k = 1; k < len; k++) {
    const b = bytes[i + k] as number;
    if ((b & 0xc0) !== 0x80) return 1;
    cp = (cp << 6) | (b & 0x3f);
  }
  if (len === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) return 1;
  if (len === 4 && (cp < 0x10000 || cp > 0x10ffff)) return 1;
  return len;
}

/** In a `u` regex a proper surrogate pair is one code point, so only lone halves match. */
function hasLoneSurrogate(text: string): boolean {
  return /\p{Cs}/u.test(text);
}

function diag(code: string, message: string, remediation: string, span?: Span): Diagnostic {
  // Keys in DiagnosticPayload's order (seed 02).
  const d: Diagnostic = { tool: TOOL, level: "error", message, code };
  if (span) {
    delete (d as { code?: string }).code;
    Object.assign(d, { span, code });
  }
  d.remediation = remediation;
  return d;
}

function describe(r: Resolved): string {
  return `edits[${r.index}] [${r.start}, ${r.end})`;
}

/** Maps one end of an edit to a byte offset; both spellings given must agree. */
function resolveEnd(
  which: "start" | "end",
  byte: number | undefined,
  line: number | undefined,
  col: number | undefined,
  lines: LineIndex,
  index: number,
): { offset?: number; error?: Diagnostic } {
  if (line === undefined || col === undefined) return { offset: byte };
  let fromPos: number;
  try {
    fromPos = lines.offset(line, col);
  } catch (e) {
    return {
      error: diag(
        CODES.invalid_position,
        `edits[${index}]: ${which} position line ${line}, column ${col} is not in the file (${(e as Error).message})`,
        `Lines are 1-based, columns 0-based bytes within the line; the file has ${lines.lineCount} line(s). Re-read the file or give byte offsets.`,
      ),
    };
  }
  if (byte !== undefined && byte !== fromPos) {
    return {
      error: diag(
        CODES.invalid_position,
        `edits[${index}]: byte_${which} ${byte} and ${which}_line/${which}_col (${line}:${col} = byte ${fromPos}) disagree`,
        "Give one of the two, or make them name the same byte.",
      ),
    };
  }
  return { offset: fromPos };
}

export function planEdits(original: Buffer, filePath: string, inputs: EditInput[], options: PlanOptions = {}): Plan {
  // A UTF-16 file takes its new text in UTF-16 too: UTF-8 bytes in it would corrupt it.
  const wide = utf16Bom(original);
  const lines = new LineIndex(original, undefined, wide);
  const len = original.length;
  const boundary = (offset: number): boolean => (wide ? isUtf16Boundary(original, offset, wide) : isEditBoundary(original, offset));
  // A UTF-8 file's byte order mark (EF BB BF) stands first or it is a U+FEFF in the text: an
  // insertion at byte 0 put its text before the mark, which javac, Python and gcc then refuse
  // mid-file ("invalid non-printable character U+FEFF"). Line 1, column 0 is that byte.
  const bom8 = !wide && original.length >= 3 && original[0] === 0xef && original[1] === 0xbb && original[2] === 0xbf;

  const resolved: Resolved[] = inputs.map((input, index) => {
    const r: Resolved = { index, input, newBytes: wide ? encodeUtf16(input.new_content, wide) : Buffer.from(input.new_content, "utf8") };
    const s = resolveEnd("start", input.byte_start, input.start_line, input.start_col, lines, index);
    const e = resolveEnd("end", input.byte_end, input.end_line, input.end_col, lines, index);
    r.start = s.offset;
    r.end = e.offset;
    r.error = s.error ?? e.error;
    if (r.error) return r;
    const start = r.start as number;
    const end = r.end as number;
    if (start > end) {
      r.error = diag(
        CODES.reversed_range,
        `${describe(r)}: byte_start is after byte_end`,
        "byte_start is inclusive and byte_end exclusive; for an insertion give byte_start == byte_end.",
      );
    } else if (end > len) {
      r.error = diag(
        CODES.out_of_bounds,
        `${describe(r)} ends past the end of the file (${len} bytes)`,
        "Offsets are UTF-8 bytes of the file as stored; re-read the file and recompute the range.",
      );
    } else if (!boundary(start) || !boundary(end)) {
      const at = !boundary(start) ? start : end;
      const [message, remediation] = wide
        ? [
            `${describe(r)}: byte ${at} is not between two characters of this ${wide === "utf-16le" ? "UTF-16LE" : "UTF-16BE"} file (its BOM is bytes 0-1, each code unit 2 bytes after it, a surrogate pair 4)`,
            "Offsets count the file's bytes: give an even offset from 2 on, not inside the BOM or a surrogate pair (llmsearch's spans in this file are such offsets); new_content is written in the file's encoding.",
          ]
        : [`${describe(r)}: byte ${at} falls inside a multi-byte UTF-8 character`, "Move the offset to the start of the character; offsets count UTF-8 bytes, not characters or UTF-16 units."];
      r.error = diag(CODES.not_char_boundary, message, remediation, makeSpan(filePath, start, end, lines));
    } else if (bom8 && start === 0 && end === 0) {
      r.error = diag(
        CODES.not_char_boundary,
        `${describe(r)}: byte 0 is before this file's UTF-8 byte order mark (bytes 0-2); text inserted there would leave the mark inside the file`,
        "Insert at byte 3 (line 1, column 3), just after the mark; to drop or replace the mark itself, replace bytes [0, 3).",
        makeSpan(filePath, start, end, lines),
      );
    } else if (!wide && start > 0 && original[start - 1] === 0x0d && original[start] === 0x0a && !input.new_content.startsWith("\n") && !(start === end && input.new_content === "")) {
      // Text put between the \r and the \n of a CRLF line ending leaves a lone \r before it:
      // the file gains a line break only some tools see (an "end of line" found by searching
      // for "\n" is this byte). Ending an edit there is fine: it replaces the \r (CRLF to LF).
      r.error = diag(
        CODES.not_char_boundary,
        `${describe(r)}: byte ${start} is between the \\r and the \\n of a CRLF line ending (line ${lines.position(start).line}); the \\r would be left alone before the new text`,
        `Start at byte ${start - 1} (before the \\r: the end of the line's text) or at byte ${start + 1} (the start of the next line), or begin new_content with "\\n" to keep the line ending whole.`,
        makeSpan(filePath, start, end, lines),
      );
    } else if (hasLoneSurrogate(input.new_content)) {
      r.error = diag(
        CODES.invalid_content,
        `edits[${r.index}]: new_content holds a lone UTF-16 surrogate, which has no UTF-8 encoding`,
        "Send new_content as valid Unicode text; a lone \\uD800-\\uDFFF escape would be written as U+FFFD.",
        makeSpan(filePath, start, end, lines),
      );
    }
    return r;
  });

  // Overlap: any two valid ranges sharing a byte, or an insertion strictly inside a replaced
  // range. Both sides are rejected: which one the caller meant cannot be known.
  const valid = resolved.filter((r) => !r.error);
  const order = [...valid].sort((a, b) => (a.start as number) - (b.start as number) || (a.end as number) - (b.end as number) || a.index - b.index);
  const overlapsWith = new Map<Resolved, Resolved>();
  let active: Resolved[] = [];
  for (const r of order) {
    const s = r.start as number;
    const e = r.end as number;
    active = active.filter((a) => (a.end as number) > s);
    for (const a of active) {
      if ((a.start as number) < e && s < (a.end as number)) {
        if (!overlapsWith.has(r)) overlapsWith.set(r, a);
        if (!overlapsWith.has(a)) overlapsWith.set(a, r);
      }
    }
    active.push(r);
  }
  for (const [r, other] of overlapsWith) {
    r.error = diag(
      CODES.overlap,
      `${describe(r)} overlaps ${describe(other)}`,
      "Merge the two edits into one, or make their ranges disjoint (edits that only touch at an offset are fine).",
      makeSpan(filePath, r.start as number, r.end as number, lines),
    );
  }

  const errors = resolved.filter((r) => r.error).length;
  const applyNone = errors > 0 && !options.partial;
  const toApply = applyNone ? [] : order.filter((r) => !r.error);

  // Final bytes, and where each applied edit's new text starts in them.
  const pieces: Buffer[] = [];
  const newStart = new Map<Resolved, number>();
  let cursor = 0;
  let outLen = 0;
  for (const r of toApply) {
    const s = r.start as number;
    const e = r.end as number;
    pieces.push(original.subarray(cursor, s));
    outLen += s - cursor;
    newStart.set(r, outLen);
    pieces.push(r.newBytes);
    outLen += r.newBytes.length;
    cursor = e;
  }
  pieces.push(original.subarray(cursor));
  const output = toApply.length === 0 ? original : Buffer.concat(pieces);
  const finalLines = toApply.length === 0 ? lines : new LineIndex(output, undefined, wide);

  const results: LlmtransformEditResult[] = resolved.map((r) => {
    const located = r.start !== undefined && r.end !== undefined && r.start <= r.end && r.end <= len;
    const span = located ? makeSpan(filePath, r.start as number, r.end as number, lines) : undefined;
    const question = r.input.new_content;
    const id =
      r.start !== undefined && r.end !== undefined && r.start >= 0 && r.end >= 0
        ? matchId(TOOL, spanId(filePath, r.start, r.end), question)
        : matchId(TOOL, `position:${r.input.start_line}:${r.input.start_col}-${r.input.end_line}:${r.input.end_col}`, question);
    const status: LlmtransformEditResult["status"] = r.error ? "error" : applyNone ? "skipped" : "applied";
    // Keys in seed 02's order: match_id, span, status, before/after_checksum, then our additions.
    const out = { index: r.index, match_id: id } as LlmtransformEditResult;
    if (span) out.span = span;
    else if (r.start !== undefined && r.end !== undefined) out.requested = { byte_start: r.start, byte_end: r.end };
    out.status = status;
    if (span) out.before_checksum = checksum(original.subarray(span.byte_start, span.byte_end));
    if (!hasLoneSurrogate(r.input.new_content)) out.after_checksum = checksum(r.newBytes);
    const ns = newStart.get(r);
    if (ns !== undefined) out.new_span = makeSpan(filePath, ns, ns + r.newBytes.length, finalLines);
    if (r.error) out.error = r.error;
    return out;
  });

  return {
    edits: results,
    output,
    totalByteShift: output.length - len,
    applied: results.filter((r) => r.status === "applied").length,
    skipped: results.filter((r) => r.status === "skipped").length,
    errors: results.filter((r) => r.status === "error").length,
  };
}
