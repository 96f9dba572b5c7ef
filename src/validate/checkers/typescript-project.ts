/**
 * The TypeScript compiler for one project: a Program whose host serves the new content at the
 * file's real path and everything else from disk, so the file is checked in its project (the
 * nearest tsconfig.json / jsconfig.json) without being written. Runs inside the checker's worker
 * thread (ts-worker.ts). Parsed files are kept, and each check passes the previous Program as
 * `oldProgram`, so a second file, or the previous content of an overwrite, re-parses and re-binds
 * only the checked file.
 */
import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { defaultCompilerOptions } from "../../lang/typescript-defaults.js";
import { findUp } from "../process.js";
import { ts, type TS } from "./ts-compiler.js";

export class TsProject {
  /** Checked content by path: each is a root, served instead of the disk. */
  private readonly overlay = new Map<string, { text: string; file?: TS.SourceFile }>();
  /** Files a change deletes: absent for the program while the change is checked. */
  private readonly deleted = new Set<string>();
  /**
   * Files read from disk, parsed once (the same object each time, so a new Program reuses it),
   * and parsed again when the file's size or mtime moved: a long-lived session outlives commits.
   */
  private readonly disk = new Map<string, { sf: TS.SourceFile | undefined; stamp: string }>();
  readonly allFiles: string[];
  private readonly host: TS.CompilerHost;
  private program: TS.Program | undefined;
  readonly options: TS.CompilerOptions;
  private readonly roots: string[];
  readonly configFile: string | undefined;
  readonly configErrors: string[] = [];

