/**
 * What tree-sitter's C/C++ grammars are shown when the plain text does not parse: the text with
 * the preprocessor's work approximated, so that valid code is not reported as broken because
 * the parser cannot expand macros (issue 18: 23 of 42 files of jq's src/ and 37 of 72 of fmtlib
 * flagged). Every character removed becomes a space (newlines stay), so offsets and lines are
 * those of the real text.
 *
 * - Directives are blanked (they are the preprocessor's, not the compiler's, and `#define`s in
 *   an enum body or `#ifdef` around half a brace pair are what trips the grammar).
 * - Of each `#if`/`#elif`/`#else` chain one branch is kept: the first, unless it is `#if 0`.
 * - Macro-looking identifiers (ALL_CAPS with an underscore, or a calling convention) used as
 *   declaration specifiers or attributes after a declarator (`BOOL WINAPI f(`, `FMT_API void f(`,
 *   `void f(...) JV_PRINTF_LIKE(1, 2);`) are blanked.
 * - A loop macro (`jv_array_foreach(a, i, x) {`, `list_for_each(p, head)`) reads as `while`
 *   over a comma expression: the same length, a valid statement.
 * - A line that is only a macro invocation (`BINOPS`, `OP(LOADK, CONSTANT, 1, 1)`) after a
 *   complete statement or declaration is blanked.
 */

const CONVENTIONS = new Set(["WINAPI", "CALLBACK", "APIENTRY", "WINAPIV", "STDMETHODCALLTYPE", "__cdecl", "__stdcall", "__fastcall", "__declspec", "__forceinline", "__inline"]);

function blank(s: string): string {
  return s.replace(/[^\n]/g, " ");
}

function macroLike(word: string): boolean {
  return CONVENTIONS.has(word) || (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(word) && word.length >= 4);
}

/** Balanced `( ... )` starting at `i` (which must be `(`): the index after it, or -1. */
function closeParen(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) return j + 1;
    } else if (c === ";" || c === "{" || c === "}") return -1;
  }
  return -1;
}

