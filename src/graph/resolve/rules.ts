/**
 * The rules every path of resolution shares: which candidates a reference of its kind, language
 * and family can name, and how one is picked among several (overloads, alias macros, C++ members
 * declared in a class and defined outside it), or none.
 */
import { posix } from "node:path";
import { fitsArity, languageFamily } from "../facts.js";
import { type Outcome, type Resolution, type SymRow, UNRESOLVED } from "./model.js";

export const SELF_QUALIFIERS = new Set(["this", "self", "Self", "cls"]);
/** Kinds whose members are reachable unqualified from anywhere in the file or package. */
export const CONTAINER_KINDS = new Set(["module", "namespace"]);
/** Kinds whose members `this.x` / `self.x` name. */
export const TYPE_KINDS = new Set(["class", "interface", "struct", "trait", "impl", "enum", "union"]);

/**
 * A symbol whose members a declared type reaches: TYPE_KINDS, and Go's other defined types
 * (`type BorderShape int`, `type Attr int32`, extracted as type aliases), which have methods of
 * their own. fzf's `t.inputBorderShape.Visible()`, a field of type tui.BorderShape, was
 * ambiguous with the method of the same name of another type.
 */
export function isTypeRow(s: SymRow): boolean {
  return TYPE_KINDS.has(s.kind_normalized) || (s.kind_normalized === "type" && s.language === "go");
}
/**
 * Languages where a bare name never denotes a member: a method, field or enum member is reached
 * through `this`/`self`, its type or a value (Java and C++ see their class's members unqualified,
 * C and C++ their enumerators).
 */
export const MEMBERS_QUALIFIED = new Set(["javascript", "typescript", "tsx", "python", "rust", "go"]);
export const MEMBER_KINDS = new Set(["method", "field", "ctor", "variant"]);
/**
 * Methods every value of the language has (java.lang.Object's, Object.prototype's, Python's
 * object's; in Go, error's and fmt.Stringer's, which any type implements): on a receiver of unknown type, one class's override of them is no better a guess
 * than any other, so such a call lists its candidates.
 */
export const UNIVERSAL_MEMBERS: Record<string, Set<string>> = {
  java: new Set(["equals", "hashCode", "toString", "getClass", "clone", "finalize", "notify", "notifyAll", "wait"]),
  javascript: new Set(["toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString"]),
  // Go: the builtin error interface's method and fmt.Stringer's, implemented by types everywhere.
  go: new Set(["Error", "String"]),
  python: new Set(["__init__", "__eq__", "__ne__", "__hash__", "__repr__", "__str__", "__format__", "__getattribute__", "__setattr__", "__delattr__", "__dir__", "__reduce__", "__sizeof__"]),
};
/**
 * Python: methods of the builtin dict, list, set, deque and str. On a receiver of unknown type
 * they are a builtin's far more often than a repository class's of the same name (jinja's
 * `variables.setdefault()` on `**variables`, `todo.extend()` on a deque and `self.blocks.items()`
 * on a dict were `heuristic` calls of LRUCache's and Environment's methods; flask's
 * `self.options.get()` of the route decorator Scaffold.get): such a call lists its candidates, as
 * for UNIVERSAL_MEMBERS.
 */
export const BUILTIN_MEMBERS: Record<string, Set<string>> = {
  python: new Set([
    ...["items", "keys", "values", "get", "setdefault", "update", "pop", "popitem", "copy", "clear"],
    ...["append", "extend", "insert", "remove", "index", "count", "sort", "reverse", "add", "discard", "popleft", "appendleft"],
    ...["join", "split", "strip", "startswith", "endswith", "format", "replace", "lower", "upper", "encode", "decode"],
  ]),
};
UNIVERSAL_MEMBERS.typescript = UNIVERSAL_MEMBERS.javascript as Set<string>;
UNIVERSAL_MEMBERS.tsx = UNIVERSAL_MEMBERS.javascript as Set<string>;
/** Languages whose capitalised qualifiers name types (Java, JS/TS classes and globals, Rust types). */
export const TYPE_NAMED = new Set(["java", "javascript", "typescript", "tsx", "rust"]);
/** Kinds whose body declares locals. */
export const BODY_KINDS = new Set(["fn", "method", "ctor"]);
export const MAX_CANDIDATES = 10;
/** Languages where `x.f()` calls a method, never a field (Rust needs `(x.f)()`; Java has no callable fields). */
export const FIELDS_NEVER_CALLED = new Set(["rust", "java"]);

