/**
 * Go: a call `pkg.New()` through an import from outside the module (the standard library's
 * `errors`, a third-party package) reaches no symbol of the workspace, so it is no possible use of
 * one. logrus's `callers --name logrus.New` counted 47 such calls (`errors.New`, `slog.New`,
 * testify's `assert.New`) as unresolved uses: a complete answer said partial at coverage 0.62.
 * A call through the module's own package, aliased or not, still counts (real tree-sitter, real
 * SQLite).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

it("Go: calls qualified by a package imported from outside the module are no gap in the callers of the module's own symbol", async () => {
  const root = tempDir("magellan-go-gaps-");
  writeTree(root, {
    "go.mod": "module example.com/app\n\ngo 1.21\n",
    "lib/lib.go": "package lib\n\ntype L struct{}\n\nfunc New() *L { return &L{} }\n",
    "main.go": [
      "package main",
      "",
      "import (",
      '\t"errors"',
      '\tslog "log/slog"',
      '\t"github.com/other/thing"',
      '\t"example.com/app/lib"',
      ")",
      "",
      "func main() {",
      '\t_ = errors.New("x")',
      "\t_ = slog.New(nil)",
      "\t_ = thing.New()",
      "\t_ = lib.New()",
      "}",
      "",
    ].join("\n"),
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const { env } = await mg(root, ["callers", "--name", "lib.New"]);
  const data = env.data as { count: number; coverage: { unresolved: number; ratio: number } };
  assert.equal(data.count, 1);
  assert.equal(data.coverage.unresolved, 0, JSON.stringify(env));
  assert.equal(data.coverage.ratio, 1);
  assert.equal(env.partial, false);
});
