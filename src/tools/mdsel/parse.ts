/**
 * The Markdown parser: markdown-it (CommonMark, GFM tables and strikethrough built in; task
 * list checks are recognised here). Only a block parser runs over the document: mdsel
 * addresses blocks, word counts come from the source text, and inline text (heading text,
 * previews) is parsed on demand for the few nodes whose text is printed.
 *
 * markdown-it reports line ranges, not offsets, so the block tokenizer is hooked: at each block
 * start the parser state still holds the container-relative line marks (`bMarks + tShift` is
 * where the block's first character sits, after any `>` or list marker), which gives exact
 * start and end offsets (block-marks.ts). Documents made only of headings, paragraphs, bullet
 * lists and HTML comments (most generated changelogs) are first tried by simple-blocks.ts,
 * which follows markdown-it's rules for exactly those blocks and gives up on anything else;
 * markdown-it is loaded lazily, so `--help`, file errors and such documents never load it.
 */
import { createRequire } from "node:module";
import type markdownitFactory from "markdown-it";
import type { MarkdownIt, StateBlock, Token } from "markdown-it";
import { K_LIST, K_PARAGRAPH, nodesOf, settle, tableOf, TASK, type Collector, type Frame, type NodeTable, type RawNode } from "./block-marks.js";
import { scanSimple, type SimpleDoc } from "./simple-blocks.js";

export type { NodeKind, RawNode } from "./block-marks.js";

export interface Parsed {
  /** Pre-order, so document order: a container comes before what it holds. */
  table: NodeTable;
  /** The same nodes as objects (tests compare them). */
  readonly nodes: RawNode[];
  /** Plain text of a heading or of the inline content under token `tok` (markup dropped). */
  inlineText(tok: number): string;
  /** Plain text of the block opened at token `tok`, whitespace collapsed, at least `limit` characters when it has them. */
  blockText(tok: number, limit: number): string;
  /** Plain text of the whole document, likewise. */
  docText(limit: number): string;
}


type Env = { mdselCollector?: Collector } & Record<string, unknown>;

let instance: MarkdownIt | undefined;

function loadParser(): MarkdownIt {
  instance ??= (() => {
    // The CommonJS build: Node loads its ~20 modules (entities, mdurl, linkify-it, ...) about
    // twice as fast as the ESM graph, and start-up is a large share of a whole `mdsel index`.
    const markdownit = createRequire(import.meta.url)("markdown-it") as typeof markdownitFactory;
    // html: CommonMark has HTML blocks; linkify and typographer stay off (not CommonMark).
    const md = markdownit({ html: true });
    // Inline parsing here only extracts text: link targets are never printed, so skip URL
    // normalisation (punycode, percent-encoding) and the unsafe-scheme check, which would
    // otherwise turn a `javascript:` link back into literal brackets.
    md.normalizeLink = (url) => url;
    md.normalizeLinkText = (text) => text;
    md.validateLink = () => true;
    useLeanTokens(md);

    // Block positions. markdown-it's tokenizer runs once for the document and once per
    // container (quote, list item); in each run it tries the rules at every block start until
    // one matches. A first rule that never matches records where each block starts (while the
    // line marks are still the container's), and a block is settled — its end read from the
    // same marks — when the next block of its run starts or the run ends, which is before the
    // container restores its marks. Two calls per block instead of a wrapper around every
    // rule, each of which is tried at every block start.
    md.block.ruler.before("table", "mdsel_start", (state, startLine) => {
      const c = (state.env as Env).mdselCollector;
      if (!c) return false;
      const f = c.frames[c.frames.length - 1]!;
      if (f.pending >= 0) settle(state, c, c.nodes[f.pending]!);
      const start = state.bMarks[startLine]! + state.tShift[startLine]!;
      f.pending = c.nodes.length;
      c.nodes.push({ kind: "other", start, end: start, parent: f.parent, tok: state.tokens.length, depth: 0, task: false });
      return false;
    });
    const tokenize = md.block.tokenize.bind(md.block);
    md.block.tokenize = (state, startLine, endLine) => {
      const c = (state.env as Env).mdselCollector;
      if (!c) return tokenize(state, startLine, endLine);
      const outer = c.frames[c.frames.length - 1];
      const f: Frame = { parent: outer ? outer.pending : -1, pending: -1 };
      c.frames.push(f);
      try {
        tokenize(state, startLine, endLine);
        if (f.pending >= 0) settle(state, c, c.nodes[f.pending]!);
      } finally {
        c.frames.pop();
      }
    };
    return md;
  })();
  return instance;
}

