import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { listFiles, search, type SearchRequest } from "../../src/tools/llmsearch/search.js";
import { useWarmCache, WarmCache } from "../../src/text/warm-cache.js";
import { tempDir } from "../support/run.js";

/** A small git-shaped tree: ignore rules, hidden files, nested dirs, binary and large files. */
function makeTree(): string {
  const root = tempDir("llmsearch-warm-");
  mkdirSync(join(root, ".git", "info"), { recursive: true });
  writeFileSync(join(root, ".git", "info", "exclude"), "excluded.ts\n");
  writeFileSync(join(root, ".gitignore"), "dist/\n*.log\n");
  mkdirSync(join(root, "src", "entity"), { recursive: true });
  mkdirSync(join(root, "dist"));
  mkdirSync(join(root, "docs"));
  mkdirSync(join(root, ".hidden"));
  writeFileSync(join(root, "src", "user.ts"), "export class UserEntity {\n  id: number;\n  name = 'select * from users';\n}\n// TODO: 2024\n");
  writeFileSync(join(root, "src", "entity", "post.ts"), "import { UserEntity } from '../user';\nexport class PostEntity {\n  author?: UserEntity;\n  year = 1999;\n}\n");
  writeFileSync(join(root, "src", "ünïcode.ts"), "const café = 'Repository';\r\nconst x = \"naïve Repository\";\r\n");
  writeFileSync(join(root, "dist", "user.js"), "class UserEntity {}\n");
  writeFileSync(join(root, "debug.log"), "UserEntity failed\n");
  writeFileSync(join(root, "excluded.ts"), "UserEntity\n");
  writeFileSync(join(root, "docs", "guide.md"), "# Guide\nUse the Repository. foo and bar.\nSELECT 1;\n");
  writeFileSync(join(root, ".hidden", "secret.ts"), "class UserEntity {}\n");
  writeFileSync(join(root, "blob.bin"), "UserEntity\n\0\0binary UserEntity\n");
  writeFileSync(join(root, "big.txt"), `${"line with Repository 1234\n".repeat(4000)}\0 tail Repository\n`);
  writeFileSync(join(root, "huge.txt"), "Repository\n".repeat(20_000));
  writeFileSync(join(root, "empty.ts"), "");
  ageAll(root);
  return root;
}

/**
 * Puts every file's and directory's mtime an hour back, so the cache trusts its stats (recent
 * stamps are re-read by design, which would hide a broken stat check).
 */
function ageAll(dir: string): void {
  const old = new Date(Date.now() - 3600_000);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) ageAll(p);
    utimesSync(p, old, old);
  }
  utimesSync(dir, old, old);
}

const REQUESTS: Omit<SearchRequest, "root">[] = [
  { pattern: "UserEntity" },
  { pattern: "class \\w+Entity" },
  { pattern: "\\d{4}" },
  { pattern: "Repository", count: true },
  { pattern: "Repository", filesWithMatches: true },
  { pattern: "repository", smartCase: true, before: 1, after: 1 },
  { pattern: "TODO", types: ["ts"] },
  { pattern: "UserEntity", typesNot: ["ts"] },
  { pattern: "foo|bar", globs: ["*.md"] },
  { pattern: "UserEntity", globs: ["!src/entity/**"] },
  { pattern: "UserEntity", hidden: true },
  { pattern: "UserEntity", noIgnore: true },
  { pattern: "UserEntity", noIgnore: true, hidden: true, count: true },
  { pattern: "Repository", maxFilesize: 100_000 },
  { pattern: "select", ignoreCase: true, limit: 2 },
  { pattern: "naïve", fixedStrings: true },
  { pattern: "Entity\\s*\\{\\n\\s+id", multiline: true },
  { pattern: "^$" },
  { pattern: "e", word: true, count: true },
  { pattern: "UserEntity", paths: ["src"] },
  { pattern: "Repository", paths: ["docs", "big.txt"] },
];

async function both(root: string, warm: WarmCache, req: Omit<SearchRequest, "root">): Promise<{ cold: string; warm: string }> {
  useWarmCache(undefined);
  const cold = JSON.stringify(await search({ root, cwd: root, ...req }));
  useWarmCache(warm);
  try {
    return { cold, warm: JSON.stringify(await search({ root, cwd: root, ...req })) };
  } finally {
    useWarmCache(undefined);
  }
}

async function assertSame(root: string, warm: WarmCache, label: string, requests = REQUESTS): Promise<void> {
  for (const req of requests) {
    const r = await both(root, warm, req);
    assert.equal(r.warm, r.cold, `${label}: ${JSON.stringify(req)}`);
  }
  useWarmCache(undefined);
  const cold = JSON.stringify(listFiles({ root, hidden: true }));
  useWarmCache(warm);
  const hot = JSON.stringify(listFiles({ root, hidden: true }));
  useWarmCache(undefined);
  assert.equal(hot, cold, `${label}: --files`);
}

test("warm searches answer byte for byte as cold ones, first and second time, over many flag combinations", async () => {
  const root = makeTree();
  const warm = new WarmCache({ racyMs: 0 });
  await assertSame(root, warm, "first");
  const before = warm.stats();
  await assertSame(root, warm, "second");
  const after = warm.stats();
  assert.ok(after.hits > before.hits, "the second round is served from memory");
  assert.equal(after.misses, before.misses, "nothing was read again: every stat matched");
  assert.ok(after.bytes > 0 && after.bytes <= after.max_bytes);
});

