/**
 * A pattern copied from the code, `fn main() {`, is a regex of an empty group and (read as text,
 * where ripgrep refuses it) a `{`: it looks for "fn main {" and matches nothing. The "matched
 * nothing" note said "try --ignore-case, a looser pattern", so an agent concluded the function
 * was not there. When the regex does not match its own text, the note now says so and names -F.
 */
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Diagnostic } from "../../src/contract/schema.js";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { REPO_ROOT, runTool } from "../support/run.js";

const FIXTURE = join(REPO_ROOT, "test", "fixtures", "llmsearch", "operator-hint");

async function search(args: string[]): Promise<{ data: LlmsearchData; diagnostics?: Diagnostic[] }> {
  const r = await runTool("llmsearch", ["--root", FIXTURE, ...args]);
  return r.json as { data: LlmsearchData; diagnostics?: Diagnostic[] };
}

function hint(env: { diagnostics?: Diagnostic[] }): string {
  const d = env.diagnostics?.find((x) => x.code === "LLMSEARCH_E107");
  assert.ok(d, JSON.stringify(env.diagnostics));
  return d.remediation ?? "";
}

test("a regex that matched nothing and does not match its own text names -F in the note", async () => {
  for (const pattern of ["fn main() {", "fn run(args: &[String]) -> io::Result<()>", "io::Result<()>"]) {
    const env = await search(["-e", pattern]);
    assert.equal(env.data.total_count, 0, pattern);
    assert.match(hint(env), /does not match its own text.*-F \(--fixed-strings/, pattern);
    // ... and the text as written is there.
    const fixed = await search(["-F", "-e", pattern]);
    assert.equal(fixed.data.total_count, 1, pattern);
  }
  assert.match(hint(await search(["-e", "fn main() {"])), /`\(\)` is an empty group/);
});

test("no such hint where the regex matches its own text, is plainly meant as one, or -F was given", async () => {
  for (const args of [
    ["-e", "struct Config {"], // `{` is text, the regex matches its own text
    ["-e", "fn zzz\\(\\)"], // escaped
    ["-e", "\\w+Zzz"], // a class escape: meant as a regex
    ["-e", "^fn zzz$"], // anchors at the ends
    ["-F", "-e", "fn zzz() {"],
    ["-F", "-e", "fn zzz() {", "-e", "qq("], // several -F patterns arrive as one escaped alternation
  ]) {
    const env = await search(args);
    assert.equal(env.data.total_count, 0, args.join(" "));
    assert.doesNotMatch(hint(env), /own text/, args.join(" "));
  }
});
