/** Writes of the graph: a file's rows replaced as one unit, inside the caller's transaction. */
import type { DB } from "./db.js";
import { type FileRows, arityOf, callerOf } from "./facts.js";

/** How one reference resolved (see resolve.ts); refs stored without one are 'unresolved'. */
export interface RefOutcome {
  target: string | null;
  how: string;
  candidates: string[] | null;
}


export interface StoredFile {
  id: number;
  path: string;
  language: string;
  hash: string;
  size: number;
  mtime_ms: number;
}

export class Store {
  private readonly insFile;
  private readonly updFile;
  private readonly touchFile;
  private readonly delSymbols;
  private readonly delRefs;
  private readonly delImports;
  private readonly delFile;
  private readonly insSymbol;
  private readonly insRef;
  private readonly insRefUnresolved;
  private readonly insImport;
  private readonly namesOfFile;
  private readonly insDep;
  private readonly delDeps;
  private readonly delEdges;

  constructor(readonly db: DB) {
    this.insFile = db.prepare(
      `INSERT INTO files(path, language, hash, size, mtime_ms, indexed_at, has_errors, line_count, symbol_count, ref_count, call_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.updFile = db.prepare(
      `UPDATE files SET language = ?, hash = ?, size = ?, mtime_ms = ?, indexed_at = ?, has_errors = ?, line_count = ?,
       symbol_count = ?, ref_count = ?, call_count = ? WHERE id = ?`,
    );
    this.touchFile = db.prepare("UPDATE files SET size = ?, mtime_ms = ? WHERE id = ?");
    this.delSymbols = db.prepare("DELETE FROM symbols WHERE file_id = ?");
    this.delRefs = db.prepare("DELETE FROM refs WHERE file_id = ?");
    this.delImports = db.prepare("DELETE FROM imports WHERE file_id = ?");
    this.delFile = db.prepare("DELETE FROM files WHERE id = ?");
    this.insSymbol = new RowInserter(
      db,
      `symbols(file_id, symbol_id, name, kind, kind_normalized, parent, parent_symbol_id, scoped_name,
        canonical_fqn, display_fqn, language, flags, byte_start, byte_end, start_line, start_col, end_line, end_col,
        name_byte_start, name_byte_end, name_start_line, name_start_col, name_end_line, name_end_col, bases, receiver, declared_type, arity)`,
      28,
    );
    this.insRef = new RowInserter(
      db,
      "refs(file_id, name, kind, qualifier, caller_symbol_id, byte_start, byte_end, start_line, start_col, end_line, end_col, arity, receiver_type, target_symbol_id, resolution, candidates)",
      16,
    );
    // The outcome columns left to their defaults (NULL, 'unresolved', NULL): the same row, three
    // parameters fewer to bind for each of a cold index's references (-8% of their insert CPU).
    this.insRefUnresolved = new RowInserter(db, "refs(file_id, name, kind, qualifier, caller_symbol_id, byte_start, byte_end, start_line, start_col, end_line, end_col, arity, receiver_type)", 13);
    this.insImport = db.prepare(
      `INSERT INTO imports(file_id, source, names, byte_start, byte_end, start_line, start_col, end_line, end_col)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.namesOfFile = db.prepare("SELECT DISTINCT name FROM symbols WHERE file_id = ?").pluck();
    this.insDep = db.prepare(
      "INSERT INTO deps(file_id, kind, form, spec, pattern, text, names, type_only, path_attr, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.delDeps = db.prepare("DELETE FROM deps WHERE file_id = ?");
    // Edges into a removed file stay until the impact update re-resolves their sources.
    this.delEdges = db.prepare("DELETE FROM impact_edges WHERE source_id = ?");
  }

  allFiles(): StoredFile[] {
    return this.db.prepare("SELECT id, path, language, hash, size, mtime_ms FROM files").all() as StoredFile[];
  }

  /** What resolution depends on, per symbol: a change here may change other files' edges. */
  symbolSignatures(fileId: number): ({ sig: string } & SignedSymbol)[] {
    const rows = this.db
      .prepare("SELECT symbol_id, name, parent_symbol_id, kind_normalized, parent, flags, bases, declared_type, arity FROM symbols WHERE file_id = ?")
      .all(fileId) as SignatureColumns[];
    return rows.map((r) => ({ sig: signature(r), ...signed(r) }));
  }

  /**
   * How a file's references were resolved, keyed by everything resolution reads of a reference
   * (refKey); a key whose references resolved differently maps to undefined.
   */
  refOutcomes(fileId: number): Map<string, RefOutcome | undefined> {
    const rows = this.db
      .prepare("SELECT name, kind, qualifier, caller_symbol_id, arity, receiver_type, target_symbol_id, resolution, candidates FROM refs WHERE file_id = ?")
      .raw()
      .all(fileId) as [string, string, string | null, string | null, number | null, string | null, string | null, string, string | null][];
    // Stored columns compared as they are; candidates parsed once per key that holds.
    const seen = new Map<string, [string | null, string, string | null] | undefined>();
    for (const [name, kind, qualifier, caller, arity, receiverType, target, how, candidates] of rows) {
      const key = refKey(name, kind, qualifier, caller, arity, receiverType);
      const had = seen.get(key);
      if (!seen.has(key)) seen.set(key, [target, how, candidates]);
      else if (had !== undefined && (had[0] !== target || had[1] !== how || had[2] !== candidates)) seen.set(key, undefined);
    }
    const out = new Map<string, RefOutcome | undefined>();
    for (const [key, o] of seen) out.set(key, o && { target: o[0], how: o[1], candidates: o[2] === null ? null : (JSON.parse(o[2]) as string[]) });
    return out;
  }

  /**
   * What resolving a file's references reads of the file itself, besides the references: its
   * imports, and its symbols in source order (ambiguous candidates are listed in that order).
   */
  resolutionInputs(fileId: number): string {
    const imports = this.db.prepare("SELECT source, names FROM imports WHERE file_id = ? ORDER BY id").raw().all(fileId) as [string, string][];
    const symbols = this.db.prepare("SELECT symbol_id FROM symbols WHERE file_id = ? ORDER BY byte_start, id").pluck().all(fileId) as string[];
    return resolutionInputsOf(imports, symbols);
  }

  symbolNames(fileId: number): string[] {
    return this.namesOfFile.all(fileId) as string[];
  }

  clearFile(fileId: number): void {
    this.delSymbols.run(fileId);
    this.delRefs.run(fileId);
    this.delImports.run(fileId);
    this.delDeps.run(fileId);
    this.delEdges.run(fileId);
  }

  removeFile(fileId: number): void {
    this.clearFile(fileId);
    this.delFile.run(fileId);
  }

  touch(fileId: number, size: number, mtimeMs: number): void {
    this.touchFile.run(size, mtimeMs, fileId);
  }

  /**
   * Replaces (or adds) a file and its rows; returns its id. With `withRefs` false the caller
   * stores the references later with insertRefs (a cold index resolves them before storing).
   */
  writeFile(
    existingId: number | undefined,
    path: string,
    language: string,
    hash: string,
    size: number,
    mtimeMs: number,
    indexedAt: string,
    rows: FileRows,
    withRefs = true,
  ): number {
    let id: number;
    const refCount = rows.refs.names.length;
    let calls = 0;
    for (let i = 0; i < refCount; i++) if (rows.refs.kinds[i] === "call" && (rows.refs.callers[i] as number) >= 0) calls++;
    const counts = [rows.symbols.length, refCount, calls];
    if (existingId !== undefined) {
      this.clearFile(existingId);
      this.updFile.run(language, hash, size, mtimeMs, indexedAt, rows.has_errors ? 1 : 0, rows.line_count, ...counts, existingId);
      id = existingId;
    } else {
      id = Number(this.insFile.run(path, language, hash, size, mtimeMs, indexedAt, rows.has_errors ? 1 : 0, rows.line_count, ...counts).lastInsertRowid);
    }
    this.insSymbol.insert(rows.symbols.length, (a, at, i) => {
      const s = rows.symbols[i] as FileRows["symbols"][number];
      a[at] = id;
      a[at + 1] = s.symbol_id;
      a[at + 2] = s.name;
      a[at + 3] = s.kind;
      a[at + 4] = s.kind_normalized;
      a[at + 5] = s.parent;
      a[at + 6] = s.parent_symbol_id;
      a[at + 7] = s.scoped_name;
      a[at + 8] = s.canonical_fqn;
      a[at + 9] = s.display_fqn;
      a[at + 10] = s.language;
      a[at + 11] = s.flags;
      for (let k = 0; k < 6; k++) {
        a[at + 12 + k] = s.span[k];
        a[at + 18 + k] = s.name_span[k];
      }
      a[at + 24] = s.bases;
      a[at + 25] = s.receiver;
      a[at + 26] = s.declared_type;
      a[at + 27] = s.arity;
    });
    if (withRefs) this.insertRefs(id, rows);
    for (const im of rows.imports) this.insImport.run(id, im.source, im.names, ...im.span);
    for (const d of rows.deps) {
      this.insDep.run(id, d.kind, d.form, d.spec ?? null, d.pattern ?? null, d.text, d.names ? JSON.stringify(d.names) : null, d.typeOnly ? 1 : 0, d.pathAttr ?? null, d.line);
    }
    return id;
  }

  /** Stores a file's references, resolved by `outcome` when given (else left 'unresolved'). */
  insertRefs(fileId: number, rows: FileRows, outcome?: (i: number, caller: string | null) => RefOutcome): void {
    const { names, kinds, qualifiers, receiverTypes, spans } = rows.refs;
    const refColumns = (a: unknown[], at: number, i: number, caller: string | null): void => {
      const o = i * 6;
      a[at] = fileId;
      a[at + 1] = names[i];
      a[at + 2] = kinds[i];
      a[at + 3] = qualifiers[i];
      a[at + 4] = caller;
      for (let k = 0; k < 6; k++) a[at + 5 + k] = spans[o + k];
      a[at + 11] = arityOf(rows.refs, i);
      a[at + 12] = receiverTypes[i] ?? null;
    };
    if (!outcome) {
      this.insRefUnresolved.insert(names.length, (a, at, i) => refColumns(a, at, i, callerOf(rows, i)));
      return;
    }
    this.insRef.insert(names.length, (a, at, i) => {
      const caller = callerOf(rows, i);
      const r = outcome(i, caller);
      refColumns(a, at, i, caller);
      a[at + 13] = r.target;
      a[at + 14] = r.how;
      a[at + 15] = r.candidates ? JSON.stringify(r.candidates) : null;
    });
  }
}

/**
 * INSERTs of up to 32 rows per statement, in order: a statement's run costs about as much again
 * as the row it inserts (the call into the driver, the bind, the step and the reset). A cold
 * index of the 76 MB mixed tree inserts 980,571 references; in a test of that many rows of the
 * same shape 32 per statement took 0.86 s instead of 1.35-1.69 s one by one.
 */
class RowInserter {
  /** By rows per statement, largest first. */
  private readonly tiers: { rows: number; stmt: ReturnType<DB["prepare"]>; args: unknown[] }[];
  constructor(db: DB, into: string, private readonly width: number) {
    const row = `(${new Array(width).fill("?").join(", ")})`;
    this.tiers = [32, 8, 1].map((rows) => ({
      rows,
      stmt: db.prepare(`INSERT INTO ${into} VALUES ${new Array(rows).fill(row).join(", ")}`),
      args: new Array(rows * width),
    }));
  }

  /** Inserts rows 0..count-1, in that order; `fill` writes row i's columns into `args` from `at`. */
  insert(count: number, fill: (args: unknown[], at: number, i: number) => void): void {
    let i = 0;
    for (const t of this.tiers) {
      while (count - i >= t.rows) {
        for (let r = 0; r < t.rows; r++) fill(t.args, r * this.width, i + r);
        t.stmt.run(t.args);
        i += t.rows;
      }
    }
  }
}

/** The same for rows about to be stored. */
export function rowsResolutionInputs(rows: FileRows): string {
  const order = rows.symbols.map((s, i) => ({ at: s.span[0] as number, i })).sort((a, b) => a.at - b.at || a.i - b.i);
  return resolutionInputsOf(
    rows.imports.map((im) => [im.source, im.names]),
    order.map((o) => (rows.symbols[o.i] as { symbol_id: string }).symbol_id),
  );
}

function resolutionInputsOf(imports: [string, string][], symbolIds: string[]): string {
  return JSON.stringify([imports, symbolIds]);
}

/** What resolution reads of a reference: its name, kind, qualifier, enclosing symbol, arity and receiver's type. */
export function refKey(name: string, kind: string, qualifier: string | null, caller: string | null, arity: number | null, receiverType: string | null): string {
  return `${name}\0${kind}\0${qualifier ?? "\u0001"}\0${caller ?? "\u0001"}\0${arity ?? -1}\0${receiverType ?? "\u0001"}`;
}

/** The columns of a symbol that other files' resolution reads (signature). */
interface SignatureColumns {
  symbol_id: string;
  name: string;
  parent_symbol_id: string | null;
  kind_normalized: string;
  parent: string | null;
  flags: string | null;
  bases: string | null;
  declared_type: string | null;
  arity: string | null;
}

export function signature(r: SignatureColumns): string {
  return [r.symbol_id, r.name, r.parent_symbol_id ?? "", r.kind_normalized, r.parent ?? "", r.flags ?? "", r.bases ?? "", r.declared_type ?? "", r.arity ?? ""].join("\0");
}

/** What an incremental run reads of a symbol whose signature came or went (or may resolve anew). */
export interface SignedSymbol {
  id: string;
  name: string;
  kind: string;
  bases: string | null;
  declared_type: string | null;
}

export function signed(r: SignatureColumns): SignedSymbol {
  return { id: r.symbol_id, name: r.name, kind: r.kind_normalized, bases: r.bases, declared_type: r.declared_type };
}
