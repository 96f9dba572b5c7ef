/**
 * The code graph's SQLite database: opening, schema versions and migrations, the writer lock.
 *
 * The index is a cache of the source tree. A database written by another schema version, or a
 * file that is not a magellan database, is refused with a clear error; `index --rebuild` deletes
 * it and starts again. WAL lets readers go on while one writer commits whole files per
 * transaction, so a reader never sees half a file.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { createRequire } from "node:module";
// A static import, so that the build's bundle of the magellan CLI takes the package's JavaScript
// in too (a dozen CommonJS files fewer to resolve and load on every query); unbundled, Node lexes
// its two-line entry for named exports, which costs little.
import Database from "better-sqlite3";
import { EXIT, ToolError } from "../contract/errors.js";
import { NativeModuleError, firstLine, isAddonLoadFailure } from "../contract/native.js";
import { pidAlive } from "../text/atomic.js";
import { MAGELLAN_CODES } from "./codes.js";

export type DB = Database.Database;

/** SQLite's page cache of a connection (KiB), and of a cold index's writer while it runs. */
export const DB_CACHE_KB = 32_000;
export const COLD_CACHE_KB = 8_000;

// For the addon's path (sqliteBinding).
const require = createRequire(import.meta.url);

/** Bumped on every change to the tables; each step of MIGRATIONS takes version i to i+1. */
export const DB_SCHEMA_VERSION = 6;
const APP_ID = "magellan";

