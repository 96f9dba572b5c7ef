/**
 * The warm cache with its watcher standing in for the stats (src/text/warm-watch.ts): real
 * files, a real inotify watcher thread, real searches. Every answer is compared byte for byte
 * with a cold search (no cache) of the same tree at the same moment, right after a change made
 * with no pause before the search.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { search, type SearchRequest } from "../../src/tools/llmsearch/search.js";
import { useWarmCache, WarmCache } from "../../src/text/warm-cache.js";
import { tempDir } from "../support/run.js";

const caches: WarmCache[] = [];
after(async () => {
  for (const c of caches) await c.close();
});

function watched(opts: ConstructorParameters<typeof WarmCache>[0] = {}): WarmCache {
  const c = new WarmCache({ watch: true, barrierTimeoutMs: 10_000, ...opts });
  caches.push(c);
  return c;
}

function makeTree(): string {
  const root = tempDir("llmsearch-watch-");
  mkdirSync(join(root, ".git", "info"), { recursive: true });
  writeFileSync(join(root, ".gitignore"), "dist/\n");
  mkdirSync(join(root, "src", "entity"), { recursive: true });
  mkdirSync(join(root, "dist"));
  mkdirSync(join(root, "other"));
  writeFileSync(join(root, "src", "user.ts"), "export class UserEntity {\n  id = 1;\n}\n// TODO one\n");
  writeFileSync(join(root, "src", "entity", "post.ts"), "export class PostEntity {\n  author = 'UserEntity';\n}\n");
  writeFileSync(join(root, "src", "entity", "tag.ts"), "export class TagEntity {}\n// TODO two\n");
  writeFileSync(join(root, "dist", "user.js"), "class UserEntity {}\n");
  writeFileSync(join(root, "other", "elsewhere.ts"), "class UserEntity {} // from the symlink target\n");
  // An hour old: a stat check alone would trust them (and miss a same-size edit with a restored mtime).
  const old = new Date(Date.now() - 3600_000);
  const age = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) age(join(dir, e.name));
      utimesSync(join(dir, e.name), old, old);
    }
  };
  age(root);
  return root;
}

const REQUESTS: Omit<SearchRequest, "root">[] = [
  { pattern: "UserEntity" },
  { pattern: "class \\w+Entity" },
  { pattern: "TODO", count: true },
  { pattern: "Entity", filesWithMatches: true },
  { pattern: "UserEntity", noIgnore: true, hidden: true },
  { pattern: "UserEntity", paths: ["src/entity"] },
];

async function answers(root: string, cache: WarmCache | undefined, requests = REQUESTS): Promise<string[]> {
  const was = useWarmCache(cache);
  try {
    const out: string[] = [];
    for (const req of requests) out.push(JSON.stringify(await search({ root, cwd: root, threads: 1, ...req })));
    return out;
  } finally {
    useWarmCache(was);
  }
}

async function assertSame(root: string, cache: WarmCache, label: string, requests = REQUESTS): Promise<void> {
  // The warm search runs first, right after the change: its barrier is what must catch it.
  const warm = await answers(root, cache, requests);
  const cold = await answers(root, undefined, requests);
  for (let i = 0; i < requests.length; i++) assert.equal(warm[i], cold[i], `${label}: ${JSON.stringify(requests[i])}`);
}

/** Searches until the watcher holds the tree and entries are trusted (watches are set up asynchronously). */
async function untilTrusted(root: string, cache: WarmCache): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const before = cache.stats().trusted_hits;
    await answers(root, cache);
    if (cache.stats().trusted_hits > before) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`the watcher never took over: ${JSON.stringify(cache.stats())}`);
}

test("trusted answers equal cold ones byte for byte, and are served without stats", async () => {
  const root = makeTree();
  const cache = watched();
  await assertSame(root, cache, "first");
  await untilTrusted(root, cache);
  const before = cache.stats();
  await assertSame(root, cache, "trusted");
  const s = cache.stats();
  assert.equal(s.watch?.healthy, true, JSON.stringify(s.watch));
  assert.ok(s.trusted_hits > before.trusted_hits, "entries were used on the watcher's word");
  assert.equal(s.misses, before.misses, "nothing was read again");
  assert.equal(s.watch?.barrier_timeouts, 0);
});

