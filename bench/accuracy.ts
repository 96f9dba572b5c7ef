/**
 * Definition accuracy against universal-ctags (issue 3, "Accuracy"): for one language and one
 * directory of real code, the share of ctags' definitions (of the kinds we claim) that our
 * extraction also finds with the same file, name and line (recall), and the share of ours that
 * ctags also reports (precision).
 *
 *   node dist/bench/accuracy.js <language> <dir> [--misses N]
 *
 * ctags runs with file-scoped definitions included (`--extras=+F`: private and static ones, which
 * we extract too; `-F` would leave them out and make recall easier). A definition matches when the ctags line is the line of our name or the first line of our
 * definition (ctags reports either, depending on the language and construct).
 */
import { spawnSync } from "node:child_process";
import ts from "typescript";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { extractFacts } from "../src/lang/extract.js";
import { LineIndex } from "../src/text/lines.js";
import { languageByName, parse, refineLanguage, type LanguageId } from "../src/lang/registry.js";
import { decodeBytes } from "../src/text/decode.js";
import type { SymbolKind } from "../src/lang/extract-types.js";

interface LanguageSetup {
  /** ctags --language-force value. */
  ctags: string;
  extensions: string[];
  /** ctags kind names we claim, mapped to the kinds of ours they correspond to. */
  kinds: Record<string, SymbolKind[]>;
  /** Grammar per extension when it differs from the language's own (.tsx, C++ headers). */
  grammarFor?: (ext: string) => LanguageId;
  /** ctags kinds that ctags also reports for locals inside blocks (function bodies, ...). */
  localKinds?: string[];
  /**
   * ctags tags of a heuristic kind we do not claim, recognised by their line (JavaScript: ctags
   * calls object literals and prototype-assigned names "classes"). Counted, not compared.
   */
  heuristic?: (kind: string, lineText: string) => boolean;
  /**
   * Checks ctags against the language's own compiler where one is at hand (TypeScript's parser
   * for TypeScript and JavaScript): a ctags tag with no declaration of that name on that line
   * in the compiler's syntax tree is a ctags error (its TypeScript parser reports names after
   * PURE annotation comments, `satisfies`, imported names, ... as definitions). Counted, not compared.
   */
  compilerCheck?: boolean;
  /** Node types of the blocks whose contents are local. */
  blockTypes?: string[];
}

const FUNCS: SymbolKind[] = ["function", "method", "constructor"];

export const SETUPS: Record<string, LanguageSetup> = {
  c: {
    ctags: "C",
    extensions: ["c", "h"],
    kinds: {
      macro: ["macro"],
      enumerator: ["enum_member"],
      function: ["function"],
      enum: ["enum"],
      member: ["field"],
      struct: ["struct"],
      typedef: ["type_alias"],
      union: ["union"],
      variable: ["variable", "constant", "static"],
    },
  },
  cpp: {
    ctags: "C++",
    // `.h` is read as magellan reads it (C++ when its code is C++: refineLanguage).
    extensions: ["cc", "cpp", "cxx", "hh", "hpp", "hxx", "h", "ipp", "tpp"],
    kinds: {
      class: ["class", "abstract_class"],
      macro: ["macro"],
      enumerator: ["enum_member"],
      function: FUNCS,
      enum: ["enum"],
      member: ["field"],
      namespace: ["namespace"],
      struct: ["struct"],
      typedef: ["type_alias"],
      union: ["union"],
      variable: ["variable", "constant", "static"],
    },
  },
  go: {
    ctags: "Go",
    extensions: ["go"],
    kinds: {
      talias: ["type_alias"],
      const: ["constant"],
      func: ["function", "method"],
      interface: ["interface"],
      member: ["field"],
      methodSpec: ["method"],
      struct: ["struct"],
      type: ["type_alias"],
      var: ["variable"],
    },
  },
  java: {
    ctags: "Java",
    extensions: ["java"],
    kinds: {
      annotation: ["interface"],
      class: ["class", "abstract_class"],
      enumConstant: ["enum_member"],
      field: ["field", "constant"],
      enum: ["enum"],
      interface: ["interface"],
      method: ["method", "constructor"],
    },
  },
  javascript: {
    ctags: "JavaScript",
    heuristic: (kind, line) => kind === "class" && !/\bclass\b/.test(line),
    localKinds: ["constant", "variable"],
    blockTypes: ["statement_block", "class_body", "object"],
    compilerCheck: true,
    extensions: ["js", "jsx", "mjs", "cjs"],
    kinds: {
      constant: ["constant"],
      getter: ["method"],
      setter: ["method"],
      field: ["field"],
      class: ["class"],
      function: ["function"],
      generator: ["function"],
      method: ["method", "constructor"],
      variable: ["variable"],
    },
  },
  python: {
    ctags: "Python",
    extensions: ["py", "pyi"],
    kinds: {
      class: ["class"],
      function: ["function"],
      member: ["method", "constructor"],
      variable: ["variable", "constant", "field"],
    },
  },
  rust: {
    ctags: "Rust",
    extensions: ["rs"],
    kinds: {
      macro: ["macro"],
      method: ["method", "constructor"],
      implementation: ["impl"],
      enumerator: ["enum_member"],
      function: ["function"],
      enum: ["enum"],
      interface: ["trait"],
      field: ["field"],
      module: ["module"],
      struct: ["struct", "union"],
      typedef: ["type_alias"],
      variable: ["constant", "static"],
    },
  },
  typescript: {
    ctags: "TypeScript",
    extensions: ["ts", "mts", "cts", "tsx"],
    grammarFor: (ext) => (ext === "tsx" ? "tsx" : "typescript"),
    localKinds: ["constant", "variable"],
    blockTypes: ["statement_block", "class_body", "object"],
    compilerCheck: true,
    kinds: {
      constant: ["constant"],
      generator: ["function"],
      alias: ["type_alias"],
      class: ["class", "abstract_class"],
      enumerator: ["enum_member"],
      function: ["function"],
      enum: ["enum"],
      interface: ["interface"],
      method: ["method", "constructor"],
      namespace: ["namespace", "module"],
      property: ["field"],
      variable: ["variable"],
    },
  },
};

