import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { validateContent, ValidationSession } from "../../src/validate/index.js";
import { ContentPositions } from "../../src/validate/positions.js";
import { TsWorker } from "../../src/validate/checkers/typescript.js";
import { treeSitterGate } from "../../src/validate/treesitter.js";
import { tempDir } from "../support/run.js";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const made: string[] = [];
const scratch = (): string => {
  const d = tempDir("lfw-validate-");
  made.push(d);
  return d;
};
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const slice = (bytes: Uint8Array, s?: number, e?: number): string => Buffer.from(bytes).subarray(s, e).toString("utf8");

describe("validate: tree-sitter gate", () => {
  it("reports ERROR and MISSING nodes with exact byte spans, after multibyte text", () => {
    // "é" and "😀" are 2 and 4 bytes but 1 and 2 UTF-16 units: spans must still be bytes.
    const text = 'const s = "é😀";\nfunction f( {\n  return 1;\n}\n';
    const bytes = Buffer.from(text);
    const out = treeSitterGate("typescript", new ContentPositions(bytes), "a.ts");
    assert.ok(out.diagnostics.length > 0);
    for (const d of out.diagnostics) {
      assert.equal(d.level, "error");
      assert.equal(d.source, "tree-sitter");
      assert.ok(d.byte_start !== undefined && d.byte_end !== undefined && d.byte_end <= bytes.length);
      // Line/column and byte offset agree: the column is the byte distance from the line start.
      const lineStart = bytes.subarray(0, d.byte_start).lastIndexOf(10) + 1;
      assert.equal(d.start_col, (d.byte_start as number) - lineStart);
      if (d.code === "syntax.MISSING") assert.equal(d.byte_start, d.byte_end);
      else assert.equal(slice(bytes, d.byte_start, d.byte_end).trim().length > 0, true);
    }
    assert.ok(out.diagnostics.every((d) => (d.start_line as number) >= 2), JSON.stringify(out.diagnostics));
  });

  it("Go: a statement at a file's top level is a syntax error (tree-sitter-go takes it, the compiler does not)", () => {
    const good = "package cmd\n\nimport \"fmt\"\n\n// T is a type.\ntype T int\n\nvar v = 1\n\nconst c = 2\n\nfunc (t T) m() {}\n\nfunc f() { x := 1; fmt.Println(x) }\n";
    assert.deepEqual(treeSitterGate("go", new ContentPositions(Buffer.from(good)), "cmd/a.go").diagnostics, []);
    const bad = Buffer.from(`${good}\nx := 1\nfor {\n}\n`);
    const found = treeSitterGate("go", new ContentPositions(bad), "cmd/a.go").diagnostics;
    assert.ok(found.length > 0, JSON.stringify(found));
    const first = found[0] as { start_line?: number; message: string; byte_start?: number; byte_end?: number };
    assert.equal(first.start_line, 16);
    assert.match(first.message, /expected a declaration at the top level, found `x := 1`/);
    assert.equal(slice(bad, first.byte_start, first.byte_end), "x := 1");
  });

  it("finds nothing in valid code", () => {
    const out = treeSitterGate("python", new ContentPositions(Buffer.from("def f(x):\n    return x\n")), "a.py");
    assert.deepEqual(out.diagnostics, []);
  });

  it("a MISSING token is zero-width where it was expected", () => {
    const bytes = Buffer.from("int main(void) { return 0 }\n");
    const out = treeSitterGate("c", new ContentPositions(bytes), "a.c");
    const m = out.diagnostics.find((d) => d.code === "syntax.MISSING");
    assert.ok(m, JSON.stringify(out.diagnostics));
    assert.equal(m.message, "syntax error: missing `;`");
    assert.equal(m.byte_start, bytes.indexOf("0 }") + 1);
  });
});

