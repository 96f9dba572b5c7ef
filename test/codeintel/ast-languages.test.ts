import assert from "node:assert/strict";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { AstPayload } from "../../src/contract/tools/codeintel.js";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

/** Byte offset of a 1-based (line, byte column). */
function offsetOf(bytes: Buffer, line: number, col: number): number {
  let l = 1;
  let i = 0;
  while (l < line) if (bytes[i++] === 0x0a) l++;
  return i + col - 1;
}

function checkTree(bytes: Buffer, d: AstPayload, file: string): void {
  assert.equal(d.outcome?.status, "ok", file);
  assert.equal(d.nodes.length, d.total_nodes, file);
  const root = d.nodes[0];
  assert.ok(root && root.parent_id === undefined, file);
  assert.equal(offsetOf(bytes, root.range.start_line, root.range.start_col), 0, `${file}: the root starts at byte 0`);
  for (const n of d.nodes) {
    const s = offsetOf(bytes, n.range.start_line, n.range.start_col);
    const e = offsetOf(bytes, n.range.end_line, n.range.end_col);
    assert.ok(s <= e && e <= bytes.length, `${file}: node ${n.id} inside the file`);
    if (n.name !== undefined && /(^|_)(identifier|name)$/.test(n.kind)) {
      assert.equal(bytes.subarray(s, e).toString("utf8"), n.name, `${file}: an identifier's range holds its name`);
    }
  }
}

test("magellan ast on every language of the registry: ranges map back to the file's bytes", async () => {
  const root = tempDir("codeintel-ast-");
  cpSync(join(REPO_ROOT, "test", "fixtures", "llmastsearch", "langs"), root, { recursive: true });
  const seen = new Set<string>();
  for (const file of readdirSync(root).sort()) {
    const r = await runTool("magellan", ["ast", "--root", root, "--file", file, "--max-nodes", "200000"], { cwd: root });
    assert.equal(r.code, 0, `${file}: ${r.stdout.slice(0, 300)}`);
    const d = (r.json as { data: AstPayload }).data;
    seen.add(d.language ?? "?");
    checkTree(readFileSync(join(root, file)), d, file);
  }
  assert.deepEqual([...seen].sort(), ["c", "cpp", "go", "java", "javascript", "python", "rust", "tsx", "typescript"]);
});

test("magellan ast: BOM, CRLF and invalid UTF-8 keep ranges exact; the outcome says so", async () => {
  const root = tempDir("codeintel-hostile-");
  const bytes = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('fn ünï() {}\r\nconst S: &str = "'),
    Buffer.from([0xff]),
    Buffer.from('";\r\nfn après() {}\r\n'),
  ]);
  writeFileSync(join(root, "h.rs"), bytes);
  const r = await runTool("magellan", ["ast", "--root", root, "--file", "h.rs"], { cwd: root });
  const d = (r.json as { data: AstPayload }).data;
  assert.equal(d.outcome?.reason, "invalid_utf8");
  const names = d.nodes.filter((n) => n.kind === "identifier").map((n) => n.name);
  assert.deepEqual(names, ["ünï", "S", "après"]);
  const apres = d.nodes.find((n) => n.name === "après" && n.kind === "identifier");
  assert.ok(apres);
  assert.equal(offsetOf(bytes, apres.range.start_line, apres.range.start_col), bytes.indexOf(Buffer.from("après")));
  assert.equal(apres.range.start_line, 3);
});
