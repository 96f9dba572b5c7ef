/**
 * Where a definition really begins and ends (with its doc comment, decorators, attributes and
 * the export or template wrapper around it), read from tree-sitter, and how text given at any
 * indentation is brought to the indentation of the place it lands. Positions here are UTF-16
 * indices into the decoded text, as tree-sitter reports them.
 */
import type Parser from "tree-sitter";
import { type LanguageId, parse } from "../../lang/registry.js";

/** Nodes that wrap a definition without being one: their start is a possible start of it. */
const WRAPPERS = new Set(["decorated_definition", "export_statement", "template_declaration", "ambient_declaration"]);
/** Leading siblings that belong to the definition after them. */
const ATTRIBUTES = new Set(["attribute_item", "decorator", "annotation", "marker_annotation", "attribute_declaration"]);
const ANNOTATIONS = new Set(["annotation", "marker_annotation"]);
/** Statements that hold one declaration: with a single one, the statement is the definition. */
const HOLDERS = new Set(["lexical_declaration", "variable_declaration", "expression_statement", "var_declaration", "const_declaration", "type_declaration"]);

export interface Level {
  start: number;
  end: number;
}

export interface Extent {
  /** The definition node's own range (past a statement that holds only it). */
  start: number;
  /** End of the outermost level: what a delete removes up to. */
  end: number;
  /**
   * Every range the definition can be said to have, innermost first: the symbol's own span, the
   * node, then past its wrappers, annotations, decorators, attributes and doc comments. The last
   * one is the full extent a delete removes.
   */
  levels: Level[];
  /** Start of the outermost level. */
  full: number;
  node: Parser.SyntaxNode;
  tree: Parser.Tree;
}

const isComment = (n: Parser.SyntaxNode): boolean => n.type.includes("comment");

/**
 * Where the text of a file begins: past a UTF-8 BOM, which is bytes of line 1 but not text of it.
 * Counted as text, it stood before a first-line comment, which then did not start its line and
 * was left out of the first definition (a delete orphaned it onto the next one).
 */
export function textStart(text: string): number {
  return text.charCodeAt(0) === 0xfeff ? 1 : 0;
}

export function lineStart(text: string, i: number): number {
  const s = text.lastIndexOf("\n", i - 1) + 1;
  return s === 0 && i > 0 ? textStart(text) : s;
}

export function lineEnd(text: string, i: number): number {
  const n = text.indexOf("\n", i);
  return n === -1 ? text.length : n;
}

/** The whitespace that opens the line holding `i`. */
export function indentOf(text: string, i: number): string {
  const s = lineStart(text, i);
  return /^[ \t]*/.exec(text.slice(s, i + 1))?.[0] ?? "";
}

/** True when only spaces and tabs stand between the line's start and `i`. */
export function startsLine(text: string, i: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, i), i));
}

/**
 * `end` short of the line break a node can end with (a C/C++ `#define` holds the newline that
 * ends it): the definition's bytes stop at its last character, as every other definition's do.
 */
function trimEol(text: string, start: number, end: number): number {
  if (end > start && text[end - 1] === "\n") end--;
  if (end > start && text[end - 1] === "\r") end--;
  return end;
}

