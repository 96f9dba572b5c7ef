/**
 * Addressable nodes of a document and the scopes selectors walk through. A heading and
 * `section[i]` address the same bytes (the heading and everything it owns); they differ only
 * in how they are counted: headings per level, sections over all levels.
 */
import type { MdselChildInfo } from "../../contract/tools/mdsel.js";
import { clipText } from "../../text/clip.js";
import { countWords, lowerBound, type Block, type BlockType, type Heading, type MdDocument } from "./document.js";
import { collapse } from "./parse.js";

export type NodeRef =
  | { kind: "root" }
  | { kind: "heading"; h: Heading }
  | { kind: "section"; h: Heading }
  | { kind: "block"; b: Block };

export const DEFAULTS = { MAX_WORDS: 500, PAGE_SIZE: 500, PREVIEW_LENGTH: 80 } as const;

/** The text range a node's content covers (UTF-16 indices into doc.text). */
export function contentRange(doc: MdDocument, ref: NodeRef): [number, number] {
  switch (ref.kind) {
    case "root":
      return [doc.origin, doc.contentEnd];
    case "heading":
    case "section":
      return [ref.h.start, ref.h.sectionEnd];
    case "block":
      return [ref.b.start, ref.b.end];
  }
}

export function typeOf(ref: NodeRef): string {
  switch (ref.kind) {
    case "root":
      return "root";
    case "heading":
      return `heading:h${ref.h.depth}`;
    case "section":
      return "section";
    case "block":
      return `block:${ref.b.type}`;
  }
}

/** Headings inside the scope (excluding the scope's own heading), document order. */
export function headingsIn(doc: MdDocument, ref: NodeRef): Heading[] {
  if (ref.kind === "root") return doc.headings;
  if (ref.kind === "block") return [];
  const out: Heading[] = [];
  for (let i = ref.h.ordinal + 1; i < doc.headings.length; i++) {
    const h = doc.headings[i] as Heading;
    if (h.start >= ref.h.sectionEnd) break;
    out.push(h);
  }
  return out;
}

/** Selectable blocks inside the scope, nested ones included, document order. */
export function blocksIn(doc: MdDocument, ref: NodeRef): Block[] {
  if (ref.kind === "root") return doc.blocks;
  const [from, to, skip] = ref.kind === "block" ? [ref.b.start, ref.b.end, ref.b.ordinal] : [ref.h.end, ref.h.sectionEnd, -1];
  const out: Block[] = [];
  for (let i = firstBlockAt(doc, from); i < doc.blocks.length; i++) {
    const b = doc.blocks[i] as Block;
    if (b.start >= to) break;
    if (b.ordinal !== skip && b.end <= to) out.push(b);
  }
  return out;
}

