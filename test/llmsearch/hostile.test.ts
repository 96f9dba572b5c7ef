/**
 * llmsearch run as a user would, on files built to be awkward: invalid UTF-8, BOM, CRLF, empty,
 * no final newline, binary, over --max-filesize, a symlink out of the root, `..`, a huge line,
 * a catastrophically backtracking pattern. Every output is schema-checked by runTool; every
 * span is checked against the bytes on disk.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import assert from "node:assert/strict";
import type { Diagnostic } from "../../src/contract/schema.js";
import type { LlmsearchCountData, LlmsearchData, LlmsearchMatch } from "../../src/contract/tools/llmsearch.js";
import { LineIndex } from "../../src/text/lines.js";
import { runTool, tempDir } from "../support/run.js";

interface Env {
  partial: boolean;
  data: LlmsearchData;
  diagnostics?: Diagnostic[];
}

let root = "";
let outside = "";

before(() => {
  root = tempDir("llmsearch-hostile-");
  outside = tempDir("llmsearch-outside-");
  const w = (rel: string, bytes: string | Uint8Array): void => {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), bytes);
  };
  // "café" with a stray 0xFF before it and a truncated sequence after.
  w("invalid.txt", Buffer.concat([Buffer.from("line one\n\xff", "latin1"), Buffer.from("café needle ", "utf8"), Buffer.from([0xe2, 0x82]), Buffer.from(" needle end\n")]));
  w("bom.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("needle at start\nsecond\n")]));
  w("crlf.txt", "first\r\nthe needle\r\nlast needle\r\n");
  w("empty.txt", "");
  w("nofinal.txt", "alpha\nbeta needle");
  w("binary.bin", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0, 1, 2, 3]), Buffer.from("needle\n")]));
  w("big.txt", `${"filler line\n".repeat(20_000)}needle\n`);
  w("sub/deep.txt", "x\ny needle z\nw\n");
  writeFileSync(join(outside, "secret.txt"), "needle outside the root\n");
  symlinkSync(join(outside, "secret.txt"), join(root, "link-out.txt"));
  symlinkSync(outside, join(root, "dir-out"));
});

async function searchOk(args: string[], expectCode = 0): Promise<Env> {
  const r = await runTool("llmsearch", ["--root", root, ...args]);
  assert.equal(r.code, expectCode, `exit ${r.code}: ${r.stdout.slice(0, 1500)} ${r.stderr.slice(0, 500)}`);
  assert.equal(r.stdout.trim().split("\n").length, 1, "one JSON line on stdout");
  return r.json as Env;
}

/** CONTRACT.md invariant: the span's bytes are the matched text; line/col agree with the bytes. */
function checkSpan(m: LlmsearchMatch): void {
  const bytes = readFileSync(join(root, m.span.file_path));
  const slice = bytes.subarray(m.span.byte_start, m.span.byte_end);
  assert.equal(slice.toString("utf8"), m.matched_text);
  const lines = new LineIndex(bytes);
  assert.deepEqual(lines.position(m.span.byte_start), { line: m.span.start_line, col: m.span.start_col });
  assert.deepEqual(lines.position(m.span.byte_end), { line: m.span.end_line, col: m.span.end_col });
}

