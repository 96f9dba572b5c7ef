/**
 * A regex as agents write it (ripgrep's and Rust's regex syntax) translated to a JS RegExp with
 * the same meaning, plus what the searcher can exploit: a literal every match must contain (for a
 * Buffer.indexOf prefilter) and whether matches are pure literals (no regex run at all).
 *
 * Semantics kept from ripgrep: Unicode-aware \w \d \s \b; `.` never matches a line feed unless
 * (?s) (and not a CR either, so a CRLF line's match never swallows its \r); `^`/`$` are line
 * anchors ($ also before \r\n, never between the two, like rg --crlf); without --multiline no
 * match crosses a line break (classes such as [^x] and \s lose \n, and an explicit \n is
 * refused, as rg does).
 */
/**
 * Why a pattern cannot be translated, for the caller to word as its own error (llmsearch's
 * codes; a query predicate's message): `unsupported` (what the pattern uses), `newline` (a line
 * feed outside multiline mode), `syntax` (why the regex is invalid; `translated` is what it was
 * translated to, when it got that far).
 */
export class PatternError extends Error {
  constructor(
    readonly kind: "unsupported" | "newline" | "syntax",
    readonly detail: string,
    readonly remediation: string,
    readonly translated?: string,
  ) {
    super(kind === "unsupported" ? `pattern uses ${detail}, which JavaScript RegExp cannot express` : detail);
    this.name = "PatternError";
  }
}

export interface PatternOptions {
  pattern: string;
  fixedStrings?: boolean;
  ignoreCase?: boolean;
  word?: boolean;
  /** rg -x: only matches that are a whole line (the pattern between a line start and a line end). */
  lineRegexp?: boolean;
  multiline?: boolean;
}

/** Everything a worker needs, as plain data (it crosses a thread boundary). */
export interface CompiledPattern {
  source: string;
  flags: string;
  /** Bytes every match contains; empty when none could be derived. */
  literal: number[];
  /**
   * `literal` is lowercase ASCII to be found ignoring ASCII case (--ignore-case). Unicode folds
   * two non-ASCII characters onto ASCII letters (KELVIN SIGN onto k, LONG S onto s); a file
   * holding either is searched without the prefilter.
   */
  literalCaseless: boolean;
  /** Matches are exactly the occurrences of `literal` (no regex run needed). */
  pureLiteral: boolean;
  /** Line mode: no match crosses a line feed, so lines can be searched one by one. */
  lineMode: boolean;
  /** The regex looks beyond the line (\A, \z, lookaround): search whole files. */
  needsWholeFile: boolean;
}

// Rust's \w: Alphabetic, marks, decimal digits, connector punctuation, join controls.
const WORD_INNER = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";
const WORD = `[${WORD_INNER}]`;
// Rust's \s (Unicode White_Space) without \n; JS's \s differs (it has U+FEFF, lacks U+0085).
const SPACE_NO_LF = "\\t\\x0B\\f\\r \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
const LINE_START = "(?<![^\\n])";
// Never between a CRLF's \r and \n: `\s$` would take the \r (ripgrep --crlf sees the line without it).
const LINE_END = "(?=\\r\\n|(?<!\\r)\\n|(?![\\s\\S]))";
const SYNTAX_CHARS = new Set("^$\\.*+?()[]{}|/");

const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\x0B\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

type WordBoundary = "start" | "end" | "start-half" | "end-half";

/**
 * `\b{start}` (= `\<`), `\b{end}` (= `\>`) and their halves, with ripgrep's Unicode \w. One
 * group, as \b's translation is, so that a quantifier after it takes the whole assertion.
 */
function wordBoundary(kind: WordBoundary): string {
  switch (kind) {
    case "start":
      return `(?:(?<!${WORD})(?=${WORD}))`;
    case "end":
      return `(?:(?<=${WORD})(?!${WORD}))`;
    case "start-half":
      return `(?:(?<!${WORD}))`;
    case "end-half":
      return `(?:(?!${WORD}))`;
  }
}

function unsupported(what: string, remediation: string): PatternError {
  return new PatternError("unsupported", what, remediation);
}

function newlineError(): PatternError {
  return new PatternError("newline", "the pattern contains a line feed (\\n), which cannot match without --multiline (matches never cross lines)", "Add --multiline to let matches span lines, or drop the \\n from the pattern.");
}

