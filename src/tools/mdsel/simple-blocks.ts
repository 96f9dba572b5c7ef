/**
 * A block scanner for the documents most worth indexing fast: large generated changelogs and
 * similar files made only of ATX headings, paragraphs, bullet lists (nested or not) and HTML
 * comments. It follows markdown-it's own block rules for exactly those blocks (line marks, list
 * item indents, lazy paragraph lines, what ends a paragraph, how inline content is cut) and
 * yields the same nodes and texts mdsel gets from markdown-it. It gives up (returns null) as soon as a
 * line could start any other block — a quote, a fence, a table delimiter row, a thematic break
 * or setext underline, an ordered list, indented code, other HTML, a link reference definition —
 * or the document has a tab in its indentation; then markdown-it parses the document instead.
 * So the scanner never decides anything markdown-it's rules for the other blocks would decide.
 *
 * It makes no tokens: a node's text (inline content, HTML) is cut from the source only when
 * asked for, with the line marks the block had, so a large document costs one node per block.
 *
 * Why: in a fresh process, loading markdown-it and running its block parser (and collecting the
 * garbage of its ~70,000 tokens) over a 1.3 MB changelog costs several times a bare Node start;
 * this scanner's cold run costs a fraction of that (docs/mdsel.md, Speed).
 * test/mdsel/simple-blocks.test.ts and test/mdsel/differential.ts check it against markdown-it.
 */
import { emptyTable, grownTable, K_HEADING, K_LIST, K_OTHER, K_PARAGRAPH, TASK, type NodeTable } from "./block-marks.js";

/** What the scanner found: markdown-it's nodes (with `tok` = the node's own index) and their text on demand. */
export interface SimpleDoc {
  table: NodeTable;
  /** Token content markdown-it would give leaf node `i`: inline content of a paragraph or heading, the HTML of an HTML block. */
  content(i: number): string;
  /** True for a paragraph or heading (text through the inline parser), false for HTML and containers. */
  isInline(i: number): boolean;
  /** True for an HTML block (its content is taken as it is). */
  isHtml(i: number): boolean;
  /** True when node `i` is the first block of a list item (where a task check may open it). */
  firstInItem(i: number): boolean;
}

/** Thrown (one shared instance, no stack) when the document holds a block this scanner does not take on. */
const UNSUPPORTED = Object.freeze({ unsupported: true });

/** markdown-it's default nesting limit; deeper documents are left to it. */
const MAX_NESTING = 100;

/** `lineStarts`, when given, are `src`'s line starts, as lineStartsOf() makes them. */
export function scanSimple(src: string, lineStarts?: readonly number[]): SimpleDoc | null {
  try {
    const s = new SimpleScanner(src, lineStarts ?? lineStartsOf(src));
    if (src !== "") s.scan();
    return s;
  } catch (e) {
    if (e === UNSUPPORTED) return null;
    throw e;
  }
}

/**
 * Where each line of `text` starts: 0, then after each line ending, which in CommonMark is LF,
 * CRLF or a CR alone; a file saved with CR line ends (classic Mac OS) has no LF at all, and its
 * every node would be on line 1. Without a CR: one native search per line.
 */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  if (!text.includes("\r")) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    return starts;
  }
  for (const m of text.matchAll(LINE_END)) starts.push(m.index + m[0].length);
  return starts;
}

const LINE_END = /\r\n?|\n/g;

const SPACE = 0x20;
const TAB = 0x09;
const isSpace = (c: number): boolean => c === SPACE || c === TAB;
const isAsciiTrimmable = (c: number): boolean => c === SPACE || c === TAB || c === 0x0a || c === 0x0d;

function asciiTrim(s: string): string {
  let a = 0;
  while (a < s.length && isAsciiTrimmable(s.charCodeAt(a))) a++;
  let b = s.length - 1;
  while (b >= a && isAsciiTrimmable(s.charCodeAt(b))) b--;
  return s.slice(a, b + 1);
}

/** Characters a thematic break, setext underline or table delimiter row is made of. */
function isRuleChar(c: number): boolean {
  return c === 0x2d || c === 0x7c || c === 0x3a || c === 0x3d || c === 0x2a || c === 0x5f || c === 0x2b || c === SPACE || c === TAB;
}

/** A list being scanned: its node, its container's, its marker, and the state its current item changed. */
interface ListFrame {
  node: number;
  parent: number;
  marker: number;
  /** End of the furthest marker: the list covers every item's marker. */
  markersEnd: number;
  itemLine: number;
  oldTShift: number;
  oldSCount: number;
  oldListIndent: number;
}

