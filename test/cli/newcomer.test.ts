/**
 * What a newcomer types first and gets wrong: an unknown command, a kind that does not exist,
 * the help's usage line. Each answer says what is wrong and what is right.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runTool } from "../support/run.js";

type Err = { partial: boolean; data: { code: string; message: string; remediation: string } };

test("magellan: an unknown command is named as one, with the commands and a near spelling", async () => {
  const bogus = await runTool("magellan", ["bogus"]);
  assert.equal(bogus.code, 2);
  const env = bogus.json as Err;
  assert.equal(env.data.message, "unknown command 'bogus'");
  for (const c of ["index", "find", "refs", "symbols", "ast-query"]) assert.match(env.data.remediation, new RegExp(`\\b${c}\\b`));
  const typo = await runTool("magellan", ["fnd", "--name", "x"]);
  assert.equal(typo.code, 2);
  assert.match((typo.json as Err).data.message, /did you mean 'find'\?/);
});

test("magellan: --kind names a kind the index can hold, else a usage error listing them", async () => {
  for (const command of ["find", "refs"]) {
    const r = await runTool("magellan", [command, "--name", "x", "--kind", "bogus"]);
    assert.equal(r.code, 2, r.stdout);
    const env = r.json as Err;
    assert.match(env.data.message, /--kind 'bogus' is not a symbol kind; kinds: .*\bfunction\b.*\bmethod\b/);
  }
  // Every spelling of a real kind passes the flag check (the answer is then about the index).
  for (const kind of ["fn", "Function", "function", "type_alias", "TypeAlias"]) {
    const r = await runTool("magellan", ["find", "--name", "x", "--kind", kind, "--db", "/nonexistent/code.db"]);
    assert.notEqual(r.code, 2, `${kind}: ${r.stdout}`);
  }
});

test("mdsel: the help's usage line names the command once", async () => {
  const help = await runTool("mdsel", ["--help"], { raw: true });
  assert.equal(help.code, 0);
  assert.doesNotMatch(help.stdout, /\[command\] \[command\]/);
  assert.match(help.stdout, /^Usage: mdsel \[options\] <index\|select>/m);
});
