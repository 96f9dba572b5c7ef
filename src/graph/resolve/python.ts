/** Python module names: relative (`..pkg`), absolute from the root or an ancestor that is no package, src layout. */
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
      // A source root other than the workspace root: the importing file's ancestors that are no
      // package. A package's own directory is never on sys.path (Python 3 has no implicit
      // relative import): `import typing` in src/flask/config.py is the standard library's,
      // not src/flask/typing.py. A script's or a test's directory without __init__.py is (the
      // script's directory, pytest's rootdir-relative basedir).
      const probe: number[] = [];
      let d = dir;
      while (d !== "." && d !== "") {
        if (!this.files.tryPath(`${d}/__init__.py`, probe)) bases.push(d);
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
