import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { validateChange, type ChangeFileInput } from "../../src/validate/change.js";
import { ContentPositions } from "../../src/validate/positions.js";
import { ValidationSession } from "../../src/validate/session.js";
import { treeSitterGate } from "../../src/validate/treesitter.js";
import { which } from "../../src/validate/process.js";
import { REPO_ROOT, tempDir } from "../support/run.js";

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "validate");
const made: string[] = [];
// One session for the file (as splice keeps one): the TypeScript worker and pyright start once.
const shared = new ValidationSession();
after(() => {
  shared.dispose();
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A private copy of a fixture project (the checkers must never write into it). */
function project(name: string): string {
  const dir = tempDir(`validate-${name}-`);
  made.push(dir);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

const bytes = (s: string): Uint8Array => Buffer.from(s, "utf8");

/**
 * A session whose `tool` is the real one behind a wrapper on PATH that logs each run `when` (a
 * shell test on its arguments) holds; `runs()` counts them. `installs`: what .ci/run installs.
 */
function loggedChecker(tool: string, installs: string, when: string): { session: ValidationSession; runs: () => number } {
  const real = which(tool);
  assert.ok(real, `${tool} is not installed; .ci/run installs ${installs}`);
  const bin = tempDir(`validate-${tool}-log-`);
  made.push(bin);
  const log = join(bin, "runs.log");
  writeFileSync(join(bin, tool), `#!/bin/sh\n${when} && echo run >> ${log}\nexec ${real} "$@"\n`, { mode: 0o755 });
  const session = new ValidationSession({ ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` });
  return { session, runs: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0) };
}

/** A change of one existing file by a text replacement (which must apply). */
function edit(root: string, path: string, language: ChangeFileInput["language"], from: string, to: string): ChangeFileInput {
  const before = readFileSync(join(root, path));
  const text = before.toString("utf8");
  assert.ok(text.includes(from), `${path} lacks ${from}`);
  return { path, language, before, after: bytes(text.replace(from, to)) };
}

describe("validateChange: TypeScript over the project's program", () => {
  it("a changed signature breaks a caller the change did not touch (reached through a re-export): rejected, the caller's error introduced", async () => {
    const root = project("ts-callers");
    const r = await validateChange({ root, files: [edit(root, "src/money.ts", "typescript", "add(a: Money, b: Money)", "add(a: Money, b: Money, fee: Money)")], session: shared });
    assert.equal(r.validation, "rejected");
    const caller = r.introduced.find((d) => d.file === "src/cart.ts");
    assert.ok(caller, JSON.stringify(r.introduced));
    assert.equal(caller.code, "TS2554");
    assert.equal(caller.start_line, 4);
    assert.match(r.checkers[0]?.checker ?? "", /^typescript \d+\.\d+\.\d+ \(llmtools' own: the project has none\) compiler API \(tsconfig\.json/);
    // The project's own old error (legacy.ts) is not in a file this change could break.
    assert.ok(!r.introduced.some((d) => d.file === "src/legacy.ts"));
  });

  it("the same change with its caller updated is validated", async () => {
    const root = project("ts-callers");
    const r = await validateChange({
      root,
      session: shared,
      files: [
        edit(root, "src/money.ts", "typescript", "add(a: Money, b: Money)", "add(a: Money, b: Money, fee?: Money)"),
        edit(root, "src/cart.ts", "typescript", "add(sum, m)", "add(sum, m, undefined)"),
      ],
    });
    assert.equal(r.validation, "validated", JSON.stringify(r));
    assert.deepEqual(r.introduced, []);
  });

  it("`export type * from` (TypeScript 5) is accepted: the compiler ran and accepted it, tree-sitter's complaint is a parser-limit warning", async () => {
    const root = project("ts-callers");
    const r = await validateChange({ root, files: [{ path: "src/all.ts", language: "typescript", before: null, after: bytes("export type * from './types.js';\nexport * from './money.js';\n") }], session: shared });
    assert.equal(r.validation, "validated", JSON.stringify(r));
    const limit = r.warnings.find((d) => d.code === "parser.limit");
    assert.ok(limit, JSON.stringify(r.warnings));
    assert.equal(limit.level, "warning");
    assert.match(limit.message, /parser limit, not an error in the code/);
  });

  it("errors the file already had, syntax or type, do not block an unrelated edit of it; a new one does", async () => {
    const root = project("ts-callers");
    const broken = "export const retries: number = \"three\";\nexport function f( {\n";
    const withError = { path: "src/legacy.ts", language: "typescript" as const, before: bytes(broken), after: bytes(`// retries of the sync\n${broken}`) };
    const ok = await validateChange({ root, files: [withError], session: shared });
    assert.equal(ok.validation, "validated", JSON.stringify(ok));
    assert.ok(ok.pre_existing_count >= 2);
    const worse = await validateChange({ root, files: [{ ...withError, after: bytes(`export const n: string = 1;\n${broken}`) }], session: shared });
    assert.equal(worse.validation, "rejected");
    assert.deepEqual(
      worse.introduced.map((d) => d.code),
      ["TS2322"],
    );
  });
});

describe("validateChange: TypeScript, a warm session", () => {
  it("reuses the before-state's diagnostics only while the disk is unchanged: an importer edited on disk between two changes is read again", async () => {
    const root = project("ts-callers");
    const session = new ValidationSession();
    try {
      const change = (): ChangeFileInput => edit(root, "src/money.ts", "typescript", "add(a: Money, b: Money)", "add(a: Money, b: Money, fee?: Money)");
      const first = await validateChange({ root, files: [change()], session });
      assert.equal(first.validation, "validated", JSON.stringify(first));
      // Someone else breaks cart.ts on disk: an old error for the next change, not a new one.
      writeFileSync(join(root, "src/cart.ts"), `${readFileSync(join(root, "src/cart.ts"), "utf8")}export const broken: string = 1;\n`);
      const second = await validateChange({ root, files: [change()], session });
      assert.equal(second.validation, "validated", JSON.stringify(second));
      assert.ok(second.pre_existing?.some((d) => d.file === "src/cart.ts" && d.code === "TS2322"), JSON.stringify(second));
    } finally {
      session.dispose();
    }
  });
});

describe("validateChange: Go with the real toolchain", () => {
  it("a good new package is validated by go build + go vet; a signature change that breaks a caller in another package is rejected", async () => {
    const root = project("go-module");
    const good = await validateChange({ root, files: [{ path: "pkg/tax/tax.go", language: "go", before: null, after: bytes("package tax\n\n// Of returns the tax on cents.\nfunc Of(cents int) int { return cents / 5 }\n") }] });
    assert.equal(good.validation, "validated", JSON.stringify(good));
    assert.equal(good.checkers[0]?.status, "ran");
    assert.match(good.checkers[0]?.version ?? "", /^go1\./);
    const bad = await validateChange({ root, files: [edit(root, "pkg/a/price.go", "go", "func Add(x, y int) int { return x + y }", "func Add(x int) int { return x }")] });
    assert.equal(bad.validation, "rejected");
    assert.equal(bad.introduced[0]?.file, "pkg/b/cart.go");
    assert.match(bad.introduced[0]?.message ?? "", /too many arguments in call to a\.Add/);
    const typeErr = await validateChange({ root, files: [{ path: "pkg/a/rate.go", language: "go", before: null, after: bytes('package a\n\nfunc Rate() int { return "ten" }\n') }] });
    assert.equal(typeErr.validation, "rejected");
    assert.equal(typeErr.introduced[0]?.file, "pkg/a/rate.go");
    assert.equal(typeErr.introduced[0]?.start_line, 3);
  });

  it("a package go cannot load hides no type error: its own change is unchecked with the reason, the packages that load are still checked (chi's `import \"slices\"` under go1.19 made `go build ./...` print only the load error, and a broken patch was validated)", async () => {
    const root = project("go-module");
    // An import no Go has in GOROOT: the package (and every package importing it) does not load.
    mkdirSync(join(root, "pkg/ctx"));
    writeFileSync(join(root, "pkg/ctx/ctx.go"), 'package ctx\n\nimport "nosuchstdpkg"\n\n// Has says whether v is set.\nfunc Has(v int) bool { return nosuchstdpkg.Has(v) }\n\n// Chain returns its arguments.\nfunc Chain(xs ...int) []int { return xs }\n');
    const stuck = await validateChange({ root, files: [edit(root, "pkg/ctx/ctx.go", "go", "return xs }", "return len(xs) + \"s\" }")] });
    assert.notEqual(stuck.validation, "validated", JSON.stringify(stuck));
    assert.equal(stuck.validation, "unchecked");
    assert.equal(stuck.checkers[0]?.status, "failed");
    assert.match(stuck.checkers[0]?.reason ?? "", /go cannot load the package in pkg\/ctx \(package nosuchstdpkg is not in GOROOT[^)]*\)\), so no code of it was type-checked/);
    // Another package still loads: its type error is found, and the unloadable one is named.
    const typeErr = await validateChange({ root, files: [edit(root, "pkg/a/price.go", "go", "return x + y }", 'return x + "y" }')] });
    assert.equal(typeErr.validation, "rejected", JSON.stringify(typeErr));
    assert.equal(typeErr.introduced[0]?.file, "pkg/a/price.go");
    assert.match(typeErr.warnings.map((w) => w.message).join("\n"), /go cannot load 1 package\(s\) of module \., which were not type-checked \(callers there included\): pkg\/ctx \(package nosuchstdpkg is not in GOROOT/);
    const ok = await validateChange({ root, files: [edit(root, "pkg/a/price.go", "go", "return x + y }", "return y + x }")] });
    assert.equal(ok.validation, "validated", JSON.stringify(ok));
    // An import the change itself adds that does not load is the change's error, at the import.
    const added = await validateChange({ root, files: [edit(root, "pkg/a/price.go", "go", "// Add sums", 'import "alsonosuchpkg"\n\nvar _ = alsonosuchpkg.X\n\n// Add sums')] });
    assert.equal(added.validation, "rejected", JSON.stringify(added));
    assert.equal(added.introduced[0]?.file, "pkg/a/price.go");
    assert.match(added.introduced[0]?.message ?? "", /package alsonosuchpkg is not in GOROOT/);
  });

  it("without go on PATH the change is unchecked with the reason, never validated; requireChecker rejects it", async () => {
    const root = project("go-module");
    const session = new ValidationSession({ ...process.env, PATH: "/nonexistent" });
    try {
      const file: ChangeFileInput = { path: "pkg/tax/tax.go", language: "go", before: null, after: bytes("package tax\n\nfunc Of(cents int) int { return cents / 5 }\n") };
      const r = await validateChange({ root, files: [file], session });
      assert.equal(r.validation, "unchecked");
      assert.equal(r.checkers[0]?.status, "absent");
      const w = r.warnings.find((d) => d.code === "checker.absent");
      assert.ok(w, JSON.stringify(r.warnings));
      assert.match(w.message, /NOT checked/);
      const strict = await validateChange({ root, files: [file], session, requireChecker: true });
      assert.equal(strict.validation, "rejected");
    } finally {
      session.dispose();
    }
  });
});

describe("validateChange: Go whose go.mod asks for a newer go than the one on PATH (viper: go 1.23.0 under go1.19)", () => {
  it("the unchecked reason says the toolchain is too old, not only go's 'invalid go version'", async () => {
    const root = tempDir("validate-go-newer-");
    made.push(root);
    writeFileSync(join(root, "go.mod"), "module example.com/v\n\ngo 1.99.0\n");
    writeFileSync(join(root, "viper.go"), "package viper\n\nfunc getEnv(key string) string { return key }\n");
    const r = await validateChange({ root, files: [edit(root, "viper.go", "go", "return key", 'return key + "_"')] });
    assert.equal(r.validation, "unchecked", JSON.stringify(r));
    assert.equal(r.checkers[0]?.status, "failed");
    assert.match(r.checkers[0]?.reason ?? "", /(invalid go version|requires go >=).*\(the go on PATH, go1\.\d+(\.\d+)?, is older than the module's go\.mod asks for: put a Go toolchain at least that new first on PATH\)$/s);
  });
});

describe("validateChange: Go whose go.mod line this go reads but does not reach (urfave/cli's `go 1.22` under go1.19)", () => {
  it("the unchecked reason says the toolchain is too old, not only that a module could not be downloaded", async () => {
    const root = tempDir("validate-go-newer-read-");
    made.push(root);
    writeFileSync(join(root, "go.mod"), "module example.com/v\n\ngo 1.99\n\nrequire example.com/absent v1.2.3\n");
    writeFileSync(join(root, "cli.go"), 'package cli\n\nimport _ "example.com/absent"\n\nfunc fullName(key string) string { return key }\n');
    const r = await validateChange({ root, files: [edit(root, "cli.go", "go", "return key", 'return key + "_"')] });
    assert.equal(r.validation, "unchecked", JSON.stringify(r));
    assert.equal(r.checkers[0]?.status, "failed");
    assert.match(r.checkers[0]?.reason ?? "", /older than the module's go\.mod asks for|the module's go\.mod asks for go 1\.99, and the go on PATH is go1\.\d+/);
  });
});

describe("validateChange: Go checks the change's bytes, never the disk's (go1.19's vet ignores -overlay for the vetted package's own files)", () => {
  const helperTest = 'package a\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tvar s string = Add(1, 2)\n\t_ = s\n}\n';

  it("a new _test.go with a type error is rejected at its line (go build compiles no test files; vet must read the new file)", async () => {
    const root = project("go-module");
    const r = await validateChange({ root, files: [{ path: "pkg/a/price_test.go", language: "go", before: null, after: bytes(helperTest) }] });
    assert.equal(r.validation, "rejected", JSON.stringify(r));
    assert.deepEqual(
      r.introduced.map((d) => [d.file, d.start_line, d.code]),
      [["pkg/a/price_test.go", 6, "go"]],
    );
    assert.match(r.introduced[0]?.message ?? "", /cannot use Add\(1, 2\) \(value of type int\) as string value/);
    // The same test, correct, is validated: vet ran on it and found nothing.
    const ok = await validateChange({ root, files: [{ path: "pkg/a/price_test.go", language: "go", before: null, after: bytes(helperTest.replace("var s string", "var s int")) }] });
    assert.equal(ok.validation, "validated", JSON.stringify(ok));
  });

  it("a vet finding in the changed code of an existing file is introduced (vet read the new bytes, not the old)", async () => {
    const root = project("go-module");
    const r = await validateChange({ root, files: [edit(root, "pkg/a/price.go", "go", "func Add(x, y int) int { return x + y }", 'import "fmt"\n\nfunc Add(x, y int) int { fmt.Printf("%d\\n", "s"); return x + y }')] });
    assert.equal(r.validation, "rejected", JSON.stringify(r));
    assert.deepEqual(
      r.introduced.map((d) => [d.file, d.start_line, d.code]),
      [["pkg/a/price.go", 6, "go vet"]],
    );
    assert.match(r.introduced[0]?.message ?? "", /Printf format %d has arg "s" of wrong type string/);
  });

  it("a method renamed with all its callers, in its package, its tests and another package, is validated", async () => {
    const root = project("go-module");
    writeFileSync(join(root, "pkg/a/command.go"), "package a\n\n// Command is a command.\ntype Command struct{ parent *Command }\n\n// HasParent says whether c has a parent.\nfunc (c *Command) HasParent() bool { return c.parent != nil }\n\n// Root is the top command.\nfunc (c *Command) Root() *Command {\n\tif c.HasParent() {\n\t\treturn c.parent.Root()\n\t}\n\treturn c\n}\n");
    writeFileSync(join(root, "pkg/a/command_test.go"), 'package a\n\nimport "testing"\n\nfunc TestRoot(t *testing.T) {\n\tif (&Command{}).HasParent() {\n\t\tt.Fatal("parent")\n\t}\n}\n');
    writeFileSync(join(root, "pkg/b/nested.go"), 'package b\n\nimport "example.com/shop/pkg/a"\n\n// Nested says whether c is a subcommand.\nfunc Nested(c *a.Command) bool { return c.HasParent() }\n');
    const rename = (path: string, n: number): ChangeFileInput => {
      const before = readFileSync(join(root, path));
      const text = before.toString("utf8");
      assert.equal(text.split("HasParent()").length - 1, n, path);
      return { path, language: "go", before, after: bytes(text.replaceAll("HasParent()", "IsChild()")) };
    };
    const r = await validateChange({ root, files: [rename("pkg/a/command.go", 2), rename("pkg/a/command_test.go", 1), rename("pkg/b/nested.go", 1)] });
    assert.equal(r.validation, "validated", JSON.stringify(r));
    assert.deepEqual(r.introduced, []);
    // Leaving the test file out breaks it, and that is what is reported, in the new code.
    const partial = await validateChange({ root, files: [rename("pkg/a/command.go", 2), rename("pkg/b/nested.go", 1)] });
    assert.equal(partial.validation, "rejected", JSON.stringify(partial));
    assert.deepEqual(
      partial.introduced.map((d) => [d.file, d.start_line]),
      [["pkg/a/command_test.go", 6]],
    );
  });

  it("a vet run that fails without a finding in a file (exit 2, \"no such file\") is unchecked with its reason, never validated", async () => {
    const root = project("go-module");
    const realGo = which("go");
    assert.ok(realGo, "go is not installed; .ci/run installs golang-go");
    // A go that answers vet as go1.19 does when it cannot open a file, and runs the rest.
    const bin = tempDir("validate-go-shim-");
    made.push(bin);
    writeFileSync(join(bin, "go"), `#!/bin/sh\nif [ "$1" = vet ]; then echo '# example.com/shop/pkg/a' >&2; echo 'vet: open pkg/a/rate.go: no such file or directory' >&2; exit 2; fi\nexec ${realGo} "$@"\n`, { mode: 0o755 });
    const session = new ValidationSession({ ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` });
    try {
      const file: ChangeFileInput = { path: "pkg/a/rate.go", language: "go", before: null, after: bytes("package a\n\n// Rate is the tax rate.\nfunc Rate() int { return 10 }\n") };
      const r = await validateChange({ root, files: [file], session });
      assert.equal(r.validation, "unchecked", JSON.stringify(r));
      assert.equal(r.checkers[0]?.status, "failed");
      assert.match(r.checkers[0]?.reason ?? "", /go vet .*exited 2.*no such file or directory/s);
      const strict = await validateChange({ root, files: [file], session, requireChecker: true });
      assert.equal(strict.validation, "rejected");
    } finally {
      session.dispose();
    }
  });
});

describe("validateChange: Java whose module-info.java does not compile here", () => {
  it("a good new class is validated and a bad one rejected for its own error, not the module's", async () => {
    const root = project("java-module");
    const good = await validateChange({
      root,
      files: [{ path: "src/com/example/util/Ints.java", language: "java", before: null, after: bytes("package com.example.util;\n\npublic final class Ints {\n    public static int twice(int x) { return Strings.isBlank(null) ? 0 : 2 * x; }\n}\n") }],
    });
    assert.equal(good.validation, "validated", JSON.stringify(good));
    assert.match(good.checkers[0]?.checker ?? "", /module-info\.java left out/);
    const bad = await validateChange({
      root,
      files: [{ path: "src/com/example/util/Bad.java", language: "java", before: null, after: bytes('package com.example.util;\n\npublic final class Bad {\n    public static int twice(int x) { return "s"; }\n}\n') }],
    });
    assert.equal(bad.validation, "rejected");
    assert.deepEqual(
      bad.introduced.map((d) => [d.file, d.start_line]),
      [["src/com/example/util/Bad.java", 4]],
    );
  });
});

describe("validateChange: Rust, a file not yet in the mod tree", () => {
  it("is compiled with its crate (attached to the crate root), so its type error rejects it; the result says it was not declared", async () => {
    const root = tempDir("validate-rust-");
    made.push(root);
    cpSync(join(REPO_ROOT, "test", "fixtures", "llmfilewrite", "rust-project"), root, { recursive: true });
    const bad = await validateChange({ root, files: [{ path: "src/extra.rs", language: "rust", before: null, after: bytes('pub fn two() -> u32 {\n    "two"\n}\n') }] });
    assert.equal(bad.validation, "rejected", JSON.stringify(bad));
    assert.deepEqual(
      bad.introduced.map((d) => [d.code, d.file, d.start_line]),
      [["E0308", "src/extra.rs", 2]],
    );
    assert.match(bad.checkers[0]?.checker ?? "", /not in the mod tree: checked as a module attached to the crate root/);
    const good = await validateChange({ root, files: [{ path: "src/extra.rs", language: "rust", before: null, after: bytes("pub fn two() -> u32 {\n    crate::util::one() + 1\n}\n") }] });
    assert.equal(good.validation, "validated", JSON.stringify(good));
    assert.ok(good.warnings.some((d) => d.code === "checker.scope" && /not declared by any `mod`/.test(d.message)));
  });
});

describe("C/C++: tree-sitter's limits are not the user's errors", () => {
  it("valid C with loop macros, X-macro lines, attribute/specifier macros and #if/#else braces parses clean; a real syntax error is still found", () => {
    for (const f of ["src/list.c", "src/list.h"]) {
      const text = readFileSync(join(FIXTURES, "c-macros", f));
      assert.deepEqual(treeSitterGate("c", new ContentPositions(text), f).diagnostics, [], f);
    }
    const broken = Buffer.from(readFileSync(join(FIXTURES, "c-macros", "src/list.c"), "utf8").replace("if (x > best) best = x;", "if (x > best best = x;"));
    const found = treeSitterGate("c", new ContentPositions(broken), "src/list.c").diagnostics;
    assert.ok(found.length > 0);
    assert.equal(found[0]?.start_line, 17);
  });

  it("what tree-sitter still cannot read but gcc accepts is a parser-limit warning, and the change is validated", async () => {
    const root = project("c-macros");
    // Braces that come from macros: no reduction reads them, gcc does.
    const text = '#include "list.h"\n#define BEGIN {\n#define END }\n\nint list_first(const list *l) BEGIN\n  return l->len ? l->items[0] : 0;\nEND\n';
    const r = await validateChange({ root, files: [{ path: "src/first.c", language: "c", before: null, after: bytes(text) }] });
    assert.equal(r.checkers[0]?.status, "ran", JSON.stringify(r));
    assert.equal(r.validation, "validated", JSON.stringify(r));
    const limits = r.warnings.filter((d) => d.source === "tree-sitter");
    assert.ok(limits.length > 0, JSON.stringify(r));
    for (const w of limits) {
      assert.equal(w.code, "parser.limit");
      assert.match(w.message, /parser limit, not an error in the code.*macro/);
    }
  });
});

describe("validateChange: Python with pyright over the changed modules and their importers", () => {
  it("a changed signature breaks its importer: rejected with the caller's error; updating both is validated", async () => {
    const root = project("py-callers");
    const bad = await validateChange({ root, files: [edit(root, "shop/money.py", "python", "def add(cents: int, more: int)", "def add(cents: int, more: int, fee: int)")], session: shared });
    assert.equal(bad.validation, "rejected", JSON.stringify(bad));
    assert.deepEqual(
      bad.introduced.map((d) => [d.file, d.start_line, d.code]),
      [["shop/cart.py", 7, "reportCallIssue"]],
    );
    assert.match(bad.checkers[0]?.checker ?? "", /^pyright \d/);
    const good = await validateChange({
      root,
      session: shared,
      files: [edit(root, "shop/money.py", "python", "def add(cents: int, more: int)", "def add(cents: int, more: int, fee: int = 0)"), edit(root, "shop/cart.py", "python", "add(t, i)", "add(t, i, 0)")],
    });
    assert.equal(good.validation, "validated", JSON.stringify(good));
  });

  it("a module that imports the package whose __init__.py re-exports the changed module is checked (typer's docs: `import typer` then `app.add_typer(..., name=...)`)", async () => {
    const root = project("py-callers");
    writeFileSync(join(root, "shop/app.py"), "class App:\n    def add_group(self, other: \"App\", *, name: str | None = None) -> None:\n        self.group = (other, name)\n");
    writeFileSync(join(root, "shop/__init__.py"), "from .app import App as App\n");
    mkdirSync(join(root, "docs_src"));
    writeFileSync(join(root, "docs_src/tutorial001.py"), "import shop\n\napp = shop.App()\nitems = shop.App()\napp.add_group(items, name=\"items\")\n");
    const r = await validateChange({ root, session: shared, files: [edit(root, "shop/app.py", "python", "*, name: str | None = None) -> None:\n        self.group = (other, name)", "*, title: str | None = None) -> None:\n        self.group = (other, title)")] });
    assert.equal(r.validation, "rejected", JSON.stringify(r));
    assert.deepEqual(r.introduced.map((d) => [d.file, d.start_line]), [["docs_src/tutorial001.py", 5]]);
    assert.match(r.introduced[0]?.message ?? "", /No parameter named "name"/);
  });

  it("a rename across modules, the importer given first: every module gets its new text before any is checked", async () => {
    const root = project("py-callers");
    const cart = readFileSync(join(root, "shop/cart.py"), "utf8");
    const r = await validateChange({
      root,
      session: shared,
      files: [
        { path: "shop/cart.py", language: "python", before: bytes(cart), after: bytes(cart.replaceAll("add", "plus")) },
        edit(root, "shop/money.py", "python", "def add(", "def plus("),
      ],
    });
    assert.equal(r.validation, "validated", JSON.stringify(r.introduced));
  });

  it("a file of a sub-project (its own pyproject.toml) is checked in that project, and the root's importers do not reach into it", async () => {
    const root = project("py-callers");
    mkdirSync(join(root, "examples", "app"), { recursive: true });
    writeFileSync(join(root, "examples", "app", "pyproject.toml"), '[project]\nname = "app"\nversion = "1"\n');
    // imports a module of its own named like the root's: resolved in its project, never the root's
    writeFileSync(join(root, "examples", "app", "money.py"), "def add(a: str) -> str:\n    return a\n");
    writeFileSync(join(root, "examples", "app", "main.py"), 'from money import add\n\nprint(add("x"))\n');
    const main = readFileSync(join(root, "examples", "app", "main.py"), "utf8");
    const r = await validateChange({
      root,
      session: shared,
      files: [
        { path: "examples/app/main.py", language: "python", before: bytes(main), after: bytes(main.replace('print(add("x"))', 'print(add("y"))')) },
        edit(root, "shop/money.py", "python", "def add(cents: int, more: int)", "def add(cents: int, more: int, fee: int)"),
      ],
    });
    // shop/money.py checked in the example's project would miss its caller in shop/cart.py
    assert.equal(r.validation, "rejected", JSON.stringify(r));
    assert.deepEqual(
      r.introduced.map((d) => [d.file, d.start_line, d.code]),
      [["shop/cart.py", 7, "reportCallIssue"]],
    );
    assert.match(r.checkers[0]?.checker ?? "", /workspace \., 1 changed.*; .*workspace examples\/app, 1 changed \+ 0 importing/);
  });
});

describe("validateChange: C++, a rename across a header, its definition and a caller that reaches it through another header", () => {
  it("the caller is compiled against the renamed header (not the disk's), so the change is validated; a caller left behind is rejected", async () => {
    const root = tempDir("validate-cpp-mirror-");
    made.push(root);
    const files: Record<string, string> = {
      "ring.hpp": "#pragma once\nint ring_push(int *r, int v);\n",
      "ring.cpp": '#include "ring.hpp"\n\nint ring_push(int *r, int v) {\n  *r = v;\n  return 0;\n}\n',
      "queue.hpp": '#pragma once\n#include "ring.hpp"\n',
      "main.cpp": '#include "queue.hpp"\n\nint main() {\n  int r = 0;\n  return ring_push(&r, 1);\n}\n',
    };
    for (const [f, t] of Object.entries(files)) writeFileSync(join(root, f), t);
    const renamed = (f: string): ChangeFileInput => ({ path: f, language: "cpp", before: bytes(files[f]!), after: bytes(files[f]!.replaceAll("ring_push", "ring_put")) });
    const good = await validateChange({ root, files: [renamed("main.cpp"), renamed("ring.cpp"), renamed("ring.hpp")], session: shared });
    assert.equal(good.validation, "validated", JSON.stringify(good.introduced));
    const bad = await validateChange({ root, files: [renamed("ring.cpp"), renamed("ring.hpp")], session: shared });
    assert.equal(bad.validation, "rejected", JSON.stringify(bad));
    assert.ok(bad.introduced.some((d) => d.file === "main.cpp" && d.level === "error" && /ring_push/.test(d.message)), JSON.stringify(bad.introduced));
  });
});

describe("validateChange: C, a changed header recompiles its includers", () => {
  it("a declaration change that breaks a .c file including the header is introduced there; the header alone compiles", async () => {
    const root = project("c-macros");
    const bad = await validateChange({ root, files: [edit(root, "src/list.h", "c", "int list_log(const char *fmt, ...)", "int list_log(int level, const char *fmt, ...)")], session: shared });
    assert.equal(bad.validation, "rejected", JSON.stringify(bad));
    assert.ok(
      bad.introduced.some((d) => d.file === "src/list.c" && d.level === "error" && typeof d.start_line === "number" && d.start_line > 0),
      JSON.stringify(bad.introduced),
    );
    assert.match(bad.checkers[0]?.checker ?? "", /1 file including the changed header recompiled against it/);
    // A macro the .c file defines before the include breaks the unchanged header: gcc's finding
    // there carries its line and column (`size_t len;` is line 16 of list.h).
    const intoHeader = await validateChange({ root, files: [edit(root, "src/list.c", "c", '#include "list.h"', '#define len 3\n#include "list.h"')], session: shared });
    assert.equal(intoHeader.validation, "rejected");
    assert.ok(
      intoHeader.introduced.some((d) => d.file === "src/list.h" && d.start_line === 16 && d.start_col === 9),
      JSON.stringify(intoHeader.introduced),
    );
    const fine = await validateChange({ root, files: [edit(root, "src/list.h", "c", "#define LIST_EXPORT", "#define LIST_EXPORT extern")], session: shared });
    assert.equal(fine.validation, "validated", JSON.stringify(fine));
  });

  it("a compile that finds nothing after the change is not compiled before it: a clean header change costs one compile per file, a breaking one adds the before of the file it breaks", async () => {
    const root = project("c-macros");
    // A gcc that logs its syntax checks on the way to the real one.
    const bin = tempDir("validate-cc-count-");
    const log = join(bin, "compiles.log");
    writeFileSync(join(bin, "gcc"), `#!/bin/sh\ncase "$*" in *-fsyntax-only*) echo "$*" >> "${log}";; esac\nexec ${which("gcc")} "$@"\n`, { mode: 0o755 });
    const session = new ValidationSession({ ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` });
    const compiles = (): number => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0);
    try {
      const fine = await validateChange({ root, files: [edit(root, "src/list.h", "c", "#define LIST_EXPORT", "#define LIST_EXPORT extern")], session });
      assert.equal(fine.validation, "validated", JSON.stringify(fine));
      assert.match(fine.checkers[0]?.checker ?? "", /1 file including the changed header recompiled against it/);
      assert.equal(compiles(), 2, "the header and its includer, each after the change only");
      rmSync(log);
      // (The header alone still compiles: only the includer's loops read `len`.)
      const bad = await validateChange({ root, files: [edit(root, "src/list.h", "c", "  size_t len;", "  size_t count;")], session });
      assert.equal(bad.validation, "rejected", JSON.stringify(bad));
      assert.ok(bad.introduced.some((d) => d.file === "src/list.c" && d.level === "error"), JSON.stringify(bad.introduced));
      assert.equal(compiles(), 3, `the includer that breaks is compiled before the change too, to tell what it introduced: ${readFileSync(log, "utf8")}`);
    } finally {
      session.dispose();
    }
  });
});

describe("validateChange: Java, the classes using a changed class are compiled with it", () => {
  it("a changed signature breaks a caller in another package: rejected there; a compatible change is validated", async () => {
    const root = project("java-module");
    const bad = await validateChange({ root, files: [edit(root, "src/com/example/util/Strings.java", "java", "isBlank(String s)", "isBlank(String s, boolean trim)")] });
    assert.equal(bad.validation, "rejected", JSON.stringify(bad));
    assert.deepEqual(
      bad.introduced.map((d) => [d.file, d.start_line]),
      [["src/com/example/app/Main.java", 8]],
    );
    assert.match(bad.checkers[0]?.checker ?? "", /with 1 file using it/);
    const fine = await validateChange({ root, files: [edit(root, "src/com/example/util/Strings.java", "java", "private Strings() {}", "private Strings() {}\n\n    public static boolean isEmpty(String s) {\n        return s == null || s.isEmpty();\n    }")] });
    assert.equal(fine.validation, "validated", JSON.stringify(fine));
  });
});

describe("validateChange: a file no checker knows", () => {
  it("is never 'validated': a change touching it is unchecked with a warning naming it; requireChecker rejects it", async () => {
    const root = tempDir("validate-none-");
    made.push(root);
    const files: ChangeFileInput[] = [{ path: "notes.txt", language: null, before: null, after: bytes("plain words\n") }];
    const r = await validateChange({ root, files, session: shared });
    assert.equal(r.validation, "unchecked");
    assert.ok(r.warnings.some((w) => w.code === "checker.none_for_file_type" && w.file === "notes.txt"), JSON.stringify(r.warnings));
    const strict = await validateChange({ root, files, session: shared, requireChecker: true });
    assert.equal(strict.validation, "rejected");
    // Deleting such a file needs no checker.
    const gone = await validateChange({ root, files: [{ path: "notes.txt", language: null, before: bytes("plain words\n"), after: null }], session: shared });
    assert.equal(gone.validation, "validated");
  });
});

describe("validateChange: a change of several files checks each with the others' new bytes (Java, Rust)", () => {
  const OBJ = "src/main/java/org/apache/commons/lang3/ObjectUtils.java";
  const BOOL = "src/main/java/org/apache/commons/lang3/BooleanUtils.java";
  /** ObjectUtils.requireNonEmpty(T, String) renamed, with its callers in BooleanUtils replaced by `call`. */
  const renamed = (root: string, call: string): ChangeFileInput[] => {
    const obj = readFileSync(join(root, OBJ));
    const bool = readFileSync(join(root, BOOL));
    return [
      { path: OBJ, language: "java", before: obj, after: bytes(obj.toString("utf8").replace('requireNonEmpty(obj, "object")', 'requireNotEmpty(obj, "object")').replace("T requireNonEmpty(final T obj, final String message)", "T requireNotEmpty(final T obj, final String message)")) },
      { path: BOOL, language: "java", before: bool, after: bytes(bool.toString("utf8").replaceAll('ObjectUtils.requireNonEmpty(array, "array")', call)) },
    ];
  };

  it("Java: a method renamed with its callers in another class is validated (the caller was compiled against the disk's class and rejected); a caller left wrong is rejected there", async () => {
    const root = project("java-lang");
    const good = await validateChange({ root, files: renamed(root, 'ObjectUtils.requireNotEmpty(array, "array")') });
    assert.equal(good.validation, "validated", JSON.stringify(good.introduced));
    const bad = await validateChange({ root, files: renamed(root, "ObjectUtils.requireNotEmpty(array, 1)") });
    assert.equal(bad.validation, "rejected");
    assert.deepEqual(
      bad.introduced.map((d) => [d.file, d.start_line]),
      [
        [BOOL, 17],
        [BOOL, 33],
      ],
    );
  });

  it("Java: the changed files of one source root are compiled together once per version, and a finding in the second file keeps its line and column", async () => {
    const root = project("java-lang");
    // The real javac, each run logged: one run per file and version compiled the same files
    // over and over (commons-cli's Option.hasArg renamed over 24 files: 48 runs, four minutes).
    const { session, runs } = loggedChecker("javac", "a JDK", "true");
    try {
      const good = await validateChange({ root, files: renamed(root, 'ObjectUtils.requireNotEmpty(array, "array")'), session });
      assert.equal(good.validation, "validated", JSON.stringify(good.introduced));
      assert.equal(runs(), 2, "one javac run before and one after for the two files of src/main/java");
      const bad = await validateChange({ root, files: renamed(root, "ObjectUtils.requireNotEmpty(array, 1)"), session });
      assert.equal(bad.validation, "rejected");
      assert.equal(runs(), 4);
      assert.deepEqual(
        bad.introduced.map((d) => [d.file, d.start_line, d.start_col, d.message.split("\n")[0]]),
        [
          [BOOL, 17, 43, "incompatible types: int cannot be converted to String"],
          [BOOL, 33, 43, "incompatible types: int cannot be converted to String"],
        ],
      );
    } finally {
      session.dispose();
    }
  });

  it("Rust: the changed files of one cargo package are checked in one cargo run per version, each file's findings placed in it", async () => {
    const root = tempDir("validate-rust-runs-");
    made.push(root);
    cpSync(join(REPO_ROOT, "test", "fixtures", "llmfilewrite", "rust-project"), root, { recursive: true });
    // The real cargo, each check logged (xsv's get_args renamed over 21 files was 42 cargo runs,
    // each on a fresh copy of the package: 17 s to say "unchecked" without the crates).
    const { session, runs } = loggedChecker("cargo", "it", '[ "$1" = check ]');
    try {
      const util = edit(root, "src/util.rs", "rust", "pub fn one()", "pub fn uno()");
      const good = await validateChange({ root, files: [util, edit(root, "src/lib.rs", "rust", "util::one()", "util::uno()")], session });
      assert.equal(good.validation, "validated", JSON.stringify(good.introduced));
      assert.equal(runs(), 2, "one cargo check before and one after for the two files of the package");
      const bad = await validateChange({ root, files: [util, edit(root, "src/lib.rs", "rust", "util::one()", "util::one() + 0")], session });
      assert.equal(bad.validation, "rejected");
      assert.equal(runs(), 4);
      assert.deepEqual(
        bad.introduced.map((d) => [d.code, d.file, d.start_line, d.start_col]),
        [["E0425", "src/lib.rs", 4, 10]],
      );
    } finally {
      session.dispose();
    }
  });

  it("Rust: a function renamed in its module and at its call in the crate root is validated; a call left behind is rejected", async () => {
    const root = tempDir("validate-rust-");
    made.push(root);
    cpSync(join(REPO_ROOT, "test", "fixtures", "llmfilewrite", "rust-project"), root, { recursive: true });
    const util = edit(root, "src/util.rs", "rust", "pub fn one()", "pub fn uno()");
    const good = await validateChange({ root, files: [util, edit(root, "src/lib.rs", "rust", "util::one()", "util::uno()")] });
    assert.equal(good.validation, "validated", JSON.stringify(good.introduced));
    const bad = await validateChange({ root, files: [util, edit(root, "src/lib.rs", "rust", "util::one()", "util::one() + 0")] });
    assert.equal(bad.validation, "rejected");
    assert.deepEqual(
      bad.introduced.map((d) => [d.code, d.file, d.start_line]),
      [["E0425", "src/lib.rs", 4]],
    );
  });
});

describe("validateChange: Java, a test source set compiles against src/main/java", () => {
  it("a wrong call of a main class in src/test/java is rejected (its class was 'cannot find symbol' before and after, and the change was validated); a good one is validated", async () => {
    const root = project("java-lang");
    const TEST = "src/test/java/org/apache/commons/lang3/BooleanUtilsTest.java";
    const bad = await validateChange({ root, files: [edit(root, TEST, "java", "BooleanUtils.and(true, false)", 'BooleanUtils.and("true", false)')] });
    assert.equal(bad.validation, "rejected", JSON.stringify(bad.checkers));
    assert.deepEqual(
      bad.introduced.map((d) => [d.file, d.start_line]),
      [[TEST, 17]],
    );
    assert.match(bad.checkers[0]?.checker ?? "", /^javac \(sourcepath src\/test\/java \+ src\/main\/java\)/);
    // (junit is not here: its old errors are the file's, and do not block.)
    const good = await validateChange({ root, files: [edit(root, TEST, "java", "BooleanUtils.and(true, false)", "BooleanUtils.and(false, true)")] });
    assert.equal(good.validation, "validated", JSON.stringify(good.introduced));
    assert.ok(good.pre_existing_count > 0);
  });
});

describe("validateChange: C, gcc stopping at a fatal error is no check", () => {
  it("a change of a file whose include gcc cannot find (no compile_commands.json) is unchecked, saying why, not validated", async () => {
    const root = project("c-include");
    // (The header where the checker would not look for it: without compile_commands.json it
    // guesses include/ and src/.)
    renameSync(join(root, "include"), join(root, "public"));
    // The definition renamed, its use inside the macro call left behind: gcc never got past
    // `#include "uv.h"`, before or after.
    const r = await validateChange({ root, files: [edit(root, "src/unix/fs.c", "c", "static ssize_t uv__fs_readlink(", "static ssize_t uv__fs_read_link(")] });
    assert.equal(r.validation, "unchecked", JSON.stringify(r));
    assert.equal(r.checkers[0]?.status, "failed");
    assert.match(r.checkers[0]?.reason ?? "", /fatal error in src\/unix\/fs\.c \(uv\.h: No such file or directory\).*NOT checked.*compile_commands\.json/);
  });

  it("names as unchecked only the file gcc stopped in: another file of the change was compiled, and its new error still rejects (leveldb: one test file's missing gmock header made all 16 files of a rename 'NOT checked')", async () => {
    const root = project("c-include");
    renameSync(join(root, "include"), join(root, "public"));
    writeFileSync(join(root, "src/count.c"), "int count(int n) {\n  return n + 1;\n}\n");
    const fine = await validateChange({
      root,
      files: [edit(root, "src/unix/fs.c", "c", "static ssize_t uv__fs_readlink(", "static ssize_t uv__fs_read_link("), edit(root, "src/count.c", "c", "n + 1", "n + 2")],
    });
    assert.equal(fine.validation, "unchecked", JSON.stringify(fine));
    const w = fine.warnings.find((d) => d.code === "checker.failed" && /NOT checked beyond syntax/.test(d.message));
    assert.ok(w, JSON.stringify(fine.warnings));
    assert.match(w.message, /so src\/unix\/fs\.c was NOT checked beyond syntax/);
    assert.doesNotMatch(w.message, /count\.c/);
    const broken = await validateChange({
      root,
      files: [edit(root, "src/unix/fs.c", "c", "static ssize_t uv__fs_readlink(", "static ssize_t uv__fs_read_link("), edit(root, "src/count.c", "c", "n + 1", "n + missing")],
    });
    assert.equal(broken.validation, "rejected", JSON.stringify(broken));
    assert.ok(broken.introduced.some((d) => d.file === "src/count.c" && /missing/.test(d.message)), JSON.stringify(broken.introduced));
  });

  // gcc 12's JSON puts a fatal error that follows a warning among that warning's children: a
  // header with `#pragma once` ("#pragma once in main file") whose include gcc could not find
  // (CLI11's shape, no compile_commands.json) came back as one warning and was called validated.
  it("a header with #pragma once whose include gcc cannot find is unchecked, not validated", async () => {
    const root = project("cpp-pragma-once");
    // (Not in include/, where the checker would find it without compile_commands.json.)
    rmSync(join(root, "include/CLI/App.hpp"));
    // `.length()` is no member of std::vector: nothing reported it, since gcc never got there.
    const r = await validateChange({ root, files: [edit(root, "include/CLI/Timer.hpp", "cpp", ".size();", ".length();")] });
    assert.equal(r.validation, "unchecked", JSON.stringify(r));
    assert.equal(r.checkers[0]?.status, "failed");
    assert.match(r.checkers[0]?.reason ?? "", /fatal error in include\/CLI\/Timer\.hpp \(CLI\/App\.hpp: No such file or directory\)/);
  });

  it("C: a call of a function no header declares any more is an error, as C (and gcc 14) has it, not gcc 12's warning", async () => {
    // zlib's shape: inffast.h's prototype renamed, inflate.c still calling the old name.
    const root = tempDir("validate-c-permerror-");
    made.push(root);
    writeFileSync(join(root, "inffast.h"), "void inflate_fast(int *strm, unsigned start);\n");
    writeFileSync(join(root, "inflate.c"), '#include "inffast.h"\n\nint inflate(int *strm) {\n    inflate_fast(strm, 1u);\n    return 0;\n}\n');
    const r = await validateChange({ root, files: [edit(root, "inffast.h", "c", "void inflate_fast(", "void inflate_quick(")] });
    assert.equal(r.validation, "rejected", JSON.stringify(r));
    const call = r.introduced.find((d) => d.file === "inflate.c");
    assert.equal(call?.level, "error", JSON.stringify(r.introduced));
    assert.equal(call?.code, "-Wimplicit-function-declaration");
  });

  it("a new header with #pragma once whose include gcc cannot find is not validated", async () => {
    const root = project("cpp-pragma-once");
    rmSync(join(root, "include/CLI/App.hpp"));
    const after = bytes('#pragma once\n\n#include "CLI/App.hpp"\n\nnamespace CLI {\ninline std::size_t count(const App &app) { return app.get_options().length(); }\n}  // namespace CLI\n');
    const r = await validateChange({ root, files: [{ path: "include/CLI/Count.hpp", language: "cpp", before: null, after }] });
    assert.notEqual(r.validation, "validated", JSON.stringify(r));
    assert.equal(r.checkers[0]?.status, "failed");
  });
});

describe("C: a changed header's includers elsewhere, through the guessed include paths", () => {
  it("are compiled against the changed header, not a same-named copy: a macro change that breaks them is rejected (uthash's tests include \"utarray.h\" with src/ on the include path)", async () => {
    const root = tempDir("validate-c-includers-");
    made.push(root);
    const header = "#ifndef ARR_H\n#define ARR_H\ntypedef struct { unsigned i; } arr;\n#define arr_len(a) ((a)->i)\n#endif\n";
    mkdirSync(join(root, "src"), { recursive: true });
    mkdirSync(join(root, "include"), { recursive: true });
    mkdirSync(join(root, "tests"), { recursive: true });
    writeFileSync(join(root, "src/arr.h"), header);
    // A release copy beside it, as uthash ships: `-I include` comes first in the guessed flags.
    writeFileSync(join(root, "include/arr.h"), header);
    writeFileSync(join(root, "tests/t1.c"), '#include "arr.h"\n\nunsigned n(arr *a) { return arr_len(a); }\n');
    const broken = header.replace("((a)->i)", "((a)->i_missing)");
    const r = await validateChange({ root, files: [{ path: "src/arr.h", language: "c", before: bytes(header), after: bytes(broken) }] });
    assert.equal(r.validation, "rejected", JSON.stringify(r));
    assert.ok(r.introduced.some((d) => d.file === "tests/t1.c" && d.start_line === 3 && /i_missing/.test(d.message)), JSON.stringify(r.introduced));
    assert.match(r.checkers[0]?.checker ?? "", /1 file including the changed header recompiled against it/);
    const fine = await validateChange({ root, files: [{ path: "src/arr.h", language: "c", before: bytes(header), after: bytes(header.replace("((a)->i)", "((a)->i + 0)")) }] });
    assert.equal(fine.validation, "validated", JSON.stringify(fine));
  });
  it("through an angle-bracket spelling too: a header library's `#include <lib/x.hpp>` (nlohmann/json: a renamed method of byte_container_with_subtype.hpp that the tests call was validated, the header compiled alone)", async () => {
    const root = tempDir("validate-cpp-angled-");
    made.push(root);
    mkdirSync(join(root, "include/lib"), { recursive: true });
    mkdirSync(join(root, "tests/src"), { recursive: true });
    const header = "#pragma once\n#include <cstdint>\n\ntemplate<typename T>\nclass container : public T\n{\n  public:\n    void clear_subtype() noexcept\n    {\n        m_subtype = 0;\n    }\n\n  private:\n    std::uint64_t m_subtype = 0;\n};\n";
    writeFileSync(join(root, "include/lib/container.hpp"), header);
    writeFileSync(join(root, "include/lib/all.hpp"), "#pragma once\n#include <lib/container.hpp>\n");
    writeFileSync(join(root, "tests/src/unit-container.cpp"), "#include <vector>\n#include <lib/all.hpp>\n\nvoid use()\n{\n    container<std::vector<int>> c;\n    c.clear_subtype();\n}\n");
    const renamed = header.replace("void clear_subtype()", "void reset_subtype()");
    const r = await validateChange({ root, files: [{ path: "include/lib/container.hpp", language: "cpp", before: bytes(header), after: bytes(renamed) }] });
    assert.equal(r.validation, "rejected", JSON.stringify(r));
    assert.ok(r.introduced.some((d) => d.file === "tests/src/unit-container.cpp" && d.start_line === 7 && /clear_subtype/.test(d.message)), JSON.stringify(r.introduced));
    assert.match(r.checkers[0]?.checker ?? "", /2 files including the changed header recompiled against it$/);
  });
});

describe("C++: an error in an unchanged header that several includers reach", () => {
  it("is one finding, not one per includer compiled (spdlog: logger.h's renamed should_log, still called in spdlog-inl.h, came back 3 times)", async () => {
    const root = tempDir("validate-cpp-reached-");
    made.push(root);
    mkdirSync(join(root, "include/lib"), { recursive: true });
    mkdirSync(join(root, "tests"), { recursive: true });
    const logger = "#pragma once\n\nnamespace lib {\nclass logger {\n  public:\n    bool should_log(int lvl) const { return lvl >= level_; }\n\n  private:\n    int level_ = 0;\n};\n}  // namespace lib\n";
    writeFileSync(join(root, "include/lib/logger.h"), logger);
    writeFileSync(join(root, "include/lib/lib-inl.h"), "#pragma once\n#include <lib/logger.h>\n\nnamespace lib {\ninline bool enabled(const logger &l, int lvl) { return l.should_log(lvl); }\n}  // namespace lib\n");
    writeFileSync(join(root, "include/lib/lib.h"), "#pragma once\n#include <lib/logger.h>\n#include <lib/lib-inl.h>\n");
    for (const t of ["a", "b", "c"]) writeFileSync(join(root, `tests/${t}.cpp`), `#include <lib/lib.h>\n\nbool ${t}(const lib::logger &l) { return lib::enabled(l, 1); }\n`);
    const renamed = logger.replace("bool should_log(", "bool level_enabled(");
    const r = await validateChange({ root, files: [{ path: "include/lib/logger.h", language: "cpp", before: bytes(logger), after: bytes(renamed) }] });
    assert.equal(r.validation, "rejected", JSON.stringify(r));
    const there = r.introduced.filter((d) => d.file === "include/lib/lib-inl.h");
    assert.equal(there.length, 1, JSON.stringify(r.introduced));
    assert.match(there[0]?.message ?? "", /should_log/);
    assert.equal(r.introduced.length, 1, JSON.stringify(r.introduced));
    // An error the header had before the change is still excused once, however many compiles reach it.
    const old = logger.replace("return lvl >= level_;", "return lvl >= level_ + missing;");
    const still = await validateChange({ root, files: [{ path: "include/lib/logger.h", language: "cpp", before: bytes(old), after: bytes(old.replace("private:", "private:\n    int spare_ = 0;")) }] });
    assert.equal(still.introduced.length, 0, JSON.stringify(still.introduced));
    assert.ok(still.pre_existing_count >= 1);
  });
});

describe("validateChange: TypeScript monorepo whose packages import each other through `paths` (mikro-orm)", () => {
  it("a package's change is checked in the enclosing config too, with the importers that reach it as '@scope/pkg': a signature that breaks a call in another package is rejected", async () => {
    const root = project("ts-paths-monorepo");
    const path = "packages/core/src/utils/Utils.ts";
    const before = readFileSync(join(root, path), "utf8");
    const after = before.replace("platform?: Platform, flat = false", "platform: Platform, flat = false");
    assert.notEqual(after, before);
    const r = await validateChange({ root, files: [{ path, language: "typescript", before: bytes(before), after: bytes(after) }], session: shared });
    assert.equal(r.validation, "rejected", JSON.stringify(r));
    assert.ok(r.introduced.some((d) => d.file === "packages/sql/src/AbstractSqlDriver.ts" && d.code === "TS2345"), JSON.stringify(r.introduced));
    // Through the alias, only what mentions a name Utils.ts exports (NamingStrategy.ts imports
    // '@acme/core' for camelCase only): the two barrels and AbstractSqlDriver.ts. QueryBuilder.ts
    // imports './utils/index.js', a name core's closure has, but sql's own utils: not counted.
    assert.match(r.checkers[0]?.checker ?? "", /packages\/core\/tsconfig\.json, .*; tsconfig\.json, 4 files checked, 3 of them importing the change\)$/);
    // A change that breaks nothing is still validated.
    const fine = before.replace("pks.join('~')", "pks.join('|')");
    const ok = await validateChange({ root, files: [{ path, language: "typescript", before: bytes(before), after: bytes(fine) }], session: shared });
    assert.equal(ok.validation, "validated", JSON.stringify(ok));
  });
});
