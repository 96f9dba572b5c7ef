import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { rgPaths } from "../support/rg.js";
import { runTool, tempDir } from "../support/run.js";
import { checkMatches, checkSpan, type Data, fixtureCopy, names } from "./helpers.js";

const SEED_QUERY = "(function_item name: (identifier) @name)";

test("the seed 02 command works as written: function names of Rust files", async () => {
  const root = fixtureCopy("langs");
  const r = await runTool("llmastsearch", ["--query", SEED_QUERY, "--glob", "**/*.rs"], { cwd: root });
  assert.equal(r.code, 0, r.stdout);
  const env = r.json as { tool: string; command: string; partial: boolean; data: Data };
  assert.equal(env.tool, "llmastsearch");
  assert.equal(env.partial, false);
  const d = env.data;
  assert.equal(d.query, SEED_QUERY);
  assert.equal(d.language, "Rust");
  assert.equal(d.file_path, "lib.rs");
  assert.equal(d.files_searched, 1);
  assert.deepEqual(names(d), ["with_capacity", "push", "main"]);
  checkMatches(root, d);
  for (const m of d.matches) {
    assert.equal(m.language, "Rust");
    assert.equal(m.pattern_index, 0);
    // Seed 02 §4: the match spans the whole function_item; the capture only the name.
    const text = checkSpan(root, m.span).toString("utf8");
    assert.match(text, /^(pub )?fn /);
    assert.match(text, /\}$/);
  }
});

test("match ids are deterministic, distinct, and change with the question", async () => {
  const root = fixtureCopy("langs");
  const a = (await runTool("llmastsearch", ["-q", SEED_QUERY, "--root", root])).json as { data: Data };
  const b = (await runTool("llmastsearch", ["-q", SEED_QUERY, "--root", root])).json as { data: Data };
  const ids = a.data.matches.map((m) => m.match_id);
  assert.deepEqual(ids, b.data.matches.map((m) => m.match_id));
  assert.equal(new Set(ids).size, ids.length);
  const c = (await runTool("llmastsearch", ["-q", `${SEED_QUERY} `, "--root", root])).json as { data: Data };
  assert.notDeepEqual(c.data.matches.map((m) => m.match_id), ids);
});

test("every language of the registry: definitions found with exact spans", async () => {
  const root = fixtureCopy("langs");
  const cases: { lang: string; glob: string; query: string; expect: string[] }[] = [
    { lang: "rust", glob: "*.rs", query: "(struct_item name: (type_identifier) @n)", expect: ["Ring"] },
    { lang: "python", glob: "*.py", query: "(function_definition name: (identifier) @n)", expect: ["__init__", "add", "save", "load"] },
    { lang: "c", glob: "*.c", query: "(function_declarator declarator: (identifier) @n)", expect: ["clamp", "count_char"] },
    { lang: "cpp", glob: "*.cpp", query: "(class_specifier name: (type_identifier) @n)", expect: ["Circle"] },
    { lang: "java", glob: "*.java", query: "(method_declaration name: (identifier) @n)", expect: ["greet", "main"] },
    { lang: "javascript", glob: "*.js", query: "(function_declaration name: (identifier) @n)", expect: ["route", "dispatch"] },
    { lang: "typescript", glob: "*.ts", query: "(method_definition name: (property_identifier) @n)", expect: ["set", "get"] },
    { lang: "tsx", glob: "*.tsx", query: "(jsx_self_closing_element name: (identifier) @n)", expect: ["Button"] },
    { lang: "go", glob: "*.go", query: "(method_declaration name: (field_identifier) @n)", expect: ["Add"] },
  ];
  for (const c of cases) {
    const r = await runTool("llmastsearch", ["--root", root, "--glob", c.glob, "--query", c.query]);
    assert.equal(r.code, 0, `${c.lang}: ${r.stdout}`);
    const d = (r.json as { data: Data }).data;
    assert.deepEqual(d.languages, [c.lang], c.lang);
    assert.deepEqual(names(d), c.expect, c.lang);
    checkMatches(root, d);
  }
});

