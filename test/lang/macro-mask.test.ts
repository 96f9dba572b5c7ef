/**
 * C/C++ macro masking (src/lang/preprocess.ts) against caps names that are not macros: the last
 * enumerator of an enum or the last argument of a call, alone on its line. Masked, they vanished
 * from the index (Unity's UNITY_ARRAY_TO_ARRAY, hiredis's REDIS_CONN_USERFD, jq's JV_KIND_OBJECT).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type Parser from "tree-sitter";
import { processFile } from "../../src/graph/process-file.js";
import { extractFacts } from "../../src/lang/extract.js";
import { maskForParse, maskHints, parseSource } from "../../src/lang/preprocess.js";
import { parse } from "../../src/lang/registry.js";
import { cpuTimed, REPO_ROOT } from "../support/run.js";

const DIR = join(REPO_ROOT, "test", "fixtures", "lang", "c-macro-mask");

function facts(language: "c" | "cpp", file: string) {
  const bytes = readFileSync(join(DIR, file));
  const f = extractFacts(language, bytes);
  for (const s of f.symbols) assert.equal(bytes.subarray(s.name_range.byte_start, s.name_range.byte_end).toString(), s.name);
  return f;
}

test("the last enumerator alone on its line is an enum member, not a masked macro", () => {
  const f = facts("c", "flags.h");
  assert.equal(f.has_errors, false);
  const members = f.symbols.filter((s) => s.kind === "enum_member").map((s) => s.name);
  assert.deepEqual(members, ["UNITY_ARRAY_TO_VAL", "UNITY_ARRAY_TO_ARRAY", "REDIS_CONN_TCP", "REDIS_CONN_UNIX", "REDIS_CONN_USERFD"]);
  // The last argument of a call split over lines stays a reference inside the function.
  const inDefault = f.references.filter((r) => r.name === "REDIS_CONN_USERFD");
  assert.equal(inDefault.length, 1);
});

test("statement-level macros alone on their lines are still masked", () => {
  const f = facts("cpp", "widget.cc");
  assert.equal(f.has_errors, false);
  const names = f.symbols.map((s) => `${s.kind} ${s.name}`);
  assert.deepEqual(names, ["enum presentation_type", "enum_member PRESENTATION_NONE", "enum_member PRESENTATION_DEBUG", "class widget", "method size"]);
});

test("a masked parse more damaged than the plain one is not the one read (fmt's base.h lost its last #include)", () => {
  // Reduced from fmt's include/fmt/base.h: blanking FMT_CONSTEXPR and FMT_DEPRECATED makes
  // tree-sitter's recovery swallow everything up to the end, the #include with it.
  const text = readFileSync(join(DIR, "fmt-base-excerpt.h"), "utf8");
  const includes = (t: Parser.Tree): number => t.rootNode.descendantsOfType("preproc_include").length;
  assert.equal(includes(parse("cpp", maskForParse("cpp", text))), 0, "the masked reading loses it");
  assert.equal(includes(parseSource("cpp", text)), 1);
  // And the index records the dependency.
  const deps = processFile({ abs: join(DIR, "fmt-base-excerpt.h"), rel: "fmt-base-excerpt.h", language: "cpp", maxBytes: 1 << 20, rootName: "x" });
  assert.equal(deps.kind, "indexed");
  assert.ok(deps.kind === "indexed" && deps.rows.deps?.some((d) => d.spec === "format.h"), JSON.stringify(deps.kind === "indexed" ? deps.rows.deps : deps));
});

test("masks blank exactly the macros' bytes, where several patterns cover the same ones", () => {
  // FMT_CONSTEXPR matches the attribute pattern, the two-in-a-row one and the declaration one;
  // FMT_INLINE two of them; GTEST_API_ the class-head one; MY_ALWAYS goes with its argument list.
  // Everything else is kept byte for byte.
  const text = "FMT_CONSTEXPR FMT_INLINE auto f() -> int;\r\nclass GTEST_API_ Widget {\n  MY_ALWAYS(1) int g();\n};\n#define FMT_API x\n";
  const masked = maskForParse("cpp", text);
  assert.equal(masked.length, text.length);
  assert.equal(
    masked,
    "                         auto f() -> int;\r\nclass            Widget {\n               int g();\n};\n#define FMT_API x\n",
  );
  assert.equal(maskForParse("cpp", "int x = A_B;\n"), "int x = A_B;\n");
});

test("a struct body's last line, a lone caps name, is a member macro and is masked (libuv's struct uv_req_s)", () => {
  // Kept as a list item, `UV_REQ_FIELDS` before `}` derailed the parse: uv_req_s was lost and
  // everything after it in the header (the enum, its typedef) was read as fields.
  const f = facts("c", "handles.h");
  assert.equal(f.has_errors, false);
  const names = f.symbols.filter((s) => s.kind !== "macro").map((s) => `${s.kind} ${s.name}`);
  assert.deepEqual(names, [
    "struct uv_req_s",
    "struct uv_async_s",
    "field size",
    "type_alias uv_buf_t",
    "enum_member UV_IGNORE",
    "enum_member UV_OVERLAPPED_PIPE",
    "type_alias uv_stdio_flags",
  ]);
});

test("comments inside a continued #define do not end it (libuv's UV_REQ_FIELDS swallowed struct uv_req_s)", () => {
  const f = facts("c", "req-fields.h");
  assert.equal(f.has_errors, false);
  const names = f.symbols.map((s) => `${s.kind} ${s.name}`);
  assert.deepEqual(names, [
    "macro REQ_FIELDS_H",
    "enum_member UV_UNKNOWN_REQ",
    "enum_member UV_REQ",
    "type_alias uv_req_type",
    "macro UV_REQ_FIELDS",
    "struct uv_req_s",
    "field id",
    "function uv_req_id",
  ]);
  // The comments are blanked for the parse only: same length, the code around them untouched.
  const text = readFileSync(join(DIR, "req-fields.h"), "utf8");
  const masked = maskForParse("c", text);
  assert.equal(masked.length, text.length);
  assert.ok(masked.includes("  void* reserved[6];                                                          \\\n"));
  assert.ok(masked.includes("/* Abstract base class of all requests. */"), "a comment outside a define is kept");
});

