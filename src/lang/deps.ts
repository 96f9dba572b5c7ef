/**
 * File-level dependencies for the impact graph: every import, require, include, `mod` and `use`
 * of a file, with the specifier when it is static or can be computed from constants (string
 * concatenation, all-static template literals and f-strings, path.join/os.path.join), and the
 * source text when it cannot (a dynamic import is counted and sampled, never dropped).
 * The patterns are data (src/lang/queries/<language>/deps.scm); this module reads their captures.
 */
import type Parser from "tree-sitter";
import { clipText } from "../text/clip.js";
import { type DepMatch, querySource } from "./extract.js";
import { CapturedNode } from "./raw-matches.js";
import { grammar, type LanguageId } from "./registry.js";
import { loadTreeSitter } from "./tree-sitter-module.js";


export type DepKind = "import" | "require" | "include";

export interface ExtractedDep {
  /** The edge kind of the impact graph (seed 04: import, include, require). */
  kind: DepKind;
  /**
   * How the language wrote it: static (import/export from), require, dynamic (import()),
   * module/from (Python), mod/use (Rust), include/system (C), java, package (Java's own package).
   */
  form: string;
  /** The specifier when known statically; undefined when it could not be computed. */
  spec?: string;
  /** A template with unknown parts, `*` for each (`./locale/*.js`), when spec is unknown. */
  pattern?: string;
  /** The expression as written, for diagnostics samples. */
  text: string;
  /** Python `from m import a, b`: a, b (each may be a submodule). */
  names?: string[];
  /** TypeScript `import type` / `export type ... from`: erased at run time. */
  typeOnly?: boolean;
  /** Rust `#[path = "x.rs"] mod m;`. */
  pathAttr?: string;
  line: number;
}

const queries = new Map<LanguageId, Parser.Query>();

function depsQuery(id: LanguageId): Parser.Query {
  let q = queries.get(id);
  if (!q) {
    q = new (loadTreeSitter().Query)(grammar(id) as Parser.Language, querySource(id, "deps"));
    queries.set(id, q);
  }
  return q;
}

const UNKNOWN = Symbol("unknown");
type Value = string | typeof UNKNOWN;

