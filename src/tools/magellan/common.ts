/** What every magellan command shares: where the root and the index are, freshness diagnostics. */
import { existsSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Diagnostic } from "../../contract/schema.js";
import { type DB, getMeta, guardCorrupt, indexState, openDb } from "../../graph/db.js";
import { ToolError } from "../../contract/errors.js";
import { MAGELLAN_CODES } from "../../graph/codes.js";
import { type IndexedFile, staleFiles } from "../../graph/read.js";
import { findWorkspaceRoot, isInside } from "../../text/root.js";

export const TOOL = "magellan";

export interface Location {
  root?: string;
  db?: string;
  cwd?: string;
}

export interface Resolved {
  root: string;
  dbPath: string;
}

export interface Answer<T> {
  data: T;
  diagnostics: Diagnostic[];
  partial?: boolean;
}

export function dbPathFor(loc: Location, root: string): string {
  return loc.db !== undefined ? resolve(loc.cwd ?? process.cwd(), loc.db) : join(root, ".magellan", "code.db");
}

/** Root and database for a command that writes (index, watch): --root, else the workspace root. */
export function locateForWrite(loc: Location, rebuild = false): Resolved {
  const root = findWorkspaceRoot(TOOL, loc.root, loc.cwd);
  const dbPath = dbPathFor(loc, root);
  // A rebuild replaces whatever the file held: asked for, it is no accident.
  if (!rebuild && existsSync(dbPath)) {
    let db: DB | undefined;
    try {
      db = openDb(dbPath, { write: false });
    } catch {
      // Not readable as an index (another schema, corrupt, locked): the index run says which.
    }
    if (db !== undefined) {
      try {
        assertOwnIndex(db, root, dbPath);
      } finally {
        db.close();
      }
    }
  }
  return { root, dbPath };
}

/**
 * Refuses a database that another tree's index is in: `--root A --db B/.magellan/code.db` made
 * queries call every file of B deleted, and `index` dropped B's files and filled B's database
 * with A's. The index records its root; it is another tree when that directory still exists, is
 * not --root, and the database is not inside --root (an index moves or is copied with its tree,
 * whose new place it then takes).
 */
function assertOwnIndex(db: DB, root: string, dbPath: string): void {
  const stored = getMeta(db, "root");
  if (stored === undefined || stored === root || isInside(root, dbPath)) return;
  let real: string;
  try {
    if (!statSync(stored).isDirectory()) return;
    real = realpathSync(stored);
  } catch {
    return;
  }
  if (real === realpathSync(root)) return;
  throw new ToolError({
    code: MAGELLAN_CODES.foreign_index,
    error: "foreign_index",
    message: `the index at ${dbPath} is of ${stored}, not of ${root}`,
    remediation: `Query it with --root ${stored} (or without --root), give ${root} its own --db, or run 'magellan index --rebuild --root ${root} --db ${dbPath}' to replace it.`,
    exitCode: 2,
  });
}

/**
 * Root and database for a query. Without --root, a database named with --db answers for the
 * root it was built from, so `magellan find --name f --db code.db` works from anywhere.
 */
export function withReadDb<T>(loc: Location, fn: (db: DB, r: Resolved) => T): T {
  const guessRoot = loc.root !== undefined ? findWorkspaceRoot(TOOL, loc.root, loc.cwd) : undefined;
  const dbPath = dbPathFor(loc, guessRoot ?? findWorkspaceRoot(TOOL, undefined, loc.cwd));
  const db = readHandle(dbPath);
  try {
    return guardCorrupt(dbPath, () => {
      let root = guessRoot;
      if (root !== undefined) assertOwnIndex(db, root, dbPath);
      else {
        const stored = getMeta(db, "root");
        root = stored && existsSync(stored) && statSync(stored).isDirectory() ? stored : findWorkspaceRoot(TOOL, undefined, loc.cwd);
      }
      return qualifyByState(db, () => fn(db, { root: root as string, dbPath }));
    });
  } catch (e) {
    forgetHandle(dbPath);
    throw e;
  }
}

