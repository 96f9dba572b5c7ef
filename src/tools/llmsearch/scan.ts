/**
 * The searcher: one file's bytes in, its matches (exact byte spans) out. No I/O, no threads;
 * the worker feeds it and the tests call it directly.
 *
 * Speed comes from not decoding what cannot match: a literal every match must contain is looked
 * for with Buffer.indexOf (memchr-class speed) and, in line mode, only the lines holding it are
 * decoded and given to the regex. Pure-ASCII text is decoded as latin1, where a string index is
 * the byte offset; anything else goes through decodeBytes, whose table maps indices back to
 * exact bytes, invalid UTF-8 included.
 */
import { isAscii, isUtf8 } from "node:buffer";
import { matchId, spanId } from "../../contract/ids.js";
import type { LlmsearchMatch } from "../../contract/tools/llmsearch.js";
import { decodeBytes } from "../../text/decode.js";
import type { CompiledPattern } from "./pattern.js";

export interface ScanOptions {
  pattern: CompiledPattern;
  /** The match_id question (pattern + meaning-changing flags). */
  question: string;
  before: number;
  after: number;
  /** Matches beyond this many per file are counted, not materialized (0 = count only). */
  keep: number;
  /** rg -m: per file, only the matches of the first this many units of maxCountUnit (0 = all). */
  maxCount?: number;
  maxCountUnit?: MaxCountUnit;
  /** rg -a: no file is binary (a NUL byte is text). */
  text?: boolean;
  /** rg -v: the lines without a match are the matches (line by line only; see invertLines). */
  invert?: boolean;
}

/**
 * What rg 13 counts toward -m. "lines": a line-by-line search (no -U, or a -U pattern that cannot
 * match a line feed) counts matching lines. A multiline search hands its printer runs of matches
 * on touching lines (a match that starts on the line where the previous one ended, or the line
 * right after, joins it): "groups" counts those runs (rg's match output), "matches" counts each
 * match of a run and stops after the run that reaches n (rg's -c and --count-matches printer).
 */
export type MaxCountUnit = "lines" | "groups" | "matches";

export interface Compiled extends ScanOptions {
  re: RegExp;
  literal: Buffer;
  finder: Finder;
}

/**
 * ripgrep --crlf matches a line without its \r\n (its printer trims the terminator), so in line
 * mode no match ends between a CRLF's \r and \n: `\s+` on "a \r\n" is " ", a replacement of
 * the span cannot turn the CRLF into an LF, and `.*` has no second, empty match there.
 */
const NOT_INSIDE_CRLF = "(?!(?<=\\r)\\n)";

export function prepare(options: ScanOptions): Compiled {
  const p = options.pattern;
  const literal = Buffer.from(p.literal);
  const source = p.lineMode ? `(?:${p.source})${NOT_INSIDE_CRLF}` : p.source;
  // A literal that ends with \r is not all its occurrences: the regex (with the guard) decides.
  const pattern = p.lineMode && p.pureLiteral && literal[literal.length - 1] === 13 ? { ...p, pureLiteral: false } : p;
  return { ...options, pattern, re: new RegExp(source, p.flags), literal, finder: p.literalCaseless ? new CaselessFinder(literal) : new LiteralFinder(literal) };
}

/**
 * How common each byte value is in source text (log scale, 0 = never seen), measured once on a
 * sample of JS/TS/JSON/Markdown files. The literal prefilter looks for the literal's rarest byte
 * with memchr-speed Buffer.indexOf(byte) and checks the literal around each hit, which beats
 * Buffer.indexOf(literal) several times over when that byte is rare ('q', 'R', UTF-8 lead bytes).
 */
const BYTE_FREQ = [
  0,0,0,0,0,0,0,0,0,139,170,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,217,88,155,70,92,12,103,118,148,148,142,75,149,133,150,144,
  122,117,117,97,96,92,96,86,91,88,143,138,88,138,103,95,88,119,101,122,119,125,114,86,83,121,81,84,111,110,119,115,118,53,115,130,
  131,93,88,90,50,63,80,109,86,109,49,152,116,180,139,167,165,196,153,149,149,180,104,127,167,158,182,181,163,91,182,178,187,161,135,
  123,133,148,105,134,105,134,11,0,91,89,89,79,64,56,42,59,66,45,51,70,63,63,30,67,55,40,35,37,56,64,43,54,59,65,52,46,64,67,65,75,
  55,64,25,50,64,44,48,64,63,62,51,41,35,59,58,58,76,67,59,58,60,71,46,46,80,50,57,64,77,71,77,60,0,0,31,89,67,62,0,0,0,0,0,0,0,0,
  28,4,112,93,0,0,0,22,0,37,43,33,0,15,0,0,0,0,69,48,77,100,56,85,73,67,55,49,34,70,81,52,0,33,63,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
];

