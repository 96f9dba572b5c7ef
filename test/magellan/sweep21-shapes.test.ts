/**
 * Faults found by reading magellan's answers on repositories it had not seen (honojs/hono,
 * google/leveldb) against their code and universal-ctags. Each tree below copies the shape of
 * the real case in a few short files (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg, refLines, withIndex } from "./support.js";

async function tree(files: Record<string, string>): Promise<string> {
  const root = writeTree(tempDir("mg-sweep21-"), files);
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return root;
}

function symbols(root: string, path: string): string[] {
  return withIndex(root, (d) =>
    d
      .prepare("SELECT s.kind || ' ' || s.display_fqn || coalesce(' [' || s.flags || ']', '') FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? ORDER BY s.byte_start, s.name")
      .pluck()
      .all(path) as string[],
  );
}

const HONO_BASE = `class Hono {
  fire = (): void => {}
  route(path: string): this {
    return this
  }
}

export { Hono as HonoBase }
`;

describe("sweep 21: hono and leveldb shapes", () => {
  it("TypeScript: export { Hono as HonoBase } is followed by an import of HonoBase, and exports Hono (hono's hono-base.ts)", async () => {
    const root = await tree({
      "src/hono-base.ts": HONO_BASE,
      "src/hono.ts": "import { HonoBase } from './hono-base'\n\nexport class Hono extends HonoBase {\n  constructor() {\n    super()\n  }\n}\n",
      "src/use.ts": "import { Hono } from './hono'\n\nexport function main(): void {\n  const app = new Hono()\n  app.fire()\n  app.route('/')\n}\n",
    });
    assert.deepEqual(refLines(root, "f.path != 'src/hono-base.ts' AND r.name IN ('HonoBase', 'fire', 'route')"), [
      "src/hono.ts:1 ./hono-base.HonoBase imported src/hono-base.Hono",
      "src/hono.ts:3 .HonoBase imported src/hono-base.Hono",
      "src/use.ts:5 app.fire imported src/hono-base.Hono.fire",
      "src/use.ts:6 app.route imported src/hono-base.Hono.route",
    ]);
    // The export clause exports the class: it is an entry point, its methods are not dead.
    assert.ok(symbols(root, "src/hono-base.ts")[0]?.includes("exported"), symbols(root, "src/hono-base.ts").join("\n"));
    const dead = await mg(root, ["dead-code"]);
    assert.deepEqual((dead.env.data.symbols as { display_fqn: string }[]).map((s) => s.display_fqn), []);
    // The file imports nothing; it exports Hono as HonoBase.
    const rich = await mg(root, ["find", "--name", "Hono", "--path", "src/hono-base.ts", "--with-callers"]);
    const rel = rich.env.data.matches?.[0]?.relationships;
    assert.deepEqual([rel?.imports, rel?.exports], [[], ["Hono", "HonoBase"]]);
    // The clause's names are no new references: `Hono` is read there, the alias is a name it gives.
    assert.deepEqual(refLines(root, "f.path = 'src/hono-base.ts' AND r.start_line = 8"), ["src/hono-base.ts:8 .Hono exact src/hono-base.Hono"]);
    // Renaming the class behind the alias, then the alias, ends where a rebuild does.
    writeFileSync(join(root, "src/hono-base.ts"), HONO_BASE.replace("class Hono {", "class HonoCore {").replace("export { Hono as", "export { HonoCore as"));
    await assertIncrementalMatchesRebuild(root, "class renamed");
    assert.ok(refLines(root, "r.name = 'fire'").every((l) => l.endsWith("src/hono-base.HonoCore.fire")), refLines(root, "r.name = 'fire'").join("\n"));
    writeFileSync(join(root, "src/hono-base.ts"), HONO_BASE.replace("export { Hono as HonoBase }", "export { Hono as HonoRoot }"));
    await assertIncrementalMatchesRebuild(root, "alias renamed");
    assert.ok(refLines(root, "r.name = 'fire'").every((l) => l.includes(" unresolved ")), refLines(root, "r.name = 'fire'").join("\n"));
  });

  it("TypeScript: a module's own export { module as serveStatic } wins over its import of serveStatic (hono's serve-static-module.ts)", async () => {
    const root = await tree({
      "src/serve-static.ts": "export const serveStatic = (root: string): string => root\n",
      "src/serve-static-module.ts":
        "import { serveStatic } from './serve-static'\n\nconst module = (root: string): string => {\n  return serveStatic(root)\n}\n\nexport { module as serveStatic }\n",
      "src/index.ts": "export { serveStatic } from './serve-static-module'\n",
      "src/use.ts": "import { serveStatic } from './index'\n\nexport const s = serveStatic('/')\n",
    });
    assert.deepEqual(refLines(root, "f.path IN ('src/index.ts', 'src/use.ts') AND r.name = 'serveStatic'"), [
      "src/index.ts:1 ./serve-static-module.serveStatic imported src/serve-static-module.module",
      "src/use.ts:1 ./index.serveStatic imported src/serve-static-module.module",
      "src/use.ts:3 .serveStatic imported src/serve-static-module.module",
    ]);
  });

  it("TypeScript: export * as core from './core' (and import * as util; export { util }) is the module's namespace to its importers", async () => {
    const root = await tree({
      "src/core/index.ts": "export function parse(x: string): string {\n  return x\n}\nexport class Schema {}\n",
      "src/util.ts": "export function helper(): number {\n  return 1\n}\n",
      "src/index.ts": "export * as core from './core'\nimport * as util from './util'\nexport { util }\n",
      "src/use.ts": "import { core, util } from './index'\n\nexport function main(): void {\n  core.parse('a')\n  new core.Schema()\n  util.helper()\n}\n",
    });
    assert.deepEqual(refLines(root, "f.path = 'src/use.ts' AND r.kind = 'call'"), [
      "src/use.ts:4 core.parse imported src/core/index.parse",
      "src/use.ts:5 core.Schema imported src/core/index.Schema",
      "src/use.ts:6 util.helper imported src/util.helper",
    ]);
    writeFileSync(join(root, "src/core/index.ts"), "export function parse2(x: string): string {\n  return x\n}\nexport class Schema {}\n");
    await assertIncrementalMatchesRebuild(root, "namespace member renamed");
    writeFileSync(join(root, "src/index.ts"), "export * as kernel from './core'\nimport * as util from './util'\nexport { util }\n");
    await assertIncrementalMatchesRebuild(root, "namespace renamed");
    assert.deepEqual(refLines(root, "f.path = 'src/use.ts' AND r.name = 'Schema'"), ["src/use.ts:5 core.Schema unresolved -"]);
  });

  it("Java: a class by its full name (org.jsoup.nodes.Comment) is the package's class; a JDK package's is a library's", async () => {
    const root = await tree({
      "src/main/java/org/jsoup/nodes/Comment.java": "package org.jsoup.nodes;\n\npublic class Comment {\n}\n",
      "src/main/java/org/jsoup/parser/Token.java": "package org.jsoup.parser;\n\nclass Token {\n  static final class Comment {\n  }\n  enum TokenType { Comment }\n}\n",
      "src/main/java/org/jsoup/helper/W3CDom.java":
        "package org.jsoup.helper;\n\npublic class W3CDom {\n  boolean is(Object child) {\n    return child instanceof org.jsoup.nodes.Comment;\n  }\n  java.util.regex.Matcher m;\n}\n",
    });
    assert.deepEqual(refLines(root, "f.path LIKE '%W3CDom.java' AND r.name IN ('Comment', 'Matcher')"), [
      "src/main/java/org/jsoup/helper/W3CDom.java:5 org.jsoup.nodes.Comment imported org.jsoup.nodes.Comment",
      "src/main/java/org/jsoup/helper/W3CDom.java:7 java.util.regex.Matcher unresolved -",
    ]);
  });

  it("C++: inside class Mutex, Mutex names the class, not its constructors; a qualified type is no enumerator", async () => {
    const root = await tree({
      "port/mutex.h":
        "namespace port {\nclass Mutex {\n public:\n  Mutex() = default;\n  ~Mutex() = default;\n  Mutex(const Mutex&) = delete;\n  Mutex& operator=(const Mutex&) = delete;\n};\n}  // namespace port\n",
      "fmt/ranges.h": "namespace fmt {\nenum class range_format { disabled, map, set, sequence, string };\n}\n",
      "sink.cc": '#include "port/mutex.h"\n#include "fmt/ranges.h"\nvoid open(const std::string& name, port::Mutex* mu);\n',
    });
    assert.deepEqual(refLines(root, "r.name IN ('Mutex', 'string')"), [
      "port/mutex.h:6 .Mutex exact port/mutex::port::Mutex",
      "port/mutex.h:7 .Mutex exact port/mutex::port::Mutex",
      "port/mutex.h:7 .Mutex exact port/mutex::port::Mutex",
      "sink.cc:3 std.string unresolved -",
      "sink.cc:3 port.Mutex heuristic port/mutex::port::Mutex",
    ]);
  });

  it("Go: a symbol found by the name its importers write, package clause first (chi.NewRouter at go-chi/chi's root)", async () => {
    const root = await tree({
      "go.mod": "module github.com/go-chi/chi/v5\n\ngo 1.23\n",
      "mux.go": "package chi\n\ntype Mux struct{}\n\nfunc NewRouter() *Mux {\n\treturn &Mux{}\n}\n\nfunc (mx *Mux) ServeHTTP() {}\n",
      "v2/api.go": "package api\n\nfunc NewRouter() int {\n\treturn 1\n}\n",
    });
    const fqns = async (name: string): Promise<unknown> => {
      const { env } = await mg(root, ["find", "--name", name]);
      return env.data.matches?.map((m) => m.display_fqn) ?? env.data.code;
    };
    assert.deepEqual(await fqns("chi.NewRouter"), ["NewRouter"]);
    assert.deepEqual(await fqns("chi.Mux.ServeHTTP"), ["Mux.ServeHTTP"]);
    assert.deepEqual(await fqns("api.NewRouter"), ["v2.NewRouter"]);
    assert.deepEqual(await fqns("v2.NewRouter"), ["v2.NewRouter"]);
    assert.deepEqual(await fqns("chi.Nope"), "MAGELLAN_E104");
  });

  it("Go: chi.NewRouter() in an example module built against the published chi is an unresolved import, not a dynamic receiver", async () => {
    const root = await tree({
      "go.mod": "module github.com/go-chi/chi/v5\n\ngo 1.23\n",
      "mux.go": "package chi\n\ntype Mux struct{}\n\nfunc NewRouter() *Mux {\n\treturn &Mux{}\n}\n",
      "_examples/rest/go.mod": "module rest-example\n\ngo 1.16\n\nrequire github.com/go-chi/chi/v5 v5.0.1\n",
      "_examples/rest/main.go": 'package main\n\nimport "github.com/go-chi/chi/v5"\n\nfunc main() {\n\tr := chi.NewRouter()\n\t_ = r\n}\n',
    });
    const { env } = await mg(root, ["refs", "--name", "chi.NewRouter"]);
    const unresolved = env.data.unresolved as { by_reason: Record<string, number>; samples: { qualifier?: string }[] };
    assert.deepEqual(unresolved.by_reason, { unresolved_import: 1 });
    assert.equal(unresolved.samples[0]?.qualifier, "chi");
  });

  it("Rust: extern crate grep_core as core2 binds core2 to the crate in the file's use paths", async () => {
    const root = await tree({
      "Cargo.toml": '[workspace]\nmembers = ["core", "app"]\n',
      "core/Cargo.toml": '[package]\nname = "grep-core"\nversion = "0.1.0"\n',
      "core/src/lib.rs": "pub fn search(x: &str) -> bool {\n    !x.is_empty()\n}\n",
      "app/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ngrep-core = { path = "../core" }\n',
      "app/src/lib.rs": "pub extern crate grep_core as core2;\npub use core2::search;\n\npub fn run() -> bool {\n    search(\"a\")\n}\n",
    });
    assert.deepEqual(refLines(root, "f.path = 'app/src/lib.rs' AND r.name = 'search'"), [
      "app/src/lib.rs:2 core2.search imported crate::search",
      "app/src/lib.rs:5 .search imported crate::search",
    ]);
  });
});