function reduceLine(line: string): string {
  // `) MACRO(args)` or `) MACRO` before `;`, `{`, `,`, `=` or the line's end: an attribute macro.
  const out = line.replace(/\)(\s*)([A-Za-z_]\w*)(\s*)(?=[;{,=]|$|\()/g, (m: string, sp: string, word: string, sp2: string, offset: number) => {
    if (!macroLike(word)) return m;
    // With an argument list it is measured below.
    if (line[offset + m.length] === "(") return m;
    return `)${sp}${blank(word)}${sp2}`;
  });
  const spans: [number, number][] = [];
  for (const m of out.matchAll(/\)\s*([A-Z][A-Z0-9_]*)\s*\(/g)) {
    const word = m[1] as string;
    if (!macroLike(word)) continue;
    const start = (m.index as number) + m[0].indexOf(word);
    const open = (m.index as number) + m[0].length - 1;
    const end = closeParen(out, open);
    if (end < 0 || !/^\s*([;{,=]|$)/.test(out.slice(end))) continue;
    spans.push([start, end]);
  }
  // Specifier macros: a macro-looking word followed by another word (`FMT_API void`, `BOOL WINAPI DllMain`).
  for (const m of out.matchAll(/\b([A-Za-z_]\w*)(?=\s+[A-Za-z_*&~])/g)) {
    const word = m[1] as string;
    if (!macroLike(word)) continue;
    const before = out.slice(0, m.index as number);
    // Not after `#` (already blanked anyway), `case`, `goto`, `return`, or a `.`/`->` member access.
    if (/(\bcase|\bgoto|\breturn|\.|->)\s*$/.test(before)) continue;
    spans.push([m.index as number, (m.index as number) + word.length]);
  }
  // `if FMT_CONSTEXPR20 (cond)`: a macro between `if` and its condition.
  for (const m of out.matchAll(/\bif\s+([A-Z][A-Z0-9_]+)\s*\(/g)) {
    const word = m[1] as string;
    if (!macroLike(word)) continue;
    const start = (m.index as number) + m[0].indexOf(word);
    spans.push([start, start + word.length]);
  }
  if (spans.length === 0) return out;
  const chars = out.split("");
  for (const [s, e] of spans) for (let i = s; i < e; i++) if (chars[i] !== "\n") chars[i] = " ";
  return chars.join("");
}

const KEYWORDS = new Set(["if", "for", "while", "switch", "return", "sizeof", "catch", "do", "else"]);
const LOOPISH = /each|EACH|(^|_)for(_|$)|(^|_)FOR(_|$)|loop|LOOP|iter|ITER/;

/** `TEST(Suite, Name) {` at top level: a function-defining macro, read as `void x() {`. */
function definingMacro(line: string): string {
  const m = /^([A-Z][A-Z0-9_]*)\s*\(/.exec(line);
  if (!m) return line;
  const end = closeParen(line, m[0].length - 1);
  if (end < 8 || !/^\s*\{?\s*$/.test(line.slice(end))) return line;
  return `void x()${" ".repeat(end - 8)}${line.slice(end)}`;
}

/** `NAME(args) {` or `NAME(args)` at statement level, NAME a loop macro: NAME -> `while` + spaces. */
function loopMacro(line: string, cpp: boolean): string {
  const m = /^(\s+)([A-Za-z_]\w*)(\s*)\(/.exec(line);
  if (!m) return line;
  const word = m[2] as string;
  if (word.length < 5 || KEYWORDS.has(word) || (cpp && !LOOPISH.test(word)) || (!cpp && !LOOPISH.test(word) && !/^[A-Z_0-9]+$/.test(word))) return line;
  const open = m[0].length - 1;
  const end = closeParen(line, open);
  if (end < 0 || !/^\s*(\{\s*)?(\/\/.*|\/\*.*\*\/\s*)?$/.test(line.slice(end))) return line;
  return `${m[1] as string}while${" ".repeat(word.length - 5)}${line.slice((m[1] as string).length + word.length)}`;
}

/** A lone macro invocation line: `NAME`, `NAME(...)` (balanced on the line), nothing after. */
function loneMacro(line: string): boolean {
  const m = /^\s*([A-Z_][A-Z0-9_]*)\s*(\(.*\))?\s*\\?\s*$/.exec(line);
  if (!m) return false;
  if (m[2] !== undefined && closeParen(m[2], 0) !== m[2].length) return false;
  return true;
}

/** The reduced text, or undefined when the reductions changed nothing. */
export function reduceCPreprocessor(text: string, cpp = false): string | undefined {
  const lines = text.split("\n");
  const out: string[] = [];
  interface Cond {
    parentActive: boolean;
    taken: boolean;
    keep: boolean;
  }
  const stack: Cond[] = [];
  const active = (): boolean => stack.every((c) => c.keep);
  let changed = false;
  let prevEnds = true; // the previous code line completed a statement/declaration
  let inDirective = false;
  let inBlockComment = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (inDirective) {
      // A continuation of a blanked directive.
      inDirective = /\\\s*$/.test(line);
      out.push(blank(line));
      changed ||= line.trim() !== "";
      continue;
    }
    const d = inBlockComment ? null : /^\s*#\s*(\w*)\s*(.*)$/.exec(line);
    if (d) {
      const kind = d[1] as string;
      const arg = (d[2] as string).replace(/\/\*.*?\*\/|\/\/.*$/g, "").trim();
      if (kind === "if" || kind === "ifdef" || kind === "ifndef") {
        const par = active();
        const zero = kind === "if" && /^(0|false)$/.test(arg);
        stack.push({ parentActive: par, taken: !zero, keep: !zero });
      } else if (kind === "elif" || kind === "elifdef" || kind === "elifndef") {
        const c = stack[stack.length - 1];
        if (c) {
          const zero = kind === "elif" && /^(0|false)$/.test(arg);
          c.keep = !c.taken && !zero;
          if (c.keep) c.taken = true;
        }
      } else if (kind === "else") {
        const c = stack[stack.length - 1];
        if (c) {
          c.keep = !c.taken;
          c.taken = true;
        }
      } else if (kind === "endif") {
        stack.pop();
      }
      inDirective = /\\\s*$/.test(line);
      out.push(blank(line));
      changed = true;
      continue;
    }
    if (!active()) {
      out.push(blank(line));
      changed ||= line.trim() !== "";
      continue;
    }
    // Block comments are left alone (a `#` inside one is not a directive).
    const opens = line.lastIndexOf("/*");
    const closes = line.lastIndexOf("*/");
    const wasInComment = inBlockComment;
    if (opens > closes) inBlockComment = true;
    else if (closes >= 0) inBlockComment = false;
    if (wasInComment || line.trim() === "" || /^\s*(\/\/|\/\*|\*)/.test(line)) {
      out.push(line);
      continue;
    }
    if (prevEnds && loneMacro(line)) {
      out.push(blank(line));
      changed = true;
      continue;
    }
    const reduced = definingMacro(loopMacro(reduceLine(line), cpp));
    if (reduced !== line) changed = true;
    out.push(reduced);
    const code = reduced.replace(/\/\/.*$/, "").trimEnd();
    if (code !== "") prevEnds = /[;{},]$/.test(code) || /^\s*(public|private|protected)\s*:$/.test(code);
  }
  if (!changed) return undefined;
  return enableIfs(out.join("\n"));
}

/**
 * `FMT_ENABLE_IF(cond)` and the like in a template parameter list expand to an unnamed
 * non-type parameter (`enable_if_t<cond, int> = 0`): read as `int`, padded, across lines.
 */
function enableIfs(text: string): string {
  const re = /\b[A-Z][A-Z0-9_]*(ENABLE_IF|REQUIRES)[A-Z0-9_]*\s*\(/g;
  let out = text;
  for (const m of text.matchAll(re)) {
    const start = m.index as number;
    const open = start + m[0].length - 1;
    const end = closeParen(text, open);
    if (end < 0) continue;
    out = `${out.slice(0, start)}int${blank(out.slice(start + 3, end))}${out.slice(end)}`;
  }
  return out;
}
