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
