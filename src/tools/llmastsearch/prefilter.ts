/**
 * Files a query cannot match in, told from their bytes without a parse. A node of a given type
 * always spans the literal tokens its grammar rule requires in every derivation: a TypeScript
 * `class_declaration` holds the keyword `class`, a Rust `function_item` holds `fn`. When a file's
 * bytes lack one of those tokens for every node type a query's patterns can start at, no pattern
 * can match in it, and parsing it (the bulk of a search's time, and of its native memory) is
 * skipped. On typeorm half the .ts files (5.3 of 10.7 MB) hold no `class` and are never parsed
 * by a class query.
 *
 * A predicate that compares a capture with a string requires that string too, and a positive
 * `#match?` its regular expression's leading literal: a search for one name,
 * `((identifier) @id (#eq? @id "Repository"))`, parses only the files that hold it.
 *
 * The required tokens come from the grammar's own grammar.json (shipped in each grammar package,
 * the same version as its compiled parser), read as an under-approximation: a sequence requires
 * the union of what its parts require, a choice the intersection, a repetition that may be empty
 * nothing. Anything this cannot read exactly (an alias target, which other rules' text may stand
 * for; anonymous nodes; strings an external scanner may produce; non-ASCII strings; a missing
 * grammar.json) requires nothing, so the file is parsed as before. Only keywords are required,
 * not punctuation: error recovery inserts a missing bracket as a zero-width MISSING node, which
 * happens in real files being edited. A missing keyword could in principle be inserted the same
 * way; tried on typical broken code, recovery never did so.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { languageInfo, type LanguageId } from "../../lang/registry.js";

interface Rule {
  type: string;
  value?: string;
  name?: string;
  named?: boolean;
  content?: Rule;
  members?: Rule[];
}

interface GrammarJson {
  rules: Record<string, Rule>;
  externals?: Rule[];
}

interface Table {
  rules: Record<string, Rule>;
  /** Strings an external scanner may produce: their text is the scanner's, not the rule's. */
  externalStrings: Set<string>;
  /** Named node types some rule aliases other text to. */
  aliasTargets: Set<string>;
  memo: Map<string, ReadonlySet<string>>;
  open: Set<string>;
}

const EMPTY: ReadonlySet<string> = new Set();
const req = createRequire(import.meta.url);
const tables = new Map<LanguageId, Table | null>();

function table(id: LanguageId): Table | undefined {
  const hit = tables.get(id);
  if (hit !== undefined) return hit ?? undefined;
  let t: Table | null = null;
  try {
    const info = languageInfo(id);
    const dir = dirname(req.resolve(`${info.grammarPackage}/package.json`));
    const g = JSON.parse(readFileSync(join(dir, info.grammarExport ?? "", "src", "grammar.json"), "utf8")) as GrammarJson;
    const aliasTargets = new Set<string>();
    const visit = (r: Rule | undefined): void => {
      if (!r) return;
      if (r.type === "ALIAS" && r.named && r.value !== undefined) aliasTargets.add(r.value);
      visit(r.content);
      r.members?.forEach(visit);
    };
    Object.values(g.rules).forEach(visit);
    const externalStrings = new Set((g.externals ?? []).filter((r) => r.type === "STRING" && r.value !== undefined).map((r) => r.value as string));
    t = { rules: g.rules, externalStrings, aliasTargets, memo: new Map(), open: new Set() };
  } catch {
    // No readable grammar.json: nothing is known to be required, every file is parsed.
    t = null;
  }
  tables.set(id, t);
  return t ?? undefined;
}

function ofRule(t: Table, r: Rule): ReadonlySet<string> {
  switch (r.type) {
    case "STRING": {
      const v = r.value ?? "";
      // Keywords only: tree-sitter's error recovery inserts missing punctuation as zero-width
      // MISSING nodes (an unclosed class at the end of a file is a class_declaration whose "}" is
      // not in the text), so a bracket or operator may be absent from a node that spans it.
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && !t.externalStrings.has(v) ? new Set([v]) : EMPTY;
    }
    case "SYMBOL":
      return ofName(t, r.name ?? "");
    case "SEQ": {
      const out = new Set<string>();
      for (const m of r.members ?? []) for (const s of ofRule(t, m)) out.add(s);
      return out;
    }
    case "CHOICE": {
      let out: Set<string> | undefined;
      for (const m of r.members ?? []) {
        const s = ofRule(t, m);
        out = out ? new Set([...out].filter((x) => s.has(x))) : new Set(s);
        if (out.size === 0) return EMPTY;
      }
      return out ?? EMPTY;
    }
    case "REPEAT1":
    case "FIELD":
    case "PREC":
    case "PREC_LEFT":
    case "PREC_RIGHT":
    case "PREC_DYNAMIC":
    case "TOKEN":
    case "IMMEDIATE_TOKEN":
    case "ALIAS":
    case "RESERVED":
      return r.content ? ofRule(t, r.content) : EMPTY;
    default:
      // BLANK, PATTERN, REPEAT (may be empty), and anything newer than this reading.
      return EMPTY;
  }
}

function ofName(t: Table, name: string): ReadonlySet<string> {
  const hit = t.memo.get(name);
  if (hit) return hit;
  const rule = t.rules[name];
  // An external token's text is the scanner's; a rule met again inside itself requires, as far
  // as this reading knows, nothing more (an under-approximation stays sound).
  if (!rule || t.open.has(name)) return EMPTY;
  t.open.add(name);
  const out = ofRule(t, rule);
  t.open.delete(name);
  t.memo.set(name, out);
  return out;
}

