/**
 * `magellan impact` and `magellan impact-diagnostics` run as a user runs them: envelopes checked
 * against the contract (seed 04 payloads inside data), the impact_graph.json snapshot written,
 * read back, a legacy one migrated and foreign ones refused, and --affected-since on a real git
 * repository.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { AffectedPayloadSchema, ImpactDiagnosticsPayloadSchema, ImpactGraphPayloadSchema, ImpactGraphStoreSchema } from "../../src/contract/tools/impact.js";
import { queryResponseSchema, QueryErrorResponseSchema } from "../../src/contract/schema.js";
import Database from "better-sqlite3";
import { z } from "zod";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "impact");
const IMPACT = queryResponseSchema(ImpactGraphPayloadSchema);

interface Env<T> {
  command: string;
  partial: boolean;
  data: T;
  diagnostics?: { code: string; level: string; message: string }[];
}

describe("magellan impact CLI", () => {
  let root: string;
  const git = (...args: string[]): string => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" });
  before(async () => {
    root = tempDir("impact-cli-");
    cpSync(join(FIXTURES, "py-src"), root, { recursive: true });
    git("init", "-q");
    git("-c", "user.email=t@t", "-c", "user.name=t", "add", ".");
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init");
    const r = await runTool("magellan", ["index", "--root", root]);
    assert.equal(r.code, 0);
  });

  it("impact --file prints docdex.impact_graph v2 in data, with direction semantics and diagnostics", async () => {
    const r = await runTool("magellan", ["impact", "--root", root, "--file", "src/acme/core.py"], { schema: IMPACT });
    assert.equal(r.code, 0);
    const env = r.json as Env<{ schema: { name: string; version: number }; source: string; inbound: string[]; outbound: string[]; edges: { source: string; target: string; kind: string }[]; diagnostics?: { unresolvedImportsTotal: number; unresolvedImportsSample: string[] } }>;
    assert.deepEqual(env.data.schema, { name: "docdex.impact_graph", version: 2, compatible: { min: 2, max: 2 } });
    assert.equal(env.data.source, "src/acme/core.py");
    assert.deepEqual(env.data.outbound, ["src/acme/util.py"]);
    assert.deepEqual(env.data.inbound, ["src/acme/__init__.py", "tests/test_core.py"]);
    for (const e of env.data.edges) assert.ok(e.source === "src/acme/core.py" || e.target === "src/acme/core.py");
    assert.deepEqual(env.data.diagnostics, { unresolvedImportsTotal: 1, unresolvedImportsSample: ["..acme_missing"] });
  });

  it("--direction out, --max-depth, --max-edges (partial, exit 4)", async () => {
    const out = (await runTool("magellan", ["impact", "--root", root, "--file", "tests/test_core.py", "--direction", "out", "--max-depth", "2"], { schema: IMPACT })).json as Env<{ inbound: string[]; edges: { source: string; target: string }[] }>;
    assert.deepEqual(out.data.inbound, []);
    assert.ok(out.data.edges.some((e) => e.source === "src/acme/core.py" && e.target === "src/acme/util.py"), "depth 2 follows core.py's own import");
    const cut = await runTool("magellan", ["impact", "--root", root, "--file", "tests/test_core.py", "--max-edges", "1"], { schema: IMPACT });
    assert.equal(cut.code, 4);
    const env = cut.json as Env<{ truncated: boolean; edges: unknown[] }>;
    assert.equal(env.partial, true);
    assert.equal(env.data.truncated, true);
    assert.equal(env.data.edges.length, 1);
  });

  it("bad arguments are exit 2 with a remediation", async () => {
    for (const args of [["--file", "x.py", "--direction", "sideways"], ["--file", "x.py", "--edge-types", "import,bogus"], []]) {
      const r = await runTool("magellan", ["impact", "--root", root, ...args], { schema: QueryErrorResponseSchema });
      assert.equal(r.code, 2, args.join(" "));
    }
  });

  it("impact-diagnostics lists the files with unresolved dependencies", async () => {
    const r = await runTool("magellan", ["impact-diagnostics", "--root", root], { schema: queryResponseSchema(ImpactDiagnosticsPayloadSchema) });
    const env = r.json as Env<{ total: number; diagnostics: { file: string }[] }>;
    assert.equal(env.data.total, 2);
    assert.deepEqual(env.data.diagnostics.map((d) => d.file), ["src/acme/core.py", "src/acme/plugins/loader.py"]);
  });

  it("--export writes impact_graph.json; --snapshot answers from it; a legacy file is migrated; a foreign or incompatible one is refused", async () => {
    const exportSummary = z.object({ path: z.string(), files: z.number().int(), edges: z.number().int(), schema: ImpactGraphStoreSchema.shape.schema }).strict();
    const exp = await runTool("magellan", ["impact", "--root", root, "--export", "graph.json"], { schema: queryResponseSchema(exportSummary) });
    assert.equal(exp.code, 0);
    const store = ImpactGraphStoreSchema.parse(JSON.parse(readFileSync(join(root, "graph.json"), "utf8")));
    assert.ok(store.graphs.some((g) => g.source === "src/acme/core.py" && g.edges.some((e) => e.target === "src/acme/util.py")));
    const fromSnap = (await runTool("magellan", ["impact", "--root", root, "--snapshot", "graph.json", "--file", "src/acme/core.py"], { schema: IMPACT })).json as Env<{ outbound: string[]; inbound: string[] }>;
    assert.deepEqual(fromSnap.data.outbound, ["src/acme/util.py"]);
    assert.deepEqual(fromSnap.data.inbound, ["src/acme/__init__.py", "tests/test_core.py"]);

    writeFileSync(join(root, "legacy.json"), JSON.stringify({ graphs: [{ source: "a.py", edges: [{ source: "a.py", target: "b.py", kind: "imports" }, { source: "a.py", target: "c.h", kind: "#include" }, { source: "a.py", target: "d.js", kind: "cjs" }] }] }));
    const legacy = (await runTool("magellan", ["impact", "--root", root, "--snapshot", "legacy.json", "--file", "a.py"], { schema: IMPACT })).json as Env<{ edges: { target: string; kind: string }[] }>;
    assert.deepEqual(legacy.data.edges.map((e) => [e.target, e.kind]), [["b.py", "import"], ["c.h", "include"], ["d.js", "require"]]);
    assert.ok(legacy.diagnostics?.some((d) => d.code === "MAGELLAN_W196"));

    const refuse = async (doc: unknown, code: string): Promise<void> => {
      writeFileSync(join(root, "bad.json"), JSON.stringify(doc));
      const r = await runTool("magellan", ["impact", "--root", root, "--snapshot", "bad.json", "--file", "a.py"], { schema: QueryErrorResponseSchema });
      assert.equal(r.code, 1);
      assert.equal((r.json as Env<{ code: string }>).data.code, code);
    };
    await refuse({ schema: { name: "docdex.symbols", version: 1, compatible: { min: 1, max: 1 } }, graphs: [] }, "MAGELLAN_E191");
    await refuse({ schema: { name: "docdex.impact_graph", version: 3, compatible: { min: 3, max: 3 } }, repo_id: store.repo_id, graphs: [] }, "MAGELLAN_E192");
    // A newer version whose range includes 2 is accepted.
    writeFileSync(join(root, "newer.json"), JSON.stringify({ ...store, schema: { name: "docdex.impact_graph", version: 3, compatible: { min: 2, max: 3 } } }));
    const newer = await runTool("magellan", ["impact", "--root", root, "--snapshot", "newer.json", "--file", "src/acme/core.py"], { schema: IMPACT });
    assert.equal(newer.code, 0);
  });

  it("an index of schema 2 is migrated: impact says to reindex (E193) until the next index run re-reads every file", async () => {
    const dir = tempDir("impact-migrate-");
    cpSync(join(FIXTURES, "go-work"), dir, { recursive: true });
    assert.equal((await runTool("magellan", ["index", "--root", dir])).code, 0);
    const db = new Database(join(dir, ".magellan", "code.db"));
    db.exec("DROP TABLE impact_edges; DROP TABLE deps; DELETE FROM meta WHERE key LIKE 'impact%'");
    db.pragma("user_version = 2");
    db.close();
    const before = await runTool("magellan", ["impact", "--root", dir, "--file", "server/main.go"], { schema: QueryErrorResponseSchema });
    assert.equal(before.code, 1);
    assert.equal((before.json as Env<{ code: string }>).data.code, "MAGELLAN_E193");
    const re = await runTool("magellan", ["index", "--root", dir]);
    assert.equal((re.json as Env<{ files_indexed: number }>).data.files_indexed, 5, "every file re-read");
    const after = (await runTool("magellan", ["impact", "--root", dir, "--file", "server/main.go"], { schema: IMPACT })).json as Env<{ outbound: string[] }>;
    assert.deepEqual(after.data.outbound, ["api/types/more.go", "api/types/types.go", "server/internal/db/db.go"]);
  });

  it("--affected-since REV: changed files (working tree included) and what reaches them through the reverse graph, tests apart", async () => {
    writeFileSync(join(root, "src/acme/util.py"), "def helper():\n    return 2  # changed\n");
    const r = await runTool("magellan", ["impact", "--root", root, "--affected-since", "HEAD"], { schema: queryResponseSchema(AffectedPayloadSchema) });
    assert.equal(r.code, 0);
    const env = r.json as Env<{ changed: string[]; affected: { file: string; depth: number; symbols: { name: string }[] }[]; tests: string[] }>;
    assert.ok(env.data.changed.includes("src/acme/util.py"));
    const depth = new Map(env.data.affected.map((a) => [a.file, a.depth]));
    assert.equal(depth.get("src/acme/util.py"), 0);
    assert.equal(depth.get("src/acme/core.py"), 1);
    assert.equal(depth.get("src/acme/__init__.py"), 2);
    assert.deepEqual(env.data.tests, ["tests/test_core.py"]);
    assert.ok(env.data.affected.find((a) => a.file === "src/acme/core.py")?.symbols.some((s) => s.name === "Engine"));
    // The index has not seen the edit: the answer says so.
    assert.ok((r.json as { diagnostics?: { code: string; file?: string }[] }).diagnostics?.some((d) => d.code === "MAGELLAN_E108" && d.file === "src/acme/util.py"), r.stdout);
    const bad = await runTool("magellan", ["impact", "--root", root, "--affected-since", "no-such-rev"], { schema: QueryErrorResponseSchema });
    assert.equal(bad.code, 2);
    assert.equal((bad.json as Env<{ code: string }>).data.code, "MAGELLAN_E194");

    // A file added since the index was built is affected (changed) and named as unknown to the index.
    writeFileSync(join(root, "src/acme/extra.py"), "from acme.util import helper\n");
    const added = await runTool("magellan", ["impact", "--root", root, "--affected-since", "HEAD"], { schema: queryResponseSchema(AffectedPayloadSchema) });
    const a = added.json as Env<{ affected: { file: string; depth: number }[] }> & { partial: boolean; diagnostics?: { code: string; message: string }[] };
    assert.deepEqual(a.data.affected.find((x) => x.file === "src/acme/extra.py"), { file: "src/acme/extra.py", depth: 0, is_test: false, symbols: [] });
    assert.ok(a.diagnostics?.some((d) => d.code === "MAGELLAN_E108" && /not in the index/.test(d.message)), added.stdout);
    assert.equal(a.partial, true);

    // Nothing changed: the empty answer says why.
    execFileSync("git", ["-C", root, "checkout", "--", "."]);
    execFileSync("git", ["-C", root, "clean", "-fdq"]);
    const none = await runTool("magellan", ["impact", "--root", root, "--affected-since", "HEAD"], { schema: queryResponseSchema(AffectedPayloadSchema) });
    const n = none.json as Env<{ changed: string[] }> & { diagnostics?: { level: string; message: string }[] };
    assert.deepEqual(n.data.changed, []);
    assert.ok(n.diagnostics?.some((d) => d.level === "note" && /no file differs from HEAD/.test(d.message)), none.stdout);
  });

  it("--affected-since REV after a rename (git mv) and a re-index: the old path is changed, and its importers and their tests are affected", async () => {
    const dir = tempDir("impact-rename-");
    const g = (...args: string[]): string => execFileSync("git", ["-C", dir, "-c", "user.email=t@t", "-c", "user.name=t", ...args], { encoding: "utf8" });
    g("init", "-q");
    writeFileSync(join(dir, "a.ts"), "export function a(): number { return 1; }\n");
    writeFileSync(join(dir, "b.ts"), 'import { a } from "./a";\nexport const b = a();\n');
    writeFileSync(join(dir, "b.test.ts"), 'import { b } from "./b";\nexport const t = b;\n');
    g("add", "-A");
    g("commit", "-qm", "init");
    assert.equal((await runTool("magellan", ["index", "--root", dir])).code, 0);
    // Staged, git diff sees a rename and names only c.ts unless told not to.
    g("mv", "a.ts", "c.ts");
    const affected = async (): Promise<{ changed: string[]; affected: [string, number][]; tests: string[] }> => {
      const r = await runTool("magellan", ["impact", "--root", dir, "--affected-since", "HEAD"], { schema: queryResponseSchema(AffectedPayloadSchema) });
      const d = (r.json as Env<{ changed: string[]; affected: { file: string; depth: number }[]; tests: string[] }>).data;
      return { changed: d.changed, affected: d.affected.map((x) => [x.file, x.depth]), tests: d.tests };
    };
    const before = await affected();
    assert.deepEqual(before.changed, ["a.ts", "c.ts"]);
    assert.deepEqual(before.tests, ["b.test.ts"]);
    // Once the index has caught up, a.ts is in no graph and b.ts's import of it resolves to nothing.
    assert.equal((await runTool("magellan", ["index", "--root", dir])).code, 0);
    const after = await affected();
    assert.deepEqual(after.affected, [
      ["c.ts", 0],
      ["b.ts", 1],
      ["b.test.ts", 2],
    ]);
    assert.deepEqual(after.tests, ["b.test.ts"]);
  });
});
