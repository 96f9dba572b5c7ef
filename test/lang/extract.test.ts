import assert from "node:assert/strict";
import { test } from "node:test";
import type Parser from "tree-sitter";
import { extractFacts, startOf } from "../../src/lang/extract.js";
import type { FileFacts } from "../../src/lang/extract-types.js";
import { languageForPath, parse, type LanguageId } from "../../src/lang/registry.js";
import * as F from "./fixtures.js";
import { cpuTimed } from "../support/run.js";

/** Extracts and checks what must hold for every file: spans are exact and nest. */
function extract(language: LanguageId, source: string | Buffer): { facts: FileFacts; bytes: Buffer } {
  const bytes = typeof source === "string" ? Buffer.from(source) : source;
  const facts = extractFacts(language, bytes);
  const text = (r: { byte_start: number; byte_end: number }): string => bytes.subarray(r.byte_start, r.byte_end).toString();
  for (const s of facts.symbols) {
    assert.ok(s.range.byte_start <= s.name_range.byte_start && s.name_range.byte_end <= s.range.byte_end, `${s.name}: name inside definition`);
    // A trait impl is named `<Type as Trait>`; its name span is the type's.
    if (!(s.kind === "impl" && s.name.startsWith("<"))) assert.equal(text(s.name_range), s.name, `name span of ${s.kind} ${s.name}`);
    if (s.parent_index !== undefined) {
      const p = facts.symbols[s.parent_index];
      assert.ok(p && p.range.byte_start <= s.range.byte_start && s.range.byte_end <= p.range.byte_end, `${s.name} inside its parent`);
      assert.deepEqual(s.scope.slice(0, p.scope.length + 1), [...p.scope, p.name], `${s.name}: scope starts with the parent's`);
    }
  }
  for (const r of facts.references) {
    assert.equal(text(r.range), r.name, `reference span of ${r.kind} ${r.name}`);
    if (r.enclosing_index !== undefined) {
      const e = facts.symbols[r.enclosing_index];
      assert.ok(e && e.range.byte_start <= r.range.byte_start && r.range.byte_end <= e.range.byte_end, `${r.name} inside its enclosing symbol`);
    }
  }
  return { facts, bytes };
}

/** `kind scope/name ^parent [flags]`, one line per symbol, in document order. */
function symbols(f: FileFacts): string[] {
  return f.symbols.map((s) => {
    const parent = s.parent_index !== undefined ? ` ^${(f.symbols[s.parent_index] as { name: string }).name}` : "";
    const flags = s.flags ? ` [${s.flags.join(",")}]` : "";
    return `${s.kind} ${[...s.scope, s.name].join("/")}${parent}${flags}`;
  });
}

/** `kind qualifier.name in enclosing`, for references other than plain reads. */
function refs(f: FileFacts): string[] {
  return f.references
    .filter((r) => r.kind !== "read")
    .map((r) => {
      const q = r.qualifier ? `${r.qualifier}.` : "";
      const e = r.enclosing_index !== undefined ? ` in ${(f.symbols[r.enclosing_index] as { name: string }).name}` : "";
      return `${r.kind} ${q}${r.name}${e}`;
    });
}

function imports(f: FileFacts): unknown[] {
  return f.imports.map((i) => ({ source: i.source, names: i.names, ...(i.alias ? { alias: i.alias } : {}) }));
}

function includesAll(actual: string[], expected: string[]): void {
  for (const e of expected) assert.ok(actual.includes(e), `missing ${e} in ${JSON.stringify(actual)}`);
}

