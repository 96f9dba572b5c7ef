/**
 * The steps a change is made of. Each reads and writes the planned bytes of the Workspace, so a
 * batch's later steps see the earlier ones; nothing here touches the disk.
 */
import { join } from "node:path";
import type Parser from "tree-sitter";
import { ToolError } from "../../contract/errors.js";
import { extractFacts } from "../../lang/extract.js";
import { languageForPath, parse } from "../../lang/registry.js";
import { LineIndex } from "../../text/lines.js";
import { decodeBytes } from "../../text/decode.js";
import { walkFiles } from "../../text/walk.js";
import { isBinary } from "../../text/binary.js";
import { relatedMethods, symbolById, TYPED_OVERLOADS } from "../../graph/read.js";
import { CODES } from "./codes.js";
import { chooseLevel, declaratorCut, definitionExtent, type Extent, eolOf, headOf, indentOf, indentUnit, lineEnd, lineStart, reindent, startsLine, textStart, unitAt } from "./layout.js";
import { commentsAndStrings } from "./code-text.js";
import { renameError, renameNote } from "./rename/codes.js";
import { parameterTypesAt, sameTypes } from "./rename/fallback.js";
import { planRename, type RenameLocation } from "./seam.js";
import type { Sym, Workspace } from "./workspace.js";
import type { ApplyFilesStep, DeleteStep, EditStep, InsertStep, PatchStep, RenameStep } from "../../contract/tools/splice.js";

/** What a step reports beside the bytes it changed. */
export type StepReport = Record<string, unknown>;

function textOf(ws: Workspace, rel: string): { text: string; toIndex: (b: number) => number; toByte: (i: number) => number } {
  const d = decodeBytes(ws.read(rel));
  if (!d.valid) {
    throw new ToolError({ code: CODES.binary_file, error: "invalid_utf8", message: `${rel} is not valid UTF-8`, file: rel, remediation: "splice edits UTF-8 text; convert the file first." });
  }
  return d;
}

function put(ws: Workspace, rel: string, text: string): void {
  ws.write(rel, Buffer.from(text, "utf8"));
}

function symbolInfo(s: Sym): StepReport {
  return { symbol_id: s.symbol_id, name: s.name, kind: s.kind, scoped_name: s.scoped_name, file: s.file, line: s.start_line };
}

function nonEmpty(content: string, what: string): string {
  if (content.trim() === "") {
    throw new ToolError({ code: CODES.empty_content, error: "empty_content", message: `${what}: the new text is empty`, remediation: "Give the text with --with FILE, --content TEXT or on stdin; to remove a symbol use 'splice delete'." });
  }
  return content;
}

const BODY_TYPES = /^(block|compound_statement|statement_block|class_body|declaration_list|field_declaration_list|enum_body|interface_body|constructor_body|field_declaration_list|enum_variant_list)$/;

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function", "class"]);

function bodyOf(node: Parser.SyntaxNode): Parser.SyntaxNode | null {
  const direct = node.childForFieldName("body");
  if (direct) return direct;
  for (const c of node.namedChildren) {
    if (BODY_TYPES.test(c.type)) return c;
    // (`right`: express's `app.route = function route(path) { … };`, a CommonJS member assigned
    // a function, whose statement holds the assignment.)
    const inner = c.childForFieldName("body") ?? c.childForFieldName("value") ?? c.childForFieldName("right");
    if (inner && BODY_TYPES.test(inner.type)) return inner;
    // `export const splitPath = (path: string): string[] => { … }` (hono's utils): the
    // declaration holds a declarator whose value is the function; its block is the body.
    const fn = inner && FUNCTION_VALUES.has(inner.type) ? inner.childForFieldName("body") : null;
    if (fn && BODY_TYPES.test(fn.type)) return fn;
  }
  return null;
}

/** A declaration without a body that stands for its implementation: a TypeScript overload signature, a Python `@overload`. */
function isSignature(node: Parser.SyntaxNode, text: string): boolean {
  if (/^(function_signature|method_signature|abstract_method_signature)$/.test(node.type)) return true;
  const deco = node.parent?.type === "decorated_definition" ? node.parent.namedChildren.filter((c) => c.type === "decorator") : [];
  return deco.some((c) => /^@\s*(?:[\w.]+\.)?overload\s*$/.test(text.slice(c.startIndex, c.endIndex)));
}

/** How many declarations of `name` a patch's new text holds (parsed where the group lives: a method's inside a class). */
function declarationsIn(sym: Sym, content: string): number {
  let wrapped = content;
  if (sym.parent !== null && sym.language === "python") wrapped = `class _Splice:\n    ${reindent(content, "    ", 4, "\n", "python")}\n`;
  else if (sym.parent !== null) wrapped = `class _Splice {\n${content}\n}\n`;
  return extractFacts(sym.language, Buffer.from(wrapped, "utf8")).symbols.filter((s) => s.name === sym.name).length;
}

/**
 * Which declarations of a binding (resolveBinding) a patch replaces: new text that declares the
 * name several times replaces the whole group (signatures and implementation); a single
 * declaration replaces the implementation and keeps the signatures. A group without one
 * implementation after its signatures (a getter and a setter) needs --symbol-id.
 */
function patchTarget(ws: Workspace, group: Sym[], content: string, body: boolean): { sym: Sym; whole: boolean } {
  const last = group[group.length - 1] as Sym;
  if (group.length === 1) return { sym: last, whole: false };
  const d = textOf(ws, last.file);
  const sig = group.map((s) => isSignature(definitionExtent(s.language, d.text, d.toIndex(s.byte_start), d.toIndex(s.byte_end)).node, d.text));
  const overloads = sig.slice(0, -1).every(Boolean) && !sig[sig.length - 1];
  if (!body && declarationsIn(last, content) > 1) return { sym: group[0] as Sym, whole: true };
  if (overloads) return { sym: last, whole: false };
  const list = group.map((s) => `${s.symbol_id} ${s.kind} ${s.scoped_name} ${s.file}:${s.start_line}${sig[group.indexOf(s)] ? " (signature)" : ""}`);
  throw new ToolError({
    code: CODES.ambiguous_symbol,
    error: "ambiguous_symbol",
    message: `'${last.scoped_name}' is declared ${group.length} times in ${last.file}, and not as overload signatures followed by one implementation; the new text declares it ${body ? "(as a body)" : "once"}, so which declaration it replaces is not clear:\n  ${list.join("\n  ")}`,
    file: last.file,
    note: list.join("\n"),
    remediation: "Give the text of every declaration (the whole group is replaced), or pick one with --symbol-id ID.",
  });
}

