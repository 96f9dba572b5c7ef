/**
 * The impact graph kept up to date by incremental index runs equals the one `index --rebuild`
 * builds, after each change of a sequence that adds, removes and edits files and configuration
 * (real tree-sitter, real SQLite, the TypeScript compiler's resolution).
 */
import assert from "node:assert/strict";
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { indexTree } from "../../src/graph/ingest.js";
import { REPO_ROOT, tempDir } from "../support/run.js";

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "impact");

function dump(dbPath: string): { edges: string[]; deps: string[] } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const edges = (
      db
        .prepare(
          "SELECT s.path AS s, t.path AS t, e.kind, e.type_only, e.guessed, d.text AS via FROM impact_edges e JOIN files s ON s.id = e.source_id JOIN files t ON t.id = e.target_id JOIN deps d ON d.id = e.dep_id",
        )
        .all() as { s: string; t: string; kind: string; type_only: number; guessed: number; via: string }[]
    )
      .map((r) => `${r.s} -> ${r.t} ${r.kind}${r.type_only ? " type" : ""}${r.guessed ? " guessed" : ""} (${r.via})`)
      .sort();
    const deps = (db.prepare("SELECT f.path, d.text, d.status FROM deps d JOIN files f ON f.id = d.file_id").all() as { path: string; text: string; status: string }[])
      .map((r) => `${r.path} ${r.text} ${r.status}`)
      .sort();
    return { edges, deps };
  } finally {
    db.close();
  }
}

/**
 * Makes each change, indexes incrementally at `dbPath` and from scratch at `fresh`, and asserts
 * that both hold the same edges and dependency statuses; `after` sees each step's edges.
 */
async function eachEqualsRebuild(root: string, dbPath: string, fresh: string, steps: [string, () => void][], after?: (what: string, edges: string[]) => void): Promise<void> {
  for (const [what, change] of steps) {
    change();
    await indexTree({ root, dbPath, threads: 1 });
    await indexTree({ root, dbPath: fresh, rebuild: true, threads: 1 });
    const a = dump(dbPath);
    const b = dump(fresh);
    assert.deepEqual(a.edges, b.edges, `edges after: ${what}`);
    assert.deepEqual(a.deps, b.deps, `dependency statuses after: ${what}`);
    after?.(what, a.edges);
  }
}

