/**
 * The Markdown parser: markdown-it (CommonMark, GFM tables and strikethrough built in; task
 * list checks are recognised here). Only markdown-it's block parser runs over the document:
 * mdsel addresses blocks, word counts come from the source text, and inline text (heading
 * text, previews) is parsed on demand for the few nodes whose text is printed.
 *
 * markdown-it reports line ranges, not offsets, so every block rule is wrapped: when a rule
 * matches, the parser state still holds the container-relative line marks (`bMarks + tShift`
 * is where the block's first character sits, after any `>` or list marker), which gives exact
 * start and end offsets. Loaded lazily so `--help` and file errors never load the parser.
 */
import { createRequire } from "node:module";
import type markdownitFactory from "markdown-it";
import type { MarkdownIt, StateBlock, Token } from "markdown-it";

export type NodeKind = "paragraph" | "code" | "list" | "table" | "blockquote" | "heading" | "other";

/** A block as the parser saw it; offsets are UTF-16 indices into the parsed source. */
export interface RawNode {
  kind: NodeKind;
  start: number;
  end: number;
  /** Index of the enclosing container (blockquote or list) in the node list, -1 at the top. */
  parent: number;
  /** Index of the block's first token (for inline text and previews). */
  tok: number;
  /** Heading level (1-6), 0 for other kinds. */
  depth: number;
  /** A list item's first paragraph that starts with a GFM task check (`[ ]`, `[x]`). */
  task: boolean;
}

export interface Parsed {
  /** Pre-order, so document order: a container comes before what it holds. */
  nodes: RawNode[];
  tokens: Token[];
  /** Plain text of a heading or of the inline content under token `tok` (markup dropped). */
  inlineText(tok: number): string;
  /** Plain text of the block opened at token `tok`, whitespace collapsed, at least `limit` characters when it has them. */
  blockText(tok: number, limit: number): string;
  /** Plain text of the whole document, likewise. */
  docText(limit: number): string;
}


/** One run of markdown-it's block tokenizer: the document, or a container's content. */
interface Frame {
  /** Node index of the container whose content this is, -1 for the document. */
  parent: number;
  /** The block started last in this run (node index, -1 none), finished when the next one starts or the run ends. */
  pending: number;
}
interface Collector {
  nodes: RawNode[];
  frames: Frame[];
}
type Env = { mdselCollector?: Collector } & Record<string, unknown>;

let instance: Promise<MarkdownIt> | undefined;

function loadParser(): Promise<MarkdownIt> {
  instance ??= (async () => {
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

/** Settles a block once its rule is done: kind from its first token, then its extent. */
function settle(state: StateBlock, c: Collector, node: RawNode): void {
  const open = state.tokens[node.tok];
  if (!open?.map) throw new Error("mdsel: a block rule matched without a token");
  node.kind = KIND_OF_TOKEN[open.type] ?? "other";
  finish(state, node, open.map[0], open.map[1]);
  if (node.parent >= 0) {
    const p = c.nodes[node.parent]!;
    if (node.end > p.end) p.end = node.end;
  }
}

const KIND_OF_TOKEN: Record<string, NodeKind> = {
  paragraph_open: "paragraph",
  code_block: "code",
  fence: "code",
  bullet_list_open: "list",
  ordered_list_open: "list",
  table_open: "table",
  blockquote_open: "blockquote",
  heading_open: "heading",
};

/**
 * Sets a block's end (and heading depth, task flag) while the line marks are still its
 * container's; `nextLine` is the line after the block (what the rule left in `state.line`).
 */
function finish(state: StateBlock, node: RawNode, startLine: number, nextLine: number): void {
  const src = state.src;
  const tokens = state.tokens;
  if (node.kind === "blockquote") {
    // Its own last line counts even when it holds only `>` (a lazy line is a child's end).
    node.end = Math.max(node.end, state.eMarks[lastFilledLine(state, startLine, nextLine)]!);
    return;
  }
  if (node.kind === "list") {
    // An empty last item ends the list at its marker, which no child covers.
    const level = tokens[node.tok]!.level + 1;
    for (let i = node.tok + 1; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.type !== "list_item_open" || t.level !== level || !t.map) continue;
      const at = state.bMarks[t.map[0]]! + state.tShift[t.map[0]]!;
      node.end = Math.max(node.end, at + t.info.length + t.markup.length);
    }
    return;
  }
  const open = tokens[node.tok];
  // Leaf blocks end where their last line's content ends (trailing spaces included, as the
  // line is the block's); blank lines after them are not theirs, except in an unclosed fence,
  // which runs to the end of its container.
  const last = open?.type === "fence" && !closesFence(state, open, nextLine - 1, startLine) ? nextLine - 1 : lastFilledLine(state, startLine, nextLine);
  node.end = state.eMarks[last]!;
  if (open?.type === "code_block") {
    // Indented code: its indentation is part of it (up to the container's own indent).
    let pos = state.bMarks[startLine]!;
    for (let col = 0; col < state.blkIndent && pos < node.start; pos++) col += src.charCodeAt(pos) === 0x09 ? 4 - (col % 4) : 1;
    node.start = pos;
  } else if (node.kind === "heading" && open) node.depth = Number(open.tag.slice(1));
  else if (node.kind === "paragraph" && tokens[node.tok - 1]?.type === "list_item_open" && TASK.test(tokens[node.tok + 1]?.content ?? "")) {
    // GFM task item: the check is not paragraph text; the paragraph starts at the text after it.
    node.task = true;
    let pos = node.start + 3;
    while (pos < node.end && /\s/.test(src[pos] as string)) pos++;
    node.start = pos;
  }
}

function lastFilledLine(state: StateBlock, startLine: number, nextLine: number): number {
  let last = nextLine - 1;
  while (last > startLine && state.isEmpty(last)) last--;
  return last;
}

function closesFence(state: StateBlock, open: Token, line: number, startLine: number): boolean {
  if (line <= startLine) return false;
  const text = state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]).trimEnd();
  return text.length >= open.markup.length && [...text].every((ch) => ch === open.markup[0]);
}

