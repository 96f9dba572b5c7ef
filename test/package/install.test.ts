/**
 * The package as people get it: `npm pack`, then `npm install ./llmtools-*.tgz` into an empty
 * directory, then every bin once from that tree on a small real project, `llmtools mcp` through
 * the SDK client, and llmfilewrite rejecting a TypeScript type error with the `typescript` the
 * install brought. One copy of tree-sitter and no peer-dependency warning from the install.
 * Slow (native modules compile: a few minutes); it fails loudly on anything missing.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO_ROOT, tempDir } from "../support/run.js";

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string; bin: Record<string, string> };
let home: string;
let installLog: string;
let project: string;

function sh(cmd: string, args: string[], cwd: string, input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, input, encoding: "utf8", maxBuffer: 1 << 28, timeout: 900_000, env: { ...process.env, npm_config_update_notifier: "false" } });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function bin(name: string): string {
  return join(home, "node_modules", ".bin", name);
}

/** Every installed package.json whose package is `name` (aliases included), by directory. */
function copiesOf(name: string, where = home): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const d = join(dir, e.name);
      if (e.name.startsWith("@")) {
        walk(d);
        continue;
      }
      try {
        if ((JSON.parse(readFileSync(join(d, "package.json"), "utf8")) as { name?: string }).name === name) out.push(d);
      } catch {
        // not a package
      }
      walk(join(d, "node_modules"));
    }
  };
  walk(join(where, "node_modules"));
  return out;
}

before(() => {
  const dist = tempDir("pack-");
  // The build already ran (the suite runs on dist/); --ignore-scripts skips `prepare`'s rebuild.
  const pack = sh("npm", ["pack", "--ignore-scripts", "--pack-destination", dist], REPO_ROOT);
  assert.equal(pack.status, 0, pack.stderr);
  const tgz = readdirSync(dist).find((f) => f.startsWith("llmtools-") && f.endsWith(".tgz"));
  assert.ok(tgz, "npm pack made no tarball");
  home = tempDir("install-");
  writeFileSync(join(home, "package.json"), JSON.stringify({ name: "probe", version: "1.0.0", private: true }));
  const inst = sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(dist, tgz)], home);
  installLog = inst.stderr + inst.stdout;
  assert.equal(inst.status, 0, installLog);

  project = tempDir("installed-ws-");
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022" }, include: ["src"] }));
  writeFileSync(join(project, "src/shapes.ts"), "export class Square {\n  area(side: number): number {\n    return side * side;\n  }\n}\n");
  writeFileSync(join(project, "README.md"), "# Shapes\n\n## Square\n\nA square.\n");
});

