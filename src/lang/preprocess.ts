/**
 * Macro masking for C and C++. tree-sitter parses the text as written, without a preprocessor,
 * so attribute and scope macros (`FMT_BEGIN_NAMESPACE`, `class GTEST_API_ Foo`,
 * `FMT_CONSTEXPR auto f()`) derail it and whole regions become ERROR nodes. Such macro names
 * are replaced by spaces before parsing: the text keeps its length, so every offset stays exact,
 * and names are still read from the original text.
 *
 * Only tokens that cannot be types are masked: an ALL_CAPS name with an underscore that stands
 * alone on its line, sits between `class`/`struct`/`union` and the name or between a keyword
 * (`constexpr`, `inline`, ...) and a name, is followed by a keyword that starts a declaration,
 * comes two or more in a row before `name(`, or says it is an attribute (`..._CONSTEXPR`,
 * `..._API`, `..._INLINE`, ...). Preprocessor lines are left alone (`#define FMT_API ...`).
 */
import type Parser from "tree-sitter";
import { type LanguageId, parse } from "./registry.js";
import { parseDeadline } from "./budget.js";
import { lineAt, textLineStarts } from "../text/lines.js";

const MACRO = String.raw`[A-Z][A-Z0-9]*_[A-Z0-9_]*`;
/**
 * Clang's thread-safety annotation macros, as Google's code and its heirs spell them (leveldb's
 * port/thread_annotations.h, abseil's `ABSL_GUARDED_BY`, Chromium's, folly's), with any caps
 * prefix. Several have no underscore (`LOCKABLE`, `REQUIRES`), so MACRO's patterns miss them.
 */
const THREAD_ANNOTATION = String.raw`(?:[A-Z][A-Z0-9]*_)*(?:PT_GUARDED_BY|GUARDED_BY|GUARDED_VAR|ACQUIRED_AFTER|ACQUIRED_BEFORE|(?:EXCLUSIVE|SHARED)_LOCKS_REQUIRED|LOCKS_EXCLUDED|LOCK_RETURNED|(?:EXCLUSIVE|SHARED)_(?:TRY)?LOCK_FUNCTION|UNLOCK_FUNCTION|ASSERT_(?:EXCLUSIVE|SHARED)_LOCK|NO_THREAD_SAFETY_ANALYSIS|(?:SCOPED_)?LOCKABLE|(?:SCOPED_)?CAPABILITY|REQUIRES(?:_SHARED)?|(?:TRY_)?ACQUIRE(?:_SHARED)?|RELEASE(?:_SHARED|_GENERIC)?|EXCLUDES|RETURN_CAPABILITY|ASSERT_(?:SHARED_)?CAPABILITY)(?![\w])`;
/** An annotation's optional arguments: one level of nested parentheses. */
const ANNOTATION_ARGS = String.raw`(?:\((?:[^()\n]|\([^()\n]*\))*\))?`;
const DECL_START =
  String.raw`(?:auto|void|bool|char|int|short|long|unsigned|signed|float|double|const|constexpr|consteval|inline|static|extern|explicit|virtual|friend|template|typename|class|struct|union|enum|namespace|using|typedef|size_t|std::)\b`;

/**
 * A macro alone on its line whose arguments nest parentheses (fmt's `FMT_PRAGMA_GCC(optimize("Og"))`
 * and `FMT_PRAGMA_MSVC(warning(disable : 4702))` in base.h, where tree-sitter's recovery from them
 * lost what followed), when the next line starts a statement, a directive or a brace: googletest's
 * `EXPECT_CALL(mock, Method(_))` goes on with `.WillOnce(...)` on the next line, a call.
 */
const NESTED_MACRO_LINE = new RegExp(String.raw`^[ \t]*(${MACRO})\((?:[^()\n]|\([^()\n]*\))*\)[ \t]*(?=\r?\n[ \t]*(?:[#}A-Za-z_]|//|/\*|\r?\n))`, "gm");

/**
 * JSON_PRIVATE_UNLESS_TESTED: alone on its line, a macro standing for an access specifier
 * (nlohmann/json's `private` unless its tests build it `public`): tree-sitter read it as a member
 * missing its type, and basic_json's class ended at its third one (the union json_value, dump,
 * get, erase and every member after were lost or read as free functions). The macro and its colon
 * are blanked, after a statement or a brace only (a goto label there is no symbol either): the
 * members keep the access before it.
 */
const ACCESS_MACRO = new RegExp(String.raw`^[ \t]*(${MACRO}[ \t]*:)(?!:)(?=[ \t]*(?:\/\/[^\n]*|\/\*[^\n]*?\*\/[ \t]*)?\r?$)`, "gm");

