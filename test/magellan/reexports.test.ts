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

/** `magellan index` of `root` with `args`, which must succeed. */
async function index(root: string, ...args: string[]): Promise<void> {
  const r = await runTool("magellan", ["index", "--root", root, ...args]);
  assert.equal(r.code, 0, r.stdout);
}

/** Indexes `root` incrementally, then a rebuild beside it, and asserts the two graphs are one. */
async function sameAsRebuild(root: string, what: string): Promise<void> {
  await index(root);
  await index(root, "--rebuild", "--db", join(root, "fresh.db"));
  assert.deepEqual(graphOf(join(root, ".magellan", "code.db")), graphOf(join(root, "fresh.db")), what);
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
  await index(root);
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
  // The module behind the re-export loses the name; then the re-export itself goes.
  writeFileSync(join(root, "pkg/core.py"), "def helper2():\n    return 1\n");
  writeFileSync(join(root, "src/core/core.ts"), readFileSync(join(root, "src/core/core.ts"), "utf8").replace("function make(", "function make2("));
  await sameAsRebuild(root, "names gone behind the re-exports");
  assert.ok(targets(root, ["helper"]).every((t) => !t.includes("imported")), targets(root, ["helper"]).join("\n"));
  writeFileSync(join(root, "pkg/core.py"), "def helper():\n    return 1\n");
  writeFileSync(join(root, "src/core/core.ts"), readFileSync(join(root, "src/core/core.ts"), "utf8").replace("function make2(", "function make("));
  await sameAsRebuild(root, "names back");
  writeFileSync(join(root, "pkg/__init__.py"), "from .shapes import *\n");
  writeFileSync(join(root, "src/core/index.ts"), 'export { make as build } from "./core";\n');
  await sameAsRebuild(root, "re-exports edited");
  assert.ok(!targets(root, ["helper", "make"]).some((t) => t.includes("imported")), targets(root, ["helper", "make"]).join("\n"));
});

it("members of a re-exported class, enum or namespace: through the package or barrel as through the module that declares it; incremental edits end as a rebuild", async () => {
  const root = writeTree(tempDir("magellan-reexported-members-"), {
    "pkg/__init__.py": "from .core import Engine\nfrom .core import Engine as Motor\n",
    "pkg/core.py": "class Engine:\n    def run(self):\n        return self\n\n    @classmethod\n    def make(cls):\n        return cls()\n\n    @staticmethod\n    def helper():\n        return 1\n\n\ndef run():\n    return 0\n",
    // flask's `from flask import Flask`, httpx's `httpx.codes.OK`, click's `click.Group.get_command`.
    "main.py": "from pkg import Engine, Motor\nimport pkg\n\nEngine.make().run()\nEngine.helper()\nMotor.helper()\npkg.Engine.helper()\n",
    "src/lib/repo.ts":
      "export class Repo {\n  find(): number {\n    return 1;\n  }\n  static create(): Repo {\n    return new Repo();\n  }\n}\nexport enum Size {\n  Small = 1,\n  Large = 2,\n}\nexport function sql(): string {\n  return \"\";\n}\nexport namespace sql {\n  export function raw(): string {\n    return \"\";\n  }\n}\n/** @deprecated */\nexport function raw(): string {\n  return \"\";\n}\nexport function find(): number {\n  return 0;\n}\n",
    "src/lib/index.ts": 'export * from "./repo";\n',
    // outline's `AvatarSize.Large` from a barrel; drizzle's `sql.raw()` (a namespace merged with a function).
    "src/main.ts": 'import { Repo, Size, sql } from "./lib";\nexport const a = Repo.create().find();\nexport const b = Size.Large;\nexport const c = sql.raw();\n',
  });
  await index(root);
  const members = (): string[] => targets(root, ["make", "run", "helper", "create", "find", "Large", "raw"]);
  assert.deepEqual(members(), [
    "main.py:4 make call imported pkg.core.Engine.make",
    "main.py:4 run call imported pkg.core.Engine.run",
    "main.py:5 helper call imported pkg.core.Engine.helper",
    "main.py:6 helper call imported pkg.core.Engine.helper",
    "main.py:7 helper call imported pkg.core.Engine.helper",
    "src/main.ts:2 create call imported src/lib/repo.Repo.create",
    "src/main.ts:2 find call imported src/lib/repo.Repo.find",
    "src/main.ts:3 Large read imported src/lib/repo.Size.Large",
    "src/main.ts:4 raw call imported src/lib/repo.sql.raw",
  ]);
  // The package and the barrel stop re-exporting: the members are no longer theirs.
  writeFileSync(join(root, "pkg/__init__.py"), "from .core import run\n");
  writeFileSync(join(root, "src/lib/index.ts"), 'export { find } from "./repo";\n');
  await sameAsRebuild(root, "re-exports gone");
  assert.ok(!members().some((t) => t.includes("imported")), members().join("\n"));
  writeFileSync(join(root, "pkg/__init__.py"), "from .core import Engine\nfrom .core import Engine as Motor\n");
  writeFileSync(join(root, "src/lib/index.ts"), 'export * from "./repo";\n');
  await sameAsRebuild(root, "re-exports back");
  assert.equal(members().filter((t) => t.includes("imported")).length, 9);
});

