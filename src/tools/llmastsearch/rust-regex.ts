/**
 * `#match?` regexes in Rust's syntax. Queries are written for tree-sitter's own engine (and
 * ast-grep's), where a predicate's regex is a Rust `regex`: `(?i)^session$`, `^\p{Lu}\w+Error$`,
 * `^[[:upper:]_]+$`. node-tree-sitter compiles it with `new RegExp(text)` and no flags, so the
 * first was refused (`Invalid group`) and the other two compiled to something else and matched
 * nothing, without a word. A regex that uses Rust-only syntax is translated as llmsearch
 * translates ripgrep patterns (inline flags, `\pL`/`\p{Greek}`, POSIX classes, `\A`/`\z`, `\x{..}`,
 * `(?P<name>..)`, the word boundaries `\<`, `\>`, `\b{start}`, `\b{end}`) and run in Unicode mode; any other regex is left to the binding, as before.
 */
import type Parser from "tree-sitter";
import { PatternError, compilePattern } from "../../text/regex.js";

const MATCH_OPS = new Set(["match?", "not-match?", "any-match?", "any-not-match?"]);
// `\<`, `\>`, `\b{start}`...: Rust's word boundaries, which `new RegExp` reads as '<', '>' and "{start}".
// `\w`, `\d`, `\b` and their negations are Unicode in Rust and ASCII in a RegExp without the u
// flag: `^\w+Error$` missed `ÉchecError`, which tree-sitter and ast-grep match.
const RUST_ONLY = /\(\?[imsxU-]+[:)]|\(\?P<|\\[pPwWdDbB]|\[\[:|\\[Az<>]|\\x\{/;
/** What the binding is handed instead of a translated regex: compiles, and holds no literal for the prefilter. */
const PLACEHOLDER = "(?:)";
const CAPTURE = 1;

type Steps = (number | string)[];

/** The JS RegExp for a Rust-syntax regex, or undefined when the binding's plain `new RegExp` means the same. */
export function rustRegex(text: string): RegExp | undefined {
  if (!RUST_ONLY.test(text)) return undefined;
  let compiled;
  try {
    compiled = compilePattern({ pattern: text, multiline: true });
  } catch (e) {
    const why = e instanceof PatternError ? e.message.replace(/^invalid pattern \/.*\/: /s, "") : String(e);
    throw new Error(`Invalid regular expression in #match?: /${text}/: ${why}`);
  }
  // No `g`: a global regex's test() would carry lastIndex from one node to the next.
  return new RegExp(compiled.source, compiled.flags.replace("g", ""));
}

function isRustMatch(steps: Steps): boolean {
  return MATCH_OPS.has(steps[1] as string) && steps.length === 6 && steps[2] === CAPTURE && typeof steps[5] === "string" && RUST_ONLY.test(steps[5]);
}

/**
 * A Query class whose `#match?` family understands Rust regex syntax. The binding builds its
 * predicate functions from `_getPredicates()` while constructing: this class hands it a
 * placeholder for each Rust-syntax regex, then replaces those functions with ones that test the
 * translated regex (`any-` needs one node, the others every node), and decides a predicate on a
 * capture without nodes as tree-sitter's engine does (vacuous, below).
 */
export function rustRegexQuery(Base: typeof Parser.Query): typeof Parser.Query {
  class RustRegexQuery extends Base {
    constructor(language: Parser.Language, source: string | Buffer) {
      super(language, source);
      const raw = (Base.prototype as unknown as { _getPredicates(this: unknown): Steps[][] })._getPredicates.call(this);
      const fns = (this as unknown as { predicates: ((captures: Parser.QueryCapture[]) => boolean)[][] }).predicates;
      raw.forEach((list, p) => {
        // The binding pushes one function per eq/match/any-of predicate, none for set!/is?/is-not?.
        let j = 0;
        for (const steps of list) {
          const op = steps[1] as string;
          if (op === "set!" || op === "is?" || op === "is-not?") continue;
          const list = fns[p] as ((captures: Parser.QueryCapture[]) => boolean)[];
          if (isRustMatch(steps)) list[j] = matcher(op, steps[3] as string, rustRegex(steps[5] as string) as RegExp);
          list[j] = vacuous(list[j] as (captures: Parser.QueryCapture[]) => boolean, capturesOf(steps));
          j++;
        }
      });
    }

    _getPredicates(): Steps[][] {
      const raw = (Base.prototype as unknown as { _getPredicates(this: unknown): Steps[][] })._getPredicates.call(this);
      return raw.map((list) =>
        list.map((steps) => {
          if (!isRustMatch(steps)) return steps;
          rustRegex(steps[5] as string); // refuses a regex that does not translate, as the binding refuses JS ones
          const out = [...steps];
          out[5] = PLACEHOLDER;
          return out;
        }),
      );
    }
  }
  return RustRegexQuery as unknown as typeof Parser.Query;
}

/** The capture names a predicate's arguments name (`#eq? @a @b`: both). */
function capturesOf(steps: Steps): string[] {
  const out: string[] = [];
  for (let i = 2; i + 1 < steps.length; i += 2) if (steps[i] === CAPTURE) out.push(steps[i + 1] as string);
  return out;
}

/**
 * A text predicate on a capture that holds no node in the match (a `?` or `*` part that matched
 * nothing) decides as tree-sitter's own engine does (its Rust binding, the CLI's; Neovim's the
 * same): against a string, every predicate passes, since it loops over the capture's nodes and
 * ends with `true`; between two captures (`#eq? @a @b`), it passes when both hold no node and
 * fails when only one does. node-tree-sitter passed `#eq?` and `#not-match?` there but failed
 * `#match?`, `#any-of?`, `#any-eq?`: with `return_type: (type)? @r`, `(#eq? @r "None")` kept the
 * functions without a return type and `(#match? @r "^None")` dropped them.
 */
function vacuous(fn: (captures: Parser.QueryCapture[]) => boolean, names: readonly string[]): (captures: Parser.QueryCapture[]) => boolean {
  if (names.length === 0) return fn;
  return (captures) => {
    let absent = 0;
    for (const name of names) if (!captures.some((c) => c.name === name)) absent++;
    if (absent === 0) return fn(captures);
    return absent === names.length;
  };
}

function matcher(op: string, capture: string, regex: RegExp): (captures: Parser.QueryCapture[]) => boolean {
  const positive = !op.includes("not-");
  const all = !op.startsWith("any-");
  return (captures) => {
    const texts: string[] = [];
    for (const c of captures) if (c.name === capture) texts.push(c.node.text);
    if (texts.length === 0) return !positive;
    const test = (t: string): boolean => regex.test(t) === positive;
    return all ? texts.every(test) : texts.some(test);
  };
}
