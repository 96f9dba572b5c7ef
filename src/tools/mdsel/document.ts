/**
 * A Markdown file read, checked and parsed into mdsel's model: the top-level headings with
 * their sections, every selectable block, and the word positions truncation and paging use.
 * All offsets kept here are UTF-16 indices into `text` (the whole decoded file, BOM included);
 * `span()` maps them to exact byte offsets through src/text/decode.ts.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import type { Span } from "../../contract/schema.js";
import { clipText } from "../../text/clip.js";
import { decodeBytes, type DecodedText } from "../../text/decode.js";
import { LineIndex } from "../../text/lines.js";
import { firstInvalidUtf8, isValidUtf8 } from "../../text/utf8.js";
import { spanId } from "../../contract/ids.js";
import { MDSEL_CODES, MdselFault } from "./errors.js";
import { K_HEADING, K_OTHER, KIND_NAMES, type NodeKind, type NodeTable } from "./block-marks.js";
import { parseBlocksSync } from "./parse.js";
import { lineStartsOf } from "./simple-blocks.js";

export type BlockType = "paragraph" | "code" | "list" | "table" | "blockquote";
export const BLOCK_TYPES: readonly BlockType[] = ["paragraph", "code", "list", "table", "blockquote"];

/** Default refusal threshold: a guard against feeding the tool something that is not a document. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

export interface Heading {
  /** Position among all top-level headings, document order (what `section[i]` counts). */
  ordinal: number;
  depth: 1 | 2 | 3 | 4 | 5 | 6;
  readonly text: string;
  start: number;
  /** End of the heading line itself. */
  end: number;
  /** End of the last node the section owns (up to the next heading of the same or higher level). */
  sectionEnd: number;
  /** Ordinal of the enclosing section's heading, -1 at the top. */
  parent: number;
}

export interface Block {
  ordinal: number;
  type: BlockType;
  start: number;
  end: number;
  /** Ordinal of the nearest enclosing selectable block, -1 when none. */
  parent: number;
  /** True for direct children of the document root. */
  topLevel: boolean;
  /** The parser token that opens it (previews are computed from it on demand). */
  tok: number;
}

/** What the parse yields: top-level headings with their sections, every block, lazy previews. */
export interface Model {
  /** Index where the Markdown starts (1 after a BOM). */
  origin: number;
  /** End of the last node (trailing blank lines excluded); root content is [origin, contentEnd). */
  contentEnd: number;
  /** Number of top-level nodes (0: nothing but blank lines). */
  topCount: number;
  headings: Heading[];
  /** Every selectable block, document order (built on first use: `index` needs only the two below). */
  readonly blocks: Block[];
  /** Number of blocks of each type. */
  blockCounts: Record<BlockType, number>;
  /** Starts of the top-level blocks, ascending. */
  topBlockStarts: number[];
  /** Plain text of the document, whitespace collapsed, at most 80 characters. */
  rootPreview(): string;
  /** Plain text of a block (markup dropped), whitespace collapsed, at most 80 characters. */
  blockPreview(b: Block): string;
}

export interface MdDocument extends Model {
  namespace: string;
  filePath: string;
  bytes: Buffer;
  text: string;
  decoded: DecodedText;
  lines: LineIndex;
  /** Word starts and ends (UTF-16), sorted; a word is a run of non-space holding a letter or digit. */
  wordStarts: Uint32Array;
  wordEnds: Uint32Array;
  span(start: number, end: number): Span;
}

export interface LoadOptions {
  maxBytes?: number;
  /**
   * Read regular files only: a FIFO would block a long-lived process (the MCP server, the daemon)
   * for every caller until a writer comes. The CLI reads pipes on purpose (`mdsel index <(curl …)`).
   */
  regularOnly?: boolean;
}

