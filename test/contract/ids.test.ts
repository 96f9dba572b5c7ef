import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { executionId, matchId, spanId, symbolId, timestamp } from "../../src/contract/ids.js";

test("span_id matches CONTRACT.md test vectors", () => {
  assert.equal(spanId("src/main.rs", 3, 7), "ef8007a25c15a56d");
  assert.equal(spanId("src/lib.rs", 100, 200), "318374eb7da4e671");
});

test("span_id hashes the u64 big-endian offsets, not their decimal text", () => {
  // seed 01's prose (decimal strings) would give a different id for the same span.
  assert.notEqual(spanId("a", 1, 2), spanId("a", 12, 0));
  assert.match(spanId("é/ü.rs", 0, 0), /^[0-9a-f]{16}$/);
});

test("match_id is deterministic per question and bytes, and separates its inputs", () => {
  const s = spanId("src/a.ts", 0, 4);
  assert.equal(matchId("llmsearch", s, "TODO"), matchId("llmsearch", s, "TODO"));
  assert.notEqual(matchId("llmsearch", s, "TODO"), matchId("llmsearch", s, "FIXME"));
  assert.notEqual(matchId("llmsearch", s, "TODO"), matchId("llmastsearch", s, "TODO"));
  assert.match(matchId("x", s, ""), /^[0-9a-f]{16}$/);
});

test("span_id is the contract's byte layout for long, non-ASCII paths and offsets past 2^32", () => {
  const reference = (p: string, a: number, b: number): string => {
    const u64 = (n: number): Buffer => {
      const x = Buffer.alloc(8);
      x.writeBigUInt64BE(BigInt(n));
      return x;
    };
    return createHash("sha256").update(Buffer.concat([Buffer.from(p), Buffer.from(":"), u64(a), Buffer.from(":"), u64(b)])).digest("hex").slice(0, 16);
  };
  const long = `${"dir/".repeat(300)}münchen-文件.ts`;
  for (const [p, a, b] of [["src/a.ts", 0, 0], [long, 5, 9], ["é.rs", 2 ** 32 + 7, 2 ** 40], [long, 1, 2]] as const) {
    assert.equal(spanId(p, a, b), reference(p, a, b), `${p.slice(-20)} ${a} ${b}`);
  }
});

test("symbol_id depends on language, identity and disambiguator only", () => {
  const a = symbolId("rust", "src/lib.rs:method:Foo.new", 0);
  assert.equal(a, symbolId("rust", "src/lib.rs:method:Foo.new", 0));
  assert.notEqual(a, symbolId("rust", "src/lib.rs:method:Bar.new", 0));
  assert.notEqual(a, symbolId("rust", "src/lib.rs:method:Foo.new", 1));
  assert.notEqual(a, symbolId("c", "src/lib.rs:method:Foo.new", 0));
});

test("execution_id is a fresh UUID v4; timestamp is RFC 3339 UTC with Z", () => {
  const a = executionId();
  assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(a, executionId());
  assert.equal(timestamp(new Date(Date.UTC(2026, 0, 24, 12, 34, 56, 789))), "2026-01-24T12:34:56Z");
});
