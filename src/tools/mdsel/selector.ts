/**
 * The selector language (seed 05):
 *
 *   selector := [namespace "::"] [segment ("/" segment)*] ["?" param ("&" param)*]
 *   segment  := "root" | "heading:h" 1-6 [index] | "section" [index]
 *             | "block:" (paragraph|code|list|table|blockquote) [index] | "page" [index]
 *   index    := "[" digits "]"          (omitted means [0])
 *   param    := "full=" (true|false)
 *
 * A hand-written scanner so every fault carries its position in the selector string.
 */
import type { BlockType } from "./document.js";

export type Segment =
  | { kind: "root"; start: number; end: number }
  | { kind: "heading"; depth: 1 | 2 | 3 | 4 | 5 | 6; index: number; start: number; end: number }
  | { kind: "section"; index: number; start: number; end: number }
  | { kind: "block"; block: BlockType; index: number; start: number; end: number }
  | { kind: "page"; index: number; start: number; end: number };

export interface Selector {
  source: string;
  namespace: string | undefined;
  segments: Segment[];
  full: boolean;
}

export class SelectorSyntaxError extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
    /** Corrected spellings of the faulty part, for suggestions (full selectors are built by the caller). */
    readonly fixes: { replace: [number, number]; with: string[] } | undefined = undefined,
  ) {
    super(message);
    this.name = "SelectorSyntaxError";
  }
}

const BLOCKS: readonly BlockType[] = ["paragraph", "code", "list", "table", "blockquote"];
const SEGMENT_WORDS = ["root", "heading", "section", "block", "page"];
const NAMESPACE = /^[\p{L}\p{N}_.-]+$/u;

export function parseSelector(input: string): Selector {
  const source = input;
  let s = input;
  let base = 0;
  // Leading/trailing blanks are a shell accident, not a fault; positions stay in `source`.
  const lead = s.length - s.trimStart().length;
  s = s.trim();
  base = lead;
  if (s.length === 0) throw new SelectorSyntaxError("Empty selector", 0, input.length);

  let namespace: string | undefined;
  const nsAt = s.indexOf("::");
  if (nsAt !== -1) {
    namespace = s.slice(0, nsAt);
    if (!NAMESPACE.test(namespace)) {
      throw new SelectorSyntaxError(
        namespace.length === 0 ? "Empty namespace before '::'" : `Invalid namespace '${namespace}' - use letters, digits, '_', '.', '-'`,
        base,
        base + Math.max(nsAt, 1),
      );
    }
    namespace = namespace.toLowerCase();
  }
  let pathStart = nsAt === -1 ? 0 : nsAt + 2;

  let full = false;
  const q = s.indexOf("?", pathStart);
  let pathEnd = s.length;
  if (q !== -1) {
    pathEnd = q;
    full = parseQuery(s.slice(q + 1), base + q + 1);
  }
  const path = s.slice(pathStart, pathEnd);
  const segments: Segment[] = [];
  if (path.length > 0) {
    let at = 0;
    for (const raw of path.split("/")) {
      const segStart = base + pathStart + at;
      segments.push(parseSegment(raw, segStart));
      at += raw.length + 1;
    }
  }
  pathStart += base;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as Segment;
    if (seg.kind === "root" && i !== 0) {
      throw new SelectorSyntaxError("'root' can only be the first segment", seg.start, seg.end);
    }
    if (seg.kind === "page" && i !== segments.length - 1) {
      throw new SelectorSyntaxError("'page[i]' can only be the last segment", seg.start, seg.end);
    }
  }
  return { source, namespace, segments, full };
}

function parseQuery(q: string, offset: number): boolean {
  let full = false;
  let at = 0;
  for (const param of q.split("&")) {
    const start = offset + at;
    at += param.length + 1;
    if (param === "") continue;
    const eq = param.indexOf("=");
    const name = eq === -1 ? param : param.slice(0, eq);
    const value = eq === -1 ? "true" : param.slice(eq + 1);
    if (name !== "full") {
      throw new SelectorSyntaxError(`Unknown query parameter '${name}' - the only one is 'full'`, start, start + name.length, {
        replace: [start, start + name.length],
        with: ["full"],
      });
    }
    if (value !== "true" && value !== "false") {
      throw new SelectorSyntaxError(`Invalid value '${value}' for 'full' - use true or false`, start + eq + 1, start + param.length, {
        replace: [start + eq + 1, start + param.length],
        with: ["true", "false"],
      });
    }
    full = value === "true";
  }
  return full;
}

