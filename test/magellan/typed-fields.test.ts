/**
 * A member reached through a field of the enclosing type is a member of the field's declared
 * type: `this.expressionMap.callListeners` (typeorm), `bindingData.getExplicitBinding(...)`
 * (guice), `m.pager.View()` (a bubbletea model). A field of a library's type (`Map`, `List`,
 * glow's `viewport.Model`) reaches no symbol of the repository. Before, each was guessed by name
 * among the members in reach, often wrongly (`m.viewport.Update()` went to the model's own
 * Update). The incremental index must still equal a rebuild when a field's type, or the type,
 * changes (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg } from "./support.js";

const TS = {
  "src/expression-map.ts": `export class QueryExpressionMap {
  callListeners = true;
  clone(): QueryExpressionMap {
    return this;
  }
}
`,
  "src/builder.ts": `import { QueryExpressionMap } from "./expression-map";

export class QueryBuilder {
  protected expressionMap: QueryExpressionMap;
  private readonly cache: Map<string, number> = new Map();
  callListeners = false;

  constructor() {
    this.expressionMap = new QueryExpressionMap();
  }

  run(): boolean {
    this.cache.set("a", 1);
    this.expressionMap.clone();
    return this.expressionMap.callListeners;
  }

  // A method named like the library type's member: a guess by name would take it.
  set(): void {}
}
`,
};

// NestJS's shape: services injected as constructor parameter properties, a nullable field.
const NEST = {
  "src/users.service.ts": `export class UsersService {
  findAll(): string[] {
    return [];
  }
}
`,
  "src/audit.ts": `export class Audit {
  findAll(): string[] {
    return [];
  }
  record(): void {}
}
`,
  "src/users.controller.ts": `import { Audit } from "./audit";
import { UsersService } from "./users.service";

export class UsersController {
  private audit: Audit | null = null;

  constructor(private readonly usersService: UsersService) {}

  list(): string[] {
    this.audit?.record();
    return this.usersService.findAll();
  }
}
`,
};

// A dataclass's annotated attributes.
const PY = {
  "app/__init__.py": "",
  "app/store.py": "class Store:\n    def save(self, item):\n        return item\n",
  "app/cache.py": "class Cache:\n    def save(self, item):\n        return item\n",
  "app/service.py": `from dataclasses import dataclass
from typing import Optional

from .cache import Cache
from .store import Store


@dataclass
class Service:
    store: Store
    cache: Optional[Cache] = None
    name: str = ""

    def put(self, item):
        self.cache.save(item)
        self.name.upper()
        return self.store.save(item)
`,
};

const JAVA = {
  "src/main/java/com/acme/BindingData.java": `package com.acme;

public class BindingData {
  public Object getExplicitBinding(String key) {
    return null;
  }

  public void add(Object o) {}
}
`,
  "src/main/java/com/acme/Injector.java": `package com.acme;

import java.util.List;

public class Injector {
  private final BindingData bindingData = new BindingData();
  private final List<Runnable> pending = null;

  Object lookup(String key) {
    pending.add(() -> {});
    this.bindingData.add(key);
    return bindingData.getExplicitBinding(key);
  }
}
`,
};

const GO = {
  "go.mod": "module example.com/glowish\n\ngo 1.22\n",
  "ui/pager.go": `package ui

import "github.com/charmbracelet/bubbles/viewport"

type pagerModel struct {
	viewport viewport.Model
}

func (m pagerModel) Update() pagerModel {
	m.viewport.Update()
	return m
}

func (m pagerModel) View() string { return m.viewport.View() }
`,
  "ui/stash.go": `package ui

type stashModel struct {
	pager *pagerModel
}

func (m stashModel) View() string {
	return m.pager.View()
}

func (m stashModel) Update() stashModel { return m }
`,
};

/** `qualifier` and name of each qualified reference in `path`, with its target and resolution. */
function through(root: string, path: string): [string, string, string | null, string][] {
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    return d
      .prepare(
        `SELECT r.qualifier, r.name, t.display_fqn, r.resolution FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE f.path = ? AND r.qualifier IS NOT NULL AND r.qualifier NOT IN ('this', 'm') AND r.kind NOT IN ('import', 'type')
         ORDER BY r.byte_start`,
      )
      .raw()
      .all(path) as [string, string, string | null, string][];
  } finally {
    d.close();
  }
}