  constructor(configFile: string | undefined, dir: string) {
    this.configFile = configFile;
    let options = defaultCompilerOptions(ts);
    let roots: string[] = [];
    if (configFile) {
      const parsed = parseConfig(configFile, this.configErrors);
      if (parsed) {
        options = { ...parsed.options, noEmit: true };
        roots = parsed.fileNames;
      }
    }
    this.options = options;
    this.allFiles = roots.filter((f) => !f.includes("/node_modules/"));
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
      fileExists: (f) => !this.deleted.has(f) && (this.overlay.has(f) || base.fileExists(f)),
      readFile: (f) => (this.deleted.has(f) ? undefined : (this.overlay.get(f)?.text ?? base.readFile(f))),
      getSourceFile: (f, languageVersionOrOptions) => {
        if (this.deleted.has(f)) return undefined;
        const o = this.overlay.get(f);
        if (o) {
          // The checked file's JSDoc is parsed as tsc parses it (for its @see/@link uses).
          o.file ??= ts.createSourceFile(f, o.text, jsDocMode(languageVersionOrOptions, ts.JSDocParsingMode?.ParseForTypeErrors));
          return o.file;
        }
        const stamp = fileStamp(f);
        const cached = this.disk.get(f);
        if (cached && cached.stamp === stamp) return cached.sf;
        // Every other file contributes declarations only; its own diagnostics are never asked
        // for. JSDoc in its .ts/.d.ts text cannot change a type (it can in JavaScript, which is
        // still parsed with its JSDoc): skipping it saves a fifth of the parse in a documented
        // code base such as effect.
        const text = base.readFile(f);
        const sf = text === undefined ? undefined : ts.createSourceFile(f, text, jsDocMode(languageVersionOrOptions, ts.JSDocParsingMode?.ParseForTypeInfo));
        this.disk.set(f, { sf, stamp });
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

  /**
   * Diagnostics of `check` (and the program's global ones) with `states` standing in for the disk:
   * a string is the file's content, null a file the change deletes. The states are forgotten
   * afterwards: a change that is then rejected must not linger in later checks.
   */
  checkStates(states: Map<string, string | null>, check: string[], reuse = false): TS.Diagnostic[] {
    const saved = new Map<string, { text: string; file?: TS.SourceFile } | undefined>();
    for (const [abs, text] of states) {
      saved.set(abs, this.overlay.get(abs));
      if (text === null) {
        this.overlay.delete(abs);
        this.deleted.add(abs);
      } else {
        this.deleted.delete(abs);
        if (this.overlay.get(abs)?.text !== text) this.overlay.set(abs, { text });
      }
    }
    try {
      const rootNames = [...new Set([...this.roots, ...this.overlay.keys(), ...check.filter((f) => !this.deleted.has(f))])];
      const program = ts.createProgram({ rootNames, options: this.options, host: this.host, oldProgram: this.program });
      this.program = program;
      const out: TS.Diagnostic[] = [...program.getGlobalDiagnostics(), ...program.getOptionsDiagnostics()];
      // The before-state of successive changes is usually the same disk (a session validating
      // one change after another): a file's diagnostics are taken from the last before-check
      // when every file of the program is as it was then.
      let cache: Map<string, TS.Diagnostic[]> | undefined;
      if (reuse) {
        const print = this.fingerprint(program);
        if (print !== this.beforeFingerprint) {
          this.beforeFingerprint = print;
          this.beforeDiagnostics.clear();
        }
        cache = this.beforeDiagnostics;
      }
      for (const abs of check) {
        const hit = cache?.get(abs);
        if (hit) {
          out.push(...hit);
          continue;
        }
        const file = program.getSourceFile(abs);
        if (!file) continue;
        const found = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
        if (this.options.declaration || this.options.composite) found.push(...program.getDeclarationDiagnostics(file));
        cache?.set(abs, found);
        out.push(...found);
      }
      return out;
    } finally {
      for (const [abs, was] of saved) {
        this.deleted.delete(abs);
        if (was) this.overlay.set(abs, was);
        else this.overlay.delete(abs);
      }
    }
  }

  private beforeFingerprint = "";
  private readonly beforeDiagnostics = new Map<string, TS.Diagnostic[]>();

  /** Every file of the program, by name and content (disk stamp, or the overlay's text). */
  private fingerprint(program: TS.Program): string {
    const h = createHash("sha256");
    for (const sf of program.getSourceFiles()) {
      const o = this.overlay.get(sf.fileName);
      h.update(sf.fileName).update("\u0000").update(o ? `text:${o.text}` : (this.disk.get(sf.fileName)?.stamp ?? "lib")).update("\u0000");
    }
    return h.digest("hex");
  }

  /**
   * Files of the project that may import one of `changed` (directly, or through files that
   * re-export them): a cheap textual pass over the project's sources for an import specifier
   * ending in a changed file's name. A superset is harmless (their diagnostics are diffed
   * before/after); missing a caller is not, hence the re-export closure.
   */
  importersOf(changed: string[], limit: number): { files: string[]; truncated: boolean } {
    const names = new Set<string>();
    // Names a `paths` alias gives a file of the closure ('@mikro-orm/core' → "core"), and the
    // names of what is found through them: a whole package's barrel, which hundreds of files
    // import (640 of mikro-orm's import '@mikro-orm/core': checking them all took over 9 minutes).
    // What is found only through them counts when it mentions a name the changed files export
    // (89 of those 640 mention `Utils`), imports the package whole (`* as`), or re-exports it.
    const aliasNames = new Set<string>();
    const aliases = this.pathAliases();
    const textOf = (f: string): string => {
      let t = texts.get(f);
      if (t === undefined) {
        t = ts.sys.readFile(f) ?? "";
        texts.set(f, t);
      }
      return t;
    };
    const texts = new Map<string, string>();
    const addNames = (abs: string, into: Set<string>): void => {
      const stem = basename(abs).replace(/\.(d\.)?[cm]?[jt]sx?$/, "");
      into.add(stem);
      // A directory's index is imported by the directory's name ("./money", "..").
      if (stem === "index") for (const n of [basename(dirname(abs)), ".", ".."]) into.add(n);
      // And by a `paths` alias that maps to it: mikro-orm's packages import their core as
      // '@mikro-orm/core' ("@mikro-orm/*": ["./packages/*/src"]), whose last segment is neither
      // the file's name nor its directory's.
      const bare = abs.replace(/\.(d\.)?[cm]?[jt]sx?$/, "");
      for (const a of aliases) {
        for (const at of stem === "index" ? [bare, dirname(abs)] : [bare]) {
          const m = a.target.exec(at);
          if (m) aliasNames.add(basename(a.key.replace("*", m[1] ?? "")));
        }
      }
    };
    for (const c of changed) addNames(c, names);
    const exported = new Set<string>();
    for (const c of changed) {
      const t = textOf(c);
      for (const m of t.matchAll(/^\s*export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:class|interface|type|enum|function\*?|const|let|var|namespace)\s+([\w$]+)/gm)) exported.add(m[1] as string);
      for (const m of t.matchAll(/^\s*export\s+(?:type\s+)?\{([^}]*)\}/gm)) for (const part of (m[1] as string).split(",")) {
        const name = /(?:\bas\s+)?([\w$]+)\s*$/.exec(part.trim())?.[1];
        if (name) exported.add(name);
      }
    }
    const mentions = exported.size > 0 ? new RegExp(`(?<![\\w$])(?:${[...exported].map(escapeRegExp).join("|")})(?![\\w$])`) : undefined;
    const REEXPORT = /^\s*export\s+(\*|\{[^}]*\}|type\s+\*|type\s+\{[^}]*\})\s*(as\s+\w+\s+)?from\b/m;
    const found = new Set<string>();
    const changedSet = new Set(changed);
    // The files whose names are in play: a specifier that matches a name by its last segment
    // counts when it resolves to one of them (or does not resolve). By name alone, the names an
    // index gives ("utils", ".", "..") matched 1,510 of the 1,843 files mikro-orm's root config
    // holds, and checking them took 14 minutes.
    const targets = new Set(changed);
    const cache = ts.createModuleResolutionCache(this.configFile ? dirname(this.configFile) : ts.sys.getCurrentDirectory(), (x) => x, this.options);
    const reaches = (f: string, t: string, pattern: RegExp): boolean => {
      for (const m of t.matchAll(/(?:from|import|require\s*\(|import\s*\()\s*['"]([^'"\n]+)['"]/g)) {
        const spec = m[1] as string;
        if (!pattern.test(`from '${spec}'`)) continue;
        const to = ts.resolveModuleName(spec, f, this.options, ts.sys, cache).resolvedModule?.resolvedFileName;
        if (to === undefined || targets.has(to)) return true;
      }
      return false;
    };
    for (let round = 0; round < 4; round++) {
      const pattern = importPattern(names);
      const viaAlias = importPattern(aliasNames);
      if (!pattern && !viaAlias) break;
      const fresh: string[] = [];
      const freshViaAlias: string[] = [];
      for (const f of this.allFiles) {
        if (found.has(f) || changedSet.has(f)) continue;
        const t = textOf(f);
        if (pattern?.test(t) && reaches(f, t, pattern)) fresh.push(f);
        else if (viaAlias?.test(t) && reaches(f, t, viaAlias) && (mentions === undefined || mentions.test(t) || /import\s+\*\s+as\b/.test(t) || REEXPORT.test(t))) freshViaAlias.push(f);
        else continue;
        found.add(f);
        if (found.size >= limit) return { files: [...found], truncated: true };
      }
      names.clear();
      aliasNames.clear();
      // Files that pass the changed module's types on: a re-export, or an exported class or
      // interface that extends one (hono's `export class Hono extends HonoBase`: deleting
      // HonoBase's `fire` broke `app.fire()` in hono.test.ts, which imports ./hono only).
      const passesOn = (f: string): boolean => REEXPORT.test(textOf(f)) || /^\s*export\s+(default\s+)?(abstract\s+)?(class|interface)\s+[\w$]+(\s*<[^{]*?>)?\s+extends\b/m.test(textOf(f));
      for (const [list, into] of [[fresh, names], [freshViaAlias, aliasNames]] as const) {
        for (const f of list) if (passesOn(f)) {
          addNames(f, into);
          targets.add(f);
        }
      }
      if (names.size === 0 && aliasNames.size === 0) break;
    }
    return { files: [...found], truncated: false };
  }

  /** The project's `paths` entries: each target as a pattern over absolute paths (its `*` captured). */
  private pathAliases(): { key: string; target: RegExp }[] {
    const paths = this.options.paths;
    if (!paths) return [];
    const base = (this.options as { pathsBasePath?: string }).pathsBasePath ?? this.options.baseUrl ?? (this.configFile ? dirname(this.configFile) : undefined);
    if (!base) return [];
    const out: { key: string; target: RegExp }[] = [];
    for (const [key, targets] of Object.entries(paths)) {
      if ((key.match(/\*/g) ?? []).length > 1) continue;
      for (const t of targets) {
        if ((t.match(/\*/g) ?? []).length > 1 || key.includes("*") !== t.includes("*")) continue;
        const abs = resolve(base, t).replace(/\.(d\.)?[cm]?[jt]sx?$/, "");
        out.push({ key, target: new RegExp(`^${abs.split("*").map(escapeRegExp).join("(.+)")}$`) });
      }
    }
    return out;
  }

  dispose(): void {
    this.program = undefined;
    this.disk.clear();
    this.overlay.clear();
  }
}

function fileStamp(f: string): string {
  try {
    const st = statSync(f);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return "absent";
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** An import/export/require specifier whose last path segment is one of `names` (any extension). */
function importPattern(names: Set<string>): RegExp | undefined {
  if (names.size === 0) return undefined;
  const alt = [...names].map(escapeRegExp).join("|");
  return new RegExp(`(?:from|import|require\\s*\\(|import\\s*\\()\\s*['"](?:[^'"\\n]*/)?(?:${alt})(?:\\.[cm]?[jt]sx?)?(?:/index(?:\\.[cm]?[jt]sx?)?)?['"]`, "m");
}

function jsDocMode(languageVersionOrOptions: TS.ScriptTarget | TS.CreateSourceFileOptions, mode: TS.JSDocParsingMode | undefined): TS.CreateSourceFileOptions {
  // JSDocParsingMode arrived in TypeScript 5.3: a project's older compiler parses JSDoc always.
  if (mode === undefined) return typeof languageVersionOrOptions === "object" ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
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
      onUnRecoverableConfigFileDiagnostic: (d) => own.push(`tsconfig could not be read: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`),
    };
    const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, host);
    for (const e of parsed?.errors ?? []) {
      const m = unresolvedExtends(e, configFile);
      if (m !== undefined) own.push(m);
    }
    c = { parsed, errors: own };
    configs.set(configFile, c);
  }
  errors.push(...c.errors);
  return c.parsed;
}