it("a barrel's `export { default as User } from './User'` (outline's models): the default export under that name, and its members", async () => {
  const root = writeTree(tempDir("magellan-default-reexport-"), {
    "src/models/User.ts": "export default class User {\n  static findByPk(id: number): User {\n    return new User();\n  }\n  save(): void {}\n}\n",
    "src/models/index.ts": 'export { default as User } from "./User";\n',
    "src/main.ts": 'import { User } from "./models";\nexport function f(user: User): void {\n  User.findByPk(1);\n  user.save();\n}\n',
  });
  await index(root);
  assert.deepEqual(targets(root, ["User", "findByPk", "save"]), [
    "src/main.ts:1 User import imported src/models/User.User",
    "src/main.ts:2 User type imported src/models/User.User",
    "src/main.ts:3 User read imported src/models/User.User",
    "src/main.ts:3 findByPk call imported src/models/User.User.findByPk",
    "src/main.ts:4 save call imported src/models/User.User.save",
  ]);
  // The barrel re-exports another module's default under the name: the references follow.
  writeFileSync(join(root, "src/models/Admin.ts"), "export default class Admin {\n  static findByPk(id: number): Admin {\n    return new Admin();\n  }\n  save(): void {}\n}\n");
  writeFileSync(join(root, "src/models/index.ts"), 'export { default as User } from "./Admin";\n');
  await sameAsRebuild(root, "default re-exported from another module");
  assert.ok(targets(root, ["findByPk"])[0]?.endsWith("src/models/Admin.Admin.findByPk"), targets(root, ["findByPk"]).join("\n"));
});

it("a barrel's `export { default } from './Button'` and `export { Button as default } from './named'`: a default import of the barrel reaches that module's export, and callers lists it; incremental edits end as a rebuild", async () => {
  const root = writeTree(tempDir("magellan-default-passed-"), {
    "src/components/Button.ts": "export default function Button(): number {\n  return 1;\n}\n",
    "src/components/named.ts": "export function Badge(): number {\n  return 2;\n}\n",
    "src/components/index.ts": 'export { default } from "./Button";\n',
    "src/components/badge.ts": 'export { Badge as default } from "./named";\n',
    "src/main.ts": 'import Def from "./components";\nimport B from "./components/badge";\nexport const x = Def() + B();\n',
  });
  await index(root);
  assert.deepEqual(targets(root, ["Def", "B"]), [
    "src/main.ts:1 Def import imported src/components/Button.Button",
    "src/main.ts:2 B import imported src/components/named.Badge",
    "src/main.ts:3 Def call imported src/components/Button.Button",
    "src/main.ts:3 B call imported src/components/named.Badge",
  ]);
  const r = await runTool("magellan", ["callers", "--name", "Button", "--root", root]);
  assert.equal(r.code, 0, r.stdout);
  const data = (r.json as { data: { references: { referenced_symbol: string; span: { file_path: string } }[] } }).data;
  assert.deepEqual(
    data.references.map((x) => `${x.span.file_path} ${x.referenced_symbol}`),
    ["src/main.ts Def"],
  );
  // The module behind the barrel loses its default: the import follows it away.
  writeFileSync(join(root, "src/components/Button.ts"), "export function Button(): number {\n  return 1;\n}\n");
  await sameAsRebuild(root, "default gone behind the barrel");
  assert.ok(!targets(root, ["Def"]).some((t) => t.includes("imported")), targets(root, ["Def"]).join("\n"));
});
