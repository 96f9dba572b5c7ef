/**
 * Compiling a tree-sitter query for one grammar, and turning a failed compile into an error
 * an agent can act on: which kind of fault, where in the query text, and what the grammar
 * offers instead (closest node types or fields, by edit distance over node-types.json).
 */
import { closest, distance } from "fastest-levenshtein";
import type Parser from "tree-sitter";
import { loadTreeSitter } from "../../lang/tree-sitter-module.js";
import { EXIT, ToolError } from "../../contract/errors.js";
import type { Span } from "../../contract/schema.js";
import { LineIndex } from "../../text/lines.js";
import { makeSpan } from "../../text/span.js";
import { grammar, LANGUAGES, languageInfo, type LanguageId } from "../../lang/registry.js";
import { CODES, code } from "./codes.js";
import { precheckQuery } from "./precheck.js";
import { queryNeeds, requiredTokens } from "./prefilter.js";
import { rustRegexQuery } from "./rust-regex.js";

/** Where the query text came from, for the span of a fault: `<query>` or the --query-file path. */
export interface QuerySource {
  text: string;
  origin: string;
}

interface NodeTypeEntry {
  type: string;
  named: boolean;
  fields?: Record<string, { multiple?: boolean; types: { type: string; named: boolean }[] }>;
  children?: { types: { type: string; named: boolean }[] };
  subtypes?: { type: string; named: boolean }[];
}

interface GrammarVocabulary {
  named: string[];
  anonymous: string[];
  fields: string[];
  byType: Map<string, NodeTypeEntry>;
}

const vocabularies = new Map<LanguageId, GrammarVocabulary>();

/** The grammar's node types and fields, from its node-types.json (Language.nodeTypeInfo). */
export function vocabulary(id: LanguageId): GrammarVocabulary {
  let v = vocabularies.get(id);
  if (!v) {
    const info = (grammar(id) as unknown as { nodeTypeInfo: NodeTypeEntry[] }).nodeTypeInfo;
    const named = new Set<string>();
    const anonymous = new Set<string>();
    const fields = new Set<string>();
    const byType = new Map<string, NodeTypeEntry>();
    const add = (t: { type: string; named: boolean }): void => {
      (t.named ? named : anonymous).add(t.type);
    };
    for (const entry of info) {
      add(entry);
      if (entry.named) byType.set(entry.type, entry);
      for (const [f, spec] of Object.entries(entry.fields ?? {})) {
        fields.add(f);
        spec.types.forEach(add);
      }
      entry.children?.types.forEach(add);
      entry.subtypes?.forEach(add);
    }
    v = { named: [...named].sort(), anonymous: [...anonymous].sort(), fields: [...fields].sort(), byType };
    vocabularies.set(id, v);
  }
  return v;
}

const anonymousSets = new Map<LanguageId, ReadonlySet<string>>();

function anonymousTypes(id: LanguageId): ReadonlySet<string> {
  let s = anonymousSets.get(id);
  if (!s) {
    s = new Set(vocabulary(id).anonymous);
    anonymousSets.set(id, s);
  }
  return s;
}

/** The words of a grammar name: `call_expression` -> call, expression. */
function nameWords(name: string): string[] {
  return name.split(/[_\-.]+/).filter((w) => w.length > 0);
}

/**
 * Up to `n` candidates nearest to `word`, near enough to be useful: a near-typo first (edit
 * distance at most 2, first letter kept), then the names that share a word with it, those holding its first word
 * ahead (`call` -> call_expression, `if_expression` -> if_statement, `use` -> use_declaration:
 * the same construct under another grammar's name, which edit distance alone ranks behind
 * `crate`, `label` or `call_expression`), then the rest by edit distance.
 */
