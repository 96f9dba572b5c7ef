/**
 * `magellan export` writes its answer while it reads the index: every format, on stdout and into
 * --output, must be the very bytes of the answer built whole in memory. The reference below is
 * the in-memory renderer export used before (graph gathered into arrays, then stringified).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import Database from "better-sqlite3";
import type { DB } from "../../src/graph/db.js";
import { JsonDocument, listSlot, textSlot } from "../../src/text/json-document.js";
import { collisionList } from "../../src/tools/magellan/queries.js";
import { DIST, REPO_ROOT, runTool, tempDir } from "../support/run.js";
import { FIXTURES, copyFixture, mg } from "./support.js";

type Rec = Record<string, unknown>;
interface Graph {
  files: Rec[];
  symbols: Rec[];
  references: Rec[];
  calls: Rec[];
  collisions: Rec[];
}

// ---- The reference: export's in-memory renderer as it was before it streamed. ----

const POS = "byte_start, byte_end, start_line, start_col, end_line, end_col";
const pos = (r: Rec): Rec => ({ byte_start: r.byte_start, byte_end: r.byte_end, start_line: r.start_line, start_col: r.start_col, end_line: r.end_line, end_col: r.end_col });

function graphOf(dbPath: string): Graph {
  const db = new Database(dbPath, { readonly: true });
  try {
    const files = (db.prepare("SELECT path, hash FROM files ORDER BY path").all() as Rec[]).map((f) => ({ path: f.path, hash: f.hash }));
    const symbols = (
      db
        .prepare(
          `SELECT s.symbol_id, s.canonical_fqn, s.display_fqn, s.name, s.kind, s.kind_normalized, f.path AS file, s.parent, ${POS.split(", ").map((c) => `s.${c}`).join(", ")}
           FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.byte_start, s.id`,
        )
        .all() as Rec[]
    ).map((s) => {
      const o: Rec = { symbol_id: s.symbol_id, canonical_fqn: s.canonical_fqn, display_fqn: s.display_fqn, name: s.name, kind: s.kind, kind_normalized: s.kind_normalized, file: s.file };
      if (s.parent !== null) o.parent = s.parent;
      return { ...o, ...pos(s) };
    });
    const refRows = db
      .prepare(
        `SELECT f.path AS file, r.name, r.kind, r.target_symbol_id, r.resolution, r.candidates, r.caller_symbol_id, c.name AS caller,
           ${POS.split(", ").map((c) => `r.${c}`).join(", ")}
         FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols c ON c.symbol_id = r.caller_symbol_id ORDER BY f.path, r.byte_start, r.id`,
      )
      .all() as Rec[];
    const references: Rec[] = [];
    const calls: Rec[] = [];
    for (const r of refRows) {
      const ref: Rec = { file: r.file, referenced_symbol: r.name, reference_kind: r.kind };
      if (r.target_symbol_id !== null) ref.target_symbol_id = r.target_symbol_id;
      ref.resolution = r.resolution;
      if (r.candidates !== null) ref.candidates = JSON.parse(r.candidates as string) as string[];
      references.push({ ...ref, ...pos(r) });
      if (r.kind === "call" && r.caller_symbol_id !== null && r.caller !== null) {
        const call: Rec = { file: r.file, caller: r.caller, callee: r.name, caller_symbol_id: r.caller_symbol_id };
        if (r.target_symbol_id !== null) call.callee_symbol_id = r.target_symbol_id;
        call.resolution = r.resolution;
        calls.push({ ...call, ...pos(r) });
      }
    }
    return { files, symbols, references, calls, collisions: collisionList(db as unknown as DB, "fqn", 100_000) };
  } finally {
    db.close();
  }
}

function jsonlRecords(g: Graph): Rec[] {
  return [
    { type: "Version", version: "2.0.0" },
    ...g.files.map((r) => ({ type: "File", ...r })),
    ...g.symbols.map((r) => ({ type: "Symbol", ...r })),
    ...g.references.map((r) => ({ type: "Reference", ...r })),
    ...g.calls.map((r) => ({ type: "Call", ...r })),
    ...g.collisions.map((r) => ({ type: "Collision", ...r })),
  ];
}

const CSV_COLUMNS = [
  "type", "path", "hash", "symbol_id", "canonical_fqn", "display_fqn", "name", "kind", "kind_normalized", "parent", "file",
  "referenced_symbol", "reference_kind", "target_symbol_id", "resolution", "caller", "callee", "caller_symbol_id", "callee_symbol_id",
  "byte_start", "byte_end", "start_line", "start_col", "end_line", "end_col",
];

function csvCell(v: unknown): string {
  if (v === undefined || v === null) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvText(g: Graph): string {
  const rows = jsonlRecords(g).filter((r) => r.type !== "Version" && r.type !== "Collision");
  const lines = ["# Magellan Export Version: 2.0.0", CSV_COLUMNS.join(",")];
  for (const r of rows) lines.push(CSV_COLUMNS.map((c) => csvCell(r[c])).join(","));
  return `${lines.join("\n")}\n`;
}

const jsonlText = (g: Graph): string => `${jsonlRecords(g).map((r) => JSON.stringify(r)).join("\n")}\n`;
const summary = (format: string, g: Graph): Rec => ({
  format,
  version: "2.0.0",
  files: g.files.length,
  symbols: g.symbols.length,
  references: g.references.length,
  calls: g.calls.length,
  collisions: g.collisions.length,
});
const stringify = (v: unknown, pretty: boolean): string => `${pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v)}\n`;

/** The envelope printed, with `data` replaced by the reference's: the bytes the whole answer would have had. */
function expectedDocument(stdout: string, data: unknown, pretty: boolean): string {
  const env = JSON.parse(stdout) as Rec;
  return stringify({ ...env, data }, pretty);
}

