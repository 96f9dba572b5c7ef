import assert from "node:assert/strict";
import { test } from "node:test";
import { ListStream, LIST_MARK } from "../../src/cli/stream.js";
import { queryEnvelope } from "../../src/contract/envelope.js";
import { search, type MatchSink } from "../../src/tools/llmastsearch/search.js";
import type { AstMatch } from "../../src/tools/llmastsearch/scan.js";
import { runTool } from "../support/run.js";
import { checkMatches, type Data, realCode } from "./helpers.js";

const QUERY = "(identifier) @i";

test("a streamed answer is exactly JSON.stringify of its envelope, compact and --pretty, and holds what the tool function returns", async () => {
  const root = realCode();
  const direct = await search({ root, query: { text: QUERY, origin: "<query>" }, threads: 1 });
  assert.ok(direct.data.match_count > 1000, `many matches to stream (${direct.data.match_count})`);
  for (const pretty of [false, true]) {
    for (const threads of ["1", "3"]) {
      const r = await runTool("llmastsearch", ["--root", root, "-q", QUERY, "-j", threads, ...(pretty ? ["--pretty"] : [])]);
      assert.equal(r.code, 0, r.stderr);
      const env = r.json as Record<string, unknown> & { data: Data };
      assert.equal(r.stdout, `${pretty ? JSON.stringify(env, null, 2) : JSON.stringify(env)}\n`, `byte-exact (pretty ${pretty}, -j ${threads})`);
      // (zod's .d.ts files write `in T` / `out O` variance annotations, which this grammar cannot
      // parse: the identifiers in them come with the W114 warning.)
      assert.deepEqual(Object.keys(env), [...Object.keys(queryEnvelope("llmastsearch", "search", {})), "diagnostics"]);
      assert.deepEqual((env.diagnostics as { code: string }[]).map((d) => d.code), ["LLMASTSEARCH_W114"]);
      assert.deepEqual(env.data, direct.data, `-j ${threads}: the same data as the tool function`);
    }
  }
  checkMatches(root, direct.data as unknown as Data);
});

test("--limit: the first N in the answer's order, partial with the true total; a limit that does not cut is a whole answer", async () => {
  const root = realCode();
  const all = (await runTool("llmastsearch", ["--root", root, "-q", QUERY, "-j", "2"])).json as { data: Data };
  const total = all.data.match_count;
  const cut = await runTool("llmastsearch", ["--root", root, "-q", QUERY, "-j", "2", "--limit", "7"]);
  assert.equal(cut.code, 4);
  const c = cut.json as { partial: boolean; data: Data; diagnostics: { code: string; message: string }[] };
  assert.equal(c.partial, true);
  assert.equal(c.data.match_count, 7);
  assert.equal(c.data.total_matches, total);
  assert.deepEqual(c.data.matches, all.data.matches.slice(0, 7));
  assert.match(c.diagnostics.map((d) => d.message).join("\n"), new RegExp(`7 of ${total} matches`));
  const whole = await runTool("llmastsearch", ["--root", root, "-q", QUERY, "-j", "2", "--limit", String(total)]);
  assert.equal(whole.code, 0);
  assert.deepEqual((whole.json as { data: Data }).data, all.data);
});

test("the sink gets every match once, in the answer's order, after one open; the response then holds none", async () => {
  const root = realCode();
  const query = { text: QUERY, origin: "<query>" };
  const direct = await search({ root, query, threads: 2 });
  const got: AstMatch[] = [];
  const opens: boolean[] = [];
  const sink: MatchSink = {
    open: (head, partial) => {
      assert.equal(got.length, 0, "opened before any match");
      assert.equal(head.query, QUERY);
      opens.push(partial);
    },
    write: (ms) => got.push(...ms),
  };
  const res = await search({ root, query, threads: 2 }, sink);
  assert.deepEqual(opens, [false]);
  assert.equal(res.streamed, true);
  assert.deepEqual(res.data.matches, []);
  assert.equal(res.data.match_count, direct.data.match_count);
  assert.deepEqual(got, direct.data.matches);
  // Nothing matched: never opened, the response says why as before.
  const none = await search({ root, query: { text: '((identifier) @i (#eq? @i "noSuchNameAnywhere"))', origin: "<query>" } }, sink);
  assert.equal(none.streamed, false);
  assert.equal(opens.length, 1);
  assert.match(JSON.stringify(none.diagnostics), /no matches/);
});

test("ListStream: an empty list prints whole, a failure after the first items still ends one JSON document, a changed head is refused", () => {
  for (const pretty of [false, true]) {
    const show = (v: unknown): string => (pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v));
    const env = (items: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({ a: 1, data: { q: "x", list: items, n: 2 }, ...extra });
    let out = "";
    const s = new ListStream(pretty, (t) => (out += t));
    s.open(env([LIST_MARK]));
    s.write([{ k: [1, 2] }]);
    s.write([]);
    s.write([{ k: "two\nlines" }]);
    s.close(env([LIST_MARK], { diagnostics: [{ level: "note" }] }));
    assert.equal(out, `${show(env([{ k: [1, 2] }, { k: "two\nlines" }], { diagnostics: [{ level: "note" }] }))}\n`);

    out = "";
    const empty = new ListStream(pretty, (t) => (out += t));
    empty.open(env([LIST_MARK]));
    empty.close(env([LIST_MARK]));
    assert.equal(out, `${show(env([]))}\n`);

    out = "";
    const failing = new ListStream(pretty, (t) => (out += t));
    failing.open(env([LIST_MARK]));
    failing.write([{ k: 1 }]);
    failing.abort({ level: "error", code: "X_E999" });
    const parsed = JSON.parse(out) as { data: { list: unknown[] }; diagnostics: { code: string }[] };
    assert.deepEqual(parsed.data.list, [{ k: 1 }]);
    assert.equal(parsed.diagnostics.at(-1)?.code, "X_E999");
    assert.equal(failing.ended, true);

    const changed = new ListStream(pretty, () => undefined);
    changed.open(env([LIST_MARK]));
    changed.write([{ k: 1 }]);
    assert.throws(() => changed.close({ a: 2, data: { q: "x", list: [LIST_MARK] } }), /changed/);
  }
});