test("a conditional whose branches each open a brace is parsed as its first branch (libuv's uv__async_io)", () => {
  // Read as written, the two `for (...) {` lines opened two loops that one `}` closed: the parse
  // lost uv__async_io and everything after it.
  const f = facts("c", "async.c");
  assert.equal(f.has_errors, false);
  const names = f.symbols.map((s) => `${s.kind} ${s.name}`);
  // After `#if 0`, the #else branch; balanced branches are left as they are (both definitions).
  assert.deepEqual(names, [
    "variable kqueue_evfilt_user_support",
    "function uv__async_io",
    "function uv__async_send",
    "function uv__async_fork",
    "function uv__async_fork",
    "function uv__async_stop",
  ]);
  assert.ok(f.references.some((r) => r.name === "read"));
  // Line numbers are the file's; the other branch's #include is kept (a dependency).
  const text = readFileSync(join(DIR, "async.c"), "utf8");
  const masked = maskForParse("c", text);
  assert.equal(masked.split("\n").length, text.split("\n").length);
  assert.ok(masked.includes('\n#include "spin.h"\n'));
  assert.ok(masked.includes("\n#include <sys/event.h>\n"));
  assert.ok(!masked.includes("for (;;)"));
});

test("after a test for Windows alone, the #else branch is the one parsed (jq's main)", () => {
  // jq's `#ifdef WIN32 ... int umain(...) {\n#else\nint main(...) {`: the first branch left the
  // index without `main`; a build on Linux or macOS compiles the #else.
  const f = facts("c", "jq-main.c");
  assert.equal(f.has_errors, false);
  assert.deepEqual(
    f.symbols.filter((s) => s.kind === "function").map((s) => s.name),
    ["process", "main"],
  );
  assert.ok(f.references.some((r) => r.name === "process" && r.kind === "call"));
});

test("MSVC calling conventions are masked: spdlog's msvc_sink.h keeps its namespaces (extern \"C\" ... __stdcall read the rest of the file as a function body)", () => {
  const f = facts("cpp", "msvc-sink.h");
  const scoped = f.symbols.filter((s) => s.name === "flush_" || s.name === "msvc_sink").map((s) => [...s.scope, s.name].join("::"));
  assert.deepEqual(scoped, ["spdlog::sinks::msvc_sink", "spdlog::sinks::msvc_sink::msvc_sink", "spdlog::sinks::msvc_sink::flush_"]);
  // Only the convention keywords are blanked; __declspec(dllimport) and the names stay.
  const masked = maskForParse("cpp", readFileSync(join(DIR, "msvc-sink.h"), "utf8"));
  assert.match(masked, /extern "C" __declspec\(dllimport\) int {11}IsDebuggerPresent\(\);/);
});