test("--language names the grammar and fails fast on a query of another grammar", async () => {
  const root = fixtureCopy("langs");
  const ok = await runTool("llmastsearch", ["--root", root, "-l", "go", "-q", "(function_declaration name: (identifier) @n)"]);
  assert.equal(ok.code, 0);
  assert.deepEqual(names((ok.json as { data: Data }).data), ["main"]);
  const bad = await runTool("llmastsearch", ["--root", root, "-l", "python", "-q", SEED_QUERY]);
  assert.equal(bad.code, 1);
  const data = (bad.json as { data: { code: string; remediation: string } }).data;
  assert.equal(data.code, "LLMASTSEARCH_E101");
  assert.match(data.remediation, /exists in: rust/);
  const unknown = await runTool("llmastsearch", ["--root", root, "-l", "cobol", "-q", SEED_QUERY]);
  assert.equal(unknown.code, 2);
  assert.equal((unknown.json as { data: { code: string } }).data.code, "LLMASTSEARCH_E107");
});

test("one query over several languages runs where it compiles and says which it skipped", async () => {
  const root = fixtureCopy("langs");
  // function_declaration exists in JS, TS, TSX and Go, not in the other five grammars.
  const r = await runTool("llmastsearch", ["--root", root, "-q", "(function_declaration name: (identifier) @n)"]);
  assert.equal(r.code, 0, r.stdout);
  const env = r.json as { data: Data; diagnostics: { code: string; level: string; message: string }[] };
  assert.deepEqual(env.data.languages, ["go", "javascript", "tsx", "typescript"]);
  assert.deepEqual(names(env.data).sort(), ["App", "Button", "dispatch", "main", "makeStore", "route"]);
  const skipped = env.diagnostics.filter((d) => d.code === "LLMASTSEARCH_W110");
  assert.deepEqual(skipped.map((d) => d.message.split(" file(s)")[0]?.replace(/^\d+ /, "")).sort(), ["C", "C++", "Java", "Python", "Rust"]);
  assert.ok(skipped.every((d) => d.level === "warning" && /does not compile/.test(d.message)));
  checkMatches(root, env.data);
  // Order: path, then offset.
  const keys = env.data.matches.map((m) => [m.file_path, m.span.byte_start] as const);
  assert.deepEqual(keys, [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1])));
});

test("a query that compiles for none of the languages found is an error, not an empty success", async () => {
  const root = fixtureCopy("langs");
  const r = await runTool("llmastsearch", ["--root", root, "--glob", "*.py", "--glob", "*.java", "-q", "(functon_definition) @f"]);
  assert.equal(r.code, 1);
  const d = (r.json as { data: { code: string; message: string } }).data;
  assert.equal(d.code, "LLMASTSEARCH_E101");
  assert.match(d.message, /none of the languages/);
});

test("--capture keeps one capture; --context adds lines around the match", async () => {
  const root = fixtureCopy("langs");
  const q = "(function_definition name: (identifier) @name body: (block) @body)";
  const r = await runTool("llmastsearch", ["--root", root, "-q", q, "--capture", "name", "-C", "1"]);
  assert.equal(r.code, 0);
  const d = (r.json as { data: Data }).data;
  assert.deepEqual(names(d), ["__init__", "add", "save", "load"]);
  for (const m of d.matches) {
    assert.equal(m.captures.length, 1);
    assert.deepEqual(m.span, m.captures[0]?.span);
    assert.equal(m.context_before?.length, 1);
    assert.equal(m.context_after?.length, 1);
  }
  const lines = readFileSync(join(root, "app.py"), "utf8").split("\n");
  const first = d.matches[0];
  assert.ok(first);
  assert.deepEqual(first.context_before, [lines[first.span.start_line - 2]]);
  assert.deepEqual(first.context_after, [lines[first.span.end_line]]);
  const bad = await runTool("llmastsearch", ["--root", root, "-q", q, "--capture", "nam"]);
  assert.equal(bad.code, 2);
  const e = (bad.json as { data: { code: string; remediation: string } }).data;
  assert.equal(e.code, "LLMASTSEARCH_E103");
  assert.match(e.remediation, /@name, @body/);
});