/**
 * markdown-it 15's Token constructor defines each of its 13 fields through a transpiled
 * class-field helper, which costs tens of milliseconds on a large document. Block tokens are
 * made instead by a plain constructor with the same fields, in the same order, on the same
 * prototype (so every Token method still works).
 */
function useLeanTokens(md: MarkdownIt): void {
  const Base = md.block.State;
  const TokenProto = (new Base("", md, {}, []) as StateBlock).Token.prototype as object;
  function LeanToken(this: Record<string, unknown>, type: string, tag: string, nesting: number): void {
    this.type = type;
    this.tag = tag;
    this.attrs = null;
    this.map = null;
    this.nesting = nesting;
    this.level = 0;
    this.children = null;
    this.content = "";
    this.markup = "";
    this.info = "";
    this.meta = null;
    this.block = false;
    this.hidden = false;
  }
  LeanToken.prototype = TokenProto;
  const Lean = LeanToken as unknown as new (type: string, tag: string, nesting: number) => Token;
  md.block.State = class extends Base {
    override push(type: string, tag: string, nesting: -1 | 0 | 1): Token {
      const token = new Lean(type, tag, nesting);
      token.block = true;
      if (nesting < 0) this.level--;
      token.level = this.level;
      if (nesting > 0) this.level++;
      this.tokens.push(token);
      return token;
    }
  };
}

/**
 * Parses `src` (no BOM; any line endings) and returns its blocks with offsets into `src`.
 * markdown-it wants LF line endings; CR and CRLF are normalised first and offsets mapped back.
 * `simple: false` skips the simple scanner (tests compare the two); `lineStarts` are `src`'s
 * line starts when the caller has them (lineStartsOf).
 */
export async function parseBlocks(src: string, options: { simple?: boolean; lineStarts?: readonly number[] } = {}): Promise<Parsed> {
  return Promise.resolve(parseBlocksSync(src, options));
}

/** parseBlocks without the promise (the parsers are synchronous). */
export function parseBlocksSync(src: string, options: { simple?: boolean; lineStarts?: readonly number[] } = {}): Parsed {
  const hasCr = src.includes("\r");
  const norm = hasCr ? src.replace(/\r\n?/g, "\n") : src;
  const simple = options.simple === false ? null : scanSimple(norm, hasCr ? undefined : options.lineStarts);
  const parsed = simple ? fromSimple(simple) : fromMarkdownIt(norm);
  if (hasCr) {
    const toSrc = offsetMapper(src);
    const t = parsed.table;
    for (let i = 0; i < t.count; i++) {
      t.starts[i] = toSrc(t.starts[i]!);
      t.ends[i] = toSrc(t.ends[i]!);
    }
  }
  return parsed;
}

/** What a reader sees of inline content (markup dropped), through the inline parser only when markup may be there. */
function plainText(content: string, env: Env): string {
  if (PLAIN.test(content)) return content;
  const m = LINK_THEN_PLAIN.exec(content);
  if (m !== null) return `${m[1]}${m[2]}`;
  const children: Token[] = [];
  const md = loadParser();
  md.inline.parse(content, md, env, children);
  return flatten(children);
}

/** Appends a leaf's text to a preview, collapsed, as a reader sees consecutive blocks. */
function joinLeaf(out: string, leaf: string): string {
  return collapse(`${out} ${leaf}`);
}

function fromMarkdownIt(norm: string): Parsed {
  const md = loadParser();
  const env: Env = { mdselCollector: { nodes: [], frames: [] } };
  const tokens: Token[] = [];
  md.block.parse(norm, md, env, tokens);
  const table = tableOf(env.mdselCollector!.nodes);
  delete env.mdselCollector;

  const inlineCache = new Map<number, string>();
  const inlineText = (tok: number): string => {
    let s = inlineCache.get(tok);
    if (s !== undefined) return s;
    const ii = tokens[tok]?.type === "inline" ? tok : tok + 1;
    const inl = tokens[ii];
    if (inl?.type !== "inline") return "";
    let content = inl.content;
    if (tokens[ii - 1]?.type === "paragraph_open" && tokens[ii - 2]?.type === "list_item_open" && TASK.test(content)) content = content.slice(4);
    s = plainText(content, env);
    inlineCache.set(tok, s);
    return s;
  };

  // Leaves (inline content, code, HTML) joined by spaces and collapsed, as a reader sees them;
  // stops once `limit` characters are there, so a preview never flattens a whole long block.
  const collect = (from: number, to: number, limit: number): string => {
    let out = "";
    for (let i = from; i < to && out.length < limit; i++) {
      const t = tokens[i]!;
      if (t.type === "inline") out = joinLeaf(out, inlineText(i));
      else if (t.type === "fence" || t.type === "code_block" || t.type === "html_block") out = joinLeaf(out, t.content);
    }
    return out;
  };

  return {
    table,
    get nodes() {
      return nodesOf(table);
    },
    inlineText,
    blockText: (tok, limit) => {
      const open = tokens[tok];
      if (!open) return "";
      if (open.nesting !== 1) return collect(tok, tok + 1, limit);
      let end = tok + 1;
      while (end < tokens.length && !(tokens[end]!.nesting === -1 && tokens[end]!.level === open.level)) end++;
      return collect(tok + 1, end, limit);
    },
    docText: (limit) => collect(0, tokens.length, limit),
  };
}