test("a change made right before a search is in that search: 60 edits, same-size edits with restored mtimes, creations, deletions, renames, atomic saves", async () => {
  const root = makeTree();
  const cache = watched();
  await untilTrusted(root, cache);
  const src = join(root, "src");
  const ent = join(src, "entity");
  const old = new Date(Date.now() - 3600_000);
  const steps: ((i: number) => void)[] = [
    // Same size, mtime put back: only the event can tell.
    (i) => {
      const p = join(src, "user.ts");
      const text = `export class UserEntity {\n  id = ${i % 10};\n}\n// TODO one\n`;
      writeFileSync(p, text);
      utimesSync(p, old, old);
    },
    (i) => writeFileSync(join(ent, `new${i}.ts`), `export class New${i}Entity {} // UserEntity TODO\n`),
    (i) => rmSync(join(ent, `new${i - 1}.ts`), { force: true }),
    // An editor's atomic save: write a temporary file, rename it over the original.
    (i) => {
      const tmp = join(ent, ".post.ts.swp");
      writeFileSync(tmp, `export class PostEntity {\n  author = 'UserEntity${i}';\n}\n`);
      renameSync(tmp, join(ent, "post.ts"));
    },
    () => (existsSync(join(ent, "tag.ts")) ? renameSync(join(ent, "tag.ts"), join(ent, "tag2.ts")) : renameSync(join(ent, "tag2.ts"), join(ent, "tag.ts"))),
    (i) => {
      mkdirSync(join(src, `dir${i}`));
      writeFileSync(join(src, `dir${i}`, "deep.ts"), "class UserEntity {} // TODO deep\n");
    },
    (i) => rmSync(join(src, `dir${i - 1}`), { recursive: true, force: true }),
    (i) => writeFileSync(join(root, ".gitignore"), i % 16 === 7 ? "dist/\nsrc/entity/\n" : "dist/\n"),
  ];
  const before = cache.stats();
  for (let i = 0; i < 60; i++) {
    const step = steps[i % steps.length] as (i: number) => void;
    step(i);
    await assertSame(root, cache, `step ${i}`, REQUESTS.slice(0, 3));
  }
  const s = cache.stats();
  assert.ok((s.watch?.events ?? 0) > (before.watch?.events ?? 0), "the watcher saw the changes");
  assert.ok(s.trusted_hits > before.trusted_hits, "and the searches still trusted what did not change");
  assert.equal(s.watch?.barrier_timeouts, 0, "no search fell back to stats for lack of the barrier");
});

test("a directory replaced by a symlink, and a symlink replaced by a directory", async () => {
  const root = makeTree();
  const cache = watched();
  await untilTrusted(root, cache);
  const ent = join(root, "src", "entity");
  rmSync(ent, { recursive: true });
  symlinkSync(join(root, "other"), ent);
  await assertSame(root, cache, "directory -> symlink");
  await untilTrusted(root, cache);
  await assertSame(root, cache, "symlink, trusted");
  rmSync(ent);
  mkdirSync(ent);
  writeFileSync(join(ent, "back.ts"), "class UserEntity {} // back as a directory\n");
  await assertSame(root, cache, "symlink -> directory");
  // Through the old path, a start directory that is now a different directory.
  await assertSame(root, cache, "start path", [{ pattern: "UserEntity", paths: ["src/entity"] }]);
});

test("when the watcher cannot vouch the cache stats every entry: watcher off, stopped, or possibly overflowed", async () => {
  const root = makeTree();
  const off = new WarmCache({ watch: false, racyMs: 0 });
  await assertSame(root, off, "no watcher");
  await assertSame(root, off, "no watcher, again");
  assert.equal(off.stats().trusted_hits, 0);
  assert.equal(await off.settle(root), false);

  // A watcher that stopped: entries are stat-checked again (ctime catches the restored mtime).
  const stopped = watched({ racyMs: 0 });
  await untilTrusted(root, stopped);
  await stopped.close();
  assert.equal(stopped.stats().watch?.healthy, false);
  const p = join(root, "src", "user.ts");
  const st = statSync(p);
  writeFileSync(p, "export class UserEntity {\n  id = 7;\n}\n// TODO one\n");
  utimesSync(p, st.atime, st.mtime);
  const hits = stopped.stats().trusted_hits;
  await assertSame(root, stopped, "stopped watcher");
  assert.equal(stopped.stats().trusted_hits, hits, "nothing trusted once the watcher stopped");

  // Past the watch cap: the directories left unwatched are stat-checked, the others trusted.
  const capped = watched({ racyMs: 0, maxWatches: 2 });
  await untilTrusted(root, capped);
  assert.ok((capped.stats().watch?.refused ?? 0) > 0, "some directories were left unwatched");
  const deep = join(root, "src", "entity", "post.ts");
  const deepSt = statSync(deep);
  writeFileSync(deep, "export class PostEntity {\n  author = 'UserEntitX';\n}\n");
  utimesSync(deep, deepSt.atime, deepSt.mtime);
  await assertSame(root, capped, "an edit in an unwatched directory");

  // As many events as could have filled the kernel's queue: a new epoch, everything stat-checked once.
  const small = watched({ maxQueuedEvents: 8 });
  await untilTrusted(root, small);
  const epoch = small.stats().watch?.epoch ?? 0;
  for (let i = 0; i < 10; i++) writeFileSync(join(root, "src", `burst${i}.ts`), `class Burst${i} {} // UserEntity\n`);
  await assertSame(root, small, "after a burst");
  assert.ok((small.stats().watch?.epoch ?? 0) > epoch, "the burst ended the epoch");
  await assertSame(root, small, "after a burst, again");
});