test("TypeScript: classes, overloads, abstract, default export, namespaces, bound functions", () => {
  const { facts } = extract("typescript", F.TS);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), [
    "interface Shape [exported]",
    "method Shape/area ^Shape",
    "field Shape/name ^Shape",
    "type_alias Point [exported]",
    "field Point/x ^Point",
    "field Point/y ^Point",
    "enum Color [exported]",
    "enum_member Color/Red ^Color",
    "enum_member Color/Green ^Color",
    "abstract_class Base [default_export,exported]",
    "field Base/name ^Base",
    "constructor Base/constructor ^Base",
    // A parameter property (`constructor(protected value: T)`) is a field of the class.
    "field Base/value ^Base",
    "method Base/area ^Base [abstract]",
    "method Base/scale ^Base [overload]",
    "method Base/scale ^Base [overload]",
    "method Base/scale ^Base",
    "function parse [exported,overload]",
    "function parse [exported]",
    "function add [exported]",
    "variable counter",
    "constant LIMIT [exported]",
    "namespace Geometry/Inner",
    "constant Geometry/Inner/unit ^Inner [exported]",
    "module ext",
    "function ext/ext ^ext",
    "function log",
  ]);
  assert.deepEqual(refs(facts), [
    "import react.React",
    "import react.useState",
    "import react.FC",
    "import ./helpers.helper",
    "type Shape in Base",
    "type T in value",
    "write this.value in scale",
    "call log in scale",
    "call path.join in scale",
    "call Number in parse",
    "write counter in log",
    "call console.log in log",
  ]);
  assert.deepEqual(imports(facts), [
    { source: "react", names: [{ name: "default", alias: "React" }, { name: "useState", alias: "useS" }, { name: "FC" }] },
    { source: "node:path", names: [{ name: "*", alias: "path" }] },
    { source: "./helpers", names: [{ name: "helper", alias: "h" }] },
  ]);
  // Reads carry their qualifier; local names bound by imports are not references.
  const reads = facts.references.filter((r) => r.kind === "read").map((r) => r.name);
  assert.ok(!reads.includes("useS"), "an import alias is not a reference");
  assert.ok(reads.includes("path"), "path is read in scale()");
  // f is scale()'s parameter: its uses are the parameter's, no reference to anything outside.
  assert.ok(!facts.references.some((r) => r.name === "f"), JSON.stringify(refs(facts)));
});

test("TSX: components are calls, with the TSX grammar", () => {
  const { facts } = extract("tsx", F.TSX);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), ["function Counter [exported]"]);
  includesAll(refs(facts), ["call useState in Counter", "call Button.Primary in Counter", "call Label in Counter"]);
  // The same source is not TypeScript: JSX needs the TSX grammar.
  assert.equal(extractFacts("typescript", Buffer.from(F.TSX)).has_errors, true);
});

test("JavaScript with JSX: CommonJS, prototype methods, object-literal methods, default export", () => {
  const { facts } = extract("javascript", F.JSX);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), [
    "constant express",
    "class App",
    "field App/#secret ^App",
    "method App/create ^App",
    "method App/render ^App",
    "method App/listen",
    "function handler",
    "constant routes",
    "method routes/index ^routes",
    "method routes/show ^routes",
    "function default [default_export]",
    "variable count",
  ]);
  includesAll(refs(facts), [
    "call Layout in render",
    "call Item in render",
    "call App in create",
    "write this.server in listen",
    "call App.create in handler",
    "write count",
  ]);
  assert.deepEqual(imports(facts), [
    { source: "express", names: [], alias: "express" },
    { source: "express", names: [{ name: "Router" }, { name: "json", alias: "parseJson" }] },
    { source: "./m.mjs", names: [{ name: "default", alias: "def" }, { name: "a", alias: "b" }] },
  ]);
});

test(".js .jsx .mjs .cjs are JavaScript, .ts .mts .cts TypeScript, .tsx TSX", () => {
  for (const p of ["a.js", "a.jsx", "lib/a.mjs", "a.cjs"]) assert.equal(languageForPath(p)?.id, "javascript", p);
  for (const p of ["a.ts", "a.mts", "a.cts", "types/a.d.ts"]) assert.equal(languageForPath(p)?.id, "typescript", p);
  assert.equal(languageForPath("App.tsx")?.id, "tsx");
  const esm = extract("javascript", "export function f() { return g(); }\nexport default class K {}\n").facts;
  assert.deepEqual(symbols(esm), ["function f [exported]", "class K [default_export,exported]"]);
});

