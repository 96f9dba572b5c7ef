/**
 * What a new name may be in each language: the identifier grammar and the reserved words that
 * the language's own parser refuses as a name. Contextual keywords that are legal names
 * (TypeScript's `type`, Python's `match`, Go's none) are not refused.
 */
import type { LanguageId } from "../../../lang/registry.js";
import { renameError } from "./codes.js";

const JS_RESERVED = [
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export",
  "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super",
  "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
  // reserved in strict mode, which every module and class body is
  "implements", "interface", "let", "package", "private", "protected", "public", "static", "yield", "await",
];
// Type-position names a declaration cannot take (`type string = …` is an error).
const TS_RESERVED = [...JS_RESERVED, "any", "boolean", "never", "number", "object", "string", "symbol", "undefined", "unknown", "bigint", "void"];

const PYTHON_RESERVED = [
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else",
  "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
  "return", "try", "while", "with", "yield",
];

const GO_RESERVED = [
  "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto", "if",
  "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var",
];

const C_RESERVED = [
  "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern", "float", "for",
  "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
  "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_Bool",
  "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
];
const CPP_RESERVED = [
  ...C_RESERVED, "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char8_t", "char16_t",
  "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept", "const_cast", "consteval", "constexpr",
  "constinit", "decltype", "delete", "dynamic_cast", "explicit", "export", "false", "friend", "mutable", "namespace", "new",
  "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "reinterpret_cast",
  "requires", "static_assert", "static_cast", "template", "this", "thread_local", "throw", "true", "try", "typeid",
  "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
];

const JAVA_RESERVED = [
  "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue", "default", "do",
  "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if", "implements", "import",
  "instanceof", "int", "interface", "long", "native", "new", "package", "private", "protected", "public", "return", "short",
  "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile",
  "while", "true", "false", "null", "_", "var", "yield", "record",
];

const RUST_RESERVED = [
  "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let",
  "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true",
  "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
  "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

interface Rules {
  pattern: RegExp;
  reserved: ReadonlySet<string>;
  describe: string;
}

const ASCII_C = /^[A-Za-z_][A-Za-z0-9_]*$/;

const RULES: Record<LanguageId, Rules> = {
  // ECMAScript IdentifierName: ID_Start/ID_Continue plus $ and _ (and ZWNJ/ZWJ inside).
  typescript: { pattern: /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u, reserved: new Set(TS_RESERVED), describe: "letters, digits, $ and _, not starting with a digit" },
  tsx: { pattern: /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u, reserved: new Set(TS_RESERVED), describe: "letters, digits, $ and _, not starting with a digit" },
  javascript: { pattern: /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u, reserved: new Set(JS_RESERVED), describe: "letters, digits, $ and _, not starting with a digit" },
  python: { pattern: /^[\p{XID_Start}_][\p{XID_Continue}]*$/u, reserved: new Set(PYTHON_RESERVED), describe: "letters, digits and _, not starting with a digit" },
  go: { pattern: /^[\p{L}_][\p{L}\p{Nd}_]*$/u, reserved: new Set(GO_RESERVED), describe: "Unicode letters, digits and _, not starting with a digit" },
  rust: { pattern: /^(r#)?[\p{XID_Start}_][\p{XID_Continue}]*$/u, reserved: new Set(RUST_RESERVED), describe: "letters, digits and _, not starting with a digit" },
  java: { pattern: /^[\p{L}$_][\p{L}\p{Nd}$_]*$/u, reserved: new Set(JAVA_RESERVED), describe: "letters, digits, $ and _, not starting with a digit" },
  c: { pattern: ASCII_C, reserved: new Set(C_RESERVED), describe: "ASCII letters, digits and _, not starting with a digit" },
  cpp: { pattern: ASCII_C, reserved: new Set(CPP_RESERVED), describe: "ASCII letters, digits and _, not starting with a digit" },
};

/**
 * Throws SPLICE_E200/E201 when `name` cannot be an identifier of `language`. `member`: a name
 * that only a member carries (JavaScript's `#default`, an IdentifierName), which reserved
 * words may be.
 */
export function assertIdentifier(language: LanguageId, name: string, member = false): void {
  const rules = RULES[language];
  if (!rules.pattern.test(name) || (language === "rust" && name === "_")) {
    throw renameError("invalid_identifier", `'${name}' is not a valid ${language} identifier`, `Choose a name made of ${rules.describe}.`, { usage: true });
  }
  const bare = language === "rust" && name.startsWith("r#") ? undefined : name;
  if (bare !== undefined && !member && rules.reserved.has(bare)) {
    throw renameError("keyword", `'${name}' is a reserved word in ${language} and cannot name a symbol`, `Choose another name (for example '${name}_' or '${name}Value').`, { usage: true });
  }
}
