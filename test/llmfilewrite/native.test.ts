import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { which } from "../../src/validate/process.js";
import { DIST, runTool } from "../support/run.js";
import { checkerTempDirs, type Envelope, lineOf, listFiles, project, removeProjects, scratchDir } from "./helpers.js";

after(removeProjects);

const lfw = (root: string, args: string[], env?: Record<string, string>) =>
  runTool("llmfilewrite", ["--root", root, ...args], { cwd: root, env });

/** A test that needs a compiler fails, loudly, when it is not installed. */
function need(cmd: string): void {
  assert.ok(which(cmd), `${cmd} is not installed; .ci/run must install it (see docs/llmfilewrite.md)`);
}

describe("llmfilewrite C and C++ (gcc/g++ -fsyntax-only with compile_commands.json flags)", () => {
  it("approves C that needs the include path and define from compile_commands.json; rejects a gcc error with its line", async () => {
    need("gcc");
    const root = project("c-project");
    const good = '#include "answer.h"\n\nint twice(void) { return helper(ANSWER) * MODE; }\n';
    const ok = await lfw(root, ["--path", "src/twice.c", "--content", good]);
    assert.equal(ok.code, 0, ok.stdout);
    assert.match((ok.json as Envelope).result?.lsp_used ?? "", /^gcc -fsyntax-only \(flags from compile_commands\.json\)/);

    const bad = '#include "answer.h"\n\nint broken(void) {\n  return undefined_name + ANSWER;\n}\n';
    const r = await lfw(root, ["--path", "src/broken.c", "--content", bad]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    const d = env.result?.diagnostics.find((x) => x.source === "gcc" && x.level === "error");
    assert.ok(d, r.stdout);
    assert.match(d.message, /undefined_name/);
    assert.equal(d.start_line, lineOf(bad, "undefined_name"));
    assert.equal(Buffer.from(bad).subarray(d.byte_start, d.byte_end).toString(), "undefined_name");
    assert.ok(!existsSync(join(root, "src/broken.c")));
  });

  it("a missing `;` is one error, gcc's: tree-sitter's report of the same mistake is not counted again", async () => {
    need("gcc");
    const root = project("c-project");
    const bad = "int twice(int x) {\n  int y = x * 2\n  return y;\n}\n";
    const r = await lfw(root, ["--path", "src/semi.c", "--content", bad]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    const errors = env.result?.diagnostics.filter((x) => x.level === "error" && !x.pre_existing) ?? [];
    assert.deepEqual(
      errors.map((x) => `${x.source}:${x.start_line}`),
      ["gcc:3"],
      r.stdout,
    );
    assert.match(env.message ?? "", /1 introduced error\(s\)/);
  });

  it("--dry-run validates and writes nothing", async () => {
    need("gcc");
    const root = project("c-project");
    const before = listFiles(root);
    const r = await lfw(root, ["--path", "src/dry.c", "--dry-run", "--content", "int dry(void) { return 0; }\n"]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.status, "approved");
    assert.equal(env.result?.dry_run, true);
    assert.equal(env.result?.written, false);
    assert.deepEqual(listFiles(root), before);
  });

  it("rejects a C++ error from g++", async () => {
    need("g++");
    const root = project("c-project");
    const bad = "#include <vector>\n\nint f() {\n  std::vector<int> v;\n  v.push_bak(1);\n  return 0;\n}\n";
    const r = await lfw(root, ["--path", "src/f.cpp", "--content", bad]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(env.result?.language, "C++");
    const d = env.result?.diagnostics.find((x) => x.source === "g++");
    assert.equal(d?.start_line, lineOf(bad, "push_bak"));
  });

  it("reports an absent checker as a warning, never a silent pass; --reject-on warning then rejects", async () => {
    const root = project("c-project");
    const content = "int zero(void) { return 0; }\n";
    // No compiler on PATH for the child, only node (the bin's `#!/usr/bin/env node` needs it): the gate cannot run.
    const bin = scratchDir("lfw-path-");
    symlinkSync(process.execPath, join(bin, "node"));
    const r = await lfw(root, ["--path", "src/zero.c", "--dry-run", "--content", content], { PATH: bin });
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.lsp_used, "none");
    const w = env.result?.diagnostics.find((x) => x.code === "checker.absent");
    assert.equal(w?.level, "warning");
    assert.match(w?.message ?? "", /gcc was not found/);
    const strict = await lfw(root, ["--path", "src/zero.c", "--reject-on", "warning", "--content", content], { PATH: bin });
    assert.equal(strict.code, 1, strict.stdout);
    assert.equal((strict.json as Envelope).status, "rejected");
    assert.ok(!existsSync(join(root, "src/zero.c")));
  });
});

describe("llmfilewrite C++ without compile_commands.json: headers spelled from the root", () => {
  it("a new file including \"util/coding.h\" from util/ is checked, not rejected for an include gcc could not find (leveldb)", async () => {
    need("g++");
    const root = scratchDir("lfw-rootinc-");
    execFileSync("git", ["init", "-q", root]);
    mkdirSync(join(root, "util"));
    mkdirSync(join(root, "include", "kv"), { recursive: true });
    writeFileSync(join(root, "include/kv/slice.h"), "#ifndef KV_SLICE_H_\n#define KV_SLICE_H_\n#include <cstddef>\nnamespace kv {\nstruct Slice { const char* data; std::size_t size; };\n}  // namespace kv\n#endif\n");
    writeFileSync(join(root, "util/coding.h"), '#ifndef KV_UTIL_CODING_H_\n#define KV_UTIL_CODING_H_\n#include <cstdint>\n#include "kv/slice.h"\nnamespace kv {\ninline uint32_t DecodeFixed32(const char* p) { return static_cast<uint32_t>(p[0]); }\n}  // namespace kv\n#endif\n');
    const good = '#include "util/coding.h"\n\nnamespace kv {\nuint32_t Twice(const Slice& s) { return DecodeFixed32(s.data) * 2; }\n}  // namespace kv\n';
    const ok = await lfw(root, ["--path", "util/twice.cc", "--content", good]);
    assert.equal(ok.code, 0, ok.stdout);
    assert.equal((ok.json as Envelope).status, "approved");
    const bad = '#include "util/coding.h"\n\nnamespace kv {\nuint32_t Twice2(const Slice& s) { return s.size.x; }\n}  // namespace kv\n';
    const r = await lfw(root, ["--path", "util/twice2.cc", "--content", bad]);
    assert.equal(r.code, 1, r.stdout);
    const d = (r.json as Envelope).result?.diagnostics.find((x) => x.source === "g++" && x.level === "error");
    assert.equal(d?.start_line, 4, r.stdout);
    assert.doesNotMatch(d?.message ?? "", /No such file/);
  });
});

describe("llmfilewrite Java (javac into a temp directory)", () => {
  it("a file whose package line does not match its directory: checked against its package's source root, with a warning naming where it belongs", async () => {
    // javapoet: `package com.squareup.javapoet;` written to src/main/java/com/squareup/W31Util.java
    // was rejected for "cannot find symbol: class CodeBlock" (the source path was guessed from the
    // file's directory), which said nothing of the misplaced file.
    need("javac");
    const root = project("java-project");
    const content = "package com.example;\n\npublic final class Twice {\n    private Twice() {}\n\n    public static int two() {\n        return Util.one() * 2;\n    }\n}\n";
    const r = await lfw(root, ["--path", "src/com/Twice.java", "--dry-run", "--content", content]);
    const env = r.json as Envelope;
    assert.equal(env.status, "approved", r.stdout);
    assert.equal(env.result?.validation, "validated");
    const w = env.result?.diagnostics.find((d) => d.code === "LLMFILEWRITE_E108");
    assert.equal(w?.level, "warning");
    assert.equal(w?.message, "package com.example does not match the file's directory src/com (expected src/com/example/Twice.java): the project's other classes look for it where the package says; move the file or change its package line");
    assert.deepEqual([w?.start_line, w?.start_col], [1, 8]);
    const strict = await lfw(root, ["--path", "src/com/Twice.java", "--dry-run", "--reject-on", "warning", "--content", content]);
    assert.equal((strict.json as Envelope).status, "rejected", strict.stdout);
    // Its own errors are javac's, still.
    const bad = await lfw(root, ["--path", "src/com/Twice.java", "--dry-run", "--content", content.replace("Util.one()", "Util.one(1)")]);
    assert.match((bad.json as Envelope).message ?? "", /first javac at src\/com\/Twice\.java:7:\d+: method one in class Util cannot be applied/);
  });

  it("rejects a javac error against the project's own classes, with no .class or temp file left", async () => {
    need("javac");
    const root = project("java-project");
    const before = listFiles(root);
    const tmp = scratchDir("lfw-tmp-");
    const tempBefore = checkerTempDirs(tmp);
    const bad = "package com.example;\n\npublic class Main {\n    public static String name() {\n        return Util.one();\n    }\n}\n";
    const r = await lfw(root, ["--path", "src/com/example/Main.java", "--content", bad], { TMPDIR: tmp });
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    const d = env.result?.diagnostics.find((x) => x.source === "javac");
    assert.ok(d, r.stdout);
    assert.match(d.message, /incompatible types: int cannot be converted to String/);
    assert.equal(d.start_line, lineOf(bad, "Util.one()"));
    assert.deepEqual(listFiles(root), before, "no .class or temp file next to the sources");
    assert.deepEqual(checkerTempDirs(tmp), tempBefore, "javac's temp directory was removed");

    const good = "package com.example;\n\npublic class Main {\n    public static int two() {\n        return Util.one() + 1;\n    }\n}\n";
    const ok = await lfw(root, ["--path", "src/com/example/Main.java", "--content", good]);
    assert.equal(ok.code, 0, ok.stdout);
    assert.deepEqual(listFiles(root), [...before, "src/com/example/Main.java"].sort());
  });
});

describe("llmfilewrite Java: the project's old errors are not the new class's", () => {
  it("a new class using a class whose library is missing here is approved; its own error still rejects it (jsoup's StringUtil imports org.jspecify, and a valid new class was rejected for StringUtil.java:4)", async () => {
    need("javac");
    const root = project("java-project");
    writeFileSync(join(root, "src/com/example/Text.java"), "package com.example;\n\nimport org.jspecify.annotations.Nullable;\n\npublic final class Text {\n    private Text() {}\n\n    public static boolean isBlank(@Nullable String s) {\n        return s == null || s.trim().isEmpty();\n    }\n}\n");
    const good = "package com.example;\n\npublic final class Blank {\n    private Blank() {}\n\n    public static boolean either(String a, String b) {\n        return Text.isBlank(a) || Text.isBlank(b) || Util.one() > 1;\n    }\n}\n";
    const ok = await lfw(root, ["--path", "src/com/example/Blank.java", "--content", good]);
    const env = ok.json as Envelope;
    assert.equal(ok.code, 0, ok.stdout);
    assert.equal(env.status, "approved");
    assert.ok(existsSync(join(root, "src/com/example/Blank.java")));
    const bad = "package com.example;\n\npublic final class Blank2 {\n    public static int either(String a) {\n        return Text.isBlank(a);\n    }\n}\n";
    const r = await lfw(root, ["--path", "src/com/example/Blank2.java", "--content", bad]);
    assert.equal(r.code, 1, r.stdout);
    const m = (r.json as Envelope & { message: string }).message;
    assert.match(m, /1 introduced error\(s\), first javac at src\/com\/example\/Blank2\.java:5:\d+: incompatible types: boolean cannot be converted to int/);
    assert.ok(!existsSync(join(root, "src/com/example/Blank2.java")));
    // A finding placed at a line only (a caller's, in another file) is named file:line, not file:line:undefined.
    const util = readFileSync(join(root, "src/com/example/Util.java"), "utf8");
    const w = await lfw(root, ["--path", "src/com/example/Util.java", "--overwrite", "--content", util.replace("public static int one()", "public static int one(int x)")]);
    assert.equal(w.code, 1, w.stdout);
    assert.match((w.json as Envelope & { message: string }).message, /first javac at src\/com\/example\/Blank\.java:7: method one in class Util cannot be applied/);
  });
});

describe("llmfilewrite Java: a type the source root already declares", () => {
  it("a new Util2.java redeclaring the package's `class Util` is rejected with javac's duplicate class, at the new file (javapoet; -sourcepath alone never read Util.java), as is one redeclaring a class kept in a file of another name", async () => {
    need("javac");
    const root = project("java-project");
    writeFileSync(join(root, "src/com/example/Shapes.java"), "package com.example;\n\npublic final class Shapes {\n    private Shapes() {}\n}\n\n/* class Square in a comment is no declaration */\nfinal class Square {\n    static int side() {\n        return 2;\n    }\n}\n");
    const before = listFiles(root);
    const dup = "package com.example;\n\nfinal class Util {\n    static String s() {\n        return \"x\";\n    }\n}\n";
    const r = await lfw(root, ["--path", "src/com/example/Util2.java", "--content", dup]);
    assert.equal(r.code, 1, r.stdout);
    assert.match((r.json as Envelope).message, /first javac at src\/com\/example\/Util2\.java:3:\d+: duplicate class: com\.example\.Util/);
    const hidden = "package com.example;\n\nfinal class Square {\n    static int side() {\n        return 3;\n    }\n}\n";
    const h = await lfw(root, ["--path", "src/com/example/Square.java", "--content", hidden]);
    assert.equal(h.code, 1, h.stdout);
    assert.match((h.json as Envelope).message, /src\/com\/example\/Square\.java:3:\d+: duplicate class: com\.example\.Square/);
    assert.deepEqual(listFiles(root), before);
    // A nested class of the same simple name is no duplicate, nor is an overwrite of Util.java itself.
    const nested = "package com.example;\n\npublic final class Holder {\n    static final class Util {\n    }\n}\n";
    const ok = await lfw(root, ["--path", "src/com/example/Holder.java", "--dry-run", "--content", nested]);
    assert.equal(ok.code, 0, ok.stdout);
    assert.equal((ok.json as Envelope).result?.validation, "validated");
    const util = readFileSync(join(root, "src/com/example/Util.java"), "utf8");
    const same = await lfw(root, ["--path", "src/com/example/Util.java", "--overwrite", "--dry-run", "--content", util.replace("return 1;", "return 2;")]);
    assert.equal(same.code, 0, same.stdout);
  });
});

describe("llmfilewrite Java: a dependency the build declares but this machine lacks", () => {
  it("a new test importing JUnit as the project's other tests do is unchecked, not rejected (javapoet without a Maven class path); a package no other source imports, or a real error, still rejects", async () => {
    need("javac");
    const root = scratchDir("lfw-maven-");
    execFileSync("git", ["init", "-q", root]);
    mkdirSync(join(root, "src/main/java/com/example"), { recursive: true });
    mkdirSync(join(root, "src/test/java/com/example"), { recursive: true });
    writeFileSync(join(root, "pom.xml"), "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.example</groupId>\n  <artifactId>demo</artifactId>\n  <version>1</version>\n  <dependencies>\n    <dependency>\n      <groupId>junit</groupId>\n      <artifactId>junit</artifactId>\n      <version>4.13.2</version>\n      <scope>test</scope>\n    </dependency>\n  </dependencies>\n</project>\n");
    writeFileSync(join(root, "src/main/java/com/example/Util.java"), "package com.example;\n\npublic final class Util {\n    public static int one() {\n        return 1;\n    }\n}\n");
    writeFileSync(join(root, "src/test/java/com/example/UtilTest.java"), "package com.example;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic final class UtilTest {\n    @Test\n    public void one() {\n        assertEquals(1, Util.one());\n    }\n}\n");
    const lfwJ = (args: string[]) => lfw(root, args);
    const good = "package com.example;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic final class OneTest {\n    @Test\n    public void works() {\n        assertEquals(1, Util.one());\n    }\n}\n";
    const r = await lfwJ(["--path", "src/test/java/com/example/OneTest.java", "--dry-run", "--content", good]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.validation, "unchecked");
    assert.match(env.message, /dependency org\.junit not installed/);
    assert.ok(!env.result?.diagnostics.some((d) => d.level === "error"), r.stdout);
    const w = env.result?.diagnostics.find((d) => d.code === "checker.missing_dependency");
    assert.match(w?.message ?? "", /org\.junit \(imported by the project's other sources too, with its dependencies from pom\.xml\) is not installed here/);
    const strict = await lfwJ(["--path", "src/test/java/com/example/OneTest.java", "--require-checker", "--content", good]);
    assert.equal(strict.code, 1, strict.stdout);
    assert.ok(!existsSync(join(root, "src/test/java/com/example/OneTest.java")));
    const typo = await lfwJ(["--path", "src/test/java/com/example/OneTest.java", "--dry-run", "--content", good.replace("import org.junit.Test;", "import org.junitx.Test;")]);
    assert.equal(typo.code, 1, typo.stdout);
    assert.match((typo.json as Envelope).message, /package org\.junitx does not exist/);
    const bad = await lfwJ(["--path", "src/test/java/com/example/OneTest.java", "--dry-run", "--content", good.replace("assertEquals(1, Util.one());", "int x = Util.one(2);")]);
    assert.equal(bad.code, 1, bad.stdout);
    assert.match((bad.json as Envelope).message, /1 introduced error\(s\), first javac at src\/test\/java\/com\/example\/OneTest\.java:10:\d+: method one in class Util cannot be applied/);
  });
});

describe("llmfilewrite on hostile ground", () => {
  it("replaces a file through a symlink inside the root: the link stays a link, its target gets the bytes", async () => {
    need("gcc");
    const root = project("c-project");
    symlinkSync("helper.c", join(root, "src/link.c"));
    const old = readFileSync(join(root, "src/helper.c"));
    const content = '#include "answer.h"\n\nint helper(int value) { return value * MODE; }\n';
    const r = await lfw(root, ["--path", "src/link.c", "--overwrite", "--content", content]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(lstatSync(join(root, "src/link.c")).isSymbolicLink());
    assert.equal(readFileSync(join(root, "src/helper.c"), "utf8"), content);
    assert.notDeepEqual(old, Buffer.from(content));
  });

  it("a checker that runs out of --timeout is a warning and leaves no temp directory", async () => {
    need("javac");
    const root = project("java-project");
    const tmp = scratchDir("lfw-tmp-");
    const tempBefore = checkerTempDirs(tmp);
    const content = "package com.example;\n\npublic class Late { }\n";
    const r = await lfw(root, ["--path", "src/com/example/Late.java", "--timeout", "0.001", "--reject-on", "warning", "--content", content], { TMPDIR: tmp });
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(env.result?.lsp_used, "none");
    assert.ok(env.result?.diagnostics.some((d) => d.code === "checker.timeout" && d.level === "warning"), r.stdout);
    assert.deepEqual(checkerTempDirs(tmp), tempBefore);
    assert.ok(!existsSync(join(root, "src/com/example/Late.java")));
  });

  it("SIGTERM during validation leaves neither the file nor javac's temp directory", async () => {
    need("javac");
    const root = project("java-project");
    const tmp = scratchDir("lfw-tmp-");
    const tempBefore = checkerTempDirs(tmp);
    const child = spawn(process.execPath, [join(DIST, "src/cli/llmfilewrite.js"), "--root", root, "--path", "src/com/example/Gone.java", "--content", "package com.example;\npublic class Gone { }\n"], {
      cwd: root,
      stdio: "ignore",
      env: { ...process.env, TMPDIR: tmp },
    });
    // Wait until javac's temp directory exists, then interrupt.
    const deadline = Date.now() + 30_000;
    while (checkerTempDirs(tmp).length <= tempBefore.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(checkerTempDirs(tmp).length > tempBefore.length, "javac never started");
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    assert.equal(code, 143);
    assert.deepEqual(checkerTempDirs(tmp), tempBefore);
    assert.ok(!existsSync(join(root, "src/com/example/Gone.java")));
  });
});

describe("llmfilewrite Rust (cargo check on a temporary copy of the package)", () => {
  it("rejects a type error in a module of a cargo package; the real tree gets no target/ or Cargo.lock", async () => {
    need("cargo");
    const root = project("rust-project");
    const before = listFiles(root);
    const old = readFileSync(join(root, "src/util.rs"), "utf8");
    const bad = 'pub fn one() -> u32 {\n    "one"\n}\n';
    const r = await lfw(root, ["--path", "src/util.rs", "--overwrite", "--content", bad]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    assert.match(env.result?.lsp_used ?? "", /^cargo check/);
    const d = env.result?.diagnostics.find((x) => x.code === "E0308");
    assert.ok(d, r.stdout);
    assert.equal(d.start_line, 2);
    assert.equal(Buffer.from(bad).subarray(d.byte_start, d.byte_end).toString(), '"one"');
    assert.equal(env.result?.diagnostics.filter((x) => x.code === "E0308").length, 1, "one finding, even though lib and test builds both saw it");
    assert.equal(readFileSync(join(root, "src/util.rs"), "utf8"), old);
    assert.deepEqual(listFiles(root), before);
  });

  it("a module behind a feature that is off is unchecked, not validated: cargo compiled no target that includes it", async () => {
    need("cargo");
    const root = project("rust-project");
    writeFileSync(join(root, "Cargo.toml"), `${readFileSync(join(root, "Cargo.toml"), "utf8")}\n[features]\nextra = []\n`);
    writeFileSync(join(root, "src/lib.rs"), `${readFileSync(join(root, "src/lib.rs"), "utf8")}\n#[cfg(feature = "extra")]\npub mod extra;\n`);
    // A type error cargo would report with --features extra.
    const r = await lfw(root, ["--path", "src/extra.rs", "--dry-run", "--content", 'pub fn two() -> u32 {\n    "two"\n}\n']);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.validation, "unchecked", r.stdout);
    assert.ok(env.result?.diagnostics.some((x) => x.code === "checker.not_compiled" && /compiled no target that includes src\/extra\.rs/.test(x.message)), r.stdout);
    // A module every build compiles is still validated.
    const ok = await lfw(root, ["--path", "src/util.rs", "--overwrite", "--dry-run", "--content", "pub fn one() -> u32 {\n    1\n}\n"]);
    assert.equal((ok.json as Envelope).result?.validation, "validated", ok.stdout);
  });

  it("a new module no `mod` declares yet can be created under --reject-on warning: the scope note says it was checked, and is no finding", async () => {
    need("cargo");
    const root = project("rust-project");
    const r = await lfw(root, ["--path", "src/extra.rs", "--reject-on", "warning", "--content", "pub fn twice(x: u32) -> u32 {\n    x * 2\n}\n"]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.validation, "validated");
    assert.ok(env.result?.diagnostics.some((x) => x.code === "checker.scope" && x.level === "warning"), r.stdout);
    assert.ok(existsSync(join(root, "src/extra.rs")));
    // A type error in it still rejects it.
    const bad = await lfw(root, ["--path", "src/other.rs", "--reject-on", "warning", "--content", 'pub fn two() -> u32 {\n    "two"\n}\n']);
    assert.equal(bad.code, 1, bad.stdout);
    assert.ok(!existsSync(join(root, "src/other.rs")));
  });
});

describe("llmfilewrite Rust: a new file in a crate that already has an error", () => {
  it("is checked against an existing neighbour's findings (through the bundled bin), not refused with an internal error", async () => {
    need("cargo");
    const root = project("rust-project");
    // An error that was there before: not the new file's fault.
    writeFileSync(join(root, "src/util.rs"), 'pub fn one() -> u32 {\n    "one"\n}\n');
    const r = await lfw(root, ["--path", "src/extra.rs", "--dry-run", "--content", "pub fn two() -> u32 {\n    2\n}\n"]);
    assert.doesNotMatch(r.stdout + r.stderr, /E999|internal error/, r.stdout + r.stderr);
    const env = r.json as Envelope;
    assert.equal(env.result?.diagnostics.filter((x) => x.level === "error" && x.pre_existing !== true).length, 0, r.stdout);
    assert.ok(!existsSync(join(root, "src/extra.rs")));
  });
});

describe("llmfilewrite Go (the real toolchain: go build + go vet)", () => {
  it("a good file is validated by go vet, a type error is rejected at its line; tree-sitter still guards the syntax", async () => {
    need("go");
    const root = project("c-project");
    const r = await lfw(root, ["--path", "cmd/main.go", "--dry-run", "--content", "package main\n\nfunc main() {}\n"]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.match(env.result?.lsp_used ?? "", /go vet/);
    assert.equal(env.result?.validation, "validated");
    const typeErr = 'package main\n\nfunc main() {\n\tvar n int = "one"\n\t_ = n\n}\n';
    const t = await lfw(root, ["--path", "cmd/main.go", "--content", typeErr]);
    assert.equal(t.code, 1, t.stdout);
    const d = (t.json as Envelope).result?.diagnostics.find((x) => x.source === "go");
    assert.equal(d?.start_line, 4, t.stdout);
    assert.ok(!existsSync(join(root, "cmd/main.go")));
    const bad = await lfw(root, ["--path", "cmd/main.go", "--content", "package main\n\nfunc main() {\n"]);
    assert.equal(bad.code, 1, bad.stdout);
    assert.ok((bad.json as Envelope).result?.diagnostics.some((x) => x.level === "error"));
  });
});

describe("llmfilewrite Go in a module: the checker sees the new bytes (go1.19's vet ignores -overlay for the vetted package's own files)", () => {
  /** The testers' module: pkg/util/u.go with Helper() int, in a git work tree of its own. */
  const module = (): string => {
    const root = scratchDir("lfw-go-module-");
    execFileSync("git", ["init", "-q", root]);
    mkdirSync(join(root, "pkg/util"), { recursive: true });
    writeFileSync(join(root, "go.mod"), "module example.com/m\n\ngo 1.19\n");
    writeFileSync(join(root, "pkg/util/u.go"), "package util\n\nfunc Helper() int { return 1 }\n");
    return root;
  };

  it("a new _test.go with a type error is rejected at its line, a correct one approved; nothing is written", async () => {
    need("go");
    const root = module();
    const bad = 'package util\n\nimport "testing"\n\nfunc TestX(t *testing.T) { var s string = Helper(); _ = s }\n';
    const r = await lfw(root, ["--path", "pkg/util/u_test.go", "--reject-on", "warning", "--content", bad]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(env.result?.validation, "rejected", r.stdout);
    const d = env.result?.diagnostics.find((x) => x.level === "error" && x.file === "pkg/util/u_test.go");
    assert.ok(d, r.stdout);
    assert.match(d.message, /cannot use Helper\(\) \(value of type int\) as string value/);
    assert.equal(d.start_line, 5);
    assert.ok(!existsSync(join(root, "pkg/util/u_test.go")));
    const ok = await lfw(root, ["--path", "pkg/util/u_test.go", "--reject-on", "warning", "--dry-run", "--content", bad.replace("var s string", "var s int")]);
    assert.equal(ok.code, 0, ok.stdout);
    assert.equal((ok.json as Envelope).result?.validation, "validated", ok.stdout);
  });

  it("a file its build constraints leave out on this machine is unchecked, not validated (go compiled none of it); --require-checker rejects it", async () => {
    need("go");
    const root = module();
    // A type error go would report on windows: here it never compiles the file.
    const win = '//go:build windows\n\npackage util\n\nfunc Win() bool { return "no" }\n';
    const r = await lfw(root, ["--path", "pkg/util/u_windows.go", "--dry-run", "--content", win]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.validation, "unchecked", r.stdout);
    assert.ok(env.result?.diagnostics.some((x) => x.code === "checker.not_compiled" && /pkg\/util\/u_windows\.go is left out of its package by its build constraints/.test(x.message)), r.stdout);
    assert.match((env as { message?: string }).message ?? "", /NOT validated by a checker \(pkg\/util\/u_windows\.go not compiled/);
    const strict = await lfw(root, ["--path", "pkg/util/u_windows.go", "--require-checker", "--content", win]);
    assert.equal(strict.code, 1, strict.stdout);
    assert.equal((strict.json as Envelope).status, "rejected");
    assert.ok(!existsSync(join(root, "pkg/util/u_windows.go")));
  });

  it("a vet finding in an overwritten file is reported from the new content, not the disk's", async () => {
    need("go");
    const root = module();
    const bad = 'package util\n\nimport "fmt"\n\nfunc Helper() int { fmt.Printf("%d\\n", "s"); return 1 }\n';
    const r = await lfw(root, ["--path", "pkg/util/u.go", "--overwrite", "--dry-run", "--content", bad]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    const d = env.result?.diagnostics.find((x) => x.source === "go vet");
    assert.ok(d, r.stdout);
    assert.equal(d.file, "pkg/util/u.go");
    assert.equal(d.start_line, 5);
    assert.match(d.message, /Printf format %d has arg "s" of wrong type string/);
    assert.equal(readFileSync(join(root, "pkg/util/u.go"), "utf8"), "package util\n\nfunc Helper() int { return 1 }\n");
  });
});

describe("llmfilewrite Rust outside a package: a program's root is checked as a binary", () => {
  it("main.rs with its fn main is validated even with --reject-on warning (no dead_code on main); without main it is rejected (E0601)", async () => {
    need("rustc");
    const root = scratchDir("lfw-rust-main-");
    execFileSync("git", ["init", "-q", root]);
    const r = await lfw(root, ["--path", "main.rs", "--dry-run", "--reject-on", "warning", "--content", 'fn main() { println!("hi"); }\n']);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.validation, "validated", r.stdout);
    assert.deepEqual(env.result?.diagnostics, []);
    assert.match(env.result?.lsp_used ?? "", /rustc --crate-type bin/);
    const noMain = await lfw(root, ["--path", "src/bin/tool.rs", "--dry-run", "--content", "pub fn helper() {}\n"]);
    assert.equal(noMain.code, 1, noMain.stdout);
    assert.ok((noMain.json as Envelope).result?.diagnostics.some((x) => x.code === "E0601"), noMain.stdout);
    // A library file stays a library: a lone pub fn is fine.
    const lib = await lfw(root, ["--path", "src/util.rs", "--dry-run", "--reject-on", "warning", "--content", "pub fn helper() {}\n"]);
    assert.equal(lib.code, 0, lib.stdout);
  });
});

describe("llmfilewrite Rust: a finding cargo reports in another file of the crate", () => {
  it("is named root-relative (the package is in a subdirectory of the git root) and placed at cargo's span", async () => {
    need("cargo");
    const root = scratchDir("lfw-rust-sub-");
    execFileSync("git", ["init", "-q", root]);
    mkdirSync(join(root, "crate/src"), { recursive: true });
    writeFileSync(join(root, "crate/Cargo.toml"), '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n');
    const libRs = "pub mod util;\n\npub fn run() -> i32 {\n    util::helper()\n}\n";
    writeFileSync(join(root, "crate/src/lib.rs"), libRs);
    writeFileSync(join(root, "crate/src/util.rs"), "pub fn helper() -> i32 { 1 }\n");
    const r = await lfw(root, ["--path", "crate/src/util.rs", "--overwrite", "--dry-run", "--content", "pub fn helper2() -> i32 { 2 }\n"]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    const d = env.result?.diagnostics.find((x) => x.code === "E0425");
    assert.ok(d, r.stdout);
    assert.equal(d.file, "crate/src/lib.rs");
    assert.equal(d.start_line, 4);
    assert.equal(d.start_col, 10);
    assert.equal(Buffer.from(libRs).subarray(d.byte_start, d.byte_end).toString(), "helper");
  });
});
