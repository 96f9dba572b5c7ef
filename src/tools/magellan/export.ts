/**
 * `magellan export`: seed 01's GraphExport 2.0.0 as JSON, JSON Lines or CSV.
 *
 * Written as it is read: each row becomes its record and is written at once
 * (src/text/json-document.ts), so memory does not grow with the graph (typeorm's 310,844
 * references: 1.1 GB of RSS when the graph was gathered first). Only the file list (for the freshness check) and the collisions (at most
 * 100,000) are held. Every read happens in one read transaction, so the counts asked for up front
 * (csv on stdout prints them before the table) and the rows written agree, even while an index
 * runs.
 */
import type { Diagnostic } from "../../contract/schema.js";
import type { DB } from "../../graph/db.js";
import { AtomicFileWriter } from "../../text/atomic.js";
import { exportTarget } from "./output-path.js";
import { type Answer, type Location, freshnessDiagnostics, incompleteNow, withReadDb } from "./common.js";
import { Chunked, JsonDocument, listSlot, textSlot } from "../../text/json-document.js";
import { collisionList } from "./queries.js";

export const EXPORT_VERSION = "2.0.0";
export type ExportFormat = "json" | "jsonl" | "csv";

type Rec = Record<string, unknown>;

const POS = ["byte_start", "byte_end", "start_line", "start_col", "end_line", "end_col"];
const posOf = (alias: string): string => POS.map((c) => `${alias}.${c}`).join(", ");

function withPos(o: Rec, r: Rec): Rec {
  o.byte_start = r.byte_start;
  o.byte_end = r.byte_end;
  o.start_line = r.start_line;
  o.start_col = r.start_col;
  o.end_line = r.end_line;
  o.end_col = r.end_col;
  return o;
}

const FILES = "SELECT path, hash FROM files ORDER BY path";
// Files drive each query (CROSS JOIN fixes the join order): rows come file by file in path order
// and SQLite sorts one file's rows at a time, instead of the whole table in memory (which it chose
// for calls by itself).
const SYMBOLS = `SELECT s.symbol_id, s.canonical_fqn, s.display_fqn, s.name, s.kind, s.kind_normalized, f.path AS file, s.parent, ${posOf("s")}
  FROM files f CROSS JOIN symbols s ON s.file_id = f.id ORDER BY f.path, s.byte_start, s.id`;
const REFERENCES = `SELECT f.path AS file, r.name, r.kind, r.target_symbol_id, r.resolution, r.candidates, ${posOf("r")}
  FROM files f CROSS JOIN refs r ON r.file_id = f.id ORDER BY f.path, r.byte_start, r.id`;
// A call is a call reference whose caller is a symbol of the index (symbol_id is unique, so the
// join neither drops nor repeats other rows); in the references' order.
const CALLS = `SELECT f.path AS file, c.name AS caller, r.name, r.caller_symbol_id, r.target_symbol_id, r.resolution, ${posOf("r")}
  FROM files f CROSS JOIN refs r ON r.file_id = f.id JOIN symbols c ON c.symbol_id = r.caller_symbol_id WHERE r.kind = 'call' ORDER BY f.path, r.byte_start, r.id`;
const COUNTS = `SELECT
  (SELECT count(*) FROM symbols s JOIN files f ON f.id = s.file_id) AS symbols,
  (SELECT count(*) FROM refs r JOIN files f ON f.id = r.file_id) AS refs,
  (SELECT count(*) FROM refs r JOIN files f ON f.id = r.file_id JOIN symbols c ON c.symbol_id = r.caller_symbol_id WHERE r.kind = 'call') AS calls`;

/** Records with `type` first (JSON Lines, CSV) or without (the JSON document). */
function fileRecord(f: Rec, type?: string): Rec {
  const o: Rec = type ? { type } : {};
  o.path = f.path;
  o.hash = f.hash;
  return o;
}

function symbolRecord(s: Rec, type?: string): Rec {
  const o: Rec = type ? { type } : {};
  o.symbol_id = s.symbol_id;
  o.canonical_fqn = s.canonical_fqn;
  o.display_fqn = s.display_fqn;
  o.name = s.name;
  o.kind = s.kind;
  o.kind_normalized = s.kind_normalized;
  o.file = s.file;
  if (s.parent !== null) o.parent = s.parent;
  return withPos(o, s);
}

function referenceRecord(r: Rec, type?: string): Rec {
  const o: Rec = type ? { type } : {};
  o.file = r.file;
  o.referenced_symbol = r.name;
  o.reference_kind = r.kind;
  if (r.target_symbol_id !== null) o.target_symbol_id = r.target_symbol_id;
  o.resolution = r.resolution;
  if (r.candidates !== null) o.candidates = JSON.parse(r.candidates as string) as string[];
  return withPos(o, r);
}

function callRecord(r: Rec, type?: string): Rec {
  const o: Rec = type ? { type } : {};
  o.file = r.file;
  o.caller = r.caller;
  o.callee = r.name;
  o.caller_symbol_id = r.caller_symbol_id;
  if (r.target_symbol_id !== null) o.callee_symbol_id = r.target_symbol_id;
  o.resolution = r.resolution;
  return withPos(o, r);
}

