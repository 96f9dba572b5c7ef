/**
 * The TypeScript compiler for one project: a Program whose host serves the new content at the
 * file's real path and everything else from disk, so the file is checked in its project (the
 * nearest tsconfig.json / jsconfig.json) without being written. Runs inside the checker's worker
 * thread (ts-worker.ts). Parsed files are kept, and each check passes the previous Program as
 * `oldProgram`, so a second file, or the previous content of an overwrite, re-parses and re-binds
 * only the checked file.
 */
import { dirname } from "node:path";
import { findUp } from "../process.js";
import { ts, type TS } from "./ts-compiler.js";

const DEFAULT_OPTIONS: TS.CompilerOptions = {
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
  /** Checked content by path: each is a root, served instead of the disk. */
  private readonly overlay = new Map<string, { text: string; file?: TS.SourceFile }>();
  /** Files read from disk, parsed once (the same object each time, so a new Program reuses it). */
  private readonly disk = new Map<string, TS.SourceFile | undefined>();
  private readonly host: TS.CompilerHost;
  private program: TS.Program | undefined;
  readonly options: TS.CompilerOptions;
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
    const base = ts.createCompilerHost(options);
    this.host = {
      ...base,
      getCurrentDirectory: () => cwd,
      fileExists: (f) => this.overlay.has(f) || base.fileExists(f),
      readFile: (f) => this.overlay.get(f)?.text ?? base.readFile(f),
      getSourceFile: (f, languageVersionOrOptions) => {
        const o = this.overlay.get(f);
        if (o) {
          // The checked file's JSDoc is parsed as tsc parses it (for its @see/@link uses).
          o.file ??= ts.createSourceFile(f, o.text, jsDocMode(languageVersionOrOptions, ts.JSDocParsingMode.ParseForTypeErrors));
          return o.file;
        }
        if (this.disk.has(f)) return this.disk.get(f);
        // Every other file contributes declarations only; its own diagnostics are never asked
        // for. JSDoc in its .ts/.d.ts text cannot change a type (it can in JavaScript, which is
        // still parsed with its JSDoc): skipping it saves a fifth of the parse in a documented
        // code base such as effect.
        const text = base.readFile(f);
        const sf = text === undefined ? undefined : ts.createSourceFile(f, text, jsDocMode(languageVersionOrOptions, ts.JSDocParsingMode.ParseForTypeInfo));
        this.disk.set(f, sf);
        return sf;
      },
    };
  }

  /** Syntactic and semantic diagnostics of `text` standing at `abs`. */
  check(abs: string, text: string): TS.Diagnostic[] {
    if (this.overlay.get(abs)?.text !== text) this.overlay.set(abs, { text });
    const program = ts.createProgram({ rootNames: [...this.roots, ...this.overlay.keys()], options: this.options, host: this.host, oldProgram: this.program });
    this.program = program;
    const file = program.getSourceFile(abs);
    if (!file) throw new Error(`the TypeScript program did not take ${abs} (is its extension one the project's options allow?)`);
    const out = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    // As the LanguageService and tsc do: a project that emits declarations also has their errors.
    if (this.options.declaration || this.options.composite) out.push(...program.getDeclarationDiagnostics(file));
    return out;
  }

  dispose(): void {
    this.program = undefined;
    this.disk.clear();
    this.overlay.clear();
  }
}

function jsDocMode(languageVersionOrOptions: TS.ScriptTarget | TS.CreateSourceFileOptions, mode: TS.JSDocParsingMode): TS.CreateSourceFileOptions {
  return typeof languageVersionOrOptions === "object" ? { ...languageVersionOrOptions, jsDocParsingMode: mode } : { languageVersion: languageVersionOrOptions, jsDocParsingMode: mode };
}

/** A file without top-level import/export is a script whose declarations are global. */
function contributesGlobals(file: string): boolean {
  const text = ts.sys.readFile(file) ?? "";
  return !/^\s*(export|import)\b/m.test(text) || /^\s*declare\s+global\b/m.test(text);
}

/**
 * A tsconfig read once per worker (it lists the include set: a directory walk of the whole
 * project), for both finding the file's project and making it; its unrecoverable errors go to
 * `errors` every time it is asked for.
 */
const configs = new Map<string, { parsed: TS.ParsedCommandLine | undefined; errors: string[] }>();

function parseConfig(configFile: string, errors: string[]): TS.ParsedCommandLine | undefined {
  let c = configs.get(configFile);
  if (!c) {
    const own: string[] = [];
    const host: TS.ParseConfigFileHost = {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => own.push(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    };
    c = { parsed: ts.getParsedCommandLineOfConfigFile(configFile, {}, host), errors: own };
    configs.set(configFile, c);
  }
  errors.push(...c.errors);
  return c.parsed;
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

