import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { checksum } from "../../src/text/checksum.js";
import { runTool } from "../support/run.js";
import { type Envelope, lineOf, listFiles, project, removeProjects, scratchDir } from "./helpers.js";

after(removeProjects);

// One project for the whole file: every run of the TypeScript checker starts it cold.
let root: string;
before(() => {
  root = project("ts-project");
  // A script (no import/export) whose declarations are global to the project. Written here, not
  // kept in the fixture, so the repository's own build does not pick up the global.
  writeFileSync(join(root, "src/globals.d.ts"), "declare const BUILD_ID: string;\n");
});

const lfw = (args: string[], input?: string, env?: Record<string, string>) =>
  runTool("llmfilewrite", ["--root", root, ...args], { cwd: root, input, ...(env ? { env } : {}) });

describe("llmfilewrite TypeScript (compiler API in the project's tsconfig)", () => {
  it("approves valid content, writes it atomically and reports the checksum of what was written", async () => {
    const content = 'import { add, type Point } from "./math.js";\n\nexport const origin: Point = { x: add(0, 0), y: 0 };\nexport const build: string = BUILD_ID;\n';
    const r = await lfw(["--path", "src/origin.ts", "--content", content]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.status, "approved");
    assert.equal(env.result?.language, "TypeScript");
    assert.match(env.result?.lsp_used ?? "", /^typescript \d+\.\d+\.\d+ \(llmtools' own: the project has none\) compiler API \(tsconfig\.json, 1 file checked, 0 of them importing the change\)$/);
    assert.deepEqual(env.result?.diagnostics, []);
    const written = readFileSync(join(root, "src/origin.ts"));
    assert.equal(written.toString("utf8"), content);
    assert.equal(env.result?.checksum, checksum(written));
    assert.equal(env.result?.written, true);
  });

  it("rejects a type error with its TS code and line, and writes nothing", async () => {
    const content = 'import { add } from "./math.js";\n\n// a comment line\nexport const total: string = add(1, 2);\n';
    const before = listFiles(root);
    const r = await lfw(["--path", "src/total.ts"], content);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(env.status, "rejected");
    const d = env.result?.diagnostics.find((x) => x.code === "TS2322");
    assert.ok(d, `no TS2322 in ${r.stdout}`);
    assert.equal(d.level, "error");
    assert.equal(d.source, "typescript");
    assert.equal(d.start_line, lineOf(content, "total: string"));
    // The span covers exactly the offending name, in bytes of the content.
    assert.equal(Buffer.from(content).subarray(d.byte_start, d.byte_end).toString(), "total");
    assert.equal(d.pre_existing, false);
    assert.ok(!existsSync(join(root, "src/total.ts")));
    assert.deepEqual(listFiles(root), before, "no partial or temp file left");
  });

  it("marks errors the replaced file already had as pre-existing and does not reject for them; a new error still rejects", async () => {
    const old = 'export const legacy: number = "not a number";\n';
    writeFileSync(join(root, "src/legacy.ts"), old);
    const sum = checksum(Buffer.from(old));
    // The same old error, two lines lower, plus a valid addition.
    const next = '// moved down\n\nexport const legacy: number = "not a number";\nexport const fine = 1;\n';
    const ok = await lfw(["--path", "src/legacy.ts", "--overwrite", "--expected-checksum", sum, "--content", next]);
    const env = ok.json as Envelope;
    assert.equal(ok.code, 0, ok.stdout);
    assert.equal(env.status, "approved");
    const d = env.result?.diagnostics.find((x) => x.code === "TS2322");
    assert.ok(d);
    assert.equal(d.pre_existing, true);
    assert.equal(d.start_line, 3);
    assert.equal(env.result?.overwritten, true);
    assert.equal(readFileSync(join(root, "src/legacy.ts"), "utf8"), next);

    const worse = `${next}export const broken: boolean = 3;\n`;
    const bad = await lfw(["--path", "src/legacy.ts", "--overwrite", "--content", worse]);
    const benv = bad.json as Envelope;
    assert.equal(bad.code, 1, bad.stdout);
    assert.equal(benv.status, "rejected");
    const introduced = benv.result?.diagnostics.filter((x) => !x.pre_existing) ?? [];
    assert.deepEqual(introduced.map((x) => [x.code, x.start_line]), [["TS2322", 5]]);
    assert.equal(readFileSync(join(root, "src/legacy.ts"), "utf8"), next, "rejected overwrite leaves the file as it was");
  });

  it("keeps the compiler's V8 code cache private to the user, and a damaged cache changes nothing but speed", async () => {
    const tmp = scratchDir("lfw-tmpdir-");
    const content = 'import { add } from "./math.js";\n\nexport const wrong: string = add(1, 2);\n';
    const run = () => lfw(["--path", "src/cached.ts", "--dry-run", "--content", content], undefined, { TMPDIR: tmp });
    const first = await run();
    assert.equal(first.code, 1, first.stdout);
    const dir = join(tmp, `llmtools-v8-cache-${process.getuid?.() ?? 0}`);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    // The compiler's cache (the bin keeps one for its own bundle beside it).
    const caches = readdirSync(dir).filter((n) => !n.startsWith("llmfilewrite.bundle.cjs-"));
    assert.equal(caches.length, 1, `one cache file, no temp file left: ${caches.join(", ")}`);
    assert.match(caches[0] as string, /^typescript-[0-9a-f]{32}\.v8$/);
    const cache = join(dir, caches[0] as string);
    assert.ok(statSync(cache).size > 100_000, "the cache holds compiled code");
    // Damaged (V8 refuses it): the check is the same, and the cache is written afresh.
    writeFileSync(cache, Buffer.alloc(4096, 7));
    const second = await run();
    assert.equal(second.code, 1, second.stdout);
    const d = (second.json as Envelope).result?.diagnostics.find((x) => x.code === "TS2322");
    assert.equal(d?.start_line, 3);
    assert.ok(statSync(cache).size > 100_000, "rewritten");
    // Someone else's directory is never used: a world-writable one is left alone.
    rmSync(dir, { recursive: true });
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    const third = await run();
    assert.equal(third.code, 1, third.stdout);
    assert.deepEqual(readdirSync(dir), []);
  });

  it("refuses to replace an existing file without --overwrite and leaves it unchanged", async () => {
    const before = readFileSync(join(root, "src/math.ts"));
    const r = await lfw(["--path", "src/math.ts", "--content", "export const x = 1;\n"]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(env.status, "error");
    assert.equal(env.error?.code, "LLMFILEWRITE_E101");
    assert.match(env.error?.remediation ?? "", /--overwrite/);
    assert.deepEqual(readFileSync(join(root, "src/math.ts")), before);
  });

  it("refuses an overwrite whose --expected-checksum does not match", async () => {
    const before = readFileSync(join(root, "src/math.ts"));
    const r = await lfw(["--path", "src/math.ts", "--overwrite", "--expected-checksum", `sha256:${"0".repeat(64)}`, "--content", "export const x = 1;\n"]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(env.error?.code, "LLMFILEWRITE_E102");
    assert.ok(env.error?.message.includes(checksum(before)));
    assert.deepEqual(readFileSync(join(root, "src/math.ts")), before);
  });

  it("refuses ../ and symlinks that lead out of the workspace root (usage, exit 2)", async () => {
    const outside = scratchDir("lfw-outside-");
    const r = await lfw(["--path", "../escape.ts", "--content", "export const x = 1;\n"]);
    assert.equal(r.code, 2, r.stdout);
    assert.equal((r.json as Envelope).error?.code, "LLMFILEWRITE_E001");
    symlinkSync(outside, join(root, "out"));
    const s = await lfw(["--path", "out/escape.ts", "--content", "export const x = 1;\n"]);
    assert.equal(s.code, 2, s.stdout);
    assert.equal((s.json as Envelope).error?.code, "LLMFILEWRITE_E001");
    assert.deepEqual(listFiles(outside), []);
  });

  it("refuses a file it cannot validate, and bad flags, as usage errors", async () => {
    const r = await lfw(["--path", "notes.txt", "--content", "hello\n"]);
    assert.equal(r.code, 2, r.stdout);
    assert.equal((r.json as Envelope).error?.code, "LLMFILEWRITE_E103");
    const c = await lfw(["--path", "src/a.ts", "--content", "x", "--from", "/dev/null"]);
    assert.equal(c.code, 2);
    assert.equal((c.json as Envelope).error?.code, "LLMFILEWRITE_E000");
    const t = await lfw(["--path", "src/a.ts", "--content", "x", "--reject-on", "never"]);
    assert.equal(t.code, 2);
    const huge = join(scratchDir("lfw-huge-"), "huge.ts");
    writeFileSync(huge, Buffer.alloc(17 * 1024 * 1024, 0x20));
    const h = await lfw(["--path", "src/a.ts", "--from", huge]);
    assert.equal(h.code, 1);
    assert.equal((h.json as Envelope).error?.code, "LLMFILEWRITE_E007");
    assert.ok(!existsSync(join(root, "src/a.ts")));
  });
});

describe("llmfilewrite JavaScript beside a tsconfig.json that does not allow JavaScript", () => {
  it("checks a new .js file as tsc would leave it, outside that project (axios: tsconfig.json for its .d.ts tests), not rejected for TS6504", async () => {
    const own = project("ts-project");
    mkdirSync(join(own, "lib"));
    writeFileSync(join(own, "lib/utils.js"), "export function isForm(thing) {\n  return !!thing;\n}\n");
    const run = (args: string[]) => runTool("llmfilewrite", ["--root", own, ...args], { cwd: own });
    const good = "import { isForm } from './utils.js';\n\nexport default function check(x) {\n  return isForm(x);\n}\n";
    const r = await run(["--path", "lib/check.js", "--dry-run", "--content", good]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.validation, "validated");
    assert.ok(!env.result?.diagnostics.some((d) => d.code === "TS6504"), r.stdout);
    assert.match(env.result?.lsp_used ?? "", /no jsconfig\.json or tsconfig\.json that allows JavaScript: default options/);
  });
});

describe("llmfilewrite TypeScript: a tsconfig `extends` that does not resolve here", () => {
  it("is a checker.config warning naming it, and the file unchecked (rejected under --require-checker), not validated under other options (got extends @sindresorhus/tsconfig, not installed)", async () => {
    const own = project("ts-project");
    writeFileSync(join(own, "tsconfig.json"), '{\n\t"extends": "@acme/tsconfig",\n\t"compilerOptions": {\n\t\t"outDir": "dist"\n\t},\n\t"include": ["src"]\n}\n');
    const run = (args: string[]) => runTool("llmfilewrite", ["--root", own, ...args], { cwd: own });
    const content = "export function f(): number {\n\tconst unused = 1;\n\treturn 2;\n}\n";
    const r = await run(["--path", "src/unused.ts", "--dry-run", "--content", content]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.validation, "unchecked");
    assert.match(env.message, /NOT validated by a checker \(tsconfig\.json not fully applied; checked without the project's own options/);
    const w = env.result?.diagnostics.find((d) => d.code === "checker.config");
    assert.ok(w, r.stdout);
    assert.equal(w.file, "tsconfig.json");
    assert.match(w.message, /tsconfig extends '@acme\/tsconfig', which does not resolve here .*NOT applied/);
    const strict = await run(["--path", "src/unused.ts", "--require-checker", "--content", content]);
    assert.equal(strict.code, 1, strict.stdout);
    assert.equal((strict.json as Envelope).result?.validation, "rejected");
    assert.ok(!existsSync(join(own, "src/unused.ts")));
    // With the config it extends installed, its options apply: the unused local is the file's error.
    mkdirSync(join(own, "node_modules/@acme/tsconfig"), { recursive: true });
    writeFileSync(join(own, "node_modules/@acme/tsconfig/package.json"), '{ "name": "@acme/tsconfig", "version": "1.0.0", "main": "tsconfig.json" }\n');
    writeFileSync(join(own, "node_modules/@acme/tsconfig/tsconfig.json"), '{ "compilerOptions": { "strict": true, "noUnusedLocals": true, "module": "node16", "moduleResolution": "node16", "target": "es2022", "skipLibCheck": true } }\n');
    const fixed = await run(["--path", "src/unused.ts", "--dry-run", "--content", content]);
    assert.equal(fixed.code, 1, fixed.stdout);
    assert.equal((fixed.json as Envelope).result?.diagnostics.find((d) => !d.pre_existing)?.code, "TS6133");
  });
});

describe("llmfilewrite TypeScript: a dependency package.json declares but node_modules lacks", () => {
  it("is no error of the new file: unchecked with a checker.missing_dependency warning (got's @sindresorhus/is, not installed); an undeclared package is still the file's error", async () => {
    const own = project("ts-project");
    writeFileSync(join(own, "package.json"), '{\n\t"name": "demo",\n\t"type": "module",\n\t"dependencies": {\n\t\t"@acme/is": "^7.0.0"\n\t}\n}\n');
    const run = (args: string[]) => runTool("llmfilewrite", ["--root", own, ...args], { cwd: own });
    const content = "import is from '@acme/is';\n\nexport default function isStr(x: unknown): boolean {\n\treturn is.string(x);\n}\n";
    const r = await run(["--path", "src/is-str.ts", "--dry-run", "--content", content]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.validation, "unchecked");
    assert.match(env.message, /dependency @acme\/is not installed/);
    const w = env.result?.diagnostics.find((d) => d.code === "checker.missing_dependency");
    assert.ok(w, r.stdout);
    assert.equal(w.start_line, 1);
    assert.match(w.message, /@acme\/is \(declared in package\.json\) is not installed here/);
    assert.ok(!env.result?.diagnostics.some((d) => d.code === "TS2307"), r.stdout);
    const strict = await run(["--path", "src/is-str.ts", "--require-checker", "--content", content]);
    assert.equal(strict.code, 1, strict.stdout);
    assert.ok(!existsSync(join(own, "src/is-str.ts")));
    const typo = await run(["--path", "src/is-str.ts", "--dry-run", "--content", content.replace("@acme/is", "@acme/iss")]);
    assert.equal(typo.code, 1, typo.stdout);
    assert.match((typo.json as Envelope).message, /first TS2307 .*Cannot find module '@acme\/iss'/);
    // A real error beside the missing package still rejects the file.
    const bad = await run(["--path", "src/is-str.ts", "--dry-run", "--content", `${content}export const n: number = "x";\n`]);
    assert.equal(bad.code, 1, bad.stdout);
    assert.match((bad.json as Envelope).message, /1 introduced error\(s\), first TS2322/);
  });
});
