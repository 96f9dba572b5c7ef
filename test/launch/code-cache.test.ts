/**
 * src/launch/code-cache.cts: a CommonJS bundle run with a V8 code cache (every tool's bin runs
 * its bundle this way). Each case runs a real Node process with its own TMPDIR, so the cache
 * directory is the test's alone.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DIST, binPath, tempDir } from "../support/run.js";

const CODE_CACHE = join(DIST, "src", "launch", "code-cache.cjs");

function run(bundle: string, tmp: string, env: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, ["-e", `require(${JSON.stringify(CODE_CACHE)}).runBundle(${JSON.stringify(bundle)}, "find")`], {
    env: { ...process.env, TMPDIR: tmp, ...env },
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

function cacheFiles(tmp: string): string[] {
  const uid = process.getuid?.() ?? 0;
  try {
    return readdirSync(join(tmp, `llmtools-v8-cache-${uid}`)).filter((n) => n.endsWith(".v8"));
  } catch {
    return [];
  }
}

/** A bundle that reports what it sees, and loads an ES module through the loader it is given. */
function writeBundle(dir: string, word: string): string {
  const file = join(dir, "b.cjs");
  writeFileSync(join(dir, "m.mjs"), "export const v = 'esm';\n");
  writeFileSync(
    file,
    `#!/usr/bin/env node\n"use strict";\nconst f = () => { "${word}"; return typeof __esmImport; };\n` +
      `__esmImport("./m.mjs").then((m) => console.log([${JSON.stringify(word)}, f(), __filename === ${JSON.stringify(file)}, m.v, require("node:path").sep].join(" ")));\n`,
  );
  return file;
}

describe("code cache for bundles", () => {
  it("runs the bundle, keeps a cache, uses it, and drops it when the bundle is rebuilt", () => {
    const dir = tempDir("cc-");
    const tmp = tempDir("cc-tmp-");
    const file = writeBundle(dir, "alpha");
    assert.equal(run(file, tmp), "alpha function true esm /");
    const first = cacheFiles(tmp);
    assert.equal(first.length, 1);
    assert.match(first[0] as string, /^b\.cjs-find-v\d+/);
    assert.equal(run(file, tmp), "alpha function true esm /");
    assert.deepEqual(cacheFiles(tmp), first);
    // Same length, other content, later mtime: V8 alone would take the old cache (it checks the
    // source length); the cache name changes, so the new code runs and the old cache goes.
    writeBundle(dir, "omega");
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    assert.equal(run(file, tmp), "omega function true esm /");
    const second = cacheFiles(tmp);
    assert.equal(second.length, 1);
    assert.notEqual(second[0], first[0]);
  });

  it("loads a library bundled beside it with a cache of its own, and primes a fresh cache once", () => {
    const dir = tempDir("cc-");
    const tmp = tempDir("cc-tmp-");
    const marker = join(dir, "primed");
    writeFileSync(join(dir, "lib.bundle.cjs"), `"use strict";\nmodule.exports = { v: "lib" };\n`);
    const file = join(dir, "b.cjs");
    writeFileSync(
      file,
      `"use strict";\nexports.primeCodeCache = () => require("node:fs").appendFileSync(${JSON.stringify(marker)}, "x");\n` +
        // A name with no bundle beside it is a plain require.
        `console.log([__bundledRequire("lib").v, __bundledRequire("lib") === __bundledRequire("lib"), typeof __bundledRequire("os").cpus].join(" "));\n`,
    );
    assert.equal(run(file, tmp), "lib true function");
    assert.deepEqual(cacheFiles(tmp).map((n) => n.replace(/-v\d.*$/, "")).sort(), ["b.cjs-find", "lib.bundle.cjs-lib"]);
    assert.equal(readFileSync(marker, "utf8"), "x");
    // The caches are used: nothing is fresh, so nothing primes again.
    assert.equal(run(file, tmp), "lib true function");
    assert.equal(readFileSync(marker, "utf8"), "x");
  });

  it("keeps no cache when told not to, or when the cache directory is not private", () => {
    const dir = tempDir("cc-");
    const file = writeBundle(dir, "alpha");
    const off = tempDir("cc-tmp-");
    assert.equal(run(file, off, { NODE_DISABLE_COMPILE_CACHE: "1" }), "alpha function true esm /");
    assert.deepEqual(cacheFiles(off), []);
    const shared = tempDir("cc-tmp-");
    const cacheDir = join(shared, `llmtools-v8-cache-${process.getuid?.() ?? 0}`);
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o777);
    assert.equal(run(file, shared), "alpha function true esm /");
    assert.deepEqual(cacheFiles(shared), []);
  });

  it("every tool's bin runs its bundle, which keeps a cache of its own", () => {
    for (const tool of ["magellan", "llmsearch", "llmastsearch", "llmtransform", "llmfilewrite", "mdsel"]) {
      const tmp = tempDir("cc-bin-");
      // --version goes through each CLI's full parser: the bundle runs, whichever path it takes.
      const r = spawnSync(binPath(tool), ["--version"], { env: { ...process.env, TMPDIR: tmp }, encoding: "utf8" });
      assert.equal(r.status, 0, `${tool}: ${r.stderr}`);
      assert.match(r.stdout, /\d+\.\d+\.\d+/, tool);
      // Without its bundle a bin runs the unbundled ES module, which keeps no cache.
      assert.ok(cacheFiles(tmp).some((n) => n.startsWith(`${tool}.bundle.cjs-other-`)), `${tool}: ${cacheFiles(tmp).join(", ")}`);
    }
  });
});

describe("module caches (moduleCachePath)", () => {
  it("keep the most recently written of a prefix, and leave other prefixes and tools' caches alone", () => {
    const tmp = tempDir("code-cache-prune-");
    const uid = process.getuid?.() ?? 0;
    const dir = join(tmp, `llmtools-v8-cache-${uid}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    // Twelve caches of twelve compiler installs, oldest first; one of another prefix; a bundle's.
    const hex = (i: number): string => i.toString(16).padStart(32, "0");
    for (let i = 0; i < 12; i++) {
      const f = join(dir, `typescript-${hex(i)}.v8`);
      writeFileSync(f, "x");
      utimesSync(f, 1_000_000 + i, 1_000_000 + i);
    }
    writeFileSync(join(dir, `typescript-impact-${hex(99)}.v8`), "x");
    writeFileSync(join(dir, "magellan.bundle.cjs-find-v20-x64-_-1-2.v8"), "x");
    const compiler = join(tmp, "typescript.js");
    writeFileSync(compiler, "module.exports = 1;\n");
    const r = spawnSync(process.execPath, ["-e", `console.log(require(${JSON.stringify(CODE_CACHE)}).moduleCachePath(${JSON.stringify(compiler)}, "typescript"))`], {
      env: { ...process.env, TMPDIR: tmp },
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const target = r.stdout.trim();
    assert.match(target, /typescript-[0-9a-f]{32}\.v8$/);
    const left = cacheFiles(tmp).sort();
    // Room for the new one: the seven newest stay.
    const kept = Array.from({ length: 7 }, (_, k) => `typescript-${hex(11 - k)}.v8`).sort();
    assert.deepEqual(left.filter((n) => /^typescript-[0-9a-f]{32}\.v8$/.test(n)).sort(), kept);
    assert.ok(left.includes(`typescript-impact-${hex(99)}.v8`));
    assert.ok(left.includes("magellan.bundle.cjs-find-v20-x64-_-1-2.v8"));
  });
});
