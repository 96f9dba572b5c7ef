/**
 * One file, read and searched: the part the worker threads and the main thread's prefilter
 * share. Reads into one reused buffer (file contents are never retained), recognises binary
 * and oversized files, and runs the scanner.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { checksum } from "../../text/checksum.js";
import { decodeBytes } from "../../text/decode.js";
import { decodeUtf16, UTF16_BOM_BYTES, type Utf16Encoding, utf16Bom } from "../../text/utf16.js";
import { matchId, spanId } from "../../contract/ids.js";
import type { CachedFile } from "../../text/warm-cache.js";
import type { LlmsearchMatch } from "../../contract/tools/llmsearch.js";
import type { FileResult } from "./protocol.js";
import { type Compiled, findMatches, firstUnits, invertLines, materialize, mayMatch } from "./scan.js";

let scratch = Buffer.allocUnsafe(1 << 20);
const HEAD = 64 * 1024;

export type Skip = NonNullable<FileResult["skip"]>;

/** A binary file: the whole lines before its first NUL byte (valid until the next call). */
export interface BinaryHead {
  head: Buffer;
  nulAt: number;
}

function binaryHead(buf: Buffer, nulAt: number): BinaryHead {
  return { head: buf.subarray(0, nulAt === 0 ? 0 : buf.lastIndexOf(10, nulAt - 1) + 1), nulAt };
}

/**
 * The file's bytes (valid until the next call), the text before a NUL byte, or why it is skipped.
 * `text` (rg -a): a NUL byte is text like any other, so no file is binary.
 */