const TABLES_V1 = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE files(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  language TEXT NOT NULL,
  hash TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  indexed_at TEXT NOT NULL,
  has_errors INTEGER NOT NULL DEFAULT 0,
  line_count INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE symbols(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  symbol_id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  kind_normalized TEXT NOT NULL,
  parent TEXT,
  parent_symbol_id TEXT,
  scoped_name TEXT NOT NULL,
  canonical_fqn TEXT NOT NULL,
  display_fqn TEXT NOT NULL,
  language TEXT NOT NULL,
  flags TEXT,
  byte_start INTEGER NOT NULL, byte_end INTEGER NOT NULL,
  start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line INTEGER NOT NULL, end_col INTEGER NOT NULL,
  name_byte_start INTEGER NOT NULL, name_byte_end INTEGER NOT NULL,
  name_start_line INTEGER NOT NULL, name_start_col INTEGER NOT NULL, name_end_line INTEGER NOT NULL, name_end_col INTEGER NOT NULL
);
CREATE TABLE refs(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  qualifier TEXT,
  caller_symbol_id TEXT,
  byte_start INTEGER NOT NULL, byte_end INTEGER NOT NULL,
  start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line INTEGER NOT NULL, end_col INTEGER NOT NULL,
  target_symbol_id TEXT,
  resolution TEXT NOT NULL DEFAULT 'unresolved',
  candidates TEXT
);
CREATE TABLE imports(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  source TEXT NOT NULL,
  names TEXT NOT NULL,
  byte_start INTEGER NOT NULL, byte_end INTEGER NOT NULL,
  start_line INTEGER NOT NULL, start_col INTEGER NOT NULL, end_line INTEGER NOT NULL, end_col INTEGER NOT NULL
);
CREATE INDEX imports_file ON imports(file_id);
`;

/**
 * The impact graph: each file's dependencies as written (deps), and what they resolve to
 * (impact_edges, one row per dependency and target file; status on the dependency).
 */
export const IMPACT_TABLES = `
CREATE TABLE IF NOT EXISTS deps(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  form TEXT NOT NULL,
  spec TEXT,
  pattern TEXT,
  text TEXT NOT NULL,
  names TEXT,
  type_only INTEGER NOT NULL DEFAULT 0,
  path_attr TEXT,
  line INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending'
);
CREATE INDEX IF NOT EXISTS deps_file ON deps(file_id);
CREATE TABLE IF NOT EXISTS impact_edges(
  dep_id INTEGER NOT NULL,
  source_id INTEGER NOT NULL,
  target_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  type_only INTEGER NOT NULL DEFAULT 0,
  guessed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS impact_edges_source ON impact_edges(source_id);
CREATE INDEX IF NOT EXISTS impact_edges_target ON impact_edges(target_id);
`;

/**
 * Secondary indexes. A cold index creates them after the bulk load (building a b-tree once is
 * far cheaper than keeping it sorted through a million inserts).
 */
export const SYMBOL_INDEXES = `
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name);
CREATE UNIQUE INDEX IF NOT EXISTS symbols_sid ON symbols(symbol_id);
CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file_id);
CREATE INDEX IF NOT EXISTS symbols_name_nocase ON symbols(name COLLATE NOCASE);
`;

/** The index on a column a migration adds (schema 6): made once the column is there. */
const RECEIVER_INDEX = "CREATE INDEX IF NOT EXISTS refs_receiver ON refs(receiver_type) WHERE receiver_type IS NOT NULL;";

// Partial where most rows hold NULL (three in four references resolve to nothing in the
// repository): half the build time and size, and still used for `= ?` lookups.
export const REF_INDEXES = `
CREATE INDEX IF NOT EXISTS refs_file ON refs(file_id);
CREATE INDEX IF NOT EXISTS refs_target ON refs(target_symbol_id) WHERE target_symbol_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS refs_name ON refs(name);
CREATE INDEX IF NOT EXISTS refs_caller ON refs(caller_symbol_id) WHERE caller_symbol_id IS NOT NULL;
${RECEIVER_INDEX}
`;

/**
 * The indexes of REF_INDEXES on columns that resolution never writes, one statement each: a cold
 * index builds them while its workers resolve (an UPDATE of a reference's outcome leaves them be).
 */
export const REF_INPUT_INDEXES = REF_INDEXES.split("\n").filter((l) => l.startsWith("CREATE") && !l.includes("target_symbol_id"));

/** The index of SYMBOL_INDEXES that resolution does not read (by name in any case, for searches). */
export const SYMBOL_SEARCH_INDEX = SYMBOL_INDEXES.split("\n").find((l) => l.includes("COLLATE NOCASE")) as string;

export const SECONDARY_INDEXES = SYMBOL_INDEXES + REF_INDEXES;

export const DROP_SECONDARY_INDEXES = `
DROP INDEX IF EXISTS symbols_name;
DROP INDEX IF EXISTS symbols_sid;
DROP INDEX IF EXISTS symbols_file;
DROP INDEX IF EXISTS symbols_name_nocase;
DROP INDEX IF EXISTS refs_file;
DROP INDEX IF EXISTS refs_target;
DROP INDEX IF EXISTS refs_name;
DROP INDEX IF EXISTS refs_caller;
DROP INDEX IF EXISTS refs_receiver;
`;

/** MIGRATIONS[i] takes a database at version i to i+1 (0 = empty file). */
const MIGRATIONS: ((db: DB) => void)[] = [
  (db) => {
    db.exec(TABLES_V1);
    db.exec(SECONDARY_INDEXES.replace(RECEIVER_INDEX, ""));
    db.exec(IMPACT_TABLES);
    db.prepare("INSERT INTO meta(key, value) VALUES ('app', ?)").run(APP_ID);
  },
  // 1 -> 2: per-file counts, so totals (status, index) are a sum over files, not a scan of refs.
  (db) => {
    db.exec(`
      ALTER TABLE files ADD COLUMN symbol_count INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE files ADD COLUMN ref_count INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE files ADD COLUMN call_count INTEGER NOT NULL DEFAULT 0;
      UPDATE files SET
        symbol_count = (SELECT count(*) FROM symbols s WHERE s.file_id = files.id),
        ref_count = (SELECT count(*) FROM refs r WHERE r.file_id = files.id),
        call_count = (SELECT count(*) FROM refs r WHERE r.file_id = files.id AND r.kind = 'call' AND r.caller_symbol_id IS NOT NULL);
    `);
  },
  // 2 -> 3: the impact graph (file -> file dependencies). Every file's dependencies must be
  // extracted, so the next index re-reads every file (a hash that matches nothing).
  (db) => {
    db.exec(IMPACT_TABLES);
    db.exec("UPDATE files SET hash = '', size = -1");
    db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('impact_pending', '1')").run();
  },
  // 3 -> 4: the types a class extends or implements, for inherited members, the name a Go
  // method calls its receiver by, and a field's declared type. Every file's symbols must be extracted again for them (a hash
  // that matches nothing).
  (db) => {
    addColumns(db, "symbols", SCHEMA_4_COLUMNS, "TEXT");
    db.exec("UPDATE files SET hash = '', size = -1");
  },
  // 4 -> 5: how many arguments a call passes and how many parameters a function takes (Java and
  // C++), to tell overloads apart. Every file is extracted again for them.
  (db) => {
    addColumns(db, "symbols", ["arity"], "TEXT");
    addColumns(db, "refs", ["arity"], "INTEGER");
    db.exec("UPDATE files SET hash = '', size = -1");
  },
  // 5 -> 6: the type a call's receiver (a parameter or local variable) is declared of, which
  // says whose member it calls. Every file is extracted again for it.
  (db) => {
    addColumns(db, "refs", ["receiver_type"], "TEXT");
    db.exec(RECEIVER_INDEX);
    db.exec("UPDATE files SET hash = '', size = -1");
  },
];

function columnsOf(db: DB, table: string): string[] {
  return db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table) as string[];
}

function addColumns(db: DB, table: string, wanted: readonly string[], type: string): void {
  const columns = columnsOf(db, table);
  for (const c of wanted) if (!columns.includes(c)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${c} ${type}`);
}

