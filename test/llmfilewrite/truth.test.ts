/**
 * Issue 18: validation that tells the truth, and llmfilewrite on hostile ground (item 8).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { REPO_ROOT, runTool } from "../support/run.js";
import { type Envelope, listFiles, project, removeProjects, scratchDir } from "./helpers.js";

after(removeProjects);

const lfw = (root: string, args: string[], env?: Record<string, string>) =>
  runTool("llmfilewrite", ["--root", root, ...args], { cwd: root, env });

/** A PATH holding only node (the bin's shebang needs it): no compiler is found. */
function pathWithoutCheckers(): string {
  const bin = scratchDir("lfw-path-");
  symlinkSync(process.execPath, join(bin, "node"));
  return bin;
}

type Result = NonNullable<Envelope["result"]>;

describe("llmfilewrite: never 'validated' when no checker ran", () => {
  it("a .go file with no Go toolchain is written as validation 'unchecked' with a warning saying why; --require-checker rejects it", async () => {
    const root = project("c-project");
    const PATH = pathWithoutCheckers();
    const content = "package main\n\nfunc main() {}\n";
    const r = await lfw(root, ["--path", "cmd/main.go", "--content", content], { PATH });
    const env = r.json as Envelope;
    const res = env.result as Result;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(res.validation, "unchecked");
    assert.doesNotMatch(env.message, /and validated/);
    assert.match(env.message, /NOT validated/);
    assert.equal(res.checkers?.[0]?.status, "absent");
    const w = res.diagnostics.find((d) => d.code === "checker.absent");
    assert.equal(w?.level, "warning");
    assert.match(w?.message ?? "", /go was not found/);
    assert.equal(res.lsp_used, "none");

    const strict = await lfw(root, ["--path", "cmd/other.go", "--require-checker", "--content", content], { PATH });
    assert.equal(strict.code, 1, strict.stdout);
    assert.equal((strict.json as Envelope).status, "rejected");
    assert.equal(((strict.json as Envelope).result as Result).validation, "rejected");
    assert.ok(!existsSync(join(root, "cmd/other.go")));
  });

  it("`export type * from` (TypeScript 5) is written: the compiler accepted it, tree-sitter's complaint is a parser-limit warning", async () => {
    const root = project("ts-project");
    const r = await lfw(root, ["--path", "src/all.ts", "--content", "export type * from './math.js';\n"]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal((env.result as Result).validation, "validated");
    const w = env.result?.diagnostics.find((d) => d.code === "parser.limit");
    assert.equal(w?.level, "warning");
    assert.ok(existsSync(join(root, "src/all.ts")));
    // That note is about the parser, not the code: --reject-on warning does not reject on it.
    const strict = await lfw(root, ["--path", "src/all2.ts", "--reject-on", "warning", "--content", "export type * from './math.js';\n"]);
    assert.equal(strict.code, 0, strict.stdout);
    assert.ok(existsSync(join(root, "src/all2.ts")));
  });

  it("tree-sitter's gate has the parse time budget: text its recovery chokes on does not hold the write for half a minute, and the compiler decides", async () => {
    const root = project("ts-project");
    // 8,000 generic call signatures on lines of their own: a 32 s parse without a budget.
    const slow = `export interface Overloads {\n${"  a: B\n  <K>(k: K): K\n".repeat(8000)}}\n`;
    const t0 = Date.now();
    const from = join(scratchDir("lfw-slow-"), "slow.ts");
    writeFileSync(from, slow);
    const r = await lfw(root, ["--path", "src/slow.ts", "--dry-run", "--from", from], { MAGELLAN_MAX_PARSE_SECONDS: "0.5" });
    assert.ok(Date.now() - t0 < 20_000, `took ${Date.now() - t0} ms`);
    const env = r.json as Envelope;
    assert.ok(env.result?.diagnostics.some((d) => d.code === "parser.limit" && /did not finish reading src\/slow\.ts in 0\.5 s/.test(d.message)), r.stdout.slice(0, 2000));
    // (The compiler's own errors: `B` is nowhere, `a` declared 8,000 times.)
    assert.equal(env.result?.validation, "rejected");
    assert.ok(env.result?.diagnostics.some((d) => d.code === "TS2304"));
  });

  it("uses the project's own typescript package when it has one, and says which", async () => {
    const root = project("ts-project");
    // A project-local compiler: a copy of the package's entry point under the project's node_modules.
    const ours = join(process.cwd(), "node_modules", "typescript");
    mkdirSync(join(root, "node_modules"), { recursive: true });
    symlinkSync(ours, join(root, "node_modules", "typescript"));
    const r = await lfw(root, ["--path", "src/p.ts", "--dry-run", "--content", "export const p = 1;\n"]);
    assert.equal(r.code, 0, r.stdout);
    assert.match((r.json as Envelope).result?.lsp_used ?? "", /^typescript \d+\.\d+\.\d+ \(the project's own\)/);
  });
});

describe("llmfilewrite on hostile ground (issue 18, items 3 and 8)", () => {
  it("refuses a path inside .git/ with a clear code, writing nothing", async () => {
    const root = project("c-project");
    const r = await lfw(root, ["--path", ".git/hooks/pre-commit", "--language", "c", "--content", "int x;\n"]);
    assert.equal(r.code, 2, r.stdout);
    assert.equal((r.json as Envelope).error?.code, "LLMFILEWRITE_E010");
    assert.ok(!existsSync(join(root, ".git/hooks/pre-commit")));
  });

  it("a dangling symlink as --path is a clean refusal with a code, not E999 with a stack trace", async () => {
    const root = project("c-project");
    symlinkSync("nowhere.c", join(root, "src/dangling.c"));
    const r = await lfw(root, ["--path", "src/dangling.c", "--overwrite", "--content", "int x;\n"]);
    const env = r.json as Envelope;
    assert.equal(r.code, 2, r.stdout);
    assert.equal(env.error?.code, "LLMFILEWRITE_E005");
    assert.match(env.error?.message ?? "", /symlink to a file that does not exist/);
    assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at /);
  });

  it("temp files left by killed runs (dead pids) are removed by the next write of that file", async () => {
    const root = project("c-project");
    // A pid that is not running: a finished child's.
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    const stale = `.helper.c.${dead}.0123456789ab.tmp`;
    writeFileSync(join(root, "src", stale), Buffer.alloc(1 << 20));
    const r = await lfw(root, ["--path", "src/helper.c", "--overwrite", "--content", '#include "answer.h"\n\nint helper(int value) { return value + MODE; }\n']);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(!readdirSync(join(root, "src")).includes(stale), listFiles(root).join(" "));
    assert.deepEqual(((r.json as Envelope).result as Result).removed_temps, [`src/${stale}`]);
  });
});

describe("llmfilewrite: errors that were there before are not the new file's", () => {
  it("a Java project whose module-info.java does not compile here accepts a good new class and rejects a bad one for its own error", async () => {
    const root = scratchDir("lfw-java-module-");
    cpSync(join(REPO_ROOT, "test", "fixtures", "validate", "java-module"), root, { recursive: true });
    const good = await lfw(root, ["--path", "src/com/example/util/Ints.java", "--content", "package com.example.util;\n\npublic final class Ints {\n    public static int twice(int x) { return 2 * x; }\n}\n"]);
    assert.equal(good.code, 0, good.stdout);
    assert.equal(((good.json as Envelope).result as Result).validation, "validated");
    const bad = await lfw(root, ["--path", "src/com/example/util/Bad.java", "--content", 'package com.example.util;\n\npublic final class Bad {\n    public static int twice(int x) { return "s"; }\n}\n']);
    assert.equal(bad.code, 1, bad.stdout);
    const introduced = (bad.json as Envelope).result?.diagnostics.filter((d) => !d.pre_existing && d.level === "error") ?? [];
    assert.deepEqual(introduced.map((d) => [d.file, d.start_line]), [["src/com/example/util/Bad.java", 4]]);
  });

  it("a Rust file not yet in the mod tree is compiled with its crate: its type error rejects it", async () => {
    const root = project("rust-project");
    const r = await lfw(root, ["--path", "src/extra.rs", "--content", 'pub fn two() -> u32 {\n    "two"\n}\n']);
    assert.equal(r.code, 1, r.stdout);
    const env = r.json as Envelope;
    assert.ok(env.result?.diagnostics.some((d) => d.code === "E0308" && d.start_line === 2), r.stdout);
    assert.match(env.result?.lsp_used ?? "", /not in the mod tree/);
    assert.ok(!existsSync(join(root, "src/extra.rs")));
  });
});
