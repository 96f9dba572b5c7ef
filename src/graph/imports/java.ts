/**
 * Java: source roots are where the package path of each file's `package` line starts
 * (src/main/java, src/test/java, any module's); `import a.b.C` is a/b/C.java under a root,
 * `import static a.b.C.m` and nested `a.b.C.Inner` the outermost class file, `a.b.*` every file of
 * the package; a class of the same package (every root) used by name is a dependency too.
 */
import { posix } from "node:path";
import type { DB } from "../db.js";
import type { RepoFiles } from "./repo.js";
import { type DepOutcome, type DepRow, EXTERNAL, outcome } from "./types.js";

export class JavaImports {
  private roots: string[] | undefined;

  constructor(
    private readonly repo: RepoFiles,
    db: DB,
  ) {
    this.pkgOf = db.prepare("SELECT d.file_id, d.spec FROM deps d WHERE d.form = 'package'");
  }

  private readonly pkgOf;

  private sourceRoots(): string[] {
    if (this.roots) return this.roots;
    const roots = new Set<string>();
    for (const r of this.pkgOf.all() as { file_id: number; spec: string }[]) {
      const f = this.repo.byId.get(r.file_id);
      if (!f) continue;
      const pkgPath = r.spec.split(".").join("/");
      const d = posix.dirname(f.path);
      if (d === pkgPath) roots.add(".");
      else if (d.endsWith(`/${pkgPath}`)) roots.add(d.slice(0, d.length - pkgPath.length - 1));
    }
    this.roots = [...roots].sort();
    return this.roots;
  }

  resolve(_from: string, dep: DepRow): DepOutcome {
    const spec = dep.spec as string;
    if (dep.form === "package") return { status: "package", targets: [] };
    const out: number[] = [];
    const parts = spec.replace(/\.\*$/, "").split(".");
    for (const root of this.sourceRoots()) {
      if (spec.endsWith(".*")) {
        for (const f of this.repo.dirs.get(posix.join(root, ...parts)) ?? []) if (f.path.endsWith(".java")) out.push(f.id);
        // `import a.b.C.*` (a class's nested types): the class file.
        if (out.length === 0) this.repo.tryPath(`${posix.join(root, ...parts)}.java`, out);
      } else {
        for (let n = parts.length; n >= 1 && out.length === 0; n--) this.repo.tryPath(`${posix.join(root, ...parts.slice(0, n))}.java`, out);
      }
      if (out.length > 0) break;
    }
    return outcome(out, EXTERNAL);
  }

  /** Classes of the file's own package (in every source root) that it names. */
  samePackage(fileId: number, pkg: string | undefined): number[] {
    const f = this.repo.byId.get(fileId);
    if (!f) return [];
    const dirs = pkg === undefined ? [posix.dirname(f.path)] : this.sourceRoots().map((r) => posix.join(r, ...pkg.split(".")));
    const names = this.repo.namesUsedBy(fileId);
    const out: number[] = [];
    for (const d of dirs) {
      for (const g of this.repo.dirs.get(d) ?? []) {
        if (g.id === fileId || !g.path.endsWith(".java")) continue;
        if (names.has(posix.basename(g.path, ".java"))) out.push(g.id);
      }
    }
    return out;
  }
}
