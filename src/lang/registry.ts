/**
 * The language registry: which files are which language, and the tree-sitter grammar for each.
 * Knowledge about a language lives in data (this table and the .scm query files in
 * src/lang/queries/<language>/), not in a walker per language.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import type Parser from "tree-sitter";
import { loadTreeSitter } from "./tree-sitter-module.js";
import { loadNative } from "../contract/native.js";
import { PARSE_SECONDS_BUDGET, ParseTimeoutError } from "./budget.js";

const require = createRequire(import.meta.url);

export type LanguageId = "rust" | "python" | "c" | "cpp" | "java" | "javascript" | "typescript" | "tsx" | "go";

export interface LanguageInfo {
  id: LanguageId;
  /** Display name, as seed 02 prints it ("Rust", "TypeScript"). */
  name: string;
  /** Lower-case extensions without the dot. */
  extensions: string[];
  /** npm package and, for packages with several grammars, the export to use. */
  grammarPackage: string;
  grammarExport?: string;
  /** Accepted spellings for `--language`. */
  aliases: string[];
}

export const LANGUAGES: readonly LanguageInfo[] = [
  { id: "rust", name: "Rust", extensions: ["rs"], grammarPackage: "tree-sitter-rust", aliases: ["rs"] },
  { id: "python", name: "Python", extensions: ["py", "pyi"], grammarPackage: "tree-sitter-python", aliases: ["py"] },
  { id: "c", name: "C", extensions: ["c", "h"], grammarPackage: "tree-sitter-c", aliases: [] },
  {
    id: "cpp",
    name: "C++",
    extensions: ["cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "tpp"],
    grammarPackage: "tree-sitter-cpp",
    aliases: ["c++", "cxx"],
  },
  { id: "java", name: "Java", extensions: ["java"], grammarPackage: "tree-sitter-java", aliases: [] },
  {
    id: "javascript",
    name: "JavaScript",
    extensions: ["js", "jsx", "mjs", "cjs"],
    grammarPackage: "tree-sitter-javascript",
    aliases: ["js", "jsx"],
  },
  {
    id: "typescript",
    name: "TypeScript",
    extensions: ["ts", "mts", "cts"],
    grammarPackage: "tree-sitter-typescript",
    grammarExport: "typescript",
    aliases: ["ts"],
  },
  { id: "tsx", name: "TSX", extensions: ["tsx"], grammarPackage: "tree-sitter-typescript", grammarExport: "tsx", aliases: [] },
  { id: "go", name: "Go", extensions: ["go"], grammarPackage: "tree-sitter-go", aliases: ["golang"] },
];

const byId = new Map(LANGUAGES.map((l) => [l.id, l]));
const byExtension = new Map(LANGUAGES.flatMap((l) => l.extensions.map((e) => [e, l] as const)));

export function languageInfo(id: LanguageId): LanguageInfo {
  return byId.get(id) as LanguageInfo;
}

/** Language of a path by its extension (`.d.ts` is TypeScript); undefined when unknown. */
export function languageForPath(path: string): LanguageInfo | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  if (dot <= 0 && !base.startsWith(".")) return undefined;
  return byExtension.get(base.slice(dot + 1).toLowerCase());
}

/** Resolves a user-typed language name (`ts`, `C++`, `golang`); undefined when unknown. */
export function languageByName(name: string): LanguageInfo | undefined {
  const n = name.trim().toLowerCase();
  return LANGUAGES.find((l) => l.id === n || l.name.toLowerCase() === n || l.aliases.includes(n));
}

type Grammar = Parameters<Parser["setLanguage"]>[0];
const grammars = new Map<LanguageId, Grammar>();

/** The tree-sitter grammar object, loaded on first use (native modules are costly to load). */
export function grammar(id: LanguageId): Grammar {
  let g = grammars.get(id);
  if (!g) {
    const info = languageInfo(id);
    const mod = loadNative(info.grammarPackage, () => require(info.grammarPackage) as Record<string, unknown>);
    g = (info.grammarExport ? mod[info.grammarExport] : mod) as Grammar;
    grammars.set(id, g);
  }
  return g;
}

/**
 * node-tree-sitter's setLanguage builds, once per language per thread, a SyntaxNode subclass per
 * node type with a getter per field (`nameNode`...), compiling each class with `new Function` and
 * finding its entry in node-types.json by a linear search: ~17 ms for TypeScript, a twentieth
 * of a re-index. Nothing here uses those getters (fields are read with childForFieldName, types
 * with `type`, both SyntaxNode's own), so every node type gets SyntaxNode itself; setLanguage
 * skips its set-up for a language that has `nodeSubclasses` already.
 */
function withPlainNodeClass(ctor: typeof Parser, g: Grammar): Grammar {
  const lang = g as unknown as { nodeSubclasses?: unknown };
  if (lang.nodeSubclasses === undefined) {
    const Node = (ctor as unknown as { SyntaxNode: unknown }).SyntaxNode;
    lang.nodeSubclasses = new Proxy([] as unknown[], { get: (target, key) => (typeof key === "string" && /^\d+$/.test(key) ? Node : Reflect.get(target, key)) });
  }
  return g;
}