const SCHEMA_4_COLUMNS = ["bases", "receiver", "declared_type"];

/** Columns added to the first tables by migrations, by table: a complete index has them all. */
const LATE_COLUMNS: Record<string, readonly string[]> = { symbols: [...SCHEMA_4_COLUMNS, "arity"], refs: ["arity", "receiver_type"] };

/** The late columns the index lacks, as `table.column`. */
function missingColumns(db: DB): string[] {
  const out: string[] = [];
  for (const [table, wanted] of Object.entries(LATE_COLUMNS)) {
    const columns = columnsOf(db, table);
    for (const c of wanted) if (!columns.includes(c)) out.push(`${table}.${c}`);
  }
  return out;
}

export interface OpenOptions {
  /** Create the file (and its folder) when missing, and apply migrations. */
  write: boolean;
}

function corrupt(path: string, why: string): ToolError {
  return new ToolError({
    code: MAGELLAN_CODES.index_corrupt,
    error: "index_corrupt",
    message: `${path} is not a usable magellan index: ${why}`,
    remediation: "The index is a cache of your sources: run 'magellan index --rebuild' to recreate it.",
  });
}

let binding: string | null | undefined;
/**
 * The addon's path, handed to better-sqlite3 so it skips the `bindings` package (which walks a
 * stack trace and probes a dozen paths on every start); undefined lets it search as usual. Found
 * from the package's entry, which the require above already resolved (a second resolution of a
 * path inside the package would search node_modules again).
 */
function sqliteBinding(): string | undefined {
  if (binding === undefined) {
    try {
      const p = join(dirname(require.resolve("better-sqlite3")), "..", "build", "Release", "better_sqlite3.node");
      binding = existsSync(p) ? p : null;
    } catch {
      binding = null;
    }
  }
  return binding ?? undefined;
}

