/** A file's context for resolution, read from the index on first use. */
import type { FileCtx, ImportIndex, ImportInfo } from "./model.js";

/** C++ member functions, whose definition outside the class (`void T::m() {}`) sees T's members. */
const OWNED_KINDS = new Set(["method", "ctor"]);

/**
 * A file's context, its symbols read on first use: a cold index builds one per file and name
 * partition, and most files' references in a partition never need their scope chains.
 */
export class LazyCtx implements FileCtx {
  reach?: Set<number>;
  packageFiles?: Set<number>;
  index?: ImportIndex;
  private symbols?: Pick<FileCtx, "parents" | "kinds" | "modules" | "bases" | "receivers" | "owners" | "javaPackage">;

  constructor(
    readonly id: number,
    readonly path: string,
    readonly language: string,
    readonly imports: ImportInfo[],
    private readonly parentsOf: { all(fileId: number): unknown[] },
  ) {}

  private load(): NonNullable<LazyCtx["symbols"]> {
    if (this.symbols) return this.symbols;
    const parents = new Map<string, string | null>();
    const kinds = new Map<string, string>();
    const modules = new Map<string, string>();
    const bases = new Map<string, string[]>();
    const receivers = new Map<string, [string, string]>();
    const owners = new Map<string, string>();
    let javaPackage: string | undefined;
    for (const [id, parent, kind, fqn, written, receiver, parentName] of this.parentsOf.all(this.id) as [string, string | null, string, string, string | null, string | null, string | null][]) {
      parents.set(id, parent);
      kinds.set(id, kind);
      if (written !== null) bases.set(id, written.split(","));
      if (receiver !== null && parentName !== null) receivers.set(id, [receiver, parentName]);
      else if (parentName !== null && this.language === "cpp" && OWNED_KINDS.has(kind)) owners.set(id, parentName);
      if (kind === "module") modules.set(id, fqn);
      else if (kind === "namespace" && parent === null && javaPackage === undefined) javaPackage = fqn;
    }
    this.symbols = { parents, kinds, modules, bases, receivers, owners };
    if (this.language === "java" && javaPackage !== undefined) this.symbols.javaPackage = javaPackage;
    return this.symbols;
  }

  get parents(): Map<string, string | null> {
    return this.load().parents;
  }

  get kinds(): Map<string, string> {
    return this.load().kinds;
  }

  get modules(): Map<string, string> {
    return this.load().modules;
  }

  get bases(): Map<string, string[]> {
    return this.load().bases;
  }

  get receivers(): Map<string, [string, string]> {
    return this.load().receivers;
  }

  get owners(): Map<string, string> {
    return this.load().owners;
  }

  get javaPackage(): string | undefined {
    return this.load().javaPackage;
  }
}