/**
 * The candidates a call can reach: not a field when a method of that name is among them (a
 * struct's `endianness` field beside a builder's `endianness()`), and never a field where the
 * language cannot call one with `x.f()`. Other references (reads, writes) keep every candidate,
 * but a Rust one that cannot name a method (refNotMethod) keeps none of those.
 */
export function callTargets(all: SymRow[], language: string, isCall: boolean): SymRow[] {
  const rows = nameable(all);
  if (current.refNotMethod) return rows.filter((s) => s.kind_normalized !== "method");
  if (!isCall || !rows.some((s) => s.kind_normalized === "field")) return rows;
  const fns = rows.filter((s) => s.kind_normalized !== "field");
  return fns.length > 0 || FIELDS_NEVER_CALLED.has(language) ? fns : rows;
}

/** Kinds a type reference never names (resolveRef's typesOnly). */
export const NOT_TYPES = new Set(["method", "ctor", "field"]);
/** Kinds only a language where a type can be `typeof` a value names in a type reference. */
export const VALUES = new Set(["fn", "var", "static"]);
export const VALUE_TYPE_LANGUAGES = new Set(["typescript", "tsx", "javascript"]);
/**
 * Whether a type reference of `language` can name a symbol of kind `kind`: never a method,
 * constructor or field; a function or variable only where a type can be `typeof` a value; an
 * enumerator not in Java or Go, nor in C or C++ when the reference is qualified (spdlog's `const
 * std::string &` was a guess at fmt's enumerator `range_format::string`). (An unqualified one in
 * C may be an enumerator that tree-sitter took for a type: stb's `case F_none :`, `CASE(F_none)`.
 * Rust's `E::V { .. }` and TypeScript's `E.A` name enumerators as types.)
 */
export function canNameType(language: string, kind: string, qualified: boolean): boolean {
  if (NOT_TYPES.has(kind)) return false;
  if (VALUES.has(kind)) return VALUE_TYPE_LANGUAGES.has(language);
  if (kind !== "variant") return true;
  return language === "c" || language === "cpp" ? !qualified : language !== "java" && language !== "go";
}
/** Languages whose imports re-export what they bind (Resolver.exported). */
export const REEXPORT_LANGUAGES = new Set(["python", "typescript", "tsx", "javascript", "rust"]);

export function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const xs = m.get(k);
  if (xs) xs.push(v);
  else m.set(k, [v]);
}

/**
 * The members among `rows` that belong to the type `type`, constructors aside (they are not
 * inherited, nor reached through a value): declared inside it; in Go, a method of its name in its
 * package (declared outside the type, its parent is a name); in Rust, a method of one of its
 * `impl T` or `impl Trait for T` blocks.
 */
export function membersOfType(rows: SymRow[], type: SymRow, language: string): SymRow[] {
  const dir = posix.dirname(type.path);
  const implOf = `<${type.name} as `;
  return rows.filter(
    (s) =>
      // (Python's `__init__` is a method like any other: `super().__init__(...)` is the base's.)
      (s.kind_normalized !== "ctor" || language === "python") &&
      (s.parent_symbol_id === type.symbol_id ||
        (language === "go" && s.parent === type.name && posix.dirname(s.path) === dir) ||
        (language === "rust" && s.kind_normalized !== "field" && (s.parent === type.name || (s.parent ?? "").startsWith(implOf)) && sameRustCrate(s.path, type.path))),
  );
}

/**
 * Whether two Rust files may be of one crate, as their paths say: the part up to the first
 * `src/` segment, else the first `tests/`, `examples/` or `benches/` one (a Cargo package's source root). A type's
 * impls are in its own crate (an inherent impl must be; a trait impl nearly always is): in a
 * workspace, ripgrep's `RegexMatcher::new` of crates/regex was `ambiguous` with crates/pcre2's
 * and two test utilities' `RegexMatcher::new` (101 calls). A path with no such segment says
 * nothing.
 */
function sameRustCrate(a: string, b: string): boolean {
  const ka = rustSourceRoot(a);
  const kb = rustSourceRoot(b);
  return ka === undefined || kb === undefined || ka === kb;
}

// (The first `src/`: a module directory `src/tests/` is the crate's own; else the first of the
// others, `crates/matcher/tests/util.rs`.)
const RUST_SRC = /^(?:[^/]*\/)*?src\//;
const RUST_OTHER_ROOT = /^(?:[^/]*\/)*?(?:tests|examples|benches)\//;
function rustSourceRoot(path: string): string | undefined {
  return (RUST_SRC.exec(path) ?? RUST_OTHER_ROOT.exec(path))?.[0];
}