/** Opens the index; read-only opens refuse a missing file with a hint to run `magellan index`. */
export function openDb(path: string, options: OpenOptions): DB {
  if (!options.write && !existsSync(path)) {
    throw new ToolError({
      code: MAGELLAN_CODES.index_missing,
      error: "index_missing",
      message: `no index at ${path}`,
      remediation: "Run 'magellan index' (with the same --root and --db) to build it first.",
    });
  }
  if (options.write) {
    mkdirSync(dirname(path), { recursive: true });
    // The index's own directory keeps itself out of git, as .splice/ does: a `git add -A` would
    // commit the live index, and the next checkout delete it under a running daemon.
    if (basename(dirname(path)) === ".magellan") {
      try {
        writeFileSync(join(dirname(path), ".gitignore"), "*\n", { flag: "wx" });
      } catch {
        // there already (or a read-only directory, which the open below reports)
      }
    }
  }
  let db: DB;
  try {
    db = new Database(path, { fileMustExist: !options.write, timeout: 10_000, nativeBinding: sqliteBinding() });
  } catch (e) {
    // No usable add-on is the install's fault, not the file's: a rebuild would not help.
    if (isAddonLoadFailure(e)) throw new NativeModuleError("better-sqlite3", firstLine(e).replace(/\. Tried:$/, ""));
    throw corrupt(path, (e as Error).message);
  }
  try {
    db.pragma("busy_timeout = 10000");
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > DB_SCHEMA_VERSION) {
      throw new ToolError({
        code: MAGELLAN_CODES.schema_mismatch,
        error: "schema_mismatch",
        message: `${path} was written by a newer magellan (schema ${version}; this one reads ${DB_SCHEMA_VERSION})`,
        remediation: "Upgrade magellan, or run 'magellan index --rebuild' to recreate the index for this version.",
      });
    }
    if (version > 0) {
      const app = db.prepare("SELECT value FROM meta WHERE key = 'app'").pluck().get();
      if (app !== APP_ID) throw corrupt(path, "it is an SQLite database of another application");
    } else {
      const tables = db.prepare("SELECT count(*) FROM sqlite_master").pluck().get() as number;
      if (tables > 0) throw corrupt(path, "it is an SQLite database of another application");
    }
    if (version < DB_SCHEMA_VERSION) {
      if (!options.write && version === 0) {
        throw new ToolError({
          code: MAGELLAN_CODES.index_missing,
          error: "index_missing",
          message: `${path} holds no index yet`,
          remediation: "Run 'magellan index' to build it.",
        });
      }
      db.pragma("journal_mode = WAL");
      for (let v = version; v < DB_SCHEMA_VERSION; v++) {
        const step = MIGRATIONS[v] as (db: DB) => void;
        db.transaction(() => {
          step(db);
          db.pragma(`user_version = ${v + 1}`);
        })();
      }
    }
    const missing = version === DB_SCHEMA_VERSION ? missingColumns(db) : [];
    if (missing.length > 0) {
      // Written at this version by a build from before its last columns (a development build):
      // a writer adds them the way the migrations do; a reader cannot answer from it.
      if (!options.write) {
        throw new ToolError({
          code: MAGELLAN_CODES.schema_mismatch,
          error: "schema_mismatch",
          message: `${path} lacks columns of schema ${DB_SCHEMA_VERSION} (${missing.join(", ")}): it was written by an earlier build`,
          remediation: "Run 'magellan index' (it adds them and re-reads every file), or 'magellan index --rebuild'.",
        });
      }
      db.pragma("journal_mode = WAL");
      db.transaction(() => {
        (MIGRATIONS[3] as (db: DB) => void)(db);
        (MIGRATIONS[4] as (db: DB) => void)(db);
      })();
    }
    if (options.write) {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
    }
    db.pragma(`cache_size = -${DB_CACHE_KB}`);
    db.pragma("temp_store = MEMORY");
    return db;
  } catch (e) {
    db.close();
    if (e instanceof ToolError) throw e;
    const err = e as { code?: string; message: string };
    if (err.code === "SQLITE_BUSY") {
      throw new ToolError({
        code: MAGELLAN_CODES.index_locked,
        error: "index_locked",
        message: `${path} is busy (another process holds it): ${err.message}`,
        remediation: "Wait for the other magellan process to finish, then retry.",
      });
    }
    throw corrupt(path, err.message);
  }
}

/** Wraps a query so that SQLite's "file is not a database" surfaces as index_corrupt. */
export function guardCorrupt<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const err = e as { code?: string; message: string };
    if (typeof err.code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(err.code)) throw corrupt(path, err.message);
    throw e;
  }
}

type Statement = Database.Statement<unknown[]>;
const statements = new WeakMap<DB, Map<string, Statement>>();
/**
 * Prepared statements are kept per connection: preparing costs more than a small query. `raw`
 * ones return rows as arrays (kept apart: raw mode is a property of the statement).
 */
export function stmt(db: DB, sql: string, raw = false): Statement {
  let m = statements.get(db);
  if (!m) {
    m = new Map();
    statements.set(db, m);
  }
  const key = raw ? `raw\0${sql}` : sql;
  let st = m.get(key);
  if (!st) {
    st = db.prepare<unknown[]>(sql);
    if (raw) st.raw(true);
    m.set(key, st);
  }
  return st;
}