test("searches invalid UTF-8, BOM, CRLF, no-final-newline files with exact byte spans", async () => {
  const env = await searchOk(["--pattern", "needle", "--context", "1"]);
  for (const m of env.data.matches) checkSpan(m);
  const files = env.data.matches.map((m) => m.span.file_path);
  // binary.bin: the needle before its NUL byte is reported (the one after is not), as ripgrep does.
  assert.deepEqual(files, ["big.txt", "binary.bin", "bom.txt", "crlf.txt", "crlf.txt", "invalid.txt", "invalid.txt", "nofinal.txt", "sub/deep.txt"]);
  const inv = env.data.matches.filter((m) => m.span.file_path === "invalid.txt");
  // bytes: "line one\n"(9) 0xFF(1) "café "(6) -> needle at 16; then " " 0xE2 0x82 " " -> 2nd at 26.
  assert.deepEqual(inv.map((m) => [m.span.byte_start, m.span.byte_end]), [[16, 22], [26, 32]]);
  const bom = env.data.matches.find((m) => m.span.file_path === "bom.txt");
  assert.equal(bom?.span.byte_start, 3, "the BOM's 3 bytes count");
  const crlf = env.data.matches.filter((m) => m.span.file_path === "crlf.txt");
  assert.deepEqual(crlf[0]?.context_before, ["first"], "context lines carry no \\r");
  assert.deepEqual(crlf[0]?.context_after, ["last needle"]);
  assert.deepEqual(env.data.files_skipped, [{ file_path: "binary.bin", reason: "binary", detail: "NUL byte at offset 7; 1 match in the lines before it reported, the rest not searched" }]);
  assert.equal(env.data.files_searched, 7, "all but the binary; symlinks are not followed");
  assert.ok(!JSON.stringify(env).includes("outside the root"), "the symlinked file outside the root was not read");
});

test("CRLF: `.*` and `$` stop before the \\r", async () => {
  const env = await searchOk(["--pattern", "needle.*$", "crlf.txt"]);
  assert.deepEqual(env.data.matches.map((m) => m.matched_text), ["needle", "needle"]);
  for (const m of env.data.matches) checkSpan(m);
});

test("BOM: ^ matches at the start of the first line", async () => {
  const env = await searchOk(["--pattern", "^needle", "bom.txt"]);
  assert.equal(env.data.match_count, 1);
  assert.equal(env.data.matches[0]?.span.byte_start, 3);
});

test("--max-filesize skips big files with the reason; -c gives per-file line counts, --count-matches match counts", async () => {
  const env = await searchOk(["--pattern", "needle", "--max-filesize", "1K"]);
  assert.ok(env.data.files_skipped.some((s) => s.file_path === "big.txt" && s.reason === "too_large" && /over --max-filesize 1024/.test(s.detail)));
  const r = await runTool("llmsearch", ["--root", root, "--count", "--pattern", "needle"]);
  assert.equal(r.code, 0);
  const data = (r.json as { data: LlmsearchCountData }).data;
  assert.deepEqual(data.counts.find((c) => c.file_path === "crlf.txt"), { file_path: "crlf.txt", count: 2 });
  // -c counts lines, as rg -c: invalid.txt holds its two needles on one line.
  assert.equal(data.count_of, "lines");
  assert.deepEqual(data.counts.find((c) => c.file_path === "invalid.txt"), { file_path: "invalid.txt", count: 1 });
  assert.equal(data.total_count, 8);
  assert.equal(data.files_matched, data.counts.length);
  const m = (await runTool("llmsearch", ["--root", root, "--count-matches", "--pattern", "needle"])).json as { data: LlmsearchCountData };
  assert.equal(m.data.count_of, "matches");
  assert.deepEqual(m.data.counts.find((c) => c.file_path === "invalid.txt"), { file_path: "invalid.txt", count: 2 });
  assert.equal(m.data.total_count, 9);
});

test("paths outside the root are refused: `..`, absolute, and symlinks out", async () => {
  for (const bad of ["../", `../${outside.split("/").pop()}/secret.txt`, join(outside, "secret.txt"), "link-out.txt", "dir-out"]) {
    const r = await runTool("llmsearch", ["--root", root, "--pattern", "needle", bad], { cwd: root });
    assert.equal(r.code, 2, `${bad}: ${r.stdout}`);
    const env = r.json as { data: { code: string }; diagnostics: Diagnostic[] };
    assert.equal(env.data.code, "LLMSEARCH_E001", bad);
    assert.ok(env.diagnostics[0]?.remediation);
  }
});