export function patch(ws: Workspace, step: PatchStep): StepReport {
  const group = ws.resolveBinding({ file: step.file, symbol: step.symbol, symbol_id: step.symbol_id, kind: step.kind });
  const content = nonEmpty(step.content, `patch ${(group[0] as Sym).scoped_name}`);
  const { sym, whole } = patchTarget(ws, group, content, step.body === true);
  const rel = sym.file;
  const d = textOf(ws, rel);
  const text = d.text;
  const ext = definitionExtent(sym.language, text, d.toIndex(sym.byte_start), d.toIndex(sym.byte_end));
  const eol = eolOf(text);
  let from: number;
  let to: number;
  let repl: string;
  if (step.body) {
    const body = bodyOf(ext.node);
    if (!body) {
      throw new ToolError({ code: CODES.no_body, error: "no_body", message: `${sym.scoped_name} (${sym.kind}) has no body to replace`, file: rel, remediation: "Patch the whole definition (without --body)." });
    }
    const t = text.slice(body.startIndex, body.endIndex);
    if (sym.language === "python" && !startsLine(text, body.startIndex)) {
      // A one-line suite (`def one(): return 1`): the new body goes on lines of its own below the
      // colon, one step deeper than the `def`; glued to the `def` line, its second line stood
      // at the `def`'s indentation, outside the function.
      const header = indentOf(text, ext.start);
      const inner = header + unitAt(text, header);
      from = text.lastIndexOf(":", body.startIndex) + 1;
      to = body.endIndex;
      repl = eol + inner + reindent(content, inner, inner.length, eol, sym.language, unitAt(text, inner));
    } else if (!t.startsWith("{") || content.trimStart().startsWith("{")) {
      // An indented block (Python) or a body given with its braces: replace the node.
      from = body.startIndex;
      to = body.endIndex;
      const target = startsLine(text, from) ? indentOf(text, from) : indentOf(text, ext.start);
      repl = reindent(content, target, target.length, eol, sym.language, unitAt(text, target));
    } else {
      const header = indentOf(text, ext.start);
      const firstInner = /\n([ \t]*)\S/.exec(t);
      const inner = firstInner && (firstInner[1] as string).length > header.length ? (firstInner[1] as string) : header + indentUnit(text);
      from = body.startIndex + 1;
      to = body.endIndex - 1;
      repl = eol + inner + reindent(content, inner, inner.length, eol, sym.language, unitAt(text, inner)) + eol + header;
    }
  } else {
    // One declarator of several (`export const a = …, b = …;`, `int a = 1, b = 2;`): text that
    // starts with its name is the declarator and replaces it alone; a whole statement would land
    // inside the statement (`export const export const a = …;, b = …;`).
    const shared = whole ? undefined : declaratorCut(sym.language, ext.tree, d.toIndex(sym.name_byte_start));
    if (shared && (!shared.declarator || headOf(sym.language, content).word !== sym.name)) {
      const others = sharers(ws, [sym], [[d.toByte(shared.statement[0]), d.toByte(shared.statement[1])]]);
      throw sharedDeclaration(sym, others, `a patch replaces only its declarator (${text.slice(shared.item[0], shared.item[1]).split("\n")[0]}), and ${shared.declarator ? "the new text does not start with its name" : "Go's bare names have no text of their own"}`, shared.declarator ? `Give the declarator alone (starting with ${sym.name}, without the declaration's keyword or type), or rewrite the whole statement with splice edit.` : "Rewrite the whole statement with splice edit.");
    }
    const level = shared ? { start: shared.item[0], end: shared.item[1] } : chooseLevel(sym.language, text, ext, content);
    from = level.start;
    to = level.end;
    if (whole) {
      // The whole overload group: from the first declaration's chosen start to the last one's end.
      const last = group[group.length - 1] as Sym;
      to = Math.max(to, definitionExtent(last.language, text, d.toIndex(last.byte_start), d.toIndex(last.byte_end)).end);
    }
    const target = indentOf(text, from);
    repl = reindent(content, target, target.length, eol, sym.language, unitAt(text, target));
    // The names a replaced statement declares beside this one, that the new text does not declare
    // again (a patch of Go's `var a, b = 1, 2` as `var a = 3` dropped b).
    const dropped = sharers(ws, whole ? group : [sym], [[d.toByte(from), d.toByte(to)]]).filter((s) => VALUE_KINDS.has(s.kind_normalized) && !new RegExp(`(?<![\\w$])${escapeRe(s.name)}(?![\\w$])`).test(content));
    if (dropped.length > 0) throw sharedDeclaration(sym, dropped, "the new text replaces the whole statement and does not declare them", "Give the whole statement with every name it declares, or rewrite it with splice edit.");
  }
  put(ws, rel, text.slice(0, from) + repl + text.slice(to));
  const overloads = group.length > 1 ? { overloads: { declarations: group.length, replaced: whole ? "all" : "implementation", kept: whole ? [] : group.slice(0, -1).map((s) => `${s.file}:${s.start_line}`) } } : {};
  return { symbol: symbolInfo(sym), replaced: { byte_start: d.toByte(from), byte_end: d.toByte(to) }, ...overloads };
}

function blankLinesAfter(text: string, at: number): number {
  let n = 0;
  let i = at;
  for (;;) {
    const e = lineEnd(text, i);
    if (e >= text.length || text.slice(i, e).trim() !== "") return n;
    n++;
    i = e + 1;
  }
}

