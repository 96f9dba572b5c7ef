/**
 * Import specifier -> indexed files, per language (one module per language, as the query files
 * under src/lang/queries/ are): the symbol resolver follows imports with it.
 */
import type { FileLookup } from "./files.js";
import { CModules } from "./c.js";
import { GoModules } from "./go.js";
import { JavaModules } from "./java.js";
import { PythonModules } from "./python.js";
import { RustModules } from "./rust.js";
import { TypeScriptModules } from "./typescript.js";

export class ModuleResolution {
  readonly ts;
  readonly python;
  readonly c;
  readonly java;
  readonly go;
  readonly rust;

  constructor(readonly files: FileLookup) {
    this.ts = new TypeScriptModules(files);
    this.python = new PythonModules(files);
    this.c = new CModules(files);
    this.java = new JavaModules(files);
    this.go = new GoModules(files);
    this.rust = new RustModules(files);
  }

  /** Files an import specifier can denote, for the languages whose module paths map to files. */
  resolve(language: string, fromPath: string, source: string, out: number[]): void {
    switch (language) {
      case "typescript":
      case "tsx":
      case "javascript":
        return this.ts.resolve(fromPath, source, out);
      case "python":
        return this.python.resolve(fromPath, source, out);
      case "c":
      case "cpp":
        return this.c.resolve(fromPath, source, out);
      case "java":
        return this.java.resolve(fromPath, source, out);
      case "go":
        return this.go.resolve(fromPath, source, out);
      case "rust":
        return this.rust.resolve(fromPath, source, out);
      default:
        return;
    }
  }

  /** An import specifier that names a library (not found in the repository and not one of its own paths). */
  external(language: string, fromPath: string, source: string): boolean {
    switch (language) {
      case "typescript":
      case "tsx":
      case "javascript":
        return this.ts.external(source);
      case "python":
        return this.python.external(source);
      case "go":
        return this.go.external(fromPath, source);
      case "java":
        return this.java.external();
      case "rust":
        return this.rust.external(source);
      default:
        return false;
    }
  }
}
