/**
 * What impact resolution knows of the repository: the indexed files (in memory, one query), the
 * directories they make, and the configuration files it read from disk (tsconfig.json,
 * package.json, go.mod, Cargo.toml, compile_commands.json...), each with its size and mtime, or
 * its absence, so that an incremental index can tell when a resolution input changed.
 */
import { readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import type { DB } from "../db.js";
import type { FileLookup } from "../resolve/files.js";

export interface FileInfo {
  id: number;
  path: string;
  language: string;
}

export class RepoFiles implements FileLookup {
  readonly byPath = new Map<string, FileInfo>();
  readonly byId = new Map<number, FileInfo>();
  /** Directory -> files directly in it. */
  readonly dirs = new Map<string, FileInfo[]>();
  /** Base name -> files with it (suffix matches). */
  private readonly byBase = new Map<string, FileInfo[]>();
  /** Config files read (or probed and absent): path -> "size:mtime" or "-". */
  readonly configs = new Map<string, string>();
  private readonly texts = new Map<string, string | undefined>();

  private readonly usedNames;

  constructor(
    db: DB,
    readonly root: string,
  ) {
    this.usedNames = db.prepare("SELECT name FROM refs WHERE file_id = ? UNION SELECT qualifier FROM refs WHERE file_id = ? AND qualifier IS NOT NULL").pluck();
    for (const f of db.prepare("SELECT id, path, language FROM files").all() as FileInfo[]) {
      this.byPath.set(f.path, f);
      this.byId.set(f.id, f);
      const d = posix.dirname(f.path);
      let xs = this.dirs.get(d);
      if (!xs) this.dirs.set(d, (xs = []));
      xs.push(f);
      // Every ancestor is a directory too (for directoryExists), even without files of its own.
      for (let a = posix.dirname(d); !this.dirs.has(a); a = posix.dirname(a)) {
        this.dirs.set(a, []);
        if (a === ".") break;
      }
      const b = posix.basename(f.path);
      let bs = this.byBase.get(b);
      if (!bs) this.byBase.set(b, (bs = []));
      bs.push(f);
    }
  }

  has(p: string): boolean {
    return this.byPath.has(p);
  }

  /** The names a file's references use, and their qualifiers: what it may take from its package (Java, Go). */
  namesUsedBy(fileId: number): Set<string> {
    return new Set(this.usedNames.all(fileId, fileId) as string[]);
  }

  pathOf(id: number): string | undefined {
    return this.byId.get(id)?.path;
  }

  tryPath(p: string, out: number[]): boolean {
    const f = this.byPath.get(posix.normalize(p));
    if (f) out.push(f.id);
    return f !== undefined;
  }

  suffixMatch(suffix: string, out: number[]): boolean {
    const n = out.length;
    for (const f of this.byBase.get(posix.basename(suffix)) ?? []) {
      if (f.path === suffix || f.path.endsWith(`/${suffix}`)) out.push(f.id);
    }
    return out.length > n;
  }

  dirFiles(dir: string, ext: string, out: number[]): void {
    for (const f of this.dirs.get(posix.normalize(dir)) ?? []) if (f.path.endsWith(ext)) out.push(f.id);
  }

  dirMatch(dirSuffix: string, ext: string, out: number[]): void {
    for (const [d, fs] of this.dirs) {
      if (d === dirSuffix || d.endsWith(`/${dirSuffix}`)) for (const f of fs) if (f.path.endsWith(ext)) out.push(f.id);
    }
  }

  /** A configuration file's text (repository-relative), remembered as an input of resolution. */
  readConfig(rel: string): string | undefined {
    const key = posix.normalize(rel);
    if (this.texts.has(key)) return this.texts.get(key);
    let text: string | undefined;
    const abs = join(this.root, key);
    try {
      // Most probes are of files that do not exist (a package.json or tsconfig.json in each
      // directory the compiler walks up): answered without an exception to build and catch.
      const st = statSync(abs, { throwIfNoEntry: false });
      if (st === undefined) this.configs.set(key, "-");
      else {
        this.configs.set(key, `${st.size}:${st.mtimeMs}`);
        text = readFileSync(abs, "utf8");
      }
    } catch {
      this.configs.set(key, "-");
    }
    this.texts.set(key, text);
    return text;
  }
}

/** Whether any remembered configuration file changed, appeared or went away since it was read. */
export function configsChanged(root: string, configs: Record<string, string>): boolean {
  for (const [rel, sig] of Object.entries(configs)) {
    let now = "-";
    try {
      const st = statSync(join(root, rel), { throwIfNoEntry: false });
      if (st !== undefined) now = `${st.size}:${st.mtimeMs}`;
    } catch {
      // unreadable: as absent
    }
    if (now !== sig) return true;
  }
  return false;
}
