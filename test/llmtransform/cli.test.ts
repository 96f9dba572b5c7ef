/**
 * llmtransform run as a user runs it: the built CLI, real files in a temp workspace, output
 * validated against the contract by runTool. Every failure case checks the file is byte-identical.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, linkSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Span } from "../../src/contract/schema.js";
import { checksum } from "../../src/text/checksum.js";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

type SpanOut = Span;
interface EditOut {
  index: number;
  match_id: string;
  status: string;
  span?: SpanOut;
  new_span?: SpanOut;
  before_checksum?: string;
  after_checksum?: string;
  error?: { code: string; message: string };
}
interface Envelope {
  execution_id: string;
  status: string;
  message: string;
  workspace?: string;
  result?: {
    file_path: string;
    original_checksum: string;
    final_checksum: string;
    total_byte_shift: number;
    applied_count: number;
    skipped_count: number;
    error_count: number;
    dry_run: boolean;
    written: boolean;
    edits: EditOut[];
  };
  error?: { code: string; message: string; note?: string; remediation?: string };
  diagnostics?: { code: string; level: string; message: string }[];
}

function workspace(files: Record<string, string | Buffer>): string {
  const dir = tempDir("llmtransform-");
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

interface Edit {
  byte_start: number;
  byte_end: number;
  new_content: string;
}

/** Runs `llmtransform --root dir --file f --expected-checksum <current> --edits <json>`. */
async function edit(dir: string, file: string, edits: unknown, extra: string[] = [], sum?: string) {
  const editsPath = join(dir, "..", `${dir.split("/").pop()}-edits.json`);
  writeFileSync(editsPath, JSON.stringify(edits));
  const expected = sum ?? checksum(readFileSync(join(dir, file)));
  const r = await runTool("llmtransform", ["--root", dir, "--file", file, "--expected-checksum", expected, "--edits", editsPath, ...extra], { cwd: dir });
  return { ...r, env: r.json as Envelope };
}

/** Asserts that a failing run left `file` byte-identical and no temp file behind. */
function assertUntouched(dir: string, file: string, before: Buffer): void {
  assert.deepEqual(readFileSync(join(dir, file)), before, `${file} changed`);
  assert.deepEqual(
    readdirSync(join(dir, file, "..")).filter((f) => f.endsWith(".tmp")),
    [],
    "temp file left behind",
  );
}

