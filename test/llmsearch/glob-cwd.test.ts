/**
 * -g from a subdirectory, compared with rg 13 run in the same directory: ripgrep matches globs
 * against each path as walked from where it runs (`./click/core.py` from `src/`), not against
 * the path from the repository's top, so an rg command line reused after a `cd` selects the
 * same files.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join, relative } from "node:path";
import { before, test } from "node:test";
import type { LlmsearchData, LlmsearchFileListData } from "../../src/contract/tools/llmsearch.js";
import { rgJson, rgPaths } from "../support/rg.js";
import { runTool, tempDir, writeTree } from "../support/run.js";

let root = "";

before(() => {
  // The shape of a src-layout Python package (click's checkout, say).
  root = tempDir("llmsearch-globcwd-");
  const py = (name: string): string => `def main():\n    """${name}"""\n\n\ndef helper():\n    return 1\n`;
  writeTree(root, {
    "pyproject.toml": "[project]\nname = \"click\"\n",
    "src/click/__init__.py": py("init"),
    "src/click/core.py": py("core"),
    "src/click/utils.py": py("utils"),
    "src/click/testing/__init__.py": py("testing"),
    "src/click/testing/core.py": py("testing core"),
    "src/setup_hook.py": py("hook"),
    "tests/test_core.py": py("test core"),
    "docs/conf.py": py("docs"),
  });
  execFileSync("git", ["init", "-q"], { cwd: root });
});

/** llmsearch --files from `dir` (below the root), paths as rg prints them there. */
async function files(dir: string, args: string[]): Promise<string[]> {
  const cwd = join(root, dir);
  const r = await runTool("llmsearch", ["--files", ...args], { cwd });
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stdout}`);
  return (r.json as { data: LlmsearchFileListData }).data.files.map((f) => relative(cwd, join(root, f))).sort();
}

const GLOBS = [
  "click/*.py",
  "/click/core.py",
  "!click/core.py",
  "src/click/*.py",
  "*/core.py",
  "testing/*.py",
  "**/testing/*.py",
  "core.py",
  "/core.py",
  "!*.py",
  "click/**",
  "!click/",
  "!/click/testing",
  "*.{py,toml}",
  "../tests/*.py",
  "tests/*.py",
];

test("-g from a subdirectory selects what rg selects there: path globs from the current directory, a bare name at any depth", async () => {
  for (const [dir, above] of [["src", "../tests"], ["src/click", "../../tests"], [".", undefined]] as const) {
    for (const glob of GLOBS) {
      // A path above the current directory is matched as named from it: `../tests/test_core.py`.
      for (const paths of above === undefined ? [[]] : [[], [above]]) {
        const args = ["-g", glob, ...paths];
        // rg reads stdin (a pipe here) when given no path: name the directory.
        assert.deepEqual(await files(dir, args), rgPaths(join(root, dir), ["--files", ...args, ...(paths.length ? [] : ["."])]), `from ${dir}: ${args.join(" ")}`);
      }
    }
  }
});

test("a search from a subdirectory with -g finds rg's matches, and a negated -g leaves the file out", async () => {
  const cwd = join(root, "src");
  for (const glob of ["click/*.py", "!click/core.py", "/click/core.py"]) {
    const r = await runTool("llmsearch", ["-g", glob, "def main"], { cwd });
    assert.equal(r.code, 0, `${glob}: ${r.stdout}`);
    const got = (r.json as { data: LlmsearchData }).data.matches.map((m) => `${relative(cwd, join(root, m.span.file_path))}:${m.span.byte_start}:${m.span.byte_end}`).sort();
    assert.deepEqual(got, [...rgJson(cwd, ["-g", glob, "def main", "."]).spans].sort(), glob);
  }
});