test("Python: decorated definitions, methods, constructors, nested scopes, module variables", () => {
  const { facts } = extract("python", F.PY);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), [
    "constant MAX_SIZE",
    "variable registry",
    "function handler",
    "class Service",
    "field Service/retries ^Service",
    "constructor Service/__init__ ^Service",
    "method Service/url ^Service",
    "class Service/Config ^Service",
    "field Service/Config/debug ^Config",
    "function helper",
    "function helper/inner ^helper",
  ]);
  // The decorated class's span starts at its decorator.
  const service = facts.symbols.find((s) => s.name === "Service");
  assert.equal(Buffer.from(F.PY).subarray(service?.range.byte_start).toString().slice(0, 10), "@dataclass");
  // (A decorator is applied by the scope around what it decorates: `@dataclass` by the module,
  // `@property` by the class body.)
  includesAll(refs(facts), ["call dataclass", "call property in Service", "type Base in Service", "call osp.join in url", "call helper in url", "call inner in helper", "write self.name in __init__"]);
  assert.deepEqual(imports(facts), [
    { source: "os.path", names: [], alias: "osp" },
    { source: "sys", names: [] },
    { source: ".models", names: [{ name: "User", alias: "U" }, { name: "Group" }] },
    { source: "typing", names: [{ name: "*" }] },
  ]);
});

test("Rust: impl blocks scope their methods, trait impls are <Type as Trait>, macros", () => {
  const { facts } = extract("rust", F.RS);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), [
    "module shapes",
    "struct shapes/Circle ^shapes",
    "field shapes/Circle/r ^Circle",
    "enum shapes/Kind ^shapes",
    "enum_member shapes/Kind/Round ^Kind",
    "enum_member shapes/Kind/Square ^Kind",
    "union shapes/Bits ^shapes",
    "field shapes/Bits/i ^Bits",
    "field shapes/Bits/f ^Bits",
    "trait Area",
    "method Area/area ^Area",
    "method Area/unit ^Area [assoc]",
    "impl Circle",
    "method Circle/new ^Circle [assoc]",
    "impl <Circle as Area>",
    "method <Circle as Area>/area ^<Circle as Area>",
    "impl Square",
    "method Square/new ^Square [assoc]",
    "constant MAX",
    "static COUNT",
    "type_alias Map",
    "macro square",
    "function main",
  ]);
  // Two `new` methods in two impl blocks: two symbols with different scopes.
  const news = facts.symbols.filter((s) => s.name === "new").map((s) => s.scope);
  assert.deepEqual(news, [["Circle"], ["Square"]]);
  includesAll(refs(facts), ["call Circle.new in main", "call c.area in main", "call println in main", "type HashMap in Map"]);
  assert.deepEqual(imports(facts), [
    { source: "std::collections", names: [{ name: "HashMap" }] },
    { source: "std::collections::hash_map", names: [{ name: "Entry", alias: "E" }] },
    { source: "crate::util", names: [{ name: "*" }] },
  ]);
});

test("Rust: a trait impl keeps the trait's arguments, so two From impls for one type are two names", () => {
  const { facts } = extract("rust", "struct E;\nimpl From<u8> for E { fn from(_: u8) -> E { E } }\nimpl From<Vec<  u16 >> for E { fn from(_: Vec<u16>) -> E { E } }\n");
  assert.deepEqual(
    facts.symbols.filter((s) => s.kind === "impl").map((s) => s.name),
    ["<E as From<u8>>", "<E as From<Vec< u16 >>>"],
  );
});

