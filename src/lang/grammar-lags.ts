/**
 * Syntax errors that are not the code's: places where a tree-sitter grammar lags its language and
 * marks code the language's compiler accepts. The tree around such a node is the right one, so
 * extraction loses nothing there; what must not happen is telling the user to fix a valid file
 * (magellan index's E106, `validate`'s PARSE_RECOVERED, the symbols payload's `syntax_errors`,
 * llmastsearch's `recovered`, the validation gate's `syntax.MISSING`).
 *
 * Each case is narrow on purpose: a node is a lag only where the code around it cannot be an error.
 */
import type Parser from "tree-sitter";

type Node = Parser.SyntaxNode;

/**
 * A tagged template with type arguments, `styled.div<{ $size: number }>\`...\`` (valid TypeScript
 * since 2.9, and how styled-components and emotion type their props): tree-sitter-typescript 0.23
 * reads `styled.div<...>` as an instantiation expression that must be followed by `!` before a
 * template, and inserts a MISSING `!` (a non-null assertion) between them. The rest of the tree
 * is what the compiler reads: the call, its template, the type arguments. On the 76 MB mixed
 * tree that was 108 of the 179 files magellan reported as having syntax errors (outline's
 * components). A real `!` there is not MISSING, so nothing written by the user matches.
 */
function isTaggedTemplateTypeArguments(node: Node): boolean {
  if (!node.isMissing || node.type !== "!") return false;
  const assertion = node.parent;
  if (assertion?.type !== "non_null_expression" || assertion.firstNamedChild?.type !== "instantiation_expression") return false;
  const call = assertion.parent;
  if (call?.type !== "call_expression" || call.childForFieldName("arguments")?.type !== "template_string") return false;
  const callee = call.childForFieldName("function");
  return callee?.type === "non_null_expression" && callee.startIndex === assertion.startIndex && callee.endIndex === assertion.endIndex;
}

/**
 * A C or C++ loop written with a macro, `jv_array_foreach(a, i, x) {` (jq), `list_for_each_entry(pos,
 * head, member) {` (Linux), `HASH_ITER(hh, t, e, tmp) {`: no compiler sees a call followed by a block
 * (the preprocessor expands the macro to a `for` head), and tree-sitter, which cannot expand it,
 * reads the call as a statement with a MISSING `;` and the block after it as a block: the tree
 * is what extraction needs. Only in C and C++ (`compound_statement`): a statement that is one
 * call, with the block right after it.
 */
function isLoopMacro(node: Node): boolean {
  if (!node.isMissing || node.type !== ";") return false;
  const statement = node.parent;
  if (statement?.type !== "expression_statement" || statement.namedChildCount !== 1) return false;
  const call = statement.firstNamedChild;
  if (call?.type !== "call_expression" || call.childForFieldName("function")?.type !== "identifier") return false;
  return statement.nextSibling?.type === "compound_statement";
}

/** Whether this ERROR or MISSING node marks valid code the grammar cannot read (see above). */
export function isGrammarLag(node: Node): boolean {
  return isTaggedTemplateTypeArguments(node) || isLoopMacro(node);
}

/**
 * Whether the tree under `node` holds an ERROR or MISSING node that is not a grammar lag. Walks
 * only the subtrees tree-sitter flags (`hasError`), so a clean tree costs one property read; a
 * stack, not recursion, because an error can sit thousands of levels deep in generated code.
 */
export function hasSyntaxErrors(node: Node): boolean {
  if (!node.hasError) return false;
  const stack: Node[] = [node];
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    if (n.isMissing) {
      if (!isGrammarLag(n)) return true;
      continue;
    }
    if (n.type === "ERROR") return true;
    if (!n.hasError) continue;
    for (const c of n.children) stack.push(c);
  }
  return false;
}