export interface AccuracyResult {
  language: string;
  files: number;
  ctagsDefs: number;
  ourDefs: number;
  matched: number;
  /** ctags variables/constants inside function bodies, not compared (we claim no locals). */
  localsLeftOut: number;
  /** ctags tags of heuristic kinds we do not claim (see LanguageSetup.heuristic). */
  heuristicLeftOut: number;
  /** ctags tags that the language's compiler does not see as declarations (see compilerCheck). */
  ctagsErrors: number;
  recall: number;
  precision: number;
  /** Some ctags definitions we missed, and some of ours ctags does not report. */
  misses: string[];
  /** Missed ctags definitions per ctags kind. */
  missesByKind: Record<string, number>;
  extras: string[];
}

function listFiles(dir: string, extensions: Set<string>): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile()) {
        const ext = e.name.slice(e.name.lastIndexOf(".") + 1).toLowerCase();
        if (extensions.has(ext) && statSync(p).size < 4 * 1024 * 1024) out.push(p);
      }
    }
  };
  visit(dir);
  return out.sort();
}

export function measureAccuracy(language: string, dir: string, sampleSize = 20): AccuracyResult {
  const setup = SETUPS[language];
  if (!setup) throw new Error(`no accuracy setup for ${language}; known: ${Object.keys(SETUPS).join(", ")}`);
  const lang = languageByName(language)?.id as LanguageId;
  const files = listFiles(dir, new Set(setup.extensions));
  const r = spawnSync(
    "ctags",
    ["--output-format=json", "--fields=+nKz", "--extras=+F", `--language-force=${setup.ctags}`, "-f", "-", "-L", "-"],
    { input: files.join("\n"), encoding: "utf8", maxBuffer: 1 << 30 },
  );
  if (r.error) throw new Error(`ctags could not run (${r.error.message}); install universal-ctags`);
  if (r.status !== 0) throw new Error(`ctags failed: ${r.stderr}`);
  const claimedKinds = new Set(Object.keys(setup.kinds));
  const ourKinds = new Set(Object.values(setup.kinds).flat());
  const theirs = new Set<string>();
  let heuristicLeftOut = 0;
  let ctagsErrors = 0;
  const declared = new Map<string, Set<string>>();
  const declaredByCompiler = (path: string, line: number, name: string): boolean => {
    let set = declared.get(path);
    if (!set) {
      set = compilerDeclarations(path);
      declared.set(path, set);
    }
    return set.has(`${line}:${name}`);
  };
  const fileLines = new Map<string, string[]>();
  const lineOf = (path: string, line: number): string => {
    let ls = fileLines.get(path);
    if (!ls) {
      ls = readFileSync(path, "utf8").split("\n");
      fileLines.set(path, ls);
    }
    return ls[line - 1] ?? "";
  };
  const theirKind = new Map<string, string>();
  for (const line of r.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const t = JSON.parse(line) as { _type: string; name: string; path: string; line: number; kind: string };
    if (t._type !== "tag" || !claimedKinds.has(t.kind)) continue;
    // ctags names anonymous things "__anon…"; those have no name to find.
    if (t.name.startsWith("__anon") || t.name.startsWith("anonymous") || /^Anonymous(Function|Class)/.test(t.name)) continue;
    if (setup.compilerCheck && !declaredByCompiler(t.path, t.line, t.name)) {
      ctagsErrors++;
      continue;
    }
    if (setup.heuristic && setup.heuristic(t.kind, lineOf(t.path, t.line))) {
      heuristicLeftOut++;
      continue;
    }
    // Names compare without spaces (ctags writes `operator ()`, the source `operator()`).
    const key = `${relative(dir, t.path)}:${t.line}:${t.name}`.replace(/\s+/g, "");
    theirs.add(key.replace(/\s+/g, ""));
    theirKind.set(key, t.kind);
  }
  const ours = new Set<string>();
  const oursAlt = new Map<string, string>();
  // Lines strictly inside our functions' bodies, per file: ctags reports local variables and
  // constants of some languages (TypeScript's `const` anywhere) as definitions; locals are not a
  // kind we claim, so those are left out of the comparison (and counted).
  const bodyLines = new Map<string, [number, number][]>();
  for (const f of files) {
    const bytes = readFileSync(f);
    const ext = f.slice(f.lastIndexOf(".") + 1).toLowerCase();
    const grammarId = ext === "h" ? refineLanguage("c", f, bytes.toString("latin1")) : setup.grammarFor ? setup.grammarFor(ext) : lang;
    const facts = extractFacts(grammarId, bytes);
    const lines = new LineIndex(bytes);
    const rel = relative(dir, f);
    if (setup.blockTypes) bodyLines.set(rel, blockLines(grammarId, bytes, new Set(setup.blockTypes)));
    for (const s of facts.symbols) {
      if (!ourKinds.has(s.kind)) continue;
      // Rust impls are named `<T as Trait>` by us and `T` by ctags.
      const name = (s.kind === "impl" && s.name.startsWith("<") ? s.name.slice(1, s.name.indexOf(" as ")) : s.name).replace(/\s+/g, "");
      const key = `${rel}:${lines.lineOf(s.name_range.byte_start)}:${name}`;
      ours.add(key);
      oursAlt.set(`${rel}:${lines.lineOf(s.range.byte_start)}:${name}`, key);
    }
  }
  let localsLeftOut = 0;
  for (const t of [...theirs]) {
    const kind = theirKind.get(t) ?? "";
    if (!setup.localKinds?.includes(kind)) continue;
    const [file, lineText] = t.split(":") as [string, string];
    const line = Number(lineText);
    if (bodyLines.get(file)?.some(([a, b]) => line > a && line <= b) && !ours.has(t)) {
      theirs.delete(t);
      localsLeftOut++;
    }
  }
  let matched = 0;
  const misses: string[] = [];
  const matchedOurs = new Set<string>();
  for (const t of theirs) {
    const alt = oursAlt.get(t);
    if (ours.has(t)) {
      matched++;
      matchedOurs.add(t);
    } else if (alt !== undefined) {
      matched++;
      matchedOurs.add(alt);
    } else misses.push(`${t} (${theirKind.get(t) ?? "?"})`);
  }
  const extras = [...ours].filter((o) => !matchedOurs.has(o));
  return {
    language,
    files: files.length,
    ctagsDefs: theirs.size,
    ourDefs: ours.size,
    matched,
    localsLeftOut,
    heuristicLeftOut,
    ctagsErrors,
    recall: theirs.size ? matched / theirs.size : 1,
    precision: ours.size ? matchedOurs.size / ours.size : 1,
    missesByKind: countBy(misses.map((m) => m.slice(m.lastIndexOf("(") + 1, -1))),
    misses: sample(misses, sampleSize),
    extras: sample(extras, sampleSize),
  };
}

