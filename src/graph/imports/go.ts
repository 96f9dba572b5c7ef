/**
 * Go: an import path is a package, i.e. every non-test .go file of one directory. The module
 * that owns the path comes from go.work's `use` directives (every workspace module) and from the
 * go.mod files above the sources; the longest module path that prefixes the import wins. The files
 * of one package (one directory) also depend on each other without an import: a file depends on
 * a file of its directory that declares a name it uses (a test file on the package's other files
 * too; a non-test file never on a test file).
 */
import { posix } from "node:path";
import type { DB } from "../db.js";
import type { RepoFiles } from "./repo.js";
import { type DepOutcome, type DepRow, EXTERNAL, outcome, UNRESOLVED } from "./types.js";

export class GoImports {
  private modules: { path: string; dir: string }[] | undefined;

  private readonly symbolNames;
  private readonly declared = new Map<number, string[]>();

  constructor(
    private readonly repo: RepoFiles,
    db: DB,
  ) {
    this.symbolNames = db.prepare("SELECT DISTINCT name FROM symbols WHERE file_id = ?").pluck();
  }

  /** The files of the file's own package (its directory) that declare a name it uses. */
  samePackage(fileId: number): number[] {
    const f = this.repo.byId.get(fileId);
    if (!f) return [];
    const test = f.path.endsWith("_test.go");
    const used = this.repo.namesUsedBy(fileId);
    const out: number[] = [];
    for (const g of this.repo.dirs.get(posix.dirname(f.path)) ?? []) {
      if (g.id === fileId || !g.path.endsWith(".go") || (!test && g.path.endsWith("_test.go"))) continue;
      let names = this.declared.get(g.id);
      if (!names) this.declared.set(g.id, (names = this.symbolNames.all(g.id) as string[]));
      if (names.some((n) => used.has(n))) out.push(g.id);
    }
    return out;
  }

  private moduleList(): { path: string; dir: string }[] {
    if (this.modules) return this.modules;
    const found = new Map<string, string>();
    const read = (dir: string): void => {
      const text = this.repo.readConfig(dir === "." ? "go.mod" : `${dir}/go.mod`);
      const m = text !== undefined ? /^\s*module\s+"?([^\s"]+)"?/m.exec(text) : null;
      if (m && !found.has(m[1] as string)) found.set(m[1] as string, dir);
    };
    const work = this.repo.readConfig("go.work");
    if (work !== undefined) {
      const uses = [...work.matchAll(/^\s*use\s+(?:\(\s*([^)]*)\)|(\S+))/gm)].flatMap((m) => (m[1] ?? m[2] ?? "").split(/\s+/)).filter(Boolean);
      for (const u of uses) read(posix.normalize(u.replace(/^"|"$/g, "")));
    }
    const dirs = new Set<string>();
    for (const f of this.repo.byPath.values()) {
      if (f.language !== "go") continue;
      for (let d = posix.dirname(f.path); !dirs.has(d); d = posix.dirname(d)) {
        dirs.add(d);
        if (d === ".") break;
      }
    }
    for (const d of [...dirs].sort()) read(d);
    this.modules = [...found].map(([path, dir]) => ({ path, dir })).sort((a, b) => b.path.length - a.path.length);
    return this.modules;
  }

  /** The import path of the package in directory `dir` (of the longest module above it), if any. */
  importPathOf(dir: string): string | undefined {
    let best: { path: string; dir: string } | undefined;
    for (const m of this.moduleList()) {
      const inside = m.dir === "." || dir === m.dir || dir.startsWith(`${m.dir}/`);
      if (inside && (!best || m.dir.length > best.dir.length)) best = m;
    }
    if (!best) return undefined;
    const rel = best.dir === "." ? dir : dir.slice(best.dir.length + 1);
    return rel === "." || rel === "" ? best.path : `${best.path}/${rel}`;
  }

  resolve(_from: string, dep: DepRow): DepOutcome {
    const spec = dep.spec;
    if (spec === null) return UNRESOLVED;
    for (const m of this.moduleList()) {
      if (spec !== m.path && !spec.startsWith(`${m.path}/`)) continue;
      const dir = posix.join(m.dir, spec.slice(m.path.length + 1));
      const out = (this.repo.dirs.get(posix.normalize(dir)) ?? []).filter((f) => f.path.endsWith(".go") && !f.path.endsWith("_test.go")).map((f) => f.id);
      return outcome(out, UNRESOLVED);
    }
    return EXTERNAL;
  }
}
