/**
 * The native add-ons every tool stands on (SQLite, the tree-sitter runtime and its grammars) are
 * built for the machine by their install scripts. When one does not load, that is the install's
 * fault, not a bug of ours: npm 12 and later skip a dependency's install script unless it was
 * allowed, and a prebuilt binary can need a newer C++ runtime than the machine has. Each tool
 * then answers `<TOOL>_E017 native_unavailable`, naming the package and the way out, instead of
 * an internal error with a stack trace.
 */
import { commonCode } from "./codes.js";
import { EXIT, ToolError } from "./errors.js";

/** Every dependency with an install script that builds or fetches an add-on, as npm names them. */
export const NATIVE_PACKAGES = [
  "better-sqlite3",
  "tree-sitter",
  "tree-sitter-c",
  "tree-sitter-cpp",
  "tree-sitter-go",
  "tree-sitter-java",
  "tree-sitter-javascript",
  "tree-sitter-python",
  "tree-sitter-rust",
  "tree-sitter-typescript",
] as const;

const NATIVE_ERROR = Symbol.for("llmtools.NativeModuleError");

export class NativeModuleError extends Error {
  /** By a registered symbol, as ToolError: each bundled CLI carries its own copy of this class. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[NATIVE_ERROR] === true;
  }

  constructor(
    readonly pkg: string,
    readonly reason: string,
  ) {
    super(`the native add-on of ${pkg} could not be loaded: ${reason}`);
    this.name = "NativeModuleError";
    Object.defineProperty(this, NATIVE_ERROR, { value: true });
  }
}

/**
 * What a failed load of a compiled add-on looks like: the dynamic loader refused it (a missing
 * symbol, another Node's ABI) or a finder found no build (`bindings`, `node-gyp-build`).
 */
export function isAddonLoadFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if ((err as NodeJS.ErrnoException).code === "ERR_DLOPEN_FAILED") return true;
  return /Could not locate the bindings file|No native build was found|NODE_MODULE_VERSION|invalid ELF header|cannot open shared object file/.test(err.message);
}

/** Runs a require of a native package; any failure of it becomes a NativeModuleError. */
export function loadNative<T>(pkg: string, load: () => T): T {
  try {
    return load();
  } catch (e) {
    throw new NativeModuleError(pkg, firstLine(e));
  }
}

/** The first line of an error's message: the loader's reason, without the paths it tried. */
export function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split("\n", 1)[0] as string;
}

/** The envelope's error for a tool whose add-on did not load; undefined for any other error. */
export function nativeFault(tool: string, err: unknown): ToolError | undefined {
  if (!(err instanceof NativeModuleError)) return undefined;
  const list = NATIVE_PACKAGES.join(",");
  return new ToolError({
    code: commonCode(tool, "native_unavailable"),
    error: "native_unavailable",
    message: err.message,
    remediation:
      `${err.pkg} is built for this machine by its install script, which did not run or built for another Node. ` +
      `npm 12 and later run dependency install scripts only when allowed: reinstall with \`npm install -g llmtools --allow-scripts=${list}\` ` +
      `(in a project: \`npm approve-scripts --no-allow-scripts-pin ${NATIVE_PACKAGES.join(" ")}\`, then \`npm rebuild\`). ` +
      "Building needs python3, make and a C++ compiler (README, Installing).",
    exitCode: EXIT.failure,
  });
}