function escapeLiteral(s: string): string {
  let out = "";
  for (const ch of s) {
    if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    // Unicode-mode RegExp refuses "\-" outside a class, so a literal "-" (as in "->str") is spelled \x2d.
    else if (ch === "-") out += "\\x2d";
    else if (SYNTAX_CHARS.has(ch)) out += `\\${ch}`;
    else out += ch;
  }
  return out;
}

function hex2(code: number): string {
  return `\\x${code.toString(16).padStart(2, "0")}`;
}

interface Flags {
  i: boolean;
  s: boolean;
  x: boolean;
}

/** Translation state: the output and the literal facts gathered on the way. */
class Translator {
  private i = 0;
  private out = "";
  private depth = 0;
  /** Top-level literal runs: the current one and all finished ones. */
  private run = "";
  private runs: string[] = [];
  private topAlternation = false;
  private allLiteral = true;
  needsWholeFile = false;

  constructor(
    private readonly p: string,
    private readonly flags: Flags,
    private readonly lineMode: boolean,
  ) {}

  private endRun(): void {
    if (this.run) this.runs.push(this.run);
    this.run = "";
  }

  /** A character that matches only itself; `text` is its JS spelling. */
  private literal(ch: string, text: string): void {
    this.out += text;
    if (this.depth === 0) this.run += ch;
    this.afterAtom(ch);
  }

  /** Anything that is not a plain literal (class, group, anchor, escape class). */
  private nonLiteral(text: string): void {
    this.out += text;
    this.allLiteral = false;
    if (this.depth === 0) this.endRun();
  }

  /** A quantifier after a literal char at depth 0 changes what the run can require. */
  private afterAtom(ch: string): void {
    const q = this.p[this.i];
    if (this.depth !== 0 || q === undefined) return;
    if (q === "?" || q === "*" || (q === "{" && /^\{0*(,|\}|0*,)/.test(this.p.slice(this.i)))) {
      this.run = this.run.slice(0, this.run.length - ch.length);
      this.endRun();
    } else if (q === "+" || q === "{") {
      this.endRun();
    }
  }

  translate(): { source: string; runs: string[]; allLiteral: boolean } {
    const p = this.p;
    while (this.i < p.length) {
      const c = p[this.i] as string;
      if (this.flags.x && (c === " " || c === "\t" || c === "\n" || c === "\r")) {
        this.i++;
        continue;
      }
      if (this.flags.x && c === "#") {
        while (this.i < p.length && p[this.i] !== "\n") this.i++;
        continue;
      }
      switch (c) {
        case "\\":
          this.escape();
          break;
        case "[":
          this.i++;
          this.nonLiteral(this.charClass());
          break;
        case "(":
          this.group();
          break;
        case ")":
          this.i++;
          this.depth--;
          this.nonLiteral(")");
          break;
        case "|":
          this.i++;
          if (this.depth === 0) this.topAlternation = true;
          this.nonLiteral("|");
          break;
        case ".":
          this.i++;
          this.nonLiteral(this.flags.s ? (this.lineMode ? "[^\\n]" : "[\\s\\S]") : "[^\\n\\r]");
          break;
        case "^":
          this.i++;
          this.nonLiteral(LINE_START);
          break;
        case "$":
          this.i++;
          this.nonLiteral(LINE_END);
          break;
        case "*":
        case "+":
        case "?": {
          this.i++;
          // A lazy/possessive suffix stays with its quantifier.
          let q = c;
          if (p[this.i] === "?") {
            q += "?";
            this.i++;
          }
          this.nonLiteral(q);
          break;
        }
        case "{": {
          const m = /^\{\d*(,\d*)?\}\??/.exec(p.slice(this.i));
          if (m) {
            this.i += m[0].length;
            this.nonLiteral(m[0]);
          } else {
            this.i++;
            this.literal("{", "\\{");
          }
          break;
        }
        case "]":
        case "}":
          this.i++;
          this.literal(c, `\\${c}`);
          break;
        case "\n":
          if (this.lineMode) throw newlineError();
          this.i++;
          this.literal("\n", "\\n");
          break;
        default: {
          const cp = p.codePointAt(this.i) as number;
          const ch = String.fromCodePoint(cp);
          this.i += ch.length;
          this.literal(ch, ch);
        }
      }
    }
    this.endRun();
    return { source: this.out, runs: this.topAlternation ? [] : this.runs, allLiteral: this.allLiteral && !this.topAlternation };
  }

