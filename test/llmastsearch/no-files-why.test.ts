/**
 * A search whose paths and globs reach only ignored or hidden files says which files the rules
 * kept out, with examples and the flag that takes them in, as llmsearch says it. llmastsearch
 * said "no file matched the paths and --glob patterns": on zod, `-g 'scratch/**'` for a
 * gitignored scratch/ read as if the glob were wrong.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { runTool, tempDir } from "../support/run.js";

interface Env {
  data: { total_matches?: number; files_searched?: number };
  diagnostics?: { code: string; message: string }[];
}

function tree(): string {
  const root = tempDir("llmastsearch-nofiles-");
  spawnSync("git", ["init", "-q", root]);
  const files: Record<string, string> = {
    ".gitignore": "scratch\nplayground.ts\n",
    "scratch/a.ts": "export const probe = 1;\n",
    "scratch/b.ts": "export const probe2 = 2;\n",
    "playground.ts": "const p = 3;\n",
    ".config/tool.ts": "export const hidden = 4;\n",
    "src/index.ts": "export const zed = 5;\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

async function note(root: string, args: string[]): Promise<string> {
  const r = await runTool("llmastsearch", ["--root", root, "-q", "(lexical_declaration) @d", ...args], { cwd: root });
  const env = r.json as Env;
  assert.equal(env.data.total_matches, 0, JSON.stringify(env));
  const d = env.diagnostics?.find((x) => x.code === "LLMASTSEARCH_W112");
  assert.ok(d, JSON.stringify(env.diagnostics));
  return d.message;
}

test("no file to search: the ignored and hidden files under the globs, counted, with the flag that takes them in", async () => {
  const root = tree();
  assert.equal(
    await note(root, ["-g", "scratch/**"]),
    "no matches: no file to search: 2 files are ignored by .gitignore, .ignore, .rgignore or .git/info/exclude rules (scratch/a.ts, scratch/b.ts): --no-ignore searches them, as does naming them as a path",
  );
  assert.equal(await note(root, ["-g", ".config/**"]), "no matches: no file to search: 1 file is hidden (.config/tool.ts): --hidden searches it, as does naming it as a path");
  // With the flag, the files are searched (and here hold matches).
  const r = await runTool("llmastsearch", ["--root", root, "-q", "(lexical_declaration) @d", "-g", "scratch/**", "--no-ignore"], { cwd: root });
  assert.equal((r.json as Env).data.total_matches, 2);
  const named = await runTool("llmastsearch", ["--root", root, "-q", "(lexical_declaration) @d", "scratch"], { cwd: root });
  assert.equal((named.json as Env).data.total_matches, 2);
});

test("no such file anywhere: the glob is what is wrong, as before", async () => {
  const root = tree();
  assert.match(await note(root, ["-g", "nothing/**"]), /^no matches: no file matched the paths and --glob patterns/);
});
