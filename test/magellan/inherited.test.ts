/**
 * Members inherited from a base type: `this.m()` / `self.m()` / `super.m()` and, in Java and C++,
 * a bare `m()` name the member a base class declares, found through what the class extends as
 * its file spells it (guice's `bind(...)` in every `AbstractModule`, typeorm's `this.dataSource`
 * in each driver's query runner, Flask's `self.route` from Scaffold). Before, these were
 * unresolved, or guessed among every reachable class's member of that name. Real tree-sitter,
 * real SQLite; the incremental index must still equal a rebuild when a class's bases change.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg } from "./support.js";

const JAVA = {
  "src/main/java/com/acme/AbstractModule.java": `package com.acme;

public abstract class AbstractModule {
  protected String source;

  protected abstract void configure();

  protected void bind(Class<?> type) {}

  protected void install(AbstractModule module) {}
}
`,
  // Another class with a bind() in reach: a guess among members by name would be ambiguous.
  "src/main/java/com/acme/Binder.java": `package com.acme;

public interface Binder {
  void bind(Class<?> type);
}
`,
  "src/main/java/com/acme/app/AppModule.java": `package com.acme.app;

import com.acme.AbstractModule;
import com.acme.Binder;

public class AppModule extends AbstractModule {
  private Binder binder;

  @Override
  protected void configure() {
    bind(String.class);
    install(new OtherModule());
    String where = source;
  }

  static final class OtherModule extends AppModule {
    @Override
    protected void configure() {
      super.configure();
    }
  }
}
`,
  // A test in the main code's package (another source root, no import), with an anonymous module.
  "src/test/java/com/acme/ModuleTest.java": `package com.acme;

public class ModuleTest {
  void check() {
    AbstractModule m = new AbstractModule() {
      @Override
      protected void configure() {
        bind(Integer.class);
      }
    };
  }
}
`,
};

const TS = {
  "src/base.ts": `export interface Runner {
  release(): void;
}

export class BaseRunner {
  protected dataSource = "";
  release(): void {}
}
`,
  "src/pool.ts": `export class Pool {
  release(): void {}
}
`,
  "src/pg.ts": `import { BaseRunner, Runner } from "./base";

export class PgRunner extends BaseRunner implements Runner {
  query(): string {
    this.release();
    return this.dataSource;
  }
}
`,
  "src/aurora.ts": `import { PgRunner } from "./pg";
import { Pool } from "./pool";

export class AuroraRunner extends PgRunner {
  readonly pool = new Pool();
  commit(): string {
    this.release();
    return super.query();
  }
}
`,
};

const PY = {
  "pkg/__init__.py": "",
  "pkg/scaffold.py": `class Scaffold:
    def route(self, rule):
        return rule
`,
  "pkg/other.py": `class Router:
    def route(self, rule):
        return rule
`,
  "pkg/app.py": `from .scaffold import Scaffold
from .other import Router


class App(Scaffold):
    def add(self, rule):
        return self.route(rule)


class Flask(App):
    def add(self, rule):
        return super().add(rule)
`,
};

const CPP = {
  "include/buffer.h": `namespace d {
class buffer {
 public:
  void set(int n) { size_ = n; }
  int size() const { return size_; }

 protected:
  int size_ = 0;
};
}  // namespace d
`,
  "src/membuf.cc": `#include "buffer.h"

namespace d {
class membuf : public buffer {
 public:
  void grow() {
    set(1);
    int n = size_;
    int end = n;
  }
};
}  // namespace d
`,
};

/** Each reference named `name` in `path`: its target's display_fqn (or null) and resolution. */
function outcomes(root: string, path: string, name: string): [string | null, string][] {
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    return d
      .prepare(
        `SELECT t.display_fqn, r.resolution FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE f.path = ? AND r.name = ? ORDER BY r.byte_start`,
      )
      .raw()
      .all(path, name) as [string | null, string][];
  } finally {
    d.close();
  }
}