export function getMeta(db: DB, key: string): string | undefined {
  return stmt(db, "SELECT value FROM meta WHERE key = ?").pluck().get(key) as string | undefined;
}

export function setMeta(db: DB, key: string, value: string): void {
  db.prepare("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
}

/**
 * A cold index's last steps on its references, once every outcome is written: the indexes that
 * depend on the outcomes, the end of resolve_pending, and the query planner's statistics (from a
 * sample, not a scan of every index). Run on a worker's connection (index-tail-worker.ts) or, when
 * that is not possible, on the indexing one.
 */
export function finishColdReferences(db: DB, indexedAt: string): void {
  db.exec(REF_INDEXES);
  db.transaction(() => {
    setMeta(db, "last_index_time", indexedAt);
    setMeta(db, "resolve_pending", "0");
  })();
  db.pragma("analysis_limit = 1000");
  db.exec("ANALYZE");
}

export interface IndexState {
  /** Answers drawn from this index may miss symbols, references or calls. */
  incomplete: boolean;
  /** Why, in words an agent can act on. */
  reason?: string;
}

/**
 * Whether the index is whole: a cold index stores symbols file by file and references last (a
 * run killed before the end leaves resolve_pending), and any index run marks itself running
 * while it replaces files (index_running: its pid), so that a reader in between says so.
 */
export function indexState(db: DB): IndexState {
  if (getMeta(db, "resolve_pending") === "1") {
    const pid = Number(getMeta(db, "index_running") ?? NaN);
    const live = Number.isInteger(pid) && pid > 0 && pidAlive(pid);
    return {
      incomplete: true,
      reason: live
        ? "a full index is running: files not stored yet and every reference are missing"
        : "a full index was interrupted: some files, references and calls are missing",
    };
  }
  const pid = Number(getMeta(db, "index_running") ?? NaN);
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid)) {
    return { incomplete: true, reason: "an index update is running: files it has not stored yet are answered from their earlier state" };
  }
  return { incomplete: false };
}

/** Deletes the database and its WAL/SHM companions (`index --rebuild`). */
export function removeDb(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
}


/**
 * Lock files this process holds now. A long-lived process (the daemon, the MCP server) runs
 * several index runs of one database: splice's re-index of what it changed, and the keeper's
 * cycle that the same writes set off. A lock naming our own pid is theirs to wait for when it is
 * held here, and a dead process's whose pid we were given again only when it is not.
 */
const heldHere = new Set<string>();

/**
 * One writer at a time: an index run spans many transactions, so SQLite's own lock is not
 * enough. The lock file holds the writer's pid; a lock left by a killed process is taken over.
 * Waits up to `waitMs` for a live writer to finish, in this process or another.
 */
export async function acquireWriterLock(dbPath: string, waitMs = 15_000): Promise<() => void> {
  const lockPath = `${dbPath}.lock`;
  mkdirSync(dirname(lockPath), { recursive: true });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(lockPath);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(lockPath);
        rmSync(lockPath, { force: true });
      };
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(lockPath, "utf8").trim());
    } catch {
      continue;
    }
    const young = (() => {
      try {
        return Date.now() - statSync(lockPath).mtimeMs < 1000;
      } catch {
        return false;
      }
    })();
    if ((!Number.isInteger(holder) || holder <= 0 || !pidAlive(holder)) && !young) {
      // Left behind by a killed writer: the database itself is consistent (every batch is one
      // transaction), so taking the lock over is safe.
      rmSync(lockPath, { force: true });
      continue;
    }
    // Our pid but no run of ours holds it: a killed process's, whose pid this one was given.
    // (Taken over while a run here held it for over a second, it let a second run write the
    // database beside the first.)
    if (holder === process.pid && !young && !heldHere.has(lockPath)) {
      rmSync(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new ToolError({
        code: MAGELLAN_CODES.index_locked,
        error: "index_locked",
        message: `another magellan process (pid ${Number.isNaN(holder) ? "?" : holder}) is writing ${dbPath}`,
        remediation: `Wait for it to finish (or stop 'magellan watch'); if no such process exists, delete ${lockPath}.`,
        exitCode: EXIT.failure,
      });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
