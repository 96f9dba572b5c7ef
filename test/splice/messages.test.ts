/**
 * Refusals that say what is wrong and what to do (findings of sweep s27, item 12): each message
 * was true of another situation than the one it answered.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runTool, tempDir, writeTree } from "../support/run.js";
import { project } from "./helpers.js";

interface Env {
  status: string;
  message: string;
  error?: { code: string; message: string; remediation?: string };
}

test("an unknown --kind says the kind is wrong and names the kinds the name has, not 'did you mean <the same name>'", async () => {
  const dir = project("python");
  const r = await runTool("splice", ["delete", "--file", "inventory.py", "--symbol", "Inventory", "--kind", "banana"], { cwd: dir });
  assert.equal(r.code, 1, r.stdout);
  const env = r.json as Env;
  assert.equal(env.error?.code, "SPLICE_E100");
  assert.match(env.message, /^unknown kind 'banana' \(no symbol of the index has it\): no symbol 'Inventory' of kind banana in inventory\.py; 'Inventory' there is of kind class$/);
  assert.doesNotMatch(env.message, /did you mean/);
  assert.equal(env.error?.remediation, "Pass --kind class, or leave --kind out.");
  // A kind the index knows, which this name does not have.
  const m = await runTool("splice", ["delete", "--file", "inventory.py", "--symbol", "Inventory", "--kind", "function"], { cwd: dir });
  assert.match((m.json as Env).message, /^no symbol 'Inventory' of kind function in inventory\.py; 'Inventory' there is of kind class$/);
});

test("a plan's YAML syntax error gets a remediation about the YAML, an empty plan says it has no steps (no --steps flag)", async () => {
  const dir = tempDir("splice-messages-");
  writeFileSync(join(dir, "bad.yaml"), "steps:\n  - command: edit\n   file: m.py\n");
  const bad = await runTool("splice", ["batch", "--plan", "bad.yaml"], { cwd: dir });
  assert.equal(bad.code, 2, bad.stdout);
  const e = (bad.json as Env).error;
  assert.match(e?.message ?? "", /--plan bad\.yaml is not valid YAML: /);
  assert.doesNotMatch(e?.remediation ?? "", /Send one document/);
  assert.match(e?.remediation ?? "", /Fix the YAML where the message says \(line:column\)/);
  writeFileSync(join(dir, "empty.yaml"), "steps: []\n");
  const empty = await runTool("splice", ["batch", "--plan", "empty.yaml"], { cwd: dir });
  assert.equal(empty.code, 2, empty.stdout);
  assert.equal((empty.json as Env).message, "--plan empty.yaml: the plan has no steps");
  assert.doesNotMatch(empty.stdout, /--steps/);
});

test("log --limit takes a positive count: -1 is a usage error", async () => {
  const dir = tempDir("splice-messages-");
  const r = await runTool("splice", ["log", "--limit", "-1"], { cwd: dir });
  assert.equal(r.code, 2, r.stdout);
  assert.match((r.json as Env).message, /--limit: /);
  const ok = await runTool("splice", ["log", "--limit", "3"], { cwd: dir });
  assert.equal(ok.code, 0, ok.stdout);
});

test("llmfilewrite: a directory as --path is refused as a directory before any language question", async () => {
  const dir = tempDir("lfw-messages-");
  mkdirSync(join(dir, "source", "core"), { recursive: true });
  for (const path of ["source/core/", "source/core"]) {
    const r = await runTool("llmfilewrite", ["--root", dir, "--path", path, "--content", "x"], { cwd: dir });
    assert.equal(r.code, 1, r.stdout);
    const env = r.json as Env;
    assert.equal(env.error?.code, "LLMFILEWRITE_E104");
    assert.match(env.message, /^source\/core is a directory, not a file$/);
    assert.doesNotMatch(env.error?.remediation ?? "", /--language/);
  }
  const named = await runTool("llmfilewrite", ["--root", dir, "--path", "source/new/", "--content", "x"], { cwd: dir });
  assert.match((named.json as Env).message, /source\/new\/ names a directory \(it ends with '\/'\), not a file/);
});

test("a rename the checker rejects says what the rename left behind, not 'Fix the new text' (Go: an implementation gopls did not rename)", async () => {
  const dir = writeTree(tempDir("splice-messages-go-"), {
    "go.mod": "module example.com/m\n\ngo 1.19\n",
    "shapes.go": "package m\n\ntype Shape interface{ Area() int }\n\ntype Sq struct{ S int }\n\nfunc (s Sq) Area() int { return s.S * s.S }\n\nvar _ Shape = Sq{2}\n",
  });
  const r = await runTool("splice", ["rename", "--file", "shapes.go", "--symbol", "Shape.Area", "--to", "Size", "--dry-run"], { cwd: dir });
  assert.equal(r.code, 1, r.stdout);
  const env = r.json as Env;
  assert.equal(env.error?.code, "SPLICE_E110", r.stdout);
  assert.doesNotMatch(env.error?.remediation ?? "", /Fix the new text/);
  assert.match(env.error?.remediation ?? "", /^The rename left code that no longer compiles .*an implementation the engine did not rename.*splice batch: a rename step for each implementing method/);
});

test("a JavaScript private member is selected by name (ky's `Ky.#calculateDelay`, `#calculateDelay`): the '#' is its name's, not a separator", async () => {
  const dir = writeTree(tempDir("splice-messages-private-"), {
    "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022" }, "include": ["source"] }\n',
    "source/Ky.ts": "export class Ky {\n\t#retryCount = 0;\n\n\t#calculateDelay(): number {\n\t\treturn 0.3 * 2 ** this.#retryCount;\n\t}\n\n\tdelay(): number {\n\t\treturn this.#calculateDelay();\n\t}\n}\n",
  });
  for (const symbol of ["Ky.#calculateDelay", "#calculateDelay", "Ky##calculateDelay"]) {
    const r = await runTool("splice", ["rename", "--file", "source/Ky.ts", "--symbol", symbol, "--to", "#computeDelay", "--dry-run"], { cwd: dir });
    assert.equal(r.code, 0, `${symbol}: ${r.stdout}`);
    assert.match((r.json as { result: { diff: string } }).result.diff, /\+\t\treturn this\.#computeDelay\(\);/);
  }
  // Javadoc's Class#member still names a member of a class.
  const javadoc = await runTool("splice", ["delete", "--file", "source/Ky.ts", "--symbol", "Ky#delay", "--dry-run"], { cwd: dir });
  assert.equal(javadoc.code, 0, javadoc.stdout);
});

test("a name the file does not define but another file does is refused naming where it is defined, not 'did you mean' (cJSON.h's prototype, cJSON.c's definition)", async () => {
  const dir = writeTree(tempDir("splice-messages-proto-"), {
    "list.h": "#ifndef LIST_H\n#define LIST_H\nstruct item { struct item *next; };\nint list_len(const struct item *head);\n#endif\n",
    "list.c": '#include "list.h"\n\nint list_len(const struct item *head) {\n    int n = 0;\n    for (; head != 0; head = head->next) n++;\n    return n;\n}\n',
  });
  const r = await runTool("splice", ["delete", "--file", "list.h", "--symbol", "list_len", "--dry-run"], { cwd: dir });
  assert.equal(r.code, 1, r.stdout);
  const env = r.json as Env;
  assert.equal(env.error?.code, "SPLICE_E100");
  assert.equal(env.message, "no symbol 'list_len' in list.h (a function's prototype is no symbol: its definition is); 'list_len' is defined elsewhere: function list_len at list.c:3");
  assert.match(env.error?.remediation ?? "", /^Give --file list\.c \(a rename there changes the declarations in list\.h too\), or change the text of list\.h with splice edit/);
});