// ---- The tests. ----

describe("magellan export, written while it reads", () => {
  let root = "";
  let g: Graph;
  before(async () => {
    root = copyFixture("multi", ["ts"]);
    cpSync(join(FIXTURES, "export"), join(root, "export"), { recursive: true });
    const { r } = await mg(root, ["index"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // Changed since it was indexed: the answer carries STALE_INDEX diagnostics, after its data.
    appendFileSync(join(root, "export", "naive.ts"), "// edited\n");
    g = graphOf(join(root, ".magellan", "code.db"));
    // The fixture reaches every branch of the records.
    assert.ok(g.calls.length > 0 && g.collisions.length > 0 && g.references.some((r) => r.candidates) && g.symbols.some((s) => s.parent));
    assert.match(csvText(g), /"operator,"/);
  });

  for (const pretty of [false, true]) {
    it(`json on stdout${pretty ? " --pretty" : ""}: the whole envelope's bytes, diagnostics after the lists`, async () => {
      const { r, env } = await mg(root, ["export", ...(pretty ? ["--pretty"] : [])]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(env.diagnostics?.some((d) => d.message.startsWith("STALE_INDEX: export/naive.ts")), "the stale file is reported");
      assert.equal(r.stdout, expectedDocument(r.stdout, { version: "2.0.0", ...g }, pretty));
    });

    it(`csv on stdout${pretty ? " --pretty" : ""}: the counts, then the table as one string`, async () => {
      const { r } = await mg(root, ["export", "--format", "csv", ...(pretty ? ["--pretty"] : [])]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, expectedDocument(r.stdout, { ...summary("csv", g), content: csvText(g) }, pretty));
    });
  }

  it("jsonl on stdout: the records, one per line; diagnostics on stderr", async () => {
    const { r } = await mg(root, ["export", "--format", "jsonl"], { raw: true });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, jsonlText(g));
    assert.match(r.stderr, /magellan: warning: STALE_INDEX: export\/naive\.ts changed/);
  });

  it("--output: the same bytes in the file for each format, the summary on stdout, no temp file left", async () => {
    const expected = { json: `${JSON.stringify({ version: "2.0.0", ...g })}\n`, jsonl: jsonlText(g), csv: csvText(g) };
    mkdirSync(join(root, "out"));
    for (const format of ["json", "jsonl", "csv"] as const) {
      const file = join(root, "out", `graph.${format}`);
      // Replacing a file that exists takes the same path.
      writeFileSync(file, "old");
      const { r, env } = await mg(root, ["export", "--format", format, "--output", `out/graph.${format}`]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(env.data, { ...summary(format, g), output: file });
      assert.equal(readFileSync(file, "utf8"), expected[format], format);
    }
    assert.deepEqual(readdirSync(join(root, "out")).sort(), ["graph.csv", "graph.json", "graph.jsonl"]);
  });

  it("a write that fails at the end (the target is a directory) leaves it as it was, and no temp file", async () => {
    mkdirSync(join(root, "taken", "graph.json"), { recursive: true });
    writeFileSync(join(root, "taken", "graph.json", "keep"), "kept");
    const { r } = await mg(root, ["export", "--output", "taken/graph.json"]);
    assert.equal(r.code, 1);
    assert.deepEqual(readdirSync(join(root, "taken")), ["graph.json"]);
    assert.deepEqual(readdirSync(join(root, "taken", "graph.json")), ["keep"]);
  });

  it("--output outside the root is refused before anything is written", async () => {
    const outside = join(root, "..", `escape-${process.pid}.json`);
    const { r, env } = await mg(root, ["export", "--output", outside]);
    assert.equal(r.code, 2);
    assert.equal(env.data.code, "MAGELLAN_E001");
    assert.equal(existsSync(outside), false);
  });

  it("an interrupted index: partial and its warning come before the data, exit 4", async () => {
    const tree = copyFixture("multi", ["ts"]);
    assert.equal((await mg(tree, ["index"])).r.code, 0);
    const dbPath = join(tree, ".magellan", "code.db");
    const db = new Database(dbPath);
    db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('resolve_pending', '1')").run();
    db.close();
    const ref = graphOf(dbPath);
    const { r, env } = await mg(tree, ["export", "--pretty"]);
    assert.equal(r.code, 4);
    assert.equal(env.partial, true);
    assert.match(env.diagnostics?.[0]?.message ?? "", /^STALE_INDEX: the index is incomplete/);
    assert.equal(r.stdout, expectedDocument(r.stdout, { version: "2.0.0", ...ref }, true));
  });

  it("empty lists print as [] (a tree without calls or collisions), compact and --pretty", async () => {
    const tree = tempDir("mg-export-empty-");
    writeFileSync(join(tree, "one.py"), "X = 1\n");
    assert.equal((await mg(tree, ["index"])).r.code, 0);
    const ref = graphOf(join(tree, ".magellan", "code.db"));
    assert.equal(ref.calls.length + ref.collisions.length + ref.references.length, 0);
    for (const pretty of [false, true]) {
      const { r } = await mg(tree, ["export", ...(pretty ? ["--pretty"] : [])]);
      assert.equal(r.stdout, expectedDocument(r.stdout, { version: "2.0.0", ...ref }, pretty));
      assert.match(r.stdout, pretty ? /"calls": \[\],/ : /"calls":\[\],/);
    }
  });

  it("the daemon's hook adds its note to the diagnostics after the lists were written", () => {
    // What src/server/context.ts installs inside the daemon, in a plain process.
    const script = `
      globalThis[Symbol.for("llmtools.runHooks")] = {
        beforePrint(result) {
          if (result.envelope) result.envelope.diagnostics = [...(result.envelope.diagnostics ?? []), { tool: "magellan", level: "note", code: "NOTE", message: "from the hook" }];
        },
        finished(code) { process.stderr.write("finished " + code + "\\n"); },
      };
      process.argv = [process.execPath, "magellan", "export", "--root", ${JSON.stringify(root)}, "--pretty"];
      await import(${JSON.stringify(join(DIST, "src", "cli", "magellan.js"))});`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /finished 0/);
    const env = JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] };
    assert.equal(env.diagnostics.at(-1)?.message, "from the hook");
    assert.ok(env.diagnostics.length > 1);
    assert.equal(r.stdout, expectedDocument(r.stdout, { version: "2.0.0", ...g }, true));
  });

  it("through a running daemon, every format prints what the CLI prints alone", async () => {
    const ws = tempDir("mg-export-daemon-");
    cpSync(join(REPO_ROOT, "test", "fixtures", "server", "ws"), ws, { recursive: true });
    mkdirSync(join(ws, ".git"));
    const env = { LLMTOOLS_DAEMON_IDLE_TIMEOUT: "60" };
    assert.equal((await runTool("magellan", ["index", "--no-daemon"], { cwd: ws })).code, 0);
    const start = await runTool("llmtools", ["daemon", "start", "--root", ws], { env });
    assert.equal(start.code, 0, start.stdout + start.stderr);
    const served = async (): Promise<number> => ((await runTool("llmtools", ["daemon", "status", "--root", ws], { env })).json as { data: { requests_served: number } }).data.requests_served;
    const normal = (s: string): string => s.replace(/"execution_id": ?"[^"]*"/, "").replace(/"timestamp": ?"[^"]*"/, "");
    try {
      const before = await served();
      const lines = [["export"], ["export", "--pretty"], ["export", "--format", "jsonl"], ["export", "--format", "csv"]];
      for (const args of lines) {
        const warm = await runTool("magellan", args, { cwd: ws, env, raw: true });
        const cold = await runTool("magellan", [...args, "--no-daemon"], { cwd: ws, env, raw: true });
        assert.equal(warm.code, 0, warm.stderr);
        assert.ok(warm.stdout.length > 1000);
        assert.equal(normal(warm.stdout), normal(cold.stdout), args.join(" "));
      }
      assert.equal((await served()) - before, lines.length, "each warm run went through the daemon");
    } finally {
      await runTool("llmtools", ["daemon", "stop", "--root", ws], { env });
    }
  });
});

