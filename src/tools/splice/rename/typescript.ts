/**
 * TypeScript/JavaScript rename: the TypeScript language service's findRenameLocations, in the
 * file's own project (nearest tsconfig.json, or jsconfig.json for JavaScript; a solution-style
 * config resolves to the referenced project that owns the file; projects that reference it are
 * searched too), with the project's own `typescript` package when it has one.
 *
 * A service stays warm per (typescript, tsconfig) in this module, keyed by the mtimes of the
 * config chain: a daemon that keeps the module loaded pays the program build once, and later
 * renames re-parse only files whose mtime (or overlay) changed.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type TS from "typescript";
import { defaultCompilerOptions } from "../../../lang/typescript-defaults.js";
import type { Diagnostic } from "../../../contract/schema.js";
import { renameError, renameNote } from "./codes.js";
import type { Sources } from "./sources.js";
import type { RenameLocation, RenamePlan, RenameTarget } from "./types.js";

type Ts = typeof TS;

interface Runtime {
  ts: Ts;
  path: string;
  /** true when the package came from the project, not from llmtools */
  own: boolean;
}

const runtimes = new Map<string, Runtime>();
const localRequire = createRequire(import.meta.url);

/** The project's `typescript` (resolved from its root, as its own tsc would be), else ours. */
export function typescriptFor(root: string): Runtime {
  let path: string;
  let own = true;
  try {
    path = createRequire(join(root, "package.json")).resolve("typescript");
  } catch {
    path = localRequire.resolve("typescript");
    own = false;
  }
  const ours = localRequire.resolve("typescript");
  if (path === ours) own = false;
  let rt = runtimes.get(path);
  if (!rt) {
    let ts = localRequire(path) as Ts;
    // A package too old for the rename API we use is not worth failing on: fall back to ours.
    if (typeof ts.createLanguageService !== "function" || Number(ts.versionMajorMinor.split(".")[0]) < 4) {
      ts = localRequire("typescript") as Ts;
      own = false;
    }
    rt = { ts, path, own };
    runtimes.set(path, rt);
  }
  return rt;
}

interface Config {
  file: string;
  parsed: TS.ParsedCommandLine;
  /** the config and every file it extends, with their mtimes when read */
  stamp: string;
}

function configStamp(files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        return `${f}@${statSync(f).mtimeMs}`;
      } catch {
        return `${f}@-`;
      }
    })
    .join("|");
}

const configCache = new Map<string, Config>();

