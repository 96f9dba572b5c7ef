/**
 * Paths are taken from the current directory, else from the workspace root, as llmsearch and the
 * other tools take them (the paths mdsel prints are root-relative). mdsel took them from the
 * current directory only: `mdsel --root R index docs/usage.md` run elsewhere, or a `file_path`
 * copied from an index run in a subdirectory, was "File not found". And a selector whose namespace
 * was not among the documents offered the namespace of the file that was not found.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../support/run.js";
import { FIXTURES, index, select } from "./helpers.js";

const ROOT = join(FIXTURES, "root-paths");
const SUB = join(ROOT, "packages", "core");

describe("a root-relative path", () => {
  it("is found from a subdirectory and from outside the root, with and without a directory", async () => {
    for (const cwd of [SUB, tempDir("mdsel-elsewhere-")]) {
      const r = await index(["--root", ROOT, "docs/usage.md"], { cwd });
      assert.equal(r.code, 0, `${cwd}: ${JSON.stringify(r.env.errors)}`);
      assert.deepEqual(r.env.data?.documents.map((d) => d.file_path), ["docs/usage.md"]);
      const s = await select(["--root", ROOT, "usage::heading:h2[1]", "docs/usage.md"], { cwd });
      assert.equal(s.code, 0, JSON.stringify(s.env.errors));
      assert.equal(s.env.data?.matches[0]?.content, "## Errors\n\nA `ParseError` carries the offset.");
      const dir = await index(["--root", ROOT, "docs/"], { cwd });
      assert.equal(dir.code, 0, JSON.stringify(dir.env.errors));
      assert.deepEqual(dir.env.data?.documents.map((d) => d.file_path), ["docs/usage.md"]);
    }
  });

  it("gives way to the same path below the current directory", async () => {
    const r = await index(["--root", ROOT, "README.md"], { cwd: SUB });
    assert.equal(r.code, 0, JSON.stringify(r.env.errors));
    assert.deepEqual(r.env.data?.documents.map((d) => d.file_path), ["packages/core/README.md"]);
  });

  it("that exists nowhere is still not found, and says where paths are taken from", async () => {
    const r = await index(["--root", ROOT, "docs/nope.md"], { cwd: SUB });
    assert.equal(r.code, 1);
    assert.equal(r.env.errors?.[0]?.code, "MDSEL_E002");
    assert.match(r.env.errors?.[0]?.remediation ?? "", /else from the workspace root/);
  });
});

describe("a namespace not among the documents", () => {
  it("is not offered the namespace of a file that could not be read", async () => {
    const r = await select(["--root", ROOT, "readme::heading:h2[0]", "docs/nope.md"], { cwd: ROOT });
    assert.equal(r.code, 1);
    const e = r.env.errors?.find((x) => x.code === "MDSEL_E104");
    assert.ok(e, JSON.stringify(r.env.errors));
    assert.doesNotMatch(e.message, /nope/);
    assert.deepEqual(e.suggestions ?? [], []);
    // With a readable file beside it, that one is offered.
    const two = await select(["--root", ROOT, "readme::heading:h2[0]", "docs/nope.md", "docs/usage.md"], { cwd: ROOT });
    const e2 = two.env.errors?.find((x) => x.code === "MDSEL_E104");
    assert.match(e2?.message ?? "", /available: usage$/);
    assert.deepEqual(e2?.suggestions, ["usage::heading:h2[0]"]);
  });
});