export function definitionExtent(language: LanguageId, text: string, start: number, spanEnd: number): Extent {
  const tree = parse(language, text);
  const end = trimEol(text, start, spanEnd);
  let node: Parser.SyntaxNode | null = tree.rootNode.descendantForIndex(start, Math.max(start, end - 1));
  while (node && (node.startIndex > start || node.endIndex < end)) node = node.parent;
  if (!node) node = tree.rootNode;
  // A span that covers a wrapper (Python's decorated_definition): the definition inside it is
  // the innermost level, so a new text without decorators keeps them.
  while (WRAPPERS.has(node.type)) {
    const inner: Parser.SyntaxNode | undefined = node.childForFieldName("definition") ?? node.childForFieldName("declaration") ?? node.namedChildren.filter((c) => !isComment(c) && !ATTRIBUTES.has(c.type)).pop();
    if (!inner) break;
    node = inner;
  }
  while (node.parent && HOLDERS.has(node.parent.type) && node.parent.namedChildren.filter((c) => !isComment(c)).length === 1) node = node.parent;
  const levels: Level[] = [];
  const add = (s: number, e: number): void => {
    const last = levels[levels.length - 1];
    if (!last || s < last.start || e > last.end) levels.push({ start: s, end: e });
  };
  const nodeEnd = trimEol(text, node.startIndex, node.endIndex);
  if (start > node.startIndex || end < nodeEnd) add(start, end);
  // Java keeps annotations inside the declaration's modifiers: the text after them is an inner
  // start, so a new text without annotations keeps the old ones.
  const mods = node.children.find((c) => c.type === "modifiers");
  if (mods && node.startIndex === mods.startIndex) {
    const rest = [...mods.children, ...node.children.slice(node.children.indexOf(mods) + 1)].find((c) => !ANNOTATIONS.has(c.type) && !isComment(c));
    if (rest && rest.startIndex > node.startIndex && startsLine(text, rest.startIndex)) add(rest.startIndex, nodeEnd);
  }
  add(node.startIndex, nodeEnd);
  let outer = node;
  while (outer.parent && WRAPPERS.has(outer.parent.type) && outer.parent.endIndex >= outer.endIndex) {
    outer = outer.parent;
    add(outer.startIndex, trimEol(text, outer.startIndex, outer.endIndex));
  }
  const outerEnd = trimEol(text, outer.startIndex, outer.endIndex);
  for (let prev = outer.previousSibling; prev; prev = prev.previousSibling) {
    if (!isComment(prev) && !ATTRIBUTES.has(prev.type)) break;
    const gap = text.slice(prev.endIndex, (levels[levels.length - 1] as Level).start);
    if (!/^\s*$/.test(gap) || (gap.match(/\n/g)?.length ?? 0) > 1) break;
    if (!startsLine(text, prev.startIndex)) break;
    add(prev.startIndex, outerEnd);
  }
  const full = (levels[levels.length - 1] as Level).start;
  return { start: node.startIndex, end: outerEnd, levels, full, node, tree };
}

type Head = { kind: "comment" | "attribute" | "word"; word: string };

export function headOf(language: LanguageId, s: string): Head {
  const t = s.trimStart();
  if (t.startsWith("//") || t.startsWith("/*") || (language === "python" && t.startsWith("#"))) return { kind: "comment", word: "" };
  if (t.startsWith("@") || t.startsWith("#[") || t.startsWith("#![") || t.startsWith("[[")) return { kind: "attribute", word: "" };
  return { kind: "word", word: /^[A-Za-z_$][\w$]*/.exec(t)?.[0] ?? t.slice(0, 1) };
}

/**
 * Which start a patch replaces from: the outermost one that opens the way the new text opens
 * (a doc comment replaces the doc comment and all after it; `export function` replaces the
 * export statement; a bare `def` keeps the decorators above it).
 */
export function chooseLevel(language: LanguageId, text: string, ext: Extent, replacement: string): Level {
  const want = headOf(language, replacement);
  const same = ext.levels.filter((l) => {
    const h = headOf(language, text.slice(l.start, l.start + 200));
    return h.kind === want.kind && (want.kind !== "word" || h.word === want.word);
  });
  if (same.length > 0) {
    const best = same[same.length - 1] as Level;
    // The statement that holds only the definition (`this.f = () => {…};`) opens as the definition
    // does: a new text without its `;` replaces the definition and keeps the `;`.
    const semi = (l: Level): boolean => text.slice(l.start, l.end).endsWith(";");
    if (semi(best) && !replacement.trimEnd().endsWith(";")) return [...same].reverse().find((l) => l.start === best.start && !semi(l)) ?? best;
    return best;
  }
  if (want.kind === "word") return ext.levels.find((l) => l.start === ext.start) ?? (ext.levels[0] as Level);
  return ext.levels[ext.levels.length - 1] as Level;
}

const lead = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? "";
const CLOSER = /^[ \t]*([}\])]|end\b)/;
/**
 * Nodes whose lines are data: a line that starts inside a string literal, or inside a macro's
 * text continued with `\`, keeps its bytes.
 */
const VERBATIM = /^(string|string_literal|raw_string_literal|interpreted_string_literal|template_string|text_block|heredoc_body|preproc_arg)$/;
const PY_BLOCK = new Set(["function_definition", "class_definition"]);

/**
 * What the text's own syntax says about its lines: which start inside a string literal (a
 * docstring's lines at column 0, a template literal's) or a macro's continued text, and for a
 * Python definition the indentation of its block (-1 when there is none) and the line of its
 * `def`/`class` (-1 when there is none).
 */
