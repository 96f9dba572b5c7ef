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
import { TASK, type RawNode } from "./block-marks.js";

/** What the scanner found: markdown-it's nodes (with `tok` = the node's own index) and their text on demand. */
export interface SimpleDoc {
  nodes: RawNode[];
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

export function scanSimple(src: string): SimpleDoc | null {
  try {
    const s = new SimpleScanner(src);
    if (src !== "") s.tokenize(0, s.lineMax, -1, false);
    return s;
  } catch (e) {
    if (e === UNSUPPORTED) return null;
    throw e;
  }
}

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

/** Per node, packed SLOTS numbers: leaf kind, first line, line after, indent cut, first line's shift, 1 if first in a list item. */
const SLOTS = 6;
const LEAF_NONE = 0;
const LEAF_INLINE = 1;
const LEAF_HTML = 2;

class SimpleScanner implements SimpleDoc {
  readonly src: string;
  readonly nodes: RawNode[] = [];
  readonly bMarks: Int32Array;
  readonly eMarks: Int32Array;
  readonly tShift: Int32Array;
  readonly sCount: Int32Array;
  readonly lineMax: number;
  blkIndent = 0;
  listIndent = -1;
  level = 0;
  line = 0;
  /** Per node, SLOTS numbers (see SLOTS); grown by doubling (typed: no garbage for the young-generation collector to copy). */
  private leaf: Int32Array;

  /** Line marks as markdown-it's StateBlock makes them; every line is screened on the way. */
  constructor(src: string) {
    this.src = src;
    let lines = 1;
    for (let i = src.indexOf("\n"); i !== -1; i = src.indexOf("\n", i + 1)) lines++;
    const bMarks = (this.bMarks = new Int32Array(lines + 1));
    const eMarks = (this.eMarks = new Int32Array(lines + 1));
    const tShift = (this.tShift = new Int32Array(lines + 1));
    const sCount = (this.sCount = new Int32Array(lines + 1));
    const len = src.length;
    let k = 0;
    for (let start = 0; start < len; ) {
      let end = src.indexOf("\n", start);
      const newline = end !== -1;
      if (!newline) end = len;
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
      start = end + 1;
    }
    bMarks[k] = len;
    eMarks[k] = len;
    this.lineMax = k;
    this.leaf = new Int32Array((k + 16) * SLOTS);
  }