interface Finder {
  /** First occurrence at or after `from`, or -1. */
  find(buf: Buffer, from: number): number;
  /** False when the file holds text the prefilter could miss (then search it whole). */
  usable(buf: Buffer): boolean;
}

const KELVIN = Buffer.from("\u212A");
const LONG_S = Buffer.from("\u017F");

/**
 * A lowercase ASCII literal, ignoring ASCII case: follows the rarer of the two spellings of its
 * rarest letter, nearest hit first, and compares the rest with ASCII folding.
 */
class CaselessFinder implements Finder {
  private readonly lower: number;
  private readonly upper: number;
  private readonly rareAt: number;
  private readonly risky: boolean;

  constructor(private readonly lit: Buffer) {
    const score = (b: number): number => (BYTE_FREQ[b] as number) + (isLetter(b) ? (BYTE_FREQ[b ^ 0x20] as number) : 0);
    let best = 0;
    for (let k = 1; k < lit.length; k++) if (score(lit[k] as number) < score(lit[best] as number)) best = k;
    this.rareAt = best;
    this.lower = lit[best] as number;
    this.upper = isLetter(this.lower) ? this.lower ^ 0x20 : this.lower;
    this.risky = lit.includes(0x6b) || lit.includes(0x73);
  }

  usable(buf: Buffer): boolean {
    return !this.risky || (!hasSeq(buf, KELVIN) && !hasSeq(buf, LONG_S));
  }

  find(buf: Buffer, from: number): number {
    const { lit, rareAt, lower, upper } = this;
    const len = lit.length;
    const last = buf.length - len;
    let a = buf.indexOf(lower, from + rareAt);
    let b = upper === lower ? -1 : buf.indexOf(upper, from + rareAt);
    while (a !== -1 || b !== -1) {
      let h: number;
      if (b === -1 || (a !== -1 && a < b)) {
        h = a;
        a = buf.indexOf(lower, a + 1);
      } else {
        h = b;
        b = buf.indexOf(upper, b + 1);
      }
      const s = h - rareAt;
      if (s > last) return -1;
      if (s < 0) continue;
      let k = 0;
      for (; k < len; k++) {
        const x = buf[s + k] as number;
        const y = lit[k] as number;
        if (x !== y && !(isLetter(y) && (x | 0x20) === y)) break;
      }
      if (k === len) return s;
    }
    return -1;
  }
}

/** Buffer.indexOf(Buffer) is a slow substring search; a lead byte by memchr is not. */
function hasSeq(buf: Buffer, seq: Buffer): boolean {
  const lead = seq[0] as number;
  for (let h = buf.indexOf(lead); h !== -1; h = buf.indexOf(lead, h + 1)) {
    let k = 1;
    while (k < seq.length && buf[h + k] === seq[k]) k++;
    if (k === seq.length) return true;
  }
  return false;
}

function isLetter(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
}

/** Finds a literal by its rarest byte; falls back to Buffer.indexOf(literal) when hits pile up. */
class LiteralFinder implements Finder {
  usable(): boolean {
    return true;
  }

  private readonly rare: number;
  private readonly rareAt: number;
  private readonly len: number;

  constructor(private readonly lit: Buffer) {
    let best = 0;
    for (let k = 1; k < lit.length; k++) if ((BYTE_FREQ[lit[k] as number] as number) < (BYTE_FREQ[lit[best] as number] as number)) best = k;
    this.rareAt = best;
    this.rare = lit[best] as number;
    this.len = lit.length;
  }

