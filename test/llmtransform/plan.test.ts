/**
 * The pure core: request parsing (aliases) and edit planning, called as functions. The CLI tests
 * (cli.test.ts) run the same behaviour as a user would.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ToolError } from "../../src/contract/errors.js";
import { LlmtransformResultSchema } from "../../src/contract/tools/llmtransform.js";
import { checksum } from "../../src/text/checksum.js";
import { LineIndex } from "../../src/text/lines.js";
import { isCharBoundary } from "../../src/text/utf8.js";
import { isEditBoundary, planEdits } from "../../src/tools/llmtransform/plan.js";
import { buildRequest, type EditInput } from "../../src/tools/llmtransform/request.js";

const SUM = checksum(Buffer.from("x"));

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ToolError, `expected a ToolError, got ${String(e)}`);
    return `${e.code}/exit${e.exitCode}`;
  }
  assert.fail("expected a throw");
}

describe("buildRequest: aliases and flags", () => {
  test("legacy names map to the standard ones", () => {
    const req = buildRequest({
      document: {
        origin: "stdin",
        value: {
          file: "a.txt",
          operation_id: "6f1c2a3e-1b2c-4d5e-8f90-123456789abc",
          version: "1.0.0",
          expected_checksum: SUM.slice(7).toUpperCase(),
          edits: [
            { byte_start: 1, byte_end: 2, replacement: "r" },
            { line_start: 1, col_start: 0, line_end: 1, col_end: 1, new_content: "n" },
            { line_number: 2, column_number: 3, end: { row: 2, column: 4 }, new_content: "m" },
            { start: { row: 1, column: 0 }, byte_end: 3, new_content: "" },
            { span: { span_id: "x", file_path: "a.txt", byte_start: 4, byte_end: 9, start_line: 1, start_col: 4, end_line: 1, end_col: 9 }, new_content: "s" },
          ],
        },
      },
    });
    assert.equal(req.file_path, "a.txt");
    assert.equal(req.execution_id, "6f1c2a3e-1b2c-4d5e-8f90-123456789abc");
    assert.equal(req.expected_checksum, SUM);
    assert.deepEqual(req.edits, [
      { byte_start: 1, byte_end: 2, new_content: "r" },
      { start_line: 1, start_col: 0, end_line: 1, end_col: 1, new_content: "n" },
      { start_line: 2, start_col: 3, end_line: 2, end_col: 4, new_content: "m" },
      { start_line: 1, start_col: 0, byte_end: 3, new_content: "" },
      // A span's positions come along, to be checked against its bytes.
      { byte_start: 4, byte_end: 9, start_line: 1, start_col: 4, end_line: 1, end_col: 9, new_content: "s" },
    ]);
  });

  test("an edits array plus --file and --expected-checksum is a request", () => {
    const req = buildRequest({ document: { origin: "--edits e.json", value: [{ byte_start: 0, byte_end: 0, new_content: "x" }] }, file: "b.txt", expectedChecksum: SUM });
    assert.equal(req.file_path, "b.txt");
    assert.equal(req.edits.length, 1);
  });

  test("refusals are usage errors with their own codes", () => {
    const edits = [{ byte_start: 0, byte_end: 0, new_content: "x" }];
    assert.equal(codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", edits } } })), "LLMTRANSFORM_E100/exit2");
    assert.equal(codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", expected_checksum: "abc", edits } } })), "LLMTRANSFORM_E102/exit2");
    assert.equal(codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", expected_checksum: SUM, edits } }, file: "b" })), "LLMTRANSFORM_E112/exit2");
    assert.equal(
      codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", expected_checksum: SUM, edits } }, expectedChecksum: checksum(Buffer.from("y")) })),
      "LLMTRANSFORM_E112/exit2",
    );
    assert.equal(codeOf(() => buildRequest({ document: { origin: "stdin", value: { file: "a", file_path: "b", expected_checksum: SUM, edits } } })), "LLMTRANSFORM_E112/exit2");
    assert.equal(
      codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", expected_checksum: SUM, edits: [{ byte_start: 0, byte_end: 1, new_content: "a", replacement: "b" }] } } })),
      "LLMTRANSFORM_E112/exit2",
    );
    // A typo in a field name must not be silently ignored.
    assert.equal(codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", expected_checksum: SUM, edits: [{ byte_start: 0, byte_end: 1, new_contnet: "a" }] } } })), "LLMTRANSFORM_E005/exit2");
    assert.equal(codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", expected_checksum: SUM, edits: [{ byte_start: 0, new_content: "a" }] } } })), "LLMTRANSFORM_E005/exit2");
    assert.equal(codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", expected_checksum: SUM, edits: [{ byte_start: -1, byte_end: 0, new_content: "a" }] } } })), "LLMTRANSFORM_E005/exit2");
    assert.equal(codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", expected_checksum: SUM, execution_id: "nope", edits } } })), "LLMTRANSFORM_E005/exit2");
    assert.equal(codeOf(() => buildRequest({ document: { origin: "stdin", value: { file_path: "a", expected_checksum: SUM, version: "2.0.0", edits } } })), "LLMTRANSFORM_E114/exit2");
    assert.equal(codeOf(() => buildRequest({ file: "a", expectedChecksum: SUM })), "LLMTRANSFORM_E000/exit2");
  });
});

describe("isEditBoundary", () => {
  test("equals isCharBoundary on valid UTF-8", () => {
    const bytes = Buffer.from("a\u00e9\u20ac\u{1f600}\ufeffz", "utf8");
    for (let i = 0; i <= bytes.length; i++) assert.equal(isEditBoundary(bytes, i), isCharBoundary(bytes, i), `offset ${i}`);
  });

  test("every invalid byte is a character of its own", () => {
    // stray continuation, truncated 3-byte lead, then a valid é
    const bytes = Buffer.from([0x61, 0x80, 0x80, 0xe2, 0x82, 0x62, 0xc3, 0xa9]);
    assert.deepEqual(
      [...Array(bytes.length + 1).keys()].filter((i) => !isEditBoundary(bytes, i)),
      [7],
    );
    // overlong encoding of '/' (C0 AF) is two invalid bytes, not one character
    assert.ok(isEditBoundary(Buffer.from([0xc0, 0xaf]), 1));
  });
});

/**
 * The obvious implementation: apply the edits one by one from the end of the file backwards, on
 * the evolving buffer. Ties: the later range end first, then the later request index first, so an
 * earlier insertion at the same offset lands in front.
 */