test("Go: receiver types scope methods, grouped specs are siblings", () => {
  const { facts } = extract("go", F.GO);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), [
    "struct Circle",
    "field Circle/R ^Circle",
    "field Circle/D ^Circle",
    "field Circle/name ^Circle",
    "interface Shape",
    "method Shape/Area ^Shape",
    "type_alias Celsius",
    "type_alias Alias",
    "constant Pi",
    "variable count",
    "variable total",
    "function NewCircle",
    "method Circle/Area",
    "method Circle/String",
  ]);
  includesAll(refs(facts), ["write count in Area", "call fmt.Sprintf in String", "call ToUpper in String", "type Circle in NewCircle"]);
  assert.deepEqual(imports(facts), [
    { source: "fmt", names: [] },
    { source: "math", names: [], alias: "m" },
    { source: "strings", names: [{ name: "*" }] },
  ]);
});

test("Java: abstract classes, constructors, nested classes, enums, records, interface constants", () => {
  const { facts } = extract("java", F.JAVA);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), [
    "namespace com.example.shapes",
    "abstract_class Shape",
    "field Shape/SIDES ^Shape",
    "field Shape/name ^Shape",
    "field Shape/label ^Shape",
    "constructor Shape/Shape ^Shape",
    "method Shape/area ^Shape [abstract]",
    "method Shape/compareTo ^Shape",
    "class Shape/Circle ^Shape",
    "field Shape/Circle/r ^Circle",
    "constructor Shape/Circle/Circle ^Circle",
    "method Shape/Circle/area ^Circle",
    "interface Named",
    "method Named/name ^Named",
    "constant Named/MAX ^Named",
    "enum Color",
    "enum_member Color/RED ^Color",
    "enum_member Color/GREEN ^Color",
    "method Color/next ^Color",
    "class Point",
  ]);
  includesAll(refs(facts), ["call Double.compare in compareTo", "call other.area in compareTo", "write this.r in Circle", "type Comparable in Shape"]);
  assert.deepEqual(imports(facts), [
    { source: "java.util", names: [{ name: "List" }] },
    { source: "java.util", names: [{ name: "*" }] },
    { source: "java.lang.Math", names: [{ name: "PI" }] },
  ]);
});

test("C: macros, typedef'd structs, unions, enums, file-scope variables, pointer declarators", () => {
  const { facts } = extract("c", F.C);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), [
    "macro MAX_SHAPES",
    "macro SQUARE",
    "struct shape",
    "field shape/kind ^shape",
    "field shape/area ^shape",
    "field shape/next ^shape",
    "type_alias shape_t",
    "union value",
    "field value/i ^value",
    "field value/d ^value",
    "enum kind",
    "enum_member kind/CIRCLE ^kind",
    "enum_member kind/SQUARE_KIND ^kind",
    "variable count",
    "variable cursor",
    "variable verbose [extern]",
    "variable names",
    "function circle_area",
    "function shape_name",
  ]);
  includesAll(refs(facts), ["write count in circle_area", "call SQUARE in circle_area", "call printf in shape_name"]);
  assert.deepEqual(imports(facts), [
    { source: "stdio.h", names: [] },
    { source: "shape.h", names: [] },
  ]);
});

test("C++: namespaces, classes, constructors, destructors, operators, out-of-line definitions", () => {
  const { facts } = extract("cpp", F.CPP);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), [
    "namespace geo",
    "namespace geo/v1 ^geo",
    "class geo/v1/Shape ^v1",
    "constructor geo/v1/Shape/Shape ^Shape",
    "method geo/v1/Shape/~Shape ^Shape [declaration]",
    "method geo/v1/Shape/area ^Shape [declaration]",
    "method geo/v1/Shape/id ^Shape",
    "method geo/v1/Shape/operator bool ^Shape",
    "field geo/v1/Shape/id_ ^Shape",
    "struct geo/v1/Point ^v1",
    "field geo/v1/Point/x ^Point",
    "field geo/v1/Point/y ^Point",
    "class geo/v1/Box ^v1",
    "method geo/v1/Box/area ^Box",
    "field geo/v1/Box/w ^Box",
    "field geo/v1/Box/h ^Box",
    "type_alias geo/v1/Points ^v1",
    "enum geo/v1/Color ^v1",
    "enum_member geo/v1/Color/Red ^Color",
    "enum_member geo/v1/Color/Green ^Color",
    "method geo/Shape/~Shape",
    "function total",
  ]);
  includesAll(refs(facts), ["call s.area in total", "type geo.Shape in total"]);
  // sum is total()'s local variable: its writes and reads are no references.
  assert.ok(!facts.references.some((r) => r.name === "sum"), JSON.stringify(refs(facts)));
});

