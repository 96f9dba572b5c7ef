/**
 * File names as repositories have them: spaces, non-ASCII, and one that is not UTF-8 (which
 * Node cannot open by its decoded name). The last is listed as unreadable with the system's
 * reason once ("ENOENT: no such file ...", not "ENOENT: ENOENT: no such file ...").
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { LlmsearchData } from "../../src/contract/tools/llmsearch.js";
import { runTool, tempDir } from "../support/run.js";

test("names with spaces, non-ASCII and invalid UTF-8", async () => {
  const root = tempDir("llmsearch-names-");
  writeFileSync(join(root, "a b.py"), "def f():\n    return 1\n");
  writeFileSync(join(root, "ü.py"), "def g():\n    return 2\n");
  // A file system that refuses such a name (APFS: EILSEQ) cannot hold the case; Linux ones do.
  let badName = true;
  try {
    writeFileSync(Buffer.concat([Buffer.from(`${root}/bad`), Buffer.from([0xff]), Buffer.from(".py")]), "def h():\n    return 3\n");
  } catch {
    badName = false;
  }
  const r = await runTool("llmsearch", ["--root", root, "-e", "def"], { cwd: root });
  assert.equal(r.code, 0, r.stdout);
  const data = (r.json as { data: LlmsearchData }).data;
  assert.deepEqual(data.matches.map((m) => m.span.file_path).sort(), ["a b.py", "ü.py"]);
  if (!badName) return;
  assert.equal(data.files_skipped.length, 1);
  const skipped = data.files_skipped[0] as { reason: string; detail?: string };
  assert.equal(skipped.reason, "unreadable");
  assert.match(skipped.detail ?? "", /^ENOENT: no such file/);
});