  /** First occurrence at or after `from`, or -1. */
  find(buf: Buffer, from: number): number {
    const { lit, len, rare, rareAt } = this;
    if (len === 1) return buf.indexOf(rare, from);
    const last = buf.length - len;
    let misses = 0;
    let h = buf.indexOf(rare, from + rareAt);
    while (h !== -1) {
      const s = h - rareAt;
      if (s > last) return -1;
      let k = 0;
      while (k < len && buf[s + k] === lit[k]) k++;
      if (k === len) return s;
      // The byte is common here: let the substring search take over.
      if (++misses > 16 && misses * 64 > h - from) return buf.indexOf(lit, h - rareAt + 1);
      h = buf.indexOf(rare, h + 1);
    }
    return -1;
  }
}

/** False when the literal every match needs is surely absent (no regex involved: cannot hang). */
export function mayMatch(buf: Buffer, c: Compiled): boolean {
  // -v: a file without the literal is all answer, not none.
  return c.invert === true || c.literal.length === 0 || !c.finder.usable(buf) || c.finder.find(buf, 0) !== -1;
}

/**
 * Byte offsets of matches as flat [start0, end0, start1, end1, ...]; increasing, non-overlapping.
 * `atEnd`: keep an empty match at the very end of a last line without a newline, which rg 13 does
 * not report as a submatch but which still makes that line a matching one (-v needs to know).
 */
export function findMatches(buf: Buffer, c: Compiled, atEnd = false): number[] {
  const out: number[] = [];
  const lit = c.literal;
  const n = buf.length;
  // ripgrep strips a UTF-8 BOM before it searches: the text, its first line and \A start after it.
  const from = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  if (lit.length > 0 && c.finder.usable(buf)) {
    const finder = c.finder;
    let p = finder.find(buf, from);
    if (p === -1) return out;
    if (c.pattern.pureLiteral) {
      while (p !== -1) {
        out.push(p, p + lit.length);
        p = finder.find(buf, p + lit.length);
      }
      return out;
    }
    if (c.pattern.lineMode && !c.pattern.needsWholeFile) {
      const state = { lastEnd: -1 };
      while (p !== -1) {
        const ls = p === 0 ? 0 : Math.max(from, buf.lastIndexOf(10, p - 1) + 1);
        const nl = buf.indexOf(10, p);
        // The slice keeps its \n so `$` (which looks for \n or \r\n) sees the line's end as in the file.
        const le = nl === -1 ? n : nl + 1;
        searchText(buf.subarray(ls, le), ls, c, out, state);
        p = le >= n ? -1 : finder.find(buf, le);
      }
      return out;
    }
  }
  searchText(from === 0 ? buf : buf.subarray(from), from, c, out, { lastEnd: -1 });
  // ripgrep searches lines, and a file's last line ends at its final newline: there is no empty
  // line after it (nor any line in an empty file), so no empty match there (`^$` or `x*` on
  // "x\n" matched at offset 2, where rg reports nothing). At the end of a last line without a
  // newline rg 13 reports no empty submatch either (`$` on "x": the line, with no submatch).
  // With --multiline neither: `$`, `^` or `x*` on "ab\n" or on "ab" match nothing at the end.
  const k = out.length;
  if (k >= 2 && out[k - 2] === n && out[k - 1] === n && !(atEnd && n > from && buf[n - 1] !== 10)) out.length = k - 2;
  return out;
}

/**
 * rg -v in a line-by-line search: each line without a match, as a span of its text without its
 * line terminator (\n, or \r\n as rg --crlf trims it). Lines are rg's: after a BOM, and none after
 * a final newline nor in an empty file. `spans` must come from findMatches(..., true).
 */
export function invertLines(buf: Buffer, spans: number[]): number[] {
  const out: number[] = [];
  const n = buf.length;
  let ls = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  let k = 0;
  while (ls < n) {
    const nl = buf.indexOf(10, ls);
    const next = nl === -1 ? n : nl + 1;
    while (k < spans.length && (spans[k] as number) < ls) k += 2;
    const s = spans[k];
    const hit = s !== undefined && (s < next || (nl === -1 && s === n));
    if (!hit) {
      let e = nl === -1 ? n : nl;
      if (nl !== -1 && e > ls && buf[e - 1] === 13) e--;
      out.push(ls, e);
    }
    ls = next;
  }
  return out;
}

/**
 * The spans rg -m keeps: those of the first `n` units (see MaxCountUnit). rg stops reading a file
 * there; the spans after it are dropped rather than never found, which costs time, not answers.
 */