export function readFile(abs: string, maxFileSize: number, text = false): Buffer | BinaryHead | Skip {
  let fd: number;
  try {
    fd = openSync(abs, "r");
  } catch (e) {
    return { reason: "unreadable", detail: errText(e) };
  }
  try {
    // ripgrep's habit: look at the first block before reading on, so a big binary costs 64 KiB.
    let total = readSync(fd, scratch, 0, HEAD, null);
    // UTF-16 text has a NUL byte in every ASCII character: it is judged once transcoded (searchBytes).
    const wide = utf16Bom(scratch.subarray(0, total)) !== undefined;
    const nul = text || wide ? -1 : scratch.subarray(0, total).indexOf(0);
    if (nul !== -1) return binaryHead(scratch, nul);
    if (total === HEAD) {
      // Only files that fill the first block pay for a stat (most source files do not).
      const size = fstatSync(fd).size;
      if (maxFileSize > 0 && size > maxFileSize) {
        return { reason: "too_large", detail: `${size} bytes, over --max-filesize ${maxFileSize}` };
      }
      if (scratch.length < size + 1) {
        const bigger = Buffer.allocUnsafe(Math.max(size + 1, scratch.length * 2));
        scratch.copy(bigger, 0, 0, total);
        scratch = bigger;
      }
      for (;;) {
        // The file may grow while it is read: keep going until EOF, growing the buffer.
        if (total === scratch.length) {
          const bigger = Buffer.allocUnsafe(scratch.length * 2);
          scratch.copy(bigger, 0, 0, total);
          scratch = bigger;
        }
        const got = readSync(fd, scratch, total, scratch.length - total, null);
        if (got === 0) break;
        total += got;
      }
    }
    if (maxFileSize > 0 && total > maxFileSize) {
      return { reason: "too_large", detail: `${total} bytes, over --max-filesize ${maxFileSize}` };
    }
    const buf = scratch.subarray(0, total);
    const late = !text && !wide && total > HEAD ? buf.indexOf(0, HEAD) : -1;
    if (late !== -1) return binaryHead(buf, late);
    return buf;
  } catch (e) {
    return { reason: "unreadable", detail: errText(e) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Cache-sized window for the prefilter. A file is streamed through it and the literal looked
 * for window by window, so the bytes are scanned while they are still in the CPU cache and a
 * large file never needs a large buffer (nor its page faults): the whole file is read only when
 * the literal is there.
 */
const WINDOW = 256 * 1024;
const windowBuf = Buffer.allocUnsafe(WINDOW);

/**
 * The prefilter's read: `undefined` when the file was read through and cannot match (no NUL
 * byte, not too large, the literal every match needs is absent); otherwise what readFile gives
 * (the whole file, valid until the next call, or why it is skipped). Same verdicts as readFile
 * followed by mayMatch.
 */
export function readIfMayMatch(abs: string, maxFileSize: number, c: Compiled): Buffer | BinaryHead | Skip | undefined {
  let fd: number;
  try {
    fd = openSync(abs, "r");
  } catch (e) {
    return { reason: "unreadable", detail: errText(e) };
  }
  let whole = false;
  try {
    // The first block decides as in readFile: a NUL in it makes the file binary; a file that
    // fills it pays for a stat and may be too large.
    let got = readSync(fd, windowBuf, 0, HEAD, null);
    const text = c.text === true;
    let nul = text ? -1 : windowBuf.subarray(0, got).indexOf(0);
    // A binary file: its text before the NUL is searched, by readFile's rules. A UTF-16 file
    // too: the literal is looked for in its transcoded text, not in these bytes.
    if (nul !== -1 || utf16Bom(windowBuf.subarray(0, got)) !== undefined) return readFile(abs, maxFileSize, text);
    if (got < HEAD) {
      if (maxFileSize > 0 && got > maxFileSize) return { reason: "too_large", detail: `${got} bytes, over --max-filesize ${maxFileSize}` };
      const buf = windowBuf.subarray(0, got);
      return mayMatch(buf, c) ? buf : undefined;
    }
    const size = fstatSync(fd).size;
    if (maxFileSize > 0 && size > maxFileSize) return { reason: "too_large", detail: `${size} bytes, over --max-filesize ${maxFileSize}` };
    // Each window starts with the previous one's last bytes, so a literal (or a KELVIN/LONG S
    // sequence that makes the caseless finder unusable) straddling two reads is still seen.
    const keep = Math.max(c.literal.length - 1, 2);
    let fill = got;
    let total = got;
    for (;;) {
      const win = windowBuf.subarray(0, fill);
      if (mayMatch(win, c)) {
        whole = true;
        break;
      }
      const carry = Math.min(keep, fill);
      windowBuf.copy(windowBuf, 0, fill - carry, fill);
      got = readSync(fd, windowBuf, carry, WINDOW - carry, null);
      if (got === 0) break;
      nul = text ? -1 : windowBuf.subarray(carry, carry + got).indexOf(0);
      if (nul !== -1) {
        whole = true;
        break;
      }
      total += got;
      if (maxFileSize > 0 && total > maxFileSize) return { reason: "too_large", detail: `${total} bytes, over --max-filesize ${maxFileSize}` };
      fill = carry + got;
    }
    if (!whole) return undefined;
  } catch (e) {
    return { reason: "unreadable", detail: errText(e) };
  } finally {
    closeSync(fd);
  }
  // The literal is there (few files): read the whole file for the search proper.
  return readFile(abs, maxFileSize, c.text);
}

/**
 * readFile's verdict for bytes the warm cache holds: same binary, too-large and late-NUL rules,
 * same details, so a warm answer is the cold one byte for byte.
 */
export function classifyCached(f: CachedFile, maxFileSize: number, text = false): Buffer | BinaryHead | Skip {
  if (f.earlyNul !== undefined) return binaryHead(f.bytes, f.earlyNul);
  const wide = utf16Bom(f.bytes) !== undefined;
  if (maxFileSize > 0 && f.size > maxFileSize) return { reason: "too_large", detail: `${f.size} bytes, over --max-filesize ${maxFileSize}` };
  const late = !text && !wide && f.bytes.length > HEAD ? f.bytes.indexOf(0, HEAD) : -1;
  if (late !== -1) return binaryHead(f.bytes, late);
  return f.bytes;
}

function errText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  // Node's fs messages already start with the code ("ENOENT: no such file ...").
  if (err.code && !String(err.message).startsWith(`${err.code}:`)) return `${err.code}: ${err.message}`;
  return String(err.message ?? e);
}

export interface FileJob {
  compiled: Compiled;
  maxFileSize: number;
  countOnly: boolean;
  /** With countOnly: count the lines a match starts on (ripgrep's -c), not the matches. */
  countLines?: boolean;
}

/** A file's matches are handed on in pieces of this many (see materialize), the rest in its result. */
export const PIECE_MATCHES = 2000;

/** Takes a file's first matches while the rest are made: `matches` come before those of its FileResult. */
export type OnPiece = (matches: LlmsearchMatch[]) => void;

/** undefined: searched, no match. */
export function searchBytes(buf: Buffer, index: number, rel: string, job: FileJob, whole = true, piece?: OnPiece): FileResult | undefined {
  const wide = utf16Bom(buf);
  if (wide !== undefined) return searchUtf16(buf, wide, index, rel, job, whole, piece);
  const c = job.compiled;
  let spans = findMatches(buf, c, c.invert);
  if (c.invert) spans = invertLines(buf, spans);
  if (c.maxCount && c.maxCount > 0) spans = firstUnits(buf, spans, c.maxCount, c.maxCountUnit ?? "lines");
  if (spans.length === 0) return undefined;
  const count = job.countOnly && job.countLines ? startLines(buf, spans) : spans.length / 2;
  // Only files with a match pay for the hash; a binary file's head is not the file.
  const sum = whole ? checksum(buf) : undefined;
  if (job.countOnly) return sum ? { i: index, count, checksum: sum } : { i: index, count };
  const stamp = (ms: LlmsearchMatch[]): LlmsearchMatch[] => {
    if (sum) for (const m of ms) m.file_checksum = sum;
    return ms;
  };
  const matches = stamp(materialize(buf, rel, spans, job.compiled, job.compiled.keep, piece && ((ms) => piece(stamp(ms))), PIECE_MATCHES));
  return sum ? { i: index, count, matches, checksum: sum } : { i: index, count, matches };
}

/**
 * The lines a match starts on, as ripgrep's -c counts them: a line with several matches counts
 * once, and with --multiline a match that runs on over several lines counts on its first (rg 13
 * answers 1 for `ab\nab` on "ab\nab\n", and 2 for `b\na|b`, whose second match starts on line 2).
 */
export function startLines(buf: Buffer, spans: number[]): number {
  let lines = 0;
  // The offset of the newline that ends the line of the last start counted (-1: none yet).
  let lineEnd = -1;
  for (let k = 0; k < spans.length; k += 2) {
    const s = spans[k] as number;
    if (lineEnd !== -1 && s <= lineEnd) continue;
    lines++;
    const nl = buf.indexOf(10, s);
    lineEnd = nl === -1 ? buf.length : nl;
  }
  return lines;
}

export function searchFile(index: number, abs: string, rel: string, job: FileJob, piece?: OnPiece): FileResult | undefined {
  const got = readFile(abs, job.maxFileSize, job.compiled.text);
  if (isBinaryHead(got)) return searchBinaryHead(got, index, rel, job);
  if (!Buffer.isBuffer(got)) return { i: index, count: 0, skip: got };
  return searchBytes(got, index, rel, job, true, piece);
}

export function isBinaryHead(x: Buffer | BinaryHead | Skip | undefined): x is BinaryHead {
  return x !== undefined && !Buffer.isBuffer(x) && "nulAt" in x;
}

/**
 * As ripgrep does with a file it finds binary while searching it: the matches in the lines
 * before the first NUL byte are reported, and the file is listed as binary (not searched on).
 */
export function searchBinaryHead(got: BinaryHead, index: number, rel: string, job: FileJob, nul = `NUL byte at offset ${got.nulAt}`): FileResult {
  const r = got.head.length > 0 ? searchBytes(got.head, index, rel, job, false) : undefined;
  const count = r?.count ?? 0;
  const unit = job.countOnly && job.countLines ? (count === 1 ? "matching line" : "matching lines") : count === 1 ? "match" : "matches";
  const detail = `${nul}; ${count} ${unit} in the lines before it reported, the rest not searched`;
  return { ...(r ?? { i: index, count: 0 }), skip: { reason: "binary", detail } };
}

/**
 * A UTF-16 file with a BOM, as ripgrep searches it: transcoded to UTF-8 and searched like any
 * other text (a NUL character makes it binary there, as in a UTF-8 file), every span then put back
 * in the file's own bytes (src/text/utf16.ts), so that it can go to llmtransform as it is. Lines
 * are the same; columns are bytes of the file, the BOM being two bytes of line 1.
 */
function searchUtf16(buf: Buffer, enc: Utf16Encoding, index: number, rel: string, job: FileJob, whole: boolean, piece?: OnPiece): FileResult | undefined {
  const utf8 = Buffer.from(decodeUtf16(buf, enc), "utf8");
  const nul = job.compiled.text ? -1 : utf8.indexOf(0);
  const units = decodeBytes(utf8);
  const fileByte = (b: number): number => Math.min(buf.length, UTF16_BOM_BYTES + 2 * units.toIndex(b));
  // (A binary file's head is not the file: no checksum.)
  const sum = whole && nul === -1 ? checksum(buf) : undefined;
  const remap = (ms: LlmsearchMatch[]): LlmsearchMatch[] => {
    for (const m of ms) {
      const sp = m.span;
      const s = fileByte(sp.byte_start);
      const e = fileByte(sp.byte_end);
      // A column counts from the line's first byte, which on line 1 is the BOM's.
      const startCol = s - (sp.start_line === 1 ? 0 : fileByte(sp.byte_start - sp.start_col));
      const endCol = e - (sp.end_line === 1 ? 0 : fileByte(sp.byte_end - sp.end_col));
      sp.span_id = spanId(rel, s, e);
      sp.byte_start = s;
      sp.byte_end = e;
      sp.start_col = startCol;
      sp.end_col = endCol;
      m.match_id = matchId("llmsearch", sp.span_id, job.compiled.question);
      if (sum) m.file_checksum = sum;
    }
    return ms;
  };
  if (nul !== -1) {
    const r = searchBinaryHead(binaryHead(utf8, nul), index, rel, job, `UTF-16 text with a NUL character at byte ${fileByte(nul)}`);
    if (r.matches) remap(r.matches);
    return r;
  }
  const r = searchBytes(utf8, index, rel, job, false, piece && ((ms) => piece(remap(ms))));
  if (r === undefined) return undefined;
  if (r.matches) remap(r.matches);
  if (sum) r.checksum = sum;
  return r;
}
