/** C/C++ `#include`: beside the including file, else any indexed file with that path suffix. */
import { posix } from "node:path";
import type { FileLookup } from "./files.js";

export class CModules {
  constructor(private readonly files: FileLookup) {}

  resolve(fromPath: string, source: string, out: number[]): void {
    if (!this.files.tryPath(posix.join(posix.dirname(fromPath), source), out)) this.files.suffixMatch(source, out);
  }

  external(): boolean {
    return false;
  }
}