function shape(language: LanguageId, lines: string[]): { data: Set<number>; block: number; defLine: number } {
  const first = lines[0] as string;
  const tree = parse(language, [first.slice(lead(first).length), ...lines.slice(1)].join("\n"));
  const data = new Set<number>();
  const visit = (n: Parser.SyntaxNode): void => {
    if (VERBATIM.test(n.type)) {
      for (let r = n.startPosition.row + 1; r <= n.endPosition.row; r++) data.add(r);
      return;
    }
    for (const c of n.namedChildren) visit(c);
  };
  visit(tree.rootNode);
  let block = -1;
  let defLine = -1;
  if (language === "python") {
    let def: Parser.SyntaxNode | null | undefined = tree.rootNode.namedChildren.find((c) => !isComment(c));
    if (def?.type === "decorated_definition") def = def.childForFieldName("definition");
    const body = def && PY_BLOCK.has(def.type) ? def.childForFieldName("body") : null;
    if (body && def && body.startPosition.row > def.startPosition.row) block = lead(lines[body.startPosition.row] as string).length;
    if (body && def) defLine = def.startPosition.row;
  }
  return { data, block, defLine };
}

/**
 * Text given at any indentation, laid out for a place whose lines start with `target`: the first
 * line carries no indentation (the file has it before the insertion point), the others keep
 * their indentation relative to the first. `hint` is the indentation of the place in the file:
 * text copied from there (first line cut at the definition, later lines deeper than `hint`)
 * is recognised as such. With the text's `language`, lines that start inside a string literal
 * or a macro's continued text keep their bytes, and a Python definition is placed by its block's
 * indentation (its last line may be a call's `)`, its signature's `)` may stand at `hint`).
 * With the file's indentation `unit`, text indented with spaces lands in a tab-indented place
 * with tabs, level for level, and tabs in a space-indented place with the unit.
 */
