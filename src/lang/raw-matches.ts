/**
 * Query matches with light capture nodes instead of node-tree-sitter's SyntaxNode objects.
 *
 * Why: `Query.matches()` turns every captured node into a SyntaxNode (a property defined per
 * object, a BigInt id, a Map keyed by it) and then hands all of them back to the native side to
 * be cached with a reference each. On the bench tree that is 1.8 million captures, about a sixth
 * of an extraction worker's time. Here the same native call (`_matches`) is made and each capture
 * becomes a plain object holding the node's six transfer fields (the layout node-tree-sitter's
 * own marshalNode/unmarshalNode use); the few node properties extraction reads (start, end, type,
 * parent, text) come from those fields or from the same native node methods the getters call.
 *
 * This leans on node-tree-sitter 0.25's private surface (`_matches`, `nodeTransferArray`,
 * `NodeMethods`, `predicates`). Anything missing or different makes `rawMatchesSupported()`
 * false and extraction uses the public `matches()`; test/lang/raw-matches.test.ts compares the
 * two on real files, so an upgrade that changes the layout fails loudly instead of silently.
 */
import { createRequire } from "node:module";
import type Parser from "tree-sitter";
import { loadTreeSitter, treeSitterDir } from "./tree-sitter-module.js";

const FIELDS = 6;

interface Binding {
  nodeTransferArray: Uint32Array;
  NodeMethods: {
    endIndex(tree: Parser.Tree): number;
    parent(tree: Parser.Tree): unknown;
    namedChildCount(tree: Parser.Tree): number;
  };
  Query: unknown;
}

type RawQuery = Parser.Query & {
  _matches(tree: Parser.Tree, ...args: number[]): [(number | string)[], unknown[]];
  predicates?: ((captures: { name: string; node: { text: string } }[]) => boolean)[][];
};

let binding: Binding | null | undefined;

/** The addon object node-tree-sitter's index.js holds (require's cache gives the same one back). */
function loadBinding(): Binding | null {
  if (binding !== undefined) return binding;
  binding = null;
  try {
    const tsDir = treeSitterDir();
    const treeSitter = loadTreeSitter() as unknown as { Query: unknown };
    const b = createRequire(`${tsDir}/package.json`)("node-gyp-build")(tsDir) as Binding;
    if (
      b &&
      b.Query === treeSitter.Query &&
      b.nodeTransferArray instanceof Uint32Array &&
      typeof b.NodeMethods?.endIndex === "function" &&
      typeof b.NodeMethods?.parent === "function" &&
      typeof b.NodeMethods?.namedChildCount === "function" &&
      typeof (b.Query as { prototype?: { _matches?: unknown } }).prototype?._matches === "function"
    ) {
      binding = b;
    }
  } catch {
    binding = null;
  }
  return binding;
}

export function rawMatchesSupported(): boolean {
  return loadBinding() !== null;
}

/**
 * A captured node and its capture name, in one object (one per capture: there are millions). Its
 * six transfer fields stay in the Uint32Array the whole call's nodes were copied into, at `at`:
 * no per-node array of numbers, most of which (the id halves) would be boxed doubles.
 */
export class CapturedNode {
  private end = -1;
  constructor(
    readonly tree: Parser.Tree,
    readonly typeId: number,
    private readonly fields: Uint32Array,
    private readonly at: number,
    /** The capture name (empty for a node reached as a parent). */
    readonly name: string,
  ) {}

  /** The capture's node: itself (a capture and its node are one object here). */
  get node(): CapturedNode {
    return this;
  }

  /** Start as a UTF-16 index of the parsed text (the first context field is its byte offset, 2 per unit). */
  get startIndex(): number {
    return (this.fields[this.at + 2] as number) >>> 1;
  }

  get endIndex(): number {
    if (this.end < 0) {
      this.marshal();
      this.end = (binding as Binding).NodeMethods.endIndex(this.tree);
    }
    return this.end;
  }

  get namedChildCount(): number {
    this.marshal();
    return (binding as Binding).NodeMethods.namedChildCount(this.tree);
  }

  get parent(): CapturedNode | null {
    this.marshal();
    const b = binding as Binding;
    const v = b.NodeMethods.parent(this.tree);
    if (typeof v === "number") return new CapturedNode(this.tree, v, b.nodeTransferArray.slice(0, FIELDS), 0, "");
    if (v && typeof v === "object") return fromSyntaxNode(this.tree, v as Parser.SyntaxNode, "");
    return null;
  }

