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

  get parent(): CapturedNode | null {
    this.marshal();
    const b = binding as Binding;
    const v = b.NodeMethods.parent(this.tree);
    if (typeof v === "number") return new CapturedNode(this.tree, v, b.nodeTransferArray.slice(0, FIELDS), 0, "");
    if (v && typeof v === "object") return fromSyntaxNode(this.tree, v as Parser.SyntaxNode, "");
    return null;
  }

  get text(): string {
    return (this.tree as unknown as { getText(n: { startIndex: number; endIndex: number }): string }).getText(this);
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
 * All matches of `query` under the tree's root, in the order `query.matches(tree.rootNode)` gives
 * them, with the same text predicates applied. Call only when rawMatchesSupported().
 */
export function rawMatches(query: Parser.Query, tree: Parser.Tree, range?: { startByte: number; endByte: number }): RawMatch[] {
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
  // Read after the call: the native side replaces the array when it needs a longer one. Copied,
  // because every later native node call overwrites its first slots.
  let used = 0;
  for (let i = 0; i < nodes.length; i++) if (typeof nodes[i] !== "object" || nodes[i] === null) used += FIELDS;
  const fields = b.nodeTransferArray.slice(0, used);
  const predicates = q.predicates;
  const out: RawMatch[] = [];
  let k = 0;
  let offset = 0;
  let i = 0;
  while (i < flat.length) {
    const pattern = flat[i++] as number;
    const captures: RawCapture[] = [];
    while (i < flat.length && typeof flat[i] === "string") {
      const name = flat[i++] as string;
      const v = nodes[k++];
      if (typeof v === "number") {
        // The number is the node's grammar symbol, what SyntaxNode.typeId reads (0xFFFF for ERROR).
        captures.push(new CapturedNode(tree, v, fields, offset, name));
        offset += FIELDS;
      } else if (v && typeof v === "object") captures.push(fromSyntaxNode(tree, v as Parser.SyntaxNode, name));
      else {
        // A null node (never seen from a match): kept so the capture list has the same shape.
        captures.push(null as unknown as RawCapture);
        offset += FIELDS;
      }
    }
    const preds = predicates?.[pattern];
    if (preds && preds.length > 0 && !preds.every((p) => p(captures))) continue;
    out.push({ pattern, captures });
  }
  return out;
}