  private group(): void {
    const p = this.p;
    const rest = p.slice(this.i);
    this.depth++;
    let m: RegExpExecArray | null;
    if (rest.startsWith("(?:")) {
      this.i += 3;
      this.nonLiteral("(?:");
    } else if (rest.startsWith("(?=") || rest.startsWith("(?!")) {
      this.i += 3;
      this.needsWholeFile = true;
      this.nonLiteral(rest.slice(0, 3));
    } else if (rest.startsWith("(?<=") || rest.startsWith("(?<!")) {
      this.i += 4;
      this.needsWholeFile = true;
      this.nonLiteral(rest.slice(0, 4));
    } else if ((m = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest))) {
      this.i += m[0].length;
      this.nonLiteral(`(?<${m[1]}>`);
    } else if (rest.startsWith("(?")) {
      throw unsupported(
        `the group syntax '${rest.slice(0, Math.min(rest.length, 6))}' (inline flags are accepted only at the very start, e.g. (?i)foo)`,
        "Move inline flags to the start of the pattern, or use --ignore-case; write (?:...) for a plain group.",
      );
    } else {
      this.i += 1;
      this.nonLiteral("(");
    }
  }

  private escape(): void {
    const p = this.p;
    const n = p[this.i + 1];
    if (n === undefined) {
      // A trailing backslash: let RegExp report it.
      this.i++;
      this.nonLiteral("\\");
      return;
    }
    this.i += 2;
    switch (n) {
      case "A":
        this.needsWholeFile = true;
        this.nonLiteral("(?<![\\s\\S])");
        return;
      case "z":
        this.needsWholeFile = true;
        this.nonLiteral("(?![\\s\\S])");
        return;
      case "w":
        this.nonLiteral(WORD);
        return;
      case "W":
        this.nonLiteral(`[^${WORD_INNER}${this.lineMode ? "\\n" : ""}]`);
        return;
      case "d":
        this.nonLiteral("\\p{Nd}");
        return;
      case "D":
        this.nonLiteral(`[^\\p{Nd}${this.lineMode ? "\\n" : ""}]`);
        return;
      case "s":
        this.nonLiteral(`[${SPACE_NO_LF}${this.lineMode ? "" : "\\n"}]`);
        return;
      case "S":
        this.nonLiteral(`[^${SPACE_NO_LF}\\n]`);
        return;
      case "b": {
        // Rust regex 1.10 (ripgrep 14) word-boundary forms. JS would read `\b{start}` as \b
        // followed by the text "{start}", and matched nothing.
        const special = /^\{(start|end|start-half|end-half)\}/.exec(p.slice(this.i));
        if (special) {
          this.i += special[0].length;
          this.nonLiteral(wordBoundary(special[1] as WordBoundary));
          return;
        }
        this.nonLiteral(`(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`);
        return;
      }
      case "<":
        // GNU grep's and Rust regex 1.10's start of a word; as an escaped '<' it had matched
        // the character '<' and \<word\> found nothing.
        this.nonLiteral(wordBoundary("start"));
        return;
      case ">":
        this.nonLiteral(wordBoundary("end"));
        return;
      case "B":
        this.nonLiteral(`(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`);
        return;
      case "n":
        if (this.lineMode) throw newlineError();
        this.literal("\n", "\\n");
        return;
      case "t":
        this.literal("\t", "\\t");
        return;
      case "r":
        this.literal("\r", "\\r");
        return;
      case "p":
      case "P": {
        const prop = this.unicodeProperty();
        if (n === "p") this.nonLiteral(`\\p{${prop}}`);
        else this.nonLiteral(`[^\\p{${prop}}${this.lineMode ? "\\n" : ""}]`);
        return;
      }
      case "x":
      case "u":
      case "U": {
        const code = this.hexEscape(n);
        if (code === undefined) {
          this.nonLiteral(`\\${n}`);
          return;
        }
        if (code === 10 && this.lineMode) throw newlineError();
        this.literal(String.fromCodePoint(code), `\\u{${code.toString(16)}}`);
        return;
      }
      case "a":
        this.literal("\x07", "\\x07");
        return;
      default:
        if (/[!-/:-@[-`{-~ ]/.test(n)) {
          // Rust lets any ASCII punctuation be escaped; JS's u mode only its syntax characters.
          this.literal(n, SYNTAX_CHARS.has(n) ? `\\${n}` : hex2(n.charCodeAt(0)));
          return;
        }
        // \1, \k<name>, \u{...}, \cX, \f, \v, \0 ...: JS decides (and reports errors).
        this.nonLiteral(`\\${n}`);
    }
  }

  /**
   * After \x, \u or \U: Rust's hex escapes, `\x7F`, `\u007F`, `\U0000007F` (2, 4, 8 digits) or
   * `{...}` with 1 to 8 digits (`\u{e9}` was refused: JS's u mode took it, but not through our
   * translation). Undefined when none follows.
   */
  private hexEscape(kind: string): number | undefined {
    const rest = this.p.slice(this.i);
    const braced = /^\{([0-9A-Fa-f]{1,8})\}/.exec(rest);
    const fixed = new RegExp(`^[0-9A-Fa-f]{${kind === "x" ? 2 : kind === "u" ? 4 : 8}}`).exec(rest);
    const m = braced ?? fixed;
    if (!m) return undefined;
    const code = parseInt((braced ? braced[1] : m[0]) as string, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw syntaxError(this.p, `\\${kind}${m[0]} is not a Unicode scalar value`);
    this.i += m[0].length;
    return code;
  }

  /** After \p or \P: `L`, `{Letter}`, `{Greek}`; Rust's bare script names become Script=. */
  private unicodeProperty(): string {
    const p = this.p;
    let name: string;
    if (p[this.i] === "{") {
      const end = p.indexOf("}", this.i);
      if (end === -1) throw syntaxError(this.p, "unterminated \\p{...}");
      name = p.slice(this.i + 1, end).trim();
      this.i = end + 1;
    } else {
      name = p[this.i] ?? "";
      this.i++;
    }
    if (validProperty(name)) return name;
    if (!name.includes("=") && validProperty(`Script=${name}`)) return `Script=${name}`;
    throw syntaxError(this.p, `unknown Unicode property '${name}'`);
  }

  /** Called just past `[`; returns the JS class (or an equivalent group). */
  private charClass(): string {
    const p = this.p;
    let negated = false;
    if (p[this.i] === "^") {
      negated = true;
      this.i++;
    }
    let body = "";
    // Members that are the complement of a set (\S, \W, \D, \P{..}): a JS u-mode class cannot
    // hold one, so the class is rebuilt around them below. `lf`: the set holds the line feed.
    const complements: { set: string; lf: boolean }[] = [];
    let first = true;
    for (;;) {
      const c = p[this.i];
      if (c === undefined) throw syntaxError(this.p, "unclosed character class");
      if (c === "]" && !first) {
        this.i++;
        break;
      }
      first = false;
      if (c === "[") {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(p.slice(this.i));
        if (m) {
          if (m[1]) throw unsupported(`a negated POSIX class '${m[0]}'`, "Use a negated bracket class instead, e.g. [^a-z].");
          const set = POSIX[m[2] as string];
          if (set === undefined) throw syntaxError(this.p, `unknown POSIX class '${m[0]}'`);
          body += set;
          this.i += m[0].length;
          continue;
        }
        throw unsupported("a nested character class", "Escape a literal '[' inside a class as \\[ ; set operations (&&, --) are not supported.");
      }
      if ((c === "&" && p[this.i + 1] === "&") || (c === "-" && p[this.i + 1] === "-") || (c === "~" && p[this.i + 1] === "~")) {
        throw unsupported(`the class set operation '${c}${c}'`, "Spell the set out as one class, or escape the characters.");
      }
      if (c === "\\") {
        const n = p[this.i + 1];
        if (n === undefined) throw syntaxError(this.p, "trailing backslash");
        this.i += 2;
        switch (n) {
          case "w":
            body += WORD_INNER;
            break;
          case "d":
            body += "\\p{Nd}";
            break;
          case "s":
            body += SPACE_NO_LF + (this.lineMode ? "" : "\\n");
            break;
          case "W":
            complements.push({ set: WORD_INNER, lf: false });
            break;
          case "D":
            complements.push({ set: "\\p{Nd}", lf: false });
            break;
          case "S":
            complements.push({ set: `${SPACE_NO_LF}\\n`, lf: true });
            break;
          case "P":
            complements.push({ set: `\\p{${this.unicodeProperty()}}`, lf: false });
            break;
          case "p":
            body += `\\p{${this.unicodeProperty()}}`;
            break;
          case "n":
            // A negated class only takes the line feed out, as rg 13 accepts `[^\n]` without -U.
            if (this.lineMode && !negated) throw newlineError();
            body += "\\n";
            break;
          case "x":
          case "u":
          case "U": {
            const code = this.hexEscape(n);
            if (code === undefined) body += `\\${n}`;
            else {
              if (code === 10 && this.lineMode && !negated) throw newlineError();
              body += `\\u{${code.toString(16)}}`;
            }
            break;
          }
          case "a":
            body += "\\x07";
            break;
          default:
            if (/[!-/:-@[-`{-~ ]/.test(n)) body += hex2(n.charCodeAt(0));
            else body += `\\${n}`;
        }
        continue;
      }
      if (c === "\n" && this.lineMode && !negated) throw newlineError();
      const cp = p.codePointAt(this.i) as number;
      const ch = String.fromCodePoint(cp);
      this.i += ch.length;
      // Characters that are special inside a JS u-mode class only.
      body += ch === "/" || ch === "(" || ch === ")" || ch === "{" || ch === "}" || ch === "|" ? `\\${ch}` : ch;
    }
    if (complements.length > 0) return this.classWithComplements(negated, body, complements);
    // ripgrep: the line terminator can never match in line mode, even through a negated class.
    if (negated) return `[^${body}${this.lineMode ? "\\n" : ""}]`;
    return `[${body}]`;
  }

  /**
   * A class with complement members, as ripgrep takes it (`[\s\S]`, the "any character" idiom,
   * `[^\W_]`): `[A\S]` is A or a character outside \s, an alternation; `[^A\S]` is a character
   * in \s and not in A, lookaheads for every set but the last, which consumes it. In line mode
   * the line feed stays out, as of every class, and is only named where it would otherwise match,
   * so that the line-mode translation differs exactly when the class can match one
   * (canMatchNewline compares the two).
   */
  private classWithComplements(negated: boolean, body: string, complements: { set: string; lf: boolean }[]): string {
    if (!negated) {
      const alts = body ? [`[${body}]`] : [];
      for (const c of complements) alts.push(`[^${c.set}${this.lineMode && !c.lf ? "\\n" : ""}]`);
      return `(?:${alts.join("|")})`;
    }
    const exclude = body + (this.lineMode && complements.every((c) => c.lf) ? "\\n" : "");
    const last = complements[complements.length - 1] as { set: string };
    const ahead = complements.slice(0, -1).map((c) => `(?=[${c.set}])`);
    return `(?:${exclude ? `(?![${exclude}])` : ""}${ahead.join("")}[${last.set}])`;
  }
}

