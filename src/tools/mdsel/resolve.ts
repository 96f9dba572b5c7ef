/**
 * Walks a parsed selector through one document: each segment picks the i-th node of its kind
 * inside the current scope, counted in document order. Out-of-range and empty picks become an
 * UnresolvedSelector with the nearest existing selectors as suggestions.
 */
import type { MdselSelectMatch, MdselUnresolved } from "../../contract/tools/mdsel.js";
import { countWords, firstWordAtOrAfter, type MdDocument } from "./document.js";
import {
  blocksIn,
  childInfo,
  childrenOf,
  contentRange,
  DEFAULTS,
  headingsIn,
  joinSelector,
  type NodeRef,
  typeOf,
} from "./nodes.js";
import { formatSegment, type Segment, type Selector } from "./selector.js";
import { rankSuggestions } from "./suggest.js";

export type Resolution = { ok: true; match: MdselSelectMatch } | { ok: false; unresolved: MdselUnresolved };

/** Bound on candidates scored for suggestions, so a 10,000-heading file stays quick. */
const MAX_CANDIDATES = 2000;

export function resolveSelector(doc: MdDocument, sel: Selector): Resolution {
  let ref: NodeRef = { kind: "root" };
  let path = `${doc.namespace}::root`;
  const segments = sel.segments;
  let page: Extract<Segment, { kind: "page" }> | undefined;
  for (const seg of segments) {
    if (seg.kind === "root") continue;
    if (seg.kind === "page") {
      page = seg;
      break;
    }
    const picked = pick(doc, ref, seg);
    const wanted = joinSelector(path, formatSegment(seg));
    if ("reason" in picked) {
      return {
        ok: false,
        unresolved: {
          selector: wanted,
          reason: picked.reason,
          suggestions: rankSuggestions(wanted, candidateSelectors(doc, ref, path, seg)),
        },
      };
    }
    ref = picked.ref;
    path = wanted;
  }
  return buildMatch(doc, ref, path, sel.full, page);
}

type Pick = { ref: NodeRef } | { reason: string };

function scopeName(ref: NodeRef): string {
  return ref.kind === "root" ? "document" : ref.kind === "block" ? `${typeOf(ref)} node` : `section '${ref.h.text}'`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function pick(doc: MdDocument, scope: NodeRef, seg: Exclude<Segment, { kind: "root" | "page" }>): Pick {
  let found: NodeRef[];
  let noun: string;
  if (seg.kind === "heading") {
    found = headingsIn(doc, scope)
      .filter((h) => h.depth === seg.depth)
      .map((h) => ({ kind: "heading", h }) as NodeRef);
    noun = `h${seg.depth} heading`;
  } else if (seg.kind === "section") {
    found = headingsIn(doc, scope).map((h) => ({ kind: "section", h }) as NodeRef);
    noun = "section";
  } else {
    found = blocksIn(doc, scope)
      .filter((b) => b.type === seg.block)
      .map((b) => ({ kind: "block", b }) as NodeRef);
    noun = `${seg.block} block`;
  }
  const hit = found[seg.index];
  if (hit) return { ref: hit };
  if (found.length === 0) return { reason: `Not found: ${scopeName(scope)} has no ${noun}s` };
  return { reason: `Index out of range: ${scopeName(scope)} has ${plural(found.length, noun)}` };
}

/** Selectors that do exist in the scope: same kind first (all of them), then every other kind. */
function* candidateSelectors(doc: MdDocument, scope: NodeRef, path: string, seg: Segment): Generator<string> {
  let n = 0;
  const depthCount = [0, 0, 0, 0, 0, 0, 0];
  const heads = headingsIn(doc, scope);
  for (const [i, h] of heads.entries()) {
    const k = depthCount[h.depth] as number;
    depthCount[h.depth] = k + 1;
    if (n++ > MAX_CANDIDATES) return;
    if (seg.kind === "section") yield joinSelector(path, `section[${i}]`);
    else yield joinSelector(path, `heading:h${h.depth}[${k}]`);
  }
  const counts = new Map<string, number>();
  for (const b of blocksIn(doc, scope)) {
    const k = counts.get(b.type) ?? 0;
    counts.set(b.type, k + 1);
    if (n++ > MAX_CANDIDATES) return;
    yield joinSelector(path, `block:${b.type}[${k}]`);
  }
}

function buildMatch(
  doc: MdDocument,
  ref: NodeRef,
  path: string,
  full: boolean,
  page: Extract<Segment, { kind: "page" }> | undefined,
): Resolution {
  const [a, b] = contentRange(doc, ref);
  const words = countWords(doc, a, b);
  const totalPages = Math.max(1, Math.ceil(words / DEFAULTS.PAGE_SIZE));
  const firstWord = firstWordAtOrAfter(doc, a);
  // Page p covers [start of word p*500, start of word (p+1)*500): pages tile the node exactly.
  const pageStart = (p: number): number => (p === 0 ? a : (doc.wordStarts[firstWord + p * DEFAULTS.PAGE_SIZE] as number));
  const pageEnd = (p: number): number => (p === totalPages - 1 ? b : (doc.wordStarts[firstWord + (p + 1) * DEFAULTS.PAGE_SIZE] as number));

  if (page) {
    const selector = joinSelector(path, `page[${page.index}]`);
    if (page.index >= totalPages) {
      const candidates = Array.from({ length: Math.min(totalPages, MAX_CANDIDATES) }, (_, p) => joinSelector(path, `page[${p}]`));
      return {
        ok: false,
        unresolved: {
          selector,
          reason: `Index out of range: ${typeOf(ref)} has ${plural(totalPages, "page")} of up to ${DEFAULTS.PAGE_SIZE} words`,
          suggestions: rankSuggestions(selector, candidates),
        },
      };
    }
    const s = pageStart(page.index);
    const e = pageEnd(page.index);
    return {
      ok: true,
      match: {
        selector,
        type: "page",
        content: doc.text.slice(s, e),
        truncated: false,
        pagination: { current_page: page.index, total_pages: totalPages, word_count: words, has_more: page.index < totalPages - 1 },
        children_available: [],
        span: doc.span(s, e),
      },
    };
  }

  const selector = path;
  const children = childrenOf(doc, ref).map((c) => childInfo(doc, selector, c));
  const span = doc.span(a, b);
  if (full || words <= DEFAULTS.MAX_WORDS) {
    return { ok: true, match: { selector, type: typeOf(ref), content: doc.text.slice(a, b), truncated: false, children_available: children, span } };
  }
  const cut = doc.wordEnds[firstWord + DEFAULTS.MAX_WORDS - 1] as number;
  const pages = [];
  for (let p = 0; p < totalPages; p++) {
    const s = pageStart(p);
    const e = pageEnd(p);
    const n = p === totalPages - 1 ? words - p * DEFAULTS.PAGE_SIZE : DEFAULTS.PAGE_SIZE;
    pages.push({
      selector: joinSelector(selector, `page[${p}]`),
      type: "page",
      preview: `Page ${p + 1} of ${totalPages} (${n} words)`,
      span: doc.span(s, e),
    });
  }
  return {
    ok: true,
    match: {
      selector,
      type: typeOf(ref),
      content: `${doc.text.slice(a, cut)}[truncated]`,
      truncated: true,
      pagination: { current_page: 0, total_pages: totalPages, word_count: words, has_more: true },
      children_available: [...pages, ...children],
      span,
    },
  };
}
