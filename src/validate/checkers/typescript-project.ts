/**
 * The TypeScript compiler's LanguageService for one project. Its host serves the new content at
 * the file's real path and everything else from disk, so the file is checked in its project (the
 * nearest tsconfig.json / jsconfig.json) without being written. Runs inside the checker's worker
 * thread (ts-worker.ts); a second file, or the previous content of an overwrite, reuses the
 * parsed program instead of starting cold.
 */
import { dirname } from "node:path";
import ts from "typescript";
import { findUp } from "../process.js";

const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  allowJs: true,
  checkJs: false,
  skipLibCheck: true,
  noEmit: true,
  esModuleInterop: true,
  jsx: ts.JsxEmit.ReactJSX,
};

export class TsProject {
  private readonly overlay = new Map<string, { text: string; version: number }>();
  private readonly service: ts.LanguageService;
  readonly options: ts.CompilerOptions;
  private readonly roots: string[];
  readonly configFile: string | undefined;
  readonly configErrors: string[] = [];

  constructor(configFile: string | undefined, dir: string) {
    this.configFile = configFile;
    let options = DEFAULT_OPTIONS;
    let roots: string[] = [];
    if (configFile) {
      const parsed = parseConfig(configFile, this.configErrors);
      if (parsed) {
        options = { ...parsed.options, noEmit: true };
        roots = parsed.fileNames;
      }
    }
    this.options = options;
    // Only the project's scripts (files that are not modules, and modules that `declare global`)
    // are kept as roots besides the checked file: they carry the global declarations a module may
    // use without importing them; every module the checked file needs is reached through its
    // imports. Parsing every source of a 400k-line project to check one file costs seconds and
    // changes none of this file's diagnostics (module augmentations in files it never imports
    // excepted; see docs/llmfilewrite.md).
    this.roots = roots.filter((f) => !f.includes("/node_modules/") && contributesGlobals(f));
    const cwd = configFile ? dirname(configFile) : dir;
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [...this.roots, ...this.overlay.keys()],
      getScriptVersion: (f) => String(this.overlay.get(f)?.version ?? 0),
      getScriptSnapshot: (f) => {
        const o = this.overlay.get(f);
        if (o) return ts.ScriptSnapshot.fromString(o.text);
        const text = ts.sys.readFile(f);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => cwd,
      getCompilationSettings: () => this.options,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (f) => this.overlay.has(f) || ts.sys.fileExists(f),
      readFile: (f) => this.overlay.get(f)?.text ?? ts.sys.readFile(f),
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
      realpath: ts.sys.realpath,
      useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
      // As tsc does: JSDoc in .ts files is parsed only where it can carry type errors. Skipping
      // the rest cuts a cold check in a heavily documented project by more than half.
      jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, cwd, ts.JSDocParsingMode.ParseForTypeErrors));
  }

  /** Syntactic and semantic diagnostics of `text` standing at `abs`. */
  check(abs: string, text: string): ts.Diagnostic[] {
    const prev = this.overlay.get(abs);
    this.overlay.set(abs, { text, version: (prev?.version ?? 0) + 1 });
    return [...this.service.getSyntacticDiagnostics(abs), ...this.service.getSemanticDiagnostics(abs)];
  }

  dispose(): void {
    this.service.dispose();
  }
}

/** A file without top-level import/export is a script whose declarations are global. */
function contributesGlobals(file: string): boolean {
  const text = ts.sys.readFile(file) ?? "";
  return !/^\s*(export|import)\b/m.test(text) || /^\s*declare\s+global\b/m.test(text);
}

function parseConfig(configFile: string, errors: string[]): ts.ParsedCommandLine | undefined {
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => errors.push(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
  };
  return ts.getParsedCommandLineOfConfigFile(configFile, {}, host);
}

/** The project a file belongs to: nearest tsconfig.json (jsconfig.json for JavaScript), or none. */
export function projectConfigFor(root: string, abs: string, javascript: boolean): string | undefined {
  const names = javascript ? ["jsconfig.json", "tsconfig.json"] : ["tsconfig.json"];
  const found = findUp(dirname(abs), root, names);
  if (!found) return undefined;
  // A solution-style config (`files: []` plus references) owns nothing itself: use the
  // referenced project that includes the file.
  const errors: string[] = [];
  const parsed = parseConfig(found.file, errors);
  if (parsed && parsed.fileNames.length === 0 && parsed.projectReferences?.length) {
    for (const ref of parsed.projectReferences) {
      const refFile = ts.resolveProjectReferencePath(ref);
      const sub = parseConfig(refFile, []);
      if (sub?.fileNames.includes(abs)) return refFile;
    }
  }
  return found.file;
}