describe("npm pack + npm install into an empty directory", () => {
  it("installs one copy of tree-sitter without peer-dependency warnings", () => {
    assert.doesNotMatch(installLog, /ERESOLVE|peer dep|peerOptional|Conflicting peer/i, installLog.slice(0, 3000));
    assert.deepEqual(copiesOf("tree-sitter").length, 1, copiesOf("tree-sitter").join("\n"));
  });

  it("runs every bin from the installed tree", () => {
    for (const name of Object.keys(pkg.bin)) {
      const v = sh(bin(name), ["--version"], project);
      assert.equal(v.status, 0, `${name} --version: ${v.stderr}`);
      assert.equal(v.stdout.trim(), pkg.version);
    }
    const index = sh(bin("magellan"), ["index", "--root", project], project);
    assert.equal(index.status, 0, index.stdout + index.stderr);
    const find = sh(bin("magellan"), ["find", "--name", "Square", "--root", project], project);
    assert.match(find.stdout, /"file_path":"src\/shapes\.ts"/, find.stderr);
    const search = sh(bin("llmsearch"), ["--pattern", "side", "--root", project], project);
    assert.match(search.stdout, /"match_count":3/, search.stderr);
    const ast = sh(bin("llmastsearch"), ["--query", "(class_declaration) @c", "--root", project], project);
    assert.match(ast.stdout, /"match_count":1/, ast.stderr);
    const md = sh(bin("mdsel"), ["select", "readme::heading:h2[0]", "README.md"], project);
    assert.match(md.stdout, /A square/, md.stderr);
    const text = readFileSync(join(project, "src/shapes.ts"));
    const dry = sh(bin("llmtransform"), ["--root", project, "--file", "src/shapes.ts", "--dry-run", "--edits", "-"], project, JSON.stringify({
      file_path: "src/shapes.ts",
      expected_checksum: `sha256:${(spawnSync("sha256sum", [], { input: text }).stdout.toString().split(" ")[0] ?? "")}`,
      edits: [{ byte_start: 0, byte_end: 0, new_content: "// x\n" }],
    }));
    assert.equal(dry.status, 0, dry.stdout + dry.stderr);
  });

  it("llmfilewrite rejects a TypeScript type error with the installed typescript", () => {
    const bad = sh(bin("llmfilewrite"), ["--root", project, "--path", "src/bad.ts", "--content", "export const n: number = 'text';\n"], project);
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    const env = JSON.parse(bad.stdout) as { status: string; result: { checkers_run: string[]; diagnostics: { code: string }[] } };
    assert.equal(env.status, "rejected");
    assert.ok(env.result.checkers_run.some((c) => /typescript/i.test(c)), env.result.checkers_run.join(","));
    assert.ok(env.result.diagnostics.some((d) => d.code === "TS2322"), bad.stdout);
  });

  it("serves `llmtools mcp` to the SDK client", async () => {
    const client = new Client({ name: "install-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: bin("llmtools"), args: ["mcp", "--root", project], stderr: "pipe" }));
    try {
      const tools = await client.listTools();
      assert.ok(tools.tools.length >= 10);
      const index = (await client.callTool({ name: "magellan_index", arguments: {} })) as { isError?: boolean };
      assert.equal(index.isError, false);
      const r = (await client.callTool({ name: "magellan_find", arguments: { name: "Square" } })) as { isError?: boolean };
      assert.equal(r.isError, false);
    } finally {
      await client.close();
    }
  });
});

/**
 * npm 12 and later skip a dependency's install script unless it was allowed: the add-ons are
 * then never built. Each tool must say so, with the way out, instead of an internal error. The
 * runtime's prebuilt binaries are removed too, as on a platform that has none: its loader then
 * finds no build at all, whatever this machine's C++ runtime would have accepted.
 */
let bare: string;
const bareHome = (): string => bare;

describe("installed without install scripts (npm 12's default)", () => {
  before(() => {
    const dist = tempDir("pack-bare-");
    const pack = sh("npm", ["pack", "--ignore-scripts", "--pack-destination", dist], REPO_ROOT);
    assert.equal(pack.status, 0, pack.stderr);
    const tgz = readdirSync(dist).find((f) => f.startsWith("llmtools-") && f.endsWith(".tgz")) as string;
    bare = tempDir("install-bare-");
    writeFileSync(join(bare, "package.json"), JSON.stringify({ name: "probe-bare", version: "1.0.0", private: true }));
    const inst = sh("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", join(dist, tgz)], bare);
    assert.equal(inst.status, 0, inst.stderr + inst.stdout);
    for (const dir of copiesOf("tree-sitter", bare)) {
      rmSync(join(dir, "prebuilds"), { recursive: true, force: true });
      rmSync(join(dir, "build"), { recursive: true, force: true });
    }
  });

  function assertNative(tool: string, r: { status: number | null; stdout: string; stderr: string }, pkgs: RegExp): void {
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /internal error|E999|\n\s+at /, r.stdout + r.stderr);
    const env = JSON.parse(r.stdout) as { data?: { code: string; remediation: string; message: string }; error?: { code: string; remediation: string; message: string } };
    const err = env.data ?? env.error;
    assert.ok(err, r.stdout);
    assert.equal(err.code, `${tool.toUpperCase()}_E017`, r.stdout);
    assert.match(err.message, pkgs);
    assert.match(err.remediation, /--allow-scripts=better-sqlite3,tree-sitter,/);
  }

  it("every tool that needs an add-on answers E017 native_unavailable with the way out", () => {
    const b = (name: string): string => join(bare, "node_modules", ".bin", name);
    assertNative("magellan", sh(b("magellan"), ["index", "--root", project], project), /better-sqlite3|tree-sitter/);
    assertNative("magellan", sh(b("magellan"), ["symbols", "--file", "src/shapes.ts", "--root", project], project), /tree-sitter/);
    assertNative("llmastsearch", sh(b("llmastsearch"), ["--query", "(class_declaration) @c", "--root", project], project), /tree-sitter/);
    assertNative("llmfilewrite", sh(b("llmfilewrite"), ["--root", project, "--path", "src/new.ts", "--content", "export const n = 1;\n"], project), /tree-sitter/);
    assertNative("splice", sh(b("splice"), ["delete", "--root", project, "--file", "src/shapes.ts", "--symbol", "Square"], project), /better-sqlite3|tree-sitter/);
    // Nothing was written by the refusals.
    assert.equal(existsSync(join(project, "src/new.ts")), false);
    assert.equal(readFileSync(join(project, "src/shapes.ts"), "utf8"), "export class Square {\n  area(side: number): number {\n    return side * side;\n  }\n}\n");
    // Tools without add-ons still work.
    const md = sh(b("mdsel"), ["select", "readme::heading:h2[0]", "README.md"], project);
    assert.match(md.stdout, /A square/, md.stderr);
    const search = sh(b("llmsearch"), ["--pattern", "side", "--root", project], project);
    assert.equal(search.status, 0, search.stdout + search.stderr);
  });
});

describe("installed without install scripts, through MCP", () => {
  it("answers E017 native_unavailable for a tool that needs an add-on, and the server stays up", async () => {
    const bareBin = join(copiesOf("llmtools", bareHome())[0] as string, "..", ".bin", "llmtools");
    const client = new Client({ name: "install-test-bare", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: bareBin, args: ["mcp", "--root", project], stderr: "pipe" }));
    try {
      const r = (await client.callTool({ name: "magellan_index", arguments: {} })) as { isError?: boolean; structuredContent?: { data?: { code?: string; remediation?: string } } };
      assert.equal(r.isError, true);
      assert.equal(r.structuredContent?.data?.code, "MAGELLAN_E017", JSON.stringify(r));
      assert.match(r.structuredContent?.data?.remediation ?? "", /--allow-scripts=/);
      const ok = (await client.callTool({ name: "llmsearch", arguments: { pattern: "side" } })) as { isError?: boolean };
      assert.equal(ok.isError, false, JSON.stringify(ok));
    } finally {
      await client.close();
    }
  });
});