describe("inherited members", () => {
  it("Java: a bare call or field of a base class, through an import, the package, an anonymous class and super", async () => {
    const root = writeTree(tempDir("magellan-inherit-java-"), JAVA);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const app = "src/main/java/com/acme/app/AppModule.java";
    assert.deepEqual(outcomes(root, app, "bind"), [["com.acme.AbstractModule.bind", "imported"]]);
    assert.deepEqual(outcomes(root, app, "install"), [["com.acme.AbstractModule.install", "imported"]]);
    assert.deepEqual(outcomes(root, app, "source"), [["com.acme.AbstractModule.source", "imported"]]);
    // The nested class extends the outer one: its super call is the outer class's method.
    assert.deepEqual(outcomes(root, app, "configure").slice(-1), [["com.acme.app.AppModule.configure", "exact"]]);
    // The test finds AbstractModule in its package's main directory, without an import (the
    // package's one class of that name: as sure as an import).
    assert.deepEqual(outcomes(root, "src/test/java/com/acme/ModuleTest.java", "bind"), [["com.acme.AbstractModule.bind", "imported"]]);
    const dead = await mg(root, ["dead-code", "--limit", "100"]);
    const names = (dead.env.data.symbols as { display_fqn: string }[]).map((s) => s.display_fqn);
    // Binder.bind is called by nothing, but an interface's member is no code to delete, nor is
    // the abstract configure (its overrides are).
    assert.ok(!names.includes("com.acme.Binder.bind") && !names.includes("com.acme.AbstractModule.configure"), names.join(", "));
    assert.ok(!names.includes("com.acme.AbstractModule.bind") && !names.includes("com.acme.AbstractModule.install"), `called through subclasses, not dead: ${names.join(", ")}`);
  });

  it("TypeScript: this.m() two classes up, a field from the base, super.m(): the class chain, not another class's m", async () => {
    const root = writeTree(tempDir("magellan-inherit-ts-"), TS);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(outcomes(root, "src/pg.ts", "release"), [["src/base.BaseRunner.release", "imported"]]);
    assert.deepEqual(outcomes(root, "src/pg.ts", "dataSource"), [["src/base.BaseRunner.dataSource", "imported"]]);
    // Pool is imported too and has a release(): only the class chain decides.
    assert.deepEqual(outcomes(root, "src/aurora.ts", "release"), [["src/base.BaseRunner.release", "imported"]]);
    assert.deepEqual(outcomes(root, "src/aurora.ts", "query"), [["src/pg.PgRunner.query", "imported"]]);
  });

  it("Python: self.m() from a base class, super().m() from the parent's override", async () => {
    const root = writeTree(tempDir("magellan-inherit-py-"), PY);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(outcomes(root, "pkg/app.py", "route"), [["pkg.scaffold.Scaffold.route", "imported"]]);
    assert.deepEqual(outcomes(root, "pkg/app.py", "add").slice(-1), [["pkg.app.App.add", "exact"]]);
  });

  it("Python: a subscripted base is its generic class (click's `class URL(click.ParamType[ParseResult])`: self.fail() was unresolved)", async () => {
    const root = writeTree(tempDir("magellan-inherit-pygen-"), {
      "pkg/__init__.py": "",
      "pkg/types.py": "import typing as t\n\nT = t.TypeVar(\"T\")\n\n\nclass ParamType(t.Generic[T]):\n    def fail(self, message):\n        raise ValueError(message)\n",
      "pkg/url.py": "from . import types\n\n\nclass URL(types.ParamType[str]):\n    def convert(self, value):\n        if not value:\n            self.fail(\"empty\")\n        return value\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(outcomes(root, "pkg/url.py", "fail"), [["pkg.types.ParamType.fail", "imported"]]);
  });

  it("C++: a bare call and a protected field of the base class; a local named like a base method stays no reference to it", async () => {
    const root = writeTree(tempDir("magellan-inherit-cpp-"), CPP);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const out = (name: string): [string | null, string][] => outcomes(root, "src/membuf.cc", name);
    assert.deepEqual(out("set"), [["include/buffer::d::buffer::set", "heuristic"]]);
    assert.deepEqual(out("size_"), [["include/buffer::d::buffer::size_", "heuristic"]]);
    assert.ok(out("end").every(([target]) => target === null), JSON.stringify(out("end")));
  });

  it("incremental runs equal a rebuild when a class's bases change, also two classes down", async () => {
    const root = writeTree(tempDir("magellan-inherit-inc-"), { ...TS, "src/router.ts": `export class Router {\n  release(): void {}\n}\n` });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    // PgRunner now extends Router: aurora.ts (not changed) inherits Router's release.
    writeFileSync(join(root, "src/pg.ts"), TS["src/pg.ts"].replace('import { BaseRunner, Runner } from "./base";', 'import { Runner } from "./base";\nimport { Router as BaseRunner } from "./router";'));
    await assertIncrementalMatchesRebuild(root, "pg-extends-router");
    assert.deepEqual(outcomes(root, "src/aurora.ts", "release"), [["src/router.Router.release", "imported"]]);
    // Back, and then the base class loses its method: the subclasses' calls find none.
    writeFileSync(join(root, "src/pg.ts"), TS["src/pg.ts"]);
    await assertIncrementalMatchesRebuild(root, "pg-back");
    writeFileSync(join(root, "src/base.ts"), TS["src/base.ts"].replace("  release(): void {}\n", ""));
    await assertIncrementalMatchesRebuild(root, "base-without-release");
  });
});
