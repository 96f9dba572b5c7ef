/**
 * The project checker of each language, checking one file's content as if it stood at its path
 * (validate() and validateChange()'s per-file path share it). Loaded on demand: the TypeScript
 * compiler alone takes most of a second to load.
 */
import type { LanguageId } from "../../lang/registry.js";
import type { Checker } from "./common.js";

export const FILE_CHECKERS: Record<LanguageId, () => Promise<Checker>> = {
  typescript: async () => (await import("./typescript.js")).checkTypeScript,
  tsx: async () => (await import("./typescript.js")).checkTypeScript,
  javascript: async () => (await import("./typescript.js")).checkTypeScript,
  python: async () => (await import("./python.js")).checkPython,
  c: async () => (await import("./c.js")).checkC,
  cpp: async () => (await import("./c.js")).checkC,
  java: async () => (await import("./java.js")).checkJava,
  rust: async () => (await import("./rust.js")).checkRust,
  go: async () => (await import("./go.js")).checkGo,
};
