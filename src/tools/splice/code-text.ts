/** Where a file's comments and string literals are: text that names nothing, for the edits that must leave it alone. */
import type Parser from "tree-sitter";

// A JavaScript regex literal is data like a string: `/foo/g` must not become `/bar/g`.
const SKIP_NODE = /comment|string|char_literal|rune_literal|heredoc|template_string|raw_string|^regex$/;

export function commentsAndStrings(tree: Parser.Tree): [number, number][] {
  const out: [number, number][] = [];
  const visit = (n: Parser.SyntaxNode): void => {
    if (SKIP_NODE.test(n.type)) {
      // Code inside a string (`${x}` in a template, {x} in an f-string) is code.
      let at = n.startIndex;
      for (const c of n.namedChildren) {
        if (!/substitution|interpolation/.test(c.type)) continue;
        out.push([at, c.startIndex]);
        visit(c);
        at = c.endIndex;
      }
      out.push([at, n.endIndex]);
      return;
    }
    for (const c of n.children) visit(c);
  };
  visit(tree.rootNode);
  return out;
}