test("--limit cuts in deterministic order and reports partial with exit 4", async () => {
  const root = fixtureCopy("langs");
  const all = (await runTool("llmastsearch", ["--root", root, "-q", "(identifier) @id", "-l", "rust"])).json as { data: Data };
  const r = await runTool("llmastsearch", ["--root", root, "-q", "(identifier) @id", "-l", "rust", "--limit", "3"]);
  assert.equal(r.code, 4);
  const env = r.json as { partial: boolean; data: Data; diagnostics: { code: string }[] };
  assert.equal(env.partial, true);
  assert.equal(env.data.match_count, 3);
  assert.equal(env.data.total_matches, all.data.match_count);
  assert.deepEqual(env.data.matches, all.data.matches.slice(0, 3));
  assert.ok(env.diagnostics.some((d) => d.code === "LLMASTSEARCH_W113"));
});

test("no matches: exit 0 and the diagnostics say why", async () => {
  const root = fixtureCopy("langs");
  const none = await runTool("llmastsearch", ["--root", root, "-q", '((identifier) @x (#eq? @x "nothing_here"))', "-l", "rust"]);
  assert.equal(none.code, 0);
  const env = none.json as { data: Data; diagnostics: { code: string; message: string }[] };
  assert.equal(env.data.match_count, 0);
  assert.match(env.diagnostics.find((d) => d.code === "LLMASTSEARCH_W112")?.message ?? "", /matched nothing in 1 file/);
  const noFiles = await runTool("llmastsearch", ["--root", root, "-q", SEED_QUERY, "--glob", "*.zig"]);
  assert.equal(noFiles.code, 0);
  assert.match(JSON.stringify(noFiles.json), /no file matched/);
});

test("hostile files: BOM, CRLF, multi-byte text, invalid UTF-8 keep byte offsets exact; binary is skipped", async () => {
  const root = tempDir("llmastsearch-hostile-");
  mkdirSync(join(root, "src"));
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("fn ünïcode() {}\r\nfn crlf() {}\r\n", "utf8")]);
  writeFileSync(join(root, "src", "bom.rs"), bom);
  // An invalid byte (0xff) in a string before the function: offsets after it must still be exact.
  const invalid = Buffer.concat([Buffer.from('const S: &str = "'), Buffer.from([0xff, 0xfe]), Buffer.from('";\nfn after_bad() {}\n')]);
  writeFileSync(join(root, "src", "invalid.rs"), invalid);
  writeFileSync(join(root, "src", "emoji.rs"), "// 😀😀\nfn 𝔘() {}\nfn plain() {}\n");
  writeFileSync(join(root, "src", "bin.rs"), Buffer.from([0x66, 0x6e, 0x00, 0x01]));
  const r = await runTool("llmastsearch", ["--root", root, "-q", SEED_QUERY]);
  assert.equal(r.code, 0, r.stdout);
  const env = r.json as { data: Data; diagnostics: { code: string; message: string }[] };
  assert.deepEqual(names(env.data), ["ünïcode", "crlf", "𝔘", "plain", "after_bad"]);
  checkMatches(root, env.data, { validUtf8: true });
  const after = env.data.matches.find((m) => m.captures[0]?.content === "after_bad");
  assert.equal(after?.captures[0]?.byte_start, invalid.indexOf("after_bad"));
  const crlf = env.data.matches.find((m) => m.captures[0]?.content === "crlf");
  assert.equal(crlf?.captures[0]?.byte_start, bom.indexOf("crlf"));
  assert.equal(crlf?.span.start_line, 2);
  assert.ok(env.diagnostics.some((d) => d.code === "LLMASTSEARCH_E006" && /bin\.rs/.test(d.message)));
});