/** Each row's record as it is read; returns how many there were. */
function* rows(db: DB, sql: string, record: (r: Rec, type?: string) => Rec, type?: string): Generator<Rec, number> {
  let n = 0;
  for (const r of db.prepare(sql).iterate() as IterableIterator<Rec>) {
    n++;
    yield record(r, type);
  }
  return n;
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

interface Counts {
  files: number;
  symbols: number;
  references: number;
  calls: number;
  collisions: number;
}

/** What is read before the long lists: few files, at most 100,000 collisions. */
interface Head {
  files: Rec[];
  collisions: Rec[];
  counts: Counts;
}

/** JSON Lines' and CSV's records from File to Call, `type` first; counts the long lists into `h`. */
function* typedRecords(db: DB, h: Head): Generator<Rec> {
  for (const f of h.files) yield fileRecord(f, "File");
  h.counts.symbols = yield* rows(db, SYMBOLS, symbolRecord, "Symbol");
  h.counts.references = yield* rows(db, REFERENCES, referenceRecord, "Reference");
  h.counts.calls = yield* rows(db, CALLS, callRecord, "Call");
}

/** One table, one row per record, a `type` column saying which; the version as a header comment. Lines with their newline. */
function* csvLines(db: DB, h: Head): Generator<string> {
  yield `# Magellan Export Version: ${EXPORT_VERSION}\n`;
  yield `${CSV_COLUMNS.join(",")}\n`;
  for (const r of typedRecords(db, h)) yield `${CSV_COLUMNS.map((c) => csvCell(r[c])).join(",")}\n`;
}

function writeJsonl(db: DB, h: Head, out: Chunked): void {
  const line = (r: Rec): void => out.push(`${JSON.stringify(r)}\n`);
  line({ type: "Version", version: EXPORT_VERSION });
  for (const r of typedRecords(db, h)) line(r);
  for (const c of h.collisions) line({ type: "Collision", ...c });
  out.flush();
}

/** GraphExport's lists, in order, into a document whose template holds them as slots 0-4. */
function fillGraph(db: DB, h: Head, doc: JsonDocument): void {
  doc.list(h.files.map((f) => fileRecord(f)));
  h.counts.symbols = doc.list(rows(db, SYMBOLS, symbolRecord));
  h.counts.references = doc.list(rows(db, REFERENCES, referenceRecord));
  h.counts.calls = doc.list(rows(db, CALLS, callRecord));
  doc.list(h.collisions);
}

function graphTemplate(): Rec {
  return { version: EXPORT_VERSION, files: listSlot(0), symbols: listSlot(1), references: listSlot(2), calls: listSlot(3), collisions: listSlot(4) };
}

export interface ExportRequest extends Location {
  format: ExportFormat;
  output?: string;
}

/** Where an export without --output goes (the CLI's stdout). */
export interface ExportStdout {
  /** json and csv: the document the answer is written into, opened with `frame`'s template and left for the caller to close. */
  document: JsonDocument;
  /** jsonl: the records' text. */
  write(text: string): void;
  /**
   * Called once, before anything is written, with everything that precedes the records: for
   * json and csv, `data` (its long parts as slots) and the answer's state, and it returns the
   * document around them; for jsonl, `data` is undefined and the return is ignored.
   */
  frame(data: Rec | undefined, partial: boolean, diagnostics: Diagnostic[]): unknown;
}

/**
 * The graph to `req.output` (atomically: the file has all of it or keeps its old bytes), else to
 * `stdout`. The answer's data is the summary (counts and the file written) either way.
 */
export function exportGraph(req: ExportRequest, stdout?: ExportStdout): Answer<Rec> {
  return withReadDb(req, (db, { root }) => {
    // CONTRACT.md: no tool writes outside the workspace root.
    const output = req.output !== undefined ? exportTarget(db, root, req.output, req.cwd).abs : undefined;
    if (output === undefined && stdout === undefined) throw new Error("exportGraph: neither --output nor stdout");
    db.exec("BEGIN");
    try {
      const files = (db.prepare(FILES).all() as Rec[]).map((f) => fileRecord(f));
      const diagnostics = freshnessDiagnostics(db, root, files.map((f) => f.path as string));
      const partial = incompleteNow(db, diagnostics);
      const collisions = collisionList(db, "fqn", 100_000);
      const h: Head = { files, collisions, counts: { files: files.length, symbols: 0, references: 0, calls: 0, collisions: collisions.length } };
      const summary = (): Rec => ({ format: req.format, version: EXPORT_VERSION, ...h.counts });
      if (output !== undefined) {
        const file = new AtomicFileWriter(output);
        try {
          const out = new Chunked((t) => file.write(t));
          if (req.format === "jsonl") writeJsonl(db, h, out);
          else if (req.format === "csv") {
            for (const line of csvLines(db, h)) out.push(line);
            out.flush();
          } else {
            const doc = new JsonDocument(false, (t) => file.write(t));
            const template = graphTemplate();
            doc.open(template);
            fillGraph(db, h, doc);
            doc.close(template);
          }
          file.commit();
        } finally {
          file.discard();
        }
        return { data: { ...summary(), output }, diagnostics, partial };
      }
      const to = stdout as ExportStdout;
      if (req.format === "jsonl") {
        to.frame(undefined, partial, diagnostics);
        writeJsonl(db, h, new Chunked((t) => to.write(t)));
      } else if (req.format === "csv") {
        const c = db.prepare(COUNTS).get() as { symbols: number; refs: number; calls: number };
        Object.assign(h.counts, { symbols: c.symbols, references: c.refs, calls: c.calls });
        to.document.open(to.frame({ ...summary(), content: textSlot(0) }, partial, diagnostics));
        to.document.text(csvLines(db, h));
      } else {
        to.document.open(to.frame(graphTemplate(), partial, diagnostics));
        fillGraph(db, h, to.document);
      }
      return { data: summary(), diagnostics, partial };
    } finally {
      if (db.inTransaction) db.exec("COMMIT");
    }
  });
}