/** Reads and checks a file; every refusal is a MdselFault with a stable code. */
export function readMarkdownFile(abs: string, displayPath: string, options: LoadOptions = {}): Buffer {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let size: number;
  try {
    const st = statSync(abs);
    if (st.isDirectory()) {
      throw new MdselFault({
        file: displayPath,
        type: "PROCESSING_ERROR",
        code: MDSEL_CODES.io_error,
        message: `Not a file: ${displayPath} is a directory with no Markdown file (.md, .markdown, .mdx, ...) under it`,
        remediation: "Pass Markdown files, or a directory that holds some (ignored and hidden files are left out).",
      });
    }
    // A pipe or device (`<(curl ...)`, /dev/stdin) has no size to check first: it is read up to
    // the limit, so an endless one (/dev/zero) is refused like a large file instead of filling memory.
    if (!st.isFile()) {
      if (options.regularOnly || process.env.LLMTOOLS_IN_DAEMON === "1") {
        throw new MdselFault({
          file: displayPath,
          type: "PROCESSING_ERROR",
          code: MDSEL_CODES.io_error,
          message: `Not a regular file: ${displayPath} is a FIFO, socket or device, which this server does not read (it would wait on it for every caller)`,
          remediation: "Pass Markdown files; to read a pipe, run the CLI in-process: mdsel --no-daemon index <(command).",
        });
      }
      return readStream(abs, displayPath, maxBytes);
    }
    size = st.size;
  } catch (e) {
    if (e instanceof MdselFault) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new MdselFault({
        file: displayPath,
        type: "FILE_NOT_FOUND",
        code: MDSEL_CODES.file_not_found,
        message: `File not found: ${displayPath}`,
        remediation: "Check the path; paths are taken from the current directory, else from the workspace root.",
      });
    }
    throw ioFault(displayPath, e);
  }
  if (size > maxBytes) throw tooLarge(displayPath, String(size), maxBytes);
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    throw ioFault(displayPath, e);
  }
  return checkBinary(bytes, displayPath);
}

function checkBinary(bytes: Buffer, displayPath: string): Buffer {
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    throw new MdselFault({
      file: displayPath,
      type: "PARSE_ERROR",
      code: MDSEL_CODES.binary_file,
      message: `Binary file: ${displayPath} has a NUL byte at offset ${nul}`,
      remediation: "mdsel reads UTF-8 Markdown; convert UTF-16 files to UTF-8 first.",
    });
  }
  return bytes;
}

function tooLarge(displayPath: string, size: string, maxBytes: number): MdselFault {
  return new MdselFault({
    file: displayPath,
    type: "PROCESSING_ERROR",
    code: MDSEL_CODES.file_too_large,
    message: `File too large: ${displayPath} is ${size} bytes, the limit is ${maxBytes}`,
    remediation: "Raise the limit with --max-bytes if the file really is Markdown to select from.",
  });
}

/** Reads a file that is not a regular one, at most `maxBytes` of it (see readMarkdownFile). */
function readStream(abs: string, displayPath: string, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let fd: number | undefined;
  try {
    fd = openSync(abs, "r");
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw tooLarge(displayPath, `more than ${maxBytes}`, maxBytes);
    }
  } catch (e) {
    if (e instanceof MdselFault) throw e;
    throw ioFault(displayPath, e);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return checkBinary(Buffer.concat(chunks, total), displayPath);
}

function ioFault(displayPath: string, e: unknown): MdselFault {
  return new MdselFault({
    file: displayPath,
    type: "PROCESSING_ERROR",
    code: MDSEL_CODES.io_error,
    message: `Cannot read ${displayPath}: ${(e as Error).message}`,
    remediation: "Check the file's permissions.",
  });
}

/** Bytes -> document. Invalid UTF-8 is refused: spans would point at bytes the text does not hold. */
export async function buildDocument(bytes: Buffer, namespace: string, filePath: string, given: string = filePath): Promise<MdDocument> {
  return Promise.resolve(buildDocumentSync(bytes, namespace, filePath, given));
}

