/**
 * C: a macro that only renames (zlib's `#define deflate z_deflate` under Z_PREFIX, zutil.h's
 * `#define zmemcpy memcpy`) does not stand beside the function of that name as a second target:
 * every call of deflate, gzopen, zmemcpy... in zlib was ambiguous between the two (309 calls).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { assertIncrementalMatchesRebuild, copyFixture, mg, refLines } from "./support.js";

it("C: a call reaches the function, not the macro that renames it", async () => {
  const root = copyFixture("c-rename-macro");
  assert.equal((await mg(root, ["index"])).r.code, 0);
  assert.deepEqual(refLines(root, "r.kind = 'call'"), [
    "deflate.c:8 .deflate exact deflate.deflate",
    "minigzip.c:4 .zmemcpy heuristic zutil.zmemcpy",
    "minigzip.c:5 .deflate heuristic deflate.deflate",
    "minigzip.c:6 .deflateEnd heuristic deflate.deflateEnd",
  ]);
  // A macro that expands to anything else is still a candidate (ZFREE is one of its own; Z_NULL a value).
  assert.deepEqual(refLines(root, "r.name = 'Z_NULL'"), ["minigzip.c:5 .Z_NULL heuristic zconf.Z_NULL"]);
  // The macro turns into one that does more than rename: the calls in the other files are
  // ambiguous again, after an incremental run as after a rebuild.
  writeFileSync(join(root, "zconf.h"), "#ifdef Z_PREFIX\n#  define deflate(f) z_deflate(f)\n#endif\n#define Z_NULL 0\n");
  await assertIncrementalMatchesRebuild(root, "macro-changed");
  assert.deepEqual(refLines(root, "r.name = 'deflate' AND r.kind = 'call'"), ["deflate.c:8 .deflate exact deflate.deflate", "minigzip.c:5 .deflate ambiguous -"]);
});
