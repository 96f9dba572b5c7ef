/**
 * magellan's impact graph commands: `impact` (docdex.impact_graph v2 for one file, `--export` of
 * the impact_graph.json snapshot, `--snapshot` to answer from one, `--affected-since REV`) and
 * `impact-diagnostics` (docdex.impact_diagnostics). A thin adapter over
 * src/tools/codeintel/impact.ts; registered by magellan.ts only when one of them runs or help is
 * listed. The seed 04 payload goes inside the query envelope's data.
 */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Command } from "commander";
import { EXIT, ToolError } from "../contract/errors.js";
import { commonCode } from "../contract/codes.js";
import type { Diagnostic } from "../contract/schema.js";
import { queryEnvelope } from "../contract/envelope.js";
import { atomicWriteFileSync } from "../text/atomic.js";
import { resolveInRoot } from "../text/root.js";
import { withReadDb, type Location } from "../tools/magellan/common.js";
import {
  affectedSince,
  DbGraph,
  DIAG_LIMIT,
  EDGE_KINDS,
  exportSnapshot,
  type GraphSource,
  impactDiagnostics,
  impactGraph,
  MAX_DEPTH,
  MAX_EDGES,
  readHints,
  readSnapshot,
  SnapshotGraph,
  stateDirOf,
} from "../tools/codeintel/impact.js";
import { CODEINTEL_TOOL } from "../tools/codeintel/codes.js";
import { intOption, type CliResult } from "./run.js";

const TOOL = CODEINTEL_TOOL;

interface Computed {
  data: unknown;
  diagnostics?: Diagnostic[];
  partial?: boolean;
}

function usage(message: string, remediation: string): ToolError {
  return new ToolError({ code: commonCode(TOOL, "usage"), error: "invalid_arguments", message, remediation, exitCode: EXIT.usage });
}

async function finish(command: string, compute: () => Computed, onResult?: (r: CliResult) => void): Promise<void> {
  let result: CliResult;
  try {
    const c = compute();
    const partial = c.partial ?? false;
    result = { envelope: queryEnvelope(TOOL, command, c.data, { partial, diagnostics: c.diagnostics ?? [] }), exitCode: partial ? EXIT.partial : EXIT.ok };
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    result = { envelope: queryEnvelope(TOOL, command, err.toErrorResponse(), { diagnostics: [err.toDiagnostic(TOOL)] }), exitCode: err.exitCode };
  }
  if (onResult) {
    onResult(result);
    return;
  }
  const text = process.argv.includes("--pretty") ? JSON.stringify(result.envelope, null, 2) : JSON.stringify(result.envelope);
  await new Promise<void>((resolve) => process.stdout.write(`${text}\n`, () => resolve()));
  process.exit(result.exitCode);
}

interface ImpactOpts {
  root?: string;
  db?: string;
  file?: string;
  maxDepth?: number;
  maxEdges?: number;
  edgeTypes?: string;
  direction?: string;
  affectedSince?: string;
  export?: string | boolean;
  snapshot?: string;
  limit?: number;
  offset?: number;
}

/** Runs `fn` over the graph of the index (with hints) or of a snapshot file. */
function withGraph<T>(o: ImpactOpts, fn: (graph: GraphSource, root: string, notes: Diagnostic[], db: Parameters<typeof affectedSince>[0] | undefined) => T): T {
  const loc: Location = { root: o.root, db: o.db };
  return withReadDb(loc, (db, r) => {
    const notes: Diagnostic[] = [];
    if (o.snapshot !== undefined) {
      const abs = join(r.root, fileArg(r.root, o.snapshot));
      let text: string;
      try {
        text = readFileSync(abs, "utf8");
      } catch (e) {
        throw new ToolError({ code: commonCode(TOOL, "file_not_found"), error: "file_not_found", message: `cannot read ${o.snapshot}: ${(e as Error).message}`, remediation: "Pass --snapshot an impact_graph.json written by 'magellan impact --export'.", exitCode: EXIT.failure });
      }
      const { store, migrated } = readSnapshot(text, r.root);
      if (migrated) notes.push({ tool: TOOL, level: "note", message: `${o.snapshot} is a legacy or older impact graph; migrated in memory (reindex and export to persist)`, code: "MAGELLAN_W196" });
      return fn(new SnapshotGraph(store), r.root, notes, db);
    }
    const hints = readHints(r.root, stateDirOf(r.dbPath), db.prepare("SELECT path FROM files").pluck().all() as string[]);
    notes.push(...hints.warnings);
    return fn(new DbGraph(db, hints), r.root, notes, db);
  });
}

/** A path as the user wrote it: relative to the current directory when it exists there, else to the root. */
function fileArg(root: string, file: string): string {
  return resolveInRoot(TOOL, root, isAbsolute(file) || existsSync(file) ? file : join(root, file)).rel;
}

