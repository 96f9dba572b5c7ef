/**
 * Types and qualified names as their text writes them, for extraction and resolution alike: the
 * parts at a separator outside brackets, and a name without its type arguments.
 */

/**
 * `text` split at `sep` where no `<`, `(`, `[` or `{` is open, each part trimmed (empty ones
 * kept): an object type's `{ id: string | null }[]` is one part of a union.
 */
/**
 * A local's path of up to three fields, `s.f` to `s.f.g.h`: extraction records s's type for it
 * and resolution follows the fields' declared types from there.
 */
export const FIELD_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*){1,3}$/;

export function splitOutsideBrackets(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "<" || ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ">" || ch === ")" || ch === "]" || ch === "}") depth--;
    if (depth === 0 && text.startsWith(sep, i)) {
      parts.push(cur.trim());
      cur = "";
      i += sep.length - 1;
      continue;
    }
    cur += ch;
  }
  parts.push(cur.trim());
  return parts;
}

/**
 * `text` without what `open`/`close` enclose, trimmed: `Map.Entry<K, List<V>>` -> `Map.Entry`,
 * Go's and Python's `List[T]` -> `List` (with `[`, `]`).
 */
export function withoutTypeArguments(text: string, open = "<", close = ">"): string {
  if (!text.includes(open)) return text.trim();
  let out = "";
  let depth = 0;
  for (const ch of text) {
    if (ch === open) depth++;
    else if (ch === close) depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out.trim();
}

/**
 * Index of what closes the bracket (`(`, `[`, `{`) or the quote (`"`, `'`, `` ` ``) at `open` in
 * `text`, strings inside skipped: -1 when nothing does.
 */
export function closingIndex(text: string, open: number): number {
  let depth = 0;
  let quote = "";
  for (let i = open; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== "") {
      if (c === "\\") i++;
      else if (c === quote) {
        quote = "";
        if (depth === 0) return i;
      }
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && --depth === 0) return i;
  }
  return -1;
}

/**
 * A Python annotation's one type besides None: `Optional[X]`, `t.Optional[X]` and `X | None` are
 * X; a union of two types or more, undefined.
 */
export function pythonNotNoneType(t: string): string | undefined {
  const optional = /^(?:\w+\.)?Optional\[(.*)\]$/s.exec(t);
  const parts = splitOutsideBrackets(optional ? (optional[1] as string).trim() : t, "|").filter((p) => p !== "" && p !== "None");
  return parts.length === 1 ? parts[0] : undefined;
}

/** One step of a chain: a member read (`.f`) or a call of one (`.m(...)`). */
export interface ChainStep {
  name: string;
  call: boolean;
}

/**
 * A qualifier that is a chain of member reads and calls with at least one call in it:
 * `repo.createQueryBuilder("u").where("a")`, `make().x`, `new Builder(1).name("n")`,
 * `self.client.get(url)`. `head` is the first name (`this`, `self`, a local, a type, a function)
 * or, with `ctor`, the type a `new` makes; `headCall` says the head itself is called (`make()`).
 * Undefined for anything else: no call, an index (`a[0]`), an optional call (`f?.()`), a
 * qualifier cut short (`…`), a generic call's type arguments, Rust's and C++'s `::` and `->`.
 */
export interface Chain {
  head: string;
  ctor: boolean;
  headCall: boolean;
  steps: ChainStep[];
}

const IDENT = /[A-Za-z_$][\w$]*/y;