/** Per node, packed SLOTS numbers: leaf kind, first line, line after, indent cut, first line's shift, 1 if first in a list item. */
const SLOTS = 6;
const LEAF_NONE = 0;
const LEAF_INLINE = 1;
const LEAF_HTML = 2;

class SimpleScanner implements SimpleDoc {
  readonly src: string;
  table: NodeTable;
  readonly bMarks: Int32Array;
  readonly eMarks: Int32Array;
  readonly tShift: Int32Array;
  readonly sCount: Int32Array;
  readonly lineMax: number;
  /** Per node, SLOTS numbers (see SLOTS); grown by doubling (typed: no garbage for the young-generation collector to copy). */
  private leaf: Int32Array;

  /** Line marks as markdown-it's StateBlock makes them; every line is screened on the way. */
  constructor(src: string, lineStarts: readonly number[]) {
    this.src = src;
    const lines = lineStarts.length;
    const bMarks = (this.bMarks = new Int32Array(lines + 1));
    const eMarks = (this.eMarks = new Int32Array(lines + 1));
    const tShift = (this.tShift = new Int32Array(lines + 1));
    const sCount = (this.sCount = new Int32Array(lines + 1));
    const len = src.length;
    let k = 0;
    for (let line = 0; line < lines; line++) {
      const start = lineStarts[line]!;
      if (start >= len) break;
      const newline = line + 1 < lines;
      const end = newline ? lineStarts[line + 1]! - 1 : len;
      let pos = start;
      let c = src.charCodeAt(pos);
      while (c === SPACE && pos < end) c = src.charCodeAt(++pos);
      if (c === TAB && pos < end) throw UNSUPPORTED;
      // markdown-it drops a last line without a newline that holds only spaces.
      if (!newline && pos === end) break;
      bMarks[k] = start;
      eMarks[k] = end;
      tShift[k] = pos - start;
      sCount[k] = pos - start;
      k++;
      // Only these first characters can start a block the scanner does not take on.
      if (pos < end && (c < 0x41 || c === 0x5f || c === 0x60 || c === 0x7c || c === 0x7e)) screen(src, pos, end);
    }
    bMarks[k] = len;
    eMarks[k] = len;
    this.lineMax = k;
    // Nodes outnumber lines where list items hold nested lists; grown if more.
    const capacity = k + (k >>> 1) + 16;
    this.leaf = new Int32Array(capacity * SLOTS);
    this.table = emptyTable(capacity);
  }

  content(i: number): string {
    if (i < 0 || i >= this.table.count) return "";
    const kind = this.leaf[SLOTS * i];
    if (kind === LEAF_NONE) return "";
    const startLine = this.leaf[SLOTS * i + 1]!;
    const nextLine = this.leaf[SLOTS * i + 2]!;
    const indent = this.leaf[SLOTS * i + 3]!;
    const saved = this.tShift[startLine]!;
    this.tShift[startLine] = this.leaf[SLOTS * i + 4]!;
    try {
      if (kind === LEAF_HTML) return this.getLines(startLine, nextLine, indent, true);
      if (this.table.kinds[i] === K_HEADING) {
        const [pos, max] = this.headingText(startLine);
        return asciiTrim(this.src.slice(pos, max));
      }
      return asciiTrim(this.getLines(startLine, nextLine, indent, false));
    } finally {
      this.tShift[startLine] = saved;
    }
  }

  isInline(i: number): boolean {
    return this.leaf[SLOTS * i] === LEAF_INLINE;
  }

  isHtml(i: number): boolean {
    return this.leaf[SLOTS * i] === LEAF_HTML;
  }

  firstInItem(i: number): boolean {
    return this.leaf[SLOTS * i + 5] === 1;
  }

  isEmpty(line: number): boolean {
    return this.bMarks[line]! + this.tShift[line]! >= this.eMarks[line]!;
  }

  private lastFilledLine(startLine: number, nextLine: number): number {
    let last = nextLine - 1;
    while (last > startLine && this.isEmpty(last)) last--;
    return last;
  }

