/**
 * llmsearch writes its matches as they are found, to a spool (src/cli/stream.ts), because
 * `partial`, which precedes them, is known only at the end. The document must stay exactly
 * JSON.stringify of the envelope, hold what the tool function returns, keep the answer's order,
 * and say partial when a file after thousands of matches runs past its time budget.
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { LIST_MARK, ListStream } from "../../src/cli/stream.js";
import type { LlmsearchData, LlmsearchMatch } from "../../src/contract/tools/llmsearch.js";
import { search, type SearchRequest } from "../../src/tools/llmsearch/search.js";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

interface Env {
  partial: boolean;
  data: LlmsearchData;
  diagnostics?: { code: string; message: string }[];
}

let root = "";
/** TMPDIR of the CLI runs: the spool must leave nothing there. */
let spoolDir = "";

before(() => {
  // Real JavaScript and TypeScript, and directory names whose walk order differs from path order
  // ("x-y/" sorts before "x/", "x.ts" between them).
  root = tempDir("llmsearch-stream-");
  const take = (from: string, dest: string, ext: RegExp, max: number): void => {
    mkdirSync(join(root, dest), { recursive: true });
    for (const f of readdirSync(from).filter((n) => ext.test(n)).sort().slice(0, max)) cpSync(join(from, f), join(root, dest, f));
  };
  take(join(REPO_ROOT, "node_modules", "commander", "lib"), "x", /\.js$/, 20);
  take(join(REPO_ROOT, "node_modules", "commander", "typings"), "x-y", /\.d\.ts$/, 5);
  take(join(REPO_ROOT, "node_modules", "zod", "v4", "core"), "zod-core", /\.ts$/, 30);
  writeFileSync(join(root, "x.ts"), "export const e = () => {\n  return 'between x-y/ and x/';\n};\n");
  // One file with more matches than a piece (2,000) of a literal the main thread finds alone.
  mkdirSync(join(root, "logs"));
  writeFileSync(join(root, "logs", "build.log"), Array.from({ length: 4500 }, (_, i) => `warning: TODO(${i}) unused import in module ${i % 97}\n`).join(""));
  spoolDir = tempDir("llmsearch-spool-");
});

/** (The launcher keeps its V8 code cache in TMPDIR too.) */
const spoolFiles = (): string[] => readdirSync(spoolDir).filter((n) => n.startsWith("llmtools-spool"));

const run = (args: string[]) => runTool("llmsearch", ["--root", root, ...args], { env: { TMPDIR: spoolDir } });

function inPathOrder(matches: LlmsearchMatch[]): void {
  for (let k = 1; k < matches.length; k++) {
    const a = (matches[k - 1] as LlmsearchMatch).span;
    const b = (matches[k] as LlmsearchMatch).span;
    assert.ok(a.file_path < b.file_path || (a.file_path === b.file_path && a.byte_start < b.byte_start), `path then offset order at ${k}: ${a.file_path}:${a.byte_start} then ${b.file_path}:${b.byte_start}`);
  }
}

test("the streamed answer is exactly JSON.stringify of its envelope, compact and --pretty, and holds what the tool function returns", async () => {
  // "e": a regex for the threads (no literal); "return": a literal the main thread finds alone.
  for (const pattern of ["e", "return"]) {
    const direct = await search({ root, pattern, threads: 2 });
    const data = direct.data as LlmsearchData;
    assert.ok(data.match_count > (pattern === "e" ? 5000 : 300), `many matches to stream (${data.match_count})`);
    assert.equal(data.match_count, data.total_count);
    inPathOrder(data.matches);
    assert.deepEqual([...new Set(data.matches.map((m) => m.span.file_path.split("/")[0]))], pattern === "e" ? ["logs", "x-y", "x.ts", "x", "zod-core"] : ["x-y", "x.ts", "x", "zod-core"]);
    for (const pretty of [false, true]) {
      for (const threads of ["1", "3"]) {
        const r = await run(["-e", pattern, "-j", threads, ...(pretty ? ["--pretty"] : [])]);
        assert.equal(r.code, 0, r.stderr);
        const env = r.json as Env;
        assert.equal(r.stdout, `${pretty ? JSON.stringify(env, null, 2) : JSON.stringify(env)}\n`, `byte-exact (${pattern}, pretty ${pretty}, -j ${threads})`);
        assert.equal(env.partial, false);
        assert.deepEqual(env.data, data, `${pattern} -j ${threads}: the same data as the tool function`);
      }
    }
  }
  assert.deepEqual(spoolFiles(), [], "no spool file left behind");
});