function naiveApply(original: Buffer, edits: EditInput[]): Buffer {
  let out = original;
  const order = edits
    .map((e, i) => ({ e, i }))
    .sort((x, y) => (y.e.byte_start as number) - (x.e.byte_start as number) || (y.e.byte_end as number) - (x.e.byte_end as number) || y.i - x.i);
  for (const { e } of order) {
    out = Buffer.concat([out.subarray(0, e.byte_start), Buffer.from(e.new_content), out.subarray(e.byte_end)]);
  }
  return out;
}

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("planEdits", () => {
  test("an edit starting between the \\r and \\n of a CRLF is refused (it would leave a lone \\r); one ending there replaces the \\r", () => {
    const original = Buffer.from("one\r\ntwo\r\n", "utf8");
    // "End of line 1" found by searching for "\n": byte 4, after the \r.
    const appended = planEdits(original, "f.txt", [{ byte_start: 4, byte_end: 4, new_content: " // note" }]);
    assert.equal(appended.errors, 1);
    assert.equal(appended.edits[0]?.status, "error");
    assert.equal(appended.edits[0]?.error?.code, "LLMTRANSFORM_E105");
    assert.match(appended.edits[0]?.error?.message ?? "", /between the \\r and the \\n of a CRLF line ending \(line 1\)/);
    assert.match(appended.edits[0]?.error?.remediation ?? "", /byte 3 .* byte 5/);
    // Replacing the \n alone (a line ending rewritten as the text wants it) without a \n first: refused too.
    assert.equal(planEdits(original, "f.txt", [{ byte_start: 4, byte_end: 5, new_content: "x" }]).errors, 1);
    // Kept whole: new text that starts with the \n, or nothing inserted.
    assert.equal(planEdits(original, "f.txt", [{ byte_start: 4, byte_end: 5, new_content: "\n// note\r\n" }]).output.toString(), "one\r\n// note\r\ntwo\r\n");
    assert.equal(planEdits(original, "f.txt", [{ byte_start: 4, byte_end: 4, new_content: "" }]).errors, 0);
    // Before the \r, after the \n, and a CRLF turned into LF by deleting its \r (an edit ending between them).
    assert.equal(planEdits(original, "f.txt", [{ byte_start: 3, byte_end: 3, new_content: " // note" }]).output.toString(), "one // note\r\ntwo\r\n");
    assert.equal(planEdits(original, "f.txt", [{ byte_start: 3, byte_end: 4, new_content: "" }, { byte_start: 8, byte_end: 9, new_content: "" }]).output.toString(), "one\ntwo\n");
  });

  test("random disjoint edits on multi-byte CRLF text equal the naive result, and every new_span holds its text", () => {
    const alphabet = ["a", "b", "\n", "\r\n", "\u00e9", "\u20ac", "\u{1f600}", " ", "\ufeff"];
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const pick = (n: number): number => Math.floor(r() * n);
      let text = "";
      for (let i = pick(60); i > 0; i--) text += alphabet[pick(alphabet.length)];
      const original = Buffer.from(text, "utf8");
      const bounds = [...Array(original.length + 1).keys()].filter((i) => isCharBoundary(original, i));
      const cuts = Array.from({ length: pick(8) * 2 }, () => bounds[pick(bounds.length)] as number).sort((x, y) => x - y);
      const edits: EditInput[] = [];
      for (let i = 0; i + 1 < cuts.length; i += 2) {
        // (An insertion before a leading byte order mark is refused: cli.test.ts, "a UTF-8 BOM file".)
        if (cuts[i + 1] === 0 && text.startsWith("\ufeff")) continue;
        // (Nor does an edit start between the \r and \n of a CRLF: the test below.)
        if (original[(cuts[i] as number) - 1] === 0x0d && original[cuts[i] as number] === 0x0a) continue;
        edits.push({ byte_start: cuts[i], byte_end: cuts[i + 1], new_content: alphabet.slice(0, pick(4)).join("") });
      }
      // shuffle: request order must not matter for disjoint, non-coincident edits
      for (let i = edits.length - 1; i > 0; i--) {
        const j = pick(i + 1);
        [edits[i], edits[j]] = [edits[j] as EditInput, edits[i] as EditInput];
      }
      const plan = planEdits(original, "f.txt", edits);
      // cuts come in sorted pairs, so ranges can touch but never share a byte
      assert.equal(plan.errors, 0, `seed ${seed}`);
      assert.deepEqual(plan.output, naiveApply(original, edits), `seed ${seed}`);
      const finalLines = new LineIndex(plan.output);
      const lines = new LineIndex(original);
      assert.equal(plan.totalByteShift, plan.output.length - original.length);
      for (const [i, res] of plan.edits.entries()) {
        const e = edits[i] as EditInput;
        assert.equal(res.status, "applied");
        assert.equal(res.span?.byte_start, e.byte_start);
        assert.deepEqual(lines.position(e.byte_start as number), { line: res.span?.start_line, col: res.span?.start_col });
        const ns = res.new_span;
        assert.ok(ns, `seed ${seed}: new_span`);
        assert.equal(plan.output.subarray(ns.byte_start, ns.byte_end).toString("utf8"), e.new_content, `seed ${seed}`);
        assert.deepEqual(finalLines.position(ns.byte_end), { line: ns.end_line, col: ns.end_col });
        assert.equal(res.before_checksum, checksum(original.subarray(e.byte_start, e.byte_end)));
        assert.equal(res.after_checksum, checksum(Buffer.from(e.new_content)));
      }
      LlmtransformResultSchema.shape.edits.parse(plan.edits);
    }
  });

  test("insertions at one offset go in request order, before a range starting there and after one ending there", () => {
    const original = Buffer.from("0123456789");
    const plan = planEdits(original, "f", [
      { byte_start: 5, byte_end: 5, new_content: "A" },
      { byte_start: 3, byte_end: 5, new_content: "r" },
      { byte_start: 5, byte_end: 7, new_content: "R" },
      { byte_start: 5, byte_end: 5, new_content: "B" },
    ]);
    assert.equal(plan.output.toString(), "012rABR789");
    assert.deepEqual(
      plan.edits.map((e) => [e.new_span?.byte_start, e.new_span?.byte_end]),
      [
        [4, 5],
        [3, 4],
        [6, 7],
        [5, 6],
      ],
    );
  });

  test("overlaps reject both sides; an insertion strictly inside a replaced range overlaps it", () => {
    const original = Buffer.from("0123456789");
    const plan = planEdits(
      original,
      "f",
      [
        { byte_start: 0, byte_end: 4, new_content: "a" },
        { byte_start: 3, byte_end: 6, new_content: "b" },
        { byte_start: 8, byte_end: 8, new_content: "c" },
        { byte_start: 7, byte_end: 9, new_content: "d" },
        { byte_start: 9, byte_end: 10, new_content: "e" },
      ],
      { partial: true },
    );
    assert.deepEqual(
      plan.edits.map((e) => e.status),
      ["error", "error", "error", "error", "applied"],
    );
    assert.match(plan.edits[0]?.error?.message ?? "", /overlaps edits\[1\]/);
    assert.equal(plan.output.toString(), "012345678e");
  });

  test("all or nothing: one bad edit leaves the others skipped and the bytes unchanged", () => {
    const original = Buffer.from("h\u00e9llo");
    const plan = planEdits(original, "f", [
      { byte_start: 0, byte_end: 1, new_content: "H" },
      { byte_start: 2, byte_end: 3, new_content: "x" },
      { byte_start: 4, byte_end: 99, new_content: "x" },
      { byte_start: 3, byte_end: 1, new_content: "x" },
      { start_line: 9, start_col: 0, end_line: 9, end_col: 0, new_content: "x" },
      { byte_start: 0, byte_end: 0, new_content: "\ud800" },
    ]);
    assert.deepEqual(
      plan.edits.map((e) => e.status + (e.error ? `:${e.error.code}` : "")),
      ["skipped", "error:LLMTRANSFORM_E105", "error:LLMTRANSFORM_E104", "error:LLMTRANSFORM_E107", "error:LLMTRANSFORM_E108", "error:LLMTRANSFORM_E113"],
    );
    assert.equal(plan.output, original);
    assert.equal(plan.applied, 0);
    assert.equal(plan.skipped, 1);
    assert.equal(plan.errors, 5);
    // An unlocatable range still gets a stable match_id and says what was asked.
    assert.deepEqual(plan.edits[2]?.requested, { byte_start: 4, byte_end: 99 });
    assert.equal(plan.edits[2]?.span, undefined);
    assert.match(plan.edits[4]?.match_id ?? "", /^[0-9a-f]{16}$/);
  });

  test("line/col positions map to bytes (CRLF, BOM) and must agree with byte offsets when both are given", () => {
    const original = Buffer.from("\ufeffab\r\ncd\n", "utf8");
    const plan = planEdits(original, "f", [{ start_line: 2, start_col: 0, end_line: 2, end_col: 2, new_content: "XY" }]);
    assert.equal(plan.output.toString("utf8"), "\ufeffab\r\nXY\n");
    const plan2 = planEdits(original, "f", [{ byte_start: 3, start_line: 1, start_col: 3, byte_end: 5, new_content: "" }]);
    assert.equal(plan2.output.toString("utf8"), "\ufeff\r\ncd\n");
    const bad = planEdits(original, "f", [{ byte_start: 0, start_line: 1, start_col: 3, byte_end: 5, new_content: "" }]);
    assert.equal(bad.edits[0]?.error?.code, "LLMTRANSFORM_E108");
  });

  test("a span's lines and columns are checked against its bytes like the edit's own (they were ignored)", () => {
    const original = Buffer.from("one\ntwo\nthree\n");
    const request = (line: number) =>
      buildRequest({
        document: {
          origin: "stdin",
          value: { file_path: "c.txt", edits: [{ span: { file_path: "c.txt", byte_start: 4, byte_end: 7, start_line: line, start_col: 0, end_line: line, end_col: 3 }, new_content: "Z" }] },
        },
        expectedChecksum: checksum(original),
      });
    const good = planEdits(original, "c.txt", request(2).edits as EditInput[]);
    assert.equal(good.output.toString(), "one\nZ\nthree\n");
    const stale = planEdits(original, "c.txt", request(1).edits as EditInput[]);
    assert.equal(stale.edits[0]?.error?.code, "LLMTRANSFORM_E108");
  });

  test("match_id is deterministic in (span, new_content)", () => {
    const original = Buffer.from("abcdef");
    const a = planEdits(original, "f", [{ byte_start: 1, byte_end: 2, new_content: "x" }]);
    const b = planEdits(original, "f", [{ byte_start: 1, byte_end: 2, new_content: "x" }]);
    const c = planEdits(original, "f", [{ byte_start: 1, byte_end: 2, new_content: "y" }]);
    assert.equal(a.edits[0]?.match_id, b.edits[0]?.match_id);
    assert.notEqual(a.edits[0]?.match_id, c.edits[0]?.match_id);
  });
});