const propertyCache = new Map<string, boolean>();
function validProperty(name: string): boolean {
  let ok = propertyCache.get(name);
  if (ok === undefined) {
    try {
      new RegExp(`\\p{${name}}`, "u");
      ok = true;
    } catch {
      ok = false;
    }
    propertyCache.set(name, ok);
  }
  return ok;
}

function syntaxError(pattern: string, why: string): PatternError {
  return new PatternError("syntax", `invalid pattern /${pattern}/: ${why}`, "Fix the regular expression, or pass --fixed-strings to search for the text literally.");
}

/** Leading (?flags) groups, Rust style: i, s, m, x (and their negations); U is refused. */
function leadingFlags(pattern: string, flags: Flags): string {
  let rest = pattern;
  for (;;) {
    const m = /^\(\?([a-zA-Z-]+)\)/.exec(rest);
    if (!m) return rest;
    let on = true;
    for (const f of m[1] as string) {
      if (f === "-") on = false;
      else if (f === "i" || f === "s" || f === "x") flags[f] = on;
      else if (f === "m" || f === "u") {
        // m: ^/$ are line anchors already; u: Unicode is always on.
      } else if (f === "R") {
        // CRLF mode: $ already matches before \r\n.
      } else throw unsupported(`the inline flag '${f}'`, "Inline flags i, s, m, x are supported; drop the others.");
    }
    rest = rest.slice(m[0].length);
  }
}