test("C++ attribute macros do not derail the parse, and offsets stay exact", () => {
  const src = "FMT_BEGIN_NAMESPACE\nclass FMT_API Widget {\n public:\n  FMT_CONSTEXPR auto size() const -> int { return 1; }\n};\nFMT_END_NAMESPACE\n";
  const { facts } = extract("cpp", src);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), ["class Widget", "method Widget/size ^Widget"]);
});

test("C/C++ macros with digits, calling conventions between type and name, and caps struct tags", () => {
  // cJSON: a calling-convention macro between the return type and the name.
  const c = extract("c", "int CJSON_CDECL main(void)\n{\n    return helper();\n}\ncJSON * CJSON_STDCALL parse(const char *v) { return 0; }\n");
  assert.equal(c.facts.has_errors, false);
  assert.deepEqual(symbols(c.facts), ["function main", "function parse"]);
  // A struct tag that looks like a macro is a tag: not masked outside a class head.
  const tags = extract("c", "struct IO_STATUS_BLOCK s;\nstruct MY_TAG_T make(void) { struct MY_TAG_T t; return t; }\n");
  assert.equal(tags.facts.has_errors, false);
  assert.deepEqual(symbols(tags.facts), ["variable s", "function make"]);
  // CLI11: attribute macros whose prefix ends in a digit (CLI11_INLINE, CLI11_NODISCARD).
  const cpp = extract(
    "cpp",
    "namespace CLI {\nnamespace detail {\nCLI11_INLINE std::vector<std::string> split_names(std::string current) {\n    return {};\n}\n}\n}\n" +
      "struct FormatterBase {\n    std::size_t column_width_{30};\n    CLI11_NODISCARD std::size_t get_column_width() const { return column_width_; }\n};\n",
  );
  assert.equal(cpp.facts.has_errors, false);
  assert.deepEqual(symbols(cpp.facts), [
    "namespace CLI",
    "namespace CLI/detail ^CLI",
    "function CLI/detail/split_names ^detail",
    "struct FormatterBase",
    "field FormatterBase/column_width_ ^FormatterBase",
    "method FormatterBase/get_column_width ^FormatterBase",
  ]);
});

test("C++: member function templates are methods (not constructors), declared or defined; operators returning pointers are methods", () => {
  const { facts } = extract(
    "cpp",
    "struct S {\n  S();\n  template <typename U> void put(U u) {}\n  template <typename T> void info(const T &msg);\n  template <typename T> S(T t) {}\n  const S *operator[](int i) const { return this; }\n  S &operator=(const S &o) { return *this; }\n};\n",
  );
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), [
    "struct S",
    "constructor S/S ^S [declaration]",
    "method S/put ^S",
    "method S/info ^S [declaration]",
    "constructor S/S ^S",
    "method S/operator[] ^S",
    "method S/operator= ^S",
  ]);
});

test("TS: constructor overload and ambient signatures are constructors", () => {
  const { facts } = extract("typescript", "declare class A {\n  constructor(x: number);\n  m(): void;\n}\nclass C {\n  constructor();\n  constructor(x?: number) {}\n}\n");
  assert.deepEqual(symbols(facts), [
    "class A",
    "constructor A/constructor ^A [overload]",
    "method A/m ^A [overload]",
    "class C",
    "constructor C/constructor ^C [overload]",
    "constructor C/constructor ^C",
  ]);
});

