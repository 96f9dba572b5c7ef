/** Each error type, its stable code, suggestions, and the exit codes 0/1/2/4. */
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../support/run.js";
import { index, mdsel, SEED, select } from "./helpers.js";

const cwd = SEED;

describe("errors and exit codes", () => {
  it("FILE_NOT_FOUND in select: an explicit file that is missing", async () => {
    const { code, env } = await select(["nope::root", "nope.md"], { cwd });
    assert.equal(code, 1);
    assert.deepEqual(env.errors!.map((e) => [e.type, e.code, e.file]), [["FILE_NOT_FOUND", "MDSEL_E002", "nope.md"]]);
  });

  it("NAMESPACE_NOT_FOUND: suggestions are the closest namespaces, with the same path", async () => {
    const { code, env } = await select(["readm::heading:h2[0]"], { cwd });
    assert.equal(code, 1);
    const e = env.errors![0]!;
    assert.deepEqual([e.type, e.code], ["NAMESPACE_NOT_FOUND", "MDSEL_E104"]);
    assert.deepEqual(e.suggestions, ["readme::heading:h2[0]", "docs::heading:h2[0]"]);
  });

  it("SELECTOR_NOT_FOUND inside a scope names the scope; suggestions at most five, nearest first", async () => {
    const { env } = await select(["readme::heading:h2[0]/block:table[0]"], { cwd });
    const u = env.data!.unresolved[0]!;
    assert.equal(u.reason, "Not found: section 'Installation' has no table blocks");
    assert.deepEqual(u.suggestions, ["readme::heading:h2[0]/block:code[0]", "readme::heading:h2[0]/block:paragraph[0]"]);
    const many = await select(["docs::heading:h3[40]"], { cwd });
    const s = many.env.data!.unresolved[0]!.suggestions;
    assert.equal(s.length, 5);
    assert.equal(s[0], "docs::heading:h3[0]", "h3[0] is 2 edits from h3[40]");
    const page = await select(["readme::heading:h2[0]/page[3]"], { cwd });
    assert.equal(page.env.data!.unresolved[0]!.reason, "Index out of range: heading:h2 has 1 page of up to 500 words");
    assert.deepEqual(page.env.data!.unresolved[0]!.suggestions, ["readme::heading:h2[0]/page[0]"]);
  });

  it("INVALID_SELECTOR for a mistyped segment suggests the valid spellings; mixed with a valid one it is partial (exit 4)", async () => {
    const { code, env } = await select(["readme::headng:h2[0]", "readme::heading:h2[1]"], { cwd });
    assert.equal(code, 4);
    assert.equal(env.success, false);
    assert.equal(env.data!.matches.length, 1);
    const e = env.errors![0]!;
    assert.deepEqual([e.type, e.code, e.position], ["INVALID_SELECTOR", "MDSEL_E102", { start: 8, end: 14 }]);
    assert.equal(e.suggestions![0], "readme::heading:h2[0]");
    assert.ok(e.suggestions!.length <= 5);
  });

  it("PARSE_ERROR and PROCESSING_ERROR with partial success across files (exit 4)", async () => {
    const dir = tempDir("mdsel-err-");
    writeFileSync(join(dir, "good.md"), "# Good\n\ntext\n");
    writeFileSync(join(dir, "bad.md"), Buffer.from([0x23, 0x20, 0xc3, 0x28, 0x0a]));
    mkdirSync(join(dir, "dir.md"));
    const { code, env } = await index(["good.md", "bad.md", "dir.md"], { cwd: dir });
    assert.equal(code, 4);
    assert.deepEqual(env.errors!.map((e) => [e.type, e.code, e.file]), [
      ["PARSE_ERROR", "MDSEL_E101", "bad.md"],
      ["PROCESSING_ERROR", "MDSEL_E003", "dir.md"],
    ]);
    assert.deepEqual(env.warnings, ["2 of 3 files could not be processed"]);
    const sel = await select(["good::heading:h1[0]", "bad::root", "good.md", "bad.md"], { cwd: dir });
    assert.equal(sel.code, 4);
    assert.equal(sel.env.data!.matches[0]!.content, "# Good\n\ntext");
  });

  it("nothing outside the workspace root is read: a path there, a symlink leading there (MDSEL_E001); a pipe still is", async () => {
    const outside = tempDir("mdsel-outside-");
    writeFileSync(join(outside, "secret.md"), "# Secret\n\nnot yours\n");
    const dir = tempDir("mdsel-root-");
    writeFileSync(join(dir, "good.md"), "# Good\n\ntext\n");
    symlinkSync(join(outside, "secret.md"), join(dir, "link.md"));
    const { code, env } = await index(["good.md", join(outside, "secret.md"), "link.md", "--root", dir], { cwd: dir });
    assert.equal(code, 4);
    assert.deepEqual(env.errors!.map((e) => [e.code, e.file]), [
      ["MDSEL_E001", join(outside, "secret.md")],
      ["MDSEL_E001", "link.md"],
    ]);
    assert.ok(!JSON.stringify(env).includes("not yours"), "the outside file's text is not in the answer");
    const sel = await select(["link::root", "link.md", "--root", dir], { cwd: dir });
    assert.equal(sel.code, 1);
    assert.ok(!JSON.stringify(sel.env).includes("not yours"));
  });

  it("invalid UTF-8 is refused at its first bad byte, also far into a large file", async () => {
    const dir = tempDir("mdsel-utf8-");
    const good = Buffer.from("# Title\n\nSome words, été in UTF-8.\n\n".repeat(40_000));
    const at = good.length - 5;
    const bytes = Buffer.concat([good.subarray(0, at), Buffer.from([0xe9, 0x74]), good.subarray(at)]);
    writeFileSync(join(dir, "big.md"), bytes);
    const { code, env } = await index(["big.md"], { cwd: dir });
    assert.equal(code, 1);
    assert.equal(env.errors![0]!.code, "MDSEL_E101");
    assert.match(env.errors![0]!.message, new RegExp(`at byte ${at} `));
  });

  it("no Markdown files in the directory and none given: FILE_NOT_FOUND MDSEL_E106", async () => {
    const dir = tempDir("mdsel-none-");
    const { code, env } = await index([], { cwd: dir });
    assert.equal(code, 1);
    assert.equal(env.errors![0]!.code, "MDSEL_E106");
    const sel = await select(["root"], { cwd: dir });
    assert.equal(sel.code, 1);
    assert.equal(sel.env.errors![0]!.code, "MDSEL_E106");
  });

  it("usage errors exit 2 with an envelope: bare mdsel, unknown command, select without selector, bad --max-bytes", async () => {
    for (const args of [[], ["bogus"], ["select", "README.md"], ["index", "--max-bytes", "zero", "README.md"]]) {
      const { code, env } = await mdsel<null>(args, { cwd });
      assert.equal(code, 2, args.join(" "));
      assert.equal(env.success, false);
      assert.equal(env.data, null);
      assert.equal(env.errors![0]!.code, "MDSEL_E000", args.join(" "));
    }
  });

  it("--help tells the selectors and exit codes; stdout is only JSON otherwise", async () => {
    const { runTool } = await import("../support/run.js");
    const help = await runTool("mdsel", ["--help"], { raw: true });
    assert.equal(help.code, 0);
    for (const s of ["heading:hN[i]", "section[i]", "block:T[i]", "page[i]", "?full=true", "--max-bytes", "--root", "--pretty", "4  partial success"]) {
      assert.ok(help.stdout.includes(s), `help mentions ${s}`);
    }
    const ok = await index(["--pretty", "README.md"], { cwd });
    assert.equal(ok.code, 0);
  });
});