function readConfig(ts: Ts, file: string): Config | undefined {
  const key = `${ts.version}\0${file}`;
  const hit = configCache.get(key);
  if (hit) {
    const files = [hit.file, ...((hit.parsed.options.configFile as TS.TsConfigSourceFile | undefined)?.extendedSourceFiles ?? [])];
    if (configStamp(files) === hit.stamp) return hit;
  }
  const errors: string[] = [];
  const host: TS.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => errors.push(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(file, {}, host);
  if (!parsed) return undefined;
  const files = [file, ...((parsed.options.configFile as TS.TsConfigSourceFile | undefined)?.extendedSourceFiles ?? [])];
  const c: Config = { file, parsed, stamp: configStamp(files) };
  configCache.set(key, c);
  return c;
}

function findUp(start: string, root: string, names: string[]): string | undefined {
  let dir = start;
  for (;;) {
    for (const n of names) {
      const f = join(dir, n);
      try {
        if (statSync(f).isFile()) return f;
      } catch {
        // not here
      }
    }
    if (dir === root || dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

function ownsFile(c: Config, abs: string): boolean {
  return c.parsed.fileNames.includes(abs);
}

/** Every config reachable by references from `c` (c included). */
function referenceClosure(ts: Ts, c: Config, seen = new Map<string, Config>()): Map<string, Config> {
  if (seen.has(c.file)) return seen;
  seen.set(c.file, c);
  for (const ref of c.parsed.projectReferences ?? []) {
    const sub = readConfig(ts, ts.resolveProjectReferencePath(ref));
    if (sub) referenceClosure(ts, sub, seen);
  }
  return seen;
}

/**
 * The file's project, and the projects whose programs also reach it through references (the
 * referencing side of a monorepo holds uses of the symbol that its own project never sees).
 */
function projectsFor(ts: Ts, root: string, abs: string, javascript: boolean): { primary: Config | undefined; others: Config[] } {
  const names = javascript ? ["jsconfig.json", "tsconfig.json"] : ["tsconfig.json"];
  let nearest = findUp(dirname(abs), root, names);
  let primary = nearest ? readConfig(ts, nearest) : undefined;
  // A config that does not allow JavaScript never holds a .js file (tsc and tsserver pass over
  // it): axios's tsconfig.json is for its .d.ts tests, and renaming a function of lib/utils.js
  // through it crashed the language service ("Could not find source file").
  while (javascript && nearest && primary && !primary.parsed.projectReferences?.length && !(primary.parsed.options.allowJs ?? primary.parsed.options.checkJs === true)) {
    const dir = dirname(nearest);
    nearest = dir === root || dirname(dir) === dir ? undefined : findUp(dirname(dir), root, names);
    primary = nearest ? readConfig(ts, nearest) : undefined;
  }
  if (primary && !ownsFile(primary, abs) && primary.parsed.projectReferences?.length) {
    for (const c of referenceClosure(ts, primary).values()) {
      if (ownsFile(c, abs)) {
        primary = c;
        break;
      }
    }
  }
  const others: Config[] = [];
  if (!primary) return { primary, others };
  const tops = new Set<string>();
  for (const n of ["tsconfig.json", "jsconfig.json"]) {
    const top = join(root, n);
    try {
      if (statSync(top).isFile()) tops.add(top);
    } catch {
      // none
    }
  }
  if (nearest) tops.add(nearest);
  const all = new Map<string, Config>();
  for (const t of tops) {
    const c = readConfig(ts, t);
    if (c) referenceClosure(ts, c, all);
  }
  for (const c of all.values()) {
    if (c.file === primary.file || c.parsed.fileNames.length === 0) continue;
    const closure = referenceClosure(ts, c);
    // A project that references the file's, or a sibling of the same solution that holds the
    // file too: hono's tsconfig.json references tsconfig.build.json (src, tests excluded) and
    // tsconfig.spec.json (src with its tests), and renaming HTTPException through the first
    // alone left it in 8 test files.
    if ([...closure.keys()].some((k) => k !== c.file && k === primary.file) || ownsFile(c, abs)) others.push(c);
  }
  // A monorepo whose packages each have a tsconfig.json (include: src) and whose root config
  // includes them all, joined by `paths`: the package's own program never sees the other
  // packages that import it; an enclosing config whose program holds the file does.
  const within = (d: string): boolean => d === root || d.startsWith(`${root}/`);
  for (let dir = dirname(dirname(primary.file)); within(dir); dir = dirname(dir)) {
    for (const n of names) {
      const f = join(dir, n);
      if (f === primary.file || others.some((o) => o.file === f)) continue;
      try {
        if (!statSync(f).isFile()) continue;
      } catch {
        continue;
      }
      const c = readConfig(ts, f);
      if (c && ownsFile(c, abs)) others.push(c);
    }
    if (dir === root || dirname(dir) === dir) break;
  }
  return { primary, others };
}

/**
 * One document registry per typescript package, shared by its services as tsserver shares one
 * across projects: the standard library and a monorepo's common files are parsed once. Overlay
 * versions are unique in the process, so two services never take each other's overlay for theirs.
 */
const registries = new Map<Ts, TS.DocumentRegistry>();
let overlayVersion = 0;

function registryFor(ts: Ts): TS.DocumentRegistry {
  let r = registries.get(ts);
  if (!r) {
    r = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames);
    registries.set(ts, r);
  }
  return r;
}

/** One warm language service: a project (or the inferred project of a file without one). */
class Service {
  readonly ls: TS.LanguageService;
  private readonly roots: Set<string>;
  private readonly overlay = new Map<string, { text: string; version: number }>();
  private readonly snapshots = new Map<string, { version: string; snap: TS.IScriptSnapshot }>();
  uses = 0;

  constructor(
    readonly ts: Ts,
    readonly config: Config | undefined,
    dir: string,
  ) {
    const options = config ? { ...config.parsed.options, noEmit: true } : defaultCompilerOptions(ts);
    this.roots = new Set();
    const cwd = config ? dirname(config.file) : dir;
    const host: TS.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => [...new Set([...(this.config?.parsed.fileNames ?? []), ...this.roots])],
      getScriptVersion: (f) => this.version(f),
      getScriptSnapshot: (f) => this.snapshot(f),
      getCurrentDirectory: () => cwd,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (f) => this.overlay.has(f) || ts.sys.fileExists(f),
      readFile: (f, enc) => this.overlay.get(f)?.text ?? ts.sys.readFile(f, enc),
      readDirectory: (...a) => ts.sys.readDirectory(...a),
      directoryExists: (d) => ts.sys.directoryExists(d),
      getDirectories: (d) => ts.sys.getDirectories(d),
      realpath: ts.sys.realpath ? (p) => ts.sys.realpath!(p) : undefined,
      useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
      getProjectReferences: () => config?.parsed.projectReferences,
      // As tsserver does: a referenced project is read from its sources, not its built .d.ts, so
      // uses across projects are found and no build output is needed.
      useSourceOfProjectReferenceRedirect: () => true,
      getParsedCommandLine: (f) => readConfig(ts, f)?.parsed,
    } as TS.LanguageServiceHost;
    this.ls = ts.createLanguageService(host, registryFor(ts));
  }

  private version(f: string): string {
    const o = this.overlay.get(f);
    if (o) return `o${o.version}`;
    try {
      const st = statSync(f);
      return `${st.mtimeMs}:${st.size}`;
    } catch {
      return "missing";
    }
  }

  private snapshot(f: string): TS.IScriptSnapshot | undefined {
    const o = this.overlay.get(f);
    if (o) return this.ts.ScriptSnapshot.fromString(o.text);
    const v = this.version(f);
    const hit = this.snapshots.get(f);
    if (hit && hit.version === v) return hit.snap;
    let bytes: Buffer;
    try {
      bytes = readFileSync(f);
    } catch {
      return undefined;
    }
    // The BOM stays in the text (TypeScript skips it as trivia) so offsets map to bytes 1:1.
    const snap = this.ts.ScriptSnapshot.fromString(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
    this.snapshots.set(f, { version: v, snap });
    return snap;
  }

  /** Makes exactly `overlays` visible (earlier ones that are gone again read from disk). */
  setOverlays(overlays: Map<string, string>, extraRoots: string[]): void {
    for (const f of [...this.overlay.keys()]) if (!overlays.has(f)) this.overlay.delete(f);
    for (const [f, text] of overlays) {
      if (this.overlay.get(f)?.text !== text) this.overlay.set(f, { text, version: ++overlayVersion });
    }
    for (const r of extraRoots) this.roots.add(r);
  }
}

const services = new Map<string, Service>();
const MAX_SERVICES = 8;

/**
 * The config's file list walked again: a file created since the service was built (by another
 * tool, or a commit) must be a root, or its uses of the symbol would be missed. ~50 ms for a
 * 1,841-file project.
 */
function refreshFileNames(ts: Ts, config: Config): void {
  const fresh = ts.getParsedCommandLineOfConfigFile(config.file, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (fresh) config.parsed = { ...config.parsed, fileNames: fresh.fileNames };
}

function serviceFor(rt: Runtime, config: Config | undefined, dir: string, refresh = true): { service: Service; warm: boolean } {
  const key = `${rt.path}\0${config ? `${config.file}\0${config.stamp}` : `inferred:${dir}`}`;
  let s = services.get(key);
  const warm = s !== undefined;
  if (s && config && refresh) refreshFileNames(rt.ts, config);
  if (!s) {
    // A config whose stamp changed leaves its old service behind: drop it.
    for (const [k, old] of services) {
      if (config && k.startsWith(`${rt.path}\0${config.file}\0`)) {
        old.ls.dispose();
        services.delete(k);
      }
    }
    if (services.size >= MAX_SERVICES) {
      const lru = [...services.entries()].sort((a, b) => a[1].uses - b[1].uses)[0];
      if (lru) {
        lru[1].ls.dispose();
        services.delete(lru[0]);
      }
    }
    s = new Service(rt.ts, config, dir);
    services.set(key, s);
  }
  s.uses = Date.now();
  return { service: s, warm };
}

/** Drops every warm service (tests, or a daemon told that the workspace changed wholesale). */
export function disposeTypeScriptServices(): void {
  for (const s of services.values()) s.ls.dispose();
  services.clear();
  configCache.clear();
  registries.clear();
}

const SCRIPT = /\.(c|m)?(t|j)sx?$/;

/** How many mentioning files become roots of a project-less program at most. */
const MENTION_LIMIT = 2000;

/**
 * Without a config the program holds the target alone, so its uses in other files are never
 * searched: renaming express's `exports.compileETag` (no jsconfig) changed the definition and
 * left `require('./utils').compileETag` and `utils.compileETag(...)` in three files, validated.
 * The workspace's scripts that mention the name join the program, as the pyright engine opens
 * them; the language service then follows their imports and requires to the target.
 */
function mentioningScripts(sources: Sources, name: string, except: string): { files: string[]; capped: boolean } {
  return sources.naming(name, (rel, abs) => SCRIPT.test(rel) && abs !== except && !rel.split("/").includes("node_modules"), MENTION_LIMIT);
}

/**
 * Scripts that mention the name and that none of the searched programs holds: the language
 * service never looked at them, so a use of the symbol there is left with the old name and no
 * checker of this change sees it break. drizzle-orm's `toCamelCase` (src/casing.ts, project
 * tsconfig.json: include src) is imported by tests/casing/casing.test.ts (its own
 * tests/tsconfig.json includes ../src) and by drizzle-kit through the package name: the rename
 * changed casing.ts alone and said nothing of the seven files left.
 */
function unsearchedMentions(ts: Ts, sources: Sources, name: string, abs: string, programs: TS.Program[]): { files: string[]; capped: boolean } {
  const { files, capped } = mentioningScripts(sources, name, abs);
  const seen = (f: string): boolean =>
    programs.some((p) => {
      const sf = p.getSourceFile(f);
      return sf !== undefined && !importsUnresolved(ts, p, sf, name);
    });
  return { files: files.filter((f) => !seen(f)), capped };
}

/**
 * The file imports `name` from a module that does not resolve in this program: drizzle's root
 * tsconfig.json holds every file, but without the package's `paths` (`~/casing`) or its
 * node_modules (`drizzle-orm/casing`), so the program held the importers and never tied their
 * `toCamelCase` to the renamed one.
 */
function importsUnresolved(ts: Ts, program: TS.Program, sf: TS.SourceFile, name: string): boolean {
  const checker = program.getTypeChecker();
  for (const st of sf.statements) {
    const named = ts.isImportDeclaration(st) ? st.importClause?.namedBindings : ts.isExportDeclaration(st) ? st.exportClause : undefined;
    const spec = ts.isImportDeclaration(st) || ts.isExportDeclaration(st) ? st.moduleSpecifier : undefined;
    if (!spec || checker.getSymbolAtLocation(spec) !== undefined) continue;
    if (named && (ts.isNamedImports(named) || ts.isNamedExports(named)) && named.elements.some((e) => (e.propertyName ?? e.name).text === name)) return true;
  }
  return false;
}

/**
 * The target is the member name of an assignment `obj.name = …` whose object the checker types
 * as `any`: express builds its API so (`var res = Object.create(http.ServerResponse.prototype)`,
 * then `res.sendStatus = function sendStatus(…) {…}`; Object.create returns `any`). No type ties
 * `res.sendStatus` to its uses, so the language service refuses it ("You cannot rename this
 * element") and the only way to find them is by name. Returns the object's text, else undefined.
 */
function untypedMemberAssignment(ts: Ts, program: TS.Program | undefined, abs: string, pos: number): string | undefined {
  const sf = program?.getSourceFile(abs);
  if (!program || !sf) return undefined;
  const find = (n: TS.Node): TS.Node | undefined => (n.getStart(sf) <= pos && pos < n.getEnd() ? (ts.forEachChild(n, find) ?? n) : undefined);
  const node = find(sf);
  const access = node?.parent;
  if (!node || !ts.isIdentifier(node) || !access || !ts.isPropertyAccessExpression(access) || access.name !== node) return undefined;
  const assign = access.parent;
  if (!ts.isBinaryExpression(assign) || assign.left !== access || assign.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
  const type = program.getTypeChecker().getTypeAtLocation(access.expression);
  return type.flags & ts.TypeFlags.Any ? access.expression.getText(sf) : undefined;
}

/**
 * `byName` plans the rename from magellan's index (name-tied uses refused unless allowed) when
 * the language service cannot tie the member to its uses at all (untypedMemberAssignment).
 */
export async function renameTypeScript(sources: Sources, target: RenameTarget, newName: string, byName?: (why: string) => RenamePlan): Promise<RenamePlan> {
  const t0 = performance.now();
  const abs = sources.abs(target.file);
  const rt = typescriptFor(sources.root);
  const { ts } = rt;
  const javascript = target.language === "javascript";
  const { primary, others } = projectsFor(ts, sources.root, abs, javascript);
  const overlays = new Map<string, string>();
  for (const [f, bytes] of sources.overlays) if (SCRIPT.test(f)) overlays.set(f, new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
  const extra = [abs, ...[...overlays.keys()].filter((f) => !primary || f.startsWith(dirname(primary.file) + "/"))];
  const mentions = primary ? { files: [], capped: false } : mentioningScripts(sources, target.name, abs);
  extra.push(...mentions.files);

  const { service, warm } = serviceFor(rt, primary, dirname(abs));
  service.setOverlays(overlays, extra);
  const text = sources.get(abs);
  if (!text) throw renameError("target_mismatch", `${target.file} does not exist`, "Give the file that holds the symbol's definition.", { file: target.file });
  const pos = text.byteToChar(target.byte_start);
  const at = text.text.slice(pos, text.byteToChar(target.byte_end));
  if (at !== target.name) {
    throw renameError("target_mismatch", `${target.file} holds '${at}' at bytes ${target.byte_start}..${target.byte_end}, not '${target.name}'`, "Re-read the symbol (magellan find) and rename again.", { file: target.file });
  }

  const info = service.ls.getRenameInfo(abs, pos, { allowRenameOfImportPath: false });
  if (!info.canRename) {
    const object = byName ? untypedMemberAssignment(ts, service.ls.getProgram(), abs, pos) : undefined;
    if (object !== undefined && byName) {
      return byName(`the TypeScript language service cannot rename '${target.name}' (${info.localizedErrorMessage}): it is assigned to '${object}', which has no type (any), so no type ties its uses to it`);
    }
    throw renameError("not_renameable", `the TypeScript language service refuses to rename '${target.name}': ${info.localizedErrorMessage}`, "Rename a symbol declared in the workspace (not in a library or the standard library).", { file: target.file });
  }
  const t1 = performance.now();
  const prefs = Number(ts.versionMajorMinor.split(".")[0]) >= 5 ? { providePrefixAndSuffixTextForRename: true } : true;
  const found = new Map<string, TS.RenameLocation>();
  const add = (locs: readonly TS.RenameLocation[] | undefined): void => {
    for (const l of locs ?? []) found.set(`${l.fileName}\0${l.textSpan.start}`, l);
  };
  add(service.ls.findRenameLocations(abs, pos, false, false, prefs as TS.UserPreferences));
  const diagnostics: Diagnostic[] = [];
  for (const c of others) {
    const other = serviceFor(rt, c, dirname(c.file)).service;
    other.setOverlays(overlays, []);
    add(other.ls.findRenameLocations(abs, pos, false, false, prefs as TS.UserPreferences));
    diagnostics.push(renameNote("referencing_project", ownsFile(c, abs) ? `also searched project ${sources.rel(c.file)}, which holds ${target.file} too` : `also searched project ${sources.rel(c.file)}, which references ${primary ? sources.rel(primary.file) : "the file's project"}`));
  }

  const programs = [service, ...others.map((c) => serviceFor(rt, c, dirname(c.file), false).service)].map((x) => x.ls.getProgram()).filter((p): p is TS.Program => p !== undefined);
  for (const key of keptPublicNameUses(ts, programs, found)) found.delete(key);

  const outside: string[] = [];
  const locations: RenameLocation[] = [];
  for (const l of found.values()) {
    const f = resolve(l.fileName);
    const ft = sources.get(f);
    if (!sources.inside(f) || f.includes("/node_modules/") || !ft) {
      outside.push(l.fileName);
      continue;
    }
    const start = ft.charToByte(l.textSpan.start);
    const end = ft.charToByte(l.textSpan.start + l.textSpan.length);
    locations.push({
      file: sources.rel(f),
      byte_start: start,
      byte_end: end,
      old_text: ft.text.slice(l.textSpan.start, l.textSpan.start + l.textSpan.length),
      new_text: `${l.prefixText ?? ""}${newName}${l.suffixText ?? ""}`,
      evidence: "language_server",
    });
  }
  if (outside.length) {
    throw renameError("outside_root", `renaming '${target.name}' would change files outside the workspace or in node_modules: ${[...new Set(outside)].slice(0, 5).join(", ")}`, "Rename only symbols that the workspace owns.", { file: target.file });
  }
  locations.sort((a, b) => (a.file === b.file ? a.byte_start - b.byte_start : a.file < b.file ? -1 : 1));

  const clash = findClash(ts, programs, abs, pos, [...found.values()], newName, sources);
  if (clash) {
    throw renameError("clash", `'${newName}' is already bound where '${target.name}' is used: ${clash}`, `Choose another name, or rename the other '${newName}' first.`, { file: target.file });
  }
  if (!primary) {
    diagnostics.push(
      renameNote(
        "no_project",
        `no ${javascript ? "jsconfig.json/tsconfig.json that allows JavaScript" : "tsconfig.json"} above ${target.file}: searched it with default options, with the ${mentions.files.length} other script(s) of the workspace that mention '${target.name}'`,
      ),
    );
    if (mentions.capped) diagnostics.push(renameNote("no_project", `more than ${MENTION_LIMIT} scripts mention '${target.name}': only the first ${MENTION_LIMIT} were searched`, "warning"));
  }
  // Only a name other files can use: a local, a parameter or a private member mentioned elsewhere
  // is another binding of the same spelling.
  const mods = info.kindModifiers.split(",");
  const member = ["method", "property", "getter", "setter", "enum member", "accessor"].includes(info.kind);
  const reachable = !mods.includes("private") && !target.name.startsWith("#") && (mods.includes("export") || member || locations.some((l) => l.file !== target.file));
  if (primary && reachable) {
    const unseen = unsearchedMentions(ts, sources, target.name, abs, programs);
    if (unseen.files.length) {
      const shown = unseen.files.slice(0, 10).map((f) => sources.rel(f));
      const more = unseen.files.length - shown.length;
      diagnostics.push(
        renameNote(
          "unsearched_mentions",
          `${unseen.files.length}${unseen.capped ? "+" : ""} file(s) mention '${target.name}' where no project searched (${[primary, ...others].map((c) => sources.rel(c.file)).join(", ")}) ties it to this symbol (the file is in none of them, or imports the name from a module that does not resolve there) and were left as they are: ${shown.join(", ")}${more > 0 ? `, and ${more} more` : ""}. Check whether they use this symbol (an import through another tsconfig or a package name) and rename those uses with splice edit or apply-files.`,
          "warning",
        ),
      );
    }
  }
  const total = performance.now() - t0;
  return {
    engine: rt.own ? "typescript-language-service (project's typescript)" : "typescript-language-service",
    engine_version: ts.version,
    locations,
    diagnostics,
    timing: { total_ms: Math.round(total), startup_ms: Math.round(t1 - t0), warm },
  };
}

/**
 * The locations (keys of `found`) that name the symbol through a re-export that keeps its public
 * name. The language service gives a barrel's `export { prettifyError }` the suffix
 * ` as prettifyError`, so the barrel still exports the old name, yet it also returned the uses
 * of that public name through a namespace import (zod's tests: `import * as z from "zod/v4"`,
 * `z.prettifyError(...)`), which then named an export that no longer exists (TS2339, and a
 * valid rename was rejected). A use whose symbol is the alias of such an export specifier keeps
 * its name.
 */
function keptPublicNameUses(ts: Ts, programs: TS.Program[], found: Map<string, TS.RenameLocation>): string[] {
  const kept = new Set<string>();
  for (const l of found.values()) if (l.prefixText || l.suffixText) kept.add(`${resolve(l.fileName)}\0${l.textSpan.start}`);
  if (kept.size === 0) return [];
  const out: string[] = [];
  for (const [key, l] of found) {
    if (l.prefixText || l.suffixText) continue;
    for (const program of programs) {
      const sf = program.getSourceFile(l.fileName);
      if (!sf) continue;
      const node = nodeAt(ts, sf, l.textSpan.start);
      const sym = node && ts.isIdentifier(node) ? program.getTypeChecker().getSymbolAtLocation(node) : undefined;
      const spec = sym && sym.flags & ts.SymbolFlags.Alias ? sym.declarations?.find(ts.isExportSpecifier) : undefined;
      if (spec && spec.getSourceFile() !== sf && kept.has(`${resolve(spec.getSourceFile().fileName)}\0${spec.name.getStart(spec.getSourceFile())}`)) out.push(key);
      break;
    }
  }
  return out;
}

/** The smallest node of `sf` whose span holds `pos` (an identifier at a rename location). */
function nodeAt(ts: Ts, sf: TS.SourceFile, pos: number): TS.Node | undefined {
  let best: TS.Node | undefined;
  const visit = (n: TS.Node): void => {
    if (pos < n.getStart(sf) || pos >= n.getEnd()) return;
    best = n;
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(sf, visit);
  return best;
}

function describe(ts: Ts, sources: Sources, decl: TS.Declaration): string {
  const sf = decl.getSourceFile();
  const { line } = ts.getLineAndCharacterOfPosition(sf, (ts.getNameOfDeclaration(decl) ?? decl).getStart(sf));
  return `${sources.inside(sf.fileName) ? sources.rel(sf.fileName) : sf.fileName}:${line + 1}`;
}

/**
 * A declaration named `newName` that the renamed symbol would collide with or be shadowed by:
 * a same-named member of the same class/interface/enum/object, another export of the module, or
 * a binding in scope at any location (in the declaring file or an importing one). A global from
 * a library counts only in files that use that name.
 */
function findClash(ts: Ts, programs: TS.Program[], abs: string, pos: number, locs: TS.RenameLocation[], newName: string, sources: Sources): string | undefined {
  const program = programs[0];
  if (!program) return undefined;
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(abs);
  if (!sf) return undefined;
  const node = nodeAt(ts, sf, pos);
  if (!node) return undefined;
  let symbol = checker.getSymbolAtLocation(node);
  if (!symbol) return undefined;
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  // Declarations by position, not node identity: a location may be checked in another program
  // (a project that references this one), whose nodes for the same text are other objects.
  const declKey = (d: TS.Node): string => `${d.getSourceFile().fileName}:${d.pos}`;
  const own = new Set<string>((symbol.declarations ?? []).map(declKey));
  const isOwn = (s: TS.Symbol): boolean => (s.declarations ?? []).some((d) => own.has(declKey(d)));
  const external = (s: TS.Symbol, p: TS.Program): boolean =>
    (s.declarations ?? []).every((d) => {
      const f = d.getSourceFile();
      return p.isSourceFileDefaultLibrary(f) || p.isSourceFileFromExternalLibrary(f) || f.fileName.includes("/node_modules/");
    });

  const memberKinds = ts.SymbolFlags.Property | ts.SymbolFlags.Method | ts.SymbolFlags.EnumMember | ts.SymbolFlags.GetAccessor | ts.SymbolFlags.SetAccessor;
  if (symbol.flags & memberKinds) {
    for (const d of symbol.declarations ?? []) {
      const parent = d.parent;
      if (!parent) continue;
      const t = checker.getTypeAtLocation(parent);
      const props = [...checker.getPropertiesOfType(t)];
      if (ts.isClassLike(parent) && parent.name) props.push(...checker.getPropertiesOfType(checker.getTypeOfSymbolAtLocation(checker.getSymbolAtLocation(parent.name)!, parent)));
      const clash = props.find((p) => p.name === newName && !isOwn(p));
      if (clash?.declarations?.[0]) return `${describe(ts, sources, clash.declarations[0])} (a member of the same type)`;
      const enumClash = ts.isEnumDeclaration(parent) ? parent.members.find((m) => m.name.getText() === newName) : undefined;
      if (enumClash) return describe(ts, sources, enumClash);
    }
    return undefined;
  }

  // Another export of the declaring module with the new name.
  for (const d of symbol.declarations ?? []) {
    const modSym = checker.getSymbolAtLocation(d.getSourceFile());
    if (!modSym) continue;
    const other = checker.getExportsOfModule(modSym).find((e) => e.name === newName && !isOwn(e));
    if (other?.declarations?.[0]) return `${describe(ts, sources, other.declarations[0])} (already exported by the same module)`;
  }

  const meaning = (symbol.flags & ts.SymbolFlags.Value ? ts.SymbolFlags.Value : 0) | (symbol.flags & ts.SymbolFlags.Type ? ts.SymbolFlags.Type : 0) | (symbol.flags & ts.SymbolFlags.Namespace ? ts.SymbolFlags.Namespace : 0) || ts.SymbolFlags.Value;
  const usesName = new Map<string, boolean>();
  for (const l of locs) {
    const lp = programs.find((p) => p.getSourceFile(l.fileName) !== undefined);
    const lsf = lp?.getSourceFile(l.fileName);
    if (!lp || !lsf) continue;
    const lchecker = lp.getTypeChecker();
    const n = nodeAt(ts, lsf, l.textSpan.start);
    if (!n) continue;
    // `export { a as b } from "m"` binds nothing in this file.
    if (n.parent && ts.isExportSpecifier(n.parent) && n.parent.parent.parent.moduleSpecifier) continue;
    // A property name in `{ a: x }` or `o.a` is not a binding either.
    if (n.parent && (ts.isPropertyAccessExpression(n.parent) || ts.isPropertyAssignment(n.parent)) && (n.parent as { name?: TS.Node }).name === n) continue;
    for (const s of lchecker.getSymbolsInScope(n, meaning)) {
      if (s.name !== newName || isOwn(s)) continue;
      if (s.flags & ts.SymbolFlags.Alias) {
        const target = lchecker.getAliasedSymbol(s);
        if (isOwn(target)) continue;
      }
      if (external(s, lp)) {
        let uses = usesName.get(lsf.fileName);
        if (uses === undefined) {
          uses = new RegExp(`(^|[^\\w$.])${newName.replace(/\$/g, "\\$")}(?![\\w$])`).test(lsf.text);
          usesName.set(lsf.fileName, uses);
        }
        if (!uses) continue;
      }
      const d = s.declarations?.[0];
      return d ? `${describe(ts, sources, d)} (in scope at ${sources.rel(lsf.fileName)}:${ts.getLineAndCharacterOfPosition(lsf, l.textSpan.start).line + 1})` : `a global '${newName}'`;
    }
  }
  return undefined;
}