test("a missing path is a usage error, exit 2; beside paths that exist, as rg, they are searched and it is a warning (partial, exit 4)", async () => {
  const r = await runTool("llmsearch", ["--root", root, "--pattern", "x", "nope.txt"], { cwd: root });
  assert.equal(r.code, 2);
  assert.equal((r.json as { data: { code: string } }).data.code, "LLMSEARCH_E002");
  for (const extra of [[], ["--files"]]) {
    const args = extra.length ? extra : ["--pattern", "needle"];
    const alone = await runTool("llmsearch", ["--root", root, ...args, "."], { cwd: root });
    const mixed = await runTool("llmsearch", ["--root", root, ...args, ".", "nope.txt"], { cwd: root });
    assert.equal(mixed.code, 4, mixed.stdout);
    const a = alone.json as { data: unknown };
    const m = mixed.json as { partial: boolean; data: unknown; diagnostics: Diagnostic[] };
    assert.equal(m.partial, true);
    assert.deepEqual(m.data, a.data);
    assert.ok(m.diagnostics.some((d) => d.code === "LLMSEARCH_E002" && d.level === "warning" && /nope\.txt/.test(d.message)), JSON.stringify(m.diagnostics));
  }
});

test("a missing path written as a glob (an unexpanded 'src/*.ts') is answered with the glob to pass instead, and that glob finds what rg finds of the shell's expansion", async () => {
  const dir = tempDir("llmsearch-globpath-");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "a.ts"), "const needle = 1;\n");
  writeFileSync(join(dir, "src", "b.js"), "const needle = 2;\n");
  for (const tool of ["llmsearch", "llmastsearch"] as const) {
    const args = tool === "llmsearch" ? ["needle"] : ["-q", "(identifier) @i"];
    const r = await runTool(tool, ["--root", dir, ...args, "src/*.ts"], { cwd: dir });
    assert.equal(r.code, 2, r.stdout);
    const err = (r.json as { data: { code: string; remediation: string } }).data;
    assert.match(err.code, /_E002$/);
    assert.match(err.remediation, /'src\/\*\.ts' is a glob, .*--glob 'src\/\*\.ts'/, err.remediation);
    // Beside a path that exists, the warning says the same.
    const mixed = await runTool(tool, ["--root", dir, ...args, "src/*.ts", "src/b.js"], { cwd: dir });
    assert.ok((mixed.json as Env).diagnostics?.some((d) => /_E002$/.test(d.code ?? "") && /is a glob/.test(d.remediation ?? "")), mixed.stdout);
  }
  const followed = await runTool("llmsearch", ["--root", dir, "needle", "--glob", "src/*.ts"], { cwd: dir });
  const rg = spawnSync("sh", ["-c", "rg --json needle src/*.ts"], { cwd: dir, encoding: "utf8" });
  const rgFiles = rg.stdout.split("\n").filter((l) => l.includes('"type":"match"')).map((l) => (JSON.parse(l) as { data: { path: { text: string } } }).data.path.text);
  assert.ok(rgFiles.length > 0, rg.stdout);
  assert.deepEqual((followed.json as Env).data.matches.map((m) => m.span.file_path), rgFiles);
  // A missing path that is no glob keeps the plain advice.
  const plain = await runTool("llmsearch", ["--root", dir, "needle", "nope.ts"], { cwd: dir });
  assert.doesNotMatch((plain.json as { data: { remediation: string } }).data.remediation, /glob/);
});