test("a path outside the root is refused", async () => {
  const root = fixtureCopy("langs");
  const r = await runTool("llmastsearch", ["--root", root, "-q", SEED_QUERY, "--file", "../../etc/passwd"]);
  assert.equal(r.code, 2);
  assert.equal((r.json as { data: { code: string } }).data.code, "LLMASTSEARCH_E001");
});

test("--language parses a named file whatever its extension; --hidden and --no-ignore widen the walk", async () => {
  const root = tempDir("llmastsearch-walk-");
  writeFileSync(join(root, "script.txt"), "def from_txt():\n    pass\n");
  writeFileSync(join(root, ".ignore"), "ignored.py\n");
  writeFileSync(join(root, "ignored.py"), "def ignored():\n    pass\n");
  writeFileSync(join(root, ".hidden.py"), "def hidden():\n    pass\n");
  writeFileSync(join(root, "seen.py"), "def seen():\n    pass\n");
  const q = "(function_definition name: (identifier) @n)";
  const forced = await runTool("llmastsearch", ["--root", root, "-l", "python", "-q", q, "--file", "script.txt"], { cwd: root });
  assert.deepEqual(names((forced.json as { data: Data }).data), ["from_txt"]);
  const unforced = await runTool("llmastsearch", ["--root", root, "-q", q, "script.txt", "seen.py"], { cwd: root });
  const uenv = unforced.json as { data: Data; diagnostics: { code: string; message: string }[] };
  assert.deepEqual(names(uenv.data), ["seen"]);
  assert.ok(uenv.diagnostics.some((d) => d.code === "LLMASTSEARCH_E107" && /script\.txt/.test(d.message)), "a named file without a grammar is reported");
  const plain = await runTool("llmastsearch", ["--root", root, "-q", q], { cwd: root });
  assert.deepEqual(names((plain.json as { data: Data }).data), ["seen"]);
  const wide = await runTool("llmastsearch", ["--root", root, "-q", q, "--hidden", "--no-ignore"], { cwd: root });
  assert.deepEqual(names((wide.json as { data: Data }).data), ["hidden", "ignored", "seen"]);
});

test("a path that does not exist is said, as rg and ast-grep say it: alone an error, beside others a warning and a partial answer", async () => {
  const root = fixtureCopy("langs");
  const r = await runTool("llmastsearch", ["-q", SEED_QUERY, "nope.rs"], { cwd: root });
  assert.equal(r.code, 2, r.stdout);
  const data = (r.json as { data: { code: string; message: string } }).data;
  assert.equal(data.code, "LLMASTSEARCH_E002");
  assert.equal(data.message, "no such file or directory: nope.rs");
  const ok = await runTool("llmastsearch", ["-q", SEED_QUERY, "lib.rs"], { cwd: root });
  assert.equal(ok.code, 0, ok.stdout);
  const mixed = await runTool("llmastsearch", ["-q", SEED_QUERY, "lib.rs", "nope.rs"], { cwd: root });
  assert.equal(mixed.code, 4, mixed.stdout);
  const env = mixed.json as { partial: boolean; data: Data; diagnostics: { code: string; message: string }[] };
  assert.equal(env.partial, true);
  assert.deepEqual(names(env.data, "name"), names((ok.json as { data: Data }).data, "name"));
  assert.ok(env.diagnostics.some((d) => d.code === "LLMASTSEARCH_E002" && /nope\.rs/.test(d.message)), JSON.stringify(env.diagnostics));
});