/**
 * TypeScript's recoverable complaint that an `extends` names nothing here (TS6053, "File
 * '@sindresorhus/tsconfig' not found": a shared config package not installed), said as what it
 * costs. TypeScript parses on without the extended options, and got's new file with an unused
 * local was "validated" under default options where the project's (noUnusedLocals, strict,
 * node16 resolution…) reject it.
 */
function unresolvedExtends(e: TS.Diagnostic, configFile: string): string | undefined {
  if (e.code !== 6053 && e.code !== 18001) return undefined;
  const text = e.file?.text;
  const start = e.start ?? -1;
  const head = text === undefined || start < 0 ? "" : text.slice(0, start);
  // (Only an `extends` value: its string or an element of its array.)
  if (!/"extends"\s*:\s*(\[[^\]]*)?$/.test(head)) return undefined;
  const spec = (text as string).slice(start, start + (e.length ?? 0)).replace(/^"|"$/g, "");
  const where = e.file?.fileName && e.file.fileName !== configFile ? ` (in ${e.file.fileName})` : "";
  return `tsconfig extends '${spec}'${where}, which does not resolve here (${ts.flattenDiagnosticMessageText(e.messageText, "\n")}): its options were NOT applied, so the check ran with other options than the project's. Install the project's dependencies (npm install) so that the config it extends is found.`;
}

