/**
 * Impact graph resolution, one rule per test, on real-world-shaped layouts
 * (test/fixtures/impact/<layout>): real tree-sitter extraction, real SQLite, the TypeScript
 * compiler's module resolution.
 */
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openDb } from "../../src/graph/db.js";
import { indexTree } from "../../src/graph/ingest.js";
import type { ImpactEdge } from "../../src/contract/tools/impact.js";
import { DbGraph, impactDiagnostics, impactGraph, readHints } from "../../src/tools/codeintel/impact.js";
import { REPO_ROOT, tempDir } from "../support/run.js";

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "impact");

interface Layout {
  root: string;
  out(file: string): string[];
  inn(file: string): string[];
  edges(file: string): ImpactEdge[];
  unresolved(file: string): { total: number; samples: string[] };
  close(): void;
}

async function layout(name: string, prepare?: (root: string) => void): Promise<Layout> {
  const root = tempDir(`impact-${name}-`);
  cpSync(join(FIXTURES, name), root, { recursive: true });
  prepare?.(root);
  const dbPath = join(root, ".magellan", "code.db");
  await indexTree({ root, dbPath, threads: 1 });
  const db = openDb(dbPath, { write: false });
  const files = db.prepare("SELECT path FROM files").pluck().all() as string[];
  const graph = new DbGraph(db, readHints(root, join(root, ".magellan"), files));
  return {
    root,
    out: (f) => impactGraph(graph, root, { file: f, direction: "out" }).outbound,
    inn: (f) => impactGraph(graph, root, { file: f, direction: "in" }).inbound,
    edges: (f) => graph.out(f),
    unresolved: (f) => graph.unresolved(f),
    close: () => db.close(),
  };
}

describe("impact resolution: TypeScript monorepo (workspaces, paths, exports conditions)", () => {
  let L: Layout;
  const main = "packages/app/src/main.ts";
  const app = (p: string): string => `packages/app/src/${p}`;
  const lib = (p: string): string => `packages/lib/src/${p}`;
  before(async () => {
    L = await layout("ts-monorepo");
  });
  after(() => L.close());

  it("a workspace package name resolves through package.json exports (import condition) to the workspace source", () => {
    assert.ok(L.out(main).includes(lib("index.ts")));
  });
  it("a subpath export picks the condition TypeScript picks for the project (bundler: default, not node)", () => {
    assert.ok(L.out(main).includes(lib("feature.ts")));
    assert.ok(!L.out(main).includes(lib("feature-node.ts")));
  });
  it("tsconfig paths of the nearest tsconfig (extends chain for strict; its own paths override the base)", () => {
    assert.ok(L.out(main).includes(app("config.ts")));
    assert.ok(L.out(main).includes(lib("shared/log.ts")));
  });
  it("import type is marked type-only", () => {
    const e = L.edges(main).find((x) => x.target === app("config.ts"));
    assert.equal(e?.type_only, true);
    const t = L.edges(lib("index.ts")).find((x) => x.target === lib("types.ts"));
    assert.equal(t?.type_only, true, "export type ... from is type-only");
  });
  it("a folder import probes index files", () => {
    assert.ok(L.out(main).includes(app("helpers/index.ts")));
  });
  it(".js specifiers map to .ts and .mjs to .mts (TypeScript ESM)", () => {
    assert.ok(L.out(lib("index.ts")).includes(lib("util.ts")));
    assert.ok(L.out(lib("esm.mts")).includes(lib("other.mts")));
  });
  it("export ... from re-exports are edges", () => {
    assert.ok(L.out(lib("index.ts")).includes(lib("feature.ts")));
  });
  it("package.json imports (#internal/*) resolve", () => {
    assert.ok(L.out(lib("index.ts")).includes(lib("internal/secret.ts")));
  });
  it("require and import() with static strings, constants concatenated, and templates by their pattern", () => {
    const e = L.edges(main);
    assert.ok(e.some((x) => x.target === app("legacy.cjs") && x.kind === "require"));
    assert.ok(e.some((x) => x.target === app("locales/en.ts") && x.kind === "require"), "LOCALES + '/en'");
    // `./locales/${lang}.ts`: several files match; the lexicographically smallest is the edge.
    assert.ok(e.some((x) => x.target === app("locales/en.ts") && x.kind === "import"));
    assert.ok(e.some((x) => x.target === app("pages/about.ts")), "'./pages/' + page -> smallest match");
  });
  it("bare packages outside the workspace and node builtins are external, not unresolved; dynamic values are counted with samples", () => {
    const u = L.unresolved(main);
    assert.deepEqual(u.samples.sort(), ["./gone", "pluginName"].sort());
    assert.equal(u.total, 2);
    assert.ok(!L.out(main).some((p) => p.includes("react")));
  });
  it("inbound lists the importers", () => {
    assert.deepEqual(L.inn(lib("feature.ts")), [lib("index.ts"), main].sort());
  });
});