  /**
   * markdown-it's block tokenizer for the blocks taken on (its tokenize, list, heading, html_block
   * and paragraph rules, in its order), as one loop over block starts with an explicit stack of
   * open lists instead of its recursion (tokenize -> list -> tokenize per item). In a fresh
   * process one long loop is compiled early (on-stack replacement) while a call per block and per
   * list item would run mostly in the interpreter; this is the hot part of a cold `mdsel index`.
   */
  scan(): void {
    const { src, bMarks, eMarks, tShift, sCount, lineMax } = this;
    let leaf = this.leaf;
    let table = this.table;
    let { kinds, starts, ends, parents, toks } = table;
    let count = 0;
    /** Open lists, innermost last. */
    const lists: ListFrame[] = [];
    // The run (tokenize call) in progress: its container node (-1: the document) and whether
    // its next block is the first of a list item.
    let parent = -1;
    let first = false;
    let line = 0;
    let blkIndent = 0;
    let listIndent = -1;
    let level = 0;
    // A list item to open at itemLine, its marker ending at itemPam (list start or next item).
    let itemLine = -1;
    let itemPam = 0;
    for (;;) {
      if (itemLine >= 0) {
        // list(): one item's content as a run of its own, with the item's indent.
        const f = lists[lists.length - 1]!;
        const nl = itemLine;
        itemLine = -1;
        let pos = itemPam;
        const max = eMarks[nl]!;
        const initial = sCount[nl]! + itemPam - (bMarks[nl]! + tShift[nl]!);
        let offset = initial;
        while (pos < max) {
          const ch = src.charCodeAt(pos);
          if (ch === TAB) throw UNSUPPORTED;
          if (ch !== SPACE) break;
          offset++;
          pos++;
        }
        // An item without text on its first line: not taken on (screen() refuses most already).
        if (pos >= max) throw UNSUPPORTED;
        let indentAfterMarker = offset - initial;
        if (indentAfterMarker > 4) indentAfterMarker = 1;
        if (itemPam > f.markersEnd) f.markersEnd = itemPam;
        level++;
        f.itemLine = nl;
        f.oldTShift = tShift[nl]!;
        f.oldSCount = sCount[nl]!;
        f.oldListIndent = listIndent;
        listIndent = blkIndent;
        blkIndent = initial + indentAfterMarker;
        tShift[nl] = pos - bMarks[nl]!;
        sCount[nl] = offset;
        line = nl;
        parent = f.node;
        first = true;
      }

      while (line < lineMax && bMarks[line]! + tShift[line]! >= eMarks[line]!) line++; // skipEmptyLines
      if (line >= lineMax || sCount[line]! < blkIndent) {
        // The run ends at `line`.
        if (lists.length === 0) break;
        const f = lists[lists.length - 1]!;
        blkIndent = listIndent;
        listIndent = f.oldListIndent;
        tShift[f.itemLine] = f.oldTShift;
        sCount[f.itemLine] = f.oldSCount;
        level--;
        // Does the list go on with another item?
        if (line < lineMax && sCount[line]! >= blkIndent && sCount[line]! - blkIndent < 4) {
          // The list's terminators (fence, blockquote, hr) were refused by screen(). A bullet
          // marker (the character, then a space or the line's end; markdown-it's
          // skipBulletListMarker, inlined here as below: it runs for every item), the same one:
          const mp = bMarks[line]! + tShift[line]!;
          const after = src.charCodeAt(mp + 1);
          if (src.charCodeAt(mp) === f.marker && (mp + 1 >= eMarks[line]! || after === SPACE || after === TAB)) {
            itemLine = line;
            itemPam = mp + 1;
            continue;
          }
        }
        level--;
        lists.pop();
        if (f.markersEnd > ends[f.node]!) ends[f.node] = f.markersEnd;
        parent = f.parent;
        // A block's end counts for its container's (as block-marks.ts settles it).
        if (parent >= 0 && ends[f.node]! > ends[parent]!) ends[parent] = ends[f.node]!;
        continue;
      }

      // A block starts at `line` (tokenize's loop body, then block()).
      if (level >= MAX_NESTING) throw UNSUPPORTED;
      const start = bMarks[line]! + tShift[line]!;
      const idx = count;
      if (idx === kinds.length) {
        leaf = new Int32Array(leaf.length * 2);
        leaf.set(this.leaf);
        this.leaf = leaf;
        table.count = count;
        table = this.table = grownTable(table, kinds.length * 2);
        ({ kinds, starts, ends, parents, toks } = table);
      }
      count++;
      table.count = count;
      kinds[idx] = K_OTHER;
      starts[idx] = start;
      ends[idx] = start;
      parents[idx] = parent;
      toks[idx] = idx;
      const at = idx * SLOTS;
      leaf[at] = LEAF_NONE;
      leaf[at + 1] = line;
      leaf[at + 2] = 0;
      leaf[at + 3] = blkIndent;
      leaf[at + 4] = tShift[line]!;
      leaf[at + 5] = first ? 1 : 0;
      first = false;

      // code (indented): not taken on. table, fence, blockquote, hr: their lines were refused by screen().
      if (sCount[line]! - blkIndent >= 4) throw UNSUPPORTED;
      const ch = src.charCodeAt(start);
      if (ch === 0x2d || ch === 0x2a || ch === 0x2b) {
        const after = src.charCodeAt(start + 1);
        if (start + 1 >= eMarks[line]! || after === SPACE || after === TAB) {
          const pam = start + 1;
          kinds[idx] = K_LIST;
          level++;
          lists.push({ node: idx, parent, marker: ch, markersEnd: pam, itemLine: line, oldTShift: 0, oldSCount: 0, oldListIndent: 0 });
          itemLine = line;
          itemPam = pam;
          continue;
        }
      }
      // ordered lists: refused by screen(). reference: refused here when it could be one.
      if (ch === 0x5b) this.refuseReference(line, lineMax);
      let next: number;
      if (ch === 0x3c) {
        next = this.htmlComment(line, lineMax, blkIndent);
        leaf[at] = LEAF_HTML;
        leaf[at + 2] = next;
        ends[idx] = eMarks[this.lastFilledLine(line, next)]!;
      } else {
        const depth = ch === 0x23 ? this.headingLevel(line) : 0;
        if (depth > 0) {
          next = line + 1;
          kinds[idx] = K_HEADING;
          table.depths[idx] = depth;
          ends[idx] = eMarks[line]!;
          leaf[at] = LEAF_INLINE;
          leaf[at + 2] = next;
        } else {
          // lheading: no setext underline exists (refused by screen()). paragraph:
          for (next = line + 1; next < lineMax; next++) {
            const pos = bMarks[next]! + tShift[next]!;
            if (pos >= eMarks[next]!) break; // isEmpty
            const rel = sCount[next]! - blkIndent;
            if (rel > 3) continue;
            // What ends a paragraph here: a heading, a non-empty bullet item or an HTML comment
            // (screen() refused the other terminators and let only `<!--` through).
            const c = src.charCodeAt(pos);
            if (c === 0x3c) break;
            if (c === 0x23) {
              if (this.headingLevel(next) > 0) break;
              continue;
            }
            if (c !== 0x2d && c !== 0x2a && c !== 0x2b) continue;
            const sc = sCount[next]!;
            if (listIndent >= 0 && sc - listIndent >= 4 && sc < blkIndent) continue;
            // A bullet (the marker, then a space or the line's end)?
            let p = pos + 1;
            const after = src.charCodeAt(p);
            if (p < eMarks[next]! && after !== SPACE && after !== TAB) continue;
            if (sc >= blkIndent) {
              // Only a non-empty item may interrupt a paragraph.
              while (p < src.length && (src.charCodeAt(p) === SPACE || src.charCodeAt(p) === TAB)) p++;
              if (p >= eMarks[next]!) continue;
            }
            break;
          }
          kinds[idx] = K_PARAGRAPH;
          ends[idx] = eMarks[next - 1]!;
          leaf[at] = LEAF_INLINE;
          leaf[at + 2] = next;
          if (ch === 0x5b && leaf[at + 5] === 1 && TASK.test(this.content(idx))) {
            // GFM task item: the check is not paragraph text (as block-marks.ts's finish()).
            table.tasks[idx] = 1;
            let p = start + 3;
            while (p < ends[idx]! && /\s/.test(src[p] as string)) p++;
            starts[idx] = p;
          }
        }
      }
      // A block's end counts for its container's (as block-marks.ts settles it).
      if (parent >= 0 && ends[idx]! > ends[parent]!) ends[parent] = ends[idx]!;
      line = next;
    }
  }

