import type Parser from "tree-sitter";
import { parse, type LanguageId } from "../lang/registry.js";
import { reduceCPreprocessor } from "./c-reduce.js";
import type { ContentPositions } from "./positions.js";
import type { CheckerOutcome } from "./types.js";

/** More than this many syntax errors say nothing new; the first ones locate the damage. */
const MAX_SYNTAX_DIAGNOSTICS = 50;

function snippet(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 40 ? `${one.slice(0, 40)}…` : one;
}

/**
 * Gate 1: the tree-sitter parse. Every outermost ERROR node and every MISSING node becomes an
 * error with the exact byte span it covers (a MISSING node is zero-width, where the token was
 * expected).
 */
export function treeSitterGate(language: LanguageId, pos: ContentPositions, file: string): CheckerOutcome {
  let tree = parse(language, pos.text);
  // C/C++ the grammar cannot read for want of a preprocessor: read it as the preprocessor
  // would leave it (same offsets), and keep whichever reading has fewer errors.
  if (tree.rootNode.hasError && (language === "c" || language === "cpp")) {
    const reduced = reduceCPreprocessor(pos.text, language === "cpp");
    if (reduced !== undefined) {
      const other = parse(language, reduced);
      if (countErrors(other.rootNode) < countErrors(tree.rootNode)) tree = other;
    }
  }
  const diagnostics: CheckerOutcome["diagnostics"] = [];
  const visit = (node: Parser.SyntaxNode): void => {
    if (diagnostics.length >= MAX_SYNTAX_DIAGNOSTICS) return;
    if (node.isMissing) {
      diagnostics.push({
        level: "error",
        message: `syntax error: missing \`${node.type}\``,
        file,
        ...pos.fromUtf16(node.startIndex, node.endIndex),
        code: "syntax.MISSING",
        source: "tree-sitter",
      });
      return;
    }
    if (node.type === "ERROR" || node.isError) {
      const text = pos.text.slice(node.startIndex, node.endIndex);
      diagnostics.push({
        level: "error",
        message: text.trim() === "" ? "syntax error" : `syntax error: unexpected \`${snippet(text)}\``,
        file,
        ...pos.fromUtf16(node.startIndex, node.endIndex),
        code: "syntax.ERROR",
        source: "tree-sitter",
      });
      return;
    }
    if (!node.hasError) return;
    for (const child of node.children) visit(child);
  };
  visit(tree.rootNode);
  return { ran: "tree-sitter", diagnostics };
}

function countErrors(node: Parser.SyntaxNode): number {
  if (node.isMissing || node.type === "ERROR" || node.isError) return 1;
  if (!node.hasError) return 0;
  let n = 0;
  for (const c of node.children) n += countErrors(c);
  return n;
}
