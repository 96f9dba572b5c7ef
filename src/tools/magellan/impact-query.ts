/**
 * magellan's impact graph queries as request -> answer functions: `impact` (docdex.impact_graph
 * v2 for one file, the files changes since a revision reach, or an impact_graph.json export) and
 * `impact-diagnostics` (docdex.impact_diagnostics). `magellan impact` and the MCP server's
 * magellan_impact tools both call these; the graph functions are src/tools/codeintel/impact.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { commonCode } from "../../contract/codes.js";
import { EXIT, ToolError } from "../../contract/errors.js";
import type { Diagnostic } from "../../contract/schema.js";
import { atomicWriteFileSync } from "../../text/atomic.js";
import { exportTarget } from "./output-path.js";
import { resolveInRoot } from "../../text/root.js";
import { CODEINTEL_TOOL } from "../codeintel/codes.js";
import {
  affectedSince,
  DbGraph,
  EDGE_KINDS,
  exportSnapshot,
  type GraphSource,
  impactDiagnostics,
  impactGraph,
  readHints,
  readSnapshot,
  SnapshotGraph,
  stateDirOf,
} from "../codeintel/impact.js";
import { languageForPath } from "../../lang/registry.js";
import { MAGELLAN_CODES } from "../../graph/codes.js";
import { type Answer, type Location, freshnessDiagnostics, withReadDb } from "./common.js";

const TOOL = CODEINTEL_TOOL;

export interface ImpactQuery extends Location {
  file?: string;
  maxDepth?: number;
  maxEdges?: number;
  edgeTypes?: string[];
  direction?: string;
  affectedSince?: string;
  /** Write the snapshot: true for the default path, or a path. */
  export?: string | boolean;
  snapshot?: string;
}

export interface ImpactDiagnosticsQuery extends Location {
  file?: string;
  limit?: number;
  offset?: number;
  snapshot?: string;
}

function usage(message: string, remediation: string): ToolError {
  return new ToolError({ code: commonCode(TOOL, "usage"), error: "invalid_arguments", message, remediation, exitCode: EXIT.usage });
}

/** A path as the user wrote it: relative to the current directory when it exists there, else to the root. */
function fileArg(root: string, file: string, cwd = process.cwd()): string {
  return resolveInRoot(TOOL, root, isAbsolute(file) || existsSync(resolve(cwd, file)) ? resolve(cwd, file) : join(root, file)).rel;
}

