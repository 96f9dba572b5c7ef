/**
 * Python: `import a.b`, `from a import b` (b a submodule -> a/b.py, else a's __init__.py, which
 * re-exports), relative imports, source roots above the importing file and the src layout,
 * namespace packages (a directory without __init__.py), importlib.import_module("literal").
 */
import { posix } from "node:path";
import { PythonModules } from "../resolve/python.js";
import type { RepoFiles } from "./repo.js";
import { type DepOutcome, type DepRow, EXTERNAL, outcome, UNRESOLVED } from "./types.js";

export class PythonImports {
  private readonly modules;

  constructor(private readonly repo: RepoFiles) {
    this.modules = new PythonModules(repo);
  }

  private find(from: string, mod: string): number[] {
    const out: number[] = [];
    this.modules.resolve(from, mod, out);
    return out;
  }

  /** A namespace package: a directory of that dotted path under a source root, without __init__.py. */
  private namespaceDir(mod: string): boolean {
    const rel = mod.replace(/^\.+/, "").split(".").join("/");
    if (!rel) return false;
    for (const d of this.repo.dirs.keys()) if (d === rel || d.endsWith(`/${rel}`)) return true;
    return false;
  }

  resolve(from: string, dep: DepRow): DepOutcome {
    const spec = dep.spec;
    if (spec === null) return UNRESOLVED;
    if (dep.form === "path") {
      // A file path (spec_from_file_location, SourceFileLoader): relative to the importing
      // file's directory, else to the root (where scripts usually run from).
      const out: number[] = [];
      const rel = spec.replace(/^\.\//, "");
      if (!this.repo.tryPath(posix.join(posix.dirname(from), rel), out)) this.repo.tryPath(rel, out);
      return outcome(out, UNRESOLVED);
    }
    const targets: number[] = [];
    const names = dep.names ? (JSON.parse(dep.names) as string[]) : [];
    let viaParent = names.length === 0;
    for (const n of names) {
      const sub = this.find(from, spec.endsWith(".") ? `${spec}${n}` : `${spec}.${n}`);
      if (sub.length > 0) targets.push(...sub);
      else viaParent = true;
    }
    if (viaParent) targets.push(...this.find(from, spec));
    if (targets.length > 0) return outcome(targets, UNRESOLVED);
    if (spec.startsWith(".")) {
      // `from . import x` in a namespace package: the directory exists, x is no module of it.
      return UNRESOLVED;
    }
    if (this.namespaceDir(spec)) return { status: "resolved", targets: [] };
    return EXTERNAL;
  }

  /** importlib.import_module("a.b") / f"pkg.{x}" patterns: dotted names to files. */
  matchPattern(pattern: string): number[] {
    const path = pattern.replace(/^\.+/, "").split(".").join("/");
    const re = new RegExp(`(^|/)${path.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")}(\\.py|/__init__\\.py)$`);
    return [...this.repo.byPath.values()].filter((f) => re.test(f.path)).sort((a, b) => (a.path < b.path ? -1 : 1)).map((f) => f.id);
  }
}

