/** Java imports: a class by its package path under any source root, `.*` a package's files. */
import type { FileLookup } from "./files.js";

export class JavaModules {
  constructor(private readonly files: FileLookup) {}

  resolve(_fromPath: string, source: string, out: number[]): void {
    const parts = source.replace(/\.\*$/, "").split(".");
    if (source.endsWith(".*")) this.files.dirMatch(parts.join("/"), ".java", out);
    else if (!this.files.suffixMatch(`${parts.join("/")}.java`, out)) {
      // `import a.b.C.member` (static import): the class file is one segment up.
      // `import a.b.C;` as the imports table holds it (source a.b, name C): the package's files.
      if (!this.files.suffixMatch(`${parts.slice(0, -1).join("/")}.java`, out)) this.files.dirMatch(parts.join("/"), ".java", out);
    }
  }

  /** Every file of the package a file declares (main and test source roots share it). */
  packageFiles(fromDir: string, pkg: string | undefined, out: number[]): void {
    if (pkg) this.files.dirMatch(pkg.split(".").join("/"), ".java", out);
    else this.files.dirFiles(fromDir, ".java", out);
  }

  external(): boolean {
    return true;
  }
}
