/**
 * A whole module bound under a name of the file's choosing (test/fixtures/magellan/module-aliases):
 * Python's `import json as jsonlib` (httpx's _models.py) and `import pkg.util as u`, Python's
 * `import pkg.util` used as `pkg.util.helper()`, and `const fmt = require("./lib/helpers")`. The
 * alias was dropped when the import was stored and the module was taken to bind its last segment
 * (`util`, `helpers`): `u.helper()`, `pkg.util.helper()` and `fmt.format()` were unresolved, and
 * `jsonlib.dumps()` was guessed to be the repository's `Codec.dumps` (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { copyFixture, mg, refLines } from "./support.js";

it("a module imported under an alias (or by its dotted path) is reached by that name, and only by it", async () => {
  const root = copyFixture("module-aliases");
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const rows = refLines(root, "r.kind = 'call' AND r.name IN ('format', 'helper', 'dumps')");
  assert.deepEqual(rows, [
    "main.js:4 fmt.format imported lib/helpers.format",
    "pkg/models.py:9 jsonlib.dumps unresolved -",
    "pkg/models.py:13 u.helper imported pkg.util.helper",
    "pkg/models.py:13 pkg.util.helper imported pkg.util.helper",
  ]);
});