test("non-ASCII text before definitions: byte offsets, not UTF-16 indices", () => {
  const src = "// é — 😀 ünïcödé\nconst s = \"日本語\";\nfunction after() { return s; }\n";
  const { facts, bytes } = extract("javascript", src);
  const after = facts.symbols.find((s) => s.name === "after");
  assert.ok(after);
  assert.equal(after.name_range.byte_start, bytes.indexOf("after"));
  assert.equal(bytes.subarray(after.range.byte_start, after.range.byte_end).toString(), "function after() { return s; }");
  const read = facts.references.find((r) => r.name === "s" && r.kind === "read");
  assert.equal(read?.range.byte_start, bytes.lastIndexOf("s;"));
});

test("invalid UTF-8, a BOM and CRLF keep spans exact", () => {
  const bytes = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from("# caf"),
    Buffer.from([0xe9, 0xff]),
    Buffer.from("\r\ndef tail():\r\n    return 1\r\n"),
  ]);
  const { facts } = extract("python", bytes);
  const tail = facts.symbols.find((s) => s.name === "tail");
  assert.equal(tail?.name_range.byte_start, bytes.indexOf("tail"));
});

test("syntax errors: what tree-sitter recovers is extracted and has_errors says so", () => {
  const src = "function ok() { return 1; }\nfunction broken( {\n  let x = ;\n}\nclass Later { run() { ok(); } }\n";
  const { facts } = extract("javascript", src);
  assert.equal(facts.has_errors, true);
  const names = facts.symbols.map((s) => s.name);
  assert.ok(names.includes("ok"), JSON.stringify(names));
  assert.ok(names.includes("Later") || names.includes("run"), JSON.stringify(names));
});

test("a file of several megabytes parses whole (parser buffer sized to the input)", () => {
  // Comment lines are cheap to parse, so the test stays fast while the input is large.
  const filler = "// ".padEnd(79, "x") + "\n";
  const src = `export function first(): number { return 1; }\n${filler.repeat(30000)}export function last(a: number) { return first() + a; }\n`;
  const bytes = Buffer.from(src);
  assert.ok(bytes.length > 2 * 1024 * 1024);
  const facts = extractFacts("typescript", bytes);
  assert.equal(facts.has_errors, false);
  assert.deepEqual(symbols(facts), ["function first [exported]", "function last [exported]"]);
  const last = facts.symbols[1];
  assert.equal(last?.name_range.byte_start, bytes.lastIndexOf("last"));
  assert.ok(facts.references.some((r) => r.kind === "call" && r.name === "first" && r.range.byte_start === bytes.lastIndexOf("first")));
});

test("startOf reads a node's start without a native call and agrees with startIndex", () => {
  const tree = parse("typescript", "const é = 1;\nfunction 😀x() {}\n" + F.TS);
  const seen: Parser.SyntaxNode[] = [];
  const visit = (n: Parser.SyntaxNode): void => {
    seen.push(n);
    for (const c of n.children) visit(c);
  };
  visit(tree.rootNode);
  assert.ok(seen.length > 100);
  for (const n of seen) assert.equal(startOf(n), n.startIndex);
});

test("every language extracts from an empty file and from binary noise without throwing", () => {
  const noise = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 131) % 256));
  for (const l of ["rust", "python", "c", "cpp", "java", "javascript", "typescript", "tsx", "go"] as const) {
    assert.deepEqual(extractFacts(l, Buffer.alloc(0)).symbols, []);
    extract(l, noise);
  }
});