export function nearest(word: string, candidates: string[], n = 3): string[] {
  if (candidates.length === 0) return [];
  // Edit distance, favouring candidates that contain the word's letters in order
  // (`arrow_fn` -> `arrow_function`), which is how names get abbreviated.
  const subsequence = (c: string): boolean => {
    let k = 0;
    for (let i = 0; i < c.length && k < word.length; i++) if (c[i] === word[k]) k++;
    return k === word.length;
  };
  const all = nameWords(word);
  const words = all.filter((w) => w.length >= 2);
  const head = all[0];
  const scored = candidates.map((c) => {
    const raw = distance(word, c);
    const cw = nameWords(c);
    const shared = words.filter((w) => cw.includes(w)).length;
    return {
      c,
      raw,
      d: raw - (subsequence(c) ? word.length / 2 : 0),
      // A typo keeps the first letter and, in a short word, changes one letter at most.
      typo: c[0] === word[0] && raw <= (word.length >= 5 ? 2 : 1),
      head: head !== undefined && head.length >= 2 && cw.includes(head),
      shared,
      extra: cw.length - shared,
    };
  });
  scored.sort(
    (a, b) =>
      Number(b.typo) - Number(a.typo) ||
      Number(b.head) - Number(a.head) ||
      b.shared - a.shared ||
      (a.shared > 0 ? a.extra - b.extra : 0) ||
      a.d - b.d ||
      (a.c < b.c ? -1 : 1),
  );
  const limit = Math.max(3, Math.ceil(word.length * 0.6));
  const good = scored.filter((s) => s.typo || s.shared > 0 || s.d <= limit).slice(0, n).map((s) => s.c);
  return good.length > 0 ? good : [closest(word, candidates)];
}

const FAULTS = {
  TSQueryErrorSyntax: { num: CODES.query_syntax, error: "query_syntax" },
  TSQueryErrorNodeType: { num: CODES.query_node_type, error: "query_unknown_node_type" },
  TSQueryErrorField: { num: CODES.query_field, error: "query_unknown_field" },
  TSQueryErrorCapture: { num: CODES.query_capture, error: "query_unknown_capture" },
  TSQueryErrorStructure: { num: CODES.query_structure, error: "query_impossible_structure" },
} as const;

const NAME_CHAR = /[A-Za-z0-9_\-.?!]/;

/** The token starting at byte `at` of the query: a quoted string, `@capture`, or a name. */
function tokenAt(bytes: Buffer, at: number): { start: number; end: number; text: string } {
  const text = bytes.toString("utf8");
  // Byte offsets and string indices differ only past non-ASCII text; map through a prefix.
  const idx = Buffer.from(bytes.subarray(0, at)).toString("utf8").length;
  let i = idx;
  let j = idx;
  if (text[i - 1] === '"' && text[i] !== '"') i -= 1;
  if (text[i] === '"') {
    j = i + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
    j = Math.min(j + 1, text.length);
  } else {
    if (text[i - 1] === "@") i -= 1;
    if (text[j] === "@" || text[j] === "(" || text[j] === "#") j++;
    while (j < text.length && NAME_CHAR.test(text[j] as string)) j++;
    if (j === i && j < text.length) j++;
  }
  const start = Buffer.byteLength(text.slice(0, i));
  const end = Buffer.byteLength(text.slice(0, j));
  return { start, end, text: text.slice(i, j) };
}

/** The node type of the innermost `(` still open at byte `at`, for field suggestions. */
function enclosingType(text: string, atIdx: number): string | undefined {
  let depth = 0;
  for (let i = atIdx - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ")" || c === "]") depth++;
    else if (c === "(" || c === "[") {
      if (depth === 0) {
        if (c === "[") return undefined;
        const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i + 1));
        return m?.[1];
      }
      depth--;
    }
  }
  return undefined;
}

function spanIn(source: QuerySource, start: number, end: number): Span {
  const bytes = Buffer.from(source.text, "utf8");
  const s = Math.min(start, bytes.length);
  return makeSpan(source.origin, s, Math.max(s, Math.min(end, bytes.length)), new LineIndex(bytes));
}

/** Capture names written in the query text (outside strings and comments), in order. */
export function captureNames(text: string): string[] {
  const names: string[] = [];
  const re = /"(?:[^"\\]|\\.)*"|;[^\n]*|@([A-Za-z0-9_\-.]+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) if (m[1] !== undefined && !names.includes(m[1])) names.push(m[1]);
  return names;
}

