/** `magellan export`: seed 01's GraphExport 2.0.0 as JSON, JSON Lines or CSV. */
import type { DB } from "../../graph/db.js";
import { atomicWriteFileSync } from "../../text/atomic.js";
import { resolveInRoot } from "../../text/root.js";
import { type Answer, type Location, TOOL, freshnessDiagnostics, withReadDb } from "./common.js";
import { collisionList } from "./queries.js";

export const EXPORT_VERSION = "2.0.0";
export type ExportFormat = "json" | "jsonl" | "csv";

type Rec = Record<string, unknown>;

const POS = "byte_start, byte_end, start_line, start_col, end_line, end_col";

function pos(r: Rec): Rec {
  return { byte_start: r.byte_start, byte_end: r.byte_end, start_line: r.start_line, start_col: r.start_col, end_line: r.end_line, end_col: r.end_col };
}

export interface Graph {
  files: Rec[];
  symbols: Rec[];
  references: Rec[];
  calls: Rec[];
  collisions: Rec[];
}

export function graphOf(db: DB): Graph {
  const files = (db.prepare("SELECT path, hash FROM files ORDER BY path").all() as Rec[]).map((f) => ({ path: f.path, hash: f.hash }));
  const symbols = (
    db
      .prepare(
        `SELECT s.symbol_id, s.canonical_fqn, s.display_fqn, s.name, s.kind, s.kind_normalized, f.path AS file, s.parent, ${POS.split(", ").map((c) => `s.${c}`).join(", ")}
         FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.byte_start, s.id`,
      )
      .all() as Rec[]
  ).map((s) => {
    const o: Rec = {
      symbol_id: s.symbol_id,
      canonical_fqn: s.canonical_fqn,
      display_fqn: s.display_fqn,
      name: s.name,
      kind: s.kind,
      kind_normalized: s.kind_normalized,
      file: s.file,
    };
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
  return { files, symbols, references, calls, collisions: collisionList(db, "fqn", 100_000) };
}

export function jsonlRecords(g: Graph): Rec[] {
  return [
    { type: "Version", version: EXPORT_VERSION },
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

/** One table, one row per record, a `type` column saying which; the version as a header comment. */
export function csvText(g: Graph): string {
  const rows = jsonlRecords(g).filter((r) => r.type !== "Version" && r.type !== "Collision");
  const lines = [`# Magellan Export Version: ${EXPORT_VERSION}`, CSV_COLUMNS.join(",")];
  for (const r of rows) lines.push(CSV_COLUMNS.map((c) => csvCell(r[c])).join(","));
  return `${lines.join("\n")}\n`;
}

export interface ExportRequest extends Location {
  format: ExportFormat;
  output?: string;
}

export interface ExportAnswer extends Answer<Record<string, unknown>> {
  /** For JSON Lines on stdout: the records, printed one per line instead of an envelope. */
  jsonl?: Rec[];
}

export function exportGraph(req: ExportRequest): ExportAnswer {
  return withReadDb(req, (db, { root }) => {
    const g = graphOf(db);
    const diagnostics = freshnessDiagnostics(db, root, g.files.map((f) => f.path as string));
    const summary = {
      format: req.format,
      version: EXPORT_VERSION,
      files: g.files.length,
      symbols: g.symbols.length,
      references: g.references.length,
      calls: g.calls.length,
      collisions: g.collisions.length,
    };
    if (req.output !== undefined) {
      // CONTRACT.md: no tool writes outside the workspace root.
      const out = resolveInRoot(TOOL, root, req.output, req.cwd).abs;
      const text =
        req.format === "json"
          ? `${JSON.stringify({ version: EXPORT_VERSION, ...g })}\n`
          : req.format === "jsonl"
            ? `${jsonlRecords(g).map((r) => JSON.stringify(r)).join("\n")}\n`
            : csvText(g);
      atomicWriteFileSync(out, Buffer.from(text, "utf8"));
      return { data: { ...summary, output: out }, diagnostics };
    }
    if (req.format === "json") return { data: { version: EXPORT_VERSION, ...g }, diagnostics };
    if (req.format === "jsonl") return { data: summary, diagnostics, jsonl: jsonlRecords(g) };
    return { data: { ...summary, content: csvText(g) }, diagnostics };
  });
}