/** Literal tokens every node of this named type spans (empty when nothing is known). */
export function requiredTokens(id: LanguageId, nodeType: string): string[] {
  const t = table(id);
  if (!t || t.aliasTargets.has(nodeType) || !t.rules[nodeType] || nodeType.startsWith("_")) return [];
  return [...ofName(t, nodeType)].sort();
}

/** One compiled pattern, as the prefilter reads it. */
export interface PatternFacts {
  /** The pattern's text (its slice of the query). */
  text: string;
  /** Node types its outermost node can have (undefined: any). */
  rootTypes: ReadonlySet<string> | undefined;
  /** The binding's raw predicates: [type, value, ...], type 1 a capture, 2 a string. */
  predicates: (number | string)[][];
}

const CAPTURE = 1;
const STRING = 2;
/** Past this many alternatives a pattern's literals are not worth combining. */
const MAX_ALTERNATIVES = 64;

/**
 * Whether every node pattern in `text` must match for the pattern to match: no `?` or `*`
 * quantifier and no `[...]` alternation outside strings and predicates. Then each capture holds
 * at least one node in every match, which a predicate needs to require its literal: every text
 * predicate passes on a capture that holds no node.
 */
function everyNodeRequired(text: string): boolean {
  let bare = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      bare += '""';
    } else if (c === ";") {
      while (i < text.length && text[i] !== "\n") i++;
      bare += " ";
    } else bare += c;
  }
  return !/[?*[]/.test(bare.replace(/\(\s*#[^()]*\)/g, " "));
}

const isLiteral = (s: unknown): s is string => typeof s === "string" && s.length > 0 && /^[\x20-\x7e\t\n\r]+$/.test(s);

/**
 * A literal every text the regular expression matches must hold: its first run of plain
 * characters (`^get` -> "get", `Controller$` -> "Controller", `^use[A-Z]` -> "use"), without a
 * last character a quantifier makes optional. Undefined when an alternation (`|`) could drop it.
 */
export function regexLiteral(source: string): string | undefined {
  if (source.replace(/\\./g, "").includes("|")) return undefined;
  let run = "";
  let i = source.startsWith("^") ? 1 : 0;
  for (; i < source.length; i++) {
    const c = source[i] as string;
    if (/[A-Za-z0-9_]/.test(c)) run += c;
    else if (c === "\\" && /[.\-/\\()[\]{}*+?^$|]/.test(source[i + 1] ?? "")) run += source[++i];
    else break;
  }
  const next = source[i];
  if (next === "?" || next === "*" || next === "{") run = run.slice(0, -1);
  return run.length > 0 ? run : undefined;
}

/** Sets of strings of which the match's text must hold one, from the pattern's predicates. */
function literalGroups(p: PatternFacts): string[][] {
  const groups: string[][] = [];
  for (const steps of p.predicates) {
    const op = steps[1];
    const args: { type: number | string | undefined; value: number | string | undefined }[] = [];
    for (let i = 2; i < steps.length; i += 2) args.push({ type: steps[i], value: steps[i + 1] });
    const [first, second] = args;
    if (first?.type !== CAPTURE) continue;
    // Every predicate passes on a capture without nodes (rust-regex.ts, vacuous), so a literal is
    // required only where each capture holds a node in every match.
    if (!everyNodeRequired(p.text)) continue;
    if ((op === "eq?" || op === "any-eq?") && args.length === 2 && second?.type === STRING && isLiteral(second.value)) {
      groups.push([second.value]);
    } else if ((op === "match?" || op === "any-match?") && args.length === 2 && second?.type === STRING && typeof second.value === "string") {
      // Some node's text matches.
      const lit = regexLiteral(second.value);
      if (isLiteral(lit)) groups.push([lit]);
    } else if (op === "any-of?" && args.length > 1) {
      // Every node's text is one of the values.
      const values = args.slice(1).map((a) => a.value);
      if (args.slice(1).every((a) => a.type === STRING) && values.every(isLiteral)) groups.push(values as string[]);
    }
  }
  return groups;
}

/**
 * What a file's bytes must hold for the query to match in it: lists of tokens, any one list
 * sufficing. Per pattern, one list per node type it can start at (the type's required tokens),
 * each with the literals its predicates require (`#eq? @c "x"`, `#any-of? @c "a" "b"`).
 * Undefined when some pattern can match in any file.
 */
export function queryNeeds(id: LanguageId, patterns: readonly PatternFacts[], anonymous: ReadonlySet<string>): string[][] | undefined {
  const all: string[][] = [];
  for (const p of patterns) {
    let alternatives: string[][] = [[]];
    // A root type is spelled the same for `(class)` and `"class"`: a name that is also an
    // anonymous node's may be the latter, which requires nothing here.
    if (p.rootTypes && ![...p.rootTypes].some((t) => anonymous.has(t))) {
      const byType = [...p.rootTypes].map((t) => requiredTokens(id, t));
      if (byType.every((tokens) => tokens.length > 0)) alternatives = byType;
    }
    for (const group of literalGroups(p)) {
      if (alternatives.length * group.length > MAX_ALTERNATIVES) continue;
      alternatives = alternatives.flatMap((alt) => group.map((lit) => [...alt, lit]));
    }
    if (alternatives.some((alt) => alt.length === 0)) return undefined;
    all.push(...alternatives);
  }
  return all.length > 0 ? all : undefined;
}

/** False when the bytes lack a token of every alternative: no match is possible in them. */
export function mayMatch(bytes: Buffer, needs: readonly string[][]): boolean {
  return needs.some((tokens) => tokens.every((tok) => bytes.includes(tok, 0, "latin1")));
}
