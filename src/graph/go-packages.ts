/**
 * The package name each Go directory declares, as the index last saw it (meta `go_packages`).
 * Resolution reads it from the package clause (`a.F()` reaches pkg/a when its files say
 * `package a`), which no symbol or import records: without the earlier name an incremental run
 * could not tell that a file's new clause changed what its importers' references reach, and kept
 * edges a rebuild no longer had.
 */
import { posix } from "node:path";
import { type DB, getMeta, setMeta } from "./db.js";
import { goDirPackage } from "./resolve/go.js";

const KEY = "go_packages";

/** Directories of the Go files among `paths`. */
export function goDirs(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) if (p.endsWith(".go")) out.add(posix.dirname(p));
  return out;
}

/** Records every indexed Go directory's package name (a cold index). */
export function recordGoPackages(db: DB, root: string): void {
  const paths = db.prepare("SELECT path FROM files WHERE language = 'go'").pluck().all() as string[];
  const names: Record<string, string | null> = {};
  for (const dir of [...goDirs(paths)].sort()) names[dir] = goDirPackage(root, dir);
  setMeta(db, KEY, JSON.stringify(names));
}

/** A directory whose package name may have changed, and the names its importers may have used (all: unknown). */
export interface GoPackageChange {
  dir: string;
  names: Set<string> | undefined;
}

/**
 * The directories of `dirs` whose package name is not the one recorded, with the names before
 * and after as importers bind them (a directory with no clause binds the import path's last
 * element); the record is updated. An index from before the record knows no earlier name.
 */
export function goPackageChanges(db: DB, root: string, dirs: Set<string>): GoPackageChange[] {
  if (dirs.size === 0) return [];
  const saved = getMeta(db, KEY);
  const known = saved === undefined ? undefined : (JSON.parse(saved) as Record<string, string | null>);
  const record = known ?? {};
  const out: GoPackageChange[] = [];
  let edited = known === undefined;
  for (const dir of [...dirs].sort()) {
    const now = goDirPackage(root, dir);
    const had = known === undefined ? undefined : (known[dir] ?? null);
    if (record[dir] !== now) edited = true;
    record[dir] = now;
    const bound = (n: string | null): string => n ?? posix.basename(dir);
    if (had !== undefined && bound(had) === bound(now)) continue;
    out.push({ dir, names: had === undefined ? undefined : new Set([bound(had), bound(now)]) });
  }
  // (Written only when it changed: it holds every Go directory of the repository.)
  if (edited) setMeta(db, KEY, JSON.stringify(record));
  return out;
}