export function insert(ws: Workspace, step: InsertStep): StepReport {
  const after = step.after_symbol !== undefined;
  // An overloaded function is one anchor: after its implementation, before its first signature.
  const anchors = ws.resolveBinding({ file: step.file, symbol: step.after_symbol ?? step.before_symbol, symbol_id: step.symbol_id, kind: step.kind });
  const anchor = (after ? anchors[anchors.length - 1] : anchors[0]) as Sym;
  const content = nonEmpty(step.content, "insert");
  const rel = anchor.file;
  const d = textOf(ws, rel);
  const text = d.text;
  const ext = definitionExtent(anchor.language, text, d.toIndex(anchor.byte_start), d.toIndex(anchor.byte_end));
  const full = ext.full;
  const target = indentOf(text, full);
  const eol = eolOf(text);
  // The file's own spacing between this definition and its siblings.
  const endOfLine = lineEnd(text, ext.end);
  const below = endOfLine < text.length ? blankLinesAfter(text, endOfLine + 1) : 0;
  let above = 0;
  for (let i = lineStart(text, full); i > textStart(text); ) {
    const s = lineStart(text, i - 1);
    if (text.slice(s, i).trim() !== "") break;
    above++;
    i = s;
  }
  const nextLineStart = endOfLine + 1 + (below > 0 ? 0 : 0);
  let afterIdx = endOfLine + 1;
  for (let k = 0; k < below; k++) afterIdx = lineEnd(text, afterIdx) + 1;
  const nextIndent = afterIdx < text.length ? indentOf(text, afterIdx).length : -1;
  void nextLineStart;
  const gap = below > 0 && nextIndent === target.length ? below : above > 0 ? above : anchor.language === "python" && target === "" ? 2 : 1;
  const block = target + reindent(content, target, target.length, eol, anchor.language, unitAt(text, target));
  let out: string;
  let at: number;
  if (after) {
    // Before the line's break, all of it: in a CRLF file the `\r` stays with its `\n` (an
    // insert after a method split them, leaving `\r\r\n` above the new text and a bare `\n` below).
    at = endOfLine > 0 && text[endOfLine - 1] === "\r" && endOfLine < text.length ? endOfLine - 1 : endOfLine;
    out = text.slice(0, at) + eol.repeat(gap + 1) + block + (at >= text.length && !text.endsWith("\n") ? "" : "") + text.slice(at);
  } else {
    at = lineStart(text, full);
    out = text.slice(0, at) + block + eol + eol.repeat(gap) + text.slice(at);
  }
  put(ws, rel, out);
  return { anchor: symbolInfo(anchor), position: after ? "after" : "before" };
}

/** The characters a delete of one definition removes: its full extent, its line, and the blank lines it leaves. */
function removal(text: string, full: number, end: number): [number, number] {
  let from = startsLine(text, full) ? lineStart(text, full) : full;
  const le = lineEnd(text, end);
  let to = text.slice(end, le).trim() === "" ? Math.min(le + 1, text.length) : end;
  let below = to < text.length && to > 0 && text[to - 1] === "\n" ? blankLinesAfter(text, to) : 0;
  if (below > 0) {
    let next = to;
    for (let k = 0; k < below; k++) next = lineEnd(text, next) + 1;
    // The blank lines before a less indented line separate the enclosing block from what follows
    // it: a Python class's last method, deleted with them, left `class Only:` one blank line from
    // the next class, and an only method left its class glued to the next definition.
    const depth = (at: number): number => (/^[ \t]*/.exec(text.slice(at, lineEnd(text, at))) as RegExpExecArray)[0].length;
    if (next < text.length && depth(next) < depth(lineStart(text, full))) below = 0;
    else to = Math.min(next, text.length);
  }
  if (below === 0 && from === lineStart(text, from)) {
    while (from > textStart(text)) {
      const s = lineStart(text, from - 1);
      if (text.slice(s, from).trim() !== "") break;
      from = s;
    }
  }
  return [from, to];
}

/**
 * A use the index ties to a deleted symbol by name only, among other symbols of that name: an
 * `ambiguous` reference whose candidates name some symbol outside the deleted declarations.
 * starlette's `scope.get(...)`, `kwargs.get(...)` on dicts (six workspace `get`s among the
 * candidates) were 204 of the 213 uses a delete of `Config.get` listed. A name-only use with no
 * other candidate (`heuristic`, or `ambiguous` with only this symbol: typer's docs calling
 * `app.add_typer` on an untyped `app`) may well be this symbol's, and still holds the delete back,
 * labelled as a guess.
 */
function amongOthers(r: { resolution: string; candidates: string | null }, ids: Set<string>): boolean {
  if (r.resolution !== "ambiguous" || !r.candidates) return false;
  try {
    return (JSON.parse(r.candidates) as string[]).some((c) => !ids.has(c));
  } catch {
    return false;
  }
}

const NAME_ONLY = new Set(["ambiguous", "heuristic"]);

/**
 * Symbols of the file, other than `group` and what is defined inside it, whose names lie in the
 * byte ranges a step replaces: the names a statement declares beside the symbol (Go's
 * `var a, b = 1, 2` is one definition for the index, with both names' spans).
 */
function sharers(ws: Workspace, group: Sym[], ranges: [number, number][]): Sym[] {
  const ids = new Set(group.map((g) => g.symbol_id));
  const within = (s: Sym, g: Sym): boolean => s.byte_start >= g.byte_start && s.byte_end <= g.byte_end && (s.byte_start !== g.byte_start || s.byte_end !== g.byte_end);
  return ws
    .symbolsIn((group[0] as Sym).file)
    .filter((s) => !ids.has(s.symbol_id) && ranges.some(([a, b]) => s.name_byte_start >= a && s.name_byte_end <= b) && !group.some((g) => within(s, g)));
}

/** Kinds a multi-name declaration declares: a name among them must not go with another's cut. */
const VALUE_KINDS = new Set(["var", "const", "static", "field"]);

function sharedDeclaration(sym: Sym, others: Sym[], why: string, remediation: string): ToolError {
  return new ToolError({
    code: CODES.shared_declaration,
    error: "shared_declaration",
    message: `${sym.scoped_name} (${sym.file}:${sym.start_line}) shares its declaration with ${others.map((o) => o.name).join(", ")}: ${why}`,
    file: sym.file,
    note: others.map((o) => `${o.kind} ${o.scoped_name} ${o.file}:${o.start_line}`).join("\n"),
    remediation,
  });
}