const PATTERNS: RegExp[] = [
  // A macro alone on its line (optionally with an argument list): FMT_BEGIN_NAMESPACE, FMT_EXPORT.
  new RegExp(String.raw`^[ \t]*(${MACRO})(?:\([^()\n]*\))?[ \t]*(?=\r?$)`, "gm"),
  // extern "C" __declspec(dllimport) int __stdcall IsDebuggerPresent(); (spdlog's msvc_sink.h):
  // MSVC's calling conventions before a function's name. After `extern "C"` tree-sitter read the
  // declaration as a function definition whose body was the `namespace spdlog { ... }` after it,
  // and the namespace's classes were `IsDebuggerPresent::sinks::msvc_sink`.
  /(?<![\w#])(__(?:stdcall|cdecl|fastcall|thiscall|vectorcall|clrcall))[ \t*&]+(?=[A-Za-z_]\w*[ \t]*\()/g,
  // SPDLOG_TRY { sink->log(msg); }, FMT_TRY {, a wrapped declaration's SPDLOG_NOEXCEPT {: a
  // macro that starts its line and opens a block (`try`, `noexcept`). Kept, spdlog's logger-inl.h
  // lost the end of `namespace spdlog` and its last methods' calls had the namespace as caller.
  new RegExp(String.raw`^[ \t]*(${MACRO})[ \t]*(?=\{)`, "gm"),
  // class GTEST_API_ Name {, struct FMT_EXPORT Name : Base: a class head only (in C,
  // `struct IO_STATUS_BLOCK s;` and `struct MY_T f(void)` name the struct by that tag).
  new RegExp(String.raw`\b(?:class|struct|union)[ \t]+(${MACRO})(?:\([^()\n]*\))?[ \t]+(?=[A-Za-z_][\w:]*(?:[ \t]+final)?[ \t]*(?:\{|:[^:]|\r?$))`, "gm"),
  // GTEST_API_ Cardinality AtLeast(int n): a macro, then a type and a name and "(" (a macro that
  // is itself the type, `YY_BUFFER_STATE f(`, has only the name before the parenthesis).
  new RegExp(String.raw`^[ \t]*(${MACRO})[ \t]+(?=[A-Za-z_][\w:<>,]*[ \t*&]+[A-Za-z_][\w:]*[ \t]*\()`, "gm"),
  // constexpr FMT_ALWAYS_INLINE basic_format_args(...): a macro between a keyword and a name.
  new RegExp(String.raw`(?=${MACRO})(?<=\b(?:constexpr|consteval|inline|static|virtual|explicit|friend|extern)[ \t]+)(${MACRO})[ \t]+(?=[A-Za-z_])`, "g"),
  // int CJSON_CDECL main(void), cJSON * SQLITE_STDCALL f(...): a calling-convention macro
  // between the return type and the name (two type names in a row are no C type). Not after a
  // keyword that takes a name (`struct TAG_T f(` returns a struct).
  new RegExp(
    String.raw`(?=${MACRO})(?<=\b(?!(?:struct|union|enum|class|return|else|case|goto|sizeof|typedef|new|delete|throw|operator)\b)[A-Za-z_]\w*[ \t*&]+)(${MACRO})[ \t*&]+(?=[A-Za-z_]\w*[ \t]*\()`,
    "g",
  ),
  // int ZLIB_INTERNAL z_verbose = verbose;, const uch ZLIB_INTERNAL _dist_code[N] = {: the same
  // between a variable's type and its name (kept, zlib's variables were named ZLIB_INTERNAL). Not
  // after a qualifier or storage class, where the caps name is the type (`const SIZE_T n = 1;`).
  new RegExp(
    String.raw`(?=${MACRO})(?<=\b(?!(?:struct|union|enum|class|return|else|case|goto|sizeof|typedef|new|delete|throw|operator|const|volatile|static|extern|register|inline|mutable|constexpr|thread_local|unsigned|signed|long|short)\b)[A-Za-z_]\w*[ \t*&]+)(${MACRO})[ \t*&]+(?=[A-Za-z_]\w*[ \t]*(?:\[|=(?!=)|;))`,
    "g",
  ),
  // SPDLOG_INLINE int pid() SPDLOG_NOEXCEPT {, bool empty() const SPDLOG_NOEXCEPT {: a macro
  // after a function head's parameters (`noexcept`). With an empty parameter list tree-sitter
  // read `pid()` as a call and lost the function (spdlog's os::now, os::pid, os::thread_id).
  // Only after `name(...)` that starts a line's declaration (not `return (size_t) SIZE_MAX;`).
  new RegExp(
    String.raw`^[ \t]*(?:[\w:<>,~]+(?:[ \t]+|[ \t]*[*&]+[ \t]*))*(?!(?:return|if|while|for|switch|sizeof|case|else|do|throw|delete|new)\b)[A-Za-z_~][\w:]*[ \t]*\([^()\n]*\)[ \t]*(?:const[ \t]+)?(${MACRO})(?=[ \t]*(?:\{|;|\r?$|override\b|final\b|->|=))`,
    "gm",
  ),
  // FMT_CONSTEVAL FMT_ALWAYS_INLINE fstring(...): two or more macros before a name and "(".
  new RegExp(String.raw`^[ \t]*((?:${MACRO}[ \t]+){2,})(?=[A-Za-z_]\w*[ \t]*\()`, "gm"),
  // FMT_CONSTEXPR typed_node(...): a macro whose name says it is an attribute, before any name.
  new RegExp(String.raw`(?<![\w#])([A-Z][A-Z0-9_]*(?:CONSTEXPR|CONSTEVAL|INLINE|API|EXPORT|NODISCARD|DEPRECATED|NORETURN|NOINLINE|VISIBILITY|ATTRIBUTE|UNUSED|MAYBE_UNUSED)\w*)[ \t]+(?=[A-Za-z_~])`, "g"),
  // FMT_CONSTEXPR auto f(), GTEST_API_ bool g(), FMT_NODISCARD FMT_INLINE int h()
  new RegExp(String.raw`(?<![\w#])(${MACRO})(?:\([^()\n]*\))?[ \t]+(?=(?:${MACRO}[ \t]+)*${DECL_START})`, "g"),
  // Clang's thread-safety annotations (see THREAD_ANNOTATION), where they stand: after a
  // function's parameters (`void Lock() EXCLUSIVE_LOCK_FUNCTION() {`, `bool Insert(..)
  // LOCKS_EXCLUDED(mu_) {`), after a declarator (`int total GUARDED_BY(mu);`, also on the next
  // line), between `class` and the name (`class LOCKABLE Mutex {`). leveldb's fields were methods
  // named GUARDED_BY, port::Mutex was lost, and its methods were functions named like the macros.
  // (Also on the line after the parameters, and before a constructor's `: initializers`.)
  new RegExp(String.raw`(?=${THREAD_ANNOTATION})(?<=\)\s*(?:(?:const|volatile|noexcept|override|final|&&?)\s*)*(?:${THREAD_ANNOTATION}${ANNOTATION_ARGS}\s*)*)(${THREAD_ANNOTATION})(?=${ANNOTATION_ARGS}[ \t]*(?:\{|;|=|:(?!:)|\r?$|override\b|final\b|->|${THREAD_ANNOTATION}))`, "gm"),
  new RegExp(String.raw`(?=${THREAD_ANNOTATION})(?<=[\w\]]\s+)(${THREAD_ANNOTATION})(?=\([^()\n]*\)[ \t]*(?:;|=|\{))`, "g"),
  new RegExp(String.raw`(?=${THREAD_ANNOTATION})(?<=\b(?:class|struct)[ \t]+)(${THREAD_ANNOTATION})(?=(?:\([^()\n]*\))?[ \t]+[A-Za-z_])`, "g"),
  NESTED_MACRO_LINE,
  ACCESS_MACRO,
  // JSON_NO_UNIQUE_ADDRESS key_compare m_compare = key_compare();: a macro that starts its line
  // before a field's or a variable's type and name (`[[no_unique_address]]`); kept, ordered_map's
  // closing `};` was lost. (`UNITY_UINT64 v0, v1;` declares two variables of a macro type.)
  new RegExp(String.raw`^[ \t]*(${MACRO})[ \t]+(?!(?:const|volatile)\b)(?=[A-Za-z_][\w:]*(?:<[^;(){}\n]*>)?[ \t*&]+[A-Za-z_]\w*[ \t]*(?:=|;|\{|\[))`, "gm"),
];

/**
 * A cheap test that a text can hold a match, for the patterns that begin with a lookbehind: V8
 * tries such a pattern's lookbehind at every position of the text, and the five of them took
 * 410 of the 570 ms that masking the mixed tree's 212 C/C++ files cost (one thread), with
 * matches in under a quarter of the files. Each hint is a part every match contains.
 * Where the hint holds, each such pattern starts with a lookahead for its own capture (the macro
 * or the annotation) before its lookbehind, so that the lookbehind is tried only where a capture
 * starts: catch.hpp (657 KB, every hint present) took 600 ms to mask, 200 ms with it, the same text.
 */
const THREAD_HINT = /GUARDED_|ACQUIRE|LOCK|NO_THREAD|CAPABILITY|REQUIRES|RELEASE|EXCLUDES/;
const BETWEEN_HINT = new RegExp(String.raw`\w[ \t*&]+${MACRO}[ \t*&]+[A-Za-z_]`);
const HINTS = new Map<RegExp, RegExp>([
  [PATTERNS[5] as RegExp, new RegExp(String.raw`\b(?:constexpr|consteval|inline|static|virtual|explicit|friend|extern)[ \t]+${MACRO}`)],
  [PATTERNS[6] as RegExp, BETWEEN_HINT],
  [PATTERNS[7] as RegExp, BETWEEN_HINT],
  [PATTERNS[12] as RegExp, THREAD_HINT],
  [PATTERNS[13] as RegExp, THREAD_HINT],
  [PATTERNS[14] as RegExp, THREAD_HINT],
]);

/** The hinted patterns and their hints, for the test that each hint is in every match. */
export function maskHints(): [pattern: RegExp, hint: RegExp][] {
  return [...HINTS];
}

const LANGUAGES = new Set<LanguageId>(["c", "cpp"]);

/**
 * `using` as a name in TypeScript: tree-sitter-typescript takes every `using` for TS 5.2's
 * declaration keyword (`using res = open();`), so drizzle-kit's `(.., using?: string, ..) => {`
 * and `{ using: IndexConfig['using'] }` turned the rest of the file into ERROR nodes (jsonStatements.ts
 * lost prepareMySqlCreateViewJson and two more exported functions; a one-line file with such a
 * parameter loses every declaration). A `using` not followed by a name, not a property after `.`
 * and not in quotes is handed to the parser as another identifier of the same length; names are
 * read from the original text.
 */
const USING_LANGUAGES = new Set<LanguageId>(["typescript", "tsx"]);
// (Not in a module path, `'./using-node.js'`: the dependency's specifier is read from the parsed
// text, and kysely's 7 imports of its using-node.js went to `./_sing-node.js`. A spread,
// `...using`, is masked: kysely's using-node.ts lost its cloneWithTables body to it.)
const USING_NAME = /(?<![\w$'"`/@-])(?<!(?<!\.\.)\.)using(?![\w$-])(?![ \t]+[A-Za-z_$])/g;

/** The text to hand the parser: the same length as `text`, with derailing macros blanked. */
/**
 * `&raw` as a borrow of a variable named raw in Rust: tree-sitter-rust takes every `&raw` for
 * the raw borrow operator (`&raw const x`, `&raw mut x`), so bat's `match &raw {` in
 * build/syntax_mapping.rs turned the rest of the impl into ERROR nodes and lost the enum and the
 * impls after it (their methods became functions nested in try_from, reported dead). A `raw`
 * after `&` not followed by `const` or `mut` is handed to the parser as another name of the same
 * length; names are read from the original text.
 */
const RAW_BORROW = /(?<=&[ \t]*)raw\b(?![ \t]+(?:const|mut)\b)/g;

/**
 * TypeScript modifiers tree-sitter-typescript 0.23 does not read, each a parse error whose recovery
 * took what followed: `static accessor x` and `override accessor x` (TS 4.9's auto-accessors after
 * another modifier), `abstract override p: T` on a property, `export type * from './types'` (TS
 * 5.0; hono's jsx/index.ts), variance annotations `<in T, out U, in out V>` (TS 4.7; zod's
 * `ZodType<out Output>`). The keyword is handed to the parser as spaces: an accessor is read as a
 * field, `export type *` as `export *`, a variance annotation as a plain type parameter. Names are
 * read from the original text.
 */
const TS_MODIFIERS: [hint: RegExp, mask: RegExp][] = [
  [/\baccessor\b/, /(?<=\b(?:static|override|public|private|protected|readonly|declare|abstract)[ \t]+)accessor(?=[ \t]+[A-Za-z_$#[])/g],
  [/\babstract[ \t]+override\b|\boverride[ \t]+abstract\b/, /(?<=\babstract[ \t]+)override(?=[ \t]+[A-Za-z_$#[])|\boverride(?=[ \t]+abstract[ \t]+[A-Za-z_$#[])/g],
  [/\btype[ \t]*\*/, /(?<=\bexport[ \t]+)type(?=[ \t]*\*)/g],
  [/[<,][ \t\r\n]*(?:in|out)[ \t\r\n]/, /(?<=[<,][ \t\r\n]*)(?:in[ \t]+out|in|out)(?=[ \t\r\n]+[A-Za-z_$][\w$]*[ \t\r\n]*(?:[,>=]|extends\b))/g],
];

/**
 * `in` and `instanceof` as a property's name at the start of a line (vue's runtime-dom jsx.ts:
 * `name?: string` then `in?: string` in an interface without semicolons): tree-sitter-typescript
 * read the keyword as continuing the type before it (`string in ...`), and the property was lost.
 * Handed to the parser as another name of the same length; names are read from the original text.
 */
const KEYWORD_PROPERTY = /^([ \t]*)(in|instanceof)(?=\??[ \t]*:)/gm;

function maskTypeScript(text: string): string {
  let out = text.includes("using") ? text.replace(USING_NAME, "_sing") : text;
  if (/^[ \t]*in(?:stanceof)?\??[ \t]*:/m.test(out)) out = out.replace(KEYWORD_PROPERTY, (_m, indent: string, kw: string) => `${indent}_${kw.slice(1)}`);
  // Each mask runs over the whole text only where its own hint is there: `override` alone is
  // in most of effect's files, and the four masks cost the bench corpus 140 ms of one thread.
  for (const [hint, re] of TS_MODIFIERS) if (hint.test(out)) out = out.replace(re, (m) => " ".repeat(m.length));
  return out;
}

/**
 * Reserved words as the names of an import or export specifier, `export { void_ as void }`,
 * `import { delete as del } from "./a.js"` (valid since ES2015: a module's names are any
 * IdentifierName; TypeScript emits them for effect's `void` and `delete`): tree-sitter-javascript
 * 0.23 made an ERROR of each (23 of effect's built esm files), and the specifier lost its alias.
 * Inside an import or export clause's braces, such a word is handed to the parser as a name of the
 * same length; names are read from the original text. tree-sitter-typescript reads them already.
 * (Comments inside the braces may hold braces: effect's esm puts each name's JSDoc there.)
 */
const CLAUSE_START = /\b(?:import|export)[ \t]*(?:type[ \t]+)?\{/g;
const RESERVED_NAME =
  /(?<![\w$.])(?:break|case|catch|class|const|continue|debugger|delete|do|else|enum|export|extends|false|finally|for|function|if|import|in|instanceof|new|null|return|super|switch|this|throw|true|try|typeof|var|void|while|with)(?![\w$])/g;
function maskJavaScript(text: string): string {
  if (!/\b(?:import|export)[ \t]*\{/.test(text)) return text;
  // A scan, not one regex for the clause: a regex that skips comments backtracked over every
  // later clause when one was never closed (200,000 unclosed `export {`: ten minutes).
  const parts: string[] = [];
  let from = 0;
  CLAUSE_START.lastIndex = 0;
  for (let m = CLAUSE_START.exec(text); m !== null; m = CLAUSE_START.exec(text)) {
    const open = m.index + m[0].length - 1;
    const close = clauseEnd(text, open + 1);
    if (close < 0) {
      // Not closed before another `{` (the next clause's, perhaps: it is looked for from here; its
      // scan starts at its own `{`, where this one stopped) or the end: no clause.
      CLAUSE_START.lastIndex = -close >= text.length ? text.length : open + 1;
      continue;
    }
    CLAUSE_START.lastIndex = close + 1;
    const inner = text.slice(open, close + 1);
    RESERVED_NAME.lastIndex = 0;
    if (!RESERVED_NAME.test(inner)) continue;
    parts.push(text.slice(from, open), inner.replace(RESERVED_NAME, (w) => `_${w.slice(1)}`));
    from = close + 1;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(from));
  return parts.join("");
}

/**
 * The `}` that closes a specifier clause whose `{` is before `at`, past comments; minus where the
 * scan stopped when there is none (another `{`, the end of the text).
 */
function clauseEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 125 /* } */) return i;
    if (c === 123 /* { */) return -i;
    if (c === 47 /* / */ && text.charCodeAt(i + 1) === 42 /* * */) {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return -text.length;
      i = end + 2;
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf("\n", i + 2);
      if (end < 0) return -text.length;
      i = end + 1;
    } else i++;
  }
  return -text.length;
}

export function maskForParse(language: LanguageId, text: string): string {
  if (USING_LANGUAGES.has(language)) return maskTypeScript(text);
  if (language === "javascript") return maskJavaScript(text);
  if (language === "rust") return text.includes("&raw") || text.includes("& raw") ? text.replace(RAW_BORROW, "rav") : text;
  if (!LANGUAGES.has(language)) return text;
  // Blanked ranges as [start, end) pairs, applied once at the end: a char array of the text
  // (split and join) cost more than the ten patterns on the large test headers.
  const blank: number[] = [];
  const lines = new LineStarts(text);
  defineComments(lines, blank);
  includeTests(text, blank);
  externCGuards(text, blank);
  namespaceGuards(text, blank);
  vaArgTypes(text, blank);
  typeArgMacros(text, blank);
  unbalancedBranches(text, blank);
  expressionGroups(lines, blank);
  storageMacros(lines, blank);
  wrapperMacros(text, blank);
  attributeCalls(lines, blank);
  parameterAttributes(text, blank);
  // Every pattern needs a MACRO (a capital or digit, then an underscore: CLI11_INLINE has a digit)
  // or a calling convention (`__stdcall`).
  let braces: BraceScan | undefined;
  if (/[A-Z0-9]_|__[a-z]+call\b|LOCKABLE|CAPABILITY|REQUIRES|EXCLUDES|ACQUIRE|RELEASE/.test(text)) for (const re of PATTERNS) {
    if (HINTS.get(re)?.test(text) === false) continue;
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      const token = m[1] as string;
      const at = (m.index as number) + (m[0] as string).indexOf(token);
      if (isPreprocessorLine(lines, at)) continue;
      // (`{ FOO_A, FOO_B {` in a braced list is an element, not a macro.)
      if ((re === PATTERNS[0] || re === PATTERNS[2] || re === NESTED_MACRO_LINE) && inList(text, at, at + token.length)) continue;
      // (`YAML_DECLARE(int)\nyaml_parser_initialize(yaml_parser_t *parser)` is the function's type.)
      if ((re === PATTERNS[0] || re === NESTED_MACRO_LINE) && returnTypeMacro(text, m.index as number, (m.index as number) + (m[0] as string).length, (braces ??= new BraceScan(text)))) continue;
      // (`cond ?\n  O_RDONLY :\n  O_WRONLY` is a ternary's middle, not an access specifier.)
      if (re === ACCESS_MACRO && !afterStatement(text, at)) continue;
      // Blank the name and a directly following argument list.
      let end = at + token.length;
      if (text[end] === "(") {
        // The parenthesis that closes it on the same line (`ABSL_GUARDED_BY(f(x))`).
        let depth = 0;
        for (let i = end; i < text.length && text[i] !== "\n"; i++) {
          if (text[i] === "(") depth++;
          else if (text[i] === ")" && --depth === 0) {
            end = i + 1;
            break;
          }
        }
      }
      blank.push(at, end);
    }
  }
  return blank.length === 0 ? text : blanked(text, blank);
}

/** The rest of a line, a trailing comment allowed, and its end. */
const LINE_END = String.raw`(?:\/\/[^\n]*|\/\*[^\n]*?\*\/[ \t]*)?\r?\n`;

/**
 * `__has_include(<optional>)` and its wrappers (`FMT_HAS_INCLUDE(<xlocale.h>)`) in `#if` and
 * `#elif`: tree-sitter's preprocessor expressions take neither a `<header>` nor a string as an
 * argument, and the ERROR it made of the condition put the group's code beside the directive, not
 * inside it (fmt's os.h and std.h, cxxopts.hpp: a C++17 header test in most modern libraries).
 * The argument list is blanked, so the condition reads as the name alone; the `#include` lines
 * inside the group are untouched.
 */
const CONDITION_LINE = /^[ \t]*#[ \t]*(?:el)?if\b[^\n]*has_include[^\n]*/gim;
const INCLUDE_TEST = /\b\w*has_include\w*[ \t]*(\([ \t]*(?:<[^>\n]*>|"[^"\n]*")[ \t]*\))/gi;
function includeTests(text: string, blank: number[]): void {
  if (!/has_include/i.test(text)) return;
  for (const line of text.matchAll(CONDITION_LINE)) {
    for (const m of (line[0] as string).matchAll(INCLUDE_TEST)) {
      const end = (line.index as number) + (m.index as number) + (m[0] as string).length;
      blank.push(end - (m[1] as string).length, end);
    }
  }
}

/**
 * The C header's guard for C++ callers, `#ifdef __cplusplus\nextern "C" {\n#endif` ... `#ifdef
 * __cplusplus\n}\n#endif`: tree-sitter reads both groups as written, so the first one's `{` opens a
 * linkage block its own `#endif` cannot close, and the file ends in a MISSING `#endif` (7 of
 * hiredis's headers, nearly every C library's). A C compiler sees neither group, and the parse is
 * handed the same: both groups are blanked, lines kept, and the declarations between them read
 * at the top level. A group holding anything else, or openers and closers that do not pair, are
 * left alone.
 */
const EXTERN_C_GUARD = new RegExp(
  [
    String.raw`^[ \t]*#[ \t]*(?:ifdef[ \t]+__cplusplus|if[ \t]+defined[ \t]*(?:\([ \t]*__cplusplus[ \t]*\)|[ \t]__cplusplus))[ \t]*${LINE_END}`,
    String.raw`[ \t]*(?:(?<open>extern[ \t]+"C"[ \t]*(?:${LINE_END}[ \t]*)?\{)|\})[ \t]*${LINE_END}`,
    String.raw`[ \t]*#[ \t]*endif\b[^\n]*`,
  ].join(""),
  "gm",
);
function externCGuards(text: string, blank: number[]): void {
  if (!text.includes("__cplusplus")) return;
  const groups = [...text.matchAll(EXTERN_C_GUARD)];
  // Only openers and closers in pairs: an opener whose `}` is not guarded (C++-only code) keeps both.
  const opens = groups.filter((m) => m.groups?.open !== undefined).length;
  if (opens === 0 || opens * 2 !== groups.length) return;
  for (const m of groups) blankLines(text, m.index as number, (m.index as number) + (m[0] as string).length, blank);
}

/**
 * The same guard around a namespace: `#ifndef JSON_HAS_CPP_17\nnamespace // NOLINT\n{\n#endif`,
 * a declaration, then `#ifndef JSON_HAS_CPP_17\n}  // namespace\n#endif` (nlohmann/json puts its
 * `from_json`/`to_json` objects in an anonymous namespace before C++17). Read as written, the
 * first group's `{` cannot close inside it, and tree-sitter made one ERROR of the rest of the
 * single header (lines 5111 to 24766): every later symbol lost its `nlohmann::` scope. When the
 * groups that only open a namespace and those that only close one pair up under each condition,
 * all of them are blanked (the declarations read at the enclosing level, as a C++17 build has
 * them); otherwise they are left alone.
 */
const NAMESPACE_GUARD = new RegExp(
  [
    String.raw`^[ \t]*#[ \t]*(?<cond>if(?:n?def)?[ \t][^\n]*?)[ \t]*${LINE_END}`,
    String.raw`(?:[ \t]*\/\/[^\n]*\r?\n)*`,
    String.raw`[ \t]*(?:(?<open>(?:inline[ \t]+)?namespace(?:[ \t]+[A-Za-z_][\w:]*)?[ \t]*(?:\/\/[^\n]*)?(?:\r?\n[ \t]*)?\{)|\})[ \t]*${LINE_END}`,
    String.raw`[ \t]*#[ \t]*endif\b[^\n]*`,
  ].join(""),
  "gm",
);
function namespaceGuards(text: string, blank: number[]): void {
  if (!/^[ \t]*#[ \t]*if/m.test(text) || !text.includes("namespace")) return;
  const byCondition = new Map<string, { opens: number; closes: number; groups: RegExpMatchArray[] }>();
  for (const m of text.matchAll(NAMESPACE_GUARD)) {
    const cond = (m.groups?.cond as string).replace(/\s+/g, " ");
    let g = byCondition.get(cond);
    if (!g) byCondition.set(cond, (g = { opens: 0, closes: 0, groups: [] }));
    if (m.groups?.open !== undefined) g.opens++;
    else g.closes++;
    g.groups.push(m);
  }
  for (const g of byCondition.values()) {
    if (g.opens === 0 || g.opens !== g.closes) continue;
    for (const m of g.groups) blankLines(text, m.index as number, (m.index as number) + (m[0] as string).length, blank);
  }
}

/**
 * `va_arg(ap, char*)`: stdarg's macro takes a type as its second argument, which no call does,
 * and tree-sitter made an ERROR of it in every printf-style helper (hiredis's hiredis.c and
 * sds.c). The comma and the type are blanked: the parse sees `va_arg(ap)`, a call. A type with
 * parentheses (a function pointer's) is left as it is.
 */
const VA_ARG = /\bva_arg[ \t]*\([^,()\n]*(,[^()\n]*)\)/g;
function vaArgTypes(text: string, blank: number[]): void {
  if (!text.includes("va_arg")) return;
  for (const m of text.matchAll(VA_ARG)) {
    const end = (m.index as number) + (m[0] as string).length - 1;
    blank.push(end - (m[1] as string).length, end);
  }
}

/**
 * A statement-like macro invocation on a line of its own whose arguments hold both a builtin type
 * and a literal: abseil's `ABSL_FLAG(int, max_failures, 100, "help");`. With a type among the
 * arguments tree-sitter takes the line for a function's declarator, the literal breaks its
 * parameter list, and the recovery reads that list on to the next `)` and the next body: a
 * function named ABSL_FLAG swallowed the `namespace re2 {` after it (re2's pcre.cc lost
 * `PCRE::Init`, the constructors, `pcre_compile`...). No parameter list holds a literal and no call
 * a type, so it is a macro's call: the type arguments and their commas are blanked and the parse
 * sees `ABSL_FLAG(max_failures, 100, "help");`. A type the grammar reads as a name (`std::string`)
 * never derailed it; only the grammar's primitive types (`int32_t` too) and sized specifiers do.
 */
const LINE_MACRO_CALL = new RegExp(String.raw`^[ \t]*${MACRO}[ \t]*\(`, "gm");
const PRIMITIVE_ARG = new RegExp(
  String.raw`^(?:(?:const|volatile|signed|unsigned|short|long)\s+)*` +
    String.raw`(?:bool|char|int|float|double|void|s?size_t|ptrdiff_t|u?intptr_t|charptr_t|nullptr_t|max_align_t|u?int(?:8|16|32|64)_t|char(?:8|16|32)_t|signed|unsigned|short|long)` +
    String.raw`(?:\s+(?:const|volatile|int|long|char|double))*[\s*&]*$`,
);
const LITERAL_ARG = /^(?:[-+]?[ \t]*\.?[0-9]|(?:u8|[uUL])?["']|\{|(?:true|false|nullptr)$)/;
function typeArgMacros(text: string, blank: number[]): void {
  LINE_MACRO_CALL.lastIndex = 0;
  for (const m of text.matchAll(LINE_MACRO_CALL)) {
    const open = (m.index as number) + (m[0] as string).length - 1;
    // The closing parenthesis and the top-level commas, strings and comments skipped; a few
    // lines at most (help texts are split over lines).
    const commas: number[] = [];
    let depth = 0;
    let close = -1;
    for (let i = open; i < text.length && i < open + 2000; i++) {
      const c = text.charCodeAt(i);
      if (c === 34 || c === 39) {
        for (i++; i < text.length && text.charCodeAt(i) !== c && text.charCodeAt(i) !== 10; i++) if (text.charCodeAt(i) === 92) i++;
      } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
        const end = text.indexOf("\n", i);
        i = end < 0 ? text.length : end;
      } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
        const end = text.indexOf("*/", i + 2);
        i = end < 0 ? text.length : end + 1;
      } else if (c === 40 || c === 91 || c === 123) depth++;
      else if (c === 41 || c === 93 || c === 125) {
        if (--depth === 0) {
          close = i;
          break;
        }
      } else if (c === 44 && depth === 1) commas.push(i);
      else if (c === 59 && depth === 1) break;
    }
    if (close < 0 || commas.length === 0 || !/^\s*;/.test(text.slice(close + 1, close + 40))) continue;
    const bounds = [open, ...commas, close];
    const types: number[] = [];
    let literal = false;
    for (let k = 0; k + 1 < bounds.length; k++) {
      const arg = text.slice((bounds[k] as number) + 1, bounds[k + 1] as number).trim();
      if (PRIMITIVE_ARG.test(arg)) types.push(k);
      else if (LITERAL_ARG.test(arg)) literal = true;
    }
    if (!literal || types.length === 0) continue;
    // Each type with the comma after it (the last one: before it), so the arguments left stay a list.
    for (const k of types) {
      if (k + 2 < bounds.length) blank.push((bounds[k] as number) + 1, (bounds[k + 1] as number) + 1);
      else blank.push(bounds[k] as number, bounds[k + 1] as number);
    }
  }
}

/**
 * Block comments on a continued `#define` line. tree-sitter-c ends the directive at a comment
 * that follows some of its value and is followed by a `\` continuation (a `public` comment line
 * between members): the define's remaining lines were parsed as code, and libuv's
 * `#define UV_REQ_FIELDS` swallowed the `struct uv_req_s` after it into a function definition.
 * Blanked, the define is one directive again; nothing is read from such comments.
 */
function defineComments(lines: LineStarts, blank: number[]): void {
  const text = lines.text;
  if (!text.includes("\\\n") && !text.includes("\\\r\n")) return;
  const re = /\/\*(?:(?!\*\/)[^\n])*\*\//g;
  for (const m of text.matchAll(re)) {
    const start = m.index as number;
    const end = start + (m[0] as string).length;
    let eol = text.indexOf("\n", end);
    if (eol < 0) eol = text.length;
    if (!/\\[ \t]*\r?$/.test(text.slice(end, eol))) continue;
    if (!isPreprocessorLine(lines, start)) continue;
    blank.push(start, end);
  }
}

/**
 * Conditional groups whose branches open or close braces. tree-sitter reads every branch of an
 * `#if`/`#else` as written, one after the other, so libuv's
 * `#if UV__KQUEUE_EVFILT_USER\n  for (;!supported;) {\n#else\n  for (;;) {\n#endif` opens two
 * loops that one `}` closes, and the parse lost the function (`uv__async_io`) and everything
 * after it. A compiler sees one branch: where some branch's braces do not balance, the parse
 * sees only the first (the `#else` one after `#if 0`), with the directive lines blanked so that it
 * is plain code; `#include` lines of the other branches are kept (the dependencies). Groups whose
 * branches all balance are left to tree-sitter, which parses them as they are.
 */
function unbalancedBranches(text: string, blank: number[]): void {
  if (!/^[ \t]*#[ \t]*if/m.test(text)) return;
  // A branch runs from its directive line to the next branch's (or the #endif line).
  type Group = { zero: boolean; branches: { at: number; end: number; delta: number }[] };
  const stack: Group[] = [];
  const n = text.length;
  let inComment = false;
  let i = 0;
  while (i < n) {
    let end = text.indexOf("\n", i);
    if (end < 0) end = n;
    const top = stack[stack.length - 1];
    // (A directive's first other character is `#`: most lines are code and skip the regex.)
    let first = i;
    while (first < end && (text.charCodeAt(first) === 32 || text.charCodeAt(first) === 9)) first++;
    const d = inComment || text.charCodeAt(first) !== 35 ? null : /^[ \t]*#[ \t]*(\w+)/.exec(text.slice(i, Math.min(end, i + 64)));
    if (d) {
      // A directive and its continuation lines.
      while (end < n && /\\\r?$/.test(text.slice(Math.max(i, end - 2), end))) {
        const next = text.indexOf("\n", end + 1);
        end = next < 0 ? n : next;
      }
      const word = d[1] as string;
      if (word === "if" || word === "ifdef" || word === "ifndef") {
        const zero = SECOND_BRANCH.test(text.slice(i, end));
        stack.push({ zero, branches: [{ at: i, end, delta: 0 }] });
      } else if (top && (word === "else" || word.startsWith("elif"))) top.branches.push({ at: i, end, delta: 0 });
      else if (top && word === "endif") {
        stack.pop();
        // A group of one branch after `#if 0` or a test for Windows alone keeps none of it.
        const keep = top.zero ? (top.branches.length > 1 ? 1 : -1) : 0;
        const kept = top.branches[keep];
        const unbalanced = top.branches.some((b) => b.delta !== 0);
        if (unbalanced) {
          top.branches.forEach((b, k) => {
            const to = top.branches[k + 1]?.at ?? i;
            // The kept branch loses its directive line only; the others all but their #includes.
            blankLines(text, b.at, k === keep ? b.end : to, blank);
          });
          blankLines(text, i, end, blank);
        }
        // The enclosing branch holds what the parse sees of this group.
        const outer = stack[stack.length - 1]?.branches.at(-1);
        if (outer) outer.delta += unbalanced ? (kept?.delta ?? 0) : top.branches.reduce((sum, b) => sum + b.delta, 0);
      }
      i = end + 1;
      continue;
    }
    // Code: count braces outside comments, strings and character literals.
    // (Character codes: a string per character was most of this scan's time.)
    let delta = 0;
    for (let j = i; j < end; j++) {
      const c = text.charCodeAt(j);
      if (inComment) {
        if (c === 42 /* * */ && text.charCodeAt(j + 1) === 47) {
          inComment = false;
          j++;
        }
      } else if (c === 47 /* / */ && text.charCodeAt(j + 1) === 42) {
        inComment = true;
        j++;
      } else if (c === 47 && text.charCodeAt(j + 1) === 47) break;
      else if (c === 34 /* " */ || c === 39 /* ' */) {
        for (j++; j < end && text.charCodeAt(j) !== c; j++) if (text.charCodeAt(j) === 92 /* \ */) j++;
      } else if (c === 123 /* { */) delta++;
      else if (c === 125 /* } */) delta--;
    }
    const branch = top?.branches.at(-1);
    if (branch) branch.delta += delta;
    i = end + 1;
  }
}

/**
 * A lowercase storage-class macro before a declaration's type: zlib's `#define local static`
 * (in zutil.h, so not seen here) in `local ct_data static_ltree[L_CODES+2];` and `local gzFile
 * gz_open(...)`. tree-sitter took `local` for the type and `ct_data` for the name: the index had
 * variables named ct_data, once_t and ptr_table. Three names in a row before `[`, `=`, `;` or `(`
 * are no C or C++ declaration unless the first is a macro, when the first is not a keyword, the
 * second neither a qualifier (`size_t const n`) nor a caps name (`uLong ZEXPORT f(`: the caps
 * one is the macro) and no `::` is involved. The first is blanked.
 */
// (Qualifiers may stand between the macro and the type: deflate.c's `local const config
// configuration_table[2] = {`; `size_t const n = 2;` has no third name.)
const THREE_NAMES = /^[ \t]*([a-z_][a-z0-9_]*)[ \t]+(?:(?:const|volatile)[ \t]+)*([A-Za-z_]\w*)[ \t*&]+[A-Za-z_]\w*[ \t]*(?:\[|=(?!=)|;|\()/gm;
const KEYWORDS = new Set(
  (
    "auto break case char class const consteval constexpr constinit continue co_await co_return co_yield decltype default delete do double else enum explicit " +
    "export extern float for friend goto if inline int long mutable namespace new noexcept operator private protected public register restrict return " +
    "short signed sizeof static static_assert struct switch template thread_local throw typedef typename union unsigned using virtual void volatile while " +
    "bool _Bool _Atomic _Noreturn _Thread_local __restrict __inline __inline__ __extension__ concept requires import module"
  ).split(" "),
);
const QUALIFIERS = new Set(["const", "volatile", "restrict", "__restrict", "_Atomic"]);
function storageMacros(lines: LineStarts, blank: number[]): void {
  const text = lines.text;
  THREE_NAMES.lastIndex = 0;
  for (const m of text.matchAll(THREE_NAMES)) {
    const first = m[1] as string;
    const second = m[2] as string;
    if (KEYWORDS.has(first) || QUALIFIERS.has(second) || /^[A-Z0-9_]+$/.test(second)) continue;
    const at = (m.index as number) + (m[0] as string).indexOf(first);
    if (isPreprocessorLine(lines, at)) continue;
    blank.push(at, at + first.length);
  }
}

/**
 * An attribute macro with arguments between a declaration's type and its name: tmux's
 * `#define printflike(a, b) __attribute__ ((format (printf, a, b)))` in `void printflike(1, 2)
 * cfg_add_cause(const char *, ...);` and `static void printflike(3, 4)\nargs_print_add(char **buf,
 * ...)` (OpenBSD style; lowercase, so MACRO's patterns miss it). tree-sitter read a call and one
 * ERROR ran from tmux.h's first such prototype to the end of the header (1,600 lines: every
 * macro, typedef, struct and enum after it lost), and each such function definition was lost.
 * `f(args) g(` is no C or C++ expression, so `f(args)` is blanked when a type stands before it on
 * its line (only names and `*`), its arguments are plain names or numbers (at least one), and
 * neither name is a keyword (`void swap(T a) noexcept(true)`, `int f(int) throw(E)` keep their heads).
 */
const ATTRIBUTE_CALL = /\b([A-Za-z_]\w*)[ \t]*\([ \t]*\w[\w \t,]*\)[ \t]*(?:\r?\n[ \t]*)?\**[ \t]*([A-Za-z_]\w*)[ \t]*\(/g;
const TYPE_PREFIX = /^[ \t]*(?:[A-Za-z_]\w*[ \t*]+)+$/;
const NOT_ATTRIBUTE = new Set(
  (
    "noexcept throw requires decltype alignas alignof _Alignas _Alignof sizeof typeof __typeof__ __attribute__ __attribute __declspec asm __asm__ " +
    "override final const volatile return else case goto do if while for switch new delete operator define typedef using co_return co_yield co_await"
  ).split(" "),
);
function attributeCalls(lines: LineStarts, blank: number[]): void {
  const text = lines.text;
  ATTRIBUTE_CALL.lastIndex = 0;
  for (let m = ATTRIBUTE_CALL.exec(text); m; m = ATTRIBUTE_CALL.exec(text)) {
    // (The name's own `(` may open the next match: `void f(x) g(y) h(` is read from `g`.)
    ATTRIBUTE_CALL.lastIndex = (m.index as number) + (m[1] as string).length;
    const macro = m[1] as string;
    const name = m[2] as string;
    // (A caps macro or a `__name` after the parentheses is the attribute: `void Lock()
    // EXCLUSIVE_LOCK_FUNCTION(mu_)`, glibc's `int f(int __c) __nonnull ((1))`; a caps one before
    // them is a type macro as often, `STACK_OF(X509) *f(`, and MACRO's patterns take the rest.)
    if (NOT_ATTRIBUTE.has(macro) || NOT_ATTRIBUTE.has(name) || !/[a-z]/.test(macro) || !/[a-z]/.test(name) || name.startsWith("__")) continue;
    const at = m.index as number;
    const lineStart = text.lastIndexOf("\n", at - 1) + 1;
    const prefix = text.slice(lineStart, at);
    if (!TYPE_PREFIX.test(prefix) || prefix.split(/[ \t*]+/).some((word) => NOT_ATTRIBUTE.has(word))) continue;
    if (isPreprocessorLine(lines, at)) continue;
    blank.push(at, text.indexOf(")", at) + 1);
  }
}

/**
 * A lowercase `__name` attribute macro before a parameter's type: BSD's `#define __unused
 * __attribute__ ((__unused__))` in tmux's `alerts_timer(__unused int fd, __unused short events,
 * void *arg)`. tree-sitter took `__unused` for the type and left `fd` in an ERROR, read as a
 * reference (most of tmux's parse-recovered files). Blanked when a type and a name follow it up to
 * `,` `)` or `[`, the type is no `__name` itself (glibc's `(__lhs __op __x)`) and the name no caps
 * macro (`(__gthread_key_t __key _GLIBCXX_UNUSED)`); the compiler's own qualifiers are kept.
 */
const PARAMETER_ATTRIBUTE = /[(,][ \t]*(?:\r?\n[ \t]*)?(__[a-z][a-z0-9_]*)[ \t]+(?:(?:const|volatile|struct|enum|union|unsigned|signed)[ \t]+)*([A-Za-z_]\w*)[ \t*]+([A-Za-z_]\w*)[ \t]*(?=[,)[])/g;
const COMPILER_WORDS = new Set(["__restrict", "__restrict__", "__const", "__volatile", "__volatile__", "__extension__", "__inline", "__inline__", "__signed", "__signed__"]);
function parameterAttributes(text: string, blank: number[]): void {
  if (!text.includes("__")) return;
  PARAMETER_ATTRIBUTE.lastIndex = 0;
  for (const m of text.matchAll(PARAMETER_ATTRIBUTE)) {
    const macro = m[1] as string;
    if (COMPILER_WORDS.has(macro) || (m[2] as string).startsWith("__") || /^[A-Z0-9_]+$/.test(m[3] as string)) continue;
    const at = (m.index as number) + (m[0] as string).indexOf(macro);
    blank.push(at, at + macro.length);
  }
}

/**
 * A macro wrapped around a function's head: libuv's `UV_UNUSED(static void uv__update_time(uv_loop_t*
 * loop)) {` and `HEAP_EXPORT(void heap_init(struct heap* heap)) {` (the macro adds attributes).
 * tree-sitter read a call and lost the function (uv__update_time, heap_insert, heap_min: 10 of
 * libuv's internal functions). The macro's name and parentheses are blanked when what they hold
 * is a declaration, a type and a name before `(`, and a body or `;` follows: the head is plain
 * again. (`ASSERT(f(x));` holds no type before the name.)
 */
const WRAPPER = new RegExp(String.raw`^[ \t]*(${MACRO})\((?=[ \t]*[A-Za-z_]\w*(?:[ \t*]+[A-Za-z_]\w*)*[ \t*]+[A-Za-z_]\w*[ \t]*\()`, "gm");
function wrapperMacros(text: string, blank: number[]): void {
  if (!text.includes("((") && !/[A-Z0-9]_[A-Z0-9_]*\([ \t]*[a-z]/.test(text)) return;
  WRAPPER.lastIndex = 0;
  for (const m of text.matchAll(WRAPPER)) {
    const name = m[1] as string;
    const at = (m.index as number) + (m[0] as string).indexOf(name);
    const open = at + name.length;
    // The parenthesis that closes the macro's, within a few lines.
    let depth = 0;
    let close = -1;
    for (let i = open; i < text.length && i < open + 600; i++) {
      const c = text.charCodeAt(i);
      if (c === 40) depth++;
      else if (c === 41 && --depth === 0) {
        close = i;
        break;
      } else if (c === 59 || c === 123 || c === 125) break;
    }
    if (close < 0) continue;
    const first = /^[ \t]*(\w+)/.exec(text.slice(open + 1, open + 80))?.[1] ?? "";
    if (first === "return" || first === "sizeof" || first === "case") continue;
    if (!/^[ \t]*(?:\{|;|\r?\n)/.test(text.slice(close + 1, close + 8)) && close + 1 !== text.length) continue;
    blank.push(at, open + 1, close, close + 1);
  }
}

/**
 * Conditional groups inside a statement or an expression: zlib's `s->status =\n#ifdef GZIP\n
 * s->wrap == 2 ? GZIP_STATE :\n#endif\n  INIT_STATE;`, gzlib.c's `oflag =\n#ifdef O_LARGEFILE\n
 * O_LARGEFILE |\n#endif ...` and its `if (fd == -1) ...;\n#ifdef WIDECHAR\n  else if (fd == -2)
 * ...;\n#endif\n  else ...`. tree-sitter takes a directive only between whole statements or
 * declarations; inside one its recovery dropped the function (deflateResetKeep, gz_open) and
 * made its locals file-level variables. Such a group is parsed as a compiler sees it with the
 * first branch taken (the #else after a test for Windows alone, as in unbalancedBranches): the
 * directive lines are blanked, the other branches all but their `#include`s. A group is inside a statement when the code before it or its first branch's last
 * line ends with an operator, `(` or `else`, or is an `if`/`while`/`for` head awaiting its body, or
 * when its first branch starts with `else` or a binary operator, or the code after it with `else`.
 */
const OPERATOR_END = /(?:[=?|&+\-*/%^<>!(]|\belse)$/;
const CONTROL_HEAD = /^(?:\}\s*)?(?:else\s+)?(?:if|while|for)\s*\(.*\)$/;
// (A cheap test that some group may be one: a directive after such a line, or one before `else` or an operator.)
const EXPRESSION_GROUP = /(?:[=?|&+\-*/%^<>!(),:]|\belse)[ \t]*\r?\n[ \t]*#|^[ \t]*#[ \t]*(?:if\w*|endif)\b.*\r?\n(?:[ \t]*\r?\n)*[ \t]*(?:else\b|\|\||&&|\?)/m;
function expressionGroups(lines: LineStarts, blank: number[]): void {
  const text = lines.text;
  if (!EXPRESSION_GROUP.test(text)) return;
  // Every group's own directives (depth 0 within it, past nested groups), in one pass over the
  // directives: a scan from each `#if` to its `#endif` read the rest of the text for every group
  // never closed (100,000 `#if` lines without one: minutes).
  type Directive = { at: number; end: number; word: string };
  const groups: Directive[][] = [];
  const open: Directive[][] = [];
  const directive = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif\w*|else|endif)\b.*$/gm;
  for (let d = directive.exec(text); d; d = directive.exec(text)) {
    const word = d[1] as string;
    const start = d.index;
    let end = start + (d[0] as string).length;
    // A directive's continuation lines are part of it.
    while (end < text.length && text[end - 1] === "\\") {
      const next = text.indexOf("\n", end + 1);
      end = next < 0 ? text.length : next;
    }
    directive.lastIndex = end;
    const own = { at: start, end, word };
    if (word.startsWith("if")) open.push([own]);
    else if (open.length > 0) {
      const group = open[open.length - 1] as Directive[];
      group.push(own);
      if (word === "endif") groups.push(open.pop() as Directive[]);
    }
  }
  groups.sort((x, y) => (x[0] as Directive).at - (y[0] as Directive).at);
  // Where the last group taken apart ends: its nested groups are taken with it.
  let doneUpTo = 0;
  for (const own of groups) {
    const at = (own[0] as Directive).at;
    if (at < doneUpTo) continue;
    const last = own[own.length - 1] as Directive;
    const first = (own[0] as Directive).end;
    const inside =
      afterOperator(lines, at, true) || afterOperator(lines, (own[1] as Directive).at, false) || elseFollows(text, last.end) || continues(text, first);
    if (!inside) continue;
    // The branch a build on Linux or macOS compiles keeps its code (the #else after a test for
    // Windows alone, as unbalancedBranches does); the others are blanked up to the next directive.
    const keep = own.length > 2 && SECOND_BRANCH.test(text.slice(at, (own[0] as Directive).end)) ? 1 : 0;
    own.forEach((d, k) => {
      const next = own[k + 1];
      blankLines(text, d.at, k === keep || !next ? d.end : next.at, blank);
    });
    doneUpTo = last.end;
  }
}

/**
 * Whether the last line of code before `at`, past blank and directive lines, ends with an
 * operator, `(` or `else`, or (with `heads`) is an `if`/`while`/`for` head awaiting its body.
 * (A branch that ends with such a head is left alone: minizip's `#ifdef _WIN32\n if (..
 * _chdir(dirname))\n#else\n if (.. chdir(dirname))\n#endif\n {` parses as written, both calls kept.)
 */
function afterOperator(lines: LineStarts, at: number, heads: boolean): boolean {
  const text = lines.text;
  let end = at - 1;
  while (end > 0) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(start, end).trim();
    if (line === "" || isPreprocessorLine(lines, start)) {
      end = start - 1;
      continue;
    }
    // Comments end with `*/` or hold `//`: a `<`, `>` or `-` at their end is prose, not code.
    if (line.startsWith("*") || line.startsWith("/*") || line.endsWith("*/") || line.includes("//")) return false;
    // (`if (strm->zfree == (free_func)0)\n#ifdef Z_SOLO\n  return ...;\n#else\n  strm->zfree = zcfree;`: the body of an if.)
    if (OPERATOR_END.test(line) || (heads && CONTROL_HEAD.test(line))) return true;
    // A list goes on: a constructor's initializers (leveldb's `Limiter(int n)\n    :\n#if
    // !defined(NDEBUG)\n      max_acquires_(n),\n#endif\n      acquires_allowed_(n) {`), a call's
    // arguments, a function's parameters, an initializer list. tree-sitter takes a directive there
    // for the end of the function, and the recovery nested every class after it in env_posix.cc
    // under a variable. (An enumerator list takes directives: it is left to tree-sitter.)
    if (line.endsWith(",")) return !inEnumBody(text, start);
    return LIST_START.test(line);
  }
  return false;
}

/** A line that opens a constructor's initializer list (`:` alone, `) :`) or ends a ternary's `?` branch. */
const LIST_START = /(?:^|\)\s*|\?.*[^:\s]\s*):$/;

/** Whether `at` lies directly in the body of an `enum` (the unmatched `{` before it follows an enum head). */
function inEnumBody(text: string, at: number): boolean {
  const head = enclosingBraceHead(text, at);
  return head !== undefined && /\benum\b[^;{}()=]*$/.test(head);
}

/** Whether the first line of code from `from` on, past blank and directive lines, starts with `else`. */
function elseFollows(text: string, from: number): boolean {
  return /^else\b/.test(nextCode(text, from));
}

/**
 * Whether a group's first branch goes on with what came before it: it starts with `else`
 * (deflate.c's `}\n#ifdef GZIP\n    else if (wrap == 2) {`) or a binary operator (`Z_FILTERED\n#if
 * TOO_FAR <= 32767\n    || (...`).
 */
function continues(text: string, from: number): boolean {
  return /^(?:else\b|\|\|?|&&|\?|:(?!:))/.test(nextCode(text, from));
}

/** The first line of code from `from` on, past blank and directive lines, trimmed ("" at the end). */
function nextCode(text: string, from: number): string {
  let start = from + 1;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    if (line !== "" && !line.startsWith("#")) return line;
    start = end + 1;
  }
  return "";
}

/**
 * A group whose `#else` is the branch to parse when its branches do not balance: after `#if 0`,
 * and after a test for Windows alone, since a build on Linux or macOS compiles the `#else` (jq's
 * `#ifdef WIN32 ... int umain(...) {\n#else\nint main(...) {`: the first branch left jq without
 * its `main`).
 */
const WINDOWS = "(?:_?WIN(?:32|64)|_MSC_VER|__MINGW(?:32|64)__|__CYGWIN__)";
const SECOND_BRANCH = new RegExp(
  `^[ \\t]*#[ \\t]*(?:if[ \\t]+0|ifdef[ \\t]+${WINDOWS}|if[ \\t]+defined[ \\t]*(?:\\([ \\t]*${WINDOWS}[ \\t]*\\)|[ \\t]+${WINDOWS}))[ \\t]*(?:\\/[/*].*)?\\r?$`,
);

/** Blanks the lines of [from, to), newlines excepted (line numbers stay the text's) and `#include` lines kept. */
function blankLines(text: string, from: number, to: number, blank: number[]): void {
  let at = from;
  while (at < to) {
    const eol = text.indexOf("\n", at);
    const nl = Math.min(eol < 0 ? text.length : eol, to);
    if (nl > at && !/^[ \t]*#[ \t]*include\b/.test(text.slice(at, Math.min(nl, at + 64)))) blank.push(at, nl);
    at = nl + 1;
  }
}

/** `text` with each [start, end) range of `ranges` (pairs, in any order, may overlap) turned into spaces. */
function blanked(text: string, ranges: number[]): string {
  const order = Array.from({ length: ranges.length / 2 }, (_, k) => k).sort((a, b) => (ranges[2 * a] as number) - (ranges[2 * b] as number));
  const parts: string[] = [];
  let at = 0;
  for (const k of order) {
    const start = Math.max(at, ranges[2 * k] as number);
    const end = ranges[2 * k + 1] as number;
    if (end <= start) continue;
    parts.push(text.slice(at, start), " ".repeat(end - start));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * A caps name alone on its line that ends a list is its last item, not a macro: the last
 * enumerator of `enum { A_X = 0,\n A_Y\n}` (Unity's UNITY_FLAGS_T; masked, the enum lost it) or the
 * last argument of a call split over lines. A statement-level macro follows a `;`, a brace or a
 * directive and is followed by a declaration, never by a closing bracket or right after a comma.
 */
function inList(text: string, start: number, end: number): boolean {
  let i = end;
  // (Comments skipped: libyaml's last enumerator YAML_FLOW_MAPPING_STYLE is followed by a
  // commented-out one, `/*    YAML_FLOW_SET_MAPPING_STYLE   */`, before the `}`.)
  for (;;) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (text.startsWith("/*", i)) {
      const e = text.indexOf("*/", i + 2);
      if (e < 0) break;
      i = e + 2;
    } else if (text.startsWith("//", i)) {
      const e = text.indexOf("\n", i);
      if (e < 0) break;
      i = e;
    } else break;
  }
  const next = text[i];
  // The last line of a struct or union body is no list item: a lone name there can only be a
  // macro that expands to members (libuv's `struct uv_req_s {\n  UV_REQ_FIELDS\n};`). Kept, it
  // made tree-sitter's recovery lose the struct and read the rest of uv.h as fields.
  if (next === "}") return !inRecordBody(text, start);
  if (next === ")" || next === "]") return true;
  let j = start - 1;
  while (j >= 0 && /\s/.test(text[j] as string)) j--;
  return text[j] === ",";
}

/**
 * A macro with arguments alone on its line that gives the next line's function its return type:
 * libyaml's `YAML_DECLARE(int)\nyaml_parser_initialize(yaml_parser_t *parser)\n{` (the macro
 * adds `__declspec(dllexport)` on Windows), as many C libraries export their API. tree-sitter
 * reads `MACRO(type) name(...)` as a function with a macro type; blanked, the function had no
 * type, and the index lost every libyaml API function (62, all of api.c's). Only where a
 * declaration may start (the file's level, a namespace, `extern "C"`; not a function or record
 * body, where `TRACE(x)\n  f(y);` is a statement macro before a call) and when the next line is a
 * bare name and `(`, which is no declaration without a type.
 */
function returnTypeMacro(text: string, start: number, end: number, braces: BraceScan): boolean {
  // The argument a type (`const char *`, `yaml_char_t *`), not a string or a number
  // (`DOCTEST_GCC_SUPPRESS_WARNING("-Wsign-promo")`); the next line's name no macro of its own.
  if (!/\([ \t]*[A-Za-z_][\w \t:*&<>,]*\)[ \t]*$/.test(text.slice(start, end))) return false;
  const next = /^\r?\n[ \t]*([A-Za-z_][\w:]*)[ \t]*\(/.exec(text.slice(end, end + 200))?.[1];
  if (next === undefined || /^[A-Z][A-Z0-9_]*$/.test(next)) return false;
  const open = braces.enclosing(start);
  if (open < 0) return true;
  return /(?:\bnamespace\b[^;{}()=]*|\bextern\s+"C(?:\+\+)?"\s*)$/.test(text.slice(Math.max(0, open - 200), open));
}

/**
 * The unmatched `{` before a position, with comments, strings, character literals and directive
 * lines skipped (enclosingBraceHead counts every brace: libyaml's doxygen `@{` in comments made
 * yaml.h's whole API look like the body of a block). The text is read forward once, for positions
 * asked in increasing order (a smaller one starts the reading again).
 */
class BraceScan {
  private at = 0;
  private opens: number[] = [];
  private lineStart = true;
  constructor(private readonly text: string) {}

  /** The offset of the `{` that encloses `pos`, or -1 at the top level. */
  enclosing(pos: number): number {
    if (pos < this.at) {
      this.at = 0;
      this.opens = [];
      this.lineStart = true;
    }
    const text = this.text;
    let i = this.at;
    while (i < pos) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        this.lineStart = true;
        i++;
        continue;
      }
      if (c === 32 || c === 9 || c === 13) {
        i++;
        continue;
      }
      if (c === 35 && this.lineStart) {
        // A directive, with its continuation lines.
        while (i < text.length && !(text.charCodeAt(i) === 10 && text.charCodeAt(i - 1) !== 92 && !(text.charCodeAt(i - 1) === 13 && text.charCodeAt(i - 2) === 92))) i++;
        continue;
      }
      this.lineStart = false;
      if (c === 47 && text.charCodeAt(i + 1) === 47) {
        const e = text.indexOf("\n", i);
        i = e < 0 ? text.length : e;
      } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
        const e = text.indexOf("*/", i + 2);
        i = e < 0 ? text.length : e + 2;
      } else if (c === 34 || c === 39) {
        for (i++; i < text.length && text.charCodeAt(i) !== c && text.charCodeAt(i) !== 10; i++) if (text.charCodeAt(i) === 92) i++;
        i++;
      } else {
        if (c === 123) this.opens.push(i);
        else if (c === 125) this.opens.pop();
        i++;
      }
    }
    this.at = i;
    return this.opens.length === 0 ? -1 : (this.opens[this.opens.length - 1] as number);
  }
}

/**
 * Whether `at` lies directly in the body of a `struct`/`union`/`class` (`typedef struct {`,
 * `struct s {`, `class A : public B {`): the unmatched `{` before it is preceded by such a head,
 * not by `enum`, `=` or a `)`. Looks back at most 64 KiB, enough for any record body.
 */
function inRecordBody(text: string, at: number): boolean {
  const head = enclosingBraceHead(text, at);
  return head !== undefined && /\b(?:struct|union|class)\b[^;{}()=]*$/.test(head) && !/\benum\b[^;{}()=]*$/.test(head);
}

/**
 * The 200 characters before the unmatched `{` that encloses `at` (what opens that body), looking
 * back at most 64 KiB, enough for any record or enum body; undefined when there is none.
 */
function enclosingBraceHead(text: string, at: number): string | undefined {
  let depth = 0;
  for (let j = at - 1; j >= 0 && at - j < 65536; j--) {
    const c = text[j];
    if (c === "}") depth++;
    else if (c === "{") {
      if (depth === 0) return text.slice(Math.max(0, j - 200), j);
      depth--;
    }
  }
  return undefined;
}

/**
 * Whether the code before `at` (past blanks, comments and directive lines) ends a statement or
 * opens or closes a block, or is an access specifier: where a member or a statement starts.
 */
function afterStatement(text: string, at: number): boolean {
  let j = at - 1;
  for (let steps = 0; steps < 200; steps++) {
    while (j >= 0 && /\s/.test(text[j] as string)) j--;
    if (j < 0) return true;
    if (text[j] === "/" && text[j - 1] === "*") {
      const open = text.lastIndexOf("/*", j - 2);
      if (open < 0) return false;
      j = open - 1;
      continue;
    }
    const lineStart = text.lastIndexOf("\n", j) + 1;
    const line = text.slice(lineStart, j + 1);
    const comment = line.indexOf("//");
    if (comment >= 0) {
      j = lineStart + comment - 1;
      continue;
    }
    // (A directive's line, or the last line of a continued `#define`: nlohmann's
    // JSON_BINARY_READER_MAKE_BJD_TYPES_MAP_ before binary_reader's JSON_PRIVATE_UNLESS_TESTED:.)
    let first = lineStart;
    while (first >= 2 && (text[first - 2] === "\\" || (text[first - 2] === "\r" && text[first - 3] === "\\"))) first = text.lastIndexOf("\n", first - 2) + 1;
    if (/^[ \t]*#/.test(text.slice(first, j + 1))) {
      j = first - 1;
      continue;
    }
    const c = text[j];
    return c === ";" || c === "{" || c === "}" || (c === ":" && /(?:^[ \t]*[A-Z][A-Z0-9_]*|\b(?:public|private|protected))[ \t]*:$/.test(line));
  }
  return false;
}

function isPreprocessorLine(lines: LineStarts, at: number): boolean {
  const text = lines.text;
  const start = lines.startOf(at);
  let i = start;
  while (text[i] === " " || text[i] === "\t") i++;
  if (text[i] === "#") return true;
  // A continuation line of a multi-line #define.
  let j = start - 2;
  if (text[j] === "\r") j--;
  return j >= 0 && text[j] === "\\";
}

/**
 * Where each line of a text starts, found once: a backward search for the line's start at every
 * macro candidate was quadratic on one long line (a 120 KB line of `int FOO_BAR` took 0.6 s).
 */
class LineStarts {
  private starts: number[] | undefined;
  constructor(readonly text: string) {}

  /** The start of the line holding `at`. */
  startOf(at: number): number {
    const starts = (this.starts ??= textLineStarts(this.text));
    return starts[lineAt(starts, at)] as number;
  }
}

/**
 * The tree extraction reads: of the masked text, unless that parse is more damaged than the
 * plain one's. tree-sitter's error recovery is not local: in fmt's base.h, blanking two attribute
 * macros 240 lines apart turned a few one-line errors into one ERROR node over the whole file
 * (lines 8 to 2959), and the `#include "format.h"` at its end was lost with it.
 */
export function parseSource(language: LanguageId, text: string): Parser.Tree {
  // One budget for every parse of the file (the repair's rounds, the plain text's).
  const deadline = parseDeadline();
  let masked = maskForParse(language, text);
  let tree = parse(language, masked, deadline);
  if (tree.rootNode.hasError && USING_LANGUAGES.has(language)) {
    const repaired = repairCallSignatures(language, masked, tree, deadline);
    if (repaired) ({ text: masked, tree } = repaired);
  }
  if (masked === text || !tree.rootNode.hasError) return tree;
  // A second parse only where the masked one is badly damaged (a tenth of the text in errors):
  // for every file with a stray error it cost C and C++ indexing an eighth more time.
  const damage = errorExtent(tree.rootNode);
  if (damage < masked.length / 10) return tree;
  const plain = parse(language, text, deadline);
  const keep = errorExtent(plain.rootNode) < damage ? plain : tree;
  ((keep === plain ? tree : plain) as unknown as { delete?: () => void }).delete?.();
  return keep;
}

/** How much of the text a tree's errors cover: outermost ERROR nodes' lengths, and 1 per MISSING node. */
function errorExtent(node: Parser.SyntaxNode): number {
  if (node.type === "ERROR") return Math.max(1, node.endIndex - node.startIndex);
  if (node.isMissing) return 1;
  if (!node.hasError) return 0;
  let n = 0;
  for (const c of node.children) n += errorExtent(c);
  return n;
}

/** Files larger than this are not repaired (see repairCallSignatures). */
const REPAIR_MAX_CHARS = 256 * 1024;

/**
 * Generic call signatures on lines of their own in an interface or object type, as hono writes
 * its overloads (`interface Get<E> {\n  <Key extends ...>(key: Key): ...\n  <Key ...>(...): ...\n}`,
 * the 14 signatures of factory's CreateHandlersInterface): tree-sitter-typescript reads the `<`
 * after a member whose type ends in a name or `>` as the continuation of that type (its automatic
 * semicolon is not inserted before `<`; tree-sitter-typescript issue #335), and the recovery lost
 * what followed: hono's `class Factory`, `createFactory` and `createMiddleware`, 33 type aliases
 * and 2 interfaces of types.ts. Where the parse has errors, each line that starts with such a
 * signature's `<` inside an ERROR range, after a member (not after `;`, `,`, `{`, an operator),
 * gets the separator the grammar missed in its indentation (`  <K>` becomes ` ;<K>`: same length,
 * same lines). The repair is kept when it leaves less of the text in errors, a few rounds at most
 * (an error's recovery can hide the next one).
 */
const SIGNATURE_LINE = /^[ \t]+<(?=[ \t]*(?:\r?\n|[A-Za-z_$][\w$]*[ \t]*(?:extends\b|=|,|>)))/gm;

function repairCallSignatures(language: LanguageId, text: string, tree: Parser.Tree, deadline: number): { text: string; tree: Parser.Tree } | undefined {
  // Each round parses the whole file again, and a tree's native memory is freed only when the
  // collector gets to it: on effect's 944 KB Effect.d.ts the rounds cost the bench corpus's index
  // 0.5 s and 75 MB of peak. Hand-written files with such signatures are far smaller (hono's
  // types.ts: 90 KB); a larger one keeps its errors, reported as parse_recovered.
  if (text.length > REPAIR_MAX_CHARS || !/^[ \t]+</m.test(text)) return undefined;
  let best: { text: string; tree: Parser.Tree; damage: number } = { text, tree, damage: errorExtent(tree.rootNode) };
  let changed = false;
  for (let round = 0; round < 4 && best.tree.rootNode.hasError; round++) {
    const errors: number[] = [];
    errorRanges(best.tree.rootNode, errors);
    // Where a `;` goes (each in place of one indentation character: same length, same lines).
    const at: number[] = [];
    SIGNATURE_LINE.lastIndex = 0;
    for (const m of best.text.matchAll(SIGNATURE_LINE)) {
      const lt = (m.index as number) + (m[0] as string).length - 1;
      // An error on the signature's line: over its `<`, or after it where the `<...>` was taken
      // for the previous type's arguments (effect's `): (value: boolean) => A | B` then a doc
      // comment and `<A, B>(`: the ERROR starts at the `(`).
      let eol = best.text.indexOf("\n", lt);
      if (eol < 0) eol = best.text.length;
      let inError = false;
      for (let k = 0; k < errors.length && !inError; k += 2) inError = (errors[k] as number) <= eol && lt <= (errors[k + 1] as number);
      if (!inError) continue;
      const prev = previousCodeChar(best.text, m.index as number);
      if (prev === undefined || ";,{([=|&:?+-*/%!~^".includes(prev)) continue;
      at.push(m.index as number);
    }
    if (at.length === 0) break;
    const pieces: string[] = [];
    let from = 0;
    for (const i of at) {
      pieces.push(best.text.slice(from, i), ";");
      from = i + 1;
    }
    pieces.push(best.text.slice(from));
    const next = pieces.join("");
    const nextTree = parse(language, next, deadline);
    const damage = errorExtent(nextTree.rootNode);
    if (damage >= best.damage) {
      (nextTree as unknown as { delete?: () => void }).delete?.();
      break;
    }
    if (best.tree !== tree) (best.tree as unknown as { delete?: () => void }).delete?.();
    best = { text: next, tree: nextTree, damage };
    changed = true;
  }
  if (!changed) return undefined;
  (tree as unknown as { delete?: () => void }).delete?.();
  return { text: best.text, tree: best.tree };
}

/** Outermost ERROR nodes' ranges, and MISSING nodes' positions, as [start, end] pairs. */
function errorRanges(node: Parser.SyntaxNode, out: number[]): void {
  if (node.type === "ERROR" || node.isMissing) {
    out.push(node.startIndex, node.endIndex);
    return;
  }
  if (!node.hasError) return;
  for (const c of node.children) errorRanges(c, out);
}

/** The last character of code before `at`, past whitespace, blank lines and comments. */
function previousCodeChar(text: string, at: number): string | undefined {
  let end = at;
  while (end > 0) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    let line = text.slice(start, end);
    // A line comment (naively: `//` outside quotes is rare in a type's member lines).
    const slash = line.indexOf("//");
    if (slash >= 0 && !/["'`]/.test(line.slice(0, slash))) line = line.slice(0, slash);
    line = line.trimEnd();
    if (line.endsWith("*/")) {
      const open = text.lastIndexOf("/*", start + line.length - 2);
      if (open < 0) return undefined;
      end = open;
      continue;
    }
    if (line.trim() === "" || line.trimStart().startsWith("*")) {
      end = start - 1;
      continue;
    }
    return line[line.length - 1];
  }
  return undefined;
}