test("-g from a subdirectory matches paths from there, as rg -g does: the files searched are rg --files' with the same globs", async () => {
  const root = tempDir("llmastsearch-globcwd-");
  const files: Record<string, string> = {
    "src/click/__init__.py": "class Group:\n    pass\n",
    "src/click/core.py": "class Command:\n    pass\n",
    "src/click/testing/runner.py": "class CliRunner:\n    pass\n",
    "src/hook.py": "class Hook:\n    pass\n",
    "tests/test_core.py": "class TestCommand:\n    pass\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  execFileSync("git", ["init", "-q"], { cwd: root });
  const cwd = join(root, "src");
  for (const globs of [["click/*.py"], ["!click/core.py"], ["/click/core.py"], ["core.py"], ["src/click/*.py"], ["click/**", "!/click/testing"]]) {
    const r = await runTool("llmastsearch", ["-q", "(class_definition name: (identifier) @n)", ...globs.flatMap((g) => ["-g", g])], { cwd });
    assert.ok(r.code === 0 || r.code === 1, r.stdout);
    const d = (r.json as { data: Data }).data;
    const got = [...new Set(d.matches.map((m) => relative(cwd, join(root, m.file_path))))].sort();
    assert.deepEqual(got, rgPaths(cwd, ["--files", ...globs.flatMap((g) => ["-g", g]), "."]), globs.join(" "));
  }
});

test("the note on symlinks not followed names them, and leaves out links the search would never have parsed", async () => {
  // urfave/cli's docs/CODE_OF_CONDUCT.md -> ../CODE_OF_CONDUCT.md gave "1 symlink(s) met during
  // the walk were not followed" on every Go search, naming nothing.
  const root = fixtureCopy("langs");
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "CODE_OF_CONDUCT.md"), "# Code of conduct\n");
  symlinkSync("../CODE_OF_CONDUCT.md", join(root, "docs", "CODE_OF_CONDUCT.md"));
  symlinkSync("missing.go", join(root, "dangling.go"));
  execFileSync("git", ["init", "-q"], { cwd: root });
  const notes = async (args: string[]): Promise<string[]> => {
    const r = await runTool("llmastsearch", ["-q", "(identifier) @i", ...args], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    return ((r.json as { diagnostics?: { code: string; message: string }[] }).diagnostics ?? []).filter((d) => /symlink/.test(d.message)).map((d) => d.message);
  };
  assert.deepEqual(await notes(["-l", "go"]), [], "a Markdown link and a dangling one: nothing a search could parse");
  const outside = tempDir("llmastsearch-link-target-");
  writeFileSync(join(outside, "shared.go"), "package shared\n");
  symlinkSync(join(outside, "shared.go"), join(root, "alias.go"));
  symlinkSync("docs", join(root, "docs-link"));
  assert.deepEqual(await notes(["-l", "go"]), ["2 symlink(s) met during the walk were not followed: alias.go, docs-link"]);
  assert.deepEqual(await notes(["-l", "python"]), ["1 symlink(s) met during the walk were not followed: docs-link"], "a Go file is no Python");
});

test("a symlink to a file or directory inside the root that the walk searched itself is no news", async () => {
  // ripgrep's HomebrewFormula -> pkg/brew gave "1 symlink(s) met during the walk were not
  // followed: HomebrewFormula ... name the file or directory a link points to" on every Rust
  // search, sending an agent to search pkg/brew again.
  const root = fixtureCopy("langs");
  mkdirSync(join(root, "pkg", "brew"), { recursive: true });
  writeFileSync(join(root, "pkg", "brew", "formula.rb"), "class Formula; end\n");
  symlinkSync("pkg/brew", join(root, "HomebrewFormula"));
  symlinkSync("lib.rs", join(root, "alias.rs"));
  // An ignored target was not searched: that link stays news.
  mkdirSync(join(root, "vendor"));
  writeFileSync(join(root, "vendor", "dep.rs"), "fn dep() {}\n");
  writeFileSync(join(root, ".gitignore"), "vendor/\n");
  symlinkSync("vendor", join(root, "vendored"));
  execFileSync("git", ["init", "-q"], { cwd: root });
  const r = await runTool("llmastsearch", ["-q", "(function_item) @f", "-l", "rust"], { cwd: root });
  assert.equal(r.code, 0, r.stdout);
  const notes = ((r.json as { diagnostics?: { message: string }[] }).diagnostics ?? []).filter((d) => /symlink/.test(d.message)).map((d) => d.message);
  assert.deepEqual(notes, ["1 symlink(s) met during the walk were not followed: vendored"]);
});