test("looksLikeCpp: C++ markers in code, not in comments or strings; C headers stay C", async () => {
  const { looksLikeCpp, refineLanguage } = await import("../../src/lang/registry.js");
  for (const cpp of ["class A {};", "class B : public A {", "namespace n {", "template <typename T> T f();", "struct S {\n public:\n int x;\n};", "void A::f() {}", "using namespace std;"]) {
    assert.ok(looksLikeCpp(cpp), cpp);
  }
  for (const c of [
    "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n",
    "/* class A { std::x } */ int g(int *restrict p);",
    "// namespace n {\nstruct s { int class_; };",
    "const char *s = \"a::b class C {\";",
    "typedef struct node { struct node *next; } node;",
  ]) {
    assert.ok(!looksLikeCpp(c), c);
  }
  assert.equal(refineLanguage("c", "include/a.h", "class A {};"), "cpp");
  assert.equal(refineLanguage("c", "src/a.c", "class A {};"), "c");
  assert.equal(refineLanguage("cpp", "a.hpp", "int x;"), "cpp");
  // Only the first HEADER_SNIFF_BYTES decide, so a tool that reads just those agrees with one that read it all.
  const { HEADER_SNIFF_BYTES } = await import("../../src/lang/registry.js");
  const late = `${"int x;\n".repeat(Math.ceil(HEADER_SNIFF_BYTES / 7))}class A {};\n`;
  assert.equal(refineLanguage("c", "big.h", late), "c");
  assert.equal(refineLanguage("c", "big.h", `class A {};\n${late}`), "cpp");
});

test("python: a module-level assignment at any depth of try/if/with/for is a variable; a local or class-body one is not", () => {
  const src = [
    "try:",
    "    import brotli",
    "except ImportError:",
    "    try:",
    "        import brotlicffi as brotli",
    "    except ImportError:",
    "        brotli = None",
    "if True:",
    "    with open('x') as f:",
    "        for i in range(2):",
    "            DEEP = 1",
    "def g():",
    "    try:",
    "        local = 1",
    "    except E:",
    "        pass",
    "class C:",
    "    attr = 1",
    "    if True:",
    "        inner = 2",
    "",
  ].join("\n");
  const { facts } = extract("python", src);
  const got = facts.symbols.map((s) => `${s.kind} ${[...s.scope, s.name].join(".")}`);
  assert.deepEqual(got, ["variable brotli", "variable DEEP", "function g", "class C", "field C.attr"]);
});

test("a name declared thousands of times at module level costs each reference a bounded lookup (generated code)", () => {
  // Each reference read every declaration of its name to find the type they agree on: 16,000
  // `x = make()` and 2,000 `x.run()` took 3.8 s, so 6,000 would take ~11 s (1-1.6 s of CPU now,
  // most of it the 16,000 declarations); more than 64 declarations agree on no type.
  const src = "x = make()\n".repeat(16_000) + "x.run()\n".repeat(6_000);
  const { value: f, cpuMs } = cpuTimed(() => extractFacts("python", Buffer.from(src)));
  assert.ok(cpuMs < 4000, `extraction took too long: ${Math.round(cpuMs)} ms of CPU`);
  assert.equal(f.symbols.length, 16_000);
  assert.equal(f.references.filter((r) => r.name === "run").length, 6_000);
  // A few declarations still agree: the receiver's type is Maker's.
  const few = extractFacts("python", Buffer.from("class Maker:\n    def run(self): pass\n\nx = Maker()\nx = Maker()\nx.run()\n"));
  assert.equal(few.references.find((r) => r.name === "run")?.receiver_type, "Maker");
});

test("C and C++: a function-type typedef with its name in parentheses is a type alias (uthash's ctor_f)", () => {
  const src = [
    "typedef void (ctor_f)(void *dst, const void *src);",
    "typedef void *(alloc_f)(unsigned n);",
    "typedef void (*fp_t)(int);",
    "typedef struct { ctor_f *copy; fp_t f; } ops;",
    "",
  ].join("\n");
  for (const language of ["c", "cpp"] as const) {
    const { facts } = extract(language, src);
    assert.equal(facts.has_errors, false);
    assert.deepEqual(symbols(facts), ["type_alias ctor_f", "type_alias alloc_f", "type_alias fp_t", "field copy", "field f", "type_alias ops"], language);
  }
});