const parsers = new Map<LanguageId, Parser>();

/** A parser set to the language; one per language per thread, reused. */
export function parserFor(id: LanguageId): Parser {
  let p = parsers.get(id);
  if (!p) {
    // Loaded on first use: commands that only need the extension table (a graph query) never
    // pay for the native module.
    const ParserCtor = loadTreeSitter();
    p = new ParserCtor();
    p.setLanguage(withPlainNodeClass(ParserCtor, grammar(id)));
    parsers.set(id, p);
  }
  return p;
}

/**
 * Parses bytes. node-tree-sitter takes a JS string and reports byte offsets of its UTF-8
 * encoding only when the text round-trips; callers pass text decoded from the file's bytes and
 * must map indices back to bytes themselves when the file is not valid UTF-8. With a `deadline`
 * (a `performance.now()` time), a parse still running then stops with ParseTimeoutError.
 */
export function parse(id: LanguageId, text: string, deadline?: number): Parser.Tree {
  // The default 32 KiB buffer makes large files fail with "Invalid argument"; size it to the text.
  const bufferSize = Math.max(32 * 1024, text.length * 4 + 1024);
  const tree = parseWithin(id, text, bufferSize, deadline === undefined ? undefined : deadline - performance.now());
  if (tree === null) throw new ParseTimeoutError(PARSE_SECONDS_BUDGET);
  return tree;
}

/**
 * The language's parser's tree of `text`, or null when it ran past `ms` milliseconds (none: no
 * limit). The limit is the parser's own clock (tree-sitter's timeout, checked every hundred or so
 * of its steps), not a progress callback: calling into JavaScript that often cost 10% of
 * llmastsearch's CPU over typeorm. It is set for this parse only, as the parser is shared.
 */
export function parseWithin(id: LanguageId, text: string, bufferSize: number, ms?: number): Parser.Tree | null {
  const parser = parserFor(id);
  if (ms === undefined) return parser.parse(text, undefined, { bufferSize });
  if (ms <= 0) return null;
  const timed = parser as unknown as { setTimeoutMicros(us: number): void };
  // (The binding takes a 32-bit count of microseconds: at most ~71 minutes.)
  timed.setTimeoutMicros(Math.min(Math.ceil(ms * 1000), 0xffffffff));
  try {
    const tree = parser.parse(text, undefined, { bufferSize }) as Parser.Tree | null;
    // A stopped parser resumes where it stopped unless reset.
    if (tree === null) parser.reset();
    return tree;
  } finally {
    timed.setTimeoutMicros(0);
  }
}

/**
 * `.h` is shared by C and C++. A header is read as C++ when its code (comments left out) has
 * something only C++ has: a class with a body or base, a namespace, a template, an access
 * specifier, a scope-qualified name, `using namespace`. Anything else stays C, whose grammar
 * also reads C headers that C++ would not (`restrict`, `class` as a name). universal-ctags reads
 * every `.h` as C++; this keeps plain C headers C.
 */
const CPP_MARKERS =
  /\bclass\s+[A-Za-z_]\w*\s*(?:final\s*)?[:{]|\bnamespace\s+[A-Za-z_:]*\s*\{|\btemplate\s*<|^\s*(?:public|private|protected)\s*:|\b[A-Za-z_]\w*::[~A-Za-z_]|\busing\s+namespace\b/m;

/** How much of a header decides its language: every caller looks at the same part. */
export const HEADER_SNIFF_BYTES = 64 * 1024;

/** A path whose extension C and C++ share. */
export function isSharedHeader(path: string): boolean {
  return /\.h$/i.test(path);
}

export function looksLikeCpp(text: string): boolean {
  // Comments and string literals out first: `a::b` in a comment or "class x {" in a string says nothing.
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"/g, " ");
  return CPP_MARKERS.test(code);
}

/**
 * The language a file's content settles when its extension is ambiguous (`.h`); only the first
 * HEADER_SNIFF_BYTES count, so a tool that reads just those decides as one that read it all.
 */
export function refineLanguage(id: LanguageId, path: string, text: string): LanguageId {
  return id === "c" && isSharedHeader(path) && looksLikeCpp(text.slice(0, HEADER_SNIFF_BYTES)) ? "cpp" : id;
}

/** Whether a stored language is what `refineLanguage` may have made of the extension's. */
export function sameLanguage(stored: string, byExtension: LanguageId, path: string): boolean {
  return stored === byExtension || (byExtension === "c" && stored === "cpp" && isSharedHeader(path));
}

/**
 * A file's language by extension, settled by its content where the extension is shared (`.h`):
 * for tools that choose files before reading them.
 */
export function languageOfFile(rel: string, abs: string): LanguageInfo | undefined {
  const byExt = languageForPath(rel);
  if (byExt?.id !== "c" || !isSharedHeader(rel)) return byExt;
  let fd: number | undefined;
  try {
    fd = openSync(abs, "r");
    const buf = Buffer.alloc(HEADER_SNIFF_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return languageInfo(refineLanguage("c", rel, buf.subarray(0, n).toString("latin1")));
  } catch {
    return byExt;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
