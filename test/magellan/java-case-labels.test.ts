/**
 * Java: `case FAST:` in a switch on an enum names the enum's constant, written bare. Nothing in
 * the file's scope declares it, so it was unresolved (jsoup: 9 of 12 references to
 * `TokenType.StartTag`); it is a guess among the repository's enums with that constant, nearest
 * first, since the switched value's type is not read (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

it("Java: an enum switch's case labels are references to the constants, as a guess", async () => {
  const root = tempDir("magellan-java-case-");
  writeTree(root, {
    "src/p/Token.java": "package p;\n\nclass Token {\n  enum TokenType { StartTag, EndTag }\n\n  TokenType type;\n}\n",
    "src/p/Parser.java": "package p;\n\nclass Parser {\n  int step(Token t) {\n    switch (t.type) {\n      case StartTag:\n        return 1;\n      case EndTag:\n        return 2;\n      default:\n        return 0;\n    }\n  }\n}\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const { env } = await mg(root, ["refs", "--name", "TokenType.StartTag"]);
  const refs = (env.data as { references: { span: { file_path: string; start_line: number }; resolution: string }[] }).references;
  assert.deepEqual(refs.map((r) => [r.span.file_path, r.span.start_line, r.resolution]), [["src/p/Parser.java", 6, "heuristic"]]);
});