test("--limit: the first N in the answer's order, partial with the true total; a limit that does not cut is a whole answer", async () => {
  const all = (await run(["-e", "e", "-j", "2"])).json as Env;
  const total = all.data.match_count;
  const cut = await run(["-e", "e", "-j", "2", "--limit", "7"]);
  assert.equal(cut.code, 4);
  const c = cut.json as Env;
  assert.equal(cut.stdout, `${JSON.stringify(c)}\n`);
  assert.equal(c.partial, true);
  assert.equal(c.data.match_count, 7);
  assert.equal(c.data.total_count, total);
  assert.deepEqual(c.data.matches, all.data.matches.slice(0, 7));
  assert.match(c.diagnostics?.map((d) => d.message).join("\n") ?? "", new RegExp(`first 7 of ${total} matches`));
  const whole = await run(["-e", "e", "-j", "2", "--limit", String(total)]);
  assert.equal(whole.code, 0);
  assert.deepEqual((whole.json as Env).data, all.data);
  // A cut inside one file's second piece of matches.
  const todo = (await run(["-e", "TODO"])).json as Env;
  assert.equal(todo.data.match_count, 4500);
  const mid = await run(["-e", "TODO", "--limit", "2100"]);
  assert.equal(mid.code, 4);
  assert.deepEqual((mid.json as Env).data.matches, todo.data.matches.slice(0, 2100));
});

test("a file that runs past its time budget after thousands of matches were written makes the header say partial", async () => {
  const dir = tempDir("llmsearch-stream-late-");
  cpSync(root, dir, { recursive: true });
  // Last in path order: every other file's matches are spooled before it times out.
  writeFileSync(join(dir, "zz-evil.txt"), `${"a".repeat(5000)}b\n`);
  const r = await runTool("llmsearch", ["--root", dir, "--timeout", "1000", "-j", "2", "-e", "e|(a+)+$"], { env: { TMPDIR: spoolDir }, timeoutMs: 30_000 });
  assert.equal(r.code, 4, r.stderr);
  const env = r.json as Env;
  assert.equal(r.stdout, `${JSON.stringify(env)}\n`);
  assert.equal(env.partial, true);
  assert.ok(r.stdout.indexOf('"partial":true') < r.stdout.indexOf('"matches":['), "partial is in the header, before the matches");
  assert.deepEqual(env.data.files_skipped.map((s) => [s.file_path, s.reason]), [["zz-evil.txt", "timeout"]]);
  assert.ok(env.data.match_count > 5000, `the matches before it are all there (${env.data.match_count})`);
  assert.equal(env.data.match_count, env.data.total_count);
  assert.ok(env.diagnostics?.some((d) => d.code === "LLMSEARCH_E103"));
  const direct = await search({ root, pattern: "e|(a+)+$", threads: 2 });
  assert.deepEqual(env.data.matches, (direct.data as LlmsearchData).matches, "the same matches as without the hostile file");
  assert.deepEqual(spoolFiles(), []);
});

