/**
 * The indexed files as module resolution sees them: a path is a module only when it is indexed.
 * Every language's resolver asks through this, so the symbol resolver and the impact graph agree
 * on what an import specifier denotes.
 */
import { posix } from "node:path";
import type { DB } from "../db.js";

export interface FileLookup {
  /** The workspace on disk, for the files that say how imports map to directories (go.mod, tsconfig.json). */
  readonly root: string | undefined;
  /** Adds the id of the indexed file at `p` (normalised) to `out`. */
  tryPath(p: string, out: number[]): boolean;
  /** Files whose path is `suffix` or ends with `/suffix`. */
  suffixMatch(suffix: string, out: number[]): boolean;
  /** Files directly in `dir` (relative, "." for the root) with the extension. */
  dirFiles(dir: string, ext: string, out: number[]): void;
  /** Files directly in a directory named `dirSuffix` or ending with `/dirSuffix`, with the extension. */
  dirMatch(dirSuffix: string, ext: string, out: number[]): void;
  /** The path of the indexed file with this id. */
  pathOf(id: number): string | undefined;
  /** The directories holding indexed files (relative, "." for the root). */
  directories?(): Iterable<string>;
}

interface FileRef {
  id: number;
  path: string;
}

/** ASCII-only lower case, as SQLite's LIKE folds case (these lookups were LIKE queries). */
const lowerAscii = (s: string): string => (/[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (c) => c.toLowerCase()) : s);

function push(m: Map<string, FileRef[]>, k: string, f: FileRef): void {
  const xs = m.get(k);
  if (xs) xs.push(f);
  else m.set(k, [f]);
}

/**
 * The indexed files, read once (on first use) into maps by path, directory and base names: a
 * query with `LIKE '%/name'` per import scanned the whole files table, which was most of a cold
 * index's resolution time on C/C++ and Java trees. Answers are those of the queries they replace,
 * in path order (those queries read the covering index on path), with LIKE's ASCII case folding
 * for suffixes. The files must not change
 * while a lookup is in use (a resolver is made after a run's files are stored).
 */
export class SqlFileLookup implements FileLookup {
  private maps: { byPath: Map<string, number>; byId: Map<number, string>; byBase: Map<string, FileRef[]>; byDir: Map<string, FileRef[]>; byDirBase: Map<string, FileRef[]> } | undefined;

  constructor(
    private readonly db: DB,
    readonly root: string | undefined,
  ) {}

  private load(): NonNullable<SqlFileLookup["maps"]> {
    if (this.maps) return this.maps;
    const m = { byPath: new Map<string, number>(), byId: new Map<number, string>(), byBase: new Map<string, FileRef[]>(), byDir: new Map<string, FileRef[]>(), byDirBase: new Map<string, FileRef[]>() };
    for (const f of this.db.prepare("SELECT id, path FROM files ORDER BY path").all() as FileRef[]) {
      m.byPath.set(f.path, f.id);
      m.byId.set(f.id, f.path);
      push(m.byBase, lowerAscii(posix.basename(f.path)), f);
      const d = posix.dirname(f.path);
      push(m.byDir, d, f);
      push(m.byDirBase, posix.basename(d), f);
    }
    this.maps = m;
    return m;
  }

  pathOf(id: number): string | undefined {
    return this.load().byId.get(id);
  }

  directories(): Iterable<string> {
    return this.load().byDir.keys();
  }

  tryPath(p: string, out: number[]): boolean {
    const id = this.load().byPath.get(posix.normalize(p));
    if (id !== undefined) out.push(id);
    return id !== undefined;
  }

  suffixMatch(suffix: string, out: number[]): boolean {
    const n = out.length;
    const tail = `/${lowerAscii(suffix)}`;
    for (const f of this.load().byBase.get(lowerAscii(posix.basename(suffix))) ?? []) {
      if (f.path === suffix || lowerAscii(f.path).endsWith(tail)) out.push(f.id);
    }
    return out.length > n;
  }

  dirFiles(dir: string, ext: string, out: number[]): void {
    for (const f of this.load().byDir.get(posix.normalize(dir)) ?? []) if (f.path.endsWith(ext)) out.push(f.id);
  }

  dirMatch(dirSuffix: string, ext: string, out: number[]): void {
    // (The query's `LIKE '%dir/%'` also held: a root file is not in ".".)
    const like = `${lowerAscii(dirSuffix)}/`;
    for (const f of this.load().byDirBase.get(posix.basename(dirSuffix)) ?? []) {
      const d = posix.dirname(f.path);
      if ((d === dirSuffix || d.endsWith(`/${dirSuffix}`)) && f.path.endsWith(ext) && lowerAscii(f.path).includes(like)) out.push(f.id);
    }
  }
}
