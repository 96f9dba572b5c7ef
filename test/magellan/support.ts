import assert from "node:assert/strict";
import { cpSync, readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { join } from "node:path";
import type { Span } from "../../src/contract/schema.js";
import { REPO_ROOT, type RunResult, runTool, tempDir } from "../support/run.js";

export const FIXTURES = join(REPO_ROOT, "test", "fixtures", "magellan");

export interface Envelope {
  command: string;
  partial: boolean;
  data: Record<string, unknown> & {
    matches?: Match[];
    symbols?: Match[];
    references?: Ref[];
    code?: string;
    remediation?: string;
    message?: string;
  };
  diagnostics?: { code: string; level: string; message: string; file?: string; remediation?: string }[];
}

/** A span as the contract defines it (CONTRACT.md). */
export type SpanLike = Span;

export interface Match {
  name: string;
  kind: string;
  kind_normalized: string;
  symbol_id: string;
  parent?: string;
  flags?: string[];
  display_fqn: string;
  canonical_fqn: string;
  span: SpanLike;
  name_span: SpanLike;
  context?: { before: string[]; selected: string[]; after: string[] };
  checksums?: { checksum_before: string; file_checksum_before: string };
  relationships?: { callers: { symbol: string; span: SpanLike }[]; callees: { symbol: string; span: SpanLike }[]; imports: string[]; exports: string[] };
}

export interface Ref {
  referenced_symbol: string;
  reference_kind: string;
  resolution: string;
  target_symbol_id?: string;
  candidates?: string[];
  caller?: string;
  qualifier?: string;
  span: SpanLike;
}

/**
 * A copy of a fixture folder in a fresh temp dir (tests index and edit it); `only` keeps just
 * those top-level folders, so a test pays for the grammars it needs and no others.
 */
export function copyFixture(name: string, only?: string[]): string {
  const dir = tempDir("magellan-");
  const src = join(FIXTURES, name);
  cpSync(src, dir, { recursive: true, filter: (p) => !only || p === src || only.some((o) => p === join(src, o) || p.startsWith(join(src, o) + "/")) });
  return dir;
}

export async function mg(root: string, args: string[], opts: { cwd?: string; raw?: boolean; timeoutMs?: number } = {}): Promise<{ r: RunResult; env: Envelope }> {
  const r = await runTool("magellan", [...args, ...(args.includes("--root") || args.includes("--db") ? [] : ["--root", root])], {
    cwd: opts.cwd ?? root,
    raw: opts.raw,
    timeoutMs: opts.timeoutMs,
  });
  return { r, env: r.json as Envelope };
}

export async function indexed(name: string, only?: string[]): Promise<string> {
  const root = copyFixture(name, only);
  const { r } = await mg(root, ["index"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return root;
}

/** CONTRACT.md invariant: the bytes of a span are the text the result talks about. */
export function spanText(root: string, s: SpanLike): string {
  return readFileSync(join(root, s.file_path)).subarray(s.byte_start, s.byte_end).toString("utf8");
}

export function codes(env: Envelope): string[] {
  return (env.diagnostics ?? []).map((d) => d.code);
}

/**
 * The graph an index holds, keyed by paths and offsets rather than row ids (the order in which
 * files are stored depends on which worker finishes first): for comparing two indexes.
 */
export function graphOf(dbPath: string): unknown[] {
  const d = new Database(dbPath, { readonly: true });
  try {
    return [
      d.prepare("SELECT path, language, hash, symbol_count, ref_count, call_count FROM files ORDER BY path").all(),
      d.prepare(`SELECT f.path, s.symbol_id, s.name, s.kind, s.parent_symbol_id, s.canonical_fqn, s.bases, s.byte_start, s.byte_end
                 FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.byte_start, s.symbol_id`).all(),
      d.prepare(`SELECT f.path, r.name, r.kind, r.byte_start, r.caller_symbol_id, r.target_symbol_id, r.resolution, r.candidates
                 FROM refs r JOIN files f ON f.id = r.file_id ORDER BY f.path, r.byte_start, r.name`).all(),
    ];
  } finally {
    d.close();
  }
}

/**
 * Runs `magellan index` on `root`, which must be an incremental run, and asserts that the index
 * then holds what a rebuild of the same tree (into `fresh-<label>.db`) holds.
 */
export async function assertIncrementalMatchesRebuild(root: string, label: string): Promise<void> {
  const inc = await mg(root, ["index"]);
  assert.equal(inc.env.data.mode, "incremental", label);
  const fresh = join(root, `fresh-${label}.db`);
  assert.equal((await mg(root, ["index", "--db", fresh])).r.code, 0, label);
  assert.deepEqual(graphOf(join(root, ".magellan", "code.db")), graphOf(fresh), label);
}

/** `fn` on `root`'s index, opened read-only for it and closed after. */
export function withIndex<T>(root: string, fn: (d: Database.Database) => T): T {
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    return fn(d);
  } finally {
    d.close();
  }
}

/**
 * Each reference matching `where` (SQL over `refs r` and `files f`) as `path:line qualifier.name
 * resolution target`, in file order.
 */
export function refLines(root: string, where: string): string[] {
  return withIndex(
    root,
    (d) =>
      d
        .prepare(
          `SELECT f.path || ':' || r.start_line || ' ' || coalesce(r.qualifier, '') || '.' || r.name || ' ' || r.resolution || ' ' || coalesce(s.display_fqn, '-')
           FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.symbol_id = r.target_symbol_id
           WHERE ${where} ORDER BY f.path, r.byte_start`,
        )
        .pluck()
        .all() as string[],
  );
}