function utf8Bytes(s: string): number[] {
  return [...Buffer.from(s, "utf8")];
}

/** A literal run is usable as a prefilter under -i only when case cannot change it. */
function caseless(s: string): boolean {
  return s.toLowerCase() === s && s.toUpperCase() === s && !/[kKsS\u212A\u017F]/.test(s);
}

/**
 * Several patterns (`-e a -e b`, as ripgrep takes them): a match of any of them. Regexes become
 * one alternation of groups; literals (--fixed-strings) are escaped into it. One pattern is
 * returned as it is.
 */
export function anyOf(patterns: string[], fixedStrings: boolean): { pattern: string; fixedStrings: boolean } {
  if (patterns.length === 1) return { pattern: patterns[0] as string, fixedStrings };
  const alternatives = patterns.map((p) => (fixedStrings ? p.replace(/[\x21-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7e]/g, "\\$&") : `(?:${p})`));
  return { pattern: alternatives.join("|"), fixedStrings: false };
}

export function compilePattern(opts: PatternOptions): CompiledPattern {
  const lineMode = !opts.multiline;
  const flags: Flags = { i: Boolean(opts.ignoreCase), s: false, x: false };
  let source: string;
  let runs: string[];
  let allLiteral: boolean;
  let needsWholeFile = false;
  if (opts.fixedStrings) {
    if (lineMode && opts.pattern.includes("\n")) throw newlineError();
    source = escapeLiteral(opts.pattern);
    runs = opts.pattern ? [opts.pattern] : [];
    allLiteral = true;
  } else {
    const body = leadingFlags(opts.pattern, flags);
    const t = new Translator(body, flags, lineMode);
    const r = t.translate();
    source = r.source;
    runs = r.runs;
    allLiteral = r.allLiteral;
    needsWholeFile = t.needsWholeFile;
  }
  if (opts.word) source = `(?<!${WORD})(?:${source})(?!${WORD})`;
  // rg 13 wraps the pattern in (?m:^)(?:...)(?m:$), the line anchors `^` and `$` translate to.
  if (opts.lineRegexp) source = `${LINE_START}(?:${source})${LINE_END}`;
  const reFlags = `gu${flags.i ? "i" : ""}`;
  try {
    new RegExp(source, reFlags);
  } catch (e) {
    throw new PatternError(
      "syntax",
      `invalid pattern /${opts.pattern}/: ${e instanceof Error ? e.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "") : String(e)}`,
      "Fix the regular expression (JavaScript RegExp syntax, Unicode mode; ripgrep's (?i) flags, \\A, \\z, [[:alpha:]] and \\pL are translated), or pass --fixed-strings to search for the text literally.",
      `/${source}/${reFlags}`,
    );
  }
  // The prefilter: the longest top-level literal run (in bytes) that case folding cannot change.
  let literal: number[] = [];
  let literalCaseless = false;
  for (const run of runs) {
    let bytes: number[];
    let folded = false;
    if (flags.i && !caseless(run)) {
      // An ASCII run can still be looked for with ASCII case folding (see literalCaseless).
      if (!/^[\x00-\x7f]*$/.test(run)) continue;
      bytes = utf8Bytes(run.toLowerCase());
      folded = true;
    } else bytes = utf8Bytes(run);
    if (bytes.length > literal.length || (bytes.length === literal.length && literalCaseless && !folded)) {
      literal = bytes;
      literalCaseless = folded;
    }
  }
  if (literal.length < 2 && !(opts.fixedStrings && literal.length === 1)) literal = [];
  const pureLiteral =
    allLiteral && !opts.word && !opts.lineRegexp && !flags.i && runs.length === 1 && literal.length > 0 && utf8Bytes(runs[0] as string).length === literal.length;
  return { source, flags: reFlags, literal, literalCaseless: literalCaseless && literal.length > 0, pureLiteral, lineMode, needsWholeFile };
}

