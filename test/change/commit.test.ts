/**
 * The change pipeline on real files: commit, refusal when the bytes changed, create/delete,
 * journal + backups + undo, path rules at write time.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ToolError } from "../../src/contract/errors.js";
import { assertWritablePath, commitChange, listOperations, recoverChanges, undoOperation } from "../../src/change/index.js";
import { checksum } from "../../src/text/checksum.js";
import { tempDir } from "../support/run.js";

const b = (s: string): Buffer => Buffer.from(s);

async function rejects(p: Promise<unknown>, code: string): Promise<ToolError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ToolError, String(e));
    assert.equal(e.code, code, e.message);
    assert.ok(e.remediation, "every refusal carries a remediation");
    return e;
  }
  assert.fail(`expected ${code}`);
}

describe("change pipeline: commitChange", () => {
  test("a single-file change replaces the bytes, keeps the mode, leaves no temp and no journal", async () => {
    const root = tempDir("change-one-");
    writeFileSync(join(root, "a.txt"), "one\n");
    chmodSync(join(root, "a.txt"), 0o640);
    const c = await commitChange({ root, tool: "llmtransform", command: "edit a.txt", files: [{ path: "a.txt", before: b("one\n"), after: b("two\n") }] });
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "two\n");
    assert.equal(statSync(join(root, "a.txt")).mode & 0o777, 0o640);
    assert.deepEqual(c.files, [{ path: "a.txt", before_checksum: checksum(b("one\n")), after_checksum: checksum(b("two\n")) }]);
    assert.match(c.operation_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(readdirSync(root).sort(), ["a.txt"], "no temp, and a single-file change without backup keeps no journal");
  });

  test("bytes that differ from the planned before-bytes abort the whole change with nothing written", async () => {
    const root = tempDir("change-stale-");
    writeFileSync(join(root, "a.txt"), "A\n");
    writeFileSync(join(root, "b.txt"), "someone else's\n");
    const e = await rejects(
      commitChange({ root, tool: "splice", command: "x", files: [{ path: "a.txt", before: b("A\n"), after: b("A2\n") }, { path: "b.txt", before: b("B\n"), after: b("B2\n") }] }),
      "SPLICE_E012",
    );
    assert.match(e.message, /b\.txt/);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "A\n");
    assert.equal(readFileSync(join(root, "b.txt"), "utf8"), "someone else's\n");
  });

  test("create (before null) makes missing directories and refuses an existing file; delete (after null) removes", async () => {
    const root = tempDir("change-create-");
    await commitChange({ root, tool: "llmfilewrite", command: "create", files: [{ path: "src/new/x.ts", before: null, after: b("export {};\n"), mode: 0o600 }] });
    assert.equal(readFileSync(join(root, "src/new/x.ts"), "utf8"), "export {};\n");
    assert.equal(statSync(join(root, "src/new/x.ts")).mode & 0o777, 0o600);
    await rejects(commitChange({ root, tool: "llmfilewrite", command: "create", files: [{ path: "src/new/x.ts", before: null, after: b("again\n") }] }), "LLMFILEWRITE_E012");
    await commitChange({ root, tool: "splice", command: "delete", files: [{ path: "src/new/x.ts", before: b("export {};\n"), after: null }] });
    assert.equal(existsSync(join(root, "src/new/x.ts")), false);
  });

  test("a multi-file change with backup is journaled, listed, and undone; undo refuses a file changed since", async () => {
    const root = tempDir("change-undo-");
    writeFileSync(join(root, "a.py"), "a = 1\n");
    writeFileSync(join(root, "b.py"), "b = 1\n");
    const c = await commitChange({
      root,
      tool: "splice",
      command: "rename --symbol a --to z",
      backup: true,
      files: [
        { path: "a.py", before: b("a = 1\n"), after: b("z = 1\n") },
        { path: "b.py", before: b("b = 1\n"), after: b("b = 2\n") },
        { path: "c.py", before: null, after: b("c = 3\n") },
      ],
    });
    assert.equal(readFileSync(join(root, ".splice/.gitignore"), "utf8"), "*\n");
    assert.ok(existsSync(join(root, ".splice/backups", c.operation_id, "manifest.json")));
    const ops = listOperations(root);
    assert.equal(ops[0]?.operation_id, c.operation_id);
    assert.equal(ops[0]?.status, "done");
    assert.deepEqual(ops[0]?.files, ["a.py", "b.py", "c.py"]);

    writeFileSync(join(root, "b.py"), "b = 99\n");
    const e = await rejects(undoOperation(root, { last: true }, "splice"), "SPLICE_E014");
    assert.match(e.message, /b\.py/);
    assert.equal(readFileSync(join(root, "a.py"), "utf8"), "z = 1\n", "a refused undo restores nothing");

    writeFileSync(join(root, "b.py"), "b = 2\n");
    const u = await undoOperation(root, { operationId: c.operation_id }, "splice");
    assert.equal(readFileSync(join(root, "a.py"), "utf8"), "a = 1\n");
    assert.equal(readFileSync(join(root, "b.py"), "utf8"), "b = 1\n");
    assert.equal(existsSync(join(root, "c.py")), false, "a created file is removed by undo");
    const after = listOperations(root);
    assert.equal(after[0]?.operation_id, u.operation_id);
    assert.equal(after.find((o) => o.operation_id === c.operation_id)?.status, "undone");
    assert.deepEqual(recoverChanges(root), { recovered: [] });
  });
});

describe("change pipeline: undo --last walks back through history", () => {
  test("two operations undone with --last twice: back to the start; an undo is itself listed and undoable by id", async () => {
    const root = tempDir("change-undo-last-");
    writeFileSync(join(root, "a.txt"), "0\n");
    const op1 = await commitChange({ root, tool: "splice", command: "one", backup: true, files: [{ path: "a.txt", before: b("0\n"), after: b("1\n") }] });
    await commitChange({ root, tool: "splice", command: "two", backup: true, files: [{ path: "a.txt", before: b("1\n"), after: b("2\n") }] });
    await undoOperation(root, { last: true }, "splice");
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "1\n");
    const u1 = await undoOperation(root, { last: true }, "splice");
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "0\n");
    assert.equal(listOperations(root).find((o) => o.operation_id === op1.operation_id)?.status, "undone");
    await rejects(undoOperation(root, { operationId: op1.operation_id }, "splice"), "SPLICE_E014");
    await rejects(undoOperation(root, { operationId: "no-such-op" }, "splice"), "SPLICE_E015");
    // Only undos are left: --last says so and names the one to redo, not "no operation".
    await assert.rejects(undoOperation(root, { last: true }, "splice"), (e: unknown) => e instanceof ToolError && e.code === "SPLICE_E015" && /every change in this workspace's journal is undone/.test(e.message) && (e.remediation ?? "").includes(`splice undo --operation-id ${u1.operation_id}`));
    // Redo = undo the undo, by its id.
    await undoOperation(root, { operationId: u1.operation_id }, "splice");
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "1\n");
    assert.deepEqual(readdirSync(join(root, ".splice", "pending")), [], "no operation left unfinished");
  });
});

describe("change pipeline: where it may write", () => {
  test("paths inside .git (a directory or a worktree's .git file), .magellan, .splice are refused", async () => {
    const root = tempDir("change-git-");
    mkdirSync(join(root, ".git/hooks"), { recursive: true });
    writeFileSync(join(root, ".git/config"), "[core]\n");
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub/.git"), "gitdir: ../.git/worktrees/sub\n");
    for (const p of [".git/config", ".git/hooks/pre-commit", "sub/.git", "x/.GIT/y", ".magellan/graph.db", ".splice/journal/x.json", "a/../.git/config", join(root, ".git/config")]) {
      assert.throws(() => assertWritablePath(root, p, "llmtransform"), (e: unknown) => e instanceof ToolError && e.code === "LLMTRANSFORM_E010", p);
    }
    // A symlink inside the root that leads into .git is refused by where it leads.
    symlinkSync(".git/hooks", join(root, "hooks"));
    assert.throws(() => assertWritablePath(root, "hooks/pre-commit", "llmfilewrite"), (e: unknown) => e instanceof ToolError && e.code === "LLMFILEWRITE_E010");
    await rejects(commitChange({ root, tool: "llmtransform", command: "x", files: [{ path: ".git/config", before: b("[core]\n"), after: b("[core]\nhooksPath=/tmp\n") }] }), "LLMTRANSFORM_E010");
    assert.equal(readFileSync(join(root, ".git/config"), "utf8"), "[core]\n");
    assert.equal(assertWritablePath(root, "src/.gitignore", "splice"), "src/.gitignore");
    assert.equal(assertWritablePath(root, "./src//a.ts", "splice"), "src/a.ts");
  });

  test("paths outside the root: '..', absolute elsewhere, and symlinks that leave it", () => {
    const root = tempDir("change-out-");
    const outside = tempDir("change-outside-");
    symlinkSync(outside, join(root, "out"));
    for (const p of ["../x", "/etc/passwd", join(outside, "x"), "out/x", "a/../../x"]) {
      assert.throws(() => assertWritablePath(root, p, "splice"), (e: unknown) => e instanceof ToolError && e.code === "SPLICE_E001", p);
    }
  });
});