test("the sink gets every match once, in the answer's order; several start paths (walked one after the other) too", async () => {
  const cases: Omit<SearchRequest, "root">[] = [
    { pattern: "e", threads: 2 },
    { pattern: "return", threads: 1 },
    // Pieces: schemas.d.ts has 5,000+ "e" (threads), build.log 4,500 "TODO" (the main thread).
    { pattern: "TODO", threads: 2 },
    // Overlapping, out of order: the walk meets zod-core before x-y, and x/ twice.
    { pattern: "e", threads: 2, paths: [join(root, "zod-core"), join(root, "x"), join(root, "x-y"), join(root, "x", "help.js"), join(root, "x.ts")] },
  ];
  for (const c of cases) {
    const direct = await search({ root, ...c });
    const got: LlmsearchMatch[] = [];
    const res = await search({ root, ...c }, { write: (ms) => void got.push(...ms) });
    assert.equal(res.streamed, true);
    const data = res.data as LlmsearchData;
    assert.deepEqual(data.matches, []);
    assert.equal(data.match_count, got.length);
    assert.equal(data.total_count, got.length, "every match counted was delivered");
    assert.deepEqual(got, (direct.data as LlmsearchData).matches, JSON.stringify(c));
    inPathOrder(got);
  }
  // --count and -l answers are small: they come back whole, the sink is not used.
  const counted = await search({ root, pattern: "e", count: true }, { write: () => assert.fail("no matches with --count") });
  assert.equal(counted.streamed, false);
});

test("ListStream spooling: the header is the final envelope's, the items are copied out whole (multi-byte text across 1 MiB chunks), an empty list prints whole, discard leaves nothing", async () => {
  const items = Array.from({ length: 50_000 }, (_, i) => ({ i, text: `é€😀 line ${i} ${"x".repeat(i % 100)}` }));
  for (const pretty of [false, true]) {
    const show = (v: unknown): string => (pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v));
    const env = (partial: boolean, list: unknown[], n: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ a: 1, partial, data: { q: "x", list, n }, ...extra });
    const chunks: Buffer[] = [];
    const s = new ListStream(pretty, (c) => void chunks.push(Buffer.from(c)), { spool: true });
    s.open(env(false, [LIST_MARK], 0));
    for (let k = 0; k < items.length; k += 1000) s.write(items.slice(k, k + 1000));
    assert.equal(chunks.length, 0, "nothing is written before the end");
    await s.finish(env(true, [LIST_MARK], items.length, { diagnostics: [{ level: "note" }] }));
    const text = Buffer.concat(chunks).toString("utf8");
    assert.ok(Buffer.byteLength(text) > 2 * 1024 * 1024, "large enough to be copied in several chunks");
    assert.equal(text, `${show(env(true, items, items.length, { diagnostics: [{ level: "note" }] }))}\n`);
    assert.equal(s.ended, true);

    let out = "";
    const empty = new ListStream(pretty, (c) => void (out += String(c)), { spool: true });
    empty.open(env(false, [LIST_MARK], 0));
    await empty.finish(env(true, [LIST_MARK], 0));
    assert.equal(out, `${show(env(true, [], 0))}\n`);

    const dropped = new ListStream(pretty, () => assert.fail("a discarded stream writes nothing"), { spool: true });
    dropped.open(env(false, [LIST_MARK], 0));
    dropped.write(items.slice(0, 5000));
    dropped.discard();
    assert.equal(dropped.ended, true);
    assert.throws(() => dropped.write(items.slice(0, 1)), /outside open/);

    const moved = new ListStream(pretty, () => undefined, { spool: true });
    moved.open(env(false, [LIST_MARK], 0));
    moved.write(items.slice(0, 1));
    // Compact text has no indentation to keep: only --pretty cares where the list is.
    if (pretty) await assert.rejects(moved.finish({ a: 1, data: { deeper: { list: [LIST_MARK] } } }), /moved/);
    moved.discard();
  }
});

test("ListStream spooling without a writable temporary directory holds the items in memory and prints the same document", async () => {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = join(tempDir("llmsearch-no-tmp-"), "missing");
  try {
    const items = Array.from({ length: 3000 }, (_, i) => ({ i, text: `é ${"y".repeat(i % 40)}` }));
    let out = "";
    const s = new ListStream(false, (c) => void (out += String(c)), { spool: true });
    s.open({ partial: false, data: { list: [LIST_MARK] } });
    s.write(items);
    await s.finish({ partial: true, data: { list: [LIST_MARK] } });
    assert.equal(out, `${JSON.stringify({ partial: true, data: { list: items } })}\n`);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});