/**
 * Whether a --multiline pattern (`compiled` from compilePattern(opts)) can match a line feed. ripgrep searches line by line, even with
 * -U, when its regex cannot (no literal \n and no class holding one), and that shows in -c: it
 * counts lines then, and matches when the pattern can span lines (rg 13: `b` on "ab ab" counts
 * 1, `b\na|b` counts 2). The line-mode translation drops exactly the \n of every class and refuses
 * a literal one, so the pattern can match \n when that translation differs or is refused.
 */
export function canMatchNewline(opts: PatternOptions, compiled: CompiledPattern): boolean {
  if (!opts.multiline) return false;
  if (opts.fixedStrings) return opts.pattern.includes("\n");
  try {
    return compilePattern({ ...opts, multiline: false }).source !== compiled.source;
  } catch (e) {
    if (e instanceof PatternError && e.kind === "newline") return true;
    throw e;
  }
}

/** The question a match_id answers: the pattern and every flag that changes what matches. */
export function questionOf(opts: PatternOptions): string {
  const q: unknown[] = [opts.pattern, Boolean(opts.fixedStrings), Boolean(opts.ignoreCase), Boolean(opts.word), Boolean(opts.multiline)];
  // Appended only when set, so that the ids of every question asked before -x existed stay the same.
  if (opts.lineRegexp) q.push("x");
  return JSON.stringify(q);
}