describe("llmtransform: edits that apply", () => {
  test("replaces and inserts, reports spans in the original and new_spans in the final file", async () => {
    const src = "fn main() {\n    println!(\"héllo\");\n}\n";
    const dir = workspace({ "src/main.rs": src });
    const bytes = Buffer.from(src);
    const at = bytes.indexOf("héllo");
    const edits: Edit[] = [
      { byte_start: at, byte_end: at + Buffer.byteLength("héllo"), new_content: "wörld" },
      { byte_start: 0, byte_end: 0, new_content: "// entry\n" },
    ];
    const r = await edit(dir, "src/main.rs", edits);
    assert.equal(r.code, 0, r.stdout);
    const env = r.env;
    assert.equal(env.status, "ok");
    assert.equal(env.workspace, dir);
    const final = readFileSync(join(dir, "src/main.rs"));
    assert.equal(final.toString(), "// entry\nfn main() {\n    println!(\"wörld\");\n}\n");
    const res = env.result;
    assert.ok(res);
    assert.equal(res.file_path, "src/main.rs");
    assert.equal(res.final_checksum, checksum(final));
    assert.equal(res.original_checksum, checksum(bytes));
    assert.equal(res.total_byte_shift, final.length - bytes.length);
    assert.deepEqual([res.applied_count, res.skipped_count, res.error_count, res.written], [2, 0, 0, true]);
    const [e0, e1] = res.edits as [EditOut, EditOut];
    assert.deepEqual(
      { s: e0.span?.start_line, c: e0.span?.start_col },
      { s: 2, c: "    println!(\"".length },
    );
    // new_span: the next edit can target it without re-reading the file
    assert.equal(final.subarray(e0.new_span?.byte_start, e0.new_span?.byte_end).toString(), "wörld");
    assert.equal(e0.new_span?.start_line, 3);
    assert.equal(final.subarray(e1.new_span?.byte_start, e1.new_span?.byte_end).toString(), "// entry\n");
    assert.equal(e0.before_checksum, checksum(Buffer.from("héllo")));
    assert.equal(e0.after_checksum, checksum(Buffer.from("wörld")));

    // Chain: edit the new text via new_span and final_checksum alone.
    const ns = e0.new_span as SpanOut;
    const r2 = await edit(dir, "src/main.rs", [{ byte_start: ns.byte_start, byte_end: ns.byte_end, new_content: "monde" }], [], res.final_checksum);
    assert.equal(r2.code, 0, r2.stdout);
    assert.equal(readFileSync(join(dir, "src/main.rs"), "utf8"), "// entry\nfn main() {\n    println!(\"monde\");\n}\n");
  });

  test("the whole request on stdin, with legacy names (file, replacement, operation_id, line_start/col_start), bare-hex checksum", async () => {
    const dir = workspace({ "a.py": "def f():\n    return 1\n" });
    const before = readFileSync(join(dir, "a.py"));
    const id = "0f8b1c2d-3e4f-4a5b-9c6d-7e8f9a0b1c2d";
    const request = {
      operation_id: id,
      file: "a.py",
      expected_checksum: checksum(before).slice("sha256:".length),
      edits: [{ line_start: 2, col_start: 11, line_end: 2, col_end: 12, replacement: "2" }],
    };
    const r = await runTool("llmtransform", ["--root", dir], { cwd: dir, input: JSON.stringify(request) });
    assert.equal(r.code, 0, r.stdout);
    const env = r.json as Envelope;
    assert.equal(env.execution_id, id, "the caller's execution_id is echoed");
    assert.equal(readFileSync(join(dir, "a.py"), "utf8"), "def f():\n    return 2\n");
    assert.equal(env.result?.edits[0]?.span?.byte_start, before.indexOf("1"));
  });

  test("--edits - reads the edits array from stdin; --pretty indents", async () => {
    const dir = workspace({ "t.txt": "abc" });
    const r = await runTool(
      "llmtransform",
      ["--root", dir, "--file", "t.txt", "--expected-checksum", checksum(Buffer.from("abc")), "--edits", "-", "--pretty"],
      { cwd: dir, input: JSON.stringify([{ byte_start: 1, byte_end: 2, new_content: "B" }]) },
    );
    assert.equal(r.code, 0, r.stdout);
    assert.ok(r.stdout.startsWith("{\n  "));
    assert.equal(readFileSync(join(dir, "t.txt"), "utf8"), "aBc");
  });

  test("CRLF and BOM bytes outside the edits stay exactly as they were", async () => {
    const src = Buffer.from("\ufeffline one\r\nline two\r\nline three\r\n", "utf8");
    const dir = workspace({ "w.txt": src });
    const at = src.indexOf("two");
    const r = await edit(dir, "w.txt", [
      { byte_start: at, byte_end: at + 3, new_content: "2" },
      { byte_start: 3, byte_end: 3, new_content: ">" },
    ]);
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(readFileSync(join(dir, "w.txt")), Buffer.from("\ufeff>line one\r\nline 2\r\nline three\r\n", "utf8"));
    const e0 = r.env.result?.edits[0];
    assert.deepEqual([e0?.span?.start_line, e0?.span?.start_col], [2, 5]);
  });

  test("a UTF-8 BOM file: an insertion at byte 0 (line 1, column 0) is refused, not put before the mark; at byte 3 it applies and Python still reads the file", async () => {
    const src = readFileSync(join(REPO_ROOT, "test", "fixtures", "llmtransform", "cells_bom_crlf.py"));
    assert.deepEqual([...src.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const dir = workspace({ "rich/cells.py": src });
    const header = "# SPDX-License-Identifier: MIT\r\n";
    // The header went before the mark: U+FEFF mid-file, "invalid non-printable character U+FEFF".
    for (const at of [{ byte_start: 0, byte_end: 0 }, { start_line: 1, start_col: 0, end_line: 1, end_col: 0 }]) {
      const r = await edit(dir, "rich/cells.py", [{ ...at, new_content: header }]);
      assert.equal(r.code, 1, r.stdout);
      assert.equal(r.env.result?.edits[0]?.error?.code, "LLMTRANSFORM_E105");
      assert.match(r.env.result?.edits[0]?.error?.message ?? "", /before this file's UTF-8 byte order mark/);
      assertUntouched(dir, "rich/cells.py", src);
    }
    const ok = await edit(dir, "rich/cells.py", [{ byte_start: 3, byte_end: 3, new_content: header }]);
    assert.equal(ok.code, 0, ok.stdout);
    const out = readFileSync(join(dir, "rich/cells.py"));
    assert.deepEqual(out, Buffer.concat([src.subarray(0, 3), Buffer.from(header), src.subarray(3)]));
    const py = spawnSync("python3", ["-c", "import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')", join(dir, "rich/cells.py")], { encoding: "utf8" });
    assert.equal(py.status, 0, py.stderr);
    // Replacing the mark itself is explicit and stays allowed.
    const drop = await edit(dir, "rich/cells.py", [{ byte_start: 0, byte_end: 3, new_content: "" }]);
    assert.equal(drop.code, 0, drop.stdout);
    assert.equal(readFileSync(join(dir, "rich/cells.py"))[0], "#".charCodeAt(0));
  });

  test("a Latin-1 file: non-ASCII text goes in as UTF-8 with a warning that the file now mixes encodings; ASCII text, none", async () => {
    // A Windows-era Java or Python source saved as ISO-8859-1: "café" is 63 61 66 E9.
    const src = Buffer.concat([Buffer.from('NAME = "caf'), Buffer.from([0xe9]), Buffer.from('"\nCOUNT = 2\n')]);
    const dir = workspace({ "legacy.py": src });
    const at = src.indexOf("COUNT");
    const ascii = await edit(dir, "legacy.py", [{ byte_start: at, byte_end: at + 9, new_content: "COUNT = 3" }], ["--dry-run"]);
    assert.equal(ascii.code, 0, ascii.stdout);
    assert.equal((ascii.env.diagnostics ?? []).some((d) => d.code === "LLMTRANSFORM_E119"), false, ascii.stdout);
    const r = await edit(dir, "legacy.py", [{ byte_start: at, byte_end: at + 9, new_content: 'CITY = "Zürich"' }]);
    assert.equal(r.code, 0, r.stdout);
    const w = r.env.diagnostics?.find((d) => d.code === "LLMTRANSFORM_E119");
    assert.equal(w?.level, "warning", r.stdout);
    assert.match(w?.message ?? "", /^legacy\.py is not valid UTF-8/);
    // What it warns of: the bytes outside the edit kept, the new text in UTF-8.
    assert.deepEqual(readFileSync(join(dir, "legacy.py")), Buffer.concat([src.subarray(0, at), Buffer.from('CITY = "Zürich"', "utf8"), src.subarray(at + 9)]));
  });

  test("a CRLF file: new text with bare LF line breaks goes in as given, with a warning that the file now mixes line endings; CRLF text, none (jackson-core's mvnw.cmd)", async () => {
    const src = Buffer.from('@REM Maven Start Up Batch script\r\n@echo off\r\nset MAVEN_PROJECTBASEDIR=%MAVEN_BASEDIR%\r\nIF NOT "%MAVEN_PROJECTBASEDIR%"=="" goto endDetectBaseDir\r\n');
    const dir = workspace({ "mvnw.cmd": src });
    const at = src.indexOf("@echo off") + "@echo off\r\n".length;
    const crlf = await edit(dir, "mvnw.cmd", [{ byte_start: at, byte_end: at, new_content: "@REM set below\r\n" }], ["--dry-run"]);
    assert.equal(crlf.code, 0, crlf.stdout);
    assert.equal((crlf.env.diagnostics ?? []).some((d) => d.code === "LLMTRANSFORM_E120"), false, crlf.stdout);
    const r = await edit(dir, "mvnw.cmd", [{ byte_start: 0, byte_end: 0, new_content: "@REM licensed\n@REM to you\n" }, { byte_start: at, byte_end: at, new_content: "@REM set below\r\n" }]);
    assert.equal(r.code, 0, r.stdout);
    const w = r.env.diagnostics?.find((d) => d.code === "LLMTRANSFORM_E120");
    assert.equal(w?.level, "warning", r.stdout);
    assert.match(w?.message ?? "", /^mvnw\.cmd ends every line with CRLF \(\\r\\n\), and the new text of edit 0 has bare LF \(\\n\) line breaks/);
    // The bytes are the caller's: written as given.
    assert.deepEqual(readFileSync(join(dir, "mvnw.cmd")), Buffer.concat([Buffer.from("@REM licensed\n@REM to you\n"), src.subarray(0, at), Buffer.from("@REM set below\r\n"), src.subarray(at)]));
    // And the other way: CRLF text in an LF file.
    const lf = workspace({ "a.py": "x = 1\ny = 2\n" });
    const back = await edit(lf, "a.py", [{ byte_start: 6, byte_end: 6, new_content: "z = 3\r\n" }], ["--dry-run"]);
    assert.match(back.env.diagnostics?.find((d) => d.code === "LLMTRANSFORM_E120")?.message ?? "", /^a\.py ends every line with LF \(\\n\), and the new text of edit 0 has CRLF/);
  });

  test("an invalid UTF-8 file (with a NUL) is edited exactly; its stray bytes are untouched", async () => {
    const src = Buffer.concat([Buffer.from("a"), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from("b\u00e9c"), Buffer.from([0xc3]), Buffer.from("\n\0")]);
    const dir = workspace({ "bin.txt": src });
    const at = src.indexOf("b");
    // an edit right next to the stray bytes, and one between two invalid bytes
    const r = await edit(dir, "bin.txt", [
      { byte_start: at, byte_end: at + 1, new_content: "B" },
      { byte_start: 2, byte_end: 2, new_content: "|" },
    ]);
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(
      readFileSync(join(dir, "bin.txt")),
      Buffer.concat([Buffer.from("a"), Buffer.from([0xff]), Buffer.from("|"), Buffer.from([0xfe, 0x80]), Buffer.from("B\u00e9c"), Buffer.from([0xc3]), Buffer.from("\n\0")]),
    );
  });

  test("an empty file takes an insertion at 0; an empty edits list is a checked no-op", async () => {
    const dir = workspace({ "e.txt": "" });
    const r0 = await edit(dir, "e.txt", []);
    assert.equal(r0.code, 0, r0.stdout);
    assert.equal(r0.env.result?.written, false);
    assert.ok(r0.env.diagnostics?.some((d) => d.code === "LLMTRANSFORM_E116"));
    const r = await edit(dir, "e.txt", [{ byte_start: 0, byte_end: 0, new_content: "first line\n" }]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(readFileSync(join(dir, "e.txt"), "utf8"), "first line\n");
    assert.deepEqual(r.env.result?.edits[0]?.new_span, {
      span_id: r.env.result?.edits[0]?.new_span?.span_id,
      file_path: "e.txt",
      byte_start: 0,
      byte_end: 11,
      start_line: 1,
      start_col: 0,
      end_line: 2,
      end_col: 0,
    });
  });

  test("the file mode is kept (0755 stays 0755, 0600 stays 0600)", async () => {
    const dir = workspace({ "run.sh": "#!/bin/sh\necho hi\n", "secret.txt": "k=v\n" });
    chmodSync(join(dir, "run.sh"), 0o755);
    chmodSync(join(dir, "secret.txt"), 0o600);
    assert.equal((await edit(dir, "run.sh", [{ byte_start: 15, byte_end: 17, new_content: "bye" }])).code, 0);
    assert.equal((await edit(dir, "secret.txt", [{ byte_start: 2, byte_end: 3, new_content: "w" }])).code, 0);
    assert.equal(statSync(join(dir, "run.sh")).mode & 0o7777, 0o755);
    assert.equal(statSync(join(dir, "secret.txt")).mode & 0o7777, 0o600);
    assert.equal(readFileSync(join(dir, "run.sh"), "utf8"), "#!/bin/sh\necho bye\n");
  });

  test("a symlink inside the root is edited through: the link stays a link", async () => {
    const dir = workspace({ "real.txt": "abc\n" });
    symlinkSync("real.txt", join(dir, "link.txt"));
    const r = await edit(dir, "link.txt", [{ byte_start: 0, byte_end: 1, new_content: "A" }]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(readFileSync(join(dir, "real.txt"), "utf8"), "Abc\n");
    assert.ok(r.env.diagnostics?.some((d) => d.code === "LLMTRANSFORM_E118"));
    assert.equal(readdirSync(dir).includes("link.txt"), true);
  });

  test("a file with two hard links: edited under its name, with a warning; the other link keeps the old bytes", async () => {
    const dir = workspace({ "h.txt": "shared\n" });
    linkSync(join(dir, "h.txt"), join(dir, "h2.txt"));
    const r = await edit(dir, "h.txt", [{ byte_start: 0, byte_end: 1, new_content: "S" }]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(r.env.diagnostics?.some((d) => d.code === "LLMTRANSFORM_E117" && d.level === "warning"));
    assert.equal(readFileSync(join(dir, "h.txt"), "utf8"), "Shared\n");
    assert.equal(readFileSync(join(dir, "h2.txt"), "utf8"), "shared\n");
  });

  test("--dry-run --partial reports what would apply (exit 4) and writes nothing", async () => {
    const dir = workspace({ "dp.txt": "abc\n" });
    const before = readFileSync(join(dir, "dp.txt"));
    const r = await edit(
      dir,
      "dp.txt",
      [
        { byte_start: 0, byte_end: 1, new_content: "A" },
        { byte_start: 2, byte_end: 9, new_content: "?" },
      ],
      ["--dry-run", "--partial"],
    );
    assert.equal(r.code, 4, r.stdout);
    assert.equal(r.env.status, "partial");
    assert.equal(r.env.result?.final_checksum, checksum(Buffer.from("Abc\n")));
    assert.equal(r.env.result?.written, false);
    assertUntouched(dir, "dp.txt", before);
  });

  test("--dry-run computes everything, writes nothing, and says so", async () => {
    const dir = workspace({ "d.txt": "one two\n" });
    const before = readFileSync(join(dir, "d.txt"));
    const mtime = statSync(join(dir, "d.txt")).mtimeMs;
    const r = await edit(dir, "d.txt", [{ byte_start: 4, byte_end: 7, new_content: "2" }], ["--dry-run"]);
    assert.equal(r.code, 0, r.stdout);
    assertUntouched(dir, "d.txt", before);
    assert.equal(statSync(join(dir, "d.txt")).mtimeMs, mtime);
    const res = r.env.result;
    assert.match(r.env.message, /dry run.*nothing written/);
    assert.equal(res?.dry_run, true);
    assert.equal(res?.written, false);
    assert.equal(res?.final_checksum, checksum(Buffer.from("one 2\n")), "the predicted checksum");
    assert.equal(res?.edits[0]?.new_span?.byte_end, 5);
  });
});

describe("llmtransform: failures leave the file byte-identical", () => {
  test("checksum mismatch: exit 1, nothing written, the error gives the current checksum", async () => {
    const dir = workspace({ "c.txt": "current\n" });
    const before = readFileSync(join(dir, "c.txt"));
    const stale = checksum(Buffer.from("old\n"));
    const r = await edit(dir, "c.txt", [{ byte_start: 0, byte_end: 1, new_content: "C" }], [], stale);
    assert.equal(r.code, 1);
    assert.equal(r.env.status, "error");
    assert.equal(r.env.error?.code, "LLMTRANSFORM_E101");
    assert.equal(r.env.error?.note, `current checksum: ${checksum(before)}`);
    assert.ok(r.env.error?.remediation?.includes(checksum(before)));
    assertUntouched(dir, "c.txt", before);
  });

  test("missing checksum is a usage error whose remediation shows how to get one", async () => {
    const dir = workspace({ "m.txt": "x" });
    const r = await runTool("llmtransform", ["--root", dir, "--file", "m.txt", "--edits", "-"], { cwd: dir, input: "[]" });
    assert.equal(r.code, 2);
    const env = r.json as Envelope;
    assert.equal(env.error?.code, "LLMTRANSFORM_E100");
    assert.match(env.error?.remediation ?? "", /sha256sum m\.txt/);
  });

  test("out of bounds, mid-UTF-8, overlap, reversed: exit 1, each edit says why, the valid ones are skipped", async () => {
    const src = "naïve text\n";
    const dir = workspace({ "v.txt": src });
    const before = readFileSync(join(dir, "v.txt"));
    const r = await edit(dir, "v.txt", [
      { byte_start: 0, byte_end: 1, new_content: "N" },
      { byte_start: 3, byte_end: 4, new_content: "i" },
      { byte_start: 5, byte_end: 500, new_content: "x" },
      { byte_start: 6, byte_end: 8, new_content: "x" },
      { byte_start: 7, byte_end: 9, new_content: "y" },
    ]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.env.status, "error");
    assert.equal(r.env.error?.code, "LLMTRANSFORM_E103");
    assert.deepEqual(
      r.env.result?.edits.map((e) => `${e.status}${e.error ? `:${e.error.code}` : ""}`),
      ["skipped", "error:LLMTRANSFORM_E105", "error:LLMTRANSFORM_E104", "error:LLMTRANSFORM_E106", "error:LLMTRANSFORM_E106"],
    );
    assert.equal(r.env.result?.final_checksum, checksum(before));
    assertUntouched(dir, "v.txt", before);
  });

  test("--partial applies the valid edits, reports the others, exits 4", async () => {
    const dir = workspace({ "p.txt": "aaa bbb ccc\n" });
    const r = await edit(
      dir,
      "p.txt",
      [
        { byte_start: 0, byte_end: 3, new_content: "AAA" },
        { byte_start: 99, byte_end: 100, new_content: "?" },
        { byte_start: 8, byte_end: 11, new_content: "C" },
      ],
      ["--partial"],
    );
    assert.equal(r.code, 4, r.stdout);
    assert.equal(r.env.status, "partial");
    assert.equal(readFileSync(join(dir, "p.txt"), "utf8"), "AAA bbb C\n");
    assert.deepEqual([r.env.result?.applied_count, r.env.result?.error_count, r.env.result?.skipped_count], [2, 1, 0]);
    assert.equal(r.env.result?.total_byte_shift, -2);
    // --partial with nothing valid is a failure, not a partial success
    const before = readFileSync(join(dir, "p.txt"));
    const r2 = await edit(dir, "p.txt", [{ byte_start: 99, byte_end: 100, new_content: "?" }], ["--partial"]);
    assert.equal(r2.code, 1);
    assertUntouched(dir, "p.txt", before);
  });

  test("a read-only file and a read-only directory are refused (even for root)", async () => {
    const dir = workspace({ "ro.txt": "frozen\n", "rodir/f.txt": "inside\n" });
    chmodSync(join(dir, "ro.txt"), 0o444);
    const before = readFileSync(join(dir, "ro.txt"));
    const r = await edit(dir, "ro.txt", [{ byte_start: 0, byte_end: 1, new_content: "F" }]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.env.error?.code, "LLMTRANSFORM_E110");
    assertUntouched(dir, "ro.txt", before);
    assert.equal(statSync(join(dir, "ro.txt")).mode & 0o7777, 0o444);

    const beforeIn = readFileSync(join(dir, "rodir/f.txt"));
    chmodSync(join(dir, "rodir"), 0o555);
    try {
      const r2 = await edit(dir, "rodir/f.txt", [{ byte_start: 0, byte_end: 1, new_content: "I" }]);
      assert.equal(r2.code, 1, r2.stdout);
      assert.equal(r2.env.error?.code, "LLMTRANSFORM_E110");
      assertUntouched(dir, "rodir/f.txt", beforeIn);
      // a dry run still computes, and warns that the real run would fail
      const r3 = await edit(dir, "rodir/f.txt", [{ byte_start: 0, byte_end: 1, new_content: "I" }], ["--dry-run"]);
      assert.equal(r3.code, 0);
      assert.ok(r3.env.diagnostics?.some((d) => d.code === "LLMTRANSFORM_E110" && d.level === "warning"));
    } finally {
      chmodSync(join(dir, "rodir"), 0o755);
    }
  });

  test("a symlink leading out of the root and a `..` path are refused", async () => {
    const outside = workspace({ "victim.txt": "do not touch\n" });
    const dir = workspace({ "in.txt": "x" });
    symlinkSync(join(outside, "victim.txt"), join(dir, "escape.txt"));
    const before = readFileSync(join(outside, "victim.txt"));
    const sum = checksum(before);
    const r = await edit(dir, "escape.txt", [{ byte_start: 0, byte_end: 2, new_content: "DO" }], [], sum);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(r.env.error?.code, "LLMTRANSFORM_E001");
    const rel = `../${outside.split("/").pop()}/victim.txt`;
    const r2 = await runTool(
      "llmtransform",
      ["--root", dir, "--file", rel, "--expected-checksum", sum, "--edits", "-"],
      { cwd: dir, input: JSON.stringify([{ byte_start: 0, byte_end: 2, new_content: "DO" }]) },
    );
    assert.equal(r2.code, 2, r2.stdout);
    assert.equal((r2.json as Envelope).error?.code, "LLMTRANSFORM_E001");
    assertUntouched(outside, "victim.txt", before);
  });

  test("--file and the request naming different files is a usage error; the same file spelled twice is fine", async () => {
    const dir = workspace({ "a.txt": "a", "b.txt": "b" });
    const sum = checksum(Buffer.from("a"));
    const request = { file_path: "b.txt", expected_checksum: checksum(Buffer.from("b")), edits: [{ byte_start: 0, byte_end: 1, new_content: "B" }] };
    const r = await runTool("llmtransform", ["--root", dir, "--file", "a.txt"], { cwd: dir, input: JSON.stringify(request) });
    assert.equal(r.code, 2);
    assert.equal((r.json as Envelope).error?.code, "LLMTRANSFORM_E112");
    assert.equal(readFileSync(join(dir, "b.txt"), "utf8"), "b");
    const same = { file_path: "./a.txt", expected_checksum: sum, edits: [{ byte_start: 0, byte_end: 1, new_content: "A" }] };
    const r2 = await runTool("llmtransform", ["--root", dir, "--file", "a.txt"], { cwd: dir, input: JSON.stringify(same) });
    assert.equal(r2.code, 0, r2.stdout);
  });

  test("usage errors exit 2 with one JSON document: unknown flag, malformed JSON, no edits, missing file", async () => {
    const dir = workspace({ "a.txt": "a" });
    const sum = checksum(Buffer.from("a"));
    const bad = await runTool("llmtransform", ["--root", dir, "--bogus"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.equal((bad.json as Envelope).error?.code, "LLMTRANSFORM_E000");
    const json = await runTool("llmtransform", ["--root", dir, "--file", "a.txt", "--expected-checksum", sum], { cwd: dir, input: "{nope" });
    assert.equal(json.code, 2);
    assert.equal((json.json as Envelope).error?.code, "LLMTRANSFORM_E005");
    const none = await runTool("llmtransform", ["--root", dir, "--file", "a.txt", "--expected-checksum", sum], { cwd: dir });
    assert.equal(none.code, 2);
    assert.equal((none.json as Envelope).error?.code, "LLMTRANSFORM_E000");
    const missing = await runTool("llmtransform", ["--root", dir, "--file", "gone.txt", "--expected-checksum", sum, "--edits", "-"], { cwd: dir, input: "[]" });
    assert.equal(missing.code, 1);
    assert.equal((missing.json as Envelope).error?.code, "LLMTRANSFORM_E002");
    const isDir = await runTool("llmtransform", ["--root", dir, "--file", ".", "--expected-checksum", sum, "--edits", "-"], { cwd: dir, input: "[]" });
    assert.equal(isDir.code, 1);
    assert.equal((isDir.json as Envelope).error?.code, "LLMTRANSFORM_E111");
    // "." is the root itself: the message names it instead of printing an empty path.
    assert.match((isDir.json as Envelope).message, /^the workspace root is not a regular file \(a directory\)/);
  });

  test("--help describes every flag and the exit codes; --version prints the version", async () => {
    const help = await runTool("llmtransform", ["--help"], { raw: true });
    assert.equal(help.code, 0);
    for (const flag of ["--file", "--edits", "--expected-checksum", "--dry-run", "--partial", "--root", "--pretty", "--version"]) {
      assert.ok(help.stdout.includes(flag), `--help lacks ${flag}`);
    }
    assert.match(help.stdout, /Exit codes:[\s\S]*0 [\s\S]*1 [\s\S]*2 [\s\S]*4 /);
    const version = await runTool("llmtransform", ["--version"], { raw: true });
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    assert.equal(version.stdout.trim(), pkg.version);
  });
});