test("a glob that is a directory's plain name (-g src) matches no file, as in rg, and the empty answer names the glob that does (src/**), which rg agrees takes its files", async () => {
  const dir = tempDir("llmsearch-globdir-");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "a.ts"), "const needle = 1;\n");
  const rgFiles = (glob: string): string[] => spawnSync("rg", ["--files", "-g", glob], { cwd: dir, encoding: "utf8" }).stdout.split("\n").filter(Boolean);
  assert.deepEqual(rgFiles("src"), [], "rg: -g src names no file");
  assert.deepEqual(rgFiles("src/**"), ["src/a.ts"]);
  const s = await runTool("llmsearch", ["--root", dir, "needle", "-g", "src"], { cwd: dir });
  const e104 = (s.json as Env).diagnostics?.find((d) => d.code === "LLMSEARCH_E104");
  assert.match(e104?.message ?? "", /'src' names a directory, .*--glob 'src\/\*\*'/, s.stdout);
  const a = await runTool("llmastsearch", ["--root", dir, "-q", "(identifier) @i", "-g", "src/"], { cwd: dir });
  const w112 = (a.json as Env).diagnostics?.find((d) => d.code === "LLMASTSEARCH_W112");
  assert.match(w112?.message ?? "", /'src' names a directory, .*--glob 'src\/\*\*'/, a.stdout);
  const followed = await runTool("llmsearch", ["--root", dir, "needle", "-g", "src/**"], { cwd: dir });
  assert.deepEqual((followed.json as Env).data.matches.map((m) => m.span.file_path), ["src/a.ts"]);
  // A glob that is no directory's name gets no such hint.
  const other = await runTool("llmsearch", ["--root", dir, "needle", "-g", "lib"], { cwd: dir });
  assert.doesNotMatch(JSON.stringify((other.json as Env).diagnostics), /names a directory/);
});

test("a glob written with a leading './' or a trailing '/' matches no file, as in rg, and the empty answer names the glob that does", async () => {
  // `-g './src/**'` is how an agent spells "under src" from the shell; rg matches globs on paths
  // without the './' and a glob ending in '/' on directories only. The note had said only "no
  // file matched --glob './src/**'", which reads as "src holds nothing".
  const dir = tempDir("llmsearch-globdot-");
  mkdirSync(join(dir, "src", "requests"), { recursive: true });
  writeFileSync(join(dir, "src", "requests", "api.py"), "import needle\n");
  const rgFiles = (glob: string): string[] => spawnSync("rg", ["--files", "-g", glob], { cwd: dir, encoding: "utf8" }).stdout.split("\n").filter(Boolean);
  for (const [glob, fixed] of [
    ["./src/**", "src/**"],
    ["./src", "src/**"],
    ["src/requests/*.py/", "src/requests/*.py"],
    ["src/**/", "src/**"],
  ] as const) {
    assert.deepEqual(rgFiles(glob), [], `rg: -g ${glob} names no file`);
    assert.deepEqual(rgFiles(fixed), ["src/requests/api.py"], `rg: -g ${fixed}`);
    const s = await runTool("llmsearch", ["--root", dir, "needle", "-g", glob], { cwd: dir });
    const e104 = (s.json as Env).diagnostics?.find((d) => d.code === "LLMSEARCH_E104");
    assert.ok(e104?.message.includes(`--glob '${fixed}'`), `${glob}: ${s.stdout}`);
    const a = await runTool("llmastsearch", ["--root", dir, "-q", "(identifier) @i", "-g", glob], { cwd: dir });
    const w112 = (a.json as Env).diagnostics?.find((d) => d.code === "LLMASTSEARCH_W112");
    assert.ok(w112?.message.includes(`--glob '${fixed}'`), `${glob}: ${a.stdout}`);
  }
});

test("a huge single line: exact span at its end, nothing lost", async () => {
  const dir = tempDir("llmsearch-huge-");
  const line = `${"a".repeat(8 * 1024 * 1024)}needle`;
  writeFileSync(join(dir, "huge.txt"), `${line}\n`);
  const r = await runTool("llmsearch", ["--root", dir, "--pattern", "ne+dle"]);
  assert.equal(r.code, 0);
  const m = (r.json as Env).data.matches;
  assert.equal(m.length, 1);
  assert.equal(m[0]?.span.byte_start, 8 * 1024 * 1024);
  assert.equal(m[0]?.span.end_col, 8 * 1024 * 1024 + 6);
});