/**
 * Every project a file belongs to: its project (projectConfigFor), and in a solution-style
 * config every other referenced project that includes the file too (hono: tsconfig.build.json
 * holds src without its tests, tsconfig.spec.json src with them, so a change checked in the
 * first alone never saw the tests that use it).
 */
export function projectConfigsFor(root: string, abs: string, javascript: boolean): (string | undefined)[] {
  const first = projectConfigFor(root, abs, javascript);
  const out: (string | undefined)[] = [first];
  const found = nearestConfig(root, abs, javascript);
  if (found && found.file !== first) {
    const parsed = parseConfig(found.file, []);
    if (parsed && parsed.fileNames.length === 0) {
      for (const ref of parsed.projectReferences ?? []) {
        const refFile = ts.resolveProjectReferencePath(ref);
        if (out.includes(refFile)) continue;
        if (parseConfig(refFile, [])?.fileNames.includes(abs)) out.push(refFile);
      }
    }
  }
  // A monorepo whose packages each have a tsconfig.json (include: src) and whose root config
  // holds them all, joined by `paths` (mikro-orm): the package's own program never sees the
  // other packages that import it, and a patch of core's Utils that broke a call in
  // packages/sql was validated. An enclosing config that holds the file does see them (as the
  // rename engine searches it: src/tools/splice/rename/typescript.ts).
  if (!found) return out;
  const names = javascript ? ["jsconfig.json", "tsconfig.json"] : ["tsconfig.json"];
  const within = (d: string): boolean => d === root || d.startsWith(`${root}/`);
  for (let dir = dirname(found.dir); within(dir); dir = dirname(dir)) {
    for (const n of names) {
      const f = join(dir, n);
      if (out.includes(f) || !existsSync(f)) continue;
      if (parseConfig(f, [])?.fileNames.includes(abs)) out.push(f);
    }
    if (dir === root || dirname(dir) === dir) break;
  }
  return out;
}

