import type Parser from "tree-sitter";
import { parse, type LanguageId } from "../lang/registry.js";
import { isGrammarLag } from "../lang/grammar-lags.js";
import { PARSE_SECONDS_BUDGET, ParseTimeoutError, parseDeadline } from "../lang/budget.js";
import { clipText } from "../text/clip.js";
import { reduceCPreprocessor } from "./c-reduce.js";
import type { ContentPositions } from "./positions.js";
import type { CheckerOutcome } from "./types.js";

/** More than this many syntax errors say nothing new; the first ones locate the damage. */
const MAX_SYNTAX_DIAGNOSTICS = 50;

function snippet(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 40 ? `${clipText(one, 40)}…` : one;
}

/**
 * Gate 1: the tree-sitter parse. Every outermost ERROR node and every MISSING node becomes an
 * error with the exact byte span it covers (a MISSING node is zero-width, where the token was
 * expected).
 */
export function treeSitterGate(language: LanguageId, pos: ContentPositions, file: string): CheckerOutcome {
  // The parse has the index's time budget: tree-sitter's error recovery is quadratic on some text
  // it cannot read (8,000 generic call signatures, 170 KB, took 32 s), and a write waited that long
  // for a gate whose word the real checker's overrules anyway.
  const deadline = parseDeadline();
  let tree: Parser.Tree;
  try {
    tree = parse(language, pos.text, deadline);
    // C/C++ the grammar cannot read for want of a preprocessor: read it as the preprocessor
    // would leave it (same offsets), and keep whichever reading has fewer errors.
    if (tree.rootNode.hasError && (language === "c" || language === "cpp")) {
      const reduced = reduceCPreprocessor(pos.text, language === "cpp");
      if (reduced !== undefined) {
        const other = parse(language, reduced, deadline);
        if (countErrors(other.rootNode) < countErrors(tree.rootNode)) tree = other;
      }
    }
  } catch (e) {
    if (!(e instanceof ParseTimeoutError)) throw e;
    return {
      ran: "tree-sitter",
      diagnostics: [{ level: "warning", message: `tree-sitter did not finish reading ${file} in ${PARSE_SECONDS_BUDGET} s (MAGELLAN_MAX_PARSE_SECONDS): its syntax check did not run, the language's checker decides`, file, code: "parser.limit", source: "tree-sitter" }],
    };
  }
  const diagnostics: CheckerOutcome["diagnostics"] = [];
  const visit = (node: Parser.SyntaxNode): void => {
    if (diagnostics.length >= MAX_SYNTAX_DIAGNOSTICS) return;
    if (node.isMissing) {
      if (isGrammarLag(node)) return;
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
  if (language === "go") goTopLevel(tree.rootNode, pos, file, diagnostics);
  return { ran: "tree-sitter", diagnostics };
}

/** What a Go file may hold at its top level; tree-sitter-go also takes statements there. */
const GO_TOP_LEVEL = new Set(["package_clause", "import_declaration", "function_declaration", "method_declaration", "type_declaration", "var_declaration", "const_declaration", "comment", ";"]);

/**
 * tree-sitter-go parses statements (`x := 1`, `for {}`) at a file's top level without an error,
 * which the Go compiler refuses: `expected declaration, found x` (gofmt -e, go build).
 */
function goTopLevel(root: Parser.SyntaxNode, pos: ContentPositions, file: string, out: CheckerOutcome["diagnostics"]): void {
  for (const child of root.children) {
    if (out.length >= MAX_SYNTAX_DIAGNOSTICS) return;
    if (GO_TOP_LEVEL.has(child.type) || child.type === "ERROR" || child.isMissing) continue;
    const text = pos.text.slice(child.startIndex, child.endIndex);
    out.push({
      level: "error",
      message: `syntax error: expected a declaration at the top level, found \`${snippet(text)}\` (a statement must be inside a function)`,
      file,
      ...pos.fromUtf16(child.startIndex, child.endIndex),
      code: "syntax.ERROR",
      source: "tree-sitter",
    });
  }
}

function countErrors(node: Parser.SyntaxNode): number {
  if (node.isMissing) return isGrammarLag(node) ? 0 : 1;
  if (node.type === "ERROR" || node.isError) return 1;
  if (!node.hasError) return 0;
  let n = 0;
  for (const c of node.children) n += countErrors(c);
  return n;
}