  /** A block starting with `[` that has `]:` before the next blank line might be a reference definition. */
  private refuseReference(startLine: number, endLine: number): void {
    for (let line = startLine; line < endLine && !this.isEmpty(line); line++) {
      const text = this.src.slice(this.bMarks[line]!, this.eMarks[line]!);
      if (text.includes("]:")) throw UNSUPPORTED;
    }
  }

  /** HTML block of kind 2 (`<!--` ... `-->`); screen() refused every other line starting with `<`. Returns the line after it. */
  private htmlComment(startLine: number, endLine: number, blkIndent: number): number {
    const src = this.src;
    let lineText = src.slice(this.bMarks[startLine]! + this.tShift[startLine]!, this.eMarks[startLine]!);
    if (!lineText.startsWith("<!--")) throw UNSUPPORTED;
    let nextLine = startLine + 1;
    if (!lineText.includes("-->")) {
      for (; nextLine < endLine; nextLine++) {
        if (this.sCount[nextLine]! < blkIndent && !this.isEmpty(nextLine)) break;
        lineText = src.slice(this.bMarks[nextLine]! + this.tShift[nextLine]!, this.eMarks[nextLine]!);
        if (lineText.includes("-->")) {
          if (lineText.length !== 0) nextLine++;
          break;
        }
      }
    }
    return nextLine;
  }

