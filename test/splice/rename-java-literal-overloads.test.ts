/**
 * javapoet's `MethodSpec.Builder.addStatement` is overloaded: `(String format, Object... args)` and
 * `(CodeBlock codeBlock)`. Both take one argument, so the index ties `.addStatement("return null")`
 * to either by name and count only. Renaming the CodeBlock overload listed seven such calls with
 * a string literal among its name-only locations (and --allow-heuristic renamed them: javac then
 * rejected "String cannot be converted to CodeBlock"), beside the one real guess,
 * `.addStatement(named(…))`. A string literal argument cannot go to a CodeBlock parameter.
 * (test/fixtures/splice-rename/java-literal-overloads; real javac validates.)
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { runTool } from "../support/run.js";
import { copyFixture } from "./rename-helpers.js";

const GEN = "src/main/java/com/acme/gen";

async function idOf(root: string, params: string): Promise<string> {
  execFileSync("git", ["init", "-q", root]);
  const r = await runTool("splice", ["rename", "--file", `${GEN}/Method.java`, "--symbol", "Method.Builder.addStatement", "--to", "x", "--dry-run"], { cwd: root });
  const message = (r.json as { error?: { message: string } }).error?.message ?? "";
  const m = new RegExp(String.raw`([0-9a-f]{16}) Method Method\.Builder\.addStatement\(${params.replace(/[.()]/g, "\\$&")}\)`).exec(message);
  assert.ok(m, message);
  return m[1] as string;
}

it("Java: a call passing a string literal is no name-only use of an overload that takes no String", async () => {
  const root = copyFixture("java-literal-overloads");
  const id = await idOf(root, "Code code");
  const refused = await runTool("splice", ["rename", "--symbol-id", id, "--to", "addCode", "--dry-run"], { cwd: root });
  const error = (refused.json as { error?: { code: string; message: string } }).error;
  assert.equal(error?.code, "SPLICE_E203", refused.stdout);
  // Only `.addStatement(named("n"))` (Gen.java:14) and the delegating `addStatement(Code.of(…))`
  // (Method.java:19) are guesses; the four string-literal calls are not.
  assert.match(error?.message ?? "", /would touch 2 location\(s\) tied to it by name only: src\/main\/java\/com\/acme\/gen\/Gen\.java:14, src\/main\/java\/com\/acme\/gen\/Method\.java:19$/);
  const r = await runTool("splice", ["rename", "--symbol-id", id, "--to", "addCode", "--allow-heuristic", "--require-checker"], { cwd: root });
  const out = r.json as { status: string; result?: { validation: string } };
  assert.equal(out.status, "ok", r.stdout);
  assert.equal(out.result?.validation, "validated");
  const gen = readFileSync(join(root, GEN, "Gen.java"), "utf8");
  assert.match(gen, /\.addCode\(named\("n"\)\)/);
  assert.equal(gen.match(/\.addStatement\(/g)?.length, 4);
  assert.match(readFileSync(join(root, GEN, "Method.java"), "utf8"), /return addCode\(Code\.of\(format, args\)\);/);
});

it("Java: the String overload keeps the string-literal calls among its own", async () => {
  const root = copyFixture("java-literal-overloads");
  const id = await idOf(root, "String format, Object... args");
  const refused = await runTool("splice", ["rename", "--symbol-id", id, "--to", "addLine", "--dry-run"], { cwd: root });
  const message = (refused.json as { error?: { message: string } }).error?.message ?? "";
  for (const line of [10, 12, 15]) assert.match(message, new RegExp(`Gen\\.java:${line}\\b`));
});