describe("validate: validateContent", () => {
  it("splits pre-existing from introduced findings position-insensitively, one old finding excusing one new", async () => {
    const root = scratch();
    const old = "int f(void) {\n  return missing_a;\n}\n";
    // The old error moved down two lines, and a second identical one appears.
    const next = "/* moved */\n\nint f(void) {\n  return missing_a;\n}\nint g(void) {\n  return missing_a;\n}\n";
    const r = await validateContent({ root, relPath: "x.c", language: "c", content: Buffer.from(next), previousContent: Buffer.from(old), timeoutMs: 30_000 });
    const gcc = r.diagnostics.filter((d) => d.source === "gcc" && d.level === "error");
    assert.deepEqual(gcc.map((d) => [d.start_line, d.pre_existing]), [[4, true], [7, false]]);
    assert.deepEqual(r.introduced, { errors: 1, warnings: 0 });
    assert.deepEqual(r.checkers_run, ["tree-sitter", "gcc -fsyntax-only"]);
  });

  it("flags content that is not valid UTF-8", async () => {
    const root = scratch();
    const bytes = Buffer.concat([Buffer.from("int x = 1; /* "), Buffer.from([0xff, 0xfe]), Buffer.from(" */\n")]);
    const r = await validateContent({ root, relPath: "x.c", language: "c", content: bytes, timeoutMs: 30_000 });
    assert.ok(r.diagnostics.some((d) => d.code === "content.invalid_utf8" && d.level === "error"));
  });

  it("one session serves several TypeScript files; byte columns are exact on CRLF and multibyte lines", async () => {
    const root = scratch();
    writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" } }));
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "src/dep.ts"), "export const n: number = 1;\n");
    const session = new ValidationSession();
    try {
      const a = 'import { n } from "./dep";\r\nconst é = "ü"; export const bad: string = n;\r\n';
      const ra = await validateContent({ root, relPath: "src/a.ts", language: "typescript", content: Buffer.from(a), timeoutMs: 30_000 }, session);
      const d = ra.diagnostics.find((x) => x.code === "TS2322");
      assert.ok(d, JSON.stringify(ra.diagnostics));
      assert.equal(d.start_line, 2);
      assert.equal(slice(Buffer.from(a), d.byte_start, d.byte_end), "bad");
      assert.equal(d.start_col, Buffer.byteLength('const é = "ü"; export const '));
      const b = 'import { n } from "./dep";\nexport const ok: number = n;\n';
      const rb = await validateContent({ root, relPath: "src/b.ts", language: "typescript", content: Buffer.from(b), timeoutMs: 30_000 }, session);
      assert.deepEqual(rb.diagnostics, []);
      assert.deepEqual(readdirSync(join(root, "src")).sort(), ["dep.ts"], "validation writes nothing");
    } finally {
      session.dispose();
    }
  });

  it("TypeScript: types from a JavaScript dependency's JSDoc count; a global script not imported counts; old and new content share one session", async () => {
    const root = scratch();
    writeFileSync(
      join(root, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, allowJs: true, checkJs: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" }, include: ["src"] }),
    );
    mkdirSync(join(root, "src"));
    // Only the JSDoc says what `same` returns: skip it and the call is `any`, the error gone.
    writeFileSync(join(root, "src/same.js"), "/**\n * @param {number} n\n * @returns {number}\n */\nexport function same(n) {\n  return n;\n}\n");
    writeFileSync(join(root, "src/env.d.ts"), "declare const RELEASE: boolean;\n");
    const session = new ValidationSession();
    try {
      const next = 'import { same } from "./same.js";\n\nexport const label: string = same(2);\nexport const flag: number = RELEASE;\n';
      const previous = 'import { same } from "./same.js";\n\nexport const label: string = same(1);\n';
      const r = await validateContent({ root, relPath: "src/use.ts", language: "typescript", content: Buffer.from(next), previousContent: Buffer.from(previous), timeoutMs: 60_000 }, session);
      const found = r.diagnostics.filter((d) => d.source === "typescript").map((d) => [d.code, d.start_line, d.pre_existing]);
      assert.deepEqual(found, [
        ["TS2322", 3, true],
        ["TS2322", 4, false],
      ], JSON.stringify(r.diagnostics));
      assert.deepEqual(r.introduced, { errors: 1, warnings: 0 });
    } finally {
      session.dispose();
    }
  });

  it("TypeScript: after an overwrite, later files of the session see the file's new content, not its old", async () => {
    const root = scratch();
    writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" } }));
    mkdirSync(join(root, "src"));
    const oldDep = "export const n: number = 1;\n";
    writeFileSync(join(root, "src/dep.ts"), oldDep);
    const session = new ValidationSession();
    try {
      const newDep = 'export const n: string = "one";\n';
      const r = await validateContent({ root, relPath: "src/dep.ts", language: "typescript", content: Buffer.from(newDep), previousContent: Buffer.from(oldDep), timeoutMs: 60_000 }, session);
      assert.deepEqual(r.diagnostics, []);
      const use = 'import { n } from "./dep";\nexport const k: number = n;\n';
      const u = await validateContent({ root, relPath: "src/use.ts", language: "typescript", content: Buffer.from(use), timeoutMs: 60_000 }, session);
      assert.deepEqual(u.diagnostics.map((d) => [d.code, d.start_line]), [["TS2322", 2]], JSON.stringify(u.diagnostics));
    } finally {
      session.dispose();
    }
  });

  it("a checker that runs out of time is a warning, never a silent pass", async () => {
    const root = scratch();
    const r = await validateContent({ root, relPath: "m.py", language: "python", content: Buffer.from("x: int = 1\n"), timeoutMs: 1 });
    assert.equal(r.lsp_used, "none");
    const w = r.diagnostics.find((d) => d.code === "checker.timeout");
    assert.equal(w?.level, "warning");
    assert.match(w?.message ?? "", /pyright gave no answer/);
  });

  it("the in-process TypeScript check is bounded too: its worker is stopped at the deadline", async () => {
    const root = scratch();
    const r = await validateContent({ root, relPath: "m.ts", language: "typescript", content: Buffer.from("export const x = 1;\n"), timeoutMs: 1 });
    assert.equal(r.lsp_used, "none");
    assert.ok(r.diagnostics.some((d) => d.code === "checker.timeout" && d.level === "warning"), JSON.stringify(r.diagnostics));
  });
});

describe("validate: ValidationSession", () => {
  it("a checker started after the session was disposed is stopped at once, so it cannot hold the process open", { timeout: 20_000 }, async () => {
    // llmfilewrite hung after answering when a check that started before a failure registered its
    // TypeScript worker with a session its caller had already disposed.
    const session = new ValidationSession();
    const before = session.get("typescript-worker:test", () => new TsWorker());
    assert.equal(before.alive, true);
    session.dispose();
    assert.equal(before.alive, false, "dispose stops what the session holds");
    const late = session.get("typescript-worker:test", () => new TsWorker());
    assert.equal(late.alive, false, "and what starts after it");
    // Its check fails rather than waiting for an answer that cannot come.
    const r = await late.check({ root: tempDir("validate-late-"), abs: "/x.ts", javascript: false, text: "export {};\n" });
    assert.equal(r.ok, false);
  });
});
