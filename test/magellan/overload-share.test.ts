/**
 * What `refs`/`callers` cannot see, said rather than implied by an empty answer: Java calls that
 * the index, which reads no argument types, tied to a sibling overload of the same argument count
 * (jsoup's `charset("ascii")` went to `charset(Charset)`, and the String overload answered 0 with
 * no word), and a C macro's uses inside other macros' bodies (uthash's HASH_ADD_TO_BKT) (real
 * tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

it("Java: callers of an overload say how many calls of its arity a sibling overload took, and that the answer is partial", async () => {
  const root = tempDir("magellan-overload-share-");
  writeTree(root, {
    "src/p/Out.java": "package p;\n\nimport java.nio.charset.Charset;\n\npublic class Out {\n  public Out charset(Charset c) { return this; }\n\n  public Out charset(String name) { return this; }\n\n  public Charset charset() { return null; }\n}\n",
    "src/p/Use.java": "package p;\n\npublic class Use {\n  void run(Out o) {\n    o.charset(\"ascii\");\n    o.charset();\n  }\n}\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const ids = ((await mg(root, ["find", "--name", "Out.charset"])).env.data as { matches: { symbol_id: string; span: { start_line: number } }[] }).matches;
  const byString = ids.find((m) => m.span.start_line === 8)?.symbol_id as string;
  const byCharset = ids.find((m) => m.span.start_line === 6)?.symbol_id as string;
  const none = ids.find((m) => m.span.start_line === 10)?.symbol_id as string;
  const { env } = await mg(root, ["callers", "--symbol-id", byString]);
  assert.equal(env.partial, true);
  const w = (env.diagnostics ?? []).find((d) => /tied to an overload of the same name by position/.test(d.message));
  assert.ok(w, JSON.stringify(env.diagnostics));
  assert.match(w.message, /^1 call\(s\) whose argument count also fits/);
  assert.ok((w.remediation ?? "").includes(byCharset));
  // The no-argument overload shares no arity with them: nothing to say.
  const zero = await mg(root, ["callers", "--symbol-id", none]);
  assert.equal(zero.env.partial, false);
  assert.ok(!(zero.env.diagnostics ?? []).some((d) => /by position/.test(d.message)));
});

it("C: refs of a macro say that uses inside other macros' bodies are not indexed", async () => {
  const root = tempDir("magellan-macro-bodies-");
  writeTree(root, { "h.h": "#define ADD_TO_BKT(b) ((b) + 1)\n#define ADD(h) ADD_TO_BKT(h)\n" });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const { env } = await mg(root, ["refs", "--name", "ADD_TO_BKT"]);
  assert.ok((env.diagnostics ?? []).some((d) => /inside the bodies of other #define macros are not indexed/.test(d.message) && d.message.includes("llmsearch -w ADD_TO_BKT")), JSON.stringify(env.diagnostics));
});
