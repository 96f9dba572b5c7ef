/**
 * Reference targets from the TypeScript language service (`--precise`): for a position in a
 * TS/JS file, where its definition is, as a root-relative path and a UTF-8 byte offset (the
 * index's coordinates; the service counts UTF-16 code units).
 *
 * One service per tsconfig.json (jsconfig.json for JavaScript) found upward from the file, kept
 * warm in this module: a daemon that keeps it loaded builds each program once, and later
 * questions re-read only files whose mtime changed. A file no config owns is added to its
 * nearest config's service as an extra root (or to one inferred project per root), so every
 * TS/JS file gets an answer.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import type TS from "typescript";

type Ts = typeof TS;
const ts = createRequire(import.meta.url)("typescript") as Ts;

export const PRECISE_EXTENSIONS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

interface Project {
  options: TS.CompilerOptions;
  files: Set<string>;
  service: TS.LanguageService;
  versions: Map<string, string>;
}

export interface Definition {
  /** root-relative, or undefined when the definition is outside the root (a library, lib.d.ts) */
  path: string | undefined;
  abs: string;
  /** byte offset of the definition's name in the file */
  byte: number;
  name: string;
  kind: string;
}

/** UTF-16 <-> UTF-8 offsets of one file's text. */
class Offsets {
  readonly text: string;
  private readonly ascii: boolean;
  constructor(readonly buf: Buffer) {
    this.text = buf.toString("utf8");
    this.ascii = this.text.length === buf.length;
  }
  charOf(byte: number): number {
    return this.ascii ? byte : this.buf.subarray(0, byte).toString("utf8").length;
  }
  byteOf(char: number): number {
    return this.ascii ? char : Buffer.byteLength(this.text.slice(0, char), "utf8");
  }
}

export class PreciseTs {
  private readonly projects = new Map<string, Project>();
  private readonly texts = new Map<string, Offsets>();
  /** Bumped per file on each change notice: a version that changes even when mtime and size do not. */
  private readonly generations = new Map<string, number>();
  /** Config files read to build the services (tsconfig.json, jsconfig.json and what they extend). */
  private readonly configs = new Set<string>();
  /** questions asked, and how many had a definition */
  asked = 0;
  answered = 0;

  /**
   * `lazy` (a long-lived worker): a program starts from its config's declaration files and grows
   * by the files questions are asked in (with what they import), so that memory follows what is
   * asked; `prepare` adds a batch's files at once (one program update, not one per file).
   * Otherwise (a one-shot process) the whole config's program, as tsc builds it.
   */
  constructor(
    readonly root: string,
    private readonly lazy = false,
  ) {}

  /** Adds the files of the coming questions to their programs in one step (lazy mode). */
  prepare(rels: readonly string[]): void {
    for (const rel of new Set(rels)) {
      const abs = resolve(this.root, rel);
      if (this.offsets(abs)) this.project(abs);
    }
  }

  /**
   * Bumped whenever a file's version may have changed: the language service re-checks every
   * file of its program only when this moves (without it, each question re-checked thousands).
   */
  private projectVersion = 0;

  /** Forget file versions and texts: the next questions see the files as they are now. */
  refresh(): void {
    this.texts.clear();
    for (const p of this.projects.values()) p.versions.clear();
    this.projectVersion++;
  }

  /** These files (absolute) changed: their next version differs whatever their stat says. */
  changed(paths: readonly string[]): void {
    for (const f of paths) {
      this.generations.set(f, (this.generations.get(f) ?? 0) + 1);
      this.texts.delete(f);
      for (const p of this.projects.values()) p.versions.delete(f);
    }
    this.projectVersion++;
  }

  /**
   * The directories of the programs' source files, the compiler's own lib files aside (they
   * change only with the compiler, which a new worker brings): what a watcher must cover for
   * the versions to be trusted without a stat of every file.
   */
  sourceDirs(): string[] {
    const dirs = new Set<string>();
    for (const p of this.projects.values()) {
      const program = p.service.getProgram();
      if (!program) continue;
      const lib = dirname(ts.getDefaultLibFilePath(p.options));
      for (const sf of program.getSourceFiles()) {
        const d = dirname(resolve(sf.fileName));
        if (d !== lib) dirs.add(d);
      }
    }
    return [...dirs].sort();
  }

  /** How many source files the programs hold (changes when a question adds a file to one, or a rebuild drops some). */
  sourceFileCount(): number {
    let n = 0;
    for (const p of this.projects.values()) n += p.service.getProgram()?.getSourceFiles().length ?? 0;
    return n;
  }

  /** The config files the services were built from: a change to one calls for new services. */
  configFiles(): string[] {
    return [...this.configs];
  }

  private offsets(abs: string): Offsets | undefined {
    let o = this.texts.get(abs);
    if (!o) {
      try {
        o = new Offsets(readFileSync(abs));
      } catch {
        return undefined;
      }
      this.texts.set(abs, o);
    }
    return o;
  }

