/**
 * Imports follow re-exports: a package's __init__.py (`from .core import helper as helper`,
 * flask's `from .app import Flask as Flask`: 146 `from flask import Flask` were unresolved_import)
 * and TypeScript barrels (`export * from "./core"`, `export { make as build } from "./core"`).
 * An incremental index that changes what a module re-exports, or what the module behind it
 * defines, ends where a rebuild does. Real tree-sitter, real SQLite.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { runTool, tempDir, writeTree } from "../support/run.js";
import { graphOf } from "./support.js";

function targets(root: string, names: string[]): string[] {
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    return d
      .prepare(
        `SELECT f.path || ':' || r.start_line || ' ' || r.name || ' ' || r.kind || ' ' || r.resolution || ' ' || coalesce(t.display_fqn, '-') FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE r.name IN (SELECT value FROM json_each(?)) AND f.path IN ('main.py', 'src/main.ts') ORDER BY f.path, r.byte_start`,
      )
      .pluck()
      .all(JSON.stringify(names)) as string[];
  } finally {
    d.close();
  }
}

it("Python packages and TypeScript barrels re-export; incremental edits of either end as a rebuild", async () => {
  const root = writeTree(tempDir("magellan-reexports-"), {
    "pkg/__init__.py": "from .core import helper as helper\nfrom .shapes import *\n",
    "pkg/core.py": "def helper():\n    return 1\n",
    "pkg/shapes.py": "class Box:\n    pass\n",
    "main.py": "from pkg import helper, Box\nimport pkg\n\nhelper()\nBox()\npkg.helper()\n",
    "src/core/index.ts": 'export * from "./core";\nexport { make as build } from "./core";\n',
    "src/core/core.ts": "export function make(): number {\n  return 1;\n}\nexport class Box {}\n",
    "src/main.ts": 'import { make, build, Box } from "./core";\nexport const x = make() + build() + new Box().constructor.length;\n',
  });
  const index = async (...args: string[]): Promise<void> => {
    const r = await runTool("magellan", ["index", "--root", root, ...args]);
    assert.equal(r.code, 0, r.stdout);
  };
  await index();
  assert.deepEqual(targets(root, ["helper", "Box", "make", "build"]), [
    "main.py:1 helper import imported pkg.core.helper",
    "main.py:1 Box import imported pkg.shapes.Box",
    "main.py:4 helper call imported pkg.core.helper",
    "main.py:5 Box call imported pkg.shapes.Box",
    "main.py:6 helper call imported pkg.core.helper",
    "src/main.ts:1 make import imported src/core/core.make",
    "src/main.ts:1 build import imported src/core/core.make",
    "src/main.ts:1 Box import imported src/core/core.Box",
    "src/main.ts:2 make call imported src/core/core.make",
    "src/main.ts:2 build call imported src/core/core.make",
    "src/main.ts:2 Box call imported src/core/core.Box",
  ]);
  const sameAsRebuild = async (what: string): Promise<void> => {
    await index();
    await index("--rebuild", "--db", join(root, "fresh.db"));
    assert.deepEqual(graphOf(join(root, ".magellan", "code.db")), graphOf(join(root, "fresh.db")), what);
  };
  // The module behind the re-export loses the name; then the re-export itself goes.
  writeFileSync(join(root, "pkg/core.py"), "def helper2():\n    return 1\n");
  writeFileSync(join(root, "src/core/core.ts"), readFileSync(join(root, "src/core/core.ts"), "utf8").replace("function make(", "function make2("));
  await sameAsRebuild("names gone behind the re-exports");
  assert.ok(targets(root, ["helper"]).every((t) => !t.includes("imported")), targets(root, ["helper"]).join("\n"));
  writeFileSync(join(root, "pkg/core.py"), "def helper():\n    return 1\n");
  writeFileSync(join(root, "src/core/core.ts"), readFileSync(join(root, "src/core/core.ts"), "utf8").replace("function make2(", "function make("));
  await sameAsRebuild("names back");
  writeFileSync(join(root, "pkg/__init__.py"), "from .shapes import *\n");
  writeFileSync(join(root, "src/core/index.ts"), 'export { make as build } from "./core";\n');
  await sameAsRebuild("re-exports edited");
  assert.ok(!targets(root, ["helper", "make"]).some((t) => t.includes("imported")), targets(root, ["helper", "make"]).join("\n"));
});
