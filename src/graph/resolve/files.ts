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
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export class SqlFileLookup implements FileLookup {
  private readonly fileByPath;
  private readonly filesLike;

  constructor(
    db: DB,
    readonly root: string | undefined,
  ) {
    this.fileByPath = db.prepare("SELECT id FROM files WHERE path = ?").pluck();
    this.filesLike = db.prepare("SELECT id, path FROM files WHERE path = ? OR path LIKE ? ESCAPE '\\'");
  }

  tryPath(p: string, out: number[]): boolean {
    const id = this.fileByPath.get(posix.normalize(p)) as number | undefined;
    if (id !== undefined) out.push(id);
    return id !== undefined;
  }

  suffixMatch(suffix: string, out: number[]): boolean {
    const rows = this.filesLike.all(suffix, `%/${escapeLike(suffix)}`) as { id: number }[];
    for (const r of rows) out.push(r.id);
    return rows.length > 0;
  }

  dirFiles(dir: string, ext: string, out: number[]): void {
    const d = posix.normalize(dir);
    const like = d === "." ? "%" : `${escapeLike(d)}/%`;
    for (const r of this.filesLike.all("\0", like) as { id: number; path: string }[]) {
      if (posix.dirname(r.path) === d && r.path.endsWith(ext)) out.push(r.id);
    }
  }

  dirMatch(dirSuffix: string, ext: string, out: number[]): void {
    for (const r of this.filesLike.all("\0", `%${escapeLike(dirSuffix)}/%`) as { id: number; path: string }[]) {
      const d = posix.dirname(r.path);
      if ((d === dirSuffix || d.endsWith(`/${dirSuffix}`)) && r.path.endsWith(ext)) out.push(r.id);
    }
  }
}