/** The same texts from the simple scanner, whose `tok` is the node's own index (leaves in node order are markdown-it's leaf tokens in order). */
function fromSimple(doc: SimpleDoc): Parsed {
  const table = doc.table;
  const { kinds, parents } = table;
  const env: Env = {};
  const inlineCache = new Map<number, string>();
  const inlineText = (i: number): string => {
    let s = inlineCache.get(i);
    if (s !== undefined) return s;
    if (!doc.isInline(i)) return "";
    let content = doc.content(i);
    if (kinds[i] === K_PARAGRAPH && doc.firstInItem(i) && TASK.test(content)) content = content.slice(4);
    s = plainText(content, env);
    inlineCache.set(i, s);
    return s;
  };
  const collect = (from: number, to: number, limit: number): string => {
    let out = "";
    for (let i = from; i < to && out.length < limit; i++) {
      if (doc.isInline(i)) out = joinLeaf(out, inlineText(i));
      else if (doc.isHtml(i)) out = joinLeaf(out, doc.content(i));
    }
    return out;
  };
  return {
    table,
    get nodes() {
      return nodesOf(table);
    },
    inlineText,
    blockText: (i, limit) => {
      if (i < 0 || i >= table.count) return "";
      if (kinds[i] !== K_LIST) return collect(i, i + 1, limit);
      // Pre-order: a container's descendants follow it, each with a parent at or after it.
      let end = i + 1;
      while (end < table.count && parents[end]! >= i) end++;
      return collect(i + 1, end, limit);
    },
    docText: (limit) => collect(0, table.count, limit),
  };
}

/** Inline content with none of the characters that start markup, entities or breaks is its own text. */
const PLAIN = /^[^\\`*_[\]<>&!~\n]*$/;

/**
 * `[text](destination) rest` with plain text, a destination without spaces, parentheses,
 * escapes, brackets, backticks or angle brackets (so nothing in it can bind tighter than the
 * link), and plain rest: an inline link, whose reader-visible text is `text` + `rest`. This is
 * the shape of every release heading in generated changelogs (`## [1.2.3](url) (2024-01-01)`),
 * and the shortcut spares the inline parser thousands of calls on them.
 */
const LINK_THEN_PLAIN = /^\[([^\\`*_[\]<>&!~\n]*)\]\([^\s()\\<>`[\]]*\)([^\\`*_[\]<>&!~\n]*)$/;

/** What a reader sees of inline content: text, code, inline HTML, image alt text; markup dropped. */
function flatten(children: Token[]): string {
  let out = "";
  for (const c of children) {
    switch (c.type) {
      case "text":
      case "text_special":
      case "code_inline":
      case "html_inline":
        out += c.content;
        break;
      case "softbreak":
      case "hardbreak":
        out += "\n";
        break;
      case "image":
        out += flatten(c.children ?? []);
        break;
      default:
        break;
    }
  }
  return out;
}

/** Maps an offset in the LF-normalised text back to `src`, whose lines may end in CR or CRLF. */
function offsetMapper(src: string): (i: number) => number {
  // Line k starts at normStarts[k] in the normalised text and at srcStarts[k] in src.
  const normStarts = [0];
  const srcStarts = [0];
  const re = /\r\n?|\n/g;
  let removed = 0;
  for (let m = re.exec(src); m !== null; m = re.exec(src)) {
    removed += m[0].length - 1;
    srcStarts.push(m.index + m[0].length);
    normStarts.push(m.index + m[0].length - removed);
  }
  return (i) => {
    let lo = 0;
    let hi = normStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (normStarts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return srcStarts[lo]! + (i - normStarts[lo]!);
  };
}

export function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