/** A string literal's value, or undefined when the node is no plain literal. */
function literal(node: Parser.SyntaxNode): string | undefined {
  const t = node.text;
  switch (node.type) {
    case "string": {
      // JS/TS "x" 'x'; Python with prefixes and triple quotes (an f-string is not plain).
      const m = /^([rRbBuU]*)("""|'''|"|')([\s\S]*)\2$/.exec(t);
      if (!m) return undefined;
      if (node.namedChildren.some((c) => c.type === "interpolation")) return undefined;
      return m[3];
    }
    case "string_literal":
    case "interpreted_string_literal":
    case "raw_string_literal":
      return t.slice(1, -1);
    case "system_lib_string":
      return t.slice(1, -1);
    default:
      return undefined;
  }
}

/** Evaluates an expression built of literals and file-level constants; UNKNOWN parts make a pattern. */
function evaluate(node: Parser.SyntaxNode, consts: Map<string, string>, depth = 0): Value {
  if (depth > 16) return UNKNOWN;
  const lit = literal(node);
  if (lit !== undefined) return lit;
  switch (node.type) {
    case "parenthesized_expression": {
      const inner = node.namedChildren[0];
      return inner ? evaluate(inner, consts, depth + 1) : UNKNOWN;
    }
    case "identifier":
      return consts.get(node.text) ?? UNKNOWN;
    case "binary_expression":
    case "binary_operator": {
      const op = node.childForFieldName("operator")?.text;
      const l = node.childForFieldName("left");
      const r = node.childForFieldName("right");
      if (op !== "+" || !l || !r) return UNKNOWN;
      const a = evaluate(l, consts, depth + 1);
      const b = evaluate(r, consts, depth + 1);
      return a === UNKNOWN || b === UNKNOWN ? UNKNOWN : a + b;
    }
    case "call_expression":
    case "call": {
      // path.join / path.resolve / posix.join / os.path.join with static arguments.
      const fn = node.childForFieldName("function")?.text ?? "";
      if (!/^(path|posix|os\.path|path\.posix)\.(join|resolve)$/.test(fn)) return UNKNOWN;
      const args = node.childForFieldName("arguments")?.namedChildren ?? [];
      const parts: string[] = [];
      for (const a of args) {
        const v = evaluate(a, consts, depth + 1);
        if (v === UNKNOWN) return UNKNOWN;
        parts.push(v);
      }
      return joinParts(parts);
    }
    default:
      return UNKNOWN;
  }
}

function joinParts(parts: string[]): string {
  const joined = parts.filter((p) => p.length > 0).join("/").replace(/\/+/g, "/");
  return joined.startsWith(".") || joined.startsWith("/") ? joined : `./${joined}`;
}

/**
 * The parts of an interpolating string: the raw text between its `kind` children (`open` and
 * `close` characters of quoting left out at the ends) and each child's value.
 */
function interpolated(node: Parser.SyntaxNode, kind: string, open: number, close: number, consts: Map<string, string>): Value[] {
  const parts: Value[] = [];
  const text = node.text;
  let at = open;
  for (const c of node.namedChildren) {
    if (c.type !== kind) continue;
    parts.push(text.slice(at, c.startIndex - node.startIndex));
    const inner = c.namedChildren[0];
    parts.push(inner ? evaluate(inner, consts) : UNKNOWN);
    at = c.endIndex - node.startIndex;
  }
  parts.push(text.slice(at, text.length - close));
  return parts;
}

/** A template literal or f-string as a pattern: static parts kept, unknown substitutions `*`. */
function templatePattern(node: Parser.SyntaxNode, consts: Map<string, string>): { value?: string; pattern?: string } | undefined {
  let parts: Value[] | undefined;
  if (node.type === "template_string") {
    parts = interpolated(node, "template_substitution", 1, 1, consts);
  } else if (node.type === "string" && /^[fF]/.test(node.text)) {
    const m = /^[fFrR]*("""|'''|"|')/.exec(node.text);
    parts = interpolated(node, "interpolation", m ? m[0].length : 1, m ? (m[1] as string).length : 1, consts);
  }
  if (!parts) return undefined;
  if (parts.every((p) => p !== UNKNOWN)) return { value: parts.join("") };
  return { pattern: parts.map((p) => (p === UNKNOWN ? "*" : p)).join("") };
}

/** A dependency computed from an expression: a literal, a constant expression, or a pattern. */
function dynamicDep(node: Parser.SyntaxNode, consts: Map<string, string>): { spec?: string; pattern?: string } {
  const t = templatePattern(node, consts);
  if (t) return t.value !== undefined ? { spec: t.value } : { pattern: t.pattern };
  const v = evaluate(node, consts);
  if (v !== UNKNOWN) return { spec: v };
  // `"./pages/" + page`: the static parts kept, the rest `*`, when something is static.
  const p = concatPattern(node, consts);
  return p !== undefined && p.replace(/\*/g, "") !== "" ? { pattern: p } : {};
}

function concatPattern(node: Parser.SyntaxNode, consts: Map<string, string>, depth = 0): string | undefined {
  if ((node.type !== "binary_expression" && node.type !== "binary_operator") || depth > 16) return undefined;
  if (node.childForFieldName("operator")?.text !== "+") return undefined;
  const part = (n: Parser.SyntaxNode | null): string => {
    if (!n) return "*";
    const v = evaluate(n, consts);
    if (v !== UNKNOWN) return v;
    const t = templatePattern(n, consts);
    if (t) return t.value ?? t.pattern ?? "*";
    return concatPattern(n, consts, depth + 1) ?? "*";
  };
  return `${part(node.childForFieldName("left"))}${part(node.childForFieldName("right"))}`.replace(/\*+/g, "*");
}

const clip = (s: string): string => (s.length > 120 ? `${clipText(s, 117)}...` : s).replace(/\s+/g, " ");

const JS_FAMILY = new Set<LanguageId>(["javascript", "typescript", "tsx"]);

/**
 * `import` and `export` where a statement of interest may start. The grammars' rules: an import
 * statement never has `(` or `.` after its keyword (those are `import()` and `import.meta`); an
 * export statement has a `source` only as `export *`, `export {`, `export type {`. A comment in
 * between (`/`) keeps the word a candidate; the tree decides.
 */
const KEYWORD = /\b(?:import(?!\s*[(.])|export(?=\s*[*{t/]))\b/g;

const STATEMENTS = ["import_statement", "export_statement"];

/**
 * The import and export statements of a tree that may hold a dependency, in document order: all
 * those `descendantsOfType(["import_statement", "export_statement"])` gives that jsDeps reads
 * anything from. That walk of every node was ~6% of extraction; a tree without errors is reached
 * from its text instead. There each statement was built by its grammar rule, which starts with the
 * `import`/`export` keyword as a direct child (the grammars alias nothing to these types), so the
 * node under each occurrence of the word (KEYWORD) finds them. In a tree with errors a statement
 * may have its keyword MISSING or inside an ERROR node: the whole tree is walked, as before.
 */
function importExportStatements(root: Parser.SyntaxNode, text: string): Parser.SyntaxNode[] {
  if (root.hasError) return root.descendantsOfType(STATEMENTS);
  const out: Parser.SyntaxNode[] = [];
  for (const m of text.matchAll(KEYWORD)) {
    const at = m.index as number;
    const word = m[0] as string;
    const kw = root.descendantForIndex(at, at + word.length);
    if (kw.type !== word) continue;
    const stmt = kw.parent;
    if (stmt && stmt.type === (word === "import" ? "import_statement" : "export_statement")) out.push(stmt);
  }
  return out;
}

/**
 * TypeScript/JavaScript without a query pass: the import/export statements by node type, and
 * require(...)/import(...) from where the text spells them (a query's `#eq? @fn "require"` is
 * checked in JavaScript after a match object is built for every call with an identifier callee:
 * 4.6 s and 200 MB of heap on a 4 MB bundle). Same dependencies as javascript/deps.scm describes.
 */
function jsDeps(tree: Parser.Tree, text: string): ExtractedDep[] {
  const found: { at: number; dep: ExtractedDep }[] = [];
  const root = tree.rootNode;
  const consts = new Map<string, string>();
  let constsRead = false;
  const readConsts = (): void => {
    if (constsRead) return;
    constsRead = true;
    for (const decl of root.namedChildren) {
      if (decl.type !== "lexical_declaration") continue;
      for (const v of decl.namedChildren) {
        if (v.type !== "variable_declarator") continue;
        const name = v.childForFieldName("name");
        const value = v.childForFieldName("value");
        if (!name || name.type !== "identifier" || !value || (value.type !== "string" && value.type !== "template_string")) continue;
        const lit = literal(value) ?? templatePattern(value, consts)?.value;
        if (lit !== undefined && !consts.has(name.text)) consts.set(name.text, lit);
      }
    }
  };
  for (const stmt of importExportStatements(root, text)) {
    const src = stmt.childForFieldName("source");
    if (src && src.type === "string") {
      const spec = literal(src);
      if (spec === undefined) continue;
      const typeOnly = /^(import|export)\s+type\b/.test(stmt.text);
      found.push({ at: stmt.startIndex, dep: { kind: "import", form: "static", spec, text: src.text, line: src.startPosition.row + 1, ...(typeOnly ? { typeOnly } : {}) } });
      continue;
    }
    // `import x = require("m")`. Never under an export statement: a node's children are those of
    // its grammar rule (and ERROR nodes), and no export rule has this clause.
    if (stmt.type === "export_statement") continue;
    const clause = stmt.namedChildren.find((c) => c.type === "import_require_clause");
    const req = clause?.childForFieldName("source");
    if (req && req.type === "string") {
      readConsts();
      found.push({ at: stmt.startIndex, dep: { kind: "require", form: "require", text: clip(req.text), line: req.startPosition.row + 1, ...dynamicDep(req, consts) } });
    }
  }
  for (const m of text.matchAll(/\b(require|import)\s*\(/g)) {
    const callee = root.namedDescendantForIndex(m.index as number, (m.index as number) + (m[1] as string).length);
    const call = callee.parent;
    if (!call || call.type !== "call_expression" || call.childForFieldName("function")?.startIndex !== callee.startIndex) continue;
    if (m[1] === "require" ? callee.type !== "identifier" || callee.text !== "require" : callee.type !== "import") continue;
    // (A comment before it is no argument: kysely's `import(/* webpackIgnore: true */ filePath)`.)
    const arg = call.childForFieldName("arguments")?.namedChildren.find((c) => c.type !== "comment");
    if (!arg) continue;
    readConsts();
    const line = arg.startPosition.row + 1;
    found.push({ at: call.startIndex, dep: { kind: m[1] === "require" ? "require" : "import", form: m[1] === "require" ? "require" : "dynamic", text: clip(arg.text), line, ...dynamicDep(arg, consts) } });
  }
  return found.sort((x, y) => x.at - y.at).map((f) => f.dep);
}

/**
 * The file's dependencies, in source order. `given`: the deps.scm matches extraction's query
 * already made (extract.ts DEPS_IN_QUERY), instead of a pass of this module's own.
 */
export function extractDeps(language: LanguageId, tree: Parser.Tree, text?: string, given?: DepMatch[]): ExtractedDep[] {
  if (text !== undefined && JS_FAMILY.has(language)) return jsDeps(tree, text);
  const matches: Parser.QueryMatch[] = given
    ? given.map((m) => ({ pattern: m.pattern, captures: m.captures.map((c) => ({ name: c.name, node: c.node instanceof CapturedNode ? c.node.syntaxNode() : c.node })) }))
    : depsQuery(language).matches(tree.rootNode);
  const consts = new Map<string, string>();
  // Constants first: a concatenation may use one declared below its use (hoisted module scope).
  for (const m of matches) {
    const name = m.captures.find((c) => c.name === "dep.const_name")?.node;
    const value = m.captures.find((c) => c.name === "dep.const")?.node;
    if (!name || !value) continue;
    const lit = literal(value) ?? templatePattern(value, consts)?.value;
    if (lit !== undefined && !consts.has(name.text)) consts.set(name.text, lit);
  }
  const out: ExtractedDep[] = [];
  const byPython = new Map<number, ExtractedDep>();
  for (const m of matches) {
    const stmt = m.captures.find((c) => c.name === "dep")?.node;
    for (const c of m.captures) {
      const n = c.node;
      const line = n.startPosition.row + 1;
      switch (c.name) {
        case "dep.static": {
          const spec = literal(n);
          if (spec === undefined) break;
          const typeOnly = stmt !== undefined && /^(import|export)\s+type\b/.test(stmt.text);
          out.push({ kind: "import", form: "static", spec, text: n.text, line, ...(typeOnly ? { typeOnly } : {}) });
          break;
        }
        case "dep.path":
          out.push({ kind: "import", form: "path", text: clip(n.text), line, ...dynamicDep(n, consts) });
          break;
        case "dep.require":
        case "dep.dynamic": {
          // The first argument past comments (`import(/* webpackIgnore: true */ filePath)`), as jsDeps.
          let arg: Parser.SyntaxNode | null = n;
          while (arg?.type === "comment") arg = arg.nextNamedSibling;
          if (!arg) break;
          out.push({ kind: c.name === "dep.require" ? "require" : "import", form: c.name.slice(4), text: clip(arg.text), line: arg.startPosition.row + 1, ...dynamicDep(arg, consts) });
          break;
        }
        case "dep.module": {
          // One dependency per statement node: `from a import b, c` matches once per name.
          const key = stmt ? stmt.startIndex : n.startIndex;
          let d = byPython.get(key);
          const names = m.captures.filter((x) => x.name === "dep.name").map((x) => x.node.text);
          const isFrom = stmt?.type === "import_from_statement";
          if (!d || !isFrom) {
            d = { kind: "import", form: isFrom ? "from" : "module", spec: n.text.replace(/\s+/g, ""), text: n.text, line };
            out.push(d);
            byPython.set(key, d);
          }
          if (names.length > 0) d.names = [...(d.names ?? []), ...names];
          break;
        }
        case "dep.mod": {
          let pathAttr: string | undefined;
          for (let p = stmt?.previousNamedSibling; p && p.type === "attribute_item"; p = p.previousNamedSibling) {
            const a = /path\s*=\s*"([^"]*)"/.exec(p.text);
            if (a) pathAttr = a[1];
          }
          out.push({ kind: "import", form: "mod", spec: n.text, text: n.text, line, ...(pathAttr !== undefined ? { pathAttr } : {}) });
          break;
        }
        case "dep.use":
          out.push({ kind: "import", form: "use", spec: n.text.replace(/\s+as\s+\w+/g, "").replace(/\s+/g, ""), text: clip(n.text), line });
          break;
        case "dep.include":
        case "dep.system": {
          const spec = literal(n);
          if (spec !== undefined) out.push({ kind: "include", form: c.name.slice(4), spec, text: n.text, line });
          break;
        }
        case "dep.java": {
          const t = /^import\s+(static\s+)?([\w.]+(?:\.\*)?)\s*;/.exec(n.text.replace(/\s+/g, " ").replace(/\s*\.\s*/g, "."));
          if (t) out.push({ kind: "import", form: t[1] ? "java_static" : "java", spec: t[2] as string, text: clip(n.text), line });
          break;
        }
        case "dep.package":
          out.push({ kind: "import", form: "package", spec: n.text.replace(/\s+/g, ""), text: n.text, line });
          break;
        default:
          break;
      }
    }
  }
  return out;
}