describe("impact resolution: hints (docdex.import_map.json, import traces)", () => {
  let L: Layout;
  const main = "packages/app/src/main.ts";
  before(async () => {
    L = await layout("ts-monorepo", (root) => {
      writeFileSync(
        join(root, "docdex.import_map.json"),
        JSON.stringify({
          edges: [
            { source: main, target: "packages/app/src/pages/home.ts", kind: "import" },
            { source: main, target: "packages/app/src/legacy.cjs", kind: "import", override: true },
          ],
          mappings: [
            { source: main, spec: "pluginName", targets: ["./plugins/*.ts"], expand: true, kind: "require" },
            { source: main, spec: "./helpers", target: "./override.ts", kind: "import", override: true },
          ],
        }),
      );
      writeFileSync(join(root, "docdex.import_traces.jsonl"), `${JSON.stringify({ source: main, target: "packages/app/src/traced.ts", kind: "import" })}\n`);
    });
  });
  after(() => L.close());

  it("edges add edges; an override edge replaces the auto-resolved one with the same source and target", () => {
    const e = L.edges(main);
    assert.ok(e.some((x) => x.target === "packages/app/src/pages/home.ts" && x.hint === "import_map"));
    const legacy = e.filter((x) => x.target === "packages/app/src/legacy.cjs");
    assert.equal(legacy.length, 1);
    assert.equal(legacy[0]?.kind, "import");
  });
  it("an expand mapping emits an edge per matching file and clears the unresolved dependency", () => {
    const out = L.out(main);
    assert.ok(out.includes("packages/app/src/plugins/a.ts") && out.includes("packages/app/src/plugins/b.ts"));
    assert.deepEqual(L.unresolved(main).samples, ["./gone"]);
  });
  it("an override mapping replaces auto-resolution of its specifier", () => {
    const out = L.out(main);
    assert.ok(out.includes("packages/app/src/override.ts"));
    assert.ok(!out.includes("packages/app/src/helpers/index.ts"));
  });
  it("runtime traces add edges (and DOCDEX_ENABLE_IMPORT_TRACES=0 turns them off)", () => {
    assert.ok(L.out(main).includes("packages/app/src/traced.ts"));
    process.env.DOCDEX_ENABLE_IMPORT_TRACES = "0";
    try {
      const h = readHints(L.root, join(L.root, ".magellan"), []);
      assert.equal([...h.bySource.values()].flat().filter((e) => e.hint === "import_trace").length, 0);
    } finally {
      delete process.env.DOCDEX_ENABLE_IMPORT_TRACES;
    }
  });
});

describe("impact resolution: Python src layout with a namespace package", () => {
  let L: Layout;
  const test = "tests/test_core.py";
  before(async () => {
    L = await layout("py-src");
  });
  after(() => L.close());

  it("from pkg import mod resolves to pkg/mod.py under src/", () => {
    assert.ok(L.out(test).includes("src/acme/core.py"));
    assert.ok(L.out(test).includes("src/acme/plugins/loader.py"));
  });
  it("from pkg import Name (re-exported by __init__.py) resolves to the __init__.py, which imports the module", () => {
    assert.ok(L.out(test).includes("src/acme/__init__.py"));
    assert.ok(L.out("src/acme/__init__.py").includes("src/acme/core.py"));
  });
  it("relative imports (from . import util), and a relative import above the package is unresolved", () => {
    assert.ok(L.out("src/acme/core.py").includes("src/acme/util.py"));
    assert.deepEqual(L.unresolved("src/acme/core.py").samples, ["..acme_missing"]);
  });
  it("namespace packages (no __init__.py) resolve by path", () => {
    assert.ok(L.out(test).includes("src/nsp/tools/fmt.py"));
  });
  it("importlib.import_module with a literal or constant concatenation; a variable is counted", () => {
    const out = L.out("src/acme/plugins/loader.py");
    assert.ok(out.includes("src/acme/plugins/builtin.py"));
    assert.ok(out.includes("src/acme/plugins/extra.py"));
    assert.deepEqual(L.unresolved("src/acme/plugins/loader.py").samples, ["name"]);
  });
  it("importlib.util.spec_from_file_location with a literal path", () => {
    assert.ok(L.out("src/acme/plugins/loader.py").includes("src/acme/plugins/by_path.py"));
  });
  it("third-party and standard-library imports are external", () => {
    assert.equal(L.unresolved(test).total, 0);
  });
  it("an absolute import never reaches a module of the importer's own package (no implicit relative import)", () => {
    // src/acme/util.py: `import logging` is the standard library's, not src/acme/logging.py.
    assert.ok(!L.out("src/acme/util.py").includes("src/acme/logging.py"), L.out("src/acme/util.py").join(" "));
  });
});