/** Runs `fn` over the graph of the index (with hints) or of a snapshot file. */
function withGraph<T>(o: Location & { snapshot?: string }, fn: (graph: GraphSource, root: string, notes: Diagnostic[], db: Parameters<typeof affectedSince>[0] | undefined) => T): T {
  return withReadDb(o, (db, r) => {
    const notes: Diagnostic[] = [];
    if (o.snapshot !== undefined) {
      const abs = join(r.root, fileArg(r.root, o.snapshot, o.cwd));
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

export function impact(o: ImpactQuery): Answer<unknown> {
  const direction = o.direction ?? "both";
  if (!["in", "out", "both"].includes(direction)) throw usage(`--direction must be in, out or both, got '${direction}'`, "Pass --direction in, out or both.");
  const bad = o.edgeTypes?.filter((k) => !(EDGE_KINDS as readonly string[]).includes(k)) ?? [];
  if (bad.length > 0) throw usage(`unknown edge type(s): ${bad.join(", ")}`, `Pass --edge-types a comma-separated list of ${EDGE_KINDS.join(", ")}.`);
  const modes = [o.file !== undefined, o.affectedSince !== undefined, o.export !== undefined].filter(Boolean).length;
  if (modes !== 1) throw usage("impact needs exactly one of --file, --affected-since, --export", "magellan impact --file src/app.ts [--max-depth 3] | --affected-since main | --export");
  return withGraph(o, (graph, root, notes, db) => {
    if (o.export !== undefined) {
      // The default lives with the index, in magellan's own state; a path given is checked as any write.
      const target = typeof o.export === "string" ? exportTarget(db, root, isAbsolute(o.export) ? o.export : join(root, o.export)) : resolveInRoot(TOOL, root, join(root, ".magellan/impact_graph.json"));
      const store = exportSnapshot(graph, root);
      atomicWriteFileSync(target.abs, Buffer.from(`${JSON.stringify(store)}\n`));
      return { data: { path: target.rel, files: store.graphs.length, edges: store.graphs.reduce((n, g) => n + g.edges.length, 0), schema: store.schema }, diagnostics: notes };
    }
    if (o.affectedSince !== undefined) {
      if (!db) throw usage("--affected-since needs the index", "Run without --snapshot.");
      const data = affectedSince(db, graph, root, o.affectedSince, o.maxDepth);
      // What the index does not know of the changes: files added since it was built (their
      // importers are unknown, but they are affected themselves) and files changed or deleted
      // since (their edges may be out of date).
      const unindexed = data.changed.filter((f) => !graph.has(f) && languageForPath(f) !== undefined && existsSync(join(root, f)));
      if (unindexed.length > 0) {
        data.affected.unshift(...unindexed.map((file) => ({ file, depth: 0, is_test: false, symbols: [] })));
        notes.push({
          tool: TOOL,
          level: "warning",
          code: MAGELLAN_CODES.stale_index,
          message: `STALE_INDEX: ${unindexed.length} changed source file(s) are not in the index (added since it was built): ${unindexed.slice(0, 10).join(", ")}${unindexed.length > 10 ? ", ..." : ""}; listed as changed, but what they import and what imports them is unknown`,
          remediation: "Run 'magellan index' (or keep the daemon or 'magellan watch' running), then ask again.",
        });
      }
      notes.push(...freshnessDiagnostics(db, root, data.changed.filter((f) => graph.has(f))));
      if (data.changed.length === 0) {
        notes.push({ tool: TOOL, level: "note", code: MAGELLAN_CODES.no_matches, message: `no file differs from ${o.affectedSince} (committed, staged, unstaged or untracked): nothing is affected` });
      } else if (data.affected.length === 0) {
        notes.push({ tool: TOOL, level: "note", code: MAGELLAN_CODES.no_matches, message: `none of the ${data.changed.length} changed file(s) is a source file of the impact graph (not of a supported language, or ignored)` });
      }
      // Files the index has not seen leave their importers out: the answer is partial.
      return { data, diagnostics: notes, partial: data.truncated || unindexed.length > 0 };
    }
    const file = fileArg(root, o.file as string, o.cwd);
    if (!graph.has(file)) {
      notes.push({ tool: TOOL, level: "warning", message: `${file} is not in the impact graph (not indexed, or not a source file of a supported language)`, file, code: "MAGELLAN_E105", remediation: "Run 'magellan index' if the file is new; 'magellan status' lists skipped files." });
    }
    const data = impactGraph(graph, root, { file, maxDepth: o.maxDepth, maxEdges: o.maxEdges, edgeTypes: o.edgeTypes, direction: direction as "in" | "out" | "both" });
    if (data.truncated) notes.push({ tool: TOOL, level: "note", message: `edges cut at --max-edges ${data.edges.length}`, code: "MAGELLAN_W189", remediation: "Raise --max-edges or lower --max-depth." });
    return { data, diagnostics: notes, partial: data.truncated === true };
  });
}

export function impactDiagnosticsQuery(o: ImpactDiagnosticsQuery): Answer<unknown> {
  return withGraph(o, (graph, root, notes) => {
    const data = impactDiagnostics(graph, root, { file: o.file !== undefined ? fileArg(root, o.file, o.cwd) : undefined, limit: o.limit, offset: o.offset });
    return { data, diagnostics: notes, partial: data.truncated };
  });
}
