/**
 * A reading of tree-sitter query syntax that runs before the native compiler, to refuse the
 * shapes that crash it instead of failing: tree-sitter 0.25's ts_query__parse_pattern asserts
 * (SIGABRT) on a field or a quantifier/capture whose pattern holds only predicates
 * (`name: (#eq? ...)`, `((#set! x)) @c`), loops forever on `((#set! x))+`, and recurses once per
 * nesting level on the C stack (SIGSEGV near 100,000 levels).
 *
 * It mirrors query.c's grammar (lexing rules included) and only ever refuses one of those
 * shapes; anything else it finds wrong is left to the native compiler, which reports it with its
 * own fault kind and offset. So it can never refuse a query the compiler accepts.
 */

export interface Refusal {
  /** UTF-8 byte offset into the query text. */
  byteOffset: number;
  message: string;
  remediation: string;
}

/** Deeper than any real query; far below the depth at which the native parser overflows its stack. */
export const MAX_NESTING = 256;

class Refuse {
  constructor(
    readonly at: number,
    readonly message: string,
    readonly remediation: string,
  ) {}
}
/** Our reading met a syntax error: the native compiler reports it (at its own offset). */
const DEFER = Symbol("defer");

const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\v" || c === "\f";
const isAlnum = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z0-9]$/.test(c);
const isIdentStart = (c: string | undefined): boolean => isAlnum(c) || c === "_" || c === "-";
const isIdent = (c: string | undefined): boolean => isIdentStart(c) || c === "." || c === "?" || c === "!";

const PREDICATE_ONLY =
  "A predicate such as (#eq? @name \"x\") constrains captures of the pattern around it; it is not a node, so it cannot be a field's value, be quantified (*, +, ?) or be captured (@name).";

interface Shape {
  /** The pattern adds a node step (a predicate adds none). */
  steps: boolean;
  /** The pattern can match without consuming a node (every part optional). */
  nullable: boolean;
}

class Reader {
  private i = 0;
  constructor(private readonly s: string) {}

  private get next(): string | undefined {
    return this.s[this.i];
  }

  private skip(): void {
    for (;;) {
      if (isSpace(this.next)) this.i++;
      else if (this.next === ";") {
        while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
      } else return;
    }
  }

  private ident(): string {
    const start = this.i;
    do this.i++;
    while (isIdent(this.next));
    return this.s.slice(start, this.i);
  }

  private string(): void {
    this.i++;
    for (;;) {
      const c = this.next;
      if (c === undefined || c === "\n") throw DEFER;
      this.i += c === "\\" ? 2 : 1;
      if (c === '"') return;
      if (this.i > this.s.length) throw DEFER;
    }
  }

  top(): void {
    this.skip();
    while (this.i < this.s.length) {
      if (this.pattern(0) === "done") throw DEFER;
    }
  }