test("catastrophic backtracking does not hang: the file times out, the rest is searched", async () => {
  const dir = tempDir("llmsearch-redos-");
  writeFileSync(join(dir, "evil.txt"), `${"a".repeat(5000)}b\n`);
  writeFileSync(join(dir, "fine.txt"), "aaa\n");
  const t0 = Date.now();
  const r = await runTool("llmsearch", ["--root", dir, "--timeout", "300", "--pattern", "(a+)+$"], { timeoutMs: 30_000 });
  assert.ok(Date.now() - t0 < 20_000, "returned well before the test's own kill timer");
  assert.equal(r.code, 4, r.stdout);
  const env = r.json as Env;
  assert.equal(env.partial, true);
  assert.deepEqual(env.data.files_skipped.map((s) => [s.file_path, s.reason]), [["evil.txt", "timeout"]]);
  assert.deepEqual(env.data.matches.map((m) => [m.span.file_path, m.matched_text]), [["fine.txt", "aaa"]]);
  assert.equal(env.diagnostics?.[0]?.code, "LLMSEARCH_E103");
});

test("a pattern that runs past the budget on 3 files stops the search: the rest is not searched, and the answer says how many (typeorm's 3,500 files under `(\\w+\\s?)*;$` took hours)", async () => {
  const dir = tempDir("llmsearch-redos-stop-");
  // Sorted names: the good files come first and are searched; the evil ones run out of time.
  writeFileSync(join(dir, "a-fine.txt"), "one two;\n");
  for (let k = 0; k < 12; k++) writeFileSync(join(dir, `evil-${String(k).padStart(2, "0")}.txt`), `${"word ".repeat(40)}!\n`);
  const t0 = Date.now();
  const r = await runTool("llmsearch", ["--root", dir, "--timeout", "200", "-j", "1", "--pattern", "(\\w+\\s?)*;$"], { timeoutMs: 60_000 });
  const took = Date.now() - t0;
  assert.equal(r.code, 4, r.stdout);
  const env = r.json as Env;
  assert.equal(env.partial, true);
  // Three files past the budget, then the search stopped: the others cost nothing more.
  assert.equal(env.data.files_skipped.filter((s) => s.reason === "timeout").length, 3, JSON.stringify(env.data.files_skipped));
  assert.deepEqual(env.data.matches.map((m) => [m.span.file_path, m.matched_text]), [["a-fine.txt", "one two;"]]);
  const stop = env.diagnostics?.find((d) => d.level === "error");
  assert.equal(stop?.code, "LLMSEARCH_E103");
  assert.match(stop?.message ?? "", /^the search stopped after 3 files ran past the 200 ms budget per file: 9 files were not searched/);
  assert.equal(env.data.files_searched, 1);
  assert.ok(took < 12 * 200 + 20_000, `took ${took} ms`);
});

test("pattern errors: invalid, unsupported, newline without --multiline (exit 2, stable codes)", async () => {
  const cases: [string[], string][] = [
    [["--pattern", "foo("], "LLMSEARCH_E100"],
    [["--pattern", "a(?i:b)"], "LLMSEARCH_E101"],
    [["--pattern", "[a-z&&[^aeiou]]"], "LLMSEARCH_E101"],
    [["--pattern", "one\\ntwo"], "LLMSEARCH_E102"],
  ];
  for (const [args, code] of cases) {
    const r = await runTool("llmsearch", ["--root", root, ...args]);
    assert.equal(r.code, 2, args.join(" "));
    const env = r.json as { data: { code: string; remediation: string }; diagnostics: Diagnostic[] };
    assert.equal(env.data.code, code, args.join(" "));
    assert.ok(env.data.remediation.length > 0);
  }
  const missing = await runTool("llmsearch", ["--root", root]);
  assert.equal(missing.code, 2);
  assert.equal((missing.json as { data: { code: string } }).data.code, "LLMSEARCH_E000");
});