describe("JsonDocument", () => {
  const items = (n: number): Rec[] => Array.from({ length: n }, (_, i) => ({ i, s: `x"\\\n\u2028é${i}`, nested: { a: [i, { b: null }], e: [] } }));

  for (const pretty of [false, true]) {
    it(`writes JSON.stringify's bytes${pretty ? " (pretty)" : ""}: lists of any length, a string slot, text around them`, () => {
      for (const n of [0, 1, 3, 5000]) {
        const template = { a: 1, data: { first: listSlot(0), mid: { deep: listSlot(1) }, text: textSlot(2), last: listSlot(3) }, diagnostics: [{ m: "after" }] };
        const pieces = ["line, one\n", 'quote " and \\ ', "", "ünï\u0000code\n"];
        const chunks: string[] = [];
        const doc = new JsonDocument(pretty, (t) => chunks.push(t));
        doc.open(template);
        assert.equal(chunks.length, 0, "nothing written at open");
        assert.equal(doc.list(items(n)), n);
        doc.list([]);
        doc.text(pieces.slice(0, n % 4 === 0 ? 0 : 4));
        doc.list(items(n).map((x) => x.i));
        doc.close({ ...template, diagnostics: [{ m: "after" }, { m: "added at close" }] });
        const whole = { a: 1, data: { first: items(n), mid: { deep: [] }, text: n % 4 === 0 ? "" : pieces.join(""), last: items(n).map((x) => x.i) }, diagnostics: [{ m: "after" }, { m: "added at close" }] };
        assert.equal(chunks.join(""), stringify(whole, pretty));
        assert.ok(chunks.every((c) => c.length < 64 * 1024 + 4096), "written in chunks of about 64 KB");
      }
    });

    it(`abort${pretty ? " (pretty)" : ""}: the list ends where it got to, the rest empty, the final template's diagnostics last`, () => {
      const template = { data: { one: listSlot(0), two: listSlot(1), s: textSlot(2) }, diagnostics: [] as Rec[] };
      const chunks: string[] = [];
      const doc = new JsonDocument(pretty, (t) => chunks.push(t));
      doc.open(template);
      const failing = function* (): Generator<Rec> {
        yield* items(2);
        throw new Error("SQLITE_CORRUPT (simulated)");
      };
      assert.throws(() => doc.list(failing()), /SQLITE_CORRUPT/);
      doc.abort({ ...template, diagnostics: [{ code: "E", message: "failed" }] });
      assert.equal(doc.ended, true);
      assert.equal(chunks.join(""), stringify({ data: { one: items(2), two: [], s: "" }, diagnostics: [{ code: "E", message: "failed" }] }, pretty));
    });
  }

  it("close refuses a template whose text before its last slot changed", () => {
    const doc = new JsonDocument(false, () => undefined);
    doc.open({ partial: false, l: listSlot(0) });
    doc.list([1]);
    assert.throws(() => doc.close({ partial: true, l: listSlot(0) }), /changed/);
  });
});