export function del(ws: Workspace, step: DeleteStep): StepReport {
  // An overloaded function's signatures and implementation go together (resolveBinding).
  const group = ws.resolveBinding({ file: step.file, symbol: step.symbol, symbol_id: step.symbol_id, kind: step.kind });
  const sym = group[group.length - 1] as Sym;
  const rel = sym.file;
  const d = textOf(ws, rel);
  const text = d.text;
  // Declarations with only white space between them (overload signatures and their
  // implementation) are removed as one definition, so the blank lines around the group are
  // treated once; others each on their own, from the end.
  const extents = group.map((g) => definitionExtent(g.language, text, d.toIndex(g.byte_start), d.toIndex(g.byte_end)));
  const runs: [number, number][] = [];
  for (const e of extents) {
    const prev = runs[runs.length - 1];
    if (prev && text.slice(prev[1], e.full).trim() === "") prev[1] = Math.max(prev[1], e.end);
    else runs.push([e.full, e.end]);
  }
  // One name of several a declaration declares (`export const a = …, b = …;`, `int a = 1, b = 2;`,
  // Go's `var a, b int`) goes with its comma, the statement and its doc comment stay.
  const cut = group.length === 1 ? declaratorCut(sym.language, (extents[0] as Extent).tree, d.toIndex(sym.name_byte_start)) : undefined;
  const ranges = cut ? [cut.cut] : runs.map(([full, end]) => removal(text, full, end));
  const byteRanges = ranges.map(([a, b]) => [d.toByte(a), d.toByte(b)] as [number, number]);
  const inside = (path: string, a: number, b: number): boolean => path === rel && byteRanges.some(([f, t]) => a >= f && b <= t);
  const sharing = sharers(ws, group, byteRanges);
  const values = sharing.filter((s) => VALUE_KINDS.has(s.kind_normalized));
  if (values.length > 0) {
    throw sharedDeclaration(
      sym,
      values,
      `removing the statement would remove ${values.length === 1 ? "it" : "them"} too, and ${sym.name} cannot be cut out of it alone (${sym.language === "go" || sym.language === "python" ? "its names and values are paired by position" : `splice cuts single declarators only out of TypeScript, JavaScript, C and C++ declarations and Go's typed \`var a, b T\``})`,
      `Rewrite the statement without ${sym.name} with splice edit (--old the whole statement, --new the statement for ${values.map((v) => v.name).join(", ")} alone).`,
    );
  }
  // The graph knows the files as on disk; files an earlier batch step changed are read as
  // planned (by name: the caller a batch just rewrote must not hold the delete back).
  const dirty = new Set(ws.changed().map((f) => f.path));
  const seen = new Set<string>();
  const ids = new Set([...group, ...sharing].map((g) => g.symbol_id));
  // Other declarations the cut takes along, not defined inside the symbol: their uses are as much
  // in the way as the symbol's own.
  const all = [...group, ...sharing]
    .flatMap((g) => ws.references(g))
    .filter((r) => !dirty.has(r.path) && !inside(r.path, r.byte_start, r.byte_end) && !seen.has(`${r.path}\0${r.byte_start}`) && (seen.add(`${r.path}\0${r.byte_start}`), true))
    .map((r) => ({ file: r.path, line: r.start_line, col: r.start_col, byte_start: r.byte_start, byte_end: r.byte_end, kind: r.kind, resolution: r.resolution, others: amongOthers(r, ids) }));
  const remaining = all.filter((r) => !r.others).map(({ others: _, ...r }) => r);
  const nameOnly = all.filter((r) => r.others).map(({ others: _, ...r }) => r);
  for (const path of dirty) {
    const lang = languageForPath(path);
    if (!lang) continue;
    const bytes = ws.read(path);
    const lines = new LineIndex(bytes);
    for (const r of extractFacts(lang.id, bytes).references) {
      if (r.name !== sym.name || inside(path, r.range.byte_start, r.range.byte_end)) continue;
      const at = lines.position(r.range.byte_start);
      remaining.push({ file: path, line: at.line, col: at.col, byte_start: r.range.byte_start, byte_end: r.range.byte_end, kind: r.kind, resolution: "by_name_in_plan" });
    }
  }
  const fmt = (r: (typeof remaining)[number]): string => `${r.file}:${r.line}:${r.col} (${r.kind}, ${r.resolution})`;
  const guesses = remaining.filter((r) => NAME_ONLY.has(r.resolution));
  const resolved = remaining.filter((r) => !NAME_ONLY.has(r.resolution));
  const nameOnlyText = nameOnly.length > 0
    ? `${nameOnly.length} use(s) of '${sym.name}' that the index ties by name only to several symbols of that name, ${sym.scoped_name} among them: ${nameOnly.slice(0, 10).map((r) => `${r.file}:${r.line}`).join(", ")}${nameOnly.length > 10 ? ", …" : ""}`
    : "";
  if (remaining.length > 0 && !step.force) {
    const list = [...resolved, ...guesses].slice(0, 50).map(fmt);
    const parts: string[] = [];
    if (resolved.length > 0) parts.push(`${sym.scoped_name} is still referenced ${resolved.length} time(s):\n  ${resolved.slice(0, 50).map(fmt).join("\n  ")}`);
    if (guesses.length > 0) {
      parts.push(
        `${resolved.length > 0 ? "and" : `${sym.scoped_name} may still be used:`} ${guesses.length} use(s) on values whose type the index does not know, tied to it by name only (no other symbol of the workspace has the name; a library's method of that name looks the same):\n  ${guesses.slice(0, Math.max(1, 50 - resolved.length)).map(fmt).join("\n  ")}`,
      );
    }
    if (nameOnly.length > 0) parts.push(`Not counted: ${nameOnlyText}.`);
    throw new ToolError({
      code: CODES.references_remain,
      error: "references_remain",
      message: parts.join("\n"),
      file: rel,
      note: list.join("\n"),
      remediation: `Remove or update those references first (one batch can do both)${guesses.length > 0 ? "; the name-only ones may be another value's: check them" : ""}; or pass --force to delete anyway.`,
    });
  }
  let out = text;
  for (const [a, b] of [...ranges].reverse()) out = out.slice(0, a) + (sym.language === "python" && !cut && emptiesPythonBlock(text, a, b) ? `${indentOf(text, lineStart(text, a) === a ? textStartOfLine(text, a, b) : a)}pass${eolOf(text)}` : "") + out.slice(b);
  put(ws, rel, out);
  const warnings = nameOnly.length > 0
    ? [{ tool: "splice", level: "warning" as const, code: CODES.name_only_uses, message: `${nameOnlyText}. They did not hold the delete back: if one of them was ${sym.scoped_name}'s, the checker reports it only where it knows the value's type and checks the file; otherwise it fails at run time.` }]
    : [];
  return {
    symbol: symbolInfo(sym),
    removed: { byte_start: byteRanges[0]?.[0] ?? 0, byte_end: byteRanges[byteRanges.length - 1]?.[1] ?? 0 },
    ...(group.length > 1 ? { declarations_removed: group.map((g) => `${g.file}:${g.start_line}`) } : {}),
    ...(sharing.length > 0 ? { removed_with_it: sharing.map((g) => `${g.kind} ${g.scoped_name} ${g.file}:${g.start_line}`) } : {}),
    remaining_references: remaining,
    name_only_references: nameOnly,
    ...(warnings.length > 0 ? { diagnostics: warnings } : {}),
  };
}

/** Where the first non-blank line of [a, b) starts its text: the removed definition's own indentation. */
function textStartOfLine(text: string, a: number, b: number): number {
  for (let i = a; i < b; i = lineEnd(text, i) + 1) {
    const m = /^[ \t]*/.exec(text.slice(i, lineEnd(text, i))) as RegExpExecArray;
    if (i + m[0].length < lineEnd(text, i)) return i + m[0].length;
  }
  return a;
}

