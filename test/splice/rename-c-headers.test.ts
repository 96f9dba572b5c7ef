/**
 * A C function renamed through clangd without compile_commands.json, where its prototype lives
 * in a header that does not include what it needs (test/fixtures/splice-rename/c-internal,
 * zlib's shape: inffast.h declares `void ZLIB_INTERNAL inflate_fast(z_streamp strm, …)` and
 * relies on its includer for zutil.h). On zlib, clangd parsed inffast.h on its own with fallback
 * flags, where that is no valid declaration: the rename changed the definition and the calls but
 * not the prototype, gcc then saw implicit declarations of the new name, and the change was
 * written as validated. Once the prototype was renamed, gcc's complaint about the header compiled
 * alone named the new name instead of the old and was taken for a new error.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { diffFindings } from "../../src/validate/change.js";
import { runTool } from "../support/run.js";
import { copyFixture } from "./rename-helpers.js";

it("C: a function's prototype in a header that relies on its includer is renamed with it", async () => {
  const root = copyFixture("c-internal");
  const r = await runTool("splice", ["rename", "--file", "inffast.c", "--symbol", "inflate_fast", "--to", "inflate_quick", "--require-checker"], { cwd: root });
  const out = r.json as { status: string; result?: { validation: string; introduced: unknown[] } };
  assert.equal(out.status, "ok", r.stdout);
  assert.equal(out.result?.validation, "validated");
  assert.deepEqual(out.result?.introduced, []);
  const read = (f: string): string => readFileSync(join(root, f), "utf8");
  assert.match(read("inffast.h"), /void ZLIB_INTERNAL inflate_quick\(z_streamp strm, unsigned start\);/);
  assert.match(read("inffast.c"), /void ZLIB_INTERNAL inflate_quick\(z_streamp strm, unsigned start\) \{/);
  assert.match(read("inflate.c"), /\n {8}inflate_quick\(strm, \(unsigned\)flush\);/);
  // Comments keep the old name: they are no code.
  assert.match(read("inflate.c"), /use inflate_fast\(\) if we have/);
  for (const f of ["inffast.c", "inflate.c"]) {
    const gcc = spawnSync("gcc", ["-fsyntax-only", "-Wall", "-Werror", f], { cwd: root, encoding: "utf8" });
    assert.equal(gcc.status, 0, `${f}: ${gcc.stderr}`);
  }
});

it("C++: a method declared in its class and defined out of line is renamed where a header that was not reached uses it", async () => {
  // test/fixtures/splice-rename/cpp-header-only, CLI11's shape: Option.hpp declares
  // get_single_name, impl/Option_inl.hpp defines it, impl/Config_inl.hpp (no compile_commands.json,
  // headers that include each other) calls it. clangd's go-to-definition of that call leads to the
  // out-of-line definition, not to the declaration asked about, so the call was left; once it was
  // taken, clangd answered the renamed call with the local `single_name` on its line (its
  // preamble still had the old name), which was taken for a capture.
  const root = copyFixture("cpp-header-only");
  const r = await runTool("splice", ["rename", "--file", "include/CLI/Option.hpp", "--symbol", "Option::get_single_name", "--to", "get_one_name", "--require-checker"], { cwd: root });
  const out = r.json as { status: string; result?: { validation: string } };
  assert.equal(out.status, "ok", r.stdout);
  assert.equal(out.result?.validation, "validated");
  const read = (f: string): string => readFileSync(join(root, "include/CLI", f), "utf8");
  assert.match(read("Option.hpp"), /const std::string &get_one_name\(\) const;/);
  assert.match(read("impl/Option_inl.hpp"), /Option::get_one_name\(\) const \{/);
  assert.match(read("impl/App_inl.hpp"), /opt->get_one_name\(\) \+ "\\n"/);
  assert.match(read("impl/Config_inl.hpp"), /std::string single_name = opt->get_one_name\(\);/);
  const main = join(root, "main.cpp");
  writeFileSync(main, '#include "CLI/CLI.hpp"\nint main() { CLI::App app; return (int)CLI::to_config(&app).size() + (int)app.help().size(); }\n');
  const gxx = spawnSync("g++", ["-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-I", "include", main], { cwd: root, encoding: "utf8" });
  assert.equal(gxx.status, 0, gxx.stderr);
});

it("in a header gcc compiled alone, a finding naming the new name of a rename is the before-state's that named the old one", () => {
  const at = (message: string): { level: "error"; message: string; file: string; code: string; source: string } => ({ level: "error", message, file: "inffast.h", code: "gcc", source: "gcc" });
  const before = [at("expected ';' before 'inflate_fast'")];
  const renames = [{ from: "inflate_fast", to: "inflate_quick" }];
  assert.deepEqual(diffFindings(before, [at("expected ';' before 'inflate_quick'")], renames).introduced, []);
  // Without the rename it is another message; nor does a longer name that contains the new one match.
  assert.equal(diffFindings(before, [at("expected ';' before 'inflate_quick'")]).introduced.length, 1);
  assert.equal(diffFindings(before, [at("expected ';' before 'inflate_quickly'")], renames).introduced.length, 1);
  assert.equal(diffFindings(before, [at("implicit declaration of function 'inflate_quick'")], renames).introduced.length, 1);
  // Only in a header gcc compiled alone: elsewhere a use left naming nothing is new, even where
  // the old name was already unresolved (a test compiled without its library).
  const java = (message: string): { level: "error"; message: string; file: string; code: string; source: string } => ({ level: "error", message, file: "src/test/java/TypesTest.java", code: "javac", source: "javac" });
  assert.equal(diffFindings([java("cannot find symbol: method checkState(boolean,String)")], [java("cannot find symbol: method ensureState(boolean,String)")], [{ from: "checkState", to: "ensureState" }]).introduced.length, 1);
});

it("C++: after a non-ASCII character in a header, the uses clangd renamed are not listed as left unchanged; the one in an inactive #ifdef is, on its line", async () => {
  // test/fixtures/splice-rename/cpp-utf8-comment, nlohmann/json's shape: serializer.hpp's
  // copyright line names "Björn Hoehrmann". The check for uses clangd left took tree-sitter's
  // UTF-16 indices for byte offsets, so every renamed use after the "ö" was reported in
  // SPLICE_W213 as "left unchanged" (nlohmann/json: serializer.hpp:287 and :315, both renamed).
  const root = copyFixture("cpp-utf8-comment");
  const r = await runTool("splice", ["rename", "--file", "include/nlohmann/byte_container_with_subtype.hpp", "--symbol", "byte_container_with_subtype.has_subtype", "--to", "holds_subtype", "--require-checker"], { cwd: root });
  const out = r.json as { status: string; result?: { validation: string }; diagnostics?: { code: string; message: string }[] };
  assert.equal(out.status, "ok", r.stdout);
  assert.equal(out.result?.validation, "validated");
  const read = (f: string): string => readFileSync(join(root, f), "utf8");
  assert.match(read("include/nlohmann/detail/serializer.hpp"), /if \(binary\.holds_subtype\(\)\)/);
  assert.match(read("include/nlohmann/detail/serializer.hpp"), /return binary\.holds_subtype\(\) \? static_cast/);
  assert.match(read("main.cpp"), /return b\.holds_subtype\(\) \? 0 : 1;/);
  const left = (out.diagnostics ?? []).filter((d) => d.code === "SPLICE_W213").map((d) => d.message);
  assert.equal(left.length, 1, JSON.stringify(out.diagnostics));
  assert.match(left[0] as string, /^1 use\(s\) of 'has_subtype' in code were left unchanged: include\/nlohmann\/detail\/serializer\.hpp:48\. /);
  const gxx = spawnSync("g++", ["-std=c++11", "-fsyntax-only", "-Wall", "-Werror", "-I", "include", "main.cpp"], { cwd: root, encoding: "utf8" });
  assert.equal(gxx.status, 0, gxx.stderr);
});

it("C: a use in a macro's body, which clangd's rename leaves, is named with its macro when gcc rejects the rename at the expansions", async () => {
  // test/fixtures/splice-rename/c-macro-body, kilo's editorFind: FIND_RESTORE_HL reads
  // `E.row[saved_hl_line].rsize`. clangd renamed the field and its uses in code but not in the
  // macro's body; gcc rejected the rename at the two expansions, and nothing named line 32, where
  // the fix is (a macro's body is text to tree-sitter: the check for uses left saw none).
  const root = copyFixture("c-macro-body");
  const before = readFileSync(join(root, "kilo.c"), "utf8");
  const r = await runTool("splice", ["rename", "--file", "kilo.c", "--symbol", "erow.rsize", "--to", "render_size"], { cwd: root });
  const out = r.json as { status: string; message: string; result?: { validation: string }; diagnostics?: { code: string; message: string }[] };
  assert.equal(out.status, "error", r.stdout);
  assert.equal(out.result?.validation, "rejected");
  assert.match(out.message, /kilo\.c:42: .*has no member named .rsize/);
  assert.equal(readFileSync(join(root, "kilo.c"), "utf8"), before);
  const left = (out.diagnostics ?? []).filter((d) => d.code === "SPLICE_W213").map((d) => d.message);
  assert.equal(left.length, 1, r.stdout);
  assert.match(left[0] as string, /^1 use\(s\) of 'rsize' in code were left unchanged: kilo\.c:32 \(in macro FIND_RESTORE_HL\)\. /);
});

it("C++: a vendored copy of the class (its own method of that name) keeps its uses; they are named as left, not renamed through clangd's textual guess", async () => {
  // test/fixtures/splice-rename/cpp-vendored-copy, nlohmann/json's shape: tests/abi keeps the
  // 3.10.5 release whole, with its own byte_container_with_subtype::has_subtype. The use there in
  // a template (`j.get_binary().has_subtype()`, a dependent name clangd cannot resolve) went to
  // the renamed definition by clangd's textual fallback, and was renamed while the copy's own
  // definition was not: six uses of json_v3_10_5.hpp called a method it no longer had, and
  // g++ -fsyntax-only, which instantiates no template, validated it.
  const root = copyFixture("cpp-vendored-copy");
  const abi = "tests/abi/include/nlohmann/json_v3_10_5.hpp";
  const before = readFileSync(join(root, abi), "utf8");
  const r = await runTool("splice", ["rename", "--file", "include/nlohmann/byte_container_with_subtype.hpp", "--symbol", "byte_container_with_subtype.has_subtype", "--to", "holds_subtype"], { cwd: root });
  const out = r.json as { status: string; result?: { files: { file_path: string }[] }; diagnostics?: { code: string; level: string; message: string }[] };
  assert.equal(out.status, "ok", r.stdout);
  assert.deepEqual(out.result?.files.map((f) => f.file_path), ["include/nlohmann/byte_container_with_subtype.hpp", "main.cpp"]);
  assert.equal(readFileSync(join(root, abi), "utf8"), before);
  assert.match(readFileSync(join(root, "main.cpp"), "utf8"), /return b\.holds_subtype\(\) \? 1 : 0;/);
  const left = (out.diagnostics ?? []).filter((d) => d.code === "SPLICE_W213" && d.level === "warning").map((d) => d.message);
  assert.equal(left.length, 1, r.stdout);
  assert.match(left[0] as string, /tests\/abi\/include\/nlohmann\/json_v3_10_5\.hpp:15, tests\/abi\/include\/nlohmann\/json_v3_10_5\.hpp:27\./);
});

it("C: another struct's field of the same name is named as such in the warning, and its declaration is no use left (tmux's statusat)", async () => {
  // test/fixtures/splice-rename/c-two-fields, tmux.h's shape: `struct session` and `struct
  // mouse_event` both have `statusat`. clangd renames the session's only (right), and SPLICE_W213
  // listed the mouse_event declaration and its `m->statusat` accesses as uses "left unchanged" to
  // "rename by hand if they are this one", saying nothing of the other field: tmux, 62 of them.
  const root = copyFixture("c-two-fields");
  const r = await runTool("splice", ["rename", "--file", "tmux.h", "--symbol", "session.statusat", "--to", "status_at", "--require-checker"], { cwd: root });
  const out = r.json as { status: string; result?: { validation: string }; diagnostics?: { code: string; message: string }[] };
  assert.equal(out.status, "ok", r.stdout);
  assert.equal(out.result?.validation, "validated");
  const read = (f: string): string => readFileSync(join(root, f), "utf8");
  assert.match(read("status.c"), /if \(s->status_at != 1\)\n\t\treturn \(s->status_at\);/);
  assert.equal((read("server-client.c").match(/m->statusat/g) ?? []).length, 3);
  const left = (out.diagnostics ?? []).filter((d) => d.code === "SPLICE_W213" && /left unchanged/.test(d.message)).map((d) => d.message);
  assert.equal(left.length, 1, JSON.stringify(out.diagnostics));
  assert.match(left[0] as string, /^3 use\(s\) of 'statusat' in code were left unchanged: server-client\.c:7, server-client\.c:9, server-client\.c:9\. /);
  assert.match(left[0] as string, /Another field of that name is declared at tmux\.h:15: member accesses of it look the same/);
  const gcc = spawnSync("gcc", ["-fsyntax-only", "-Wall", "-Werror", "status.c", "server-client.c"], { cwd: root, encoding: "utf8" });
  assert.equal(gcc.status, 0, gcc.stderr);
});
