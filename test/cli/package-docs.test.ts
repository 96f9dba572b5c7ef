/**
 * The docs the installed package points people to are in it: `splice --help` ends with "See
 * docs/splice.md for every flag and error code", magellan's help names docs/graph.md and
 * docs/contract.md, remediations name docs/splice.md and docs/impact.md, and the README links
 * every docs/*.md. The npm package held none of them ("files" listed dist/src, queries and
 * schemas), so an npm install left each of those pointers pointing nowhere.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT, runTool } from "../support/run.js";

const DOC = /\bdocs\/[a-z0-9-]+\.md\b/g;

test("every docs/*.md the help, the README and the packed code name is in the npm package", async () => {
  // --ignore-scripts: the list only (the build is this test run's own).
  const pack = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO_ROOT, encoding: "utf8", maxBuffer: 1 << 26, env: { ...process.env, npm_config_update_notifier: "false" } });
  assert.equal(pack.status, 0, pack.stderr);
  const packed = new Set((JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path));
  const named = new Map<string, string>();
  const note = (text: string, where: string): void => {
    for (const m of text.matchAll(DOC)) if (!named.has(m[0])) named.set(m[0], where);
  };
  for (const tool of ["magellan", "llmsearch", "llmastsearch", "llmtransform", "llmfilewrite", "splice", "mdsel", "llmtools"]) {
    const r = await runTool(tool, ["--help", "--no-daemon"], { raw: true });
    note(r.stdout, `${tool} --help`);
  }
  assert.ok(named.has("docs/splice.md"), "splice --help names docs/splice.md");
  note(readFileSync(join(REPO_ROOT, "README.md"), "utf8"), "README.md");
  for (const path of packed) if (/\.(c?js)$/.test(path)) note(readFileSync(join(REPO_ROOT, path), "utf8"), path);
  const missing = [...named].filter(([doc]) => !packed.has(doc)).map(([doc, where]) => `${doc} (named in ${where})`);
  assert.deepEqual(missing, []);
  // And the docs the README links from its table are all of docs/.
  for (const f of readdirSync(join(REPO_ROOT, "docs"))) if (f.endsWith(".md")) assert.ok(packed.has(`docs/${f}`), `docs/${f} packed`);
});