/** The less certain of two ways a symbol was found. */
export function weaker(a: Resolution, b: Resolution): Resolution {
  const rank = (h: Resolution): number => (h === "exact" ? 0 : h === "imported" ? 1 : 2);
  return rank(a) >= rank(b) ? a : b;
}

/**
 * The reference being resolved, as pick() and the rules it reaches see it: set by
 * Resolver.resolveRef around each reference (resolution runs on one thread, one reference at a time).
 */
export const current: { callArity: number | null; refFamily: string | null; refNotMethod: boolean; refNever: Set<string> | null; refValue: boolean; refNotAssoc: boolean } = {
  /**
   * Arguments of the call being resolved (null: not a call, or not counted): what pick() tells a
   * Java or C++ call's overloads apart by.
   */
  callArity: null,
  /**
   * The language family of the reference being resolved: its candidates are
   * symbols of that family only. A Java call listed TypeScript methods among its candidates, a
   * Python guess could land on a Go function: on the 76 MB mixed tree 49,646 of 147,914 candidate
   * lists held another family's symbols.
   */
  refFamily: null,
  /**
   * Whether the reference is a Rust or Java one that cannot name a method (refCannotNameMethod),
   * e.g. for Rust: a write (`self.n = …`, a struct literal's `n: …`) or a read through a value or
   * a module (`self.n`, `x.n`, `io::n`).
   * rustc reads a method only through a type path (`T::m`, `Self::m`); `self.m` without a call is
   * an error. ripgrep's `self.num_ignores` (the field) was bound to the method `num_ignores()`
   * beside it, so a rename of the method renamed the field read, and one of the field left it.
   */
  refNotMethod: false,
  /**
   * For a TypeScript/JavaScript reference: the kinds of symbol it cannot name,
   * where a type and a value share a name. A call or `new` names a value, never an interface or a
   * type alias; a type (`typeof x` is extracted as a read) never a function or a variable. zod
   * declares `export interface $constructor<T>` beside `export function $constructor<T>(...)`
   * (and `interface ZodString` beside `const ZodString`): its 249 calls `core.$constructor(...)`
   * and 249 annotations `core.$constructor<ZodError>` were all ambiguous between the two, and the
   * function's own return type `$constructor<T, D>` was a reference to the function.
   */
  refNever: null,
  /**
   * Whether the reference is a TypeScript/JavaScript read or write: a value (`case
   * ZodIssueCode.custom:`, `$ZodType.init(inst, def)`, `typeof Code`), which names an interface or
   * a type alias only where no value of that name is among the candidates (`export { OnlyType }`
   * and `export default OnlyType` are reads of a type). zod declares `export const ZodIssueCode`
   * beside `export type ZodIssueCode` and `interface $ZodType` beside `const $ZodType`: 1,057
   * reads were ambiguous between the two.
   */
  refValue: false,
  /**
   * Whether the reference is a Rust call through a value or a module (`cmd.stdout(..)`,
   * `self.stdout()`, `io::stdout()`): it cannot call an associated function without a `self`
   * parameter (flag `assoc`), which only a path through a type reaches (`OutputType::stdout()`).
   * bat's 264 `Command::new(..).stdout(Stdio::piped())`-like calls were ambiguous between its
   * `OutputType::stdout() -> Self` and a copy of it in the syntax tests.
   */
  refNotAssoc: false,
};

/**
 * The family of Go code built without tests (a file not named `_test.go`): it sees no symbol of a
 * test file, which `go build` leaves out. completion.go's `cmd.Root().Writer.Write` was guessed to
 * be completion_test.go's `mockWriter.Write`, and 180 urfave/cli references listed test types'
 * methods among their candidates (`cmd.Run` had `boolWithInverseTestCase.Run` beside `Command.Run`).
 */
export const GO_BUILD = "go\0build";

export function inFamily(s: SymRow, family: string): boolean {
  return family === GO_BUILD ? s.language === "go" && !s.path.endsWith("_test.go") : languageFamily(s.language) === family;
}
export const TS_NOT_CALLED = new Set(["interface", "type"]);
export const TS_NOT_TYPES = new Set(["fn", "var", "const", "static"]);

/** `rows` without the kinds the reference being resolved cannot name (see refNever). */
export function nameable(rows: SymRow[]): SymRow[] {
  if (current.refNotAssoc && rows.some(isAssoc)) return rows.filter((r) => !isAssoc(r));
  const never = current.refNever;
  if (current.refValue) return rows.some((r) => TS_NOT_CALLED.has(r.kind_normalized)) && rows.some((r) => !TS_NOT_CALLED.has(r.kind_normalized)) ? rows.filter((r) => !TS_NOT_CALLED.has(r.kind_normalized)) : rows;
  // (Most candidate lists hold no such kind: no copy of them.)
  return never === null || !rows.some((r) => never.has(r.kind_normalized)) ? rows : rows.filter((r) => !never.has(r.kind_normalized));
}