/**
 * The nearest config that can hold the file. A JavaScript file passes over a config that does
 * not allow JavaScript (`allowJs`, or `checkJs` which implies it), as tsc and tsserver do: that
 * project never compiles it. axios's tsconfig.json (for its .d.ts type tests) has no allowJs, and
 * every new lib/*.js was rejected for TS6504 "is a JavaScript file", while a change to an
 * existing one was "validated" with TS6504 before and after: nothing of it had been checked.
 */
function nearestConfig(root: string, abs: string, javascript: boolean): { dir: string; file: string } | undefined {
  const names = javascript ? ["jsconfig.json", "tsconfig.json"] : ["tsconfig.json"];
  for (let start = dirname(abs); ; ) {
    const found = findUp(start, root, names);
    if (!found || !javascript) return found;
    const parsed = parseConfig(found.file, []);
    const solution = parsed !== undefined && parsed.fileNames.length === 0 && (parsed.projectReferences?.length ?? 0) > 0;
    if (!parsed || solution || allowsJavaScript(parsed.options)) return found;
    if (found.dir === root || dirname(found.dir) === found.dir) return undefined;
    start = dirname(found.dir);
  }
}

/** TypeScript's own reading: `allowJs`, else true when `checkJs` is set. */
export function allowsJavaScript(options: TS.CompilerOptions): boolean {
  return options.allowJs ?? options.checkJs === true;
}

/** The project a file belongs to: nearest tsconfig.json (jsconfig.json for JavaScript) that can hold it, or none. */
export function projectConfigFor(root: string, abs: string, javascript: boolean): string | undefined {
  const found = nearestConfig(root, abs, javascript);
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

