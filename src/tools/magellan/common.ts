/** What every magellan command shares: where the root and the index are, freshness diagnostics. */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Diagnostic } from "../../contract/schema.js";
import { type DB, getMeta, guardCorrupt, openDb } from "../../graph/db.js";
import { MAGELLAN_CODES } from "../../graph/codes.js";
import { type IndexedFile, staleFiles } from "../../graph/read.js";
import { findWorkspaceRoot } from "../../text/root.js";

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
export function locateForWrite(loc: Location): Resolved {
  const root = findWorkspaceRoot(TOOL, loc.root, loc.cwd);
  return { root, dbPath: dbPathFor(loc, root) };
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
      if (root === undefined) {
        const stored = getMeta(db, "root");
        root = stored && existsSync(stored) && statSync(stored).isDirectory() ? stored : findWorkspaceRoot(TOOL, undefined, loc.cwd);
      }
      return fn(db, { root, dbPath });
    });
  } catch (e) {
    forgetHandle(dbPath);
    throw e;
  }
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
  // A cold index stores references only after every file's symbols: until it finishes (or after
  // it was killed) references are missing, and an answer must say so.
  if (getMeta(db, "resolve_pending") === "1") {
    out.unshift({
      tool: TOOL,
      level: "warning",
      code: MAGELLAN_CODES.stale_index,
      message: "STALE_INDEX: the index is incomplete (a full index is running or was interrupted); references and calls may be missing",
      remediation: "Wait for 'magellan index' to finish, or run it again: an interrupted full index starts over.",
    });
  }
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