  /** What extract.ts's nodeKey() gives for `parent`, read where the native call leaves the parent. */
  parentKey(): string | undefined {
    this.marshal();
    const b = binding as Binding;
    const v = b.NodeMethods.parent(this.tree);
    if (typeof v === "number") {
      // The parent's fields are now where endIndex reads its argument.
      const start = (b.nodeTransferArray[2] as number) >>> 1;
      return `${start}:${b.NodeMethods.endIndex(this.tree)}:${v}`;
    }
    if (v && typeof v === "object") {
      const p = v as Parser.SyntaxNode;
      return `${p.startIndex}:${p.endIndex}:${p.typeId}`;
    }
    return undefined;
  }

  get text(): string {
    return (this.tree as unknown as { getText(n: { startIndex: number; endIndex: number }): string }).getText(this);
  }

  /**
   * The node as node-tree-sitter's own SyntaxNode (its language's class for the type, the six
   * transfer fields copied in), for code that walks from it with the public node API.
   */
  syntaxNode(): Parser.SyntaxNode {
    const classes = (this.tree as unknown as { language?: { nodeSubclasses?: (new (tree: Parser.Tree) => Parser.SyntaxNode)[] } }).language?.nodeSubclasses;
    const NodeClass = classes?.[this.typeId] ?? classes?.[0];
    if (!NodeClass) throw new Error("tree-sitter binding without node classes: cannot make a SyntaxNode");
    const node = new NodeClass(this.tree);
    const slots = node as unknown as number[];
    for (let i = 0; i < FIELDS; i++) slots[i] = this.fields[this.at + i] as number;
    return node;
  }

  /** Puts the node where the native node methods read their argument (what marshalNode does). */
  private marshal(): void {
    const t = (binding as Binding).nodeTransferArray;
    const f = this.fields;
    const at = this.at;
    for (let i = 0; i < FIELDS; i++) t[i] = f[at + i] as number;
  }
}

function fromSyntaxNode(tree: Parser.Tree, n: Parser.SyntaxNode, name: string): CapturedNode {
  const f = new Uint32Array(FIELDS);
  const slots = n as unknown as number[];
  for (let i = 0; i < FIELDS; i++) f[i] = slots[i] as number;
  return new CapturedNode(tree, n.typeId, f, 0, name);
}

/** A capture: its name and node (here one object, `node` being the capture itself). */
export type RawCapture = CapturedNode;

export interface RawMatch {
  pattern: number;
  captures: RawCapture[];
}

/**
 * The matches of one native call, read in place: capture names from the native result, node
 * starts from the copied transfer fields, ends by a native call only when asked. Extraction folds
 * the million reference matches of a large tree from here without an object per match or capture,
 * and makes RawMatch objects (`match(j)`) only for the few symbol and import matches.
 */
export class RawMatchList {
  /** Matches kept (their text predicates hold). */
  readonly length: number;
  constructor(
    readonly tree: Parser.Tree,
    private readonly flat: (number | string)[],
    private readonly nodes: unknown[],
    private readonly fields: Uint32Array,
    /** Per node: its first field in `fields` (-1 for a node handed back as a SyntaxNode). */
    private readonly offsets: Int32Array,
    /** Per kept match: index in `flat` of its pattern entry, then of its first node, then its capture count. */
    private readonly index: Int32Array,
  ) {
    this.length = index.length / 3;
  }

  pattern(j: number): number {
    return this.flat[this.index[3 * j] as number] as number;
  }

  captureCount(j: number): number {
    return this.index[3 * j + 2] as number;
  }

  name(j: number, k: number): string {
    return this.flat[(this.index[3 * j] as number) + 1 + k] as string;
  }

  /** UTF-16 start of capture k of match j. */
  start(j: number, k: number): number {
    const n = (this.index[3 * j + 1] as number) + k;
    const off = this.offsets[n] as number;
    return off >= 0 ? (this.fields[off + 2] as number) >>> 1 : (this.nodes[n] as Parser.SyntaxNode).startIndex;
  }

  /** UTF-16 end of capture k of match j (a native call). */
  end(j: number, k: number): number {
    const n = (this.index[3 * j + 1] as number) + k;
    const off = this.offsets[n] as number;
    if (off < 0) return (this.nodes[n] as Parser.SyntaxNode).endIndex;
    const b = binding as Binding;
    const t = b.nodeTransferArray;
    const f = this.fields;
    for (let i = 0; i < FIELDS; i++) t[i] = f[off + i] as number;
    return b.NodeMethods.endIndex(this.tree);
  }