  /** ATX heading level of the line (1-6), 0 when it is not one. */
  private headingLevel(line: number): number {
    let pos = this.bMarks[line]! + this.tShift[line]!;
    const max = this.eMarks[line]!;
    let ch = this.src.charCodeAt(pos);
    if (ch !== 0x23 || pos >= max) return 0;
    let level = 1;
    ch = this.src.charCodeAt(++pos);
    while (ch === 0x23 && pos < max && level <= 6) {
      level++;
      ch = this.src.charCodeAt(++pos);
    }
    return level > 6 || (pos < max && !isSpace(ch)) ? 0 : level;
  }

  /** Where a heading line's text lies: after the opening `#`s, before trailing spaces and a closing run of `#`. */
  private headingText(line: number): [number, number] {
    const src = this.src;
    let pos = this.bMarks[line]! + this.tShift[line]!;
    let max = this.eMarks[line]!;
    let level = 0;
    while (src.charCodeAt(pos) === 0x23 && pos < max && level < 6) {
      level++;
      pos++;
    }
    while (max > pos && isSpace(src.charCodeAt(max - 1))) max--;
    let tmp = max;
    while (tmp > pos && src.charCodeAt(tmp - 1) === 0x23) tmp--;
    if (tmp > pos && isSpace(src.charCodeAt(tmp - 1))) max = tmp;
    return [pos, max];
  }

  /** Lines [begin, end) with up to `indent` columns of indentation cut, as markdown-it's getLines. */
  private getLines(begin: number, end: number, indent: number, keepLastLF: boolean): string {
    if (begin >= end) return "";
    const src = this.src;
    let out = "";
    for (let line = begin; line < end; line++) {
      let lineIndent = 0;
      const lineStart = this.bMarks[line]!;
      let first = lineStart;
      const last = line + 1 < end || keepLastLF ? this.eMarks[line]! + 1 : this.eMarks[line]!;
      while (first < last && lineIndent < indent) {
        const ch = src.charCodeAt(first);
        if (ch === TAB) lineIndent += 4 - (lineIndent % 4);
        else if (ch === SPACE || first - lineStart < this.tShift[line]!) lineIndent++;
        else break;
        first++;
      }
      out += lineIndent > indent ? " ".repeat(lineIndent - indent) + src.slice(first, last) : src.slice(first, last);
    }
    return out;
  }
}

/**
 * Refuses a line that could start a block this scanner does not take on, wherever it is (in a
 * paragraph or not, at any indent): `pos` is its first non-space character, `end` its end.
 */
function screen(src: string, pos: number, end: number): void {
  const c = src.charCodeAt(pos);
  if (c === 0x3e) throw UNSUPPORTED; // blockquote
  if (c === 0x60 || c === 0x7e) {
    // fence
    if (src.charCodeAt(pos + 1) === c && src.charCodeAt(pos + 2) === c) throw UNSUPPORTED;
    return;
  }
  if (c === 0x3c) {
    // HTML blocks other than comments
    if (!src.startsWith("<!--", pos)) throw UNSUPPORTED;
    return;
  }
  if (c >= 0x30 && c <= 0x39) {
    // ordered list item
    let p = pos + 1;
    while (p < end && src.charCodeAt(p) >= 0x30 && src.charCodeAt(p) <= 0x39) p++;
    const m = src.charCodeAt(p);
    if (p < end && (m === 0x2e || m === 0x29) && (p + 1 >= end || isSpace(src.charCodeAt(p + 1)))) throw UNSUPPORTED;
    return;
  }
  if (isRuleChar(c)) {
    // thematic break, setext underline, table delimiter row, empty bullet item
    let p = pos + 1;
    while (p < end && isRuleChar(src.charCodeAt(p))) p++;
    if (p >= end) throw UNSUPPORTED;
  }
}