  private configFor(abs: string): string | undefined {
    const names = /\.(js|jsx|mjs|cjs)$/.test(abs) ? ["jsconfig.json", "tsconfig.json"] : ["tsconfig.json", "jsconfig.json"];
    for (let dir = dirname(abs); ; dir = dirname(dir)) {
      for (const n of names) {
        try {
          if (statSync(join(dir, n)).isFile()) return join(dir, n);
        } catch {
          // not here
        }
      }
      if (dir === this.root || dirname(dir) === dir || !dir.startsWith(this.root)) return undefined;
    }
  }

  private project(abs: string): Project {
    const config = this.configFor(abs);
    const key = config ?? `<inferred>${this.root}`;
    let p = this.projects.get(key);
    if (!p) {
      let options: TS.CompilerOptions = { allowJs: true, checkJs: false, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, jsx: ts.JsxEmit.Preserve, noEmit: true };
      let files: string[] = [];
      if (config) {
        this.configs.add(config);
        const readFile = (f: string): string | undefined => {
          if (/\.json$/.test(f)) this.configs.add(resolve(f));
          return ts.sys.readFile(f);
        };
        const parsed = ts.getParsedCommandLineOfConfigFile(config, { noEmit: true }, { ...ts.sys, readFile, onUnRecoverableConfigFileDiagnostic: () => undefined });
        if (parsed) {
          options = { ...parsed.options, allowJs: parsed.options.allowJs ?? /jsconfig\.json$/.test(config) };
          files = parsed.fileNames.map((f) => resolve(f));
        }
      }
      // Lazy: the config's declaration files (ambient and global declarations every file sees),
      // then the files questions are asked in, with what they import: a question about src/
      // never holds test/'s 2,400 files in memory (typeorm: the whole program is ~490 MB of heap).
      const proj: Project = { options, files: new Set(this.lazy ? files.filter((f) => /\.d\.[cm]?ts$/.test(f)) : files), versions: new Map(), service: undefined as unknown as TS.LanguageService };
      const host: TS.LanguageServiceHost = {
        getProjectVersion: () => String(this.projectVersion),
        getScriptFileNames: () => [...proj.files],
        getScriptVersion: (f) => {
          let v = proj.versions.get(f);
          if (v === undefined) {
            const gen = this.generations.get(f) ?? 0;
            try {
              const st = statSync(f);
              v = `${gen}:${st.mtimeMs}:${st.size}`;
            } catch {
              v = `${gen}:gone`;
            }
            proj.versions.set(f, v);
          }
          return v;
        },
        getScriptSnapshot: (f) => {
          const text = ts.sys.readFile(f);
          return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
        },
        getCurrentDirectory: () => (config ? dirname(config) : this.root),
        getCompilationSettings: () => proj.options,
        getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
        fileExists: ts.sys.fileExists,
        readFile: ts.sys.readFile,
        readDirectory: ts.sys.readDirectory,
        directoryExists: ts.sys.directoryExists,
        getDirectories: ts.sys.getDirectories,
        realpath: ts.sys.realpath,
        useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
      };
      proj.service = ts.createLanguageService(host, ts.createDocumentRegistry());
      p = proj;
      this.projects.set(key, p);
    }
    if (!p.files.has(abs)) {
      p.files.add(abs);
      this.projectVersion++;
    }
    return p;
  }

  /** Answers given while no file changed (the project version held): the same question, the same answer. */
  private readonly answers = new Map<string, Definition | undefined>();
  private answersVersion = -1;

  /** The definition the identifier at `byte` in `rel` goes to, or undefined when the service knows none. */
  definition(rel: string, byte: number): Definition | undefined {
    if (this.answersVersion !== this.projectVersion) {
      this.answers.clear();
      this.answersVersion = this.projectVersion;
    }
    const key = `${byte}:${rel}`;
    if (this.answers.has(key)) {
      const known = this.answers.get(key);
      this.asked++;
      if (known) this.answered++;
      return known;
    }
    const d = this.lookUp(rel, byte);
    // A question can add its file to a program (a new project version): not kept then.
    if (this.answersVersion === this.projectVersion) this.answers.set(key, d);
    return d;
  }

  private lookUp(rel: string, byte: number): Definition | undefined {
    const abs = resolve(this.root, rel);
    const from = this.offsets(abs);
    if (!from) return undefined;
    this.asked++;
    const p = this.project(abs);
    let defs: readonly TS.DefinitionInfo[] | undefined;
    try {
      defs = p.service.getDefinitionAtPosition(abs, from.charOf(byte));
    } catch {
      return undefined;
    }
    const d = defs?.[0];
    if (!d) return undefined;
    this.answered++;
    const target = resolve(d.fileName);
    const to = this.offsets(target);
    if (!to) return undefined;
    const r = relative(this.root, target);
    const inside = !r.startsWith("..") && !r.includes(`node_modules${sep}`) && !r.startsWith(`node_modules${sep}`);
    return { path: inside ? r.split(sep).join("/") : undefined, abs: target, byte: to.byteOf(d.textSpan.start), name: d.name, kind: d.kind };
  }
}

const warm = new Map<string, PreciseTs>();

/** The warm service set of a root (one per process). */
export function preciseFor(root: string): PreciseTs {
  let p = warm.get(root);
  if (!p) warm.set(root, (p = new PreciseTs(root)));
  return p;
}