export function firstUnits(buf: Buffer, spans: number[], n: number, unit: MaxCountUnit): number[] {
  let units = 0;
  // Exclusive end of the line (lines) or of the lines of the run (groups, matches) so far; -1: none yet.
  let end = -1;
  let k = 0;
  for (; k < spans.length; k += 2) {
    const s = spans[k] as number;
    const e = spans[k + 1] as number;
    const ls = s === 0 ? 0 : buf.lastIndexOf(10, s - 1) + 1;
    const joins = end !== -1 && (unit === "lines" ? s < end : ls <= end);
    if (!joins) {
      if (units >= n) break;
      if (unit !== "matches") units++;
    }
    if (unit === "matches") units++;
    if (unit === "lines") {
      if (!joins) {
        const nl = buf.indexOf(10, s);
        end = nl === -1 ? Number.MAX_SAFE_INTEGER : nl + 1;
      }
    } else {
      // grep-searcher's lines::locate: a match that ends with its \n ends its last line there.
      let le: number;
      if (e > ls && buf[e - 1] === 10) le = e;
      else {
        const nl = buf.indexOf(10, e);
        le = nl === -1 ? buf.length : nl + 1;
      }
      end = Math.max(end, le);
    }
  }
  return k === spans.length ? spans : spans.slice(0, k);
}

/** Runs the regex over `bytes` (which start at file offset `base`), appending byte spans. */
function searchText(bytes: Buffer, base: number, c: Compiled, out: number[], state: { lastEnd: number }): void {
  let text: string;
  let toByte: (i: number) => number;
  if (isAscii(bytes)) {
    text = bytes.toString("latin1");
    toByte = (i) => i;
  } else if (isUtf8(bytes)) {
    // Most files have no match: map indices to bytes only when asked, walking forward.
    text = bytes.toString("utf8");
    toByte = forwardMapper(text);
  } else {
    const d = decodeBytes(bytes);
    text = d.text;
    toByte = d.toByte;
  }
  const re = c.re;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const a = m.index;
    const b = a + m[0].length;
    if (c.pattern.lineMode && m[0].includes("\n")) {
      // Only an escape the translation cannot see (\u000a, \cJ) gets here: ripgrep would never
      // let a match leave its line, so search that line on its own.
      const ls = text.lastIndexOf("\n", a - 1) + 1;
      let le = text.indexOf("\n", a);
      if (le === -1) le = text.length;
      // Without a CRLF's \r too, as ripgrep --crlf matches the line.
      const line = text.slice(ls, le < text.length && text.charCodeAt(le - 1) === 13 ? le - 1 : le);
      const sub = new RegExp(re.source, re.flags);
      sub.lastIndex = a - ls;
      let k: RegExpExecArray | null;
      while ((k = sub.exec(line)) !== null) {
        if (splitsPair(line, k.index)) {
          sub.lastIndex = k.index + 1;
          continue;
        }
        push(out, state, base + toByte(ls + k.index), base + toByte(ls + k.index + k[0].length));
        if (k[0].length === 0) sub.lastIndex = k.index + codeUnits(line, k.index);
      }
      re.lastIndex = le + 1;
      if (re.lastIndex > text.length) break;
      continue;
    }
    if (splitsPair(text, a)) {
      re.lastIndex = a + 1;
      continue;
    }
    push(out, state, base + toByte(a), base + toByte(b));
    if (a === b) re.lastIndex = a + codeUnits(text, a);
  }
}

/**
 * V8's Unicode-mode lookarounds can succeed between the two halves of a surrogate pair (`^$`
 * translates to lookarounds, and matched right after 🐙 in a real README), where no code point
 * starts: ripgrep never matches inside a character, so neither may we. A match that starts there
 * is dropped and the search goes on after the pair; one that starts on a code point cannot end
 * inside one, since a Unicode-mode RegExp consumes whole pairs.
 */
function splitsPair(text: string, i: number): boolean {
  if (i === 0 || i >= text.length) return false;
  const lo = text.charCodeAt(i);
  const hi = text.charCodeAt(i - 1);
  return lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff;
}

