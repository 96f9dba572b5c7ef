import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { atomicWriteFileSync } from "../../src/text/atomic.js";
import { checksum, normalizeChecksum } from "../../src/text/checksum.js";
import { DIST, tempDir } from "../support/run.js";

test("replaces content, keeps the mode, leaves no temp file", () => {
  const dir = tempDir("atomic-");
  const f = join(dir, "run.sh");
  writeFileSync(f, "old");
  chmodSync(f, 0o751);
  atomicWriteFileSync(f, Buffer.from("new"));
  assert.equal(readFileSync(f, "utf8"), "new");
  assert.equal(statSync(f).mode & 0o7777, 0o751);
  assert.deepEqual(readdirSync(dir), ["run.sh"]);
});

test("a new file gets the requested mode", () => {
  const dir = tempDir("atomic-");
  atomicWriteFileSync(join(dir, "n.txt"), Buffer.from("x"), { mode: 0o640 });
  assert.equal(statSync(join(dir, "n.txt")).mode & 0o777, 0o640);
});

test("a failure before the rename leaves the old bytes and no temp file", () => {
  const dir = tempDir("atomic-");
  const f = join(dir, "a.txt");
  writeFileSync(f, "original");
  assert.throws(() =>
    atomicWriteFileSync(f, Buffer.from("replacement"), {
      beforeRename: () => {
        throw new Error("disk full (simulated)");
      },
    }),
  );
  assert.equal(readFileSync(f, "utf8"), "original");
  assert.deepEqual(readdirSync(dir), ["a.txt"]);
});

test("a process killed in the middle of a write leaves the target byte-identical", () => {
  const dir = tempDir("atomic-");
  const f = join(dir, "a.bin");
  const original = Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0xff]);
  writeFileSync(f, original);
  // The child writes 64 MiB through atomicWriteFileSync and is SIGKILLed before the rename.
  const script = `
    import { atomicWriteFileSync } from ${JSON.stringify(join(DIST, "src/text/atomic.js"))};
    atomicWriteFileSync(${JSON.stringify(f)}, Buffer.alloc(64 << 20, 0x41), {
      beforeRename: () => process.kill(process.pid, "SIGKILL"),
    });`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script]);
  assert.equal(r.signal, "SIGKILL");
  assert.deepEqual(readFileSync(f), original);
});

test("checksums are sha256:<hex>; bare hex is accepted on input", () => {
  const c = checksum(Buffer.from("abc"));
  assert.equal(c, "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(normalizeChecksum(c.slice(7).toUpperCase()), c);
  assert.equal(normalizeChecksum("sha256:xyz"), undefined);
  assert.equal(normalizeChecksum("abc"), undefined);
});

test("a writer killed mid-write leaves a temp file that the next write of the same target removes; live writers' and other targets' stay", () => {
  const dir = tempDir("atomic-dead-");
  const target = join(dir, "graph.json");
  // A pid that existed and is gone: a child that has exited.
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
  const deadTemp = `.graph.json.${dead}.0123456789ab.tmp`;
  const liveTemp = `.graph.json.${process.ppid}.0123456789ab.tmp`;
  const otherTemp = `.other.json.${dead}.0123456789ab.tmp`;
  const notOurs = `.graph.json.${dead}.tmp`;
  for (const f of [deadTemp, liveTemp, otherTemp, notOurs]) writeFileSync(join(dir, f), "half an export");
  atomicWriteFileSync(target, Buffer.from("{}"));
  assert.equal(readFileSync(target, "utf8"), "{}");
  assert.deepEqual(readdirSync(dir).sort(), [liveTemp, otherTemp, notOurs, "graph.json"].sort());
});
