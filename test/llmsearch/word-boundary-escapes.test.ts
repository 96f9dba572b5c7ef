/**
 * `\<`, `\>` and `\b{start}`, `\b{end}`, `\b{start-half}`, `\b{end-half}` are word boundaries, as
 * in GNU grep and Rust's regex 1.10 (ripgrep 14). They had been read as the characters '<', '>'
 * and the text "{start}", so `\<client\>` on httpx matched nothing and said only "no match".
 */
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { compilePattern } from "../../src/text/regex.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";
const SRC = [
  "client = httpx.Client()",
  "async_client = httpx.AsyncClient()",
  "with client.stream('GET', url) as r:  # <client> is closed here",
  "clientele = [client_id, clients]",
  "résumé_client = client2",
  "",
].join("\n");

before(() => {
  root = tempDir("llmsearch-wordb-");
  writeTree(root, { "httpx_usage.py": SRC });
});

async function spans(pattern: string, extra: string[] = []): Promise<[number, number][]> {
  const r = await runTool("llmsearch", ["--root", root, ...extra, "-e", pattern], { cwd: root });
  assert.equal(r.code, 0, JSON.stringify(r.json));
  const data = (r.json as { data: { matches: { span: { byte_start: number; byte_end: number } }[] } }).data;
  return data.matches.map((m) => [m.span.byte_start, m.span.byte_end]);
}

function offsets(re: RegExp): [number, number][] {
  const bytes = (i: number): number => Buffer.byteLength(SRC.slice(0, i));
  return [...SRC.matchAll(new RegExp(re.source, "gu"))].map((m) => [bytes(m.index), bytes(m.index + m[0].length)]);
}

test("\\<client\\> finds the word client, as -w client does", async () => {
  const word = await spans("client", ["-w"]);
  // line 1's 'client', and line 3's 'client.stream' and '<client>'
  assert.equal(word.length, 3, JSON.stringify(word));
  assert.deepEqual(await spans("\\<client\\>"), word);
  assert.deepEqual(await spans("\\b{start}client\\b{end}"), word);
});

test("\\< and \\> alone: a word's start and end, with Unicode word characters", async () => {
  // 'résumé_client' is one word (é and _ are word characters), so its 'client' starts no word.
  assert.deepEqual(await spans("\\<client"), offsets(/(?<![\p{L}\p{N}_])client/u));
  assert.deepEqual(await spans("client\\>"), offsets(/client(?![\p{L}\p{N}_])/u));
  assert.deepEqual(await spans("\\<\\w+_client\\>"), offsets(/(?<![\p{L}\p{N}_])[\p{L}\p{N}_]+_client(?![\p{L}\p{N}_])/u));
});

test("the half boundaries assert one side only", async () => {
  // `\b{start-half}` holds before "<client>"'s 'c' and at a word's start; `\b{end-half}` at its end.
  assert.deepEqual(await spans("\\b{start-half}client"), offsets(/(?<![\p{L}\p{N}_])client/u));
  assert.deepEqual(await spans("client\\b{end-half}"), offsets(/client(?![\p{L}\p{N}_])/u));
  // Zero-width between two non-word characters, where \b{start} does not hold.
  assert.deepEqual(await spans(" \\b{end-half}="), offsets(/ =/));
  assert.equal(offsets(/ =/).length, 4);
  assert.deepEqual(await spans(" \\b{start}="), []);
});

test("the translation: boundaries, not the characters '<' '>' or the text '{start}'", () => {
  const run = (p: string, text: string): string[] => {
    const c = compilePattern({ pattern: p });
    return [...text.matchAll(new RegExp(c.source, `${c.flags.replace("g", "")}g`))].map((m) => `${m.index}`);
  };
  assert.deepEqual(run("\\<a", "a <a ba"), ["0", "3"]);
  assert.deepEqual(run("a\\>", "a a> ab"), ["0", "2"]);
  assert.deepEqual(run("\\b{start}a\\b{end}", "a {start}a a"), ["0", "9", "11"]);
  assert.deepEqual(run("x\\b{end-half}", "x xy x-"), ["0", "5"]);
  // A quantifier takes the whole assertion, as after \b (JS refuses a quantified lookbehind).
  assert.deepEqual(run("\\<?a", "a ba"), ["0", "3"]);
  // \b itself is unchanged.
  assert.deepEqual(run("\\ba\\b", "a ab a"), ["0", "5"]);
});