describe("impact graph: incremental equals rebuild", () => {
  it("after adds, removals, edits and configuration changes", async () => {
    const root = tempDir("impact-incr-");
    cpSync(join(FIXTURES, "ts-monorepo"), join(root, "ts"), { recursive: true });
    cpSync(join(FIXTURES, "py-src"), join(root, "py"), { recursive: true });
    cpSync(join(FIXTURES, "java-multi"), join(root, "java"), { recursive: true });
    cpSync(join(FIXTURES, "go-work"), join(root, "go"), { recursive: true });
    const dbPath = join(root, ".magellan", "code.db");
    const fresh = join(tempDir("impact-rebuild-"), "code.db");
    await indexTree({ root, dbPath, threads: 1 });
    const app = (p: string): string => join(root, "ts/packages/app/src", p);
    const steps: [string, () => void][] = [
      ["a missing module appears (./gone resolves)", () => writeFileSync(app("gone.ts"), "export const gone = 1;\n")],
      ["an imported folder's index goes away", () => rmSync(app("helpers/index.ts"))],
      ["a file replaces the folder import (./helpers.ts)", () => writeFileSync(app("helpers.ts"), "export const h = 3; // helpers moved\n")],
      ["a new file matches a template pattern and sorts first", () => writeFileSync(app("locales/de.ts"), "export default { hello: 'hallo' };\n")],
      ["tsconfig paths change (~/* now points elsewhere)", () => {
        writeFileSync(
          join(root, "ts/packages/app/tsconfig.json"),
          JSON.stringify({ extends: "../../tsconfig.base.json", compilerOptions: { module: "esnext", moduleResolution: "bundler", baseUrl: ".", paths: { "~/*": ["src/pages/*", "src/*"] } } }),
        );
      }],
      ["a python submodule is added where the package's __init__ was the target", () => writeFileSync(join(root, "py/src/acme/Engine.py"), "class Engine:\n    pass\n")],
      ["a java class joins a package (same-package reference now resolves)", () => {
        writeFileSync(join(root, "java/core/src/main/java/com/acme/core/Strings.java"), "package com.acme.core;\n\nclass Strings {}\n");
      }],
      ["a go file joins an imported package", () => writeFileSync(join(root, "go/api/types/extra.go"), "package types\n\ntype Extra struct{}\n")],
      ["a module's root package and an importer of it appear", () => {
        writeFileSync(join(root, "go/api/doc.go"), "package api\n\nconst Version = 1\n");
        writeFileSync(join(root, "go/server/uses.go"), 'package main\n\nimport "example.com/api"\n\nvar v = api.Version\n');
      }],
      ["a go file joins the module's root package (its import path names no directory)", () => writeFileSync(join(root, "go/api/more.go"), "package api\n\nconst More = 2\n")],
      ["an importer is edited to import something else", () => {
        writeFileSync(join(root, "ts/packages/lib/src/esm.mts"), 'import { other } from "./other.mjs";\nimport { util } from "./util.js";\nexport const e = other + util();\n');
      }],
      ["a package.json exports map changes", () => {
        mkdirSync(join(root, "ts/packages/lib/src/next"), { recursive: true });
        writeFileSync(join(root, "ts/packages/lib/src/next/feature.ts"), 'export const feature = "next";\n');
        writeFileSync(
          join(root, "ts/packages/lib/package.json"),
          JSON.stringify({ name: "@acme/lib", type: "module", exports: { ".": { import: "./src/index.ts" }, "./feature": { default: "./src/next/feature.ts" } }, imports: { "#internal/*": "./src/internal/*.ts" } }),
        );
      }],
      // An edit that touches no import keeps the file's edges and statuses (not resolved again):
      // they must land on its new dependency rows, the same as a rebuild's.
      ["an importer's body changes, not its imports", () => appendFileSync(app("main.ts"), "\nexport const touched = 1;\n")],
      ["a line above its imports moves them down", () => writeFileSync(app("main.ts"), `// header\n${readFileSync(app("main.ts"), "utf8")}`)],
    ];
    await eachEqualsRebuild(root, dbPath, fresh, steps);
    // The sequence did change the graph (the comparison is not of two empty sets).
    const final = dump(dbPath).edges;
    const has = (prefix: string): boolean => final.some((e) => e.startsWith(prefix));
    assert.ok(has("ts/packages/app/src/main.ts -> ts/packages/app/src/gone.ts import"));
    assert.ok(has("ts/packages/app/src/main.ts -> ts/packages/app/src/helpers.ts import"));
    assert.ok(has("ts/packages/app/src/main.ts -> ts/packages/lib/src/next/feature.ts import"), final.filter((e) => e.startsWith("ts/packages/app/src/main.ts")).join("\n"));
    assert.ok(has("go/server/main.go -> go/api/types/extra.go import"));
    assert.ok(has("go/server/uses.go -> go/api/more.go import"), final.filter((e) => e.startsWith("go/")).join("\n"));
  });

  it("C: guessed include paths follow build files and headers that come and go in subdirectories", async () => {
    const root = tempDir("impact-incr-c-");
    cpSync(join(FIXTURES, "c-subdirs"), root, { recursive: true });
    const dbPath = join(root, ".magellan", "code.db");
    const fresh = join(tempDir("impact-rebuild-c-"), "code.db");
    await indexTree({ root, dbPath, threads: 1 });
    const steps: [string, () => void][] = [
      ["a second strbuf.h nearer the includer (the suffix guess moves)", () => {
        mkdirSync(join(root, "tools/extra/util"), { recursive: true });
        writeFileSync(join(root, "tools/extra/util/strbuf.h"), "int strbuf_len(void);\n");
      }],
      ["the generated header appears", () => writeFileSync(join(root, "lib/src/version.h"), "#define VERSION 1\n")],
      // Its build file names an include directory that an existing file's <plugin.h> finds: a
      // directory that was no C code's before, so no run had read (or looked for) its build file.
      ["a new directory of C code whose build file declares another directory's headers", () => {
        mkdirSync(join(root, "shared"), { recursive: true });
        writeFileSync(join(root, "shared/plugin.h"), "int plugin(void);\n");
        appendFileSync(join(root, "lib/tests/fuzz.c"), "#include <plugin.h>\n");
      }],
      ["(the directory)", () => {
        mkdirSync(join(root, "newlib"), { recursive: true });
        writeFileSync(join(root, "newlib/CMakeLists.txt"), "add_library(zz zz.c)\ntarget_include_directories(zz PUBLIC ../shared)\n");
        writeFileSync(join(root, "newlib/zz.c"), "int zz(void) { return 0; }\n");
      }],
      ["the build file drops the path", () => writeFileSync(join(root, "newlib/CMakeLists.txt"), "add_library(zz zz.c)\n")],
    ];
    await eachEqualsRebuild(root, dbPath, fresh, steps, (what, edges) => {
      if (what === "(the directory)") assert.ok(edges.includes("lib/tests/fuzz.c -> shared/plugin.h include guessed (<plugin.h>)"), edges.join("\n"));
    });
    const final = dump(dbPath).edges;
    assert.ok(final.includes('tools/probe.c -> tools/extra/util/strbuf.h include guessed ("util/strbuf.h")'), final.join("\n"));
    assert.ok(final.includes('tools/probe.c -> lib/src/version.h include guessed ("version.h")'), final.join("\n"));
  });

  it("C with a compilation database: a file added beside a Makefile is no configuration change (no build file is read)", async () => {
    const root = tempDir("impact-incr-compdb-");
    cpSync(join(FIXTURES, "c-compdb"), root, { recursive: true });
    const db = join(root, "compile_commands.json");
    writeFileSync(db, readFileSync(db, "utf8").replaceAll("__ROOT__", root));
    writeFileSync(join(root, "Makefile"), "CFLAGS = -Iinclude\n");
    const dbPath = join(root, ".magellan", "code.db");
    const first = await indexTree({ root, dbPath, threads: 1 });
    writeFileSync(join(root, "src/extra.c"), '#include "local.h"\nint extra(void) { return 1; }\n');
    const second = await indexTree({ root, dbPath, threads: 1 });
    // Only the new file's references, not every one of the tree's again.
    assert.ok(second.references_resolved < first.references_resolved, `${second.references_resolved} of ${first.references_resolved}`);
    const fresh = join(tempDir("impact-rebuild-compdb-"), "code.db");
    await indexTree({ root, dbPath: fresh, rebuild: true, threads: 1 });
    assert.deepEqual(dump(dbPath).edges, dump(fresh).edges);
  });

  it("a go file added to a package at the module's root (the workspace root: no directory name in its import path) reaches its importers", async () => {
    const root = tempDir("impact-incr-goroot-");
    writeFileSync(join(root, "go.mod"), "module example.com/rootpkg\n\ngo 1.22\n");
    writeFileSync(join(root, "root.go"), "package rootpkg\n\nconst One = 1\n");
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub/use.go"), 'package sub\n\nimport "example.com/rootpkg"\n\nvar V = rootpkg.One\n');
    const dbPath = join(root, ".magellan", "code.db");
    const fresh = join(tempDir("impact-rebuild-goroot-"), "code.db");
    await indexTree({ root, dbPath, threads: 1 });
    writeFileSync(join(root, "two.go"), "package rootpkg\n\nconst Two = 2\n");
    await indexTree({ root, dbPath, threads: 1 });
    await indexTree({ root, dbPath: fresh, rebuild: true, threads: 1 });
    assert.deepEqual(dump(dbPath).edges, dump(fresh).edges);
    assert.ok(dump(dbPath).edges.includes('sub/use.go -> two.go import ("example.com/rootpkg")'), dump(dbPath).edges.join("\n"));
  });
});