  /**
   * Match j as objects. `own`: each node gets its own copy of its fields, so that keeping it does
   * not keep this whole list's (windowed extraction keeps symbol matches across windows).
   */
  match(j: number, own = false): RawMatch {
    const first = this.index[3 * j + 1] as number;
    const count = this.index[3 * j + 2] as number;
    const nameAt = (this.index[3 * j] as number) + 1;
    const captures: RawCapture[] = new Array(count);
    for (let k = 0; k < count; k++) captures[k] = this.nodeAt(first + k, this.flat[nameAt + k] as string, own);
    return { pattern: this.pattern(j), captures };
  }

  /** The node of capture k of match j (sharing this list's fields: valid while the list is). */
  node(j: number, k: number): RawCapture {
    const first = this.index[3 * j + 1] as number;
    const nameAt = (this.index[3 * j] as number) + 1;
    return this.nodeAt(first + k, this.flat[nameAt + k] as string, false);
  }

  /** Every kept match as objects. */
  all(): RawMatch[] {
    const out: RawMatch[] = new Array(this.length);
    for (let j = 0; j < this.length; j++) out[j] = this.match(j);
    return out;
  }

  /** Node n of the native result (in capture order over all matches) as a capture named `name`. */
  nodeAt(n: number, name: string, own: boolean): RawCapture {
    const v = this.nodes[n];
    const off = this.offsets[n] as number;
    if (off >= 0) {
      return own
        ? new CapturedNode(this.tree, v as number, this.fields.slice(off, off + FIELDS), 0, name)
        : new CapturedNode(this.tree, v as number, this.fields, off, name);
    }
    // A null node (never seen from a match): kept so the capture list has the same shape.
    return v && typeof v === "object" ? fromSyntaxNode(this.tree, v as Parser.SyntaxNode, name) : (null as unknown as RawCapture);
  }
}

/**
 * All matches of `query` under the tree's root, in the order `query.matches(tree.rootNode)` gives
 * them, with the same text predicates applied. Call only when rawMatchesSupported().
 */
export function rawMatches(query: Parser.Query, tree: Parser.Tree, range?: { startByte: number; endByte: number }): RawMatch[] {
  return rawMatchList(query, tree, range).all();
}

/** rawMatches() as a RawMatchList. Call only when rawMatchesSupported(). */
export function rawMatchList(query: Parser.Query, tree: Parser.Tree, range?: { startByte: number; endByte: number }): RawMatchList {
  const b = binding as Binding;
  const q = query as RawQuery;
  // The native call reads the node to search under from the transfer array, as marshalNode leaves it.
  const root = tree.rootNode as unknown as Record<number, number>;
  const t0 = b.nodeTransferArray;
  for (let i = 0; i < FIELDS; i++) t0[i] = root[i] as number;
  // A byte range (of the parsed UTF-16 text, 2 bytes per unit) limits the search to the matches
  // intersecting it: extraction of a huge file goes window by window (extract.ts).
  const [flat, nodes] = range
    ? q._matches(tree, 0, 0, 0, 0, range.startByte, range.endByte, 0xffffffff, 0xffffffff, 0)
    : q._matches(tree, 0, 0, 0, 0, 0, 0, 0xffffffff, 0xffffffff, 0);
  // A node the tree has a SyntaxNode for comes back as that object and takes no fields; any other
  // (a null one too) takes six.
  const offsets = new Int32Array(nodes.length);
  let used = 0;
  for (let i = 0; i < nodes.length; i++) {
    const v = nodes[i];
    if (v !== null && typeof v === "object") offsets[i] = -1;
    else {
      offsets[i] = used;
      used += FIELDS;
    }
  }
  // Read after the call: the native side replaces the array when it needs a longer one. Copied,
  // because every later native node call overwrites its first slots.
  const fields = b.nodeTransferArray.slice(0, used);
  const predicates = q.predicates;
  const index: number[] = [];
  let list: RawMatchList | undefined;
  let k = 0;
  let i = 0;
  while (i < flat.length) {
    const at = i++;
    const first = k;
    while (i < flat.length && typeof flat[i] === "string") {
      i++;
      k++;
    }
    const preds = predicates?.[flat[at] as number];
    if (preds && preds.length > 0) {
      list ??= new RawMatchList(tree, flat, nodes, fields, offsets, new Int32Array(0));
      // The predicates read capture names and node texts: this match as objects, made here only.
      const captures: RawCapture[] = [];
      for (let n = first; n < k; n++) captures.push(list.nodeAt(n, flat[at + 1 + n - first] as string, false));
      if (!preds.every((p) => p(captures))) continue;
    }
    index.push(at, first, k - first);
  }
  return new RawMatchList(tree, flat, nodes, fields, offsets, Int32Array.from(index));
}