/**
 * An answer from an index that is incomplete or being rebuilt says so: partial, and the
 * STALE_INDEX warning first, also when the answer is a not-found (it may be a false one).
 */
function qualifyByState<T>(db: DB, run: () => T): T {
  let out: T;
  try {
    out = run();
  } catch (e) {
    const state = indexState(db);
    if (state.incomplete && e instanceof ToolError) throw e.qualified([incompleteWarning(state.reason as string)], true);
    throw e;
  }
  const state = indexState(db);
  if (!state.incomplete || typeof out !== "object" || out === null || !Array.isArray((out as { diagnostics?: unknown }).diagnostics)) return out;
  const a = out as unknown as Answer<unknown>;
  if (!a.diagnostics.some((d) => d.code === MAGELLAN_CODES.stale_index && d.file === undefined && d.message.startsWith("STALE_INDEX: the index is incomplete"))) {
    a.diagnostics.unshift(incompleteWarning(state.reason as string));
  }
  a.partial = true;
  return out;
}

/**
 * qualifyByState's check made before an answer is written rather than after (export streams its
 * document, whose `partial` comes before the data): adds the warning first, says whether partial.
 */
export function incompleteNow(db: DB, diagnostics: Diagnostic[]): boolean {
  const state = indexState(db);
  if (!state.incomplete) return false;
  diagnostics.unshift(incompleteWarning(state.reason as string));
  return true;
}

function incompleteWarning(reason: string): Diagnostic {
  return {
    tool: TOOL,
    level: "warning",
    code: MAGELLAN_CODES.stale_index,
    message: `STALE_INDEX: the index is incomplete (${reason}); an empty or not-found answer may be false`,
    remediation: "Wait for 'magellan index' to finish, or run it again: an interrupted full index starts over.",
  };
}

/**
 * Read connections are kept per database file, so a long-lived caller (an MCP server, a bench)
 * pays for opening and checking the schema once. A file replaced underneath (index --rebuild)
 * has a new inode and gets a fresh connection.
 */
const handles = new Map<string, { db: DB; ino: number; dev: number }>();

function readHandle(dbPath: string): DB {
  let st;
  try {
    st = statSync(dbPath);
  } catch {
    forgetHandle(dbPath);
    return openDb(dbPath, { write: false });
  }
  const h = handles.get(dbPath);
  if (h && h.ino === st.ino && h.dev === st.dev) return h.db;
  forgetHandle(dbPath);
  const db = openDb(dbPath, { write: false });
  handles.set(dbPath, { db, ino: st.ino, dev: st.dev });
  return db;
}

function forgetHandle(dbPath: string): void {
  const h = handles.get(dbPath);
  if (h) {
    handles.delete(dbPath);
    h.db.close();
  }
}

/** STALE_INDEX warnings for the files an answer drew on (CONTRACT.md: never silently stale). */
export function freshnessDiagnostics(db: DB, root: string, paths: Iterable<string>, max = 20, indexed?: Map<string, IndexedFile>): Diagnostic[] {
  const stale = staleFiles(db, root, paths, indexed);
  const out: Diagnostic[] = stale.slice(0, max).map((s) => ({
    tool: TOOL,
    level: "warning" as const,
    code: MAGELLAN_CODES.stale_index,
    message:
      s.state === "missing"
        ? `STALE_INDEX: ${s.path} was deleted after it was indexed; results from it are out of date`
        : `STALE_INDEX: ${s.path} changed on disk since it was indexed; positions from it may be wrong`,
    file: s.path,
    remediation: "Run 'magellan index' (or keep 'magellan watch' running) to refresh the index.",
  }));
  if (stale.length > max) {
    out.push({
      tool: TOOL,
      level: "warning",
      code: MAGELLAN_CODES.stale_index,
      message: `STALE_INDEX: ${stale.length - max} more files changed since they were indexed`,
      remediation: "Run 'magellan index' to refresh the index.",
    });
  }
  return out;
}
