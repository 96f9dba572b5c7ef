/**
 * Where the tree-sitter runtime is loaded from. The package depends on it under an npm alias,
 * `"@llmtools/tree-sitter": "npm:tree-sitter@…"`: the published grammars declare optional peer
 * ranges on older runtimes (^0.21, ^0.22), and a dependency named `tree-sitter` makes npm, in
 * a user's install (where our `overrides` do not apply), warn about each and even add a second,
 * unused copy of the runtime. Under the alias the grammars see no runtime, which their optional
 * peer allows. The plain name is the fallback for a tree installed before the alias.
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type Parser from "tree-sitter";
import { NativeModuleError, loadNative } from "../contract/native.js";

const NAMES = ["@llmtools/tree-sitter", "tree-sitter"];
const req = createRequire(import.meta.url);
let dir: string | undefined;

/** The installed runtime package's directory. */
export function treeSitterDir(): string {
  if (dir !== undefined) return dir;
  for (const name of NAMES) {
    try {
      dir = dirname(req.resolve(`${name}/package.json`));
      return dir;
    } catch {
      // not installed under this name
    }
  }
  throw new NativeModuleError("tree-sitter", `the runtime is not installed (looked for ${NAMES.join(", ")})`);
}

/** The runtime module (one instance however it is reached: Node caches it by file). */
export function loadTreeSitter(): typeof Parser {
  const where = treeSitterDir();
  return loadNative("tree-sitter", () => req(where) as typeof Parser);
}