test("conditional groups inside an expression are read as their first branch (zlib's deflateResetKeep and gz_open were lost)", () => {
  // `s->status =\n#ifdef GZIP\n  ... :\n#endif\n  INIT_STATE;`, `oflag =\n#ifdef O_LARGEFILE\n O_LARGEFILE |\n#endif ...`
  // and `if (..) ..;\n#ifdef WIDECHAR\n else if (..) ..;\n#endif\n else ..;`: tree-sitter cannot hold a
  // directive inside a statement, its recovery dropped the whole function (in gzlib.c an `if`
  // became a function and gz_open's locals file-level variables).
  // deflateInit2_: the body of an `if` (`if (...)\n#ifdef Z_SOLO\n  return ..;\n#else ...`), a branch
  // that starts with `else if` after a `}`, one that starts with `||` inside a condition (read as
  // written, an `if` there became a function deflateInit2_::if).
  const f = facts("c", "deflate-reset.c");
  assert.equal(f.has_errors, false);
  assert.deepEqual(
    f.symbols.map((s) => `${s.kind} ${s.name}`),
    ["function deflateResetKeep", "function gz_open", "function deflateReset", "function deflateInit2_", "function change_dir"],
  );
  // After a test for Windows alone the #else is the branch kept (minizip's `if (.. _chdir(dirname))`).
  const calls = f.references.filter((r) => r.kind === "call").map((r) => r.name);
  assert.deepEqual(calls, ["crc32", "adler32", "_tr_init", "wcstombs", "strlen", "open", "_wopen", "deflateResetKeep", "deflateReset", "chdir"]);
  // Only the directive lines and the later branches are blanked; lines keep their numbers.
  const text = readFileSync(join(DIR, "deflate-reset.c"), "utf8");
  const masked = maskForParse("c", text);
  assert.equal(masked.length, text.length);
  assert.equal(masked.split("\n").length, text.split("\n").length);
  assert.ok(!/#\s*(?:if|ifdef|else|endif)\b/.test(masked), masked);
  assert.ok(!masked.includes("O_TEXT") && masked.includes("O_BINARY |"));
  assert.ok(masked.includes('#include "deflate.h"'));
});

test("a storage-class macro before a type, and a caps attribute between a variable's type and its name, are masked (zlib's `local ct_data static_ltree[...]` was a variable ct_data)", () => {
  const f = facts("c", "trees-locals.c");
  assert.equal(f.has_errors, false);
  assert.deepEqual(
    f.symbols.filter((s) => s.kind === "variable" || s.kind === "function").map((s) => `${s.kind} ${s.name}`),
    [
      "variable static_ltree",
      "variable static_dtree",
      "variable table",
      "variable made",
      "variable z_verbose",
      "variable _dist_code",
      "variable n_tables",
      "variable configuration_table",
      "function gz_open",
      "function zlibCompileFlags",
    ],
  );
  // The types stay references: masking blanks only `local` and ZLIB_INTERNAL.
  assert.ok(f.references.some((r) => r.name === "ptr_table" && r.kind === "type"), JSON.stringify(f.references.map((r) => `${r.kind} ${r.name}`)));
  const text = readFileSync(join(DIR, "trees-locals.c"), "utf8");
  const masked = maskForParse("c", text);
  assert.equal(masked.length, text.length);
  assert.ok(masked.includes("\n      ct_data static_ltree[L_CODES+2];\n"));
  assert.ok(masked.includes("\nint               z_verbose = verbose;\n"));
  assert.ok(masked.includes("\nsize_t const n_tables = 2;\n"), "a type before `const` is no macro");
  // (ZEXPORT is an attribute by its name, blanked by the caps patterns; the type before it stays.)
  assert.ok(masked.includes("\nuLong         zlibCompileFlags(void) {\n"), "the type before a caps name is kept");
});

test("masking stays linear on long declarations: a line of many `* b` terms (bat's miniz.c) takes no time", () => {
  // A pattern for a macro after a head's parameters (`int pid() SPDLOG_NOEXCEPT {`) once let its
  // type words and their `*`/`&` separators overlap: each term doubled the time, and indexing bat
  // (miniz.c) did not end.
  const text = `  a${" * b".repeat(40)};\nint pid() SPDLOG_NOEXCEPT {\n  return 1;\n}\n`;
  const { value: masked, cpuMs } = cpuTimed(() => maskForParse("cpp", text));
  assert.ok(cpuMs < 500, `masking took too long: ${Math.round(cpuMs)} ms of CPU`);
  assert.ok(masked.includes("int pid()                 {"));
});

test("Rust: `&raw` of a variable named raw is handed to the parser as a name; `&raw const x` is the raw borrow", () => {
  assert.equal(maskForParse("rust", "match &raw { _ => f(& raw, &raw const X, &raw mut Y) }"), "match &rav { _ => f(& rav, &raw const X, &raw mut Y) }");
});

test("a pattern skipped by its hint could not have matched: each hint is found in every match of its pattern", () => {
  // One line each pattern exists for (their comments in preprocess.ts), and the lookalikes.
  const lines = [
    "constexpr FMT_ALWAYS_INLINE basic_format_args(int n);",
    "static inline ZSTD_FORCE_INLINE size_t f(void);",
    "int CJSON_CDECL main(void)",
    "cJSON * SQLITE_STDCALL f(int x);",
    "int ZLIB_INTERNAL z_verbose = verbose;",
    "const uch ZLIB_INTERNAL _dist_code[N] = {0};",
    "void Lock() EXCLUSIVE_LOCK_FUNCTION() {",
    "bool Insert(int k) LOCKS_EXCLUDED(mu_) {",
    "  int total GUARDED_BY(mu);",
    "  Stats stats_[kNumLevels] ABSL_GUARDED_BY(mu);",
    "class LOCKABLE Mutex {",
    "class SCOPED_CAPABILITY MutexLock {",
    "void f() const REQUIRES_SHARED(mu) ACQUIRE(mu2);",
  ];
  const hints = maskHints();
  assert.equal(hints.length, 6);
  let checked = 0;
  for (const [pattern, hint] of hints) {
    const matching = lines.filter((l) => {
      pattern.lastIndex = 0;
      return pattern.test(l);
    });
    assert.ok(matching.length > 0, `no sample line matches ${pattern.source.slice(0, 60)}`);
    for (const l of matching) {
      assert.ok(hint.test(l), `the hint ${hint.source} is not in ${l}`);
      checked++;
    }
  }
  assert.ok(checked >= 8);
  // Masking with the hints blanks what the patterns alone do, on the samples together.
  const text = lines.join("\n");
  assert.match(maskForParse("cpp", text), /constexpr {19}basic_format_args/);
  assert.match(maskForParse("cpp", text), /int total {11}/);
});

test("a macro alone on its line with nested parentheses is masked before a statement or directive, not before a call's continuation (googletest's EXPECT_CALL(...)\\n.WillOnce)", () => {
  const text = [
    "#if FMT_USE_OPTIMIZE_PRAGMA",
    'FMT_PRAGMA_GCC(optimize("Og"))',
    "#endif",
    "FMT_PRAGMA_MSVC(warning(disable : 4702))",
    "int f();",
    "void t() {",
    "  EXPECT_CALL(a, DoA(1))",
    "      .Times(1);",
    "}",
  ].join("\n");
  const masked = maskForParse("cpp", text).split("\n");
  assert.match(masked[1] as string, /^ +$/);
  assert.match(masked[3] as string, /^ +$/);
  assert.equal(masked[6], "  EXPECT_CALL(a, DoA(1))");
  assert.equal(parseSource("cpp", text).rootNode.hasError, false);
});

test("`__has_include(<header>)` and its wrappers in #if/#elif read as conditions, not errors (fmt's os.h and std.h, cxxopts.hpp)", () => {
  const src = [
    "#ifdef __has_include",
    "#  define FMT_HAS_INCLUDE(x) __has_include(x)",
    "#endif",
    "#if __has_include(<optional>) && __has_include(\"sys/stat.h\")",
    "#  include <optional>",
    "#  define HAVE_OPTIONAL 1",
    "#elif FMT_HAS_INCLUDE(<experimental/optional>)",
    "#  include <experimental/optional>",
    "#  define HAVE_EXPERIMENTAL 1",
    "#endif",
    "namespace lib {",
    "int answer() { return 42; }",
    "}",
    "",
  ].join("\n");
  // The grammar alone reads each condition as an ERROR.
  assert.equal(parse("cpp", src).rootNode.hasError, true);
  const masked = maskForParse("cpp", src);
  assert.equal(masked.length, src.length);
  // Only the tests' argument lists are blanked; the #define's parameter list and the #includes stay.
  assert.ok(masked.includes("#if __has_include             && __has_include              \n"), masked);
  assert.ok(masked.includes("#elif FMT_HAS_INCLUDE                         \n"), masked);
  assert.ok(masked.includes("__has_include(x)") && masked.includes("#  include <optional>") && masked.includes("#  include <experimental/optional>"));
  const f = extractFacts("cpp", Buffer.from(src));
  assert.equal(f.has_errors, false);
  assert.deepEqual(
    f.symbols.map((s) => `${s.kind} ${s.name}`),
    ["macro FMT_HAS_INCLUDE", "macro HAVE_OPTIONAL", "macro HAVE_EXPERIMENTAL", "namespace lib", "function answer"],
  );
  const tree = parseSource("cpp", src);
  const includes = tree.rootNode.descendantsOfType("preproc_include").map((n) => n.childForFieldName("path")?.text);
  assert.deepEqual(includes, ["<optional>", "<experimental/optional>"]);
});

test("a C header's extern \"C\" guards are read as a C compiler reads them; a declaration tree-sitter ended with a MISSING `;` at its name defines no variable (zlib's `ZEXTERN uLong ZEXPORT f(void);`)", () => {
  const header = [
    "#ifndef ZLIB_H",
    "#define ZLIB_H",
    "#ifdef __cplusplus",
    'extern "C" {',
    "#endif",
    "typedef unsigned long uLong;",
    "extern int counter;",
    "int total;",
    "#ifdef __cplusplus",
    '}  /* extern "C" */',
    "#endif",
    "#endif",
    "",
  ].join("\n");
  // tree-sitter alone: the first group's `{` is never closed, and the file ends in a MISSING #endif.
  assert.equal(parse("c", header).rootNode.hasError, true);
  const masked = maskForParse("c", header);
  assert.equal(masked.length, header.length);
  assert.equal(masked.split("\n").length, header.split("\n").length);
  assert.ok(!masked.includes("__cplusplus") && !masked.includes('extern "C"') && masked.includes("#ifndef ZLIB_H"), masked);
  let f = extractFacts("c", Buffer.from(header));
  assert.equal(f.has_errors, false);
  assert.deepEqual(f.symbols.map((s) => `${s.kind} ${s.name}`), ["macro ZLIB_H", "type_alias uLong", "variable counter", "variable total"]);
  // An opener whose `}` is not guarded (C++ only) is read as a C++ compiler reads it: the block
  // is kept, only its group's directive lines are blanked (a group of one unbalanced branch).
  const cppOnly = '#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n}\n';
  const cppMasked = maskForParse("cpp", cppOnly);
  assert.ok(cppMasked.includes('extern "C" {') && !cppMasked.includes("#"), cppMasked);
  assert.equal(parse("cpp", cppMasked).rootNode.hasError, false);

  // A macro read as a type: `ZEXTERN uLong` is a declaration of a variable uLong with a MISSING `;`.
  const macros = "typedef unsigned long uLong;\nZEXTERN uLong ZEXPORT zlibCompileFlags(void);\nstatic const char *names[] LEVEL_NAMES;\nint counter;\n";
  const tree = parse("c", macros);
  assert.ok(tree.rootNode.toString().includes('declaration type: (type_identifier) declarator: (identifier) (MISSING ";")'), tree.rootNode.toString());
  f = extractFacts("c", Buffer.from(macros));
  assert.equal(f.has_errors, true);
  // `names`, whose initializer the parse lost at LEVEL_NAMES, is still a variable.
  assert.deepEqual(f.symbols.map((s) => `${s.kind} ${s.name}`), ["type_alias uLong", "variable names", "variable counter"]);
});

test("stdarg's va_arg(ap, type) reads as a call: the comma and the type are blanked (hiredis's sds.c and hiredis.c)", () => {
  const src = [
    "#include <stdarg.h>",
    "long long sum(int n, ...) {",
    "  va_list ap;",
    "  va_start(ap, n);",
    "  char *s = va_arg(ap,char*);",
    "  long long v = va_arg(ap, long long);",
    "  struct item *it = va_arg(ap, struct item *);",
    "  void (*cb)(void) = va_arg(ap, void (*)(void));",
    "  va_end(ap);",
    "  return v;",
    "}",
    "",
  ].join("\n");
  assert.equal(parse("c", src).rootNode.hasError, true);
  const masked = maskForParse("c", src);
  assert.equal(masked.length, src.length);
  assert.ok(masked.includes("va_arg(ap      );") && masked.includes("va_arg(ap           );") && masked.includes("va_arg(ap               );"), masked);
  // A function pointer's type has parentheses: left as written.
  assert.ok(masked.includes("va_arg(ap, void (*)(void));"), masked);
  const f = extractFacts("c", Buffer.from(src.replace("  void (*cb)(void) = va_arg(ap, void (*)(void));\n", "")));
  assert.equal(f.has_errors, false);
  assert.deepEqual(f.symbols.map((s) => `${s.kind} ${s.name}`), ["function sum"]);
  assert.ok(f.references.some((r) => r.name === "va_arg" && r.kind === "call"));
});

test("conditional groups are found in one pass: `#if` lines never closed do not make the masking quadratic", () => {
  // Each `#if` scanned the rest of the text for its `#endif`: 100,000 unclosed ones took minutes.
  const unclosed = "#if X && defined(Y) && f(\n".repeat(20_000);
  const closed = "int v = a +\n#ifdef GZIP\n  b\n#else\n  c\n#endif\n;\n";
  const text = closed + unclosed;
  const { value: masked, cpuMs } = cpuTimed(() => maskForParse("c", text));
  assert.ok(cpuMs < 1000, `masking took too long: ${Math.round(cpuMs)} ms of CPU`);
  assert.equal(masked.length, text.length);
  // The closed group inside an expression is still read as its first branch.
  assert.ok(masked.startsWith("int v = a +\n           \n  b\n     \n   \n      \n;\n"), JSON.stringify(masked.slice(0, 60)));
});

test("masking stays linear on one long line of macro candidates (a generated or minified file)", () => {
  // Each candidate searched back for its line's start: 60,000 on one line took seconds.
  const text = `${"int FOO_BAR ".repeat(60_000)}x;\n${"void f() const GUARDED_BY(mu) ".repeat(20_000)};\n`;
  const { value: masked, cpuMs } = cpuTimed(() => maskForParse("cpp", text));
  assert.ok(cpuMs < 1000, `masking took too long: ${Math.round(cpuMs)} ms of CPU`);
  assert.equal(masked.length, text.length);
  // The same masks as on short lines: the caps names between words, the annotations.
  assert.ok(masked.startsWith("int         int         "), masked.slice(0, 40));
  assert.ok(masked.includes("void f() const                void f()"), "the annotation is masked");
});

test("a loop written with a macro (`jv_array_foreach(a, i, x) {`) is the parser's limit, not a syntax error; a call followed by anything else still is", async () => {
  const { hasSyntaxErrors } = await import("../../src/lang/grammar-lags.js");
  const src = [
    "void f(jv a, struct list_head *head) {",
    "  jv_array_foreach(a, i, x) {",
    "    use(x);",
    "  }",
    "  list_for_each_entry(pos, head, member)",
    "  {",
    "    g(pos);",
    "  }",
    "}",
    "",
  ].join("\n");
  // tree-sitter reads each macro as a call missing its `;`, then a block.
  assert.equal(parse("c", src).rootNode.hasError, true);
  // (tree-sitter-cpp reads the same text as function definitions nested in f, with no error.)
  assert.equal(hasSyntaxErrors(parse("c", src).rootNode), false);
  const f = extractFacts("c", Buffer.from(src));
  assert.equal(f.has_errors, false);
  assert.deepEqual(f.symbols.map((s) => s.name), ["f"]);
  // The block's calls are still references inside f.
  assert.deepEqual(f.references.filter((r) => r.kind === "call").map((r) => r.name).sort(), ["g", "jv_array_foreach", "list_for_each_entry", "use"]);
  for (const broken of ["void f(void) {\n  g(1)\n  h(2);\n}\n", "void f(void) {\n  g(1) + {\n}\n", "void f(void) {\n  a.b(1) {\n  }\n}\n"]) {
    assert.equal(hasSyntaxErrors(parse("c", broken).rootNode), true, broken);
  }
});

test("a macro call whose arguments hold a builtin type and a literal keeps the namespace after it (abseil's ABSL_FLAG in re2)", () => {
  const src = [
    '#include "absl/flags/flag.h"',
    "",
    "ABSL_FLAG(int, max_failures, 100,",
    '          "maximum number of failures");',
    'ABSL_FLAG(unsigned long, depth, -1, "d");',
    'ABSL_FLAG(std::string, name, "", "n");',
    "",
    "namespace re2 {",
    "",
    "static const char* EngineName(int e) {",
    '  return "x";',
    "}",
    "",
    "int Helper() { return EngineName(1)[0]; }",
    "",
    "}  // namespace re2",
    "",
  ].join("\n");
  // As written, the first flag is read as a function whose parameter list runs to EngineName's.
  const plain = parse("cpp", src).rootNode;
  assert.ok(!plain.namedChildren.some((n) => n.type === "namespace_definition"));
  const masked = maskForParse("cpp", src);
  assert.equal(masked.length, src.length);
  assert.ok(masked.includes("ABSL_FLAG(     max_failures, 100,"), masked);
  assert.ok(masked.includes('ABSL_FLAG(               depth, -1, "d");'), masked);
  // A type the grammar reads as a name never derailed the parse: left as written.
  assert.ok(masked.includes('ABSL_FLAG(std::string, name, "", "n");'), masked);
  const f = extractFacts("cpp", Buffer.from(src));
  assert.equal(f.has_errors, false);
  assert.deepEqual(f.symbols.map((s) => `${s.kind} ${[...(s.scope ?? []), s.name].join("::")}`), ["namespace re2", "function re2::EngineName", "function re2::Helper"]);
  assert.ok(f.references.some((r) => r.name === "ABSL_FLAG" && r.kind === "call"));
});

test("a declaration or a call with a type but no literal is not a type-argument macro", () => {
  // A prototype's parameters are types; gmock's MOCK_METHOD has no literal.
  const src = "int FOO_BAR(int, long);\nclass A {\n  MOCK_METHOD(int, Size, (), (const));\n};\nvoid f() { CHECK_EQ(x, 1); }\n";
  assert.equal(maskForParse("cpp", src).slice(0, 23), "int FOO_BAR(int, long);");
  assert.ok(maskForParse("cpp", src).includes("MOCK_METHOD(int, Size, (), (const));"));
});

test("an access specifier written as a macro and an attribute macro before a field are masked (nlohmann/json's basic_json)", () => {
  // Kept, JSON_PRIVATE_UNLESS_TESTED: closed basic_json early: on the single header, the union
  // json_value, dump, get and every later member were lost or read as free functions. (After a
  // continued #define too.) The `#ifndef JSON_HAS_CPP_17` groups that open and close an anonymous
  // namespace made one ERROR of the rest of the header, without its `nlohmann::` scope.
  const f = facts("cpp", "json-access.hpp");
  assert.equal(f.has_errors, false);
  const scoped = f.symbols.filter((s) => s.kind !== "macro").map((s) => `${s.kind} ${[...s.scope, s.name].join("::")}`);
  assert.deepEqual(scoped, [
    "namespace nlohmann",
    "struct nlohmann::ordered_map",
    "type_alias nlohmann::ordered_map::key_compare",
    "method nlohmann::ordered_map::at",
    "field nlohmann::ordered_map::m_compare",
    "field nlohmann::ordered_map::m_values",
    "variable nlohmann::from_json",
    "class nlohmann::basic_json",
    "type_alias nlohmann::basic_json::lexer",
    "constructor nlohmann::basic_json::basic_json",
    "union nlohmann::basic_json::json_value",
    "field nlohmann::basic_json::json_value::object",
    "constructor nlohmann::basic_json::json_value::json_value",
    "constructor nlohmann::basic_json::json_value::json_value",
    "method nlohmann::basic_json::dump",
    "function pick",
  ]);
  // A macro type before two names declares them: kept (cJSON's Unity tests, `UNITY_UINT64 v0, v1;`).
  assert.equal(maskForParse("c", "{\n    UNITY_UINT64 v0, v1;\n}\n"), "{\n    UNITY_UINT64 v0, v1;\n}\n");
  // A caps name at the start of a line in a ternary stays an operand.
  assert.deepEqual(f.references.filter((r) => r.name.startsWith("KEEP_")).map((r) => r.name), ["KEEP_A", "KEEP_B"]);
});

test("a brace opened under one `#ifndef` and closed under a later one, and locals under `#ifdef` in a body, keep the function and make no variables (dtoa.c in jansson)", () => {
  // jansson's src/dtoa.c: `#ifndef Avoid_Underflow\n#ifndef Sudden_Underflow\n if (L > 0) {\n#endif`
  // in ulp() made the whole file one ERROR node: dtoa_r() (1,200 lines) was lost and its 80
  // locals were file-level variables (`sulp`, a local, made every call of the function sulp()
  // ambiguous and dead-code listed it).
  const text = readFileSync(join(DIR, "dtoa-groups.c"), "utf8");
  const masked = maskForParse("c", text);
  assert.equal(masked.length, text.length);
  assert.equal(masked.split("\n").length, text.split("\n").length);
  // Both groups' directives are blanked, their code is kept; balanced groups are left as written.
  assert.ok(masked.includes("\tif (L > 0) {") && !/#ifndef Avoid_Underflow/.test(masked), masked);
  assert.ok(masked.includes("#ifdef VAX") && masked.includes("#ifdef MULTIPLE_THREADS"), masked);
  const f = facts("c", "dtoa-groups.c");
  assert.equal(f.has_errors, false);
  assert.deepEqual(
    f.symbols.filter((s) => s.kind === "function" || s.kind === "variable").map((s) => `${s.kind} ${s.name}`),
    // dtoa_threads is under #ifdef at file scope: a variable; d0 and d1 (under #ifdef VAX in b2d) are locals.
    ["variable dtoa_threads", "function ulp", "function b2d", "function ratio"],
  );
  assert.equal(f.references.filter((r) => r.name === "b2d" && r.kind === "call").length, 2);
});

test("C++: a declaration under #if in a namespace is a variable, one under #if in a function body is not", () => {
  const src = "namespace ns {\n#ifdef X\nint v;\n#endif\nint f() {\n  int a;\n#ifdef X\n  int loc;\n#else\n  long loc;\n#endif\n  return a;\n}\n}\n";
  const f = extractFacts("cpp", Buffer.from(src));
  assert.equal(f.has_errors, false);
  assert.deepEqual(f.symbols.map((s) => `${s.kind} ${s.name}`), ["namespace ns", "variable v", "function f"]);
});

test("a macro with arguments alone on its line before a bare `name(` is the function's return type (libyaml's YAML_DECLARE(int)); a last enumerator before a comment is kept", () => {
  // Blanked, YAML_DECLARE(...) left the function without a type and every libyaml API function
  // (62 of them) was lost; the doxygen `@{` in a comment must not make the header a block body.
  const f = facts("c", "yaml-api.h");
  assert.equal(f.has_errors, false);
  const names = f.symbols.filter((s) => s.kind !== "macro").map((s) => `${s.kind} ${s.name}`);
  assert.deepEqual(names, [
    "enum yaml_mapping_style_e",
    "enum_member YAML_ANY_MAPPING_STYLE",
    "enum_member YAML_BLOCK_MAPPING_STYLE",
    "enum_member YAML_FLOW_MAPPING_STYLE",
    "type_alias yaml_mapping_style_t",
    "struct yaml_parser_s",
    "field error",
    "field depth",
    "type_alias yaml_parser_t",
    "function yaml_parser_delete",
  ]);
  // The return type's macro and its argument are references; statement macros inside the body
  // and member macros in the struct are still masked.
  const masked = maskForParse("c", readFileSync(join(DIR, "yaml-api.h"), "utf8"));
  assert.ok(masked.includes("YAML_DECLARE(void)\nyaml_parser_delete"));
  assert.ok(masked.includes("YAML_DECLARE(int)\nyaml_parser_initialize"));
  assert.ok(!masked.includes("TRACE_ENTER(parser)"));
  assert.ok(!masked.includes("TRACE_FIELDS(parser)"));
  const call = f.references.find((r) => r.name === "reset");
  assert.ok(call);
  // A macro whose argument is a string, or before another macro, is no return type (doctest.h).
  const pragmas = 'DOCTEST_GCC_SUPPRESS_WARNING("-Wsign-promo")\nDOCTEST_MSVC_SUPPRESS(4996)\nreport(int x);\nDOCTEST_PUSH(a)\nDOCTEST_POP(b)\n';
  assert.equal(maskForParse("cpp", pragmas).trim(), "report(int x);");
});

test("libyaml's api.c: every function under a YAML_DECLARE(type) line is found", () => {
  // Blanked whole as a macro alone on its line, `YAML_DECLARE(int)` took the return type with it,
  // `yaml_parser_initialize(…) {` read as a call, and libyaml's every public function was lost.
  const f = facts("c", "yaml-api.c");
  assert.equal(f.has_errors, false);
  const functions = f.symbols.filter((s) => s.kind === "function").map((s) => s.name);
  assert.deepEqual(functions, ["yaml_get_version_string", "yaml_malloc", "yaml_strdup", "yaml_parser_initialize", "yaml_string_read_handler", "yaml_event_delete"]);
});

test("a lowercase attribute macro between a declaration's type and its name (tmux's printflike(1, 2)) is masked", () => {
  // Read as a call, `void printflike(1, 2) cfg_add_cause(...)` opened one ERROR that ran to the end
  // of tmux.h (every macro, typedef and enum after it lost), and each definition under
  // `static void printflike(3, 4)` was lost.
  const f = facts("c", "tmux-printflike.h");
  assert.equal(f.has_errors, false);
  const names = f.symbols.map((s) => `${s.kind} ${s.name}`);
  for (const want of [
    "macro FORMAT_FORCE",
    "type_alias format_cb",
    "type_alias job_update_cb",
    "macro JOB_NOWAIT",
    "enum job_state",
    "enum_member JOB_CLOSED",
    "struct job",
    "field flags",
    "function args_print_add",
    "function customize_write_value",
  ])
    assert.ok(names.includes(want), `${want} in ${names.join(", ")}`);
  assert.ok(!names.some((n) => n.endsWith(" printflike") && !n.startsWith("macro")), names.join(", "));
  // A function head followed by its attribute keeps its name: caps or `__` attributes, keywords.
  for (const [head, kept] of <[string, string][]>[
    ["  void Lock() EXCLUSIVE_LOCK_FUNCTION(mu_) {}\n", "void Lock()"],
    ["  void IncrementBy(int count) LOCKS_EXCLUDED(mu_) {}\n", "void IncrementBy(int count)"],
    ["extern int tolower (int c) __nonnull ((1));\n", "int tolower (int c)"],
    ["void swap(T a) noexcept(true) {}\n", "void swap(T a)"],
    ["int f(int a) throw(E);\n", "int f(int a)"],
    ["inline STACK_OF(X509_OBJECT) * get_store_objects(X509_STORE *store) {}\n", "STACK_OF(X509_OBJECT)"],
    ["x = call(a, b) + other(c);\n", "call(a, b)"],
    ["  return f(a)\n    g(b);\n", "f(a)"],
  ])
    assert.ok(maskForParse("cpp", head).includes(kept), head);
});

test("a lowercase `__name` attribute before a parameter's type (BSD's __unused) is masked; compiler words and glibc's names are not", () => {
  // tree-sitter took `__unused` for the type: `fd` was left in an ERROR and read as a reference,
  // and `int`, `struct`, `void` became references too (tmux: 88 parse-recovered files -> 30).
  const f = facts("c", "tmux-unused.c");
  assert.equal(f.has_errors, false);
  assert.deepEqual(
    f.symbols.filter((s) => s.kind === "function").map((s) => s.name),
    ["alerts_timer", "cfg_client_done", "client_file_check_cb"],
  );
  const names = new Set(f.references.map((r) => r.name));
  for (const bogus of ["fd", "events", "int", "struct", "void", "char"]) assert.ok(!names.has(bogus), `${bogus} in ${[...names].join(", ")}`);
  for (const kept of ["cmdq_item", "client", "evbuffer", "alerts_queue", "client_exit"]) assert.ok(names.has(kept), kept);
  for (const text of ["extern char *strcpy (char *__restrict __dest, const char *__restrict __src);\n", "int f(__const char *s);\n", "void k(__gthread_key_t __key _GLIBCXX_UNUSED) {}\n", "#define OP(__lhs __op __x)\n"])
    assert.equal(maskForParse("c", text), text);
});