describe("members through a typed field", () => {
  it("TypeScript: this.f.m() is a member of f's type; a Map field's set() is no method of the repository", async () => {
    const root = writeTree(tempDir("magellan-fields-ts-"), TS);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(through(root, "src/builder.ts"), [
      ["this.cache", "set", null, "unresolved"],
      ["this.expressionMap", "clone", "src/expression-map.QueryExpressionMap.clone", "imported"],
      ["this.expressionMap", "callListeners", "src/expression-map.QueryExpressionMap.callListeners", "imported"],
    ]);
  });

  it("TypeScript: a constructor's parameter property is a field of the class, typed; `Foo | null` names Foo", async () => {
    const root = writeTree(tempDir("magellan-fields-nest-"), NEST);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(through(root, "src/users.controller.ts"), [
      ["this.audit", "record", "src/audit.Audit.record", "imported"],
      // (Audit has a findAll too: only the field's type tells them apart.)
      ["this.usersService", "findAll", "src/users.service.UsersService.findAll", "imported"],
    ]);
    const found = await mg(root, ["find", "--name", "usersService"]);
    const m = (found.env.data.matches as { kind: string; display_fqn?: string; fqn?: string }[])[0];
    assert.equal(m?.kind, "Field");
  });

  it("Python: self.f.m() through an annotated class attribute (Optional[T] names T); a str attribute's method is the library's", async () => {
    const root = writeTree(tempDir("magellan-fields-py-"), PY);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(
      through(root, "app/service.py").filter(([q]) => q.startsWith("self.")),
      [
        ["self.cache", "save", "app.cache.Cache.save", "imported"],
        ["self.name", "upper", null, "unresolved"],
        ["self.store", "save", "app.store.Store.save", "imported"],
      ],
    );
  });

  it("TypeScript: a path of fields (this.dataSource.driver.escape()); the incremental run follows a change of the first field's type in another file", async () => {
    const driver = (name: string): string => `export class ${name} {\n  escape(s: string): string {\n    return s;\n  }\n}\n`;
    const source = (name: string, driverClass: string, file: string): string =>
      `import { ${driverClass} } from "./${file}";\n\nexport class ${name} {\n  driver: ${driverClass} = new ${driverClass}();\n}\n`;
    const root = writeTree(tempDir("magellan-fields-path-"), {
      "src/driver.ts": driver("Driver"),
      "src/other-driver.ts": driver("OtherDriver"),
      "src/data-source.ts": source("DataSource", "Driver", "driver"),
      "src/other-source.ts": source("OtherSource", "OtherDriver", "other-driver"),
      // The first field is declared in the base class's file, not the runner's.
      "src/base.ts": 'import { DataSource } from "./data-source";\n\nexport class BaseRunner {\n  protected dataSource!: DataSource;\n}\n',
      "src/runner.ts":
        'import { BaseRunner } from "./base";\n\nexport class Runner extends BaseRunner {\n  run(): string {\n    return this.dataSource.driver.escape("x");\n  }\n}\n',
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(through(root, "src/runner.ts"), [
      ["this.dataSource", "driver", "src/data-source.DataSource.driver", "imported"],
      ["this.dataSource.driver", "escape", "src/driver.Driver.escape", "imported"],
    ]);
    writeFileSync(join(root, "src/base.ts"), 'import { OtherSource as DataSource } from "./other-source";\n\nexport class BaseRunner {\n  protected dataSource!: DataSource;\n}\n');
    await assertIncrementalMatchesRebuild(root, "base-field-type");
    assert.deepEqual(through(root, "src/runner.ts"), [
      ["this.dataSource", "driver", "src/other-source.OtherSource.driver", "imported"],
      ["this.dataSource.driver", "escape", "src/other-driver.OtherDriver.escape", "imported"],
    ]);
  });

  it("Rust: self.f.m() in an impl block reaches the method of f's type in its own impl block", async () => {
    const root = writeTree(tempDir("magellan-fields-rust-"), {
      "Cargo.toml": '[package]\nname = "hx"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/main.rs": "mod border;\nmod other;\n\nuse border::BorderStyle;\n\npub struct Printer {\n    border_style: BorderStyle,\n}\n\nimpl Printer {\n    fn header(&self) -> char {\n        self.border_style.outer_sep()\n    }\n}\n\nfn main() {}\n",
      "src/border.rs": "pub enum BorderStyle {\n    Unicode,\n}\n\nimpl BorderStyle {\n    pub fn outer_sep(&self) -> char {\n        '|'\n    }\n}\n",
      // Another type with an outer_sep: a guess by name would have two to choose from.
      "src/other.rs": "pub struct Frame;\n\nimpl Frame {\n    pub fn outer_sep(&self) -> char {\n        '+'\n    }\n}\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(through(root, "src/main.rs").filter(([q]) => q.startsWith("self.")), [["self.border_style", "outer_sep", "crate::border::BorderStyle::outer_sep", "imported"]]);
  });

  it("Java: a bare field's member, this.field's member; a List field's add() is the library's", async () => {
    const root = writeTree(tempDir("magellan-fields-java-"), JAVA);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(through(root, "src/main/java/com/acme/Injector.java"), [
      ["pending", "add", null, "unresolved"],
      ["this.bindingData", "add", "com.acme.BindingData.add", "imported"],
      ["bindingData", "getExplicitBinding", "com.acme.BindingData.getExplicitBinding", "imported"],
    ]);
  });

  it("Go: m.f.X() through a field of the receiver's type; a field of an imported library type reaches nothing here", async () => {
    const root = writeTree(tempDir("magellan-fields-go-"), GO);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(through(root, "ui/pager.go"), [
      ["m.viewport", "Update", null, "unresolved"],
      ["m.viewport", "View", null, "unresolved"],
    ]);
    assert.deepEqual(through(root, "ui/stash.go"), [["m.pager", "View", "ui.pagerModel.View", "heuristic"]]);
  });

  it("incremental runs equal a rebuild when a field's type changes, and when its type gains the member", async () => {
    const root = writeTree(tempDir("magellan-fields-inc-"), { ...TS, "src/other-map.ts": "export class OtherMap {\n  clone(): OtherMap {\n    return this;\n  }\n}\n" });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    // The field's type changes in builder.ts: its own references follow (the file changed).
    writeFileSync(
      join(root, "src/builder.ts"),
      TS["src/builder.ts"].replace('import { QueryExpressionMap } from "./expression-map";', 'import { OtherMap as QueryExpressionMap } from "./other-map";'),
    );
    await assertIncrementalMatchesRebuild(root, "field-type-alias");
    assert.deepEqual(through(root, "src/builder.ts")[1], ["this.expressionMap", "clone", "src/other-map.OtherMap.clone", "imported"]);
    // A subclass in another file reaches the field through inheritance; the field's type then
    // changes in the base's file only.
    writeFileSync(
      join(root, "src/select.ts"),
      'import { QueryBuilder } from "./builder";\n\nexport class SelectQueryBuilder extends QueryBuilder {\n  select(): void {\n    this.expressionMap.clone();\n  }\n}\n',
    );
    await assertIncrementalMatchesRebuild(root, "subclass");
    assert.deepEqual(through(root, "src/select.ts"), [["this.expressionMap", "clone", "src/other-map.OtherMap.clone", "imported"]]);
    writeFileSync(join(root, "src/builder.ts"), TS["src/builder.ts"]);
    await assertIncrementalMatchesRebuild(root, "field-type-back");
    assert.deepEqual(through(root, "src/select.ts"), [["this.expressionMap", "clone", "src/expression-map.QueryExpressionMap.clone", "imported"]]);
  });
});