test("--multiline matches across lines; ripgrep syntax (\\A, \\z, (?s), [[:alpha:]], \\pL) is translated", async () => {
  const ml = await searchOk(["--multiline", "--pattern", "x\\ny", "sub/deep.txt"]);
  assert.equal(ml.data.matches[0]?.span.start_line, 1);
  assert.equal(ml.data.matches[0]?.span.end_line, 2);
  checkSpan(ml.data.matches[0] as LlmsearchMatch);
  const a = await searchOk(["--pattern", "\\Ax", "sub/deep.txt"]);
  assert.equal(a.data.match_count, 1);
  const z = await searchOk(["--multiline", "--pattern", "w\\n\\z", "sub/deep.txt"]);
  assert.equal(z.data.match_count, 1);
  const s = await searchOk(["--multiline", "--pattern", "(?s)x.y", "sub/deep.txt"]);
  assert.equal(s.data.match_count, 1);
  const posix = await searchOk(["--pattern", "caf[[:alpha:]]", "invalid.txt"]);
  assert.equal(posix.data.match_count, 0, "é is not ASCII [:alpha:] (as in ripgrep)");
  const uni = await searchOk(["--pattern", "caf\\pL", "invalid.txt"]);
  assert.equal(uni.data.matches[0]?.matched_text, "café");
  const ci = await searchOk(["--pattern", "(?i)NEEDLE AT", "bom.txt"]);
  assert.equal(ci.data.match_count, 1);
});

test("--word, --ignore-case, --fixed-strings, context and match ids", async () => {
  const dir = tempDir("llmsearch-flags-");
  writeFileSync(join(dir, "a.txt"), "foo foobar Foo\nbar.baz barXbaz\nnext\n");
  const w = (await runTool("llmsearch", ["--root", dir, "--word", "--ignore-case", "--pattern", "foo"])).json as Env;
  assert.deepEqual(w.data.matches.map((m) => [m.span.byte_start, m.matched_text]), [[0, "foo"], [11, "Foo"]]);
  const f = (await runTool("llmsearch", ["--root", dir, "--fixed-strings", "--pattern", "bar.baz", "--after", "1"])).json as Env;
  assert.deepEqual(f.data.matches.map((m) => m.matched_text), ["bar.baz"]);
  assert.deepEqual(f.data.matches[0]?.context_after, ["next"]);
  const again = (await runTool("llmsearch", ["--root", dir, "--fixed-strings", "--pattern", "bar.baz"])).json as Env;
  assert.equal(again.data.matches[0]?.match_id, f.data.matches[0]?.match_id, "same question, same bytes: same id");
  const regex = (await runTool("llmsearch", ["--root", dir, "--pattern", "bar.baz"])).json as Env;
  assert.equal(regex.data.match_count, 2);
  assert.notEqual(regex.data.matches[0]?.match_id, f.data.matches[0]?.match_id, "a different question gives a different id");
});

test("--limit cuts in path/offset order, partial with exit 4; total_count counts all", async () => {
  const env = await searchOk(["--pattern", "needle", "--limit", "3"], 4);
  assert.equal(env.partial, true);
  assert.equal(env.data.match_count, 3);
  assert.equal(env.data.total_count, 9);
  assert.deepEqual(env.data.matches.map((m) => m.span.file_path), ["big.txt", "binary.bin", "bom.txt"]);
  assert.ok(env.diagnostics?.some((d) => d.code === "LLMSEARCH_E108"));
});

test("empty results say why", async () => {
  const none = await searchOk(["--pattern", "needle", "--glob", "**/*.rs"]);
  assert.equal(none.data.files_searched, 0);
  assert.equal(none.diagnostics?.[0]?.code, "LLMSEARCH_E104");
  assert.match(none.diagnostics?.[0]?.message ?? "", /\*\*\/\*\.rs/);
  const bin = await searchOk(["--pattern", "absent", "binary.bin"]);
  assert.equal(bin.diagnostics?.[0]?.code, "LLMSEARCH_E105");
  const nomatch = await searchOk(["--pattern", "no such text anywhere"]);
  assert.equal(nomatch.data.match_count, 0);
  assert.equal(nomatch.diagnostics?.[0]?.code, "LLMSEARCH_E107");
  const empty = await searchOk(["--pattern", "x", "empty.txt"]);
  assert.equal(empty.data.files_searched, 1);
});

