/**
 * Bare specifiers (`react`, `selfpkg/sub`, `lib/util`) in TypeScript/JavaScript files: the impact
 * graph answers a package outside the index without the compiler's walk up the tree, so every case
 * where the compiler could still find a file must go to the compiler: a package importing itself
 * by its name (package.json `exports`), `baseUrl`, `paths`, workspace packages, `#imports`. Each
 * expected target here is what the TypeScript compiler itself resolves on the same files (real
 * tree-sitter, real SQLite, real compiler).
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import type TS from "typescript";
import { getMeta, openDb } from "../../src/graph/db.js";
import { indexTree } from "../../src/graph/ingest.js";
import type { ImpactEdge } from "../../src/contract/tools/impact.js";
import { DbGraph, readHints } from "../../src/tools/codeintel/impact.js";
import { tempDir, writeTree } from "../support/run.js";

const ts = createRequire(import.meta.url)("typescript") as typeof TS;

const FILES: Record<string, string> = {
  // A package that imports itself through its own `exports` (the compiler's self-name lookup).
  "package.json": JSON.stringify({ name: "selfpkg", type: "module", exports: { ".": "./src/index.ts", "./sub": "./src/sub.ts" }, workspaces: ["types/*"] }),
  // A workspace package of types for a library: the compiler finds `@types/leftpad` for `leftpad`.
  "types/leftpad/package.json": JSON.stringify({ name: "@types/leftpad", types: "index.d.ts" }),
  "types/leftpad/index.d.ts": "export default function leftpad(s: string, n: number): string;\n",
  "src/pad.ts": 'import leftpad from "leftpad";\nexport const p = leftpad("a", 2);\n',
  "src/index.ts": 'export { s } from "selfpkg/sub";\n',
  "src/sub.ts": "export const s = 1;\n",
  "src/app.ts": 'import { s } from "selfpkg/sub";\nimport React from "react";\nimport fp from "lodash/fp";\nimport { readFileSync } from "node:fs";\nexport const a = [s, React, fp, readFileSync];\n',
  // A project with baseUrl and paths: `lib/util` through baseUrl, `~/util` through paths.
  "web/tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "~/*": ["lib/*"] } } }),
  "web/lib/util.ts": "export const u = 1;\n",
  "web/lib/react.ts": "export const r = 1;\n",
  "web/app.ts": 'import { u } from "lib/util";\nimport { u as v } from "~/util";\nimport { r } from "lib/react";\nimport React from "react";\nexport const w = [u, v, r, React];\n',
  // paths alone (no baseUrl): only what a pattern matches goes through it.
  "api/tsconfig.json": JSON.stringify({ compilerOptions: { paths: { "@api/*": ["./src/*"], exact: ["./src/exact.ts"] } } }),
  "api/src/exact.ts": "export const e = 1;\n",
  "api/src/h.ts": "export const h = 1;\n",
  "api/main.ts": 'import { e } from "exact";\nimport { h } from "@api/h";\nimport z from "zod";\nexport const m = [e, h, z];\n',
};

describe("impact resolution: bare specifiers", () => {
  let root: string;
  let graph: DbGraph;
  let close: () => void;
  let configs: string[] = [];
  before(async () => {
    root = writeTree(tempDir("impact-bare-"), FILES);
    const dbPath = join(root, ".magellan", "code.db");
    await indexTree({ root, dbPath, threads: 1 });
    const db = openDb(dbPath, { write: false });
    const files = db.prepare("SELECT path FROM files").pluck().all() as string[];
    graph = new DbGraph(db, readHints(root, join(root, ".magellan"), files));
    configs = Object.keys(JSON.parse(getMeta(db, "impact_configs") ?? "{}") as Record<string, string>);
    close = () => db.close();
  });
  after(() => close());

  /** What the compiler resolves `spec` to from `from`, on disk, with the options of `config` (a repository path or null). */
  const compiler = (from: string, spec: string, config: string | null): string | undefined => {
    let options: TS.CompilerOptions = { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, allowJs: true, resolveJsonModule: true };
    if (config !== null) {
      const abs = join(root, config);
      const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(abs, ts.sys.readFile).config, ts.sys, dirname(abs), undefined, abs);
      options = { ...parsed.options, allowJs: true, resolveJsonModule: true };
    }
    const file = ts.resolveModuleName(spec, join(root, from), options, ts.sys).resolvedModule?.resolvedFileName;
    return file === undefined ? undefined : file.slice(root.length + 1);
  };
  const targets = (from: string): string[] => graph.out(from).map((e: ImpactEdge) => e.target).sort();

  it("a package importing itself by its name resolves through its exports, as the compiler does", () => {
    assert.equal(compiler("src/app.ts", "selfpkg/sub", null), "src/sub.ts", "the compiler's own answer");
    assert.deepEqual(targets("src/app.ts"), ["src/sub.ts"]);
    assert.deepEqual(targets("src/index.ts"), ["src/sub.ts"]);
  });

  it("baseUrl and paths resolve bare specifiers to files of the index; a package name under baseUrl is the file there", () => {
    for (const spec of ["lib/util", "~/util", "lib/react"]) assert.ok(compiler("web/app.ts", spec, "web/tsconfig.json") !== undefined, spec);
    assert.deepEqual(targets("web/app.ts"), ["web/lib/react.ts", "web/lib/util.ts"]);
    const react = graph.out("web/app.ts").filter((e: ImpactEdge) => e.target === "web/lib/react.ts");
    assert.equal(react.length, 1, "`lib/react` is the file; bare `react` is the library");
  });

  it("with paths and no baseUrl, what a pattern matches resolves and the rest is a library", () => {
    assert.equal(compiler("api/main.ts", "exact", "api/tsconfig.json"), "api/src/exact.ts");
    assert.equal(compiler("api/main.ts", "@api/h", "api/tsconfig.json"), "api/src/h.ts");
    assert.equal(compiler("api/main.ts", "zod", "api/tsconfig.json"), undefined);
    assert.deepEqual(targets("api/main.ts"), ["api/src/exact.ts", "api/src/h.ts"]);
  });

  it("a library whose types are a workspace package (@types/...) resolves to them", () => {
    assert.deepEqual(targets("src/pad.ts"), ["types/leftpad/index.d.ts"]);
  });

  it("the configuration files resolution read are recorded in path order, whichever resolution read them first", () => {
    assert.ok(configs.includes("package.json") && configs.includes("web/tsconfig.json"), configs.join(" "));
    assert.deepEqual(configs, [...configs].sort());
  });

  it("libraries and node builtins are external: no edge, nothing unresolved", () => {
    for (const f of ["src/app.ts", "web/app.ts", "api/main.ts"]) assert.equal(graph.unresolved(f).total, 0, f);
  });
});