/** UTF-16 index -> UTF-8 byte offset for text decoded from valid UTF-8, cheapest when increasing. */
function forwardMapper(text: string): (i: number) => number {
  let ci = 0;
  let cb = 0;
  return (i) => {
    if (i < ci) {
      ci = 0;
      cb = 0;
    }
    while (ci < i) {
      const c = text.charCodeAt(ci);
      if (c < 0x80) cb += 1;
      else if (c < 0x800) cb += 2;
      else if (c >= 0xd800 && c <= 0xdbff) {
        cb += 4;
        ci++;
      } else cb += 3;
      ci++;
    }
    return cb;
  };
}

function codeUnits(text: string, i: number): number {
  const ch = text.charCodeAt(i);
  return ch >= 0xd800 && ch <= 0xdbff && i + 1 < text.length ? 2 : 1;
}

/** Rust's iteration rule, which ripgrep follows: no empty match right where the last one ended. */
function push(out: number[], state: { lastEnd: number }, s: number, e: number): void {
  if (s === e && s === state.lastEnd) return;
  out.push(s, e);
  state.lastEnd = e;
}

/** Walks forward through the line feeds of a buffer, for offsets given in increasing order. */
class LineCursor {
  private line = 1;
  private start = 0;
  /**
   * The first newline at or after `start` (-1: none), kept between calls: looking it up again for
   * every match made a long line quadratic (a 15 MB minified file with 111k matches: 51 s).
   */
  nextNewline: number;
  constructor(private readonly buf: Buffer) {
    this.nextNewline = buf.indexOf(10);
  }

  /** 1-based line and its start offset for `offset` (offsets must not decrease). */
  at(offset: number): { line: number; start: number } {
    while (this.nextNewline !== -1 && this.nextNewline < offset) {
      this.line++;
      this.start = this.nextNewline + 1;
      this.nextNewline = this.buf.indexOf(10, this.start);
    }
    return { line: this.line, start: this.start };
  }
}

function lineText(buf: Buffer, start: number, endExcl: number): string {
  let e = endExcl;
  if (e > start && buf[e - 1] === 13) e--;
  return buf.toString("utf8", start, e);
}

/**
 * Turns byte spans into contract matches: span, ids, text and context lines. With `piece`, every
 * `pieceSize` matches but the last are handed to it as they are made (a file with tens of
 * thousands of matches need not hold them all), and only the rest are returned.
 */
export function materialize(
  buf: Buffer,
  filePath: string,
  spans: number[],
  c: Compiled,
  limit: number,
  piece?: (matches: LlmsearchMatch[]) => void,
  pieceSize = Number.MAX_SAFE_INTEGER,
): LlmsearchMatch[] {
  let out: LlmsearchMatch[] = [];
  let made = 0;
  const cursor = new LineCursor(buf);
  const n = buf.length;
  for (let k = 0; k < spans.length && made < limit; k += 2) {
    if (piece && out.length >= pieceSize) {
      piece(out);
      out = [];
    }
    const s = spans[k] as number;
    const e = spans[k + 1] as number;
    const sp = cursor.at(s);
    const startLine = sp.line;
    const startCol = s - sp.start;
    const ep = cursor.at(e);
    const before: string[] = [];
    let ls = sp.start;
    for (let i = 0; i < c.before && ls > 0; i++) {
      const prevStart = ls - 1 === 0 ? 0 : buf.lastIndexOf(10, ls - 2) + 1;
      before.unshift(lineText(buf, prevStart, ls - 1));
      ls = prevStart;
    }
    const after: string[] = [];
    // A multiline match that ends with its \n has that line as its last, not the next one. Else
    // the cursor, just moved to `e`, holds the first newline at or after it.
    let nl = e > s && buf[e - 1] === 10 ? e - 1 : cursor.nextNewline;
    for (let i = 0; i < c.after && nl !== -1 && nl + 1 < n; i++) {
      const next = buf.indexOf(10, nl + 1);
      after.push(lineText(buf, nl + 1, next === -1 ? n : next));
      nl = next;
    }
    const sid = spanId(filePath, s, e);
    out.push({
      match_id: matchId("llmsearch", sid, c.question),
      span: {
        span_id: sid,
        file_path: filePath,
        byte_start: s,
        byte_end: e,
        start_line: startLine,
        start_col: startCol,
        end_line: ep.line,
        end_col: e - ep.start,
      },
      matched_text: buf.toString("utf8", s, e),
      context_before: before,
      context_after: after,
    });
    made++;
  }
  return out;
}