test("a warm answer is never from stale bytes: edits, same-size edits, restored mtimes, new and deleted files, .gitignore changes", async () => {
  const root = makeTree();
  // One cache trusts any stat that matches (racyMs 0), so the stat checks alone are on trial;
  // the other is as the daemon runs it, re-reading what was stamped in the last 2 s.
  const trusting = new WarmCache({ racyMs: 0 });
  const usual = new WarmCache();
  const run = async (req: Omit<SearchRequest, "root">, caches = [trusting, usual]): Promise<string> => {
    let out = "";
    for (const c of caches) {
      const r = await both(root, c, req);
      assert.equal(r.warm, r.cold, JSON.stringify(req));
      out = r.warm;
    }
    return out;
  };
  // Fewer combinations than the first test: here the changes are on trial, not the flags.
  const some = REQUESTS.filter((_, i) => i % 3 === 0);
  const settle = async (label: string): Promise<void> => {
    await assertSame(root, trusting, label, some);
    await assertSame(root, usual, label, some);
    // The next change must land in a later tick of the file system's clock than the reads.
    await new Promise((r) => setTimeout(r, 30));
  };
  // Between a read and the change it must see: a later tick of the file system's clock.
  const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 30));
  await settle("before");
  const user = join(root, "src", "user.ts");

  // Same size, content changed, and the old mtime put back (ctime still moves).
  const st = statSync(user);
  writeFileSync(user, "export class UserEntitx {\n  id: number;\n  name = 'select * from users';\n}\n// TODO: 2024\n");
  utimesSync(user, st.atime, st.mtime);
  assert.equal(statSync(user).size, st.size);
  assert.match(await run({ pattern: "UserEntitx" }), /"total_count":1/);
  assert.doesNotMatch(await run({ pattern: "UserEntity", paths: ["src/user.ts"] }), /"byte_start"/);

  // Written twice within one clock tick, same size: only the re-reading of racy stamps saves it.
  for (let k = 0; k < 20; k++) {
    writeFileSync(user, `export class UserEntity { fresh = ${k % 10} }\n`);
    assert.match(await run({ pattern: `fresh = ${k % 10}` }, [usual]), /"total_count":1/);
  }

  await tick();
  // Replaced by rename (a new inode), as editors save.
  writeFileSync(join(root, "tmp.swp"), "export const renamed = true;\n");
  renameSync(join(root, "tmp.swp"), join(root, "src", "entity", "post.ts"));
  assert.match(await run({ pattern: "renamed" }), /"total_count":1/);

  // New files in an old directory and in a new one; a deleted file.
  ageAll(root);
  await settle("aged");
  writeFileSync(join(root, "docs", "new.md"), "brand new Repository\n");
  mkdirSync(join(root, "src", "fresh"));
  writeFileSync(join(root, "src", "fresh", "a.ts"), "brand new UserEntity\n");
  assert.match(await run({ pattern: "brand new", filesWithMatches: true }), /"files_matched":2/);
  await tick();
  rmSync(join(root, "docs", "guide.md"));
  assert.doesNotMatch(await run({ pattern: "Guide" }), /guide\.md/);

  // Ignore rules change: a .gitignore edited, one added in a subdirectory, the exclude file edited.
  ageAll(root);
  await settle("aged again");
  writeFileSync(join(root, ".gitignore"), "*.log\n");
  assert.match(await run({ pattern: "class UserEntity", filesWithMatches: true }), /dist\/user\.js/);
  await tick();
  writeFileSync(join(root, "src", ".gitignore"), "fresh/\n");
  assert.doesNotMatch(await run({ pattern: "brand new" }), /src\/fresh/);
  await tick();
  writeFileSync(join(root, ".git", "info", "exclude"), "\n");
  assert.match(await run({ pattern: "UserEntity", filesWithMatches: true }), /excluded\.ts/);

  await tick();
  // A text file turned binary, and a binary turned text.
  writeFileSync(join(root, "empty.ts"), "UserEntity\0\n");
  writeFileSync(join(root, "blob.bin"), "UserEntity now text\n");
  await assertSame(root, trusting, "after all changes", some);
  await assertSame(root, usual, "after all changes", some);
});

test("a small cap evicts the least recently used contents and the answers stay right", async () => {
  const root = makeTree();
  const warm = new WarmCache({ maxBytes: 64 * 1024, racyMs: 0 });
  await assertSame(root, warm, "capped", REQUESTS.slice(0, 6));
  await assertSame(root, warm, "capped again", REQUESTS.slice(0, 6));
  const s = warm.stats();
  assert.ok(s.bytes <= 64 * 1024, `${s.bytes} bytes kept`);
  assert.ok(s.evictions > 0);
});

test("warm: a search thread stuck past the budget is ended, not kept, and the next search runs on a good one", async () => {
  const root = tempDir("llmsearch-warm-redos-");
  writeFileSync(join(root, "evil.txt"), `${"a".repeat(5000)}b\n`);
  writeFileSync(join(root, "fine.txt"), "aaa\n");
  const warm = new WarmCache();
  useWarmCache(warm);
  try {
    const r = await search({ root, pattern: "(a+)+$", timeoutMs: 300 });
    assert.equal(r.partial, true);
    assert.deepEqual(r.data.files_skipped.map((s) => [s.file_path, s.reason]), [["evil.txt", "timeout"]]);
    for (let k = 0; k < 3; k++) {
      const ok = await search({ root, pattern: "a{3}$" });
      assert.equal((ok.data as LlmsearchData).total_count, 1);
      assert.equal(ok.partial, false);
    }
  } finally {
    useWarmCache(undefined);
  }
});