/** Other languages of the registry whose grammar knows this node type. */
function languagesWithType(type: string, named: boolean, except: LanguageId): string[] {
  return LANGUAGES.filter((l) => l.id !== except && (named ? vocabulary(l.id).named : vocabulary(l.id).anonymous).includes(type)).map((l) => l.id);
}

function describeType(v: GrammarVocabulary, type: string): string {
  const e = v.byType.get(type);
  if (!e) return "";
  const fields = Object.keys(e.fields ?? {});
  const kids = (e.children?.types ?? []).filter((t) => t.named).map((t) => t.type);
  const parts: string[] = [];
  if (fields.length) parts.push(`fields: ${fields.join(", ")}`);
  if (kids.length) parts.push(`children: ${kids.slice(0, 12).join(", ")}${kids.length > 12 ? ", ..." : ""}`);
  return parts.length ? `'${type}' has ${parts.join("; ")}` : `'${type}' has no fields and no named children`;
}

/** Turns the binding's "Query error of type X at position N" into a located ToolError. */
export function classifyQueryError(id: LanguageId, source: QuerySource, err: Error): ToolError {
  const lang = languageInfo(id);
  const bytes = Buffer.from(source.text, "utf8");
  const m = /Query error of type (\w+) at position (\d+)/.exec(err.message);
  if (!m) return predicateError(id, source, err);
  const kind = m[1] as keyof typeof FAULTS;
  const at = Number(m[2]);
  const fault = FAULTS[kind] ?? FAULTS.TSQueryErrorSyntax;
  const tok = tokenAt(bytes, at);
  const v = vocabulary(id);
  const where = `at ${source.origin}:${spanIn(source, tok.start, tok.end).start_line}:${spanIn(source, tok.start, tok.end).start_col}`;
  let message: string;
  let remediation: string;
  switch (kind) {
    case "TSQueryErrorNodeType": {
      const quoted = tok.text.startsWith('"');
      const name = quoted ? tok.text.slice(1, -1) : tok.text.replace(/^\(/, "");
      const near = nearest(name, quoted ? v.anonymous : v.named, 5);
      const elsewhere = languagesWithType(name, !quoted, id);
      message = `${lang.name} grammar has no ${quoted ? "anonymous token" : "node type"} '${name}' (${where})`;
      remediation = `Closest ${lang.name} node types: ${near.join(", ")}.${elsewhere.length ? ` '${name}' exists in: ${elsewhere.join(", ")} — pass --language or a --glob for those files.` : ""} List a file's real node kinds with 'magellan ast --file <f>'.`;
      break;
    }
    case "TSQueryErrorField": {
      const name = tok.text.replace(/:$/, "");
      const textIdx = Buffer.from(bytes.subarray(0, at)).toString("utf8").length;
      const parent = enclosingType(source.text, textIdx);
      const parentFields = parent ? Object.keys(v.byType.get(parent)?.fields ?? {}) : [];
      const near = nearest(name, parentFields.length ? parentFields : v.fields);
      message = `${lang.name} grammar has no field '${name}' (${where})`;
      remediation = parent && parentFields.length
        ? `Fields of '${parent}': ${parentFields.join(", ")}; closest: ${near.join(", ")}.`
        : `Closest ${lang.name} fields: ${near.join(", ")}.`;
      break;
    }
    case "TSQueryErrorCapture": {
      const defined = captureNames(source.text).filter((c) => c !== tok.text.replace(/^@/, ""));
      message = `capture '${tok.text.startsWith("@") ? tok.text : `@${tok.text}`}' is used in a predicate but not defined by the pattern (${where})`;
      remediation = defined.length
        ? `Use a capture the pattern defines: ${defined.map((c) => `@${c}`).join(", ")}; closest: @${nearest(tok.text.replace(/^@/, ""), defined, 1)[0] ?? ""}.`
        : "Capture a node in the pattern first, e.g. ((identifier) @name (#eq? @name \"main\")).";
      break;
    }
    case "TSQueryErrorStructure": {
      const textIdx = Buffer.from(bytes.subarray(0, at)).toString("utf8").length;
      const parent = enclosingType(source.text, textIdx);
      message = `pattern can never match in the ${lang.name} grammar: '${tok.text.replace(/^\(/, "")}' cannot appear there${parent ? ` inside '${parent}'` : ""} (${where})`;
      remediation = `${parent ? `${describeType(v, parent)}. ` : ""}Check the nesting against a real tree: 'magellan ast --file <f>'.`;
      break;
    }
    default: {
      const atEnd = at >= bytes.length;
      message = `query syntax error ${atEnd ? "at the end of the query (unclosed parenthesis or bracket?)" : `near '${tok.text}'`} (${where})`;
      remediation = atEnd
        ? "Close every '(' and '['; a pattern looks like (function_item name: (identifier) @name)."
        : "A pattern is (node_type field: (child) @capture), strings are \"quoted\", predicates are (#eq? @capture \"text\").";
    }
  }
  return new ToolError({
    code: code(fault.num),
    error: fault.error,
    message,
    remediation,
    file: source.origin,
    span: spanIn(source, tok.start, tok.end),
    exitCode: EXIT.failure,
  });
}

/**
 * Where a bad regex of a #match? family predicate is written: the byte range of its string (quotes
 * included) whose text, unescaped as the query reads it, is `regex`; else the first such string.
 */
function regexString(text: string, regex: string): [number, number] | undefined {
  const re = /\(#(?:any-)?(?:not-)?match\?\s+@[\w\-.]+\s+("(?:[^"\\]|\\.)*")/g;
  let first: [number, number] | undefined;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const lit = m[1] as string;
    const at = m.index + m[0].length - lit.length;
    const range: [number, number] = [Buffer.byteLength(text.slice(0, at)), Buffer.byteLength(text.slice(0, at + lit.length))];
    const value = lit.slice(1, -1).replace(/\\(.)/gs, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c === "r" ? "\r" : c === "0" ? "\0" : c));
    if (value === regex) return range;
    first ??= range;
  }
  return first;
}