export function registerImpactCommands(program: Command, onResult?: (r: CliResult) => void): void {
  const hasGlobalRoot = program.options.some((o) => o.long === "--root");
  const common = (cmd: Command): Command => {
    if (!hasGlobalRoot) cmd.option("--root <dir>", "workspace root (default: the enclosing git work tree, else the current directory)");
    return cmd.option("--db <file>", "index database (default: <root>/.magellan/code.db)").option("--pretty", "indent the JSON output");
  };

  common(
    program
      .command("impact")
      .description("docdex.impact_graph v2: the files a file depends on and the files that depend on it (file -> file imports, includes, requires)")
      .option("--file <path>", "the file (relative to the root or the current directory)")
      .option("--max-depth <n>", `follow edges this many steps (default ${MAX_DEPTH.default}, at most ${MAX_DEPTH.max})`, intOption(TOOL, "--max-depth", 1))
      .option("--max-edges <n>", `at most this many edges (default ${MAX_EDGES.default}); truncated says when more were met`, intOption(TOOL, "--max-edges", 1))
      .option("--edge-types <kinds>", `comma-separated edge kinds to follow (${EDGE_KINDS.join(",")}; default all)`)
      .option("--direction <dir>", "out: what the file depends on; in: what depends on it; both (default)")
      .option("--affected-since <rev>", "instead of --file: the files (and their symbols) that the changes since REV (working tree included) reach through the reverse graph; tests listed apart")
      .option("--export [file]", "write the whole graph as impact_graph.json (default <root>/.magellan/impact_graph.json) and print a summary")
      .option("--snapshot <file>", "answer from an impact_graph.json snapshot instead of the index"),
  )
    .addHelpText(
      "after",
      `
Edges: source is the importer, target the imported file. outbound = targets of edges whose source is --file;
inbound = sources of edges whose target is --file; edges = every edge met within --max-depth.
Exit codes: 0 success, 1 failure, 2 invalid arguments, 4 partial (truncated by --max-edges).`,
    )
    .action(async (_o: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<ImpactOpts>();
      await finish(
        "impact",
        () => {
          const direction = o.direction ?? "both";
          if (!["in", "out", "both"].includes(direction)) throw usage(`--direction must be in, out or both, got '${direction}'`, "Pass --direction in, out or both.");
          const edgeTypes = o.edgeTypes?.split(",").map((s) => s.trim()).filter(Boolean);
          const bad = edgeTypes?.filter((k) => !(EDGE_KINDS as readonly string[]).includes(k)) ?? [];
          if (bad.length > 0) throw usage(`unknown edge type(s): ${bad.join(", ")}`, `Pass --edge-types a comma-separated list of ${EDGE_KINDS.join(", ")}.`);
          const modes = [o.file !== undefined, o.affectedSince !== undefined, o.export !== undefined].filter(Boolean).length;
          if (modes !== 1) throw usage("impact needs exactly one of --file, --affected-since, --export", "magellan impact --file src/app.ts [--max-depth 3] | --affected-since main | --export");
          return withGraph(o, (graph, root, notes, db) => {
            if (o.export !== undefined) {
              const target = resolveInRoot(TOOL, root, typeof o.export === "string" && isAbsolute(o.export) ? o.export : join(root, typeof o.export === "string" ? o.export : ".magellan/impact_graph.json"));
              const store = exportSnapshot(graph, root);
              atomicWriteFileSync(target.abs, Buffer.from(`${JSON.stringify(store)}\n`));
              return { data: { path: target.rel, files: store.graphs.length, edges: store.graphs.reduce((n, g) => n + g.edges.length, 0), schema: store.schema }, diagnostics: notes };
            }
            if (o.affectedSince !== undefined) {
              if (!db) throw usage("--affected-since needs the index", "Run without --snapshot.");
              const data = affectedSince(db, graph, root, o.affectedSince, o.maxDepth);
              return { data, diagnostics: notes, partial: data.truncated };
            }
            const file = fileArg(root, o.file as string);
            if (!graph.has(file)) {
              notes.push({ tool: TOOL, level: "warning", message: `${file} is not in the impact graph (not indexed, or not a source file of a supported language)`, file, code: "MAGELLAN_E105", remediation: "Run 'magellan index' if the file is new; 'magellan status' lists skipped files." });
            }
            const data = impactGraph(graph, root, { file, maxDepth: o.maxDepth, maxEdges: o.maxEdges, edgeTypes, direction: direction as "in" | "out" | "both" });
            if (data.truncated) notes.push({ tool: TOOL, level: "note", message: `edges cut at --max-edges ${data.edges.length}`, code: "MAGELLAN_W189", remediation: "Raise --max-edges or lower --max-depth." });
            return { data, diagnostics: notes, partial: data.truncated === true };
          });
        },
        onResult,
      );
    });

  common(
    program
      .command("impact-diagnostics")
      .description("docdex.impact_diagnostics: files with dependencies that could not be resolved (dynamic imports, missing files), with samples")
      .option("--file <path>", "only this file")
      .option("--limit <n>", `at most this many files (default ${DIAG_LIMIT.default})`, intOption(TOOL, "--limit", 1))
      .option("--offset <n>", "skip this many files first (default 0)", intOption(TOOL, "--offset", 0))
      .option("--snapshot <file>", "answer from an impact_graph.json snapshot instead of the index"),
  ).action(async (_o: unknown, cmd: Command) => {
    const o = cmd.optsWithGlobals<ImpactOpts>();
    await finish(
      "impact-diagnostics",
      () =>
        withGraph(o, (graph, root, notes) => {
          const data = impactDiagnostics(graph, root, { file: o.file !== undefined ? fileArg(root, o.file) : undefined, limit: o.limit, offset: o.offset });
          return { data, diagnostics: notes, partial: data.truncated };
        }),
      onResult,
    );
  });
}