/** Line ranges (first line excluded) of the blocks of the given node types. */
function blockLines(language: LanguageId, bytes: Buffer, types: Set<string>): [number, number][] {
  const tree = parse(language, decodeBytes(bytes).text);
  const out: [number, number][] = [];
  const cursor = tree.walk();
  let more = true;
  while (more) {
    if (types.has(cursor.nodeType)) {
      const a = cursor.startPosition.row + 1;
      const b = cursor.endPosition.row + 1;
      if (b > a) out.push([a, b]);
    }
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        more = false;
        break;
      }
    }
  }
  return out;
}

const IMPORT_KINDS = new Set([
  ts.SyntaxKind.ImportClause,
  ts.SyntaxKind.ImportSpecifier,
  ts.SyntaxKind.NamespaceImport,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.Parameter,
]);

/** `line:name` of every named declaration in the TypeScript compiler's syntax tree of a file. */
function compilerDeclarations(path: string): Set<string> {
  const text = readFileSync(path, "utf8");
  const kind = path.endsWith(".tsx") || path.endsWith(".jsx") ? ts.ScriptKind.TSX : path.match(/\.[mc]?js$/) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    const name = (node as { name?: ts.Node }).name;
    if (name && !IMPORT_KINDS.has(node.kind)) {
      const add = (n: ts.Node): void => {
        if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) {
          const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
          out.add(`${line}:${n.text}`);
        } else if (ts.isObjectBindingPattern(n) || ts.isArrayBindingPattern(n)) {
          for (const e of n.elements) if (!ts.isOmittedExpression(e)) add(e.name);
        }
      };
      add(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}

/** An evenly spread sample, so one big file does not fill it. */
function sample<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  const step = xs.length / n;
  return Array.from({ length: n }, (_, i) => xs[Math.floor(i * step)] as T);
}

function main(): void {
  const args = process.argv.slice(2);
  const [language, dir] = args;
  if (!language || !dir) {
    process.stderr.write("usage: node dist/bench/accuracy.js <language> <dir> [--misses N]\n");
    process.exit(2);
  }
  const m = args.indexOf("--misses");
  const n = m >= 0 ? Number(args[m + 1]) : 20;
  const res = measureAccuracy(language, dir, n);
  process.stdout.write(`${JSON.stringify(res, null, 2)}\n`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main();
