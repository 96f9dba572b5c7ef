/** Python module names: relative (`..pkg`), absolute from any ancestor source root, src layout. */
import { posix } from "node:path";
import type { FileLookup } from "./files.js";

export class PythonModules {
  constructor(private readonly files: FileLookup) {}

  resolve(fromPath: string, source: string, out: number[]): void {
    const dir = posix.dirname(fromPath);
    const tryPath = (p: string): boolean => this.files.tryPath(p, out);
    const m = /^(\.*)(.*)$/.exec(source) as RegExpExecArray;
    const dots = (m[1] as string).length;
    const rest = (m[2] as string).split(".").filter(Boolean).join("/");
    const bases: string[] = [];
    if (dots > 0) {
      let d = dir;
      for (let i = 1; i < dots; i++) d = posix.dirname(d);
      bases.push(d);
    } else {
      bases.push("");
      // A source root other than the workspace root: the importing file's ancestors.
      let d = dir;
      while (d !== "." && d !== "") {
        bases.push(d);
        d = posix.dirname(d);
      }
    }
    const found = (p: string): boolean => tryPath(`${p}.py`) || tryPath(`${p}.pyi`) || tryPath(`${p}/__init__.py`);
    for (const b of bases) {
      const p = rest ? (b ? `${b}/${rest}` : rest) : b;
      if (!p) continue;
      if (found(p)) break;
      // src layout: the package lives in src/ beside the importing tests or scripts.
      if (dots === 0 && rest && found(b ? `${b}/src/${rest}` : `src/${rest}`)) break;
    }
  }

  external(source: string): boolean {
    return !source.startsWith(".");
  }
}