/**
 * True when removing [a, b) leaves the Python block it stood in without a statement: the line
 * above (past comments) opens the block with `:`, and what follows is less indented or nothing.
 * Such a block is a syntax error ("Expected indented block"): deleting a class's only method
 * was rejected, and a human leaves `pass` there.
 */
function emptiesPythonBlock(text: string, a: number, b: number): boolean {
  const depth = indentOf(text, textStartOfLine(text, a, b)).length;
  const code = (i: number): string => text.slice(i, lineEnd(text, i)).replace(/#.*$/, "").trimEnd();
  const indentAt = (i: number): number => (/^[ \t]*/.exec(text.slice(i, lineEnd(text, i))) as RegExpExecArray)[0].length;
  let above: number | undefined;
  for (let i = lineStart(text, a); i > 0; ) {
    i = lineStart(text, i - 1);
    if (code(i).trim() === "") continue;
    above = i;
    break;
  }
  if (above === undefined || indentAt(above) >= depth || !code(above).endsWith(":")) return false;
  for (let i = b; i < text.length; i = lineEnd(text, i) + 1) {
    if (code(i).trim() === "") continue;
    return indentAt(i) < depth;
  }
  return true;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function occurrences(hay: string, needle: string, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = hay.indexOf(needle, from); i !== -1 && i + needle.length <= to; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

export function edit(ws: Workspace, step: EditStep): StepReport {
  const rel = ws.rel(step.file);
  const d = textOf(ws, rel);
  const text = d.text;
  if (step.old === "") {
    throw new ToolError({ code: CODES.usage, error: "invalid_arguments", message: "--old is empty", remediation: "Give the exact text to replace; to add a definition use 'splice insert'.", exitCode: 2 });
  }
  let lo = 0;
  let hi = text.length;
  let scope = rel;
  if (step.symbol !== undefined || step.symbol_id !== undefined) {
    const group = ws.resolveBinding({ file: rel, symbol: step.symbol, symbol_id: step.symbol_id, kind: step.kind });
    const sym = group[0] as Sym;
    const last = group[group.length - 1] as Sym;
    lo = definitionExtent(sym.language, text, d.toIndex(sym.byte_start), d.toIndex(sym.byte_end)).full;
    hi = definitionExtent(last.language, text, d.toIndex(last.byte_start), d.toIndex(last.byte_end)).end;
    scope = `${sym.scoped_name} in ${rel}`;
  }
  let oldText = step.old;
  let newText = step.new;
  let hits = occurrences(text, oldText, lo, hi);
  if (hits.length === 0 && eolOf(text) === "\r\n" && oldText.includes("\n") && !oldText.includes("\r")) {
    oldText = oldText.replace(/\n/g, "\r\n");
    newText = newText.replace(/\r?\n/g, "\r\n");
    hits = occurrences(text, oldText, lo, hi);
  }
  const lineAt = (i: number): number => text.slice(0, i).split("\n").length;
  if (hits.length > 1) {
    const list = hits.map((i) => `line ${lineAt(i)}: ${text.slice(lineStart(text, i), lineEnd(text, i)).trim()}`);
    throw new ToolError({ code: CODES.old_text_ambiguous, error: "old_text_ambiguous", message: `--old matches ${hits.length} times in ${scope}:\n  ${list.join("\n  ")}`, file: rel, note: list.join("\n"), remediation: "Make --old longer so that it matches once, or narrow it with --symbol." });
  }
  if (hits.length === 0) {
    const words = step.old.trim().split(/\s+/).map(escapeRe);
    const loose = new RegExp(words.join("\\s*"), "g");
    const near: { line: number; text: string }[] = [];
    for (const m of text.slice(lo, hi).matchAll(loose)) near.push({ line: lineAt(lo + (m.index ?? 0)), text: m[0] });
    if (near.length > 0) {
      const list = near.map((n) => `line ${n.line}: ${JSON.stringify(n.text)}`);
      throw new ToolError({ code: CODES.whitespace_near_miss, error: "whitespace_near_miss", message: `--old is not in ${scope} as given, but differs only in whitespace from:\n  ${list.join("\n  ")}`, file: rel, note: near.map((n) => n.text).join("\n---\n"), remediation: "Copy the exact text shown (spaces, tabs and line breaks included) into --old." });
    }
    const probe = step.old.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
    const cands: string[] = [];
    const lines = text.slice(lo, hi).split("\n");
    const first = lineAt(lo);
    const key = probe.slice(0, Math.max(8, Math.min(probe.length, 24)));
    lines.forEach((l, i) => cands.length < 10 && key !== "" && l.includes(key) && cands.push(`line ${first + i}: ${l.trim()}`));
    throw new ToolError({ code: CODES.old_text_not_found, error: "old_text_not_found", message: `--old does not occur in ${scope}${cands.length ? `; lines with its start:\n  ${cands.join("\n  ")}` : ""}`, file: rel, note: cands.length ? cands.join("\n") : undefined, remediation: "Re-read the file (llmsearch or mdsel) and copy the exact text into --old." });
  }
  const at = hits[0] as number;
  put(ws, rel, text.slice(0, at) + newText + text.slice(at + oldText.length));
  return { file: rel, line: lineAt(at), byte_start: d.toByte(at), byte_end: d.toByte(at + oldText.length) };
}

function expand(replacement: string, m: RegExpExecArray | RegExpMatchArray): string {
  return replacement.replace(/\$(\$|&|\d{1,2}|<([^>]+)>)/g, (all, tok: string, name?: string) => {
    if (tok === "$") return "$";
    if (tok === "&") return m[0];
    if (name !== undefined) return m.groups?.[name] ?? "";
    const k = Number(tok);
    return k < m.length ? (m[k] ?? "") : all;
  });
}

export function applyFiles(ws: Workspace, step: ApplyFilesStep): StepReport {
  let re: RegExp;
  try {
    re = new RegExp(step.regex ? step.find : escapeRe(step.find), "g");
  } catch (e) {
    throw new ToolError({ code: CODES.invalid_regex, error: "invalid_regex", message: `--find is not a valid regular expression: ${(e as Error).message}`, remediation: "Fix the pattern (JavaScript syntax), or drop --regex to search for the literal text.", exitCode: 2 });
  }
  if (step.find === "") throw new ToolError({ code: CODES.usage, error: "invalid_arguments", message: "--find is empty", remediation: "Give the text to find.", exitCode: 2 });
  const files = walkFiles({ root: ws.root, globs: [step.glob] }).map((e) => e.rel).filter((r) => !r.startsWith(".splice/") && !r.startsWith(".magellan/"));
  if (files.length === 0) {
    throw new ToolError({ code: CODES.no_files_matched, error: "no_files_matched", message: `no file matches --glob ${step.glob}`, remediation: "Globs are gitignore-style and relative to the workspace root (e.g. 'src/**/*.ts')." });
  }
  const perFile: { file: string; replacements: number }[] = [];
  const skipped: { file: string; reason: string }[] = [];
  for (const rel of files) {
    const raw = ws.read(rel);
    if (isBinary(raw)) continue;
    const d = decodeBytes(raw);
    if (!d.valid) {
      skipped.push({ file: rel, reason: "not valid UTF-8" });
      continue;
    }
    const text = d.text;
    re.lastIndex = 0;
    if (!re.test(text)) continue;
    let skip: [number, number][] = [];
    if (!step.include_comments_strings) {
      const lang = languageForPath(rel);
      if (!lang) {
        skipped.push({ file: rel, reason: "no grammar to tell comments and strings from code (pass --include-comments-strings to replace anyway)" });
        continue;
      }
      skip = commentsAndStrings(parse(lang.id, text));
    }
    let n = 0;
    re.lastIndex = 0;
    const out = text.replace(re, (...args: unknown[]) => {
      const hasGroups = typeof args[args.length - 1] === "object";
      const offset = args[args.length - (hasGroups ? 3 : 2)] as number;
      const m = args.slice(0, args.length - (hasGroups ? 3 : 2)) as string[] as unknown as RegExpMatchArray;
      if (hasGroups) (m as { groups?: Record<string, string> }).groups = args[args.length - 1] as Record<string, string>;
      const whole = m[0] as string;
      if (skip.some(([a, b]) => offset < b && offset + whole.length > a)) return whole;
      n++;
      return step.regex ? expand(step.replace, m) : step.replace;
    });
    if (n > 0) {
      put(ws, rel, out);
      perFile.push({ file: rel, replacements: n });
    }
  }
  return { files_searched: files.length, replacements: perFile, skipped };
}

/**
 * A method renamed without the methods of the same name that override it, or that it overrides,
 * in the classes above and below its own (by the index's bases): the overrides would silently stop
 * overriding. pyright renames only the method it is asked about: flask's
 * `Scaffold._check_setup_finished` lost its overrides in App and Blueprint, and every test failed
 * at run time while the result said validated. Their files, name offsets and symbol ids, in path
 * order: rename() renames those its engine's locations do not already cover (the TypeScript
 * engine renames overrides itself).
 */
function overridesOf(ws: Workspace, sym: Sym): [string, number, string][] {
  const db = ws.graph();
  const def = symbolById(db, sym.symbol_id);
  if (!def) return [];
  const up = relatedMethods(db, def, "up");
  // The methods above, and every method below them: a sibling overriding the same base method
  // (bat's `<InteractivePrinter as Printer>::print_footer` for `<SimplePrinter as Printer>`'s)
  // would stop overriding it as surely as one below this method.
  const below = [def, ...up.map((m) => symbolById(db, m.symbol_id)).filter((m) => m !== undefined)].flatMap((m) => relatedMethods(db, m, "down"));
  const seen = new Set([def.symbol_id]);
  const family = [...up, ...below].filter((m) => !seen.has(m.symbol_id) && (seen.add(m.symbol_id), true));
  return (TYPED_OVERLOADS.has(def.language) ? sameParameters(ws, def, family) : family)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.name_byte_start - b.name_byte_start))
    .map((m) => [m.path, m.name_byte_start, m.symbol_id]);
}

/**
 * Of a class's methods in the family that share the name and arity (overloads), those whose
 * parameter types, as written, are the renamed method's: renaming gson's `JsonWriter.value(float)`
 * took all seven `value(…)` of JsonTreeWriter. When none of them has its types, none is kept,
 * unless its types name a type variable (`put(T v)` is overridden by `put(String v)`), where all
 * are (over-reaching is what the compiler rejects; reaching too short changes behaviour silently).
 */
function sameParameters<M extends { symbol_id: string; path: string; name_byte_start: number }>(ws: Workspace, def: { name: string; path: string; name_byte_start: number }, family: M[]): M[] {
  const typesOf = (path: string, nameStart: number): string[] | undefined => {
    let bytes: Uint8Array;
    try {
      bytes = ws.read(path);
    } catch {
      return undefined;
    }
    const from = nameStart + Buffer.byteLength(def.name);
    return parameterTypesAt(Buffer.from(bytes.subarray(from, from + 4096)).toString("utf8"), 0);
  };
  const own = typesOf(def.path, def.name_byte_start);
  if (own === undefined) return family;
  const generic = own.some((t) => /^\s*[A-Z]\w?\s*(?:\[\]|\.\.\.)?\s*$/.test(t));
  const byClass = new Map<string, M[]>();
  const db = ws.graph();
  for (const m of family) {
    const parent = symbolById(db, m.symbol_id)?.parent_symbol_id ?? m.symbol_id;
    byClass.set(parent, [...(byClass.get(parent) ?? []), m]);
  }
  const out: M[] = [];
  for (const members of byClass.values()) {
    if (members.length === 1) {
      out.push(...members);
      continue;
    }
    const same = members.filter((m) => {
      const t = typesOf(m.path, m.name_byte_start);
      return t !== undefined && sameTypes(t, own);
    });
    out.push(...(same.length > 0 ? same : generic ? members : []));
  }
  return out;
}

/**
 * Python and JavaScript: the uses of a renamed method or field that no engine could type and the
 * index ties to it by name only (`ambiguous` with it among the candidates, or `heuristic` to it),
 * that the rename did not reach, as `path:line`. pyright renames `url.copy_with(...)` only where
 * `url` has a type: httpx's tests call it on pytest fixtures (~20 calls), the rename said
 * validated, and the tests failed at run time.
 */
type UntypedUse = { path: string; byte_start: number; byte_end: number; start_line: number; resolution: string; candidates: string | null };

function untypedUses(ws: Workspace, sym: Sym, renamed: Set<string>): UntypedUse[] {
  if (!UNTYPED_LANGUAGES.has(sym.language) || !MEMBER_KINDS.has(sym.kind_normalized)) return [];
  const rows = ws
    .graph()
    .prepare(
      `SELECT f.path, r.byte_start, r.byte_end, r.start_line, r.resolution, r.candidates FROM refs r JOIN files f ON f.id = r.file_id
       WHERE r.name = ? AND r.qualifier IS NOT NULL AND ((r.resolution = 'ambiguous' AND instr(r.candidates, ?) > 0) OR (r.resolution = 'heuristic' AND r.target_symbol_id = ?))
       ORDER BY f.path, r.byte_start`,
    )
    .all(sym.name, `"${sym.symbol_id}"`, sym.symbol_id) as UntypedUse[];
  return rows.filter((r) => !renamed.has(`${r.path}\0${r.byte_start}`));
}

const UNTYPED_LANGUAGES = new Set(["python", "javascript"]);

/**
 * Python: `getattr(p, "run_it")` (and hasattr, setattr, delattr) names the attribute in a string,
 * which neither pyright's rename nor the checker reads: renaming `Pl.run_it` left the call on the
 * old name, said validated, and raised AttributeError at run time. The string literals that are
 * exactly the old name, as the attribute argument of one of those calls, anywhere in the
 * workspace, as `path:line` with the string's content bytes. Which object they are asked of is
 * not known: they are listed (or, with --allow-heuristic, renamed) by name only.
 */
type StringUse = { path: string; byte_start: number; byte_end: number; start_line: number };

const ATTRIBUTE_CALLS = new Set(["getattr", "hasattr", "setattr", "delattr"]);

function stringKeyedUses(ws: Workspace, sym: Sym, renamed: Set<string>): StringUse[] {
  if (sym.language !== "python") return [];
  const quoted = [`"${sym.name}"`, `'${sym.name}'`];
  const out: StringUse[] = [];
  for (const e of walkFiles({ root: ws.root })) {
    if (languageForPath(e.rel)?.id !== "python") continue;
    let text: string;
    try {
      text = Buffer.from(ws.read(e.rel)).toString("utf8");
    } catch {
      continue;
    }
    if (!quoted.some((q) => text.includes(q))) continue;
    for (const call of parse("python", text).rootNode.descendantsOfType("call")) {
      const fn = call.childForFieldName("function");
      if (fn?.type !== "identifier" || !ATTRIBUTE_CALLS.has(fn.text)) continue;
      const attr = call.childForFieldName("arguments")?.namedChildren[1];
      if (attr?.type !== "string") continue;
      const content = attr.namedChildren.filter((c) => c.type === "string_content");
      if (content.length !== 1 || content[0]!.text !== sym.name || attr.namedChildren.some((c) => c.type === "interpolation")) continue;
      const byte_start = Buffer.byteLength(text.slice(0, content[0]!.startIndex));
      if (renamed.has(`${e.rel}\0${byte_start}`)) continue;
      out.push({ path: e.rel, byte_start, byte_end: byte_start + Buffer.byteLength(sym.name), start_line: content[0]!.startPosition.row + 1 });
    }
  }
  return out;
}
const MEMBER_KINDS = new Set(["method", "field"]);

/**
 * What a rename of `sym` renames. A Rust impl block has no name of its own: renaming ripgrep's
 * `impl Stats` (--kind impl) renamed that header and the crate's other uses, and left `struct
 * Stats`, `-> Stats` and `Stats::default()` on the old name (unchecked with cargo offline, so
 * nothing said so). An inherent `impl T` stands for its type T; a trait impl (`<T as Trait>`),
 * or an impl whose type is not found once, is refused, naming what to rename instead.
 */
function renameTarget(ws: Workspace, sym: Sym): Sym {
  if (sym.language !== "rust" || sym.kind !== "Impl") return sym;
  const type = sym.name.startsWith("<") ? undefined : ws.rustTypeOfImpl(sym);
  if (type) return type;
  const m = /^<(.+) as (.+)>$/s.exec(sym.name);
  const what = m ? `the type ${m[1]} or the trait ${m[2]}` : `the type ${sym.name}`;
  throw renameError(
    "not_renameable",
    `${sym.file}:${sym.start_line}: an impl block (${sym.name}) has no name of its own to rename${m ? "" : ` (no one type ${sym.name} was found to stand for it)`}`,
    `Rename ${what} (--kind struct, enum, trait, …, or its --symbol-id from 'magellan find --name …'): its impl blocks are renamed with it.`,
    { file: sym.file },
  );
}

export async function rename(ws: Workspace, step: RenameStep): Promise<StepReport> {
  const sym = renameTarget(ws, ws.resolve({ file: step.file, symbol: step.symbol, symbol_id: step.symbol_id, kind: step.kind, oneBinding: true }));
  const overlays = new Map<string, Uint8Array>();
  for (const f of ws.changed()) if (f.after) overlays.set(f.path, f.after);
  const planFor = (t: Sym): ReturnType<typeof planRename> =>
    planRename({
      root: ws.root,
      target: { file: t.file, language: t.language, name: t.name, byte_start: t.name_byte_start, byte_end: t.name_byte_end, symbol_id: t.symbol_id, kind: t.kind },
      newName: step.to,
      allowHeuristic: step.allow_heuristic,
      overlays,
    });
  const plan = await planFor(sym);
  // The override family goes as one: each member renamed by the same engine, locations merged.
  const family: string[] = [];
  const renamedIds = new Set([sym.symbol_id]);
  // Locations by root-relative path (the index's paths are) and byte offset.
  const at = (l: RenameLocation): string => `${ws.rel(l.file)}\0${l.byte_start}`;
  const seen = new Set(plan.locations.map(at));
  for (const [path, start, id] of overridesOf(ws, sym)) {
    if (seen.has(`${path}\0${start}`)) continue;
    const o = ws.resolve({ symbol_id: id });
    const more = await planFor(o);
    const added = more.locations.filter((l) => !seen.has(at(l)));
    for (const l of added) seen.add(at(l));
    const named = added.some((l) => ws.rel(l.file) === ws.rel(o.file) && l.byte_start === o.name_byte_start);
    if (!named) {
      throw renameError(
        "overrides_left",
        `${o.parent}.${o.name} (${ws.rel(o.file)}:${o.start_line}) overrides ${sym.parent}.${sym.name} or is overridden by it, and ${more.engine} did not rename it`,
        "Rename it on its own first, then this method.",
        { file: o.file },
      );
    }
    plan.locations.push(...added);
    // Each member's engine says the same of itself (no Java language server: SPLICE_W212, six
    // times on one rename of javapoet's): once is enough.
    const said = new Set(plan.diagnostics.map((d) => `${d.code}\0${d.message}`));
    plan.diagnostics.push(...more.diagnostics.filter((d) => !said.has(`${d.code}\0${d.message}`)));
    family.push(`${ws.rel(o.file)}:${o.start_line} ${o.parent}.${o.name}`);
    renamedIds.add(o.symbol_id);
  }
  if (family.length > 0) plan.diagnostics.push(renameNote("server_note", `renamed with the methods of the same name it overrides or that override it: ${family.join(", ")}`));
  // Python and JavaScript: the uses on values nothing types that the index ties to the member by
  // name only. Named in a warning; renamed too (evidence "heuristic") with --allow-heuristic.
  const untyped = untypedUses(ws, sym, seen);
  const taken: typeof untyped = [];
  if (untyped.length > 0 && step.allow_heuristic) {
    for (const u of untyped) {
      const bytes = Buffer.from(ws.read(u.path));
      if (bytes.subarray(u.byte_start, u.byte_end).toString("utf8") !== sym.name) continue;
      plan.locations.push({ file: join(ws.root, u.path), byte_start: u.byte_start, byte_end: u.byte_end, old_text: sym.name, new_text: step.to, evidence: "heuristic" });
      seen.add(`${u.path}\0${u.byte_start}`);
      taken.push(u);
    }
  }
  const left = untyped.filter((u) => !taken.includes(u));
  const where = (us: typeof untyped): string => `${us.slice(0, 10).map((u) => `${u.path}:${u.start_line}`).join(", ")}${us.length > 10 ? ", …" : ""}`;
  const owner = `${sym.parent ?? ""}${sym.parent ? "." : ""}${sym.name}`;
  // Those the index ties to what is renamed alone (no other symbol of the name in the workspace)
  // are most likely its uses: left behind, the change was "validated" and failed at run time
  // (commander.js's `option.attributeName()` in an arrow function's untyped parameter). As a
  // delete does with them, and the index engine with its name-only locations, the rename is
  // refused; those among several symbols of the name stay a warning.
  const sole = left.filter((u) => !amongOthers(u, renamedIds));
  if (sole.length > 0) {
    throw renameError(
      "heuristic_locations",
      `renaming '${owner}' would leave ${sole.length} use(s) of '.${sym.name}' on values of unknown type, which the index ties to it alone (no other symbol here has the name): ${where(sole)}. Validation cannot see them, and at run time they would name a member that no longer exists`,
      "Pass --allow-heuristic (allowHeuristic) to rename them too, rename them with splice edit first, or give the values a type (an annotation, a JSDoc @param) so that the rename engine reaches them.",
      { file: sym.file },
    );
  }
  if (taken.length > 0) {
    plan.diagnostics.push(
      renameNote(
        "untyped_uses",
        `--allow-heuristic: ${taken.length} use(s) of '.${sym.name}' on values whose type is not known, which the index ties to ${owner} by name only, were renamed too (evidence "heuristic"): ${where(taken)}. Validation cannot see the untyped ones: if one was another value's (a library's), it now fails at run time.`,
        "warning",
      ),
    );
  }
  if (left.length > 0) {
    plan.diagnostics.push(
      renameNote(
        "untyped_uses",
        `${left.length} use(s) of '.${sym.name}' on values whose type is not known were left as they are, and the index lists ${owner} among what they may call: ${where(left)}. Validation cannot see them (nothing types those values): if they are this method's, they now fail at run time; rename them with splice edit, give the values a type, or run the rename again with --allow-heuristic to rename every one of them by name.`,
        "warning",
      ),
    );
  }
  const strings = stringKeyedUses(ws, sym, seen);
  if (strings.length > 0) {
    if (step.allow_heuristic) {
      for (const u of strings) plan.locations.push({ file: join(ws.root, u.path), byte_start: u.byte_start, byte_end: u.byte_end, old_text: sym.name, new_text: step.to, evidence: "heuristic" });
    }
    const list = `${strings.slice(0, 10).map((u) => `${u.path}:${u.start_line}`).join(", ")}${strings.length > 10 ? ", …" : ""}`;
    plan.diagnostics.push(
      renameNote(
        "string_keyed_uses",
        step.allow_heuristic
          ? `--allow-heuristic: ${strings.length} getattr/hasattr/setattr/delattr call(s) naming '${sym.name}' in a string were renamed too, by name only (evidence "heuristic"): ${list}. If one asked another object for its own '${sym.name}', it now asks for '${step.to}'.`
          : `${strings.length} getattr/hasattr/setattr/delattr call(s) name '${sym.name}' in a string and were left as they are: ${list}. Neither the rename engine nor the checker reads those strings: if they ask for ${owner}, they fail at run time (AttributeError); change them with splice edit, or run the rename again with --allow-heuristic to rename them by name.`,
        "warning",
      ),
    );
  }
  const byFile = new Map<string, RenameLocation[]>();
  // By root-relative path: the engines give relative paths, the name-only additions above
  // absolute ones, and two groups of one file would each apply to bytes the other shifted.
  for (const l of plan.locations) byFile.set(ws.rel(l.file), [...(byFile.get(ws.rel(l.file)) ?? []), l]);
  for (const [rel, locs] of byFile) {
    let bytes = Buffer.from(ws.read(rel));
    // A language server counts positions in characters of the text it decoded; in a file that
    // is not UTF-8 its characters are not ours, and every location after the first bad byte was
    // off (clangd on hiredis.c: `sdscatsds_append_leng`). The TypeScript engine works on bytes.
    if (!plan.engine.startsWith("typescript") && !decodeBytes(bytes).valid) {
      throw new ToolError({ code: CODES.binary_file, error: "invalid_utf8", message: `${rel} is not valid UTF-8: ${plan.engine}'s positions in it cannot be mapped to bytes`, file: rel, remediation: "splice edits UTF-8 text; convert the file first." });
    }
    for (const l of [...locs].sort((a, b) => b.byte_start - a.byte_start)) {
      const have = bytes.subarray(l.byte_start, l.byte_end).toString("utf8");
      if (have !== l.old_text) {
        throw new ToolError({ code: CODES.checksum_mismatch, error: "stale_location", message: `${rel}:${l.byte_start}: rename engine expected '${l.old_text}', found '${have}'`, file: rel, remediation: "Run the rename again: the file changed while it was planned." });
      }
      bytes = Buffer.concat([bytes.subarray(0, l.byte_start), Buffer.from(l.new_text, "utf8"), bytes.subarray(l.byte_end)]);
    }
    ws.write(rel, bytes);
  }
  return { symbol: symbolInfo(sym), to: step.to, engine: plan.engine, engine_version: plan.engine_version, ...(plan.timing ? { engine_timing: plan.timing } : {}), locations: plan.locations, engine_diagnostics: plan.diagnostics };
}