export function reindent(block: string, target: string, hint: number, eol: string, language?: LanguageId, unit?: string): string {
  const lines = block.replace(/\r\n/g, "\n").split("\n");
  while (lines.length > 0 && (lines[0] as string).trim() === "") lines.shift();
  while (lines.length > 0 && (lines[lines.length - 1] as string).trim() === "") lines.pop();
  if (lines.length === 0) return "";
  const { data, block: pyBlock, defLine } = language ? shape(language, lines) : { data: new Set<number>(), block: -1, defLine: -1 };
  const first = lines[0] as string;
  const rest = lines.filter((l, i) => i > 0 && l.trim() !== "" && !data.has(i));
  let header = lead(first).length;
  // Copied from the place, the text's lines start with the place's own indentation; a count of
  // characters alone took a snippet's four spaces for a tab and three (TAB + 3 spaces in a
  // tab-indented Python class, which Python rejects).
  const fromHere = (l: string): boolean => lead(l).slice(0, hint) === target.slice(0, hint);
  const copied = rest.every((l) => lead(l).length < hint || fromHere(l));
  // A doc comment or decorator first: the definition's own line says where the text stood (a
  // Python decorator's arguments can fill lines of their own before it).
  const code = /^[ \t]*(\/\/|\/\*|#|@|\[\[)/.test(first) ? (defLine > 0 ? lines[defLine] : rest.find((l) => /^[ \t]*[A-Za-z_$]/.test(l))) : undefined;
  if (header === 0 && code !== undefined) header = lead(code).length;
  else if (header === 0 && pyBlock >= 0) {
    if (hint > 0 && pyBlock > hint && copied) header = hint;
  } else if (header === 0 && rest.length > 0) {
    const last = rest[rest.length - 1] as string;
    const minRest = Math.min(...rest.map((l) => lead(l).length));
    if (CLOSER.test(last)) header = lead(last).length;
    else if (hint > 0 && minRest > hint && copied) header = hint;
  }
  const relative = (l: string): string => (lead(l).length >= header ? lead(l).slice(header) : "");
  const own = textUnit(rest.map(relative), rest, pyBlock > header ? pyBlock - header : 0);
  const convert = (w: string): string => {
    if (unit === undefined || own === undefined || (own === "\t") === (unit === "\t")) return w;
    if (own === "\t") return w.replace(/^\t+/, (t) => unit.repeat(t.length));
    const spaces = (/^ */.exec(w) as RegExpExecArray)[0].length;
    return "\t".repeat(Math.floor(spaces / own.length)) + " ".repeat(spaces % own.length) + w.slice(spaces);
  };
  const out = lines.map((l, i) => {
    if (i === 0) return l.slice(lead(l).length);
    if (data.has(i)) return l;
    if (l.trim() === "") return "";
    const w = lead(l);
    return target + (w.length >= header ? convert(w.slice(header)) + l.slice(w.length) : l.slice(w.length));
  });
  return out.join(eol);
}

/**
 * The indentation step of a text's lines, relative to its first: a tab, or the smallest run of
 * spaces a code line adds (a Python block's own indentation, `block`, when known). A block
 * comment's ` * ` lines say nothing of it.
 */
function textUnit(relative: string[], lines: string[], block: number): string | undefined {
  if (relative.some((w) => w.startsWith("\t"))) return "\t";
  if (block > 0) return " ".repeat(block);
  const widths = relative.filter((w, i) => w.length >= 2 && !/^\s*\*/.test(lines[i] as string)).map((w) => w.length);
  return widths.length > 0 ? " ".repeat(Math.min(...widths)) : undefined;
}

/** The indentation step at a place indented with `target`: tabs where it is tabs, else the file's. */
export function unitAt(text: string, target: string): string {
  if (target.includes("\t")) return "\t";
  const unit = indentUnit(text);
  return target !== "" && unit === "\t" ? "    " : unit;
}

export function eolOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** One indentation step of the file: a tab, or the smallest indentation it uses (default 4). */
export function indentUnit(text: string): string {
  let min = 0;
  for (const m of text.matchAll(/\n([ \t]+)\S/g)) {
    const w = m[1] as string;
    if (w.startsWith("\t")) return "\t";
    if (min === 0 || w.length < min) min = w.length;
  }
  return " ".repeat(min > 0 && min <= 8 ? min : 4);
}

/** Statements of several declarators, each a name (TypeScript's and JavaScript's `const a = 1, b = 2;`). */
const DECLARATOR_LISTS = new Set(["lexical_declaration", "variable_declaration"]);
/** C and C++ declarations: `int a = 1, b = 2;`, each declarator under the field `declarator`. */
const C_DECLARATIONS = new Set(["declaration", "field_declaration"]);
const GO_SPECS = new Set(["var_spec", "const_spec"]);

/**
 * The range that removes only the name at `nameStart` from a declaration of several names, with
 * one comma and the space beside it: `export const a = 1, b = 2;` → `export const b = 2;`,
 * `int a = 1, b = 2;` → `int b = 2;`, Go's `var a, b int` → `var b int`. Undefined when the name
 * does not share its declaration this way, or when its statement cannot lose one name cleanly:
 * Go's `var a, b = 1, 2` and Python's `A, B = 1, 2` pair names with values by position.
 * `item` is the name's own declarator (`a = 1`), `statement` the declaration holding them all.
 */
export function declaratorCut(language: LanguageId, tree: Parser.Tree, nameStart: number): { cut: [number, number]; item: [number, number]; statement: [number, number]; declarator: boolean } | undefined {
  const at = tree.rootNode.descendantForIndex(nameStart);
  let items: Parser.SyntaxNode[] = [];
  let item: Parser.SyntaxNode | undefined;
  let statement: Parser.SyntaxNode | undefined;
  for (let n: Parser.SyntaxNode | null = at; n?.parent; n = n.parent) {
    const p: Parser.SyntaxNode = n.parent;
    let own = n;
    if ((language === "typescript" || language === "tsx" || language === "javascript") && n.type === "variable_declarator" && DECLARATOR_LISTS.has(p.type)) {
      items = p.namedChildren.filter((c) => c.type === "variable_declarator");
    } else if ((language === "c" || language === "cpp") && C_DECLARATIONS.has(p.type)) {
      items = p.childrenForFieldName("declarator");
    } else if (language === "go" && GO_SPECS.has(n.type)) {
      if (n.childForFieldName("value")) return undefined;
      items = n.childrenForFieldName("name");
      own = at;
    } else continue;
    item = items.find((c) => c.startIndex === own.startIndex);
    statement = language === "go" ? n : p;
    break;
  }
  // The declarator must be the name's own: a function declared in a declarator's value
  // (`const a = () => { function inner() {} }, b = 1;`) is not cut out as `a`.
  let named = item;
  while (named && named.startIndex !== nameStart) named = named.childForFieldName("name") ?? named.childForFieldName("declarator") ?? undefined;
  if (!item || !statement || !named || items.length < 2) return undefined;
  const k = items.indexOf(item);
  const next = items[k + 1];
  const cut: [number, number] = next ? [item.startIndex, next.startIndex] : [(items[k - 1] as Parser.SyntaxNode).endIndex, item.endIndex];
  // Go's items are bare names (`var a, b int`): no text replaces one of them alone.
  return { cut, item: [item.startIndex, item.endIndex], statement: [statement.startIndex, statement.endIndex], declarator: language !== "go" };
}