test("the issue's command works as written: --pattern TODO --glob '**/*.rs'", async () => {
  const dir = tempDir("llmsearch-rs-");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "main.rs"), "fn main() {\n    // TODO: parse args\n}\n");
  writeFileSync(join(dir, "notes.md"), "TODO elsewhere\n");
  const r = await runTool("llmsearch", ["--pattern", "TODO", "--glob", "**/*.rs"], { cwd: dir });
  assert.equal(r.code, 0);
  const env = r.json as Env;
  assert.deepEqual(env.data.matches.map((m) => [m.span.file_path, m.span.start_line, m.span.start_col]), [["src/main.rs", 2, 7]]);
  const help = await runTool("llmsearch", ["--help"], { raw: true });
  assert.equal(help.code, 0);
  for (const flag of ["--pattern", "--fixed-strings", "--ignore-case", "--word", "--multiline", "--glob", "--root", "--context", "--before", "--after", "--limit", "--max-filesize", "--hidden", "--no-ignore", "--count", "--count-matches", "--pretty", "--timeout", "Exit codes"]) {
    assert.ok(help.stdout.includes(flag), `--help mentions ${flag}`);
  }
});

test("--fixed-strings takes a literal with '-' (\"->str\", \"a-b\") instead of refusing it as a bad escape", async () => {
  writeFileSync(join(root, "arrow.c"), "r->str = a-b;\n");
  const env = await searchOk(["--fixed-strings", "--pattern", "->str", "--glob", "arrow.c"]);
  assert.deepEqual(env.data.matches.map((m) => m.matched_text), ["->str"]);
  for (const m of env.data.matches) checkSpan(m);
  const dash = await searchOk(["-F", "-e", "a-b", "--glob", "arrow.c"]);
  assert.deepEqual(dash.data.matches.map((m) => m.span.byte_start), [9]);
});

test("a FIFO named as a path is listed as not read, not opened (opening it waits for a writer forever); llmastsearch says so too", async () => {
  const dir = tempDir("llmsearch-fifo-");
  writeFileSync(join(dir, "a.txt"), "needle\n");
  writeFileSync(join(dir, "a.py"), "needle = 1\n");
  const made = spawnSync("mkfifo", [join(dir, "pipe.txt")]);
  assert.equal(made.status, 0, "mkfifo is needed for this test");
  const r = await runTool("llmsearch", ["--root", dir, "needle", "pipe.txt", "a.txt"], { cwd: dir, timeoutMs: 20_000 });
  assert.equal(r.code, 0, r.stdout);
  const data = (r.json as { data: LlmsearchData }).data;
  assert.deepEqual(data.matches.map((m) => m.span.file_path), ["a.txt"]);
  assert.deepEqual(data.files_skipped.map((s) => [s.file_path, s.reason]), [["pipe.txt", "unreadable"]]);
  const alone = await runTool("llmsearch", ["--root", dir, "needle", "pipe.txt"], { cwd: dir, timeoutMs: 20_000 });
  assert.equal((alone.json as { diagnostics: Diagnostic[] }).diagnostics[0]?.code, "LLMSEARCH_E105");
  const ast = await runTool("llmastsearch", ["--root", dir, "-q", "(identifier) @i", "-l", "python", "pipe.txt", "a.py"], { cwd: dir, timeoutMs: 20_000 });
  assert.equal(ast.code, 0, ast.stdout);
  assert.match(JSON.stringify((ast.json as { diagnostics: Diagnostic[] }).diagnostics), /not a regular file.*pipe\.txt/);
});