function isAssoc(r: SymRow): boolean {
  return r.flags !== null && r.flags.split(",").includes("assoc");
}

const RUST_PRIMITIVES = new Set("u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 bool char str".split(" "));
/** Whether a Rust call with this qualifier goes through a value or a module (see refNotAssoc). */
export function rustValueCall(kind: string, qualifier: string | null): boolean {
  if (kind !== "call" || qualifier === null) return false;
  const cut = qualifier.lastIndexOf("::");
  const last = cut < 0 ? qualifier : qualifier.slice(cut + 2);
  return /^[a-z_]/.test(last) && !RUST_PRIMITIVES.has(last);
}

/** Whether a Rust reference of this kind and qualifier can name no method (see refNotMethod). */
export function rustNotMethod(kind: string, qualifier: string | null): boolean {
  return kind === "write" || (kind === "read" && qualifier !== null && /^[a-z_]/.test(qualifier));
}

/**
 * Whether a reference can name no method: a Rust one as rustNotMethod says, and any Java read or
 * write (Java names a method only to call it, and a method reference `Foo::bar` is a call). An
 * array's `zeros.length` in commons-io was ambiguous among the five `length()` methods of the
 * repository, so splice's rename of `IOUtils.length(byte[])` listed 746 name-only locations.
 */
export function refCannotNameMethod(language: string, kind: string, qualifier: string | null): boolean {
  if (language === "rust") return rustNotMethod(kind, qualifier);
  return language === "java" && (kind === "read" || kind === "write");
}

/** The candidates a Java or C++ call's argument count can call (all of them for other references). */
export function fitCall(rows: SymRow[]): SymRow[] {
  const arity = current.callArity;
  return arity === null ? rows : rows.filter((r) => fitsArity(r.arity, arity));
}

/** One symbol, or overloads of one symbol, is an answer; several different symbols are not. */
export function pick(candidates: SymRow[], how: Resolution): Outcome {
  let rows = candidates;
  if (current.refNever !== null || current.refValue || current.refNotAssoc) {
    rows = nameable(rows);
    if (rows.length === 0) return UNRESOLVED;
  }
  // A guess (by name) never takes a Java or C++ call to a callable its argument count cannot
  // call: guice's `ImmutableList.builder()...build()` went to a repository `build` of four
  // parameters. Left unresolved when no candidate fits.
  // (Nor, in Java, one reached through the package or an import: a call no overload there
  // fits is an inherited library method's or no call javac takes.)
  if (how === "heuristic" || (how === "imported" && rows[0]?.language === "java")) {
    rows = fitCall(rows);
    if (rows.length === 0) return UNRESOLVED;
  }
  // C and C++: a macro that only renames (zlib's `#define deflate z_deflate` under Z_PREFIX, its
  // `#define zmemcpy memcpy`) is not what a name beside a function or type of that name reaches:
  // the definition is renamed with its uses. zlib's 309 calls of deflate, gzopen, zmemcpy... were
  // all ambiguous between the function and zconf.h's macro. (Beside variables only, as zlib.h's
  // misread prototypes named z_off_t, the macro is the type a `z_off_t` names: kept.)
  if (rows.length > 1 && rows.some(isAliasMacro) && rows.some((r) => RENAMED_KINDS.has(r.kind_normalized))) rows = rows.filter((r) => !isAliasMacro(r));
  const first = rows[0] as SymRow;
  if (rows.length === 1) return { target: first.symbol_id, how, candidates: null };
  if (rows.every((r) => r.file_id === first.file_id && r.parent_symbol_id === first.parent_symbol_id && r.kind_normalized === first.kind_normalized)) {
    // Java and C++ overloads: the ones a call's argument count fits, when that narrows them
    // (gson's eight `toJson` took every call, whatever it passed, to the first).
    const fit = fitCall(rows);
    const pool = fit.length > 0 ? fit : rows;
    // Several of them fit: the argument types tell them apart, which resolution does not see,
    // so the first is a guess (javapoet's `builder(TypeName.get(type), name, modifiers)` in
    // `builder(Type, String, Modifier...)` means `builder(TypeName, ...)`, not the first).
    const guess = pool.length > 1 && first.language === "java";
    return { target: overloadTarget(pool).symbol_id, how: guess ? weaker(how, "heuristic") : how, candidates: null };
  }
  // C++: one class's member as declared in its class (a header) and defined outside it (`void
  // T::m() {}` in a .cpp or -inl.h file) is one function: the declaration, which every file that
  // calls it includes (where only the header is in reach, a call has no other candidate).
  const defs = cppDeclarations(rows);
  if (defs) {
    const fit = fitCall(defs);
    return { target: overloadTarget(fit.length > 0 ? fit : defs).symbol_id, how, candidates: null };
  }
  return { target: null, how: "ambiguous", candidates: rows.slice(0, MAX_CANDIDATES).map((r) => r.symbol_id) };
}

