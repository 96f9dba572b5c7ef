/**
 * Java through imports (test/fixtures/splice-rename/java-imports, javapoet's shape): a statically
 * imported method (`import static com.acme.spec.Util.checkState;`), a nested enum with its own
 * constructor (`TypeSpec.Kind`) imported by another package, and a file that imports a library's
 * `Kind` (`javax.tools.JavaFileObject.Kind`) beside it. On javapoet, deleting `Util.checkState`
 * listed none of its 22 calls, renaming it wanted `--allow-heuristic` for every one, and renaming
 * `TypeSpec.Kind` left the enum's constructor behind (javac: "enum constant not expected here")
 * and took JavaFile's `Kind.SOURCE` and its `import javax.tools.JavaFileObject.Kind` as guesses.
 * Real javac compiles the result.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { runTool, tempDir } from "../support/run.js";
import { copyFixture } from "./rename-helpers.js";

const SPEC = "src/main/java/com/acme/spec";

function javaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? javaFiles(join(dir, f)) : f.endsWith(".java") ? [join(dir, f)] : []));
}

function javac(root: string): string {
  const r = spawnSync("javac", ["-d", tempDir("java-imports-classes-"), ...javaFiles(join(root, "src"))], { encoding: "utf8" });
  return r.status === 0 ? "" : `${r.stdout}${r.stderr}`;
}

interface Out {
  status: string;
  message: string;
  error?: { code: string };
  result?: { validation: string; steps: { locations?: { file: string; evidence: string }[] }[] };
}

const read = (root: string, file: string): string => readFileSync(join(root, file), "utf8");

it("Java: a nested enum is renamed with its constructor and its importers, not a library's same-named import", async () => {
  const root = copyFixture("java-imports");
  assert.equal(javac(root), "");
  const javaFileBefore = read(root, `${SPEC}/JavaFile.java`);
  const r = await runTool("splice", ["rename", "--file", `${SPEC}/TypeSpec.java`, "--symbol", "TypeSpec.Kind", "--to", "SpecKind", "--require-checker"], { cwd: root });
  const out = r.json as Out;
  assert.equal(out.status, "ok", r.stdout);
  assert.equal(out.result?.validation, "validated");
  const spec = read(root, `${SPEC}/TypeSpec.java`);
  assert.match(spec, /public enum SpecKind \{/);
  assert.match(spec, /\n {4}SpecKind\(String keyword\) \{/);
  assert.doesNotMatch(spec, /\bKind\b/);
  assert.equal(read(root, `${SPEC}/JavaFile.java`), javaFileBefore);
  const main = read(root, "src/main/java/com/acme/app/Main.java");
  assert.match(main, /import com\.acme\.spec\.TypeSpec\.SpecKind;/);
  assert.match(main, /SpecKind kind = spec\.kind;/);
  assert.match(main, /kind == SpecKind\.INTERFACE/);
  assert.equal(javac(root), "");
});

it("Java: a statically imported method's calls are its references, for delete and rename", async () => {
  const root = copyFixture("java-imports");
  const del = await runTool("splice", ["delete", "--file", `${SPEC}/Util.java`, "--symbol", "checkState"], { cwd: root });
  const refused = del.json as Out;
  assert.equal(refused.error?.code, "SPLICE_E108", del.stdout);
  for (const at of [`${SPEC}/JavaFile.java:3:`, `${SPEC}/JavaFile.java:15:`, `${SPEC}/TypeSpec.java:4:`, `${SPEC}/TypeSpec.java:25:`]) assert.ok(refused.message.includes(at), `${at} not in ${refused.message}`);

  const r = await runTool("splice", ["rename", "--file", `${SPEC}/Util.java`, "--symbol", "checkState", "--to", "ensureState", "--require-checker"], { cwd: root });
  const out = r.json as Out;
  assert.equal(out.status, "ok", r.stdout);
  const evidence = (out.result?.steps[0]?.locations ?? []).map((l) => `${l.file.split("/").pop()}:${l.evidence}`).sort();
  assert.deepEqual(evidence, ["JavaFile.java:imported", "JavaFile.java:imported", "TypeSpec.java:imported", "TypeSpec.java:imported", "Util.java:exact"]);
  assert.match(read(root, `${SPEC}/JavaFile.java`), /import static com\.acme\.spec\.Util\.ensureState;[^]*\n {4}ensureState\(typeSpec/);
  assert.equal(javac(root), "");
});