/** buildDocument without the promise (parsing is synchronous). */
export function buildDocumentSync(bytes: Buffer, namespace: string, filePath: string, given: string = filePath): MdDocument {
  // Checked before decoding: decoding a large invalid file with replacement characters and its
  // offset map cost over 500 MB (a 5 MB latin1 file) only to be refused.
  if (!isValidUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    // Lines as the spans count them (a CR alone ends one too); latin1 keeps one char per byte.
    const pos = new LineIndex(bytes, lineStartsOf(bytes.toString("latin1"))).position(at);
    throw new MdselFault({
      file: given,
      type: "PARSE_ERROR",
      code: MDSEL_CODES.invalid_utf8,
      message: `Invalid UTF-8 in ${given} at byte ${at} (line ${pos.line}, column ${pos.col})`,
      remediation: "Re-encode the file as UTF-8 (e.g. iconv -f latin1 -t utf-8).",
    });
  }
  const decoded = decodeBytes(bytes);
  const text = decoded.text;
  // One search for the line starts, shared by the scanner and the spans.
  const lineStarts = lineStartsOf(text);
  let model: Model;
  try {
    model = parseModel(text, lineStarts);
  } catch (e) {
    throw new MdselFault({
      file: given,
      type: "PARSE_ERROR",
      code: MDSEL_CODES.parser_failed,
      message: `Markdown parser failed on ${given}: ${(e as Error).message}`,
    });
  }
  const lines = byteLineIndex(decoded, bytes, lineStarts);
  const { starts, ends } = decoded.ascii ? asciiWordPositions(bytes) : wordPositions(text);
  // The model is extended in place: a spread would build its lazy block list at once.
  const doc = model as MdDocument;
  doc.namespace = namespace;
  doc.filePath = filePath;
  doc.bytes = bytes;
  doc.text = text;
  doc.decoded = decoded;
  doc.lines = lines;
  doc.wordStarts = starts;
  doc.wordEnds = ends;
  doc.span = spanMaker(filePath, decoded, lines);
  return doc;
}

/**
 * The shared LineIndex over a document's bytes, from the line starts of its decoded text (found
 * with the string's own indexOf, one native search per line, where Buffer#indexOf costs a
 * JavaScript wrapper per call, which on a large document is milliseconds).
 */
export function byteLineIndex(decoded: DecodedText, bytes: Uint8Array, textStarts: readonly number[] = lineStartsOf(decoded.text)): LineIndex {
  return new LineIndex(bytes, decoded.ascii ? textStarts : textStarts.map((i) => decoded.toByte(i)));
}

/** Spans of this document from UTF-16 indices: src/text/span.ts's makeSpan, fields in the same order. */
export function spanMaker(filePath: string, decoded: DecodedText, lines: LineIndex): (start: number, end: number) => Span {
  return (start, end) => {
    const byteStart = decoded.toByte(start);
    const byteEnd = decoded.toByte(end);
    if (byteStart > byteEnd) throw new RangeError(`span start ${byteStart} after end ${byteEnd}`);
    const startLine = lines.lineOf(byteStart);
    const endLine = lines.lineOf(byteEnd);
    return {
      span_id: spanId(filePath, byteStart, byteEnd),
      file_path: filePath,
      byte_start: byteStart,
      byte_end: byteEnd,
      start_line: startLine,
      start_col: byteStart - lines.lineStart(startLine),
      end_line: endLine,
      end_col: byteEnd - lines.lineStart(endLine),
    };
  };
}

/**
 * YAML front matter (`---` ... `---` or `...` at the very top) is metadata, but CommonMark reads
 * it as a thematic break and a setext heading. It is blanked out (same length, line endings
 * kept) so offsets stay valid and it yields no nodes. Its lines end as CommonMark's do, at LF,
 * CRLF or a CR alone: a regex's `^`/`$` would also end them at U+2028, which Markdown does not.
 */
export function maskFrontMatter(md: string): string {
  const open = /^---[ \t]*(?:\r\n?|\n)/.exec(md);
  if (!open) return md;
  const close = /^(?:---|\.\.\.)[ \t]*$/;
  const ends = /\r\n?|\n/g;
  for (let at = open[0].length; at < md.length; ) {
    ends.lastIndex = at;
    const nl = ends.exec(md);
    const lineEnd = nl ? nl.index : md.length;
    const next = nl ? lineEnd + nl[0].length : md.length;
    if (close.test(md.slice(at, lineEnd))) return md.slice(0, next).replace(/[^\r\n]/g, " ") + md.slice(next);
    at = next;
  }
  return md;
}

