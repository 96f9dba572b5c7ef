import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ToolError } from "../../src/contract/errors.js";
import { findWorkspaceRoot, resolveInRoot } from "../../src/text/root.js";
import { tempDir } from "../support/run.js";

function expectCode(fn: () => unknown, code: string, exitCode?: number): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ToolError, String(e));
    assert.equal(e.code, code);
    if (exitCode !== undefined) assert.equal(e.exitCode, exitCode);
    assert.ok(e.remediation && e.remediation.length > 0);
    return true;
  });
}

test("root: --root, else the enclosing git work tree, else the current directory", () => {
  const repo = tempDir("root-");
  execFileSync("git", ["init", "-q"], { cwd: repo });
  mkdirSync(join(repo, "a/b"), { recursive: true });
  assert.equal(findWorkspaceRoot("t", undefined, join(repo, "a/b")), repo);
  assert.equal(findWorkspaceRoot("t", "a", repo), join(repo, "a"));
  const plain = tempDir("root-plain-");
  assert.equal(findWorkspaceRoot("t", undefined, plain), plain);
  expectCode(() => findWorkspaceRoot("t", "missing", plain), "T_E004", 2);
  writeFileSync(join(plain, "f"), "");
  expectCode(() => findWorkspaceRoot("t", "f", plain), "T_E004", 2);
});

test("paths inside the root resolve to root-relative file_path with / separators", () => {
  const root = tempDir("res-");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src/a.ts"), "");
  assert.deepEqual(resolveInRoot("t", root, "src/a.ts", root), { abs: join(root, "src/a.ts"), rel: "src/a.ts" });
  assert.equal(resolveInRoot("t", root, join(root, "src/a.ts"), "/").rel, "src/a.ts");
  // Root-relative paths work from another cwd (tool output feeds tool input).
  assert.equal(resolveInRoot("t", root, "src/a.ts", "/").rel, "src/a.ts");
  // A file that does not exist yet (llmfilewrite) still resolves.
  assert.equal(resolveInRoot("t", root, "src/new/b.ts", root).rel, "src/new/b.ts");
});

test("`..`, absolute paths elsewhere and symlinks out of the root are refused", () => {
  const root = tempDir("res-");
  const outside = tempDir("res-out-");
  writeFileSync(join(outside, "secret"), "x");
  mkdirSync(join(root, "d"));
  symlinkSync(outside, join(root, "d/escape"));
  symlinkSync(join(outside, "secret"), join(root, "file-link"));
  expectCode(() => resolveInRoot("t", root, "../x", root), "T_E001", 2);
  expectCode(() => resolveInRoot("t", root, "d/../../x", root), "T_E001", 2);
  expectCode(() => resolveInRoot("t", root, "/etc/passwd", root), "T_E001", 2);
  expectCode(() => resolveInRoot("t", root, "d/escape/secret", root), "T_E001", 2);
  expectCode(() => resolveInRoot("t", root, "d/escape/new-file", root), "T_E001", 2);
  expectCode(() => resolveInRoot("t", root, "file-link", root), "T_E001", 2);
  expectCode(() => resolveInRoot("t", root, "a\0b", root), "T_E005", 2);
});

test("a root reached through a symlinked spelling is still the root", () => {
  const root = tempDir("res-");
  writeFileSync(join(root, "f.ts"), "");
  const alias = join(tempDir("alias-"), "root-link");
  symlinkSync(root, alias);
  assert.equal(resolveInRoot("t", root, join(alias, "f.ts"), "/").rel, "f.ts");
});