test("an ancestor of the root renamed and another tree put at the root's path: the old watches are not trusted", async () => {
  const outer = tempDir("llmsearch-watch-outer-");
  const parent = join(outer, "ws");
  mkdirSync(parent);
  const made = makeTree();
  const root = join(parent, "proj");
  renameSync(made, root);
  const cache = watched();
  await untilTrusted(root, cache);
  renameSync(parent, join(outer, "ws-old"));
  mkdirSync(join(parent, "proj", "src", "entity"), { recursive: true });
  writeFileSync(join(parent, "proj", "src", "other.ts"), "class UserEntity {} // another tree at the same path\n");
  writeFileSync(join(parent, "proj", "src", "entity", "post.ts"), "class PostEntity {} // TODO new\n");
  await assertSame(root, cache, "another tree at the root's path");
  await untilTrusted(root, cache);
  writeFileSync(join(parent, "proj", "src", "other.ts"), "class UserEntity {} // edited in the new tree\n");
  await assertSame(root, cache, "the new tree, watched");
});

test("a writer in another process never gets ahead of the answer: each search holds at least the last write finished before it", async () => {
  const root = makeTree();
  const cache = watched();
  await untilTrusted(root, cache);
  const target = join(root, "src", "counter.ts");
  const done = join(tempDir("llmsearch-watch-done-"), "done");
  writeFileSync(target, "export const counter = 0;\n");
  writeFileSync(done, "0");
  // Writes the counter (atomically: a temporary file renamed over it, so no search reads half a
  // write), then, once that returned, records it as done; as fast as it can.
  const writer = spawn(
    process.execPath,
    [
      "-e",
      `const fs = require("fs"); let n = 0;
       const tick = () => { n++; fs.writeFileSync(${JSON.stringify(join(root, "src", ".counter.tmp"))}, "export const counter = " + n + ";\\n"); fs.renameSync(${JSON.stringify(join(root, "src", ".counter.tmp"))}, ${JSON.stringify(target)}); fs.writeFileSync(${JSON.stringify(done + ".tmp")}, String(n)); fs.renameSync(${JSON.stringify(done + ".tmp")}, ${JSON.stringify(done)}); if (n < 100000) setImmediate(tick); };
       tick();`,
    ],
    { stdio: "ignore" },
  );
  try {
    const started = Date.now();
    while ((Number(readFileSync(done, "utf8")) || 0) < 10) {
      assert.ok(Date.now() - started < 20_000, "the writer started");
      await new Promise((r) => setTimeout(r, 10));
    }
    const first = Number(readFileSync(done, "utf8")) || 0;
    for (let i = 0; i < 50; i++) {
      const before = Number(readFileSync(done, "utf8")) || 0;
      const was = useWarmCache(cache);
      let r;
      try {
        r = await search({ root, cwd: root, threads: 1, pattern: "counter = (\\d+)" });
      } finally {
        useWarmCache(was);
      }
      const m = /counter = (\d+)/.exec(JSON.stringify(r.data));
      const seen = Number(m?.[1] ?? -1);
      assert.ok(seen >= before, `search ${i}: answered counter ${seen}, but ${before} was written before the search started`);
    }
    assert.ok(cache.stats().trusted_hits > 0);
    assert.equal(cache.stats().watch?.barrier_timeouts, 0);
    // The writer ran during the searches (else this test would prove nothing).
    const last = Number(readFileSync(done, "utf8"));
    assert.ok(last > first + 10, `the writer kept writing (${first} -> ${last})`);
  } finally {
    writer.kill();
  }
});