function firstBlockAt(doc: MdDocument, pos: number): number {
  let lo = 0;
  let hi = doc.blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((doc.blocks[mid] as Block).start < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Child {
  ref: NodeRef;
  /** The segment that addresses it from its parent, index counted within the parent's scope. */
  segment: string;
}

/**
 * Structural children: the blocks a node holds directly (before its first subsection) and its
 * immediate subsections; for a block, its nearest nested blocks.
 */
export function childrenOf(doc: MdDocument, ref: NodeRef): Child[] {
  const out: { pos: number; child: Child }[] = [];
  const blockCount = new Map<BlockType, number>();
  const scopeHeadings = headingsIn(doc, ref);
  let directEnd: number;
  let isDirectBlock: (b: Block) => boolean;
  if (ref.kind === "block") {
    directEnd = ref.b.end;
    isDirectBlock = (b) => b.parent === ref.b.ordinal;
  } else {
    const first = scopeHeadings[0];
    directEnd = first ? first.start : contentRange(doc, ref)[1];
    isDirectBlock = (b) => b.topLevel && b.start < directEnd;
  }
  for (const b of blocksIn(doc, ref)) {
    const k = blockCount.get(b.type) ?? 0;
    blockCount.set(b.type, k + 1);
    if (isDirectBlock(b)) out.push({ pos: b.start, child: { ref: { kind: "block", b }, segment: `block:${b.type}[${k}]` } });
    else if (b.start >= directEnd && ref.kind !== "block") break;
  }
  const parentOrdinal = ref.kind === "heading" || ref.kind === "section" ? ref.h.ordinal : -1;
  const depthCount = [0, 0, 0, 0, 0, 0, 0];
  for (const h of scopeHeadings) {
    const k = depthCount[h.depth] as number;
    depthCount[h.depth] = k + 1;
    if (h.parent === parentOrdinal) out.push({ pos: h.start, child: { ref: { kind: "heading", h }, segment: `heading:h${h.depth}[${k}]` } });
  }
  out.sort((a, b) => a.pos - b.pos);
  return out.map((x) => x.child);
}

interface Tally {
  /** Starts of the top-level blocks, ascending. */
  topStarts: number[];
  /** Subsections per heading ordinal; the last slot counts top-level sections. */
  subsections: Int32Array;
}
const tallies = new WeakMap<MdDocument, Tally>();

function tally(doc: MdDocument): Tally {
  let t = tallies.get(doc);
  if (!t) {
    const subsections = new Int32Array(doc.headings.length + 1);
    for (const h of doc.headings) {
      const k = h.parent === -1 ? doc.headings.length : h.parent;
      subsections[k] = (subsections[k] as number) + 1;
    }
    t = { topStarts: doc.topBlockStarts, subsections };
    tallies.set(doc, t);
  }
  return t;
}

/** Top-level block starts in [from, to). */
function topBlocksBetween(t: Tally, from: number, to: number): number {
  return to <= from ? 0 : lowerBound(t.topStarts, to) - lowerBound(t.topStarts, from);
}

/**
 * Number of structural children, without building them: the index asks this of every heading,
 * and building each child list would be quadratic in the number of headings. Same count as
 * childrenOf: the top-level blocks before the first subsection, plus the direct subsections.
 */
export function childrenCount(doc: MdDocument, ref: NodeRef): number {
  if (ref.kind === "block") return childrenOf(doc, ref).length;
  const t = tally(doc);
  if (ref.kind === "root") {
    const first = doc.headings[0];
    return topBlocksBetween(t, doc.origin, first ? first.start : doc.contentEnd) + (t.subsections[doc.headings.length] as number);
  }
  const next = doc.headings[ref.h.ordinal + 1];
  const directEnd = next && next.start < ref.h.sectionEnd ? next.start : ref.h.sectionEnd;
  return topBlocksBetween(t, ref.h.end, directEnd) + (t.subsections[ref.h.ordinal] as number);
}

/**
 * childrenCount of every heading, by ordinal, in one sweep: the ranges [heading end, first
 * subsection or section end) follow each other in document order, so one pointer walks the
 * top-level block starts once instead of two binary searches per heading.
 */
export function headingChildrenCounts(doc: MdDocument): Int32Array {
  const t = tally(doc);
  const starts = t.topStarts;
  const hs = doc.headings;
  const out = new Int32Array(hs.length);
  let p = 0;
  for (let i = 0; i < hs.length; i++) {
    const h = hs[i]!;
    const next = hs[i + 1];
    const directEnd = next && next.start < h.sectionEnd ? next.start : h.sectionEnd;
    while (p < starts.length && starts[p]! < h.end) p++;
    let q = p;
    if (directEnd > h.end) while (q < starts.length && starts[q]! < directEnd) q++;
    out[i] = q - p + t.subsections[h.ordinal]!;
    p = q;
  }
  return out;
}

export function nodePreview(doc: MdDocument, ref: NodeRef): string {
  const max = DEFAULTS.PREVIEW_LENGTH;
  switch (ref.kind) {
    case "heading":
    case "section":
      return clipText(collapse(ref.h.text), max);
    case "block":
      return doc.blockPreview(ref.b);
    case "root":
      return doc.rootPreview();
  }
}

export function childInfo(doc: MdDocument, parentSelector: string, child: Child): MdselChildInfo {
  const [a, b] = contentRange(doc, child.ref);
  return {
    selector: joinSelector(parentSelector, child.segment),
    type: typeOf(child.ref),
    preview: nodePreview(doc, child.ref),
    span: doc.span(a, b),
  };
}

/** `ns::root` + seg is `ns::seg`: root is the implicit start of every path. */
export function joinSelector(parent: string, segment: string): string {
  return parent.endsWith("::root") ? `${parent.slice(0, -4)}${segment}` : `${parent}/${segment}`;
}

export function wordsOf(doc: MdDocument, ref: NodeRef): number {
  const [a, b] = contentRange(doc, ref);
  return countWords(doc, a, b);
}