export const RENAMED_KINDS = new Set(["fn", "method", "type", "struct", "union", "enum", "class"]);
export function isAliasMacro(r: SymRow): boolean {
  return r.kind_normalized === "macro" && r.flags !== null && r.flags.split(",").includes("alias");
}

/**
 * The in-class declarations among `rows` when they are all one C++ class's members of one name
 * and kind, declared in one file and defined outside the class in one file; else undefined.
 */
export function cppDeclarations(rows: SymRow[]): SymRow[] | undefined {
  const first = rows[0] as SymRow;
  if (first.language !== "cpp" || first.parent === null) return undefined;
  const inside: SymRow[] = [];
  let defFile: number | undefined;
  for (const r of rows) {
    if (r.language !== "cpp" || r.parent !== first.parent || r.kind_normalized !== first.kind_normalized || r.name !== first.name) return undefined;
    if (r.parent_symbol_id !== null) {
      if (inside.length > 0 && (inside[0] as SymRow).file_id !== r.file_id) return undefined;
      inside.push(r);
    } else if (defFile === undefined) defFile = r.file_id;
    else if (defFile !== r.file_id) return undefined;
  }
  return inside.length > 0 && defFile !== undefined ? inside : undefined;
}

/**
 * Which of one scope's same-named definitions a call reaches: never an overload signature
 * (TypeScript's bodiless signatures, Python's `@overload` stubs) when the implementation is
 * there; in Python the last definition, the one the name is bound to when the scope has run;
 * elsewhere the first (Java and C++ overloads of the call's argument count, as pick() narrows them,
 * are told apart by types, which resolution does not see).
 */
export function overloadTarget(rows: SymRow[]): SymRow {
  const impl = rows.filter((r) => !r.flags || !r.flags.split(",").includes("overload"));
  const pool = impl.length > 0 ? impl : rows;
  return (/\.pyi?$/.test(pool[0]?.path ?? "") ? pool[pool.length - 1] : pool[0]) as SymRow;
}

/** Unique candidate, else a unique one in the same directory (package), else ambiguous. */
export function nearPick(rows: SymRow[], ctx: { path: string }): Outcome {
  if (rows.length === 0) return UNRESOLVED;
  const r = pick(rows, "heuristic");
  if (r.how !== "ambiguous") return r;
  const dir = posix.dirname(ctx.path);
  const near = rows.filter((s) => posix.dirname(s.path) === dir);
  if (near.length > 0) {
    const n = pick(near, "heuristic");
    if (n.how !== "ambiguous") return n;
  }
  return r;
}

/** Candidate symbols (not impl blocks) with their file and their parent's kind, in file order. */
export function candidatesSql(where: string): string {
  return `SELECT s.symbol_id, s.file_id, f.path, s.name, s.kind_normalized, s.parent, s.parent_symbol_id, p.kind_normalized AS parent_kind, s.flags, s.display_fqn, s.arity, f.language
    FROM symbols s JOIN files f ON f.id = s.file_id LEFT JOIN symbols p ON p.symbol_id = s.parent_symbol_id
    WHERE ${where} s.kind_normalized != 'impl' ORDER BY f.path, s.byte_start`;
}

/** A qualifier's first segment (`a` of `a.b.c`, `ns` of `ns::T`), or null without one. */
export function qualifierHead(q: string | null): string | null {
  if (q === null || q === "") return null;
  const cut = q.search(/\.|::/);
  return cut === -1 ? q : q.slice(0, cut);
}

/** What an import specifier that denotes one of `paths` mentions: a file's stem, or its directory's name. */
export function moduleStems(paths: string[]): string[] {
  const stems = new Set<string>();
  for (const p of paths) {
    stems.add(p.slice(p.lastIndexOf("/") + 1).replace(/(\.d)?\.[^.]+$/, ""));
    // Imports that name a directory: a folder's index module, a Go or Java package.
    if (/(^|\/)(index\.[^/]+|__init__\.pyi?|mod\.rs)$|\.(go|java)$/.test(p)) stems.add(posix.basename(posix.dirname(p)));
  }
  return [...stems].filter((s) => s !== "" && s !== ".");
}

