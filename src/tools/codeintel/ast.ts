/**
 * The `docdex.ast` payload: every node of a file's tree in pre-order, with ids, parents, the
 * field each sits in, and 1-based ranges computed from exact byte offsets.
 */
import type Parser from "tree-sitter";
import type { AstNode, AstPayload } from "../../contract/tools/codeintel.js";
import { omitUndefined } from "../../contract/errors.js";
import type { LoadedFile, Loaded } from "./source.js";
import { schemaMeta } from "./meta.js";

export const AST_MAX_NODES = { default: 5000, min: 1, max: 200_000 } as const;

export interface NodeVisit {
  id: number;
  parentId: number | undefined;
  kind: string;
  field: string | undefined;
  isNamed: boolean;
  /** Inserted by tree-sitter's error recovery: not in the file (see AstNodeSchema.is_missing). */
  isMissing: boolean;
  startIndex: number;
  endIndex: number;
  /** The node object (costly to materialise; only call when needed). */
  node(): Parser.SyntaxNode;
}

/**
 * Pre-order walk with a cursor (no node object per step). Ids are the pre-order index from 0,
 * so `magellan ast` and `magellan ast-query` samples name the same node by the same id.
 * `visit` returns false to stop early.
 */
export function walkTree(tree: Parser.Tree, visit: (v: NodeVisit) => boolean | void): number {
  const cursor = tree.walk();
  const parents: number[] = [];
  let id = 0;
  for (;;) {
    const v: NodeVisit = {
      id,
      parentId: parents.length > 0 ? parents[parents.length - 1] : undefined,
      kind: cursor.nodeType,
      field: cursor.currentFieldName ?? undefined,
      isNamed: cursor.nodeIsNamed,
      // (Only a zero-width node can be missing: the native call is spared for the rest.)
      isMissing: cursor.startIndex === cursor.endIndex && cursor.nodeIsMissing,
      startIndex: cursor.startIndex,
      endIndex: cursor.endIndex,
      node: () => cursor.currentNode,
    };
    if (visit(v) === false) return id + 1;
    id++;
    if (cursor.gotoFirstChild()) {
      parents.push(v.id);
      continue;
    }
    for (;;) {
      if (cursor.gotoNextSibling()) break;
      if (!cursor.gotoParent()) return id;
      parents.pop();
    }
  }
}

const NAME_KINDS = /(^|_)(identifier|name)$/;

/** Best-effort identifier: the `name` field's text, or the node's own text when it is a name. */
export function bestName(file: LoadedFile, v: NodeVisit): string | undefined {
  if (v.isMissing) return undefined;
  let start: number;
  let end: number;
  if (NAME_KINDS.test(v.kind)) {
    start = v.startIndex;
    end = v.endIndex;
  } else if (v.isNamed) {
    const child = v.node().childForFieldName("name");
    if (!child) return undefined;
    start = child.startIndex;
    end = child.endIndex;
  } else return undefined;
  if (end - start > 200) return undefined;
  return file.decoded.text.slice(start, end);
}

export function rangeOf(file: LoadedFile, startIndex: number, endIndex: number): AstNode["range"] {
  const s = file.lines.position(file.decoded.toByte(startIndex));
  const e = file.lines.position(file.decoded.toByte(endIndex));
  return { start_line: s.line, start_col: s.col + 1, end_line: e.line, end_col: e.col + 1 };
}

export function astNode(file: LoadedFile, v: NodeVisit): AstNode {
  return omitUndefined({
    id: v.id,
    parent_id: v.parentId,
    kind: v.kind,
    field: v.field,
    name: bestName(file, v),
    is_named: v.isNamed,
    is_missing: v.isMissing ? (true as const) : undefined,
    range: rangeOf(file, v.startIndex, v.endIndex),
    byte_start: file.decoded.toByte(v.startIndex),
    byte_end: file.decoded.toByte(v.endIndex),
  });
}

export function clamp(value: number, bounds: { min: number; max: number }): number {
  return Math.min(bounds.max, Math.max(bounds.min, value));
}

export function astPayload(repo: string, loaded: Loaded, maxNodes: number): AstPayload {
  if (!loaded.ok) {
    return { schema: schemaMeta("ast"), repo_id: repo, file: loaded.rel, nodes: [], total_nodes: 0, truncated: false, outcome: loaded.outcome };
  }
  const file = loaded.file;
  const nodes: AstNode[] = [];
  const total = walkTree(file.tree, (v) => {
    if (nodes.length < maxNodes) nodes.push(astNode(file, v));
  });
  return {
    schema: schemaMeta("ast"),
    repo_id: repo,
    file: file.rel,
    language: file.language.id,
    nodes,
    total_nodes: total,
    truncated: total > nodes.length,
    outcome: file.outcome,
  };
}
