/**
 * Go: an import path is a package, i.e. every non-test .go file of one directory. The module
 * that owns the path comes from go.work's `use` directives (every workspace module) and from the
 * go.mod files above the sources; the longest module path that prefixes the import wins.
 */
import { posix } from "node:path";
import type { RepoFiles } from "./repo.js";
import { type DepOutcome, type DepRow, EXTERNAL, outcome, UNRESOLVED } from "./types.js";

export class GoImports {
  private modules: { path: string; dir: string }[] | undefined;

  constructor(private readonly repo: RepoFiles) {}

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