/** `[ ]`, `[x]` or `[X]`, then whitespace; the content is trimmed, so text follows. */
const TASK = /^\[[ \txX]\][ \t\n]/;

/**
 * Parses `src` (no BOM; any line endings) and returns its blocks with offsets into `src`.
 * markdown-it wants LF line endings; CR and CRLF are normalised first and offsets mapped back.
 */
export async function parseBlocks(src: string): Promise<Parsed> {
  const md = await loadParser();
  const hasCr = src.includes("\r");
  const norm = hasCr ? src.replace(/\r\n?/g, "\n") : src;
  const env: Env = { mdselCollector: { nodes: [], frames: [] } };
  const tokens: Token[] = [];
  md.block.parse(norm, md, env, tokens);
  const nodes = env.mdselCollector!.nodes;
  delete env.mdselCollector;
  if (hasCr) {
    const toSrc = offsetMapper(src);
    for (const n of nodes) {
      n.start = toSrc(n.start);
      n.end = toSrc(n.end);
    }
  }

  const inlineCache = new Map<number, string>();
  const inlineText = (tok: number): string => {
    let s = inlineCache.get(tok);
    if (s !== undefined) return s;
    const ii = tokens[tok]?.type === "inline" ? tok : tok + 1;
    const inl = tokens[ii];
    if (inl?.type !== "inline") return "";
    let content = inl.content;
    if (tokens[ii - 1]?.type === "paragraph_open" && tokens[ii - 2]?.type === "list_item_open" && TASK.test(content)) content = content.slice(4);
    let m: RegExpExecArray | null;
    if (PLAIN.test(content)) s = content;
    else if ((m = LINK_THEN_PLAIN.exec(content)) !== null) s = `${m[1]}${m[2]}`;
    else {
      const children: Token[] = [];
      md.inline.parse(content, md, env, children);
      s = flatten(children);
    }
    inlineCache.set(tok, s);
    return s;
  };

  // Leaves (inline content, code, HTML) joined by spaces and collapsed, as a reader sees them;
  // stops once `limit` characters are there, so a preview never flattens a whole long block.
  const collect = (from: number, to: number, limit: number): string => {
    let out = "";
    for (let i = from; i < to && out.length < limit; i++) {
      const t = tokens[i]!;
      let leaf: string | undefined;
      if (t.type === "inline") leaf = inlineText(i);
      else if (t.type === "fence" || t.type === "code_block" || t.type === "html_block") leaf = t.content;
      if (leaf !== undefined) out = collapse(`${out} ${leaf}`);
    }
    return out;
  };

  return {
    nodes,
    tokens,
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
