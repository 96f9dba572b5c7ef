/**
 * Block extents from markdown-it's line marks (parse.ts hooks its tokenizer): each block's start,
 * end, heading depth and task flag, read while the marks are still its container's. The simple
 * scanner (simple-blocks.ts) applies the same rules to the blocks it takes on.
 */
import type { Token } from "markdown-it";

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

/** What the extent rules read of a block tokenizer's state (markdown-it's StateBlock has it all). */
export interface BlockView {
  src: string;
  tokens: Token[];
  bMarks: ArrayLike<number>;
  eMarks: ArrayLike<number>;
  tShift: ArrayLike<number>;
  blkIndent: number;
  isEmpty(line: number): boolean;
}

/** One run of markdown-it's block tokenizer: the document, or a container's content. */
export interface Frame {
  /** Node index of the container whose content this is, -1 for the document. */
  parent: number;
  /** The block started last in this run (node index, -1 none), finished when the next one starts or the run ends. */
  pending: number;
}
export interface Collector {
  nodes: RawNode[];
  frames: Frame[];
}
/** Settles a block once its rule is done: kind from its first token, then its extent. */
export function settle(state: BlockView, c: Collector, node: RawNode): void {
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
function finish(state: BlockView, node: RawNode, startLine: number, nextLine: number): void {
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

function lastFilledLine(state: BlockView, startLine: number, nextLine: number): number {
  let last = nextLine - 1;
  while (last > startLine && state.isEmpty(last)) last--;
  return last;
}

function closesFence(state: BlockView, open: Token, line: number, startLine: number): boolean {
  if (line <= startLine) return false;
  const text = state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]).trimEnd();
  return text.length >= open.markup.length && [...text].every((ch) => ch === open.markup[0]);
}

/** `[ ]`, `[x]` or `[X]`, then whitespace; the content is trimmed, so text follows. */
export const TASK = /^\[[ \txX]\][ \t\n]/;


/** Node kinds as the numbers a NodeTable holds. */
export const KIND_NAMES: readonly NodeKind[] = ["other", "paragraph", "code", "list", "table", "blockquote", "heading"];
export const K_OTHER = 0;
export const K_PARAGRAPH = 1;
export const K_LIST = 3;
export const K_HEADING = 6;

/**
 * The nodes as columns, RawNode's fields one typed array each: a large document has tens of
 * thousands of blocks, and an object per block is garbage the young-generation collector copies
 * (twice, before promoting it) for nothing.
 */
export interface NodeTable {
  count: number;
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  parents: Int32Array;
  toks: Int32Array;
  depths: Uint8Array;
  tasks: Uint8Array;
}

export function emptyTable(capacity: number): NodeTable {
  return {
    count: 0,
    kinds: new Uint8Array(capacity),
    starts: new Int32Array(capacity),
    ends: new Int32Array(capacity),
    parents: new Int32Array(capacity),
    toks: new Int32Array(capacity),
    depths: new Uint8Array(capacity),
    tasks: new Uint8Array(capacity),
  };
}

/** The same table with room for `capacity` nodes. */
export function grownTable(t: NodeTable, capacity: number): NodeTable {
  const g = emptyTable(capacity);
  g.count = t.count;
  g.kinds.set(t.kinds);
  g.starts.set(t.starts);
  g.ends.set(t.ends);
  g.parents.set(t.parents);
  g.toks.set(t.toks);
  g.depths.set(t.depths);
  g.tasks.set(t.tasks);
  return g;
}

export function tableOf(nodes: readonly RawNode[]): NodeTable {
  const t = emptyTable(nodes.length);
  t.count = nodes.length;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    t.kinds[i] = KIND_NAMES.indexOf(n.kind);
    t.starts[i] = n.start;
    t.ends[i] = n.end;
    t.parents[i] = n.parent;
    t.toks[i] = n.tok;
    t.depths[i] = n.depth;
    t.tasks[i] = n.task ? 1 : 0;
  }
  return t;
}

export function nodesOf(t: NodeTable): RawNode[] {
  const out: RawNode[] = [];
  for (let i = 0; i < t.count; i++) {
    out.push({ kind: KIND_NAMES[t.kinds[i]!]!, start: t.starts[i]!, end: t.ends[i]!, parent: t.parents[i]!, tok: t.toks[i]!, depth: t.depths[i]!, task: t.tasks[i] === 1 });
  }
  return out;
}