/** The binding checks predicates in JS and throws plain messages; locate the `#name` named. */
function predicateError(id: LanguageId, source: QuerySource, err: Error): ToolError {
  const bad = /^Invalid regular expression(?: in #[\w\-?]+)?: \/(.*)\/[a-z]*: /s.exec(err.message);
  const at = bad ? regexString(source.text, bad[1] as string) : undefined;
  if (bad && at) {
    return new ToolError({
      code: code(CODES.query_predicate),
      error: "query_predicate",
      message: `${languageInfo(id).name}: ${err.message}`,
      remediation:
        "Fix that regular expression (Rust regex syntax, as tree-sitter's: escape a literal ( [ { . * + ? | with a backslash, which the query string writes as \\\\, e.g. \"\\\\(\"), or compare the text exactly with #eq? / #any-of?.",
      file: source.origin,
      span: spanIn(source, at[0], at[1]),
      exitCode: EXIT.failure,
    });
  }
  const pm = /#([\w\-!?]+)/.exec(err.message);
  const name = pm?.[1];
  const idx = name ? source.text.indexOf(`#${name}`) : -1;
  const start = idx >= 0 ? Buffer.byteLength(source.text.slice(0, idx)) : 0;
  const end = idx >= 0 ? start + Buffer.byteLength(`#${name}`) : Buffer.byteLength(source.text);
  return new ToolError({
    code: code(CODES.query_predicate),
    error: "query_predicate",
    message: `${languageInfo(id).name}: ${err.message}`,
    remediation:
      "Supported predicates: #eq?, #not-eq?, #any-eq?, #any-not-eq?, #match?, #not-match?, #any-match?, #any-not-match?, #any-of?, #not-any-of? (first argument a @capture), plus #set!, #is?, #is-not?.",
    file: source.origin,
    span: spanIn(source, start, end),
    exitCode: EXIT.failure,
  });
}

function strayPredicate(id: LanguageId, source: QuerySource, start: number, end: number, pattern: string | undefined): ToolError {
  const text = Buffer.from(source.text, "utf8").subarray(start, end).toString("utf8").trim();
  return new ToolError({
    code: code(CODES.query_predicate),
    error: "query_predicate",
    message: `${languageInfo(id).name}: the predicate ${text} stands outside every pattern, so it would filter nothing`,
    remediation: pattern
      ? `Put it inside the parentheses of the pattern it tests, with that pattern: (${pattern} ${text}).`
      : `Put it inside the parentheses of the pattern it tests, with that pattern, as in ((identifier) @name ${text}).`,
    file: source.origin,
    span: spanIn(source, start, end),
    exitCode: EXIT.failure,
  });
}

export interface CompiledQuery {
  query: Parser.Query;
  /** Number of patterns in the query. */
  patternCount: number;
  /** Indices of patterns without any capture: their matches cannot be located, so are not reported. */
  uncaptured: number[];
  /** Per pattern, the node types its outermost node can have (undefined: any, e.g. `_`). */
  rootTypes: (Set<string> | undefined)[];
  /**
   * Set when the whole query is one kind pattern, `(kind) @c` or `[(k1) (k2)] @c`, of concrete
   * node types: every node of those kinds is a match, so a native walk for the kinds gives the
   * same matches as the query engine at a fraction of its cost.
   */
  kindsOnly?: { kinds: string[]; capture: string };
  /** Per kind of kindsOnly, a keyword every node of it holds (see fieldChildKeywords). Unset when some kind has none. */
  kindsKeywords?: string[];
  /**
   * Set when the whole query is one node with one field child of concrete types, `(A f: (B) @c)`,
   * `(A f: (B) @c) @a` or `(A f: (B)) @a`, or an alternation of such nodes of distinct types: a
   * native walk for the A types and a field lookup give the same matches as the query engine (see
   * fieldChildPattern for what keeps them equal). One entry per alternative.
   */
  fieldChild?: FieldChildPattern[];
  /**
   * Per alternative, a keyword every A node holds (prefilter.ts), to bound the number of A nodes in
   * a file by the keyword's occurrences: the walk pays for every A, the engine only for matches,
   * so the walk is taken where A nodes are sparse (see scan.ts). Unset when some A has none.
   */
  fieldChildKeywords?: string[];
  /** Tokens a file's bytes must hold for a match (see prefilter.ts); undefined: any file may match. */
  needs?: string[][];
}

/**
 * The node types a pattern's outermost node can have: `(function_item ...)` -> function_item,
 * `[(a) (b)]` -> a, b, a group `((a) @x (#eq? ...))` -> a. Undefined for wildcards and for
 * groups of siblings, where no single node stands for the match.
 */
export function patternRootTypes(pattern: string): Set<string> | undefined {
  const text = pattern.replace(/;[^\n]*/g, " ").trim();
  const out = new Set<string>();
  const firstNode = (t: string): string | undefined => {
    const s = t.trimStart();
    if (s.startsWith('"')) {
      const m = /^"((?:[^"\\]|\\.)*)"/.exec(s);
      return m?.[1];
    }
    const m = /^\(\s*([A-Za-z0-9_\-.]+)/.exec(s);
    return m?.[1];
  };
  if (text.startsWith("[")) {
    // Top-level alternatives: each starts after '[' or after a balanced sibling.
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
        if (depth === 1) {
          const name = m?.[0].slice(1, -1);
          if (name !== undefined) out.add(name);
        }
        i += (m?.[0].length ?? 1) - 1;
        continue;
      }
      if (c === "(" || c === "[") {
        if (depth === 1 && c === "(") {
          const name = firstNode(text.slice(i));
          if (name === undefined || name === "_") return undefined;
          out.add(name);
        }
        depth++;
      } else if (c === ")" || c === "]") depth--;
    }
    return out.size ? out : undefined;
  }
  if (/^\(\s*\(/.test(text) || /^\(\s*\[/.test(text)) {
    // A group: one root only when it holds one node pattern (plus predicates).
    const inner = text.replace(/^\(\s*/, "");
    let depth = 0;
    let nodes = 0;
    for (let i = 0; i < inner.length; i++) {
      const c = inner[i];
      if (c === '"') {
        const m = /^"(?:[^"\\]|\\.)*"/.exec(inner.slice(i));
        i += (m?.[0].length ?? 1) - 1;
        continue;
      }
      if (c === "(" || c === "[") {
        if (depth === 0 && inner[i + 1] !== "#") nodes++;
        depth++;
      } else if (c === ")" || c === "]") depth--;
      if (depth < 0) break;
    }
    return nodes === 1 ? patternRootTypes(inner) : undefined;
  }
  const name = firstNode(text);
  if (name === undefined || name === "_") return undefined;
  return new Set([name]);
}

const compiled = new Map<string, CompiledQuery>();

/*
 * node-tree-sitter 0.25 tells a failed compile from a good one by `error_offset > 0`: a query
 * whose fault is at byte 0 (`"abc`, `foo`, `)`, `@x`, `#eq?`, `.` ...) was taken for compiled and
 * its NULL TSQuery dereferenced, a SIGSEGV. tree-sitter skips leading whitespace before the first
 * pattern, so one leading space moves every fault to offset >= 1 and changes nothing else; the
 * offsets the binding reports are shifted back by it.
 */
const LEAD = " ";

function unshift(e: Error): Error {
  if (!(e instanceof Error)) return new Error(String(e));
  const m = /at position (\d+)/.exec(e.message);
  if (!m) return e;
  return new Error(e.message.replace(m[0], `at position ${Math.max(0, Number(m[1]) - LEAD.length)}`));
}

let queryClass: typeof Parser.Query | undefined;

/** Compiles (cached per language and text); throws a located ToolError when it does not compile. */
export function compileQuery(id: LanguageId, source: QuerySource): CompiledQuery {
  const key = `${id}\0${source.text}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const refusal = precheckQuery(source.text);
  if (refusal) {
    throw new ToolError({
      code: code(CODES.query_syntax),
      error: "query_syntax",
      message: `query syntax error: ${refusal.message} (at ${source.origin}:${spanIn(source, refusal.byteOffset, refusal.byteOffset).start_line}:${spanIn(source, refusal.byteOffset, refusal.byteOffset).start_col})`,
      remediation: refusal.remediation,
      file: source.origin,
      span: spanIn(source, refusal.byteOffset, refusal.byteOffset + 1),
      exitCode: EXIT.failure,
    });
  }
  let query: Parser.Query;
  // Loading the runtime or the grammar can fail too (an add-on never built): not the query's fault.
  queryClass ??= rustRegexQuery(loadTreeSitter().Query);
  const language = grammar(id) as Parser.Language;
  try {
    query = new queryClass(language, LEAD + source.text);
  } catch (e) {
    throw classifyQueryError(id, source, unshift(e as Error));
  }
  // The binding keeps one predicate list per pattern: its length is the pattern count.
  const patternCount = (query as unknown as { predicates: unknown[] }).predicates.length;
  const bytes = Buffer.from(LEAD + source.text, "utf8");
  const uncaptured: number[] = [];
  for (let p = 0; p < patternCount; p++) {
    const s = query.startIndexForPattern(p);
    const e = query.endIndexForPattern(p);
    const text = bytes.subarray(s, e).toString("utf8");
    // tree-sitter takes a predicate written after a pattern's closing parenthesis as a pattern
    // of its own, with no node: it filters nothing and matches everywhere, empty. Refused, not
    // answered with every match of the pattern before it.
    if (/^\s*\(\s*#/.test(text)) {
      const before = p > 0 ? bytes.subarray(query.startIndexForPattern(p - 1), query.endIndexForPattern(p - 1)).toString("utf8").trim() : undefined;
      throw strayPredicate(id, source, s - LEAD.length + (text.length - text.trimStart().length), e - LEAD.length, before);
    }
    if (captureNames(text).length === 0) uncaptured.push(p);
  }
  const rootTypes: (Set<string> | undefined)[] = [];
  for (let p = 0; p < patternCount; p++) {
    rootTypes.push(patternRootTypes(bytes.subarray(query.startIndexForPattern(p), query.endIndexForPattern(p)).toString("utf8")));
  }
  const out: CompiledQuery = { query, patternCount, uncaptured, rootTypes };
  const kindsOnly = patternCount === 1 ? kindPattern(source.text, vocabulary(id)) : undefined;
  if (kindsOnly) {
    out.kindsOnly = kindsOnly;
    const keywords = keywordsOf(id, kindsOnly.kinds);
    if (keywords) out.kindsKeywords = keywords;
  }
  const fieldChild = patternCount === 1 ? fieldChildPattern(source.text, vocabulary(id)) : undefined;
  if (fieldChild) {
    out.fieldChild = fieldChild;
    const keywords = keywordsOf(id, fieldChild.map((p) => p.parent));
    if (keywords) out.fieldChildKeywords = keywords;
  }
  const raw = (query as unknown as { _getPredicates(): (number | string)[][][] })._getPredicates();
  const facts = rootTypes.map((types, p) => ({
    text: bytes.subarray(query.startIndexForPattern(p), query.endIndexForPattern(p)).toString("utf8"),
    rootTypes: types,
    predicates: raw[p] ?? [],
  }));
  const needs = queryNeeds(id, facts, anonymousTypes(id));
  if (needs) out.needs = needs;
  compiled.set(key, out);
  return out;
}

/** Per node type, the longest keyword its rule requires (the rarest, likely); undefined when one has none. */
function keywordsOf(id: LanguageId, types: string[]): string[] | undefined {
  const keywords = types.map((t) => requiredTokens(id, t).sort((a, b) => b.length - a.length)[0]);
  return keywords.every((k) => k !== undefined) ? (keywords as string[]) : undefined;
}

function kindPattern(text: string, v: GrammarVocabulary): { kinds: string[]; capture: string } | undefined {
  const t = text.replace(/;[^\n]*/g, " ").trim();
  const single = /^\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)\s*@([A-Za-z0-9_\-.]+)$/.exec(t);
  const alt = /^\[((?:\s*\(\s*[A-Za-z_][A-Za-z0-9_]*\s*\))+)\s*\]\s*@([A-Za-z0-9_\-.]+)$/.exec(t);
  let kinds: string[];
  let capture: string;
  if (single) {
    kinds = [single[1] as string];
    capture = single[2] as string;
  } else if (alt) {
    kinds = [...(alt[1] as string).matchAll(/\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/g)].map((m) => m[1] as string);
    capture = alt[2] as string;
  } else return undefined;
  // Supertypes (`declaration`) and hidden rules match their subtypes in a query, not in a walk.
  // A walk for a type name also finds the anonymous tokens of that text (`class` is a keyword and
  // a class expression), which `(class)` does not match.
  if (!kinds.every((k) => v.byType.has(k) && !v.byType.get(k)?.subtypes && !k.startsWith("_") && !v.anonymous.includes(k))) return undefined;
  return { kinds: [...new Set(kinds)], capture };
}

export interface FieldChildPattern {
  parent: string;
  field: string;
  child: string;
  /** Capture on the parent node (`@a` after the pattern), if any. */
  parentCapture?: string;
  /** Capture on the field child, if any. */
  childCapture?: string;
}

const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const CAPTURE = "@([A-Za-z0-9_\\-.]+)";
const FIELD_NODE = `\\(\\s*(${NAME})\\s+(${NAME})\\s*:\\s*\\(\\s*(${NAME})\\s*\\)\\s*(?:${CAPTURE})?\\s*\\)\\s*(?:${CAPTURE})?`;
const FIELD_CHILD = new RegExp(`^${FIELD_NODE}$`);

/**
 * `(A f: (B) @c)`, `(A f: (B) @c) @a`, `(A f: (B)) @a`: one node, one field child, nothing else (no
 * predicate, quantifier, anchor or negated field), A and B concrete named types by the rules
 * kindPattern uses; or `[...]` of such nodes, each captured, of distinct A types and nothing
 * captured on the whole (each B then has one possible A, so each finishes one match). A walk by
 * name also finds anonymous nodes of that name (`string` the keyword beside `string` the literal):
 * fieldChildMatches keeps named ones only.
 *
 * The field must hold at most one node of A (node-types.json `multiple: false`). Where it holds
 * several, the engine stops at a field child that its production cannot follow with another of that
 * field, which a field on a hidden rule of several nodes makes of every one: C++'s
 * `requires ( A<T> )` gives `(`, `template_function` and `)` the field `constraint`, and
 * `(requires_clause constraint: (template_function) @c)` matches nothing, while childrenForFieldName
 * returns all three. No binding call tells the two kinds of several apart. (A single-node field on
 * a hidden rule could hide a comment the same way; in the nine grammars the only such fields are
 * Python's block bodies, whose other part is the zero-width indent token just before the block.)
 *
 * B may not be a wildcard or a comment: the engine looks a field up with
 * ts_tree_cursor_current_status, which hands a hidden wrapper's field on to an extra (a comment)
 * inside it, while childrenForFieldName (ts_tree_cursor_current_field_id) stops at an extra, so
 * `(_)` or `(comment)` there could match a node no native field lookup returns.
 */
function fieldChildPattern(text: string, v: GrammarVocabulary): FieldChildPattern[] | undefined {
  const t = text.replace(/;[^\n]*/g, " ").trim();
  const nodes: RegExpExecArray[] = [];
  if (t.startsWith("[") && t.endsWith("]")) {
    const inner = t.slice(1, -1);
    const next = new RegExp(`\\s*${FIELD_NODE}\\s*`, "y");
    while (next.lastIndex < inner.length) {
      const m = next.exec(inner);
      if (!m) return undefined;
      nodes.push(m);
    }
  } else {
    const m = FIELD_CHILD.exec(t);
    if (m) nodes.push(m);
  }
  if (nodes.length === 0) return undefined;
  const out: FieldChildPattern[] = [];
  for (const m of nodes) {
    const p = fieldNode(m, v);
    if (!p || out.some((o) => o.parent === p.parent)) return undefined;
    out.push(p);
  }
  return out;
}

function fieldNode(m: RegExpExecArray, v: GrammarVocabulary): FieldChildPattern | undefined {
  const [, parent, field, child, childCapture, parentCapture] = m as unknown as [string, string, string, string, string | undefined, string | undefined];
  if (childCapture === undefined && parentCapture === undefined) return undefined;
  const concrete = (k: string): boolean => v.byType.has(k) && !v.byType.get(k)?.subtypes && !k.startsWith("_");
  if (!concrete(parent) || !concrete(child)) return undefined;
  if (v.byType.get(parent)?.fields?.[field]?.multiple !== false) return undefined;
  if (/comment/.test(child) || (v.byType.get(child) as { extra?: boolean } | undefined)?.extra) return undefined;
  const out: FieldChildPattern = { parent, field, child };
  if (parentCapture !== undefined) out.parentCapture = parentCapture;
  if (childCapture !== undefined) out.childCapture = childCapture;
  return out;
}

/** A query without a single capture reports nothing; that is a mistake worth an error. */
export function requireCaptures(source: QuerySource, c: CompiledQuery): void {
  if (c.uncaptured.length === c.patternCount) {
    throw new ToolError({
      code: code(CODES.query_no_captures),
      error: "query_no_captures",
      message: "the query captures no node, so no match can be located",
      remediation: "Add a capture to the node you want back, e.g. (function_item) @match or (function_item name: (identifier) @name).",
      file: source.origin,
      span: spanIn(source, 0, Buffer.byteLength(source.text)),
      exitCode: EXIT.failure,
    });
  }
}