  /** What the pattern is made of, or "done" at a closing `)` or `]`. */
  private pattern(nesting: number): Shape | "done" {
    const c = this.next;
    if (c === undefined || c === "\0") throw DEFER;
    if (c === ")" || c === "]") return "done";
    if (nesting > MAX_NESTING) {
      throw new Refuse(this.i, `the query nests patterns more than ${MAX_NESTING} levels deep`, "Real queries nest a few levels; split the pattern or drop the redundant parentheses.");
    }
    const start = this.i;
    let steps: boolean;
    let nullable: boolean;
    if (c === "[") {
      this.i++;
      this.skip();
      steps = false;
      nullable = false;
      let branches = 0;
      for (;;) {
        const r = this.pattern(nesting + 1);
        if (r === "done") {
          if (this.next === "]" && branches > 0) {
            this.i++;
            break;
          }
          throw DEFER;
        }
        branches++;
        steps ||= r.steps;
        nullable ||= r.nullable;
      }
    } else if (c === "(") {
      this.i++;
      this.skip();
      const n = this.next;
      if (n === "(" || n === '"' || n === "[") {
        ({ steps, nullable } = this.children(nesting, false));
      } else if (n === "." || n === "#") {
        this.i++;
        this.predicate();
        return { steps: false, nullable: true };
      } else {
        if (!isIdentStart(this.next)) throw DEFER;
        const name = this.ident();
        // query.c compares with strncmp over the name's length: any prefix of MISSING is MISSING.
        if (name !== "_" && "MISSING".startsWith(name)) {
          this.skip();
          if (isIdentStart(this.next)) this.ident();
          else if (this.next === '"') this.string();
          else if (this.next !== ")") throw DEFER;
        }
        this.skip();
        if (this.next === "/") {
          this.i++;
          if (!isIdentStart(this.next)) throw DEFER;
          this.ident();
          this.skip();
        }
        this.children(nesting, true);
        steps = true;
        nullable = false;
      }
    } else if (c === "_") {
      this.i++;
      this.skip();
      steps = true;
      nullable = false;
    } else if (c === '"') {
      this.string();
      steps = true;
      nullable = false;
    } else if (isIdentStart(c)) {
      this.ident();
      this.skip();
      if (this.next !== ":") throw DEFER;
      this.i++;
      this.skip();
      const valueAt = this.i;
      const r = this.pattern(nesting + 1);
      if (r === "done") throw DEFER;
      if (!r.steps) throw new Refuse(valueAt, "a field's value is a predicate, not a node pattern", PREDICATE_ONLY);
      steps = true;
      nullable = r.nullable;
    } else throw DEFER;

    this.skip();
    for (;;) {
      const s = this.next;
      if (s === "+" || s === "*" || s === "?" || s === "@") {
        if (!steps) throw new Refuse(start, `'${s}' applies to a pattern that holds only predicates`, PREDICATE_ONLY);
        if (s === "+" && nullable) {
          throw new Refuse(
            this.i,
            "'+' repeats a pattern that can match nothing (all of it is optional): tree-sitter's compiler never ends on it",
            "Use '*' instead of '+', or make a part of the repeated pattern required (drop a '?' or '*' inside it).",
          );
        }
        if (s === "?" || s === "*") nullable = true;
        this.i++;
        if (s === "@") {
          if (!isIdentStart(this.next)) throw DEFER;
          this.ident();
        }
        this.skip();
      } else break;
    }
    return { steps, nullable };
  }

  /**
   * The child patterns up to the closing `)` of a group (`((a) (b))`) or of a node (`(a (b) !f)`,
   * where negated fields may stand among them), each maybe after an anchor `.`; what the
   * sequence is made of, as one pattern.
   */
  private children(nesting: number, negatedFields: boolean): Shape {
    let steps = false;
    let nullable = true;
    for (;;) {
      if (negatedFields && this.next === "!") {
        this.i++;
        this.skip();
        if (!isIdentStart(this.next)) throw DEFER;
        this.ident();
        this.skip();
        continue;
      }
      if (this.next === ".") {
        this.i++;
        this.skip();
      }
      const r = this.pattern(nesting + 1);
      if (r === "done") {
        if (this.next === ")") {
          this.i++;
          return { steps, nullable };
        }
        throw DEFER;
      }
      steps ||= r.steps;
      nullable &&= r.nullable;
    }
  }

  private predicate(): void {
    if (!isIdentStart(this.next)) throw DEFER;
    this.ident();
    this.skip();
    for (;;) {
      const c = this.next;
      if (c === ")") {
        this.i++;
        this.skip();
        return;
      }
      if (c === "@") {
        this.i++;
        if (!isIdentStart(this.next)) throw DEFER;
        this.ident();
      } else if (c === '"') this.string();
      else if (isIdentStart(c)) this.ident();
      else throw DEFER;
      this.skip();
    }
  }
}

/** A refusal for a query the native compiler would crash or hang on; undefined otherwise. */
export function precheckQuery(text: string): Refusal | undefined {
  try {
    new Reader(text).top();
  } catch (e) {
    if (e === DEFER) return undefined;
    if (e instanceof Refuse) return { byteOffset: Buffer.byteLength(text.slice(0, e.at)), message: e.message, remediation: e.remediation };
    throw e;
  }
  return undefined;
}