describe("impact resolution: Rust workspace", () => {
  let L: Layout;
  const lib = "crates/core/src/lib.rs";
  before(async () => {
    L = await layout("rust-ws");
  });
  after(() => L.close());

  it("mod declarations: m.rs and m/mod.rs; #[path] relative to the declaring file; inline modules are no edge", () => {
    assert.deepEqual(L.out(lib), ["crates/core/src/gen/generated.rs", "crates/core/src/model.rs", "crates/core/src/util/mod.rs"]);
    assert.ok(L.out("crates/core/src/util/mod.rs").includes("crates/core/src/util/strings.rs"));
  });
  it("use paths through crate:: and super::", () => {
    assert.ok(L.out("crates/core/src/model.rs").includes("crates/core/src/util/strings.rs"));
    assert.ok(L.out("crates/core/src/util/strings.rs").includes("crates/core/src/model.rs"));
  });
  it("a crate::/super:: path that names no module file reaches the module it starts from (an item there), not unresolved", () => {
    // util/fmt.rs: `use super::*` is util/mod.rs, `use crate::TABLE` is lib.rs; lib.rs's own
    // `use crate::inline::f` is an item of lib.rs itself (no edge, no error).
    assert.deepEqual(L.out("crates/core/src/util/fmt.rs"), ["crates/core/src/lib.rs", "crates/core/src/util/mod.rs"]);
    assert.equal(L.unresolved("crates/core/src/util/fmt.rs").total, 0);
    assert.equal(L.unresolved(lib).total, 0);
  });
  it("use paths through another workspace member's crate name; std is external", () => {
    const out = L.out("crates/cli/src/main.rs");
    assert.ok(out.includes("crates/core/src/model.rs"));
    assert.ok(out.includes("crates/core/src/util/mod.rs"));
    assert.ok(out.includes("crates/core/src/util/strings.rs"), "each path of a nested use group, aliases dropped");
    assert.ok(out.includes("crates/cli/src/args.rs"));
    assert.equal(L.unresolved("crates/cli/src/main.rs").total, 0);
  });
  it("include! is an include edge; include_str! of a non-source file is no edge and no error", () => {
    assert.ok(L.edges("crates/core/src/model.rs").some((e) => e.target === "crates/core/src/consts.rs" && e.kind === "include"));
    assert.equal(L.unresolved(lib).total, 0);
  });
});

describe("impact resolution: Go module with go.work", () => {
  let L: Layout;
  before(async () => {
    L = await layout("go-work");
  });
  after(() => L.close());

  it("an import path of a go.work module resolves to every non-test file of the package", () => {
    const out = L.out("server/main.go");
    assert.ok(out.includes("api/types/types.go") && out.includes("api/types/more.go"));
    assert.ok(!out.includes("api/types/types_test.go"));
  });
  it("a package of the file's own module (go.mod); the standard library and other modules are external", () => {
    assert.ok(L.out("server/main.go").includes("server/internal/db/db.go"));
    assert.equal(L.unresolved("server/main.go").total, 0);
  });
  it("a package's files depend on each other by the names they use, without an import; tests on the package, never the reverse", () => {
    // more.go's Group holds Users: it uses types.go's User. types_test.go uses User too.
    assert.deepEqual(L.out("api/types/more.go"), ["api/types/types.go"]);
    assert.deepEqual(L.out("api/types/types_test.go"), ["api/types/types.go"]);
    assert.deepEqual(L.out("api/types/types.go"), []);
  });
});

