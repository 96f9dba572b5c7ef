/**
 * src/text/stat.ts: size and mtime as fs.statSync gives them, through Node's fs binding when it
 * proved equal, else through fs.statSync. The incremental index trusts these to skip files, so
 * they must equal what was stored from fs.statSync, to the last bit of the mtime.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import { sizeAndMtime, usesBindingStat } from "../../src/text/stat.js";
import { DIST, tempDir } from "../support/run.js";

describe("sizeAndMtime", () => {
  it("equals fs.statSync's size and mtimeMs for every kind of file, and says when a file is missing", () => {
    const dir = tempDir("stat-");
    const files = {
      plain: "hello\n",
      empty: "",
      big: "x".repeat(1 << 20),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    // A fractional mtime, as editors and git leave them.
    utimesSync(join(dir, "plain"), new Date(), new Date(1_700_000_000_123.456));
    symlinkSync(join(dir, "plain"), join(dir, "link"));
    mkdirSync(join(dir, "sub"));
    for (const name of [...Object.keys(files), "link", "sub", "plain"]) {
      const st = statSync(join(dir, name));
      assert.deepEqual(sizeAndMtime(join(dir, name)), { size: st.size, mtimeMs: st.mtimeMs }, name);
    }
    assert.equal(sizeAndMtime(join(dir, "missing")), undefined);
    assert.throws(() => sizeAndMtime(join(dir, "plain", "below")), /ENOTDIR/);
    // Node 20's binding gives the fields as numbers: if that changes, this says so (the
    // fallback still answers correctly, only slower).
    if (process.version.startsWith("v20.")) assert.equal(usesBindingStat(), true);
  });

  it("leaves the binding alone when deprecation warnings are asked for, and prints none", () => {
    const dir = tempDir("stat-");
    writeFileSync(join(dir, "f"), "x");
    const mod = pathToFileURL(join(DIST, "src", "text", "stat.js")).href;
    const r = spawnSync(
      process.execPath,
      ["--pending-deprecation", "--input-type=module", "-e", `const m = await import(${JSON.stringify(mod)}); const a = m.sizeAndMtime(${JSON.stringify(join(dir, "f"))}); m.sizeAndMtime(${JSON.stringify(join(dir, "f"))}); console.log(a.size, m.usesBindingStat());`],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "1 false");
    assert.doesNotMatch(r.stderr, /DEP0111|deprecat/i);
  });
});
