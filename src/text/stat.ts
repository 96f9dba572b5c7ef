/**
 * A file's size and mtime as fs.statSync reports them, for checks over thousands of files (an
 * incremental index stats every indexed file to find the changed ones).
 *
 * Why not fs.statSync alone: on Node 20 each call builds a Stats object with four Date objects,
 * which made the check of 2,700 unchanged files cost ~35 ms of a re-index, against ~10 ms for
 * the same system calls read as numbers. Node's fs binding has that call (`stat` returns the
 * fields as a Float64Array: size at 8, mtime seconds and nanoseconds at 12 and 13); it is not a
 * public API, so it is used only after it gave exactly what fs.statSync gives for a real file,
 * and never when deprecation warnings are asked for. Otherwise, and whenever it is missing or
 * changes shape, fs.statSync answers.
 */
import { statSync } from "node:fs";

type BindingStat = (path: string, useBigint: boolean, req: undefined, throwIfNoEntry: boolean) => Float64Array | undefined;

export interface SizeAndMtime {
  size: number;
  mtimeMs: number;
}

/** undefined: not checked yet; null: not usable here. */
let fast: BindingStat | null | undefined;

const SIZE = 8;
const MTIME_SEC = 12;
const MTIME_NSEC = 13;

/** The same arithmetic as Node's Stats#mtimeMs, so stored values compare equal. */
function fromFields(a: Float64Array): SizeAndMtime {
  return { size: a[SIZE] as number, mtimeMs: (a[MTIME_SEC] as number) * 1e3 + (a[MTIME_NSEC] as number) / 1e6 };
}

function deprecationsWatched(): boolean {
  const flags = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
  return /--(pending|throw|trace)-deprecation/.test(flags);
}

function checkedBinding(abs: string): BindingStat | null {
  if (deprecationsWatched()) return null;
  try {
    const binding = (process as unknown as { binding(name: string): { stat?: unknown } }).binding("fs");
    const stat = binding.stat;
    if (typeof stat !== "function") return null;
    const call = stat as BindingStat;
    const fields = call(abs, false, undefined, true);
    if (!(fields instanceof Float64Array) || fields.length <= MTIME_NSEC) return null;
    const mine = fromFields(fields);
    const theirs = statSync(abs);
    return mine.size === theirs.size && mine.mtimeMs === theirs.mtimeMs ? call : null;
  } catch {
    return null;
  }
}

/**
 * Size and mtime (ms) of `abs`, following symlinks as fs.statSync does; undefined when it does
 * not exist. Other errors (permissions) throw, as fs.statSync's do.
 */
export function sizeAndMtime(abs: string): SizeAndMtime | undefined {
  if (fast === undefined) {
    // Checked on the first file that exists; until then fs.statSync answers.
    const st = statSync(abs, { throwIfNoEntry: false });
    if (!st) return undefined;
    fast = checkedBinding(abs);
    return { size: st.size, mtimeMs: st.mtimeMs };
  }
  if (fast !== null) {
    const fields = fast(abs, false, undefined, false);
    return fields === undefined ? undefined : fromFields(fields);
  }
  const st = statSync(abs, { throwIfNoEntry: false });
  return st ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
}

/** For tests: whether the binding is in use (after a first call). */
export function usesBindingStat(): boolean {
  return typeof fast === "function";
}