function parseSegment(raw: string, start: number): Segment {
  const end = start + raw.length;
  if (raw.length === 0) throw new SelectorSyntaxError("Empty path segment (doubled or trailing '/')", start, start + 1);
  // Split off an index suffix "[n]".
  let name = raw;
  let index = 0;
  const br = raw.indexOf("[");
  if (br !== -1) {
    name = raw.slice(0, br);
    const close = raw.indexOf("]", br);
    if (close === -1) throw new SelectorSyntaxError("Unclosed '[' in index", start + br, end);
    if (close !== raw.length - 1) {
      throw new SelectorSyntaxError(`Unexpected '${raw.slice(close + 1)}' after index`, start + close + 1, end);
    }
    const digits = raw.slice(br + 1, close);
    if (!/^\d+$/.test(digits)) {
      throw new SelectorSyntaxError(`Index must be a non-negative integer, got '${digits}'`, start + br + 1, start + close);
    }
    if (!Number.isSafeInteger(Number(digits))) {
      throw new SelectorSyntaxError(`Index ${digits} is too large (at most ${Number.MAX_SAFE_INTEGER}); no document has that many`, start + br + 1, start + close);
    }
    index = Number(digits);
  }
  const colon = name.indexOf(":");
  const word = colon === -1 ? name : name.slice(0, colon);
  const arg = colon === -1 ? undefined : name.slice(colon + 1);
  const argStart = start + colon + 1;
  switch (word) {
    case "root":
      if (arg !== undefined || br !== -1) throw new SelectorSyntaxError("'root' takes no type or index", start, end);
      return { kind: "root", start, end };
    case "section":
    case "page":
      if (arg !== undefined) throw new SelectorSyntaxError(`'${word}' takes no type`, start + colon, start + name.length);
      return { kind: word, index, start, end };
    case "heading": {
      if (arg === undefined || arg === "") {
        throw new SelectorSyntaxError("Missing heading level - use heading:h1 to heading:h6", start, start + name.length, {
          replace: [start, start + name.length],
          with: ["heading:h1", "heading:h2", "heading:h3", "heading:h4", "heading:h5", "heading:h6"],
        });
      }
      const m = /^h(\d+)$/.exec(arg);
      const levels = ["h1", "h2", "h3", "h4", "h5", "h6"];
      if (!m) {
        throw new SelectorSyntaxError(`Invalid heading level '${arg}' - must be h1-h6`, argStart, argStart + arg.length, {
          replace: [argStart, argStart + arg.length],
          with: levels,
        });
      }
      const depth = Number(m[1]);
      if (depth < 1 || depth > 6) {
        throw new SelectorSyntaxError(`Invalid heading level '${arg}' - must be h1-h6`, argStart, argStart + arg.length, {
          replace: [argStart, argStart + arg.length],
          with: levels,
        });
      }
      return { kind: "heading", depth: depth as 1 | 2 | 3 | 4 | 5 | 6, index, start, end };
    }
    case "block": {
      if (arg === undefined || !(BLOCKS as readonly string[]).includes(arg)) {
        const a = arg ?? "";
        throw new SelectorSyntaxError(
          arg === undefined ? `Missing block type - use block:${BLOCKS.join("|")}` : `Unknown block type '${a}' - must be one of ${BLOCKS.join(", ")}`,
          arg === undefined ? start : argStart,
          arg === undefined ? start + name.length : argStart + a.length,
          { replace: arg === undefined ? [start, start + name.length] : [argStart, argStart + a.length], with: arg === undefined ? BLOCKS.map((b) => `block:${b}`) : [...BLOCKS] },
        );
      }
      return { kind: "block", block: arg as BlockType, index, start, end };
    }
    default:
      throw new SelectorSyntaxError(
        `Unknown segment '${word}' - must be one of root, heading:hN, section, block:TYPE, page`,
        start,
        start + word.length,
        { replace: [start, start + word.length], with: SEGMENT_WORDS },
      );
  }
}

/** The canonical text of a segment (index always written). */
export function formatSegment(seg: Segment): string {
  switch (seg.kind) {
    case "root":
      return "root";
    case "heading":
      return `heading:h${seg.depth}[${seg.index}]`;
    case "section":
      return `section[${seg.index}]`;
    case "block":
      return `block:${seg.block}[${seg.index}]`;
    case "page":
      return `page[${seg.index}]`;
  }
}