export function chainOf(q: string): Chain | undefined {
  if (!q.includes("(") || q.length > 400) return undefined;
  let i = 0;
  const ident = (): string | undefined => {
    IDENT.lastIndex = i;
    const m = IDENT.exec(q);
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  // The arguments of a call from its `(`: the index after its `)`, strings and nested brackets
  // skipped (a `)` or `.` inside `"a.b("` is text); -1 when they do not close.
  const args = (): number => {
    let depth = 0;
    for (let k = i; k < q.length; k++) {
      const ch = q[k] as string;
      if (ch === '"' || ch === "'" || ch === "`") {
        for (k++; k < q.length && q[k] !== ch; k++) if (q[k] === "\\") k++;
        if (k >= q.length) return -1;
      } else if (ch === "(" || ch === "[" || ch === "{") depth++;
      else if (ch === ")" || ch === "]" || ch === "}") {
        if (--depth === 0) return ch === ")" ? k + 1 : -1;
        if (depth < 0) return -1;
      }
    }
    return -1;
  };
  let ctor = false;
  if (q.startsWith("new ")) {
    ctor = true;
    i = 4;
    while (q[i] === " ") i++;
  }
  let head = ident();
  if (head === undefined) return undefined;
  // `new a.B(...)`: the type's path.
  while (ctor && q[i] === ".") {
    i++;
    const more = ident();
    if (more === undefined) return undefined;
    head += `.${more}`;
  }
  // A call's arguments at i, skipped: true when there were some, undefined when they do not close.
  const called = (): boolean | undefined => {
    if (q[i] !== "(") return false;
    const end = args();
    if (end < 0) return undefined;
    i = end;
    return true;
  };
  const headCall = called();
  if (headCall === undefined || (ctor && !headCall)) return undefined;
  const steps: ChainStep[] = [];
  while (i < q.length) {
    // TypeScript's non-null assertion (`a!.b`) and optional chaining (`a?.b`) read the same member.
    if (q[i] === "!") i++;
    if (q.startsWith("?.", i)) i += 2;
    else if (q[i] === ".") i++;
    else return undefined;
    const name = ident();
    const call = name === undefined ? undefined : called();
    if (name === undefined || call === undefined) return undefined;
    steps.push({ name, call });
    if (steps.length > 8) return undefined;
  }
  if (!headCall && !steps.some((s) => s.call)) return undefined;
  return { head, ctor, headCall, steps };
}

/**
 * What a chain's first call is made on, as a qualifier of its own: `repo.createQueryBuilder` of
 * `repo.createQueryBuilder("u").where("a")` is made on `repo`, `self.client.get(url)` on
 * `self.client`. Undefined when the head itself is called (`make().x`, `new T().m()`).
 */
export function chainCallee(chain: Chain): string | undefined {
  if (chain.headCall) return undefined;
  const k = chain.steps.findIndex((s) => s.call);
  return [chain.head, ...chain.steps.slice(0, k).map((s) => s.name)].join(".");
}

/**
 * A local's type when it was assigned a chain of calls (`const repo = ds.getRepository(Post)`):
 * the chain, awaited or not, and the receiver type of its first call, in one string that no
 * written type can be (it starts with U+0002; the first U+0001 separates the receiver type, which
 * may be a marker itself). Resolution
 * reads it back with readChainMarker and follows the chain as it follows a qualifier's.
 */
export function chainMarker(chain: string, awaited: boolean, receiverType: string | undefined): string | undefined {
  if (chain.includes("\u0001") || chain.includes("\u0002")) return undefined;
  // (The receiver type may be another local's marker: `const qb = repo.createQueryBuilder()`
  // after `const repo = ds.getRepository(Post)`; a long nest of them says too little to keep.)
  const marker = `\u0002${awaited ? "await " : ""}${chain}${receiverType === undefined ? "" : `\u0001${receiverType}`}`;
  return marker.length > 600 ? undefined : marker;
}

/** Whether a receiver type is a chain's marker (chainMarker), not a written type. */
export function isChainMarker(written: string): boolean {
  return written.startsWith("\u0002");
}

export function readChainMarker(written: string): { chain: Chain; text: string; awaited: boolean; receiverType: string | null } | undefined {
  if (!isChainMarker(written)) return undefined;
  const cut = written.indexOf("\u0001");
  let text = cut < 0 ? written.slice(1) : written.slice(1, cut);
  const awaited = text.startsWith("await ");
  if (awaited) text = text.slice(6);
  const chain = chainOf(text);
  return chain === undefined ? undefined : { chain, text, awaited, receiverType: cut < 0 ? null : written.slice(cut + 1) };
}
