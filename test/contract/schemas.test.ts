import assert from "node:assert/strict";
import { test } from "node:test";
import { staleSchemas } from "../../src/contract/emit-schemas.js";
import { allSchemas } from "../../src/contract/registry.js";
import { SpanSchema } from "../../src/contract/schema.js";
import { LineIndex } from "../../src/text/lines.js";
import { makeSpan } from "../../src/text/span.js";

test("committed schemas/*.json equal what the zod source generates (run `npm run schemas`)", async () => {
  assert.deepEqual(await staleSchemas(), []);
});

test("the Span schema keeps CONTRACT.md's eight fields in order and rejects extras", async () => {
  const span = makeSpan("src/main.rs", 3, 7, new LineIndex(Buffer.from("fn main() {}")));
  assert.deepEqual(Object.keys(span), ["span_id", "file_path", "byte_start", "byte_end", "start_line", "start_col", "end_line", "end_col"]);
  assert.equal(span.span_id, "ef8007a25c15a56d");
  assert.ok(SpanSchema.safeParse(span).success);
  assert.ok(!SpanSchema.safeParse({ ...span, line_start: 1 }).success);
  assert.ok(!SpanSchema.safeParse({ ...span, span_id: "UUID" }).success);
  assert.ok((await allSchemas()).has("span"));
});