/** Runs the parser and keeps what mdsel addresses: top-level headings with sections, every block. */
/** `lineStarts`: the text's line starts (lineStartsOf), when the caller has them. */
export function parseModel(text: string, lineStarts?: readonly number[]): Model {
  const origin = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Front matter is blanked with its newlines kept, so the line starts hold; not after a BOM.
  const parsed = parseBlocksSync(maskFrontMatter(origin === 0 ? text : text.slice(origin)), origin === 0 && lineStarts ? { lineStarts } : {});
  const t = parsed.table;
  const { kinds, starts, ends, parents, toks, depths } = t;
  const n = t.count;
  if (origin !== 0) {
    for (let i = 0; i < n; i++) {
      starts[i] = starts[i]! + origin;
      ends[i] = ends[i]! + origin;
    }
  }

  // Sections: a heading owns every following top-level node up to the next heading of the
  // same or a higher level (a smaller depth), so subsections sit inside their parents. Only
  // top-level headings make sections: one in a quote or list item is that block's content.
  const headings: Heading[] = [];
  const open: Heading[] = [];
  let lastEnd = origin;
  let topCount = 0;
  // Per kind (KIND_NAMES order), and the top-level block starts, in the same pass.
  const perKind = new Int32Array(KIND_NAMES.length);
  const topBlockStarts: number[] = [];
  // Indexed loops over typed columns: this runs once per block of a possibly huge document, mostly before it is compiled.
  for (let i = 0; i < n; i++) {
    const kind = kinds[i]!;
    perKind[kind]!++;
    if (parents[i] !== -1) continue;
    topCount++;
    if (kind === K_HEADING) {
      const depth = depths[i] as Heading["depth"];
      while (open.length > 0 && (open[open.length - 1] as Heading).depth >= depth) {
        (open.pop() as Heading).sectionEnd = lastEnd;
      }
      const tok = toks[i]!;
      const h: Heading = {
        ordinal: headings.length,
        depth,
        // Parsed on first use (inlineText caches): `select` prints few headings, `index` all.
        get text() {
          return parsed.inlineText(tok);
        },
        start: starts[i]!,
        end: ends[i]!,
        sectionEnd: ends[i]!,
        parent: open.length > 0 ? (open[open.length - 1] as Heading).ordinal : -1,
      };
      headings.push(h);
      open.push(h);
    } else if (kind !== K_OTHER) topBlockStarts.push(starts[i]!);
    lastEnd = ends[i]!;
  }
  for (const h of open) h.sectionEnd = lastEnd;
  const count = (k: NodeKind): number => perKind[KIND_NAMES.indexOf(k)]!;
  const blockCounts: Record<BlockType, number> = {
    paragraph: count("paragraph"),
    code: count("code"),
    list: count("list"),
    table: count("table"),
    blockquote: count("blockquote"),
  };

  let blocks: Block[] | undefined;
  return {
    origin,
    contentEnd: lastEnd,
    topCount,
    headings,
    get blocks() {
      return (blocks ??= blockList(t));
    },
    blockCounts,
    topBlockStarts,
    rootPreview: () => clipText(parsed.docText(PREVIEW), PREVIEW),
    blockPreview: (b) => clipText(parsed.blockText(b.tok, PREVIEW), PREVIEW),
  };
}

/** The selectable blocks of the parsed nodes. Containers (quotes, lists) are themselves blocks, so a node's parent is a block or none. */
function blockList(t: NodeTable): Block[] {
  const blocks: Block[] = [];
  const ordinalOf = new Int32Array(t.count).fill(-1);
  for (let i = 0; i < t.count; i++) {
    const kind = t.kinds[i]!;
    if (kind === K_HEADING || kind === K_OTHER) continue;
    const parent = t.parents[i]!;
    ordinalOf[i] = blocks.length;
    blocks.push({
      ordinal: blocks.length,
      type: KIND_NAMES[kind] as BlockType,
      start: t.starts[i]!,
      end: t.ends[i]!,
      parent: parent === -1 ? -1 : (ordinalOf[parent] as number),
      topLevel: parent === -1,
      tok: t.toks[i]!,
    });
  }
  return blocks;
}