describe("impact resolution: C with compile_commands.json, and guessed include paths", () => {
  let C: Layout;
  let G: Layout;
  before(async () => {
    C = await layout("c-compdb", (root) => {
      const p = join(root, "compile_commands.json");
      writeFileSync(p, readFileSync(p, "utf8").replaceAll("__ROOT__", root));
    });
    G = await layout("c-guess");
  });
  after(() => {
    C.close();
    G.close();
  });

  it("quoted includes beside the file, then the entry's -I paths (-I dir and -Idir, relative to its directory)", () => {
    const out = C.out("src/main.c");
    assert.ok(out.includes("src/local.h"));
    assert.ok(out.includes("include/app/config.h"));
    assert.ok(out.includes("third_party/zlib/zlib.h"), "<zlib.h> through -I third_party/zlib");
    assert.ok(C.out("src/net.c").includes("include/app/config.h"), "-I../include from build/");
    assert.ok(C.edges("src/main.c").every((e) => e.kind === "include" && e.guessed === undefined));
  });
  it("<stdio.h> is external; a quoted header found nowhere is unresolved", () => {
    assert.deepEqual(C.unresolved("src/main.c").samples, ["missing.h"]);
  });
  it("without compile_commands.json, -I flags of the Makefile are guesses and so labelled", () => {
    const e = G.edges("main.c");
    assert.deepEqual(e.map((x) => [x.target, x.guessed]), [["inc/util.h", true]]);
  });
  it("Makefile.am's -I$(top_srcdir)/include and CMake's $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src> are include paths (libuv)", async () => {
    const A = await layout("c-autotools");
    try {
      assert.deepEqual(
        A.edges("src/unix/internal.h").map((x) => [x.target, x.guessed]),
        [
          ["include/uv.h", true],
          ["src/uv-common.h", true],
        ],
      );
      assert.equal(A.unresolved("src/unix/internal.h").total, 0);
    } finally {
      A.close();
    }
  });
});

describe("impact resolution: C and C++ include paths of subdirectories' build files (fmt's and jq's shapes)", () => {
  let L: Layout;
  before(async () => {
    L = await layout("c-subdirs");
  });
  after(() => L.close());

  const targets = (file: string): [string, boolean | undefined][] => L.edges(file).map((e) => [e.target, e.guessed]);
  it("target_include_directories() of a CMakeLists.txt in a subdirectory, relative to it ('.' of test/gtest)", () => {
    assert.deepEqual(targets("test/args-test.cc"), [
      ["include/fmt/base.h", true],
      ["test/gtest/gtest/gtest.h", true],
    ]);
    assert.deepEqual(targets("test/gtest/gmock/gmock.h"), [["test/gtest/gtest/gtest.h", true]]);
    assert.deepEqual(targets("src/format.cc"), [["include/fmt/base.h", true]], "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>");
  });
  it("-I flags of a Makefile.am, $(srcdir) its own directory and $(top_srcdir) the root's", () => {
    assert.deepEqual(targets("lib/tests/fuzz.c"), [["lib/src/jv.h", true]]);
    // The build file's vendor/ copy, not lib/old/'s, which is nearer by path.
    assert.deepEqual(targets("lib/src/jv.c"), [
      ["lib/src/jv.h", undefined],
      ["vendor/decNumber/decNumber.h", true],
    ]);
  });
  it('"x" that no path places is the one file whose path ends with x; "stdio.h" the system\'s; a generated header unresolved', () => {
    assert.deepEqual(targets("tools/probe.c"), [["deps/util/strbuf.h", true]]);
    assert.deepEqual(L.unresolved("tools/probe.c").samples, ["version.h"]);
  });
});

describe("impact resolution: Java with several source roots", () => {
  let L: Layout;
  const engine = "core/src/main/java/com/acme/core/Engine.java";
  before(async () => {
    L = await layout("java-multi");
  });
  after(() => L.close());

  it("imports by package path over every source root; wildcard imports reach the package's files", () => {
    const out = L.out(engine);
    assert.ok(out.includes("util/src/main/java/com/acme/util/Strings.java"));
    assert.ok(out.includes("core/src/main/java/com/acme/model/Thing.java"));
  });
  it("same-package classes named in the file are dependencies, across main and test roots", () => {
    assert.ok(L.out(engine).includes("core/src/main/java/com/acme/core/Helper.java"));
    const test = L.out("core/src/test/java/com/acme/core/EngineTest.java");
    assert.ok(test.includes(engine));
    assert.ok(test.includes("util/src/main/java/com/acme/util/Strings.java"), "static import -> the class file");
  });
  it("java.* imports are external", () => {
    assert.equal(L.unresolved(engine).total, 0);
  });
});

describe("impact diagnostics", () => {
  it("lists files with unresolved dependencies, paged", async () => {
    const L = await layout("py-src");
    try {
      const dbPath = join(L.root, ".magellan", "code.db");
      const db = openDb(dbPath, { write: false });
      const g = new DbGraph(db, readHints(L.root, join(L.root, ".magellan"), []));
      const all = impactDiagnostics(g, L.root, {});
      assert.deepEqual(all.diagnostics.map((d) => d.file), ["src/acme/core.py", "src/acme/plugins/loader.py"]);
      const page = impactDiagnostics(g, L.root, { limit: 1, offset: 1 });
      assert.equal(page.total, 2);
      assert.equal(page.truncated, false);
      assert.equal(page.diagnostics[0]?.file, "src/acme/plugins/loader.py");
      db.close();
    } finally {
      L.close();
    }
  });
});
