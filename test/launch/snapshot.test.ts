/**
 * src/launch/snapshot.cts: mdsel's launcher starts node from a V8 startup snapshot of the
 * bundled CLI once a run has built one. Each case runs the real launcher with its own TMPDIR, so
 * the cache directory (and the snapshot in it) is the test's alone.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { DIST, REPO_ROOT, binPath, tempDir } from "../support/run.js";

const LAUNCHER = binPath("mdsel");
const README = join(REPO_ROOT, "test", "fixtures", "mdsel", "seed", "README.md");

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(bin: string, args: string[], tmp: string, env: Record<string, string> = {}): Run {
  const r = spawnSync(bin, args, { cwd: REPO_ROOT, env: { ...process.env, TMPDIR: tmp, ...env }, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The output with what differs between any two runs (ids, clock) taken out. */
function stable(out: string): string {
  return out.replace(/"execution_id":"[^"]*"/g, "").replace(/"timestamp":"[^"]*"/g, "");
}

function cacheDir(tmp: string): string {
  return join(tmp, `llmtools-v8-cache-${process.getuid?.() ?? 0}`);
}

function snapshots(tmp: string): string[] {
  try {
    return readdirSync(cacheDir(tmp)).filter((n) => n.startsWith("mdsel-"));
  } catch {
    return [];
  }
}

/** True when the launcher started node from a snapshot: its check hook answers instead of mdsel. */
function startsFromSnapshot(bin: string, tmp: string, env: Record<string, string> = {}): boolean {
  const r = run(bin, ["index", README], tmp, { ...env, LLMTOOLS_SNAPSHOT_CHECK: "1" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout === "snapshot ok: mdsel\n";
}

describe("mdsel's startup snapshot", () => {
  it("is built by the first run, used by the next, and answers exactly as the bin does", () => {
    const tmp = tempDir("snap-");
    const stale = join(cacheDir(tmp), "mdsel-1.1-2.2-3.3.blob");
    mkdirSync(cacheDir(tmp), { recursive: true, mode: 0o700 });
    writeFileSync(stale, "not a snapshot");
    // What a build killed half-way leaves: removed once it is old enough not to be in progress.
    const killed = join(cacheDir(tmp), "mdsel-1.1-2.2-3.3.blob.4242.tmp");
    writeFileSync(killed, "half");
    utimesSync(killed, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    assert.equal(startsFromSnapshot(LAUNCHER, tmp), false);
    const first = run(LAUNCHER, ["index", README], tmp);
    assert.equal(first.status, 0, first.stderr);
    const built = snapshots(tmp);
    assert.equal(built.length, 1, `one snapshot, the stale ones gone: ${built.join(", ")}`);
    assert.match(built[0] as string, /^mdsel-\d+\.\d+-\d+\.\d+-\d+\.\d+\.blob$/);
    assert.equal(startsFromSnapshot(LAUNCHER, tmp), true);
    const bin = join(DIST, "src", "cli", "mdsel-bin.cjs");
    const cases = [
      ["index", README],
      ["select", "readme::heading:h2[0]/block:code[0]", README],
      ["select", "readme::heading:h9", README],
      ["select", "readme::heading:h2[99]", README],
      ["index", README, join(REPO_ROOT, "no-such-file.md")],
      ["select"],
    ];
    for (const args of cases) {
      const ours = run(LAUNCHER, args, tmp);
      const plain = run(bin, args, tmp);
      assert.equal(ours.status, plain.status, args.join(" "));
      assert.equal(stable(ours.stdout), stable(plain.stdout), args.join(" "));
      assert.equal(ours.stderr, plain.stderr, args.join(" "));
    }
    // Flags, help and other commands take the plain path.
    assert.equal(run(LAUNCHER, ["index", "--pretty", README], tmp, { LLMTOOLS_SNAPSHOT_CHECK: "1" }).stdout.startsWith("{"), true);
    // Two runs from the snapshot are two runs: their own ids.
    const a = JSON.parse(run(LAUNCHER, ["index", README], tmp).stdout) as { execution_id: string };
    const b = JSON.parse(run(LAUNCHER, ["index", README], tmp).stdout) as { execution_id: string };
    assert.notEqual(a.execution_id, b.execution_id);
  });

  it("is not used where it cannot be trusted or would not fit: a shared cache directory, NODE_OPTIONS", () => {
    const tmp = tempDir("snap-");
    assert.equal(run(LAUNCHER, ["index", README], tmp).status, 0);
    assert.equal(startsFromSnapshot(LAUNCHER, tmp), true);
    assert.equal(startsFromSnapshot(LAUNCHER, tmp, { NODE_OPTIONS: "--no-warnings" }), false);
    chmodSync(cacheDir(tmp), 0o755);
    assert.equal(startsFromSnapshot(LAUNCHER, tmp), false);
    const r = run(LAUNCHER, ["index", README], tmp);
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { success: boolean }).success, true);
  });

  it("runs the build where it is now when the package moved with its mtimes", () => {
    const tmp = tempDir("snap-");
    assert.equal(run(LAUNCHER, ["index", README], tmp).status, 0);
    // The same files, mtimes kept: the snapshot's key matches, but its paths are the old ones.
    const moved = tempDir("snap-moved-");
    for (const d of ["cli", "contract", "launch"]) cpSync(join(DIST, "src", d), join(moved, "src", d), { recursive: true, preserveTimestamps: true });
    const launcher = join(moved, "src", "cli", "mdsel");
    assert.equal(startsFromSnapshot(launcher, tmp), true);
    const ours = run(launcher, ["select", "readme::heading:h2[0]", README], tmp);
    const plain = run(LAUNCHER, ["select", "readme::heading:h2[0]", README], tmp);
    assert.equal(ours.status, 0, ours.stderr);
    assert.equal(stable(ours.stdout), stable(plain.stdout));
    // That run loaded the bundle as the bin does, from node started with the snapshot's flags: its
    // code cache is named by them.
    assert.ok(readdirSync(cacheDir(tmp)).some((n) => n.includes("snapshot-blob")));
  });

  it("is used through a linked directory (the bin's path as node resolves it)", () => {
    const tmp = tempDir("snap-");
    assert.equal(run(LAUNCHER, ["index", README], tmp).status, 0);
    const link = join(tempDir("snap-link-"), "pkg");
    symlinkSync(REPO_ROOT, link);
    const launcher = join(link, relative(REPO_ROOT, LAUNCHER));
    assert.equal(startsFromSnapshot(launcher, tmp), true);
    const r = run(launcher, ["index", README], tmp);
    assert.equal(r.status, 0, r.stderr);
    // No run fell back to loading the bundle (it would have left a code cache named by the flags).
    assert.equal(readdirSync(cacheDir(tmp)).some((n) => n.includes("snapshot-blob")), false);
  });
});