const PREVIEW = 80;

const WORDY = /[\p{L}\p{N}]/u;

/** JS `\s`: the characters a regex `\S+` run stops at. */
function isJsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Growable pairs of word starts and ends. */
class WordList {
  starts: Uint32Array;
  ends: Uint32Array;
  count = 0;
  constructor(textLength: number) {
    // Words average well over four characters; grown if not.
    const cap = (textLength >>> 2) + 16;
    this.starts = new Uint32Array(cap);
    this.ends = new Uint32Array(cap);
  }
  add(start: number, end: number): void {
    if (this.count === this.starts.length) {
      const s = new Uint32Array(this.count * 2);
      const e = new Uint32Array(this.count * 2);
      s.set(this.starts);
      e.set(this.ends);
      this.starts = s;
      this.ends = e;
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.count++;
  }
  done(): { starts: Uint32Array; ends: Uint32Array } {
    return { starts: this.starts.subarray(0, this.count), ends: this.ends.subarray(0, this.count) };
  }
}

/** ASCII classes: 1 whitespace (as JS `\s`), 2 letter or digit, 0 anything else. */
const ASCII_CLASS = new Uint8Array(128);
for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) ASCII_CLASS[c] = 1;
for (let c = 0x30; c <= 0x39; c++) ASCII_CLASS[c] = 2;
for (let c = 0x41; c <= 0x5a; c++) {
  ASCII_CLASS[c] = 2;
  ASCII_CLASS[c + 0x20] = 2;
}

/**
 * Word starts and ends: a word is a maximal run of non-whitespace holding a letter or digit.
 * One pass over the character codes (a regex `\S+` scan allocates a string per run, which on a
 * megabyte document is most of the work); only a run without an ASCII letter or digit but
 * with other non-ASCII characters is tested against `\p{L}\p{N}`.
 */
function wordPositions(text: string): { starts: Uint32Array; ends: Uint32Array } {
  const words = new WordList(text.length);
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c < 0x80 ? ASCII_CLASS[c] === 1 : isJsSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    let ascii = 0;
    let other = false;
    for (; i < n; i++) {
      c = text.charCodeAt(i);
      if (c < 0x80) {
        const k = ASCII_CLASS[c]!;
        if (k === 1) break;
        ascii |= k;
      } else {
        if (isJsSpace(c)) break;
        other = true;
      }
    }
    if (ascii === 2 || (other && WORDY.test(text.slice(start, i)))) words.add(start, i);
  }
  return words.done();
}

/** The same over an all-ASCII file's bytes, where byte offsets are the text's indices (a table load per byte, no string calls). */
function asciiWordPositions(bytes: Uint8Array): { starts: Uint32Array; ends: Uint32Array } {
  const words = new WordList(bytes.length);
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    if (ASCII_CLASS[bytes[i]!] === 1) {
      i++;
      continue;
    }
    const start = i;
    let k = 0;
    for (; i < n; i++) {
      const c = ASCII_CLASS[bytes[i]!]!;
      if (c === 1) break;
      k |= c;
    }
    if (k === 2) words.add(start, i);
  }
  return words.done();
}

/** Index of the first element of the ascending `sorted` that is >= `x` (its length if none). */
export function lowerBound(sorted: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first word starting at or after `pos`. */
export function firstWordAtOrAfter(doc: MdDocument, pos: number): number {
  return lowerBound(doc.wordStarts, pos);
}

/** Words starting inside [start, end). */
export function countWords(doc: MdDocument, start: number, end: number): number {
  return firstWordAtOrAfter(doc, end) - firstWordAtOrAfter(doc, start);
}