  content(i: number): string {
    if (i < 0 || i >= this.nodes.length) return "";
    const kind = this.leaf[SLOTS * i];
    if (kind === LEAF_NONE) return "";
    const startLine = this.leaf[SLOTS * i + 1]!;
    const nextLine = this.leaf[SLOTS * i + 2]!;
    const indent = this.leaf[SLOTS * i + 3]!;
    const node = this.nodes[i]!;
    const saved = this.tShift[startLine]!;
    this.tShift[startLine] = this.leaf[SLOTS * i + 4]!;
    try {
      if (kind === LEAF_HTML) return this.getLines(startLine, nextLine, indent, true);
      if (node.kind === "heading") {
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
   * markdown-it's block tokenizer loop for one container run (`parent` is the container's
   * node, -1 for the document); `item` when the run is a list item's content.
   */
  tokenize(startLine: number, endLine: number, parent: number, item: boolean): void {
    // Locals, not `this.` loads: this loop runs once per block, mostly before it is compiled.
    const { bMarks, eMarks, tShift, sCount, nodes, lineMax } = this;
    let line = startLine;
    let first = item;
    while (line < endLine) {
      while (line < lineMax && bMarks[line]! + tShift[line]! >= eMarks[line]!) line++; // skipEmptyLines
      this.line = line;
      if (line >= endLine) break;
      if (sCount[line]! < this.blkIndent) break;
      if (this.level >= MAX_NESTING) throw UNSUPPORTED;
      const start = bMarks[line]! + tShift[line]!;
      const idx = nodes.length;
      const node: RawNode = { kind: "other", start, end: start, parent, tok: idx, depth: 0, task: false };
      nodes.push(node);
      let leaf = this.leaf;
      if ((idx + 1) * SLOTS > leaf.length) {
        leaf = new Int32Array(leaf.length * 2);
        leaf.set(this.leaf);
        this.leaf = leaf;
      }
      const at = idx * SLOTS;
      leaf[at] = LEAF_NONE;
      leaf[at + 1] = line;
      leaf[at + 2] = 0;
      leaf[at + 3] = this.blkIndent;
      leaf[at + 4] = tShift[line]!;
      leaf[at + 5] = first ? 1 : 0;
      first = false;
      this.block(line, endLine, idx, node);
      // A block's end counts for its container's (as block-marks.ts settles it).
      if (parent >= 0) {
        const p = nodes[parent]!;
        if (node.end > p.end) p.end = node.end;
      }
      line = this.line;
      if (line < endLine && bMarks[line]! + tShift[line]! >= eMarks[line]!) {
        line++;
        this.line = line;
      }
    }
  }

  /** markdown-it's rules in its order; the ones this scanner does not take on cannot match (see screen). */
  private block(startLine: number, endLine: number, idx: number, node: RawNode): void {
    // code (indented): not taken on.
    if (this.sCount[startLine]! - this.blkIndent >= 4) throw UNSUPPORTED;
    // table, fence, blockquote, hr: their lines were refused by screen().
    const pos = this.bMarks[startLine]! + this.tShift[startLine]!;
    const ch = this.src.charCodeAt(pos);
    if ((ch === 0x2d || ch === 0x2a || ch === 0x2b) && this.list(startLine, endLine, idx, node)) return;
    // ordered lists: refused by screen(). reference: refused here when it could be one.
    if (ch === 0x5b) this.refuseReference(startLine, endLine);
    if (ch === 0x3c) {
      this.htmlComment(startLine, endLine);
      this.leaf[SLOTS * idx] = LEAF_HTML;
      this.leaf[SLOTS * idx + 2] = this.line;
      node.end = this.eMarks[this.lastFilledLine(startLine, this.line)]!;
      return;
    }
    const level = ch === 0x23 ? this.headingLevel(startLine) : 0;
    if (level > 0) {
      this.line = startLine + 1;
      node.kind = "heading";
      node.depth = level;
      node.end = this.eMarks[startLine]!;
      this.leaf[SLOTS * idx] = LEAF_INLINE;
      this.leaf[SLOTS * idx + 2] = this.line;
      return;
    }
    // lheading: no setext underline exists (refused by screen()).
    this.paragraph(startLine, endLine);
    node.kind = "paragraph";
    node.end = this.eMarks[this.line - 1]!;
    this.leaf[SLOTS * idx] = LEAF_INLINE;
    this.leaf[SLOTS * idx + 2] = this.line;
    if (ch === 0x5b && this.firstInItem(idx) && TASK.test(this.content(idx))) {
      // GFM task item: the check is not paragraph text (as block-marks.ts's finish()).
      node.task = true;
      let p = node.start + 3;
      while (p < node.end && /\s/.test(this.src[p] as string)) p++;
      node.start = p;
    }
  }

  private bulletMarker(line: number): number {
    const max = this.eMarks[line]!;
    let pos = this.bMarks[line]! + this.tShift[line]!;
    const marker = this.src.charCodeAt(pos++);
    if (marker !== 0x2a && marker !== 0x2d && marker !== 0x2b) return -1;
    if (pos < max && !isSpace(this.src.charCodeAt(pos))) return -1;
    return pos;
  }

  private list(startLine: number, endLine: number, idx: number, node: RawNode): boolean {
    let nextLine = startLine;
    let posAfterMarker = this.bulletMarker(nextLine);
    if (posAfterMarker < 0) return false;
    const { src, bMarks, eMarks, tShift, sCount } = this;
    const marker = src.charCodeAt(posAfterMarker - 1);
    node.kind = "list";
    // Its end covers every item's marker (an item's content may end before a later marker).
    let markersEnd = posAfterMarker;
    this.level++;
    for (;;) {
      let pos = posAfterMarker;
      const max = eMarks[nextLine]!;
      const initial = sCount[nextLine]! + posAfterMarker - (bMarks[nextLine]! + tShift[nextLine]!);
      let offset = initial;
      while (pos < max) {
        const ch = src.charCodeAt(pos);
        if (ch === TAB) throw UNSUPPORTED;
        if (ch !== SPACE) break;
        offset++;
        pos++;
      }
      const contentStart = pos;
      // An item without text on its first line: not taken on (screen() refuses most already).
      if (contentStart >= max) throw UNSUPPORTED;
      let indentAfterMarker = offset - initial;
      if (indentAfterMarker > 4) indentAfterMarker = 1;
      const indent = initial + indentAfterMarker;
      if (posAfterMarker > markersEnd) markersEnd = posAfterMarker;
      this.level++;
      const oldTShift = tShift[nextLine]!;
      const oldSCount = sCount[nextLine]!;
      const oldListIndent = this.listIndent;
      this.listIndent = this.blkIndent;
      this.blkIndent = indent;
      tShift[nextLine] = contentStart - bMarks[nextLine]!;
      sCount[nextLine] = offset;
      this.tokenize(nextLine, endLine, idx, true);
      this.blkIndent = this.listIndent;
      this.listIndent = oldListIndent;
      tShift[nextLine] = oldTShift;
      sCount[nextLine] = oldSCount;
      this.level--;
      nextLine = this.line;
      if (nextLine >= endLine) break;
      if (sCount[nextLine]! < this.blkIndent) break;
      if (sCount[nextLine]! - this.blkIndent >= 4) break;
      // The list's terminators (fence, blockquote, hr) were refused by screen().
      posAfterMarker = this.bulletMarker(nextLine);
      if (posAfterMarker < 0) break;
      if (src.charCodeAt(posAfterMarker - 1) !== marker) break;
    }
    this.level--;
    if (markersEnd > node.end) node.end = markersEnd;
    this.line = nextLine;
    return true;
  }

  /** A block starting with `[` that has `]:` before the next blank line might be a reference definition. */
  private refuseReference(startLine: number, endLine: number): void {
    for (let line = startLine; line < endLine && !this.isEmpty(line); line++) {
      const text = this.src.slice(this.bMarks[line]!, this.eMarks[line]!);
      if (text.includes("]:")) throw UNSUPPORTED;
    }
  }

  /** HTML block of kind 2 (`<!--` ... `-->`); screen() refused every other line starting with `<`. */
  private htmlComment(startLine: number, endLine: number): void {
    const src = this.src;
    let lineText = src.slice(this.bMarks[startLine]! + this.tShift[startLine]!, this.eMarks[startLine]!);
    if (!lineText.startsWith("<!--")) throw UNSUPPORTED;
    let nextLine = startLine + 1;
    if (!lineText.includes("-->")) {
      for (; nextLine < endLine; nextLine++) {
        if (this.sCount[nextLine]! < this.blkIndent && !this.isEmpty(nextLine)) break;
        lineText = src.slice(this.bMarks[nextLine]! + this.tShift[nextLine]!, this.eMarks[nextLine]!);
        if (lineText.includes("-->")) {
          if (lineText.length !== 0) nextLine++;
          break;
        }
      }
    }
    this.line = nextLine;
  }

  private isHeadingLine(line: number): boolean {
    return this.headingLevel(line) > 0;
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

  /** Whether `line` ends a paragraph: a heading, a non-empty bullet item, or an HTML comment (the others were refused by screen()). */
  private endsParagraph(line: number): boolean {
    const rel = this.sCount[line]! - this.blkIndent;
    const ch = this.src.charCodeAt(this.bMarks[line]! + this.tShift[line]!);
    if (ch === 0x3c) return rel < 4; // screen() let only `<!--` through: kind 2 ends paragraphs
    if (ch === 0x23) return rel < 4 && this.isHeadingLine(line);
    if (ch === 0x2d || ch === 0x2a || ch === 0x2b) {
      if (rel >= 4) return false;
      const sCount = this.sCount[line]!;
      if (this.listIndent >= 0 && sCount - this.listIndent >= 4 && sCount < this.blkIndent) return false;
      const posAfterMarker = this.bulletMarker(line);
      if (posAfterMarker < 0) return false;
      if (sCount >= this.blkIndent) {
        // Only a non-empty item may interrupt a paragraph.
        let p = posAfterMarker;
        while (p < this.src.length && isSpace(this.src.charCodeAt(p))) p++;
        if (p >= this.eMarks[line]!) return false;
      }
      return true;
    }
    return false;
  }

  private paragraph(startLine: number, endLine: number): void {
    const { bMarks, eMarks, tShift, sCount, src, blkIndent } = this;
    let nextLine = startLine + 1;
    for (; nextLine < endLine; nextLine++) {
      const pos = bMarks[nextLine]! + tShift[nextLine]!;
      if (pos >= eMarks[nextLine]!) break; // isEmpty
      if (sCount[nextLine]! - blkIndent > 3) continue;
      // Only a line starting with `<`, `#` or a bullet can end a paragraph here (endsParagraph).
      const ch = src.charCodeAt(pos);
      if ((ch === 0x3c || ch === 0x23 || ch === 0x2d || ch === 0x2a || ch === 0x2b) && this.endsParagraph(nextLine)) break;
    }
    this.line = nextLine;
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
