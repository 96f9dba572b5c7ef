/**
 * Resolution of a reference to the symbol it names: lexical scope first, then what the file
 * imports, then a unique global name. Every edge records how it was resolved; when several
 * symbols could be meant, none is chosen and all are listed (`ambiguous`), so an edge is never
 * silently wired to the wrong same-named symbol.
 */
import { posix } from "node:path";
import type { DB } from "./db.js";
import { languageFamily, moduleName } from "./facts.js";
import { SqlFileLookup } from "./resolve/files.js";
import { ModuleResolution } from "./resolve/modules.js";

import { AMBIGUOUS, type FileCtx, type ImportIndex, type ImportInfo, type NameEntry, NO_CANDIDATES, NO_IDS, type Outcome, REF_COLUMNS, type RefRow, type Resolution, type SymRow, type SymTuple, UNRESOLVED } from "./resolve/model.js";
import { rustChildDir } from "./resolve/rust.js";
import { LazyCtx } from "./resolve/context.js";
import { BODY_KINDS, BUILTIN_MEMBERS, callTargets, candidatesSql, canNameType, CONTAINER_KINDS, current, fitCall, GO_BUILD, inFamily, isTypeRow, MAX_CANDIDATES, MEMBER_KINDS, MEMBERS_QUALIFIED, membersOfType, moduleStems, nearPick, pick, push, qualifierHead, REEXPORT_LANGUAGES, refCannotNameMethod, rustValueCall, SELF_QUALIFIERS, TS_NOT_CALLED, TS_NOT_TYPES, TYPE_KINDS, TYPE_NAMED, UNIVERSAL_MEMBERS, VALUE_TYPE_LANGUAGES, weaker } from "./resolve/rules.js";
import { literalValue, receiverTypeName, writtenType } from "./resolve/receiver-types.js";
import { type Chain, type ChainStep, FIELD_PATH, chainOf, isChainMarker, readChainMarker } from "../lang/type-text.js";

// What the index's other parts take from resolution.
export type { RefRow, Resolution } from "./resolve/model.js";
export { FIELDS_NEVER_CALLED, moduleStems, refCannotNameMethod, TYPE_KINDS } from "./resolve/rules.js";
export { writtenType } from "./resolve/receiver-types.js";


/**
 * A C or C++ macro defined inside a struct's body, or a C enumerator of a named enum: no member,
 * a name of the file scope (the preprocessor knows no struct; C's enumerators are in the scope
 * that encloses their enum). tmux defines its flags beside the fields they go in (`struct window
 * { int flags; #define WINDOW_BELL 0x1 ... }`) and names its enums (`enum cmd_retval {
 * CMD_RETURN_NORMAL = 0, ... }`): all 184 `return (CMD_RETURN_NORMAL);` and every flag read were
 * unresolved. (C++'s `enum class` enumerators are scoped; an unscoped C++ enum is not told apart
 * from one, so C++ enumerators stay members.)
 */
function cScoped(s: SymRow): boolean {
  if (s.parent_symbol_id === null) return false;
  if (s.kind_normalized === "macro") return s.language === "c" || s.language === "cpp";
  return s.kind_normalized === "variant" && s.language === "c" && s.parent_kind === "enum";
}

export class Resolver {
  private readonly byName;
  private readonly byNames;
  private readonly fileById;
  private readonly importsOf;
  private readonly parentsOf;
  private readonly modules: ModuleResolution;
  private readonly update;
  private readonly nameCache = new Map<string, SymRow[]>();
  private readonly entries = new Map<string, NameEntry>();
  private readonly moduleCache = new Map<string, number[]>();
  private readonly ctxCache = new Map<number, FileCtx>();

  /**
   * `root` is the workspace on disk, for the files that say how imports map to directories and
   * are not indexed themselves (go.mod). Without it, Go import paths match directories by suffix.
   */
  constructor(
    private readonly db: DB,
    root?: string,
  ) {
    this.byName = db.prepare(candidatesSql("s.name = ? AND")).raw(true);
    this.byNames = db.prepare(candidatesSql("s.name IN (SELECT value FROM json_each(?)) AND")).raw(true);
    this.fileById = db.prepare("SELECT id, path, language FROM files WHERE id = ?");
    this.importsOf = db.prepare("SELECT source, names FROM imports WHERE file_id = ?");
    this.parentsOf = db.prepare("SELECT symbol_id, parent_symbol_id, kind_normalized, CASE WHEN kind_normalized IN ('module', 'namespace') THEN display_fqn END, bases, receiver, CASE WHEN receiver IS NOT NULL OR (parent_symbol_id IS NULL AND language = 'cpp') THEN parent END FROM symbols WHERE file_id = ?").raw(true);
    this.modules = new ModuleResolution(new SqlFileLookup(db, root));
    this.update = db.prepare("UPDATE refs SET target_symbol_id = ?, resolution = ?, candidates = ? WHERE id = ?");
  }

  /** Candidate rows held in nameCache (see remember). */
  private cachedRows = 0;
  /**
   * One copy of each file path, kind and flags string of the cached rows: SQLite hands every row
   * its own, and they repeat (a path per symbol of the file, a handful of kinds).
   */
  private readonly strings = new Map<string, string>();

  private same(v: string | null): string | null {
    if (v === null) return null;
    const had = this.strings.get(v);
    if (had !== undefined) return had;
    this.strings.set(v, v);
    return v;
  }

  private lookup(name: string): SymRow[] {
    const rows = this.nameCache.get(name);
    if (rows) return rows;
    this.remember([name], this.byName.all(name) as SymTuple[]);
    return this.nameCache.get(name) as SymRow[];
  }

  /**
   * Caches the candidates of `names` from their rows. The cache is a cache, not a copy of the
   * symbol table: past RESOLVE_CACHE_SYMBOLS rows (or 50,000 names) it is emptied first, with the
   * name entries built from it, so that a resolver holds a bounded number of symbols whatever the
   * repository's size. (Objects of one shape built here cost less than the driver's objects with
   * named keys.)
   */
  private remember(names: string[], tuples: SymTuple[]): void {
    if (this.cachedRows + tuples.length > RESOLVE_CACHE_SYMBOLS || this.nameCache.size + names.length > 50_000) {
      this.nameCache.clear();
      this.entries.clear();
      this.strings.clear();
      this.cachedRows = 0;
    }
    for (const n of names) this.nameCache.set(n, []);
    for (const t of tuples) {
      const r: SymRow = {
        symbol_id: t[0],
        file_id: t[1],
        path: this.same(t[2]) as string,
        name: t[3],
        kind_normalized: this.same(t[4]) as string,
        parent: t[5],
        parent_symbol_id: t[6],
        parent_kind: this.same(t[7]),
        flags: this.same(t[8]),
        display_fqn: t[9],
        arity: this.same(t[10]),
        language: this.same(t[11]) as string,
      };
      (this.nameCache.get(r.name) as SymRow[]).push(r);
    }
    this.cachedRows += tuples.length;
  }

  private ctx(fileId: number): FileCtx {
    let c = this.ctxCache.get(fileId);
    if (!c) {
      const f = this.fileById.get(fileId) as { id: number; path: string; language: string };
      const imports = (this.importsOf.all(fileId) as { source: string; names: string }[]).map((i) => ({
        source: i.source,
        names: JSON.parse(i.names) as { name: string; alias?: string }[],
      }));
      c = new LazyCtx(fileId, f.path, f.language, imports, this.parentsOf);
      if (this.ctxCache.size > 256) this.ctxCache.clear();
      this.ctxCache.set(fileId, c);
    }
    return c;
  }

  /** `crate::run()`, `super::run()`, `self::inner::f()`: a path from a module, so the target's display_fqn is known exactly. */
  private rustPathPick(e: NameEntry, ctx: FileCtx, caller: string | null, path: string, name: string, isCall: boolean, keep?: (s: SymRow) => boolean): Outcome {
    const fqn = `${this.rustModulePath(ctx, caller, path)}::${name}`;
    // A call never names a module: ripgrep's `crate::search(args, mode)` beside `mod search;`.
    const rows = e.all.filter((s) => s.display_fqn === fqn && !(isCall && s.kind_normalized === "module") && (keep === undefined || keep(s)));
    return rows.length > 0 ? pick(rows, "exact") : UNRESOLVED;
  }

  /** The module a Rust path names, from where the reference is: `crate::a`, `super::b`, `self::c`. */
  private rustModulePath(ctx: FileCtx, caller: string | null, path: string): string {
    const segs = path.split("::").filter(Boolean);
    // The module the reference is in: its innermost enclosing `mod`, else its file's.
    let here = moduleName("rust", ctx.path).split("::");
    for (const id of this.chain(ctx, caller)) {
      const m = ctx.modules.get(id);
      if (m !== undefined) {
        here = m.split("::");
        break;
      }
    }
    let out: string[];
    if (segs[0] === "crate") {
      // A crate whose manifest declares its root outside src/ (ripgrep's `[[bin]] path =
      // "crates/core/main.rs"): its files' display names start with that root's module path
      // (crate::crates::core::messages), so `crate` stands for it.
      const declared = this.modules.rust.declaredRoot(ctx.path);
      out = declared ? moduleName("rust", declared).split("::") : ["crate"];
      segs.shift();
    } else {
      out = here;
      if (segs[0] === "self") segs.shift();
      while (segs[0] === "super") {
        segs.shift();
        if (out.length > 1) out = out.slice(0, -1);
      }
    }
    return [...out, ...segs].join("::");
  }

  /** The caller and its enclosing symbols, innermost first. */
  private chain(ctx: FileCtx, caller: string | null): string[] {
    const out: string[] = [];
    let cur = caller;
    while (cur && out.length < 64) {
      out.push(cur);
      cur = ctx.parents.get(cur) ?? null;
    }
    return out;
  }

  /** Files an import specifier can denote, for the languages whose module paths map to files. */
  resolveModule(ctx: FileCtx, source: string): number[] {
    // Rust: a path whose head is a crate the file binds under another name (`extern crate
    // grep_core as core2;`, `use grep_core as core2;`): `use core2::search` is grep_core's.
    if (ctx.language === "rust" && source !== "") source = this.rustCrateAlias(ctx, source);
    const key = `${ctx.path}\0${source}`;
    const hit = this.moduleCache.get(key);
    if (hit) return hit;
    const ids: number[] = [];
    this.modules.resolve(ctx.language, ctx.path, source, ids);
    // Keyed by importing file: bounded, as a cold index walks every file.
    if (this.moduleCache.size >= 20_000) this.moduleCache.clear();
    this.moduleCache.set(key, ids);
    return ids;
  }

  private rustCrateAlias(ctx: FileCtx, source: string): string {
    const cut = source.indexOf("::");
    const head = cut < 0 ? source : source.slice(0, cut);
    if (head === "crate" || head === "self" || head === "super") return source;
    // (A module's local name is stored as the name `*` with that alias.)
    const im = ctx.imports.find((i) => i.source !== head && !i.source.includes("::") && i.names.some((n) => n.name === "*" && n.alias === head));
    return im === undefined ? source : im.source + source.slice(head.length);
  }

  private importIndex(ctx: FileCtx): ImportIndex {
    if (ctx.index) return ctx.index;
    const bound = new Map<string, { im: ImportInfo; name: string }>();
    const heads = new Map<string, { im: ImportInfo; named?: string }>();
    const wildcards: ImportInfo[] = [];
    for (const im of ctx.imports) {
      if (im.names.length === 0) {
        const head = this.moduleHead(ctx.language, ctx.path, im.source);
        // Python's `import a.b` binds `a`, the package (a.b is its attribute, `a.b.f` is
        // viaImports' whole-source match).
        if (head && !heads.has(head)) heads.set(head, { im: ctx.language === "python" && head !== im.source ? { source: head, names: [] } : im });
      }
      for (const n of im.names) {
        if (n.name === "*") {
          if (n.alias) {
            if (!heads.has(n.alias)) heads.set(n.alias, { im });
          } else wildcards.push(im);
          continue;
        }
        if (n.name === "self" && ctx.language === "rust") {
          // `use std::io::{self}` binds `io` (the module itself), not `self`.
          const mod = n.alias ?? im.source.split("::").filter(Boolean).pop();
          if (mod && !heads.has(mod)) heads.set(mod, { im });
          continue;
        }
        const local = n.alias ?? n.name;
        if (!bound.has(local)) bound.set(local, { im, name: n.name });
        if (!heads.has(local)) heads.set(local, { im, named: n.name });
      }
    }
    ctx.index = { bound, heads, wildcards };
    return ctx.index;
  }

  /**
   * The name a whole-module import without an alias binds: Go's package name (`cli` for
   * `github.com/urfave/cli/v3`), Python's first segment (`import a.b` binds `a`), else the last
   * segment of the specifier (`use std::fs`, `import java.util`).
   */
  private moduleHead(language: string, path: string, source: string): string | undefined {
    if (language === "go") return this.modules.go.packageName(path, source);
    if (language === "python") return /^[^.]+/.exec(source)?.[0];
    return source.split(/[./:]+/).filter(Boolean).pop();
  }

  /**
   * The symbols named `name` that module files `files` define, or else re-export: Python's
   * `from .app import Flask as Flask` in a package's __init__.py, TypeScript's `export * from
   * './core'` and `export { make as build } from './core'` in a barrel. Followed up to four
   * modules deep. (Not followed, flask's 146 `from flask import Flask` were unresolved_import.)
   * Only where an import makes the name the module's own (Python, TypeScript, JavaScript), and
   * in Rust, where a `use` is private unless `pub` (which the index does not record) but code
   * that names the item through the module compiles only when it is: ripgrep's crates re-export
   * their items at the root (`pub use crate::walk::{WalkBuilder, ...}`), and `ignore::WalkBuilder`
   * from the core crate reached nothing.
   */
  private exported(language: string, files: number[], name: string): SymRow[] {
    const rows = this.entry(name).globals.filter((s) => files.includes(s.file_id));
    if (rows.length > 0 || !REEXPORT_LANGUAGES.has(language)) return rows;
    // The same module and name come back from file after file (a barrel every file imports):
    // walking its imports each time cost the mixed tree's resolution 1.3 s.
    const key = `${files.join(",")}\0${name}`;
    const hit = this.exportedMemo.get(key);
    if (hit !== undefined) return hit;
    if (this.exportedMemo.size >= 50_000) this.exportedMemo.clear();
    // Once each: two paths can reach one symbol (zod's core/index.ts re-exports core.ts, and
    // errors.ts, which imports `$constructor` from core.ts), and its candidates listed it twice.
    const seen = new Set<string>();
    const found = this.reexported(files, name, 0, new Set()).filter((s) => !seen.has(s.symbol_id) && (seen.add(s.symbol_id), true));
    this.exportedMemo.set(key, found);
    return found;
  }

  private readonly exportedMemo = new Map<string, SymRow[]>();

  /** What `files` re-export as `name`: the modules their imports bind it from, their symbols first. */
  private reexported(files: number[], name: string, depth: number, visited: Set<string>): SymRow[] {
    const out: SymRow[] = [];
    for (const f of files) {
      const key = `${f}\0${name}`;
      if (visited.has(key)) continue;
      visited.add(key);
      const c = this.ctx(f);
      // A name the module gives one of its own declarations (`export { module as serveStatic }`)
      // is that one: an import of the same name there (hono's `import { serveStatic } from
      // './serve-static'` in serve-static-module.ts) is only the module's local binding.
      const own = VALUE_TYPE_LANGUAGES.has(c.language) ? c.imports.filter((im) => im.source === "" && im.names.some((n) => n.alias === name)) : [];
      for (const im of own.length > 0 ? own : c.imports) {
        for (const n of im.names) {
          // `export * from`, `from m import *` pass every name on; a named one only its own.
          // `export { default as makeRepo } from "./repo"`: the module's default export, whatever
          // its name (it was unresolved through such a barrel).
          if (n.name === "default" && n.alias === name) {
            out.push(...this.resolveModule(c, im.source).filter((t) => t !== f).flatMap((t) => this.defaultExports(t)));
            continue;
          }
          const original = n.name === "*" ? (n.alias === undefined ? name : undefined) : (n.alias ?? n.name) === name && n.name !== "default" ? n.name : undefined;
          if (original === undefined) continue;
          // (`export { a as b }` is an import of the module itself: source "".)
          const next = im.source === "" && VALUE_TYPE_LANGUAGES.has(c.language) ? [f] : this.resolveModule(c, im.source).filter((t) => t !== f);
          if (next.length === 0) continue;
          const rows = this.entry(original).globals.filter((s) => next.includes(s.file_id));
          if (rows.length > 0) out.push(...rows);
          else if (depth < 3) out.push(...this.reexported(next, original, depth + 1, visited));
        }
      }
    }
    return out;
  }

  /**
   * Java's imports that name a class's member: `import static a.b.Util.checkState;` (or
   * `Util.*`), and a nested type, `import a.b.TypeSpec.Kind;`. The source is the class, whose
   * file the module resolver finds, but the symbol is no top-level one of that file: javapoet's
   * 22 calls of its statically imported `Util.checkState` were unresolved, so deleting it listed
   * no reference and a rename took every one of them as a guess by name.
   */
  private javaClassMembers(ctx: FileCtx, source: string, name: string, files: number[]): SymRow[] {
    if (ctx.language !== "java" || files.length === 0) return [];
    const cls = source.replace(/\.\*$/, "").split(".").pop();
    return this.entry(name).all.filter((s) => s.parent === cls && files.includes(s.file_id));
  }

  /** What the file's imports say about `name` (used as a bare name or after a qualifier). */
  private viaImports(ctx: FileCtx, name: string, qualifier: string | null): SymRow[] | undefined {
    const idx = this.importIndex(ctx);
    if (qualifier === null) {
      const b = idx.bound.get(name);
      if (b) {
        if (ctx.language === "cpp" && b.im.names.length > 0) return this.cppUsing(b.im.source, b.name);
        const files = this.resolveModule(ctx, b.im.source);
        if (files.length === 0) return [];
        // `import X from './m'` names the default export whatever it is called.
        if (b.name === "default") return files.flatMap((f) => this.defaultExports(f));
        const rows = this.exported(ctx.language, files, b.name);
        return rows.length > 0 ? rows : this.javaClassMembers(ctx, b.im.source, b.name, files);
      }
      for (const im of idx.wildcards) {
        const files = this.resolveModule(ctx, im.source);
        const rows = this.exported(ctx.language, files, name);
        if (rows.length > 0) return rows;
        const members = this.javaClassMembers(ctx, im.source, name, files);
        if (members.length > 0) return members;
      }
      return undefined;
    }
    const cut = qualifier.search(/\.|::/);
    const head = cut === -1 ? qualifier : qualifier.slice(0, cut);
    let h = idx.heads.get(head);
    // Rust: a workspace crate is in scope by its name, as any dependency is (`ignore::WalkBuilder`).
    if (!h && ctx.language === "rust" && this.modules.rust.pathDependency(posix.dirname(ctx.path), head) !== undefined) h = { im: { source: head, names: [] } };
    if (!h) return undefined;
    // C++: `using geo::Circle;` then `Circle::unit()`: a namespace's type, not a module's file
    // (the other rules find its members).
    if (ctx.language === "cpp" && h.im.names.length > 0) return undefined;
    // Python: `import a.b` (or `import a.b as c`) then `a.b.f()` (`c.d.f()`): the qualifier names
    // the module a.b (a.b.d) when the repository has it.
    if (ctx.language === "python" && cut !== -1 && h.named === undefined) {
      const sub = `${h.im.source}${qualifier.slice(cut)}`;
      if (this.resolveModule(ctx, sub).length > 0) h = { im: { source: sub, names: [] } };
    }
    // Rust: a file that declares the head at its top level cannot also import it there (E0255):
    // the `use` is an inline module's, `mod tests { use super::{Gitignore}; }`, and names this
    // file's own item. (Imports are the file's, whatever module holds them: ripgrep's
    // `Gitignore::empty()` beside such a test module looked in the crate root and stayed unresolved.)
    if (ctx.language === "rust" && (this.entry(head).byFile.get(ctx.id) ?? []).some((s) => s.parent_symbol_id === null)) return undefined;
    // The head may be a module imported from its package: `from . import sessions` (Python),
    // `use crate::output` (Rust); then `sessions.Session`, `output::print_entry` are its members.
    // It is one when its path names other files than the package's (these resolvers fall back to
    // the longest prefix that names a file: `use my_pkg::Input` is the crate root's item).
    const pkg = this.resolveModule(ctx, h.im.source);
    let module: number[] | undefined;
    if (h.named && h.named !== "*" && (ctx.language === "python" || ctx.language === "rust")) {
      const sub = ctx.language === "rust" ? `${h.im.source}::${h.named}` : h.im.source.endsWith(".") ? `${h.im.source}${h.named}` : `${h.im.source}.${h.named}`;
      const found = this.resolveModule(ctx, sub);
      if (found.some((f) => !pkg.includes(f))) module = found;
    }
    // TS/JS: `import { core } from "./index"` where index.ts has `export * as core from "./core"`
    // (or `import * as core from "./core"; export { core }`): `core.f()` is the module's f.
    if (h.named && h.named !== "*" && h.named !== "default" && VALUE_TYPE_LANGUAGES.has(ctx.language) && pkg.length > 0) {
      const found = this.namespaceExport(pkg, h.named, 0);
      if (found.length > 0) module = found;
    }
    // The head is an item the module exports (`use hexyl::Input; Input::Stdin`), not a module.
    const item = module === undefined && h.named !== undefined && h.named !== "default" && qualifier === head ? h.named : undefined;
    let files = module ?? pkg;
    // The item named by the import is re-exported by that module (`from .core import Engine` in
    // a package's __init__.py, `export { Repo } from "./repo"` in a barrel): its members, and what
    // its calls return, are where it is declared, under the name it is declared with.
    // (`from pkg import Engine; Engine.make()` was unresolved where `from pkg.core import Engine`
    // resolved.)
    let declaredAs: string = item ?? "";
    const named = module === undefined && h.named !== undefined && h.named !== "default" && h.named !== "*" ? h.named : undefined;
    if (named !== undefined && REEXPORT_LANGUAGES.has(ctx.language) && !this.entry(named).all.some((s) => files.includes(s.file_id))) {
      const decl = this.exported(ctx.language, files, named);
      if (decl.length > 0 && ctx.language === "rust") {
        // (A Rust type's methods are in its impls, in any file of the crate: zoxide's `Cmd` is
        // declared in cmd/_cmd.rs and implemented in cmd/mod.rs.)
        const types = decl.filter(isTypeRow);
        if (item !== undefined && types.length > 0) return this.membersNamed(name, types, ctx.language);
      } else if (decl.length > 0) {
        files = [...new Set(decl.map((s) => s.file_id))];
        if (item !== undefined) declaredAs = (decl[0] as SymRow).name;
      }
    }
    // Nothing in the repository: a library's module says "no target here"; a path of the
    // repository's own that this resolver could not map says nothing, and guessing goes on.
    if (files.length === 0) return this.externalModule(ctx, h.im.source) ? [] : undefined;
    // Java: `FileUtils.readFileToByteArray(file).length` or `Cls.builder().setX()` is a member of a
    // value whose type the head does not say, not any same-named symbol of the imported class's
    // package (commons-io's array `.length` there was ambiguous among IOUtils' `length()` methods,
    // `ChecksumInputStream.builder().setByteArray()` went to another class's builder's).
    if (ctx.language === "java" && qualifier !== head && h.named !== undefined && h.named !== "*") return undefined;
    // Rust: `walker::WalkBuilder::new`, `walker::WalkState::Quit`: a member of the type the rest of
    // the path names in that crate or module (re-exported by its root as often as not).
    if (ctx.language === "rust" && cut !== -1 && h.named === undefined) {
      const segs = qualifier.split("::");
      const typeName = segs.pop() as string;
      const at = segs.length > 1 ? this.resolveModule(ctx, [h.im.source, ...segs.slice(1)].join("::")) : files;
      const types = this.exported(ctx.language, at, typeName).filter(isTypeRow);
      // (A struct and its impl are both types here: a method is a member of each, once.)
      if (types.length > 0) return this.membersNamed(name, types, ctx.language);
    }
    // (Go's `pkg.Name` is a package-level name, never a method: `cli.Command` is the type, not
    // the method `Command.Command`.)
    let rows = (ctx.language === "go" && qualifier === head ? this.entry(name).globals : this.entry(name).all).filter((s) => files.includes(s.file_id));
    if (rows.length === 0 && item === undefined) rows = this.exported(ctx.language, files, name);
    // `Engine.make().run()`: a member of what the call returns, never a function of the module
    // (the module's own top-level `run()` made it ambiguous).
    if (qualifier.includes("(")) rows = rows.filter((s) => s.parent !== null || s.parent_symbol_id !== null);
    // A member of that item, not any same-named symbol of its module (IncludeMode::Stdin).
    // (Only when that item is a type: `import static ...EscapeMode.base; base.nameKeys` is a
    // value, whose members are its type's.)
    if (item === undefined) {
      // Python and TypeScript: `pkg.Engine.helper()`, `lib.Repo.create()`: a member of the type
      // the rest of the path names in that module, where the module re-exports it (a package's
      // __init__.py, a barrel) as often as not; it was unresolved.
      if (rows.length === 0 && cut !== -1 && REEXPORT_LANGUAGES.has(ctx.language) && ctx.language !== "rust") {
        const rest = qualifier.slice(cut + 1);
        if (/^[A-Za-z_$][\w$]*$/.test(rest)) {
          const types = this.exported(ctx.language, files, rest).filter(isTypeRow);
          if (types.length > 0) return this.membersNamed(name, types, ctx.language);
        }
      }
      return rows;
    }
    const declared = this.entry(declaredAs).all.filter((s) => files.includes(s.file_id));
    // (A TypeScript namespace merged with a function holds members as a type does: drizzle's
    // `sql.placeholder()` is the namespace's, not the module's deprecated top-level `placeholder`.)
    if (declared.length > 0 && !declared.some((s) => TYPE_KINDS.has(s.kind_normalized) || s.kind_normalized === "namespace")) return rows;
    return rows.filter((s) => s.parent === declaredAs || (s.parent ?? "").startsWith(`<${declaredAs} as `));
  }

  /**
   * `var express = require('..'); express()`: the call is of what the module assigns to
   * `module.exports` (its default), not of the variable that holds it, which was an `exact`
   * target (express's 651 `express()` calls, and callers of createApplication said "nobody").
   * A module of the repository without such a default, or a library's, leaves it unresolved.
   * Only where the name's declarations in the file are variables (the require's own).
   */
  private requiredCall(ctx: FileCtx, name: string, local: SymRow[]): Outcome | undefined {
    if (!VALUE_TYPE_LANGUAGES.has(ctx.language)) return undefined;
    const h = this.importIndex(ctx).heads.get(name);
    if (h === undefined || h.named !== undefined || !h.im.names.some((n) => n.name === "*" && n.alias === name)) return undefined;
    if (local.some((s) => s.kind_normalized !== "var" && s.kind_normalized !== "const")) return undefined;
    const rows = this.resolveModule(ctx, h.im.source).flatMap((f) => this.defaultExports(f));
    return rows.length > 0 ? pick(rows, "imported") : UNRESOLVED;
  }

  /** The members named `name` of any of `types`, once each (a struct and its impl are both types of one name). */
  private membersNamed(name: string, types: SymRow[], language: string): SymRow[] {
    return [...new Set(types.flatMap((t) => membersOfType(this.entry(name).all, t, language)))];
  }

  /**
   * C++'s `using geo::Circle;` names a namespace's member, not a file: the repository's symbols
   * of that name declared in that namespace (its display_fqn ends with it). It was taken for an
   * import of a module `geo`, which no file is, so every use of `Circle` in the file was
   * `unresolved` as a library's. The standard library's (`using std::string;`) is outside; a
   * namespace the repository does not declare the name in (or hides behind a macro, as fmt's
   * FMT_BEGIN_NAMESPACE) says nothing, and the other rules go on.
   */
  private cppUsing(namespace: string, name: string): SymRow[] | undefined {
    const ns = namespace.replace(/^::/, "");
    // (What a repository adds to namespace std is a specialization or a shim of its own header,
    // never what `using std::begin;` elsewhere brings: catch.hpp's reached cxxopts'.)
    if (/^std(::|$)/.test(ns)) return [];
    const rows = this.entry(name).all.filter((s) => s.display_fqn.endsWith(`::${ns}::${name}`) || s.display_fqn === `${ns}::${name}`);
    return rows.length > 0 ? rows : undefined;
  }

  /**
   * The module files that `files` export under `name` as a namespace (`export * as name from
   * "./m"`, or `import * as name from "./m"` and a named export of it, which TypeScript compiles
   * only when it is exported), through named re-exports of the name, up to four modules deep.
   */
  private namespaceExport(files: number[], name: string, depth: number): number[] {
    // Asked for every qualified reference whose head is a named import (most of a TypeScript
    // tree's member calls), with the same few barrels each time.
    if (depth === 0) {
      const key = `${files.join(",")}\0${name}`;
      let hit = this.namespaceMemo.get(key);
      if (hit === undefined) {
        if (this.namespaceMemo.size >= 50_000) this.namespaceMemo.clear();
        this.namespaceMemo.set(key, (hit = this.namespaceExportWalk(files, name, 0)));
      }
      return hit;
    }
    return this.namespaceExportWalk(files, name, depth);
  }

  private readonly namespaceMemo = new Map<string, number[]>();

  private namespaceExportWalk(files: number[], name: string, depth: number): number[] {
    for (const f of files) {
      const c = this.ctx(f);
      for (const im of c.imports) {
        for (const n of im.names) {
          if (n.name === "*" && n.alias === name) return this.resolveModule(c, im.source).filter((t) => t !== f);
          if (n.name !== "*" && n.name !== "default" && (n.alias ?? n.name) === name && im.source !== "" && depth < 3) {
            const next = this.resolveModule(c, im.source).filter((t) => t !== f);
            const found = next.length > 0 ? this.namespaceExport(next, n.name, depth + 1) : [];
            if (found.length > 0) return found;
          }
        }
      }
    }
    return [];
  }

  /** An import specifier that names a library (not found in the repository and not one of its own paths). */
  private externalModule(ctx: FileCtx, source: string): boolean {
    return this.modules.external(ctx.language, ctx.path, source);
  }

  private defaultExportsStmt: ReturnType<DB["prepare"]> | undefined;

  private defaultExports(fileId: number, depth = 0): SymRow[] {
    // (Prepared once: a statement per call held native memory until the collector ran.)
    this.defaultExportsStmt ??= this.db.prepare(
      `SELECT s.symbol_id, s.file_id, f.path, s.name, s.kind_normalized, s.parent, s.parent_symbol_id, NULL AS parent_kind, s.flags, s.display_fqn, s.arity, f.language
       FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.file_id = ? AND s.flags LIKE '%default_export%'`,
    );
    // Asked again for every default import of the file.
    let rows = this.defaultExportsCache.get(fileId);
    if (rows === undefined) {
      rows = this.defaultExportsStmt.all(fileId) as SymRow[];
      if (rows.length === 0 && depth < 4) rows = this.reexportedDefault(fileId, depth);
      if (this.defaultExportsCache.size >= 4096) this.defaultExportsCache.clear();
      this.defaultExportsCache.set(fileId, rows);
    }
    return rows;
  }

  /**
   * A barrel's default export that is another module's: `export { default } from "./Button"`
   * (the default passed on) or `export { Button as default } from "./Button"` (a named export
   * made the default). The file declares no default of its own, so `import Def from "./index"`
   * and `Def()` were unresolved, and no gap named like the target counted them.
   */
  private reexportedDefault(fileId: number, depth: number): SymRow[] {
    const c = this.ctx(fileId);
    if (!VALUE_TYPE_LANGUAGES.has(c.language)) return [];
    const out: SymRow[] = [];
    for (const im of c.imports) {
      if (im.source === "") continue;
      for (const n of im.names) {
        // (`import X from "./m"` is `default` under an alias; only a re-export leaves it bare.)
        const passed = n.name === "default" && (n.alias === undefined || n.alias === "default");
        const renamed = n.name !== "default" && n.name !== "*" && n.alias === "default";
        if (!passed && !renamed) continue;
        const next = this.resolveModule(c, im.source).filter((t) => t !== fileId);
        out.push(...(passed ? next.flatMap((t) => this.defaultExports(t, depth + 1)) : this.exported(c.language, next, n.name)));
      }
    }
    return out;
  }

  private readonly defaultExportsCache = new Map<number, SymRow[]>();

  /** Candidates of one name, grouped once so each reference costs only its own file's share. */
  private entry(name: string): NameEntry {
    // A reference's candidates are of its own language family (see refFamily).
    const family = current.refFamily;
    const key = family === null ? name : `${family}\0${name}`;
    let e = this.entries.get(key);
    if (!e) {
      const all = family === null ? this.lookup(name) : this.lookup(name).filter((s) => inFamily(s, family));
      // Most names referenced (locals, parameters, library members) have no candidate: one
      // shared empty entry, whose memo nothing writes (every memoized path needs a candidate).
      if (all.length === 0) return NO_CANDIDATES;
      const byFile = new Map<number, SymRow[]>();
      const byParent = new Map<string, SymRow[]>();
      const globals: SymRow[] = [];
      const members: SymRow[] = [];
      for (const s of all) {
        push(byFile, s.file_id, s);
        // A member is declared inside a type, or outside it with the type as scope (a Go method,
        // a C++ `T::m` definition): its parent is then a name without a parent symbol.
        if (s.parent_symbol_id === null ? s.parent === null : CONTAINER_KINDS.has(s.parent_kind ?? "") || cScoped(s)) globals.push(s);
        // A function or variable declared in a function body is a binding of that body, no member
        // of anything: `compressor.compress()` inside a nested `def compress` is not a call of
        // itself, `std::exception` no local variable `exception`.
        else if (!(BODY_KINDS.has(s.parent_kind ?? "") && !MEMBER_KINDS.has(s.kind_normalized))) members.push(s);
        if (s.parent !== null) push(byParent, s.parent, s);
      }
      e = { all, byFile, byParent, globals, members, memo: new Map() };
      if (this.entries.size > 20_000) this.entries.clear();
      this.entries.set(key, e);
    }
    return e;
  }

  resolveRef(ref: RefRow): Outcome {
    // (pick() is reached from every rule below; the call's arity is what it tells overloads apart by.)
    const outer = current.callArity;
    const outerFamily = current.refFamily;
    const outerNotMethod = current.refNotMethod;
    const outerNever = current.refNever;
    const outerValue = current.refValue;
    const outerNotAssoc = current.refNotAssoc;
    current.callArity = ref.kind === "call" ? (ref.arity ?? null) : null;
    const language = this.ctx(ref.file_id).language;
    current.refFamily = language === "go" && !this.ctx(ref.file_id).path.endsWith("_test.go") ? GO_BUILD : languageFamily(language);
    current.refNotMethod = refCannotNameMethod(language, ref.kind, ref.qualifier);
    current.refNever = !VALUE_TYPE_LANGUAGES.has(language) ? null : ref.kind === "call" ? TS_NOT_CALLED : ref.kind === "type" ? TS_NOT_TYPES : null;
    current.refValue = VALUE_TYPE_LANGUAGES.has(language) && (ref.kind === "read" || ref.kind === "write");
    current.refNotAssoc = language === "rust" && rustValueCall(ref.kind, ref.qualifier);
    try {
      const o = this.resolveAny(ref);
      if (o.how === "unresolved" && language === "rust" && ref.kind !== "type" && ref.kind !== "write") return this.rustMacro(ref);
      if (o.how === "unresolved" && language === "java" && ref.kind === "read" && ref.qualifier === null) return this.javaCaseLabel(ref);
      return ref.kind === "type" && (o.target !== null || o.candidates !== null) ? this.typesOnly(ref, o) : o;
    } finally {
      current.callArity = outer;
      current.refFamily = outerFamily;
      current.refNotMethod = outerNotMethod;
      current.refNever = outerNever;
      current.refValue = outerValue;
      current.refNotAssoc = outerNotAssoc;
    }
  }

  /**
   * Rust: a `macro_rules!` macro of the reference's own Cargo package, which the module rules do
   * not reach: `#[macro_use] mod macros;` makes its macros visible to the rest of the crate, and
   * `#[macro_export]` puts one at the crate root (`crate::m!`, and for the package's tests and
   * examples `pkg::m!` or `use pkg::m`). Asked only of a reference nothing else resolved; a path
   * through anything but `crate`, `$crate` or the package's crate name is not a macro's. (A macro
   * invocation is a call, or a read inside another macro's arguments, which tree-sitter leaves as
   * tokens.) rust-lang/log's `info!` had no reference, its uses called unresolved imports.
   */
  private rustMacro(ref: RefRow): Outcome {
    const macros = this.entry(ref.name).all.filter((s) => s.kind_normalized === "macro");
    if (macros.length === 0) return UNRESOLVED;
    const ctx = this.ctx(ref.file_id);
    const pkg = this.modules.rust.cargoPackage(posix.dirname(ctx.path));
    if (pkg === undefined) return UNRESOLVED;
    // The crate the macro is looked for in: the path's head, or for a bare name the crate a `use`
    // of the file brings it from (`use log::{info}` beside `info!(...)`).
    let head = ref.qualifier ?? "";
    if (head.includes("::")) return UNRESOLVED;
    if (head === "") head = ctx.imports.find((i) => i.names.some((n) => (n.alias ?? n.name) === ref.name))?.source.split("::")[0] ?? "";
    let lib: string | undefined;
    if (head === "" || head === "crate" || head === "$crate" || head === "self" || head === pkg.crate) lib = pkg.lib;
    else {
      // Another package of the repository this one depends on by path (log's
      // test_max_level_features, `log = { path = ".." }`).
      lib = this.modules.rust.pathDependency(posix.dirname(ctx.path), head);
    }
    const own = lib === undefined ? [] : macros.filter((s) => this.modules.rust.cargoPackage(posix.dirname(s.path))?.lib === lib);
    if (own.length === 0) return UNRESOLVED;
    const here = own.filter((s) => s.file_id === ref.file_id);
    return here.length > 0 ? pick(here, "exact") : pick(own, "imported");
  }

  /**
   * Java: a bare name nothing in scope declares that is an enum's constant: in Java that is a
   * `case FAST:` label of a switch on the enum (or a static import, which the rules resolve), and
   * the switched value's type is not read here, so it is a guess among the enums of the
   * repository that have the constant, nearest first. jsoup's 9 `case StartTag:` of 12
   * references to `TokenType.StartTag` were unresolved.
   */
  private javaCaseLabel(ref: RefRow): Outcome {
    const rows = this.entry(ref.name).members.filter((s) => s.kind_normalized === "variant" && s.language === "java");
    return rows.length === 0 ? UNRESOLVED : nearPick(rows, this.ctx(ref.file_id));
  }

  /**
   * A type reference's outcome without the targets that cannot be types: a method, constructor or
   * field, and a function or variable (TypeScript's and JavaScript's never reach here: refNever;
   * their `typeof x` is a read). cobra's `*flag.Flag` (pflag's type) was a `heuristic` reference to the method
   * `Command.Flag`.
   */
  private typesOnly(ref: RefRow, o: Outcome): Outcome {
    const language = this.ctx(ref.file_id).language;
    const rows = this.entry(ref.name).all;
    const fits = (id: string): boolean => {
      const k = rows.find((s) => s.symbol_id === id)?.kind_normalized;
      return k === undefined || canNameType(language, k, ref.qualifier !== null && ref.qualifier !== undefined);
    };
    if (o.target !== null) return fits(o.target) ? o : UNRESOLVED;
    const kept = (o.candidates as string[]).filter(fits);
    if (kept.length === (o.candidates as string[]).length) return o;
    if (kept.length === 0) return UNRESOLVED;
    return kept.length === 1 ? { target: kept[0] as string, how: "heuristic", candidates: null } : { ...o, candidates: kept };
  }

  private resolveAny(ref: RefRow): Outcome {
    const ctx = this.ctx(ref.file_id);
    const q = ref.qualifier && ref.qualifier.length > 0 ? ref.qualifier : null;
    const e = this.entry(ref.name);
    // Rust: a path through another crate (`std::path`, `ignore::Error::Partial`, a Cargo
    // dependency) names nothing of the repository, unless a `use` or module here binds its head:
    // fd's `use std::path::Path` read the field `Opts::path`, `ignore::Error` the variant
    // `WorkerResult::Error` (heuristic).
    if (q !== null && ctx.language === "rust" && ref.kind !== "import") {
      const head = q.split("::")[0] as string;
      const dir = posix.dirname(ctx.path);
      if (!this.importIndex(ctx).heads.has(head) && this.modules.rust.externCrate(dir, head) && this.modules.rust.pathDependency(dir, head) === undefined) return UNRESOLVED;
    }
    if (ref.kind === "import") {
      // The name as an import statement brings it in: the symbol of that name in the target module.
      // `import Page from './page'` is written with the local name; it imports the default export.
      let isDefault = ref.name === "default";
      const im = ctx.imports.find(
        (i) =>
          i.source === q &&
          i.names.some((n) => {
            if (n.name === "default" && n.alias === ref.name) isDefault = true;
            return n.name === ref.name || (n.name === "default" && n.alias === ref.name);
          }),
      );
      if (!im) return UNRESOLVED;
      if (ctx.language === "cpp" && im.names.length > 0) {
        const named = this.cppUsing(im.source, ref.name);
        return named && named.length > 0 ? pick(named, "imported") : UNRESOLVED;
      }
      const files = this.resolveModule(ctx, im.source);
      const rows = isDefault ? files.flatMap((f) => this.defaultExports(f)) : this.exported(ctx.language, files, ref.name);
      if (rows.length === 0) {
        const members = this.javaClassMembers(ctx, im.source, ref.name, files);
        return members.length > 0 ? pick(members, "imported") : UNRESOLVED;
      }
      return pick(rows, "imported");
    }
    const local = e.byFile.get(ref.file_id) ?? [];
    const isCall = ref.kind === "call";
    // Members inherited from a base type are looked up through the file's types' bases.
    const inherits = ctx.bases.size > 0 && ref.kind !== "type" && e.members.length > 0;
    // `s.m()` with s a parameter or local declared of a type: m is a member of that type.
    // (A row read without the column, as some callers make them, has none.)
    const receiverType = ref.receiver_type ?? null;
    // `repo.createQueryBuilder("u").where("a")`: a member of what the calls before it return.
    const chain = q !== null && ref.kind !== "type" && CHAIN_LANGUAGES.has(ctx.language) ? chainOf(q) : undefined;
    if (chain !== undefined) {
      const typed = this.throughChain(ctx, ref, e, chain, isCall);
      if (typed) return typed;
    }
    // (A chain's receiver type is that of what its first call is made on: read above.)
    if (q !== null && receiverType !== null && ref.kind !== "type" && chain === undefined) {
      const typed = this.throughLocal(ctx, ref, e, receiverType, isCall);
      if (typed) return typed;
    }
    // `app.route()` with app an imported module-level instance (`app = Flask(__name__)`): route
    // is a member of its type.
    if (q !== null && receiverType === null && ref.kind !== "type" && MODULE_INSTANCE_LANGUAGES.has(ctx.language) && this.importIndex(ctx).bound.has(q)) {
      const typed = this.throughImportedInstance(ctx, e, q, isCall);
      if (typed) return typed;
    }
    // `this.f.m()`: m is a member of f's declared type.
    if (q !== null && e.all.length > 0 && ref.kind !== "type") {
      const typed = this.throughField(ctx, ref, e, q, isCall);
      if (typed) return typed;
    }
    // Go: `m.x` inside `func (m *model) ...` is a member of model, declared in its package.
    if (q !== null && ctx.receivers.size > 0 && e.members.length > 0) {
      const type = this.receiverType(ctx, ref.caller_symbol_id, q);
      if (type !== undefined) {
        const dir = posix.dirname(ctx.path);
        const own = callTargets(
          (e.byParent.get(type) ?? []).filter((s) => posix.dirname(s.path) === dir),
          ctx.language,
          isCall,
        );
        if (own.length > 0) return pick(own, "exact");
        // Promoted from an embedded field's type.
        const up = this.promoted(ctx, type, dir, e, isCall);
        if (up) return up;
      }
    }
    if (q === null || SELF_QUALIFIERS.has(q)) {
      const chain = local.length > 0 || inherits ? this.chain(ctx, ref.caller_symbol_id) : [];
      if (q !== null) {
        // this.x / self.x: a member of the nearest enclosing type (not a name declared inside
        // the method: an object literal's `next:` in a method body is no member of `this`).
        for (const scope of chain) {
          // (A method with bases is an anonymous class's: `this` is that class.)
          if (!TYPE_KINDS.has(ctx.kinds.get(scope) ?? "") && !ctx.bases.has(scope)) continue;
          const members = callTargets(
            local.filter((s) => s.parent_symbol_id === scope),
            ctx.language,
            isCall,
          );
          if (members.length === 0) {
            // Rust: a field is declared in the struct, not in the impl whose method reads
            // `self.n` or builds `Self { n: … }`: the field of the impl's type.
            const type = current.refNotMethod && ctx.kinds.get(scope) === "impl" ? this.implTarget(scope) : undefined;
            if (type !== undefined) {
              const fields = (e.byParent.get(type) ?? []).filter((s) => s.kind_normalized === "field" && s.language === "rust");
              const here = fields.filter((s) => s.file_id === ref.file_id);
              if (fields.length > 0) return pick(here.length > 0 ? here : fields, "exact");
            }
            // Rust: `self.m()` in one impl of T calls T's `m` from another impl block, inherent
            // first, else from T's impls of a trait (`impl Runner for Engine`): it was a guess
            // among every type's `m`, ambiguous with the trait's own declaration.
            if (ctx.language === "rust" && !current.refNotMethod && ctx.kinds.get(scope) === "impl") {
              const implType = this.implTarget(scope);
              if (implType !== undefined && !implType.startsWith("<")) {
                const inherent = callTargets(e.byParent.get(implType) ?? [], ctx.language, isCall);
                const found = inherent.length > 0 ? inherent : callTargets(e.members.filter((s) => (s.parent ?? "").startsWith(`<${implType} as `)), ctx.language, isCall);
                // (Only the type of that name in this file, zoxide having an `Iter` per importer;
                // elsewhere the rules below go on.)
                const here = found.filter((s) => s.file_id === ref.file_id);
                if (here.length > 0) return pick(here, "exact");
              }
            }
            const up = inherits ? this.inheritedPick(ctx, scope, e, isCall) : undefined;
            if (up) return up;
            continue;
          }
          // Rust: inside `impl Trait for T`, `self.m()` is T's inherent `m` when it has one
          // (inherent methods come first; a trait method delegating to it is common, not recursion).
          const implOf = ctx.language === "rust" ? /^<(.+) as .+>$/s.exec(members[0]?.parent ?? "")?.[1] : undefined;
          if (implOf !== undefined) {
            const inherent = callTargets(e.byParent.get(implOf) ?? [], ctx.language, isCall);
            const here = inherent.filter((s) => s.file_id === ref.file_id);
            if (inherent.length > 0) return pick(here.length > 0 ? here : inherent, "exact");
          }
          return pick(members, "exact");
        }
        const owned = ctx.owners.size > 0 ? this.ownerMember(ctx, this.chain(ctx, ref.caller_symbol_id), e, ref, isCall, false) : undefined;
        if (owned) return owned;
        const member = this.memberPick(e, ctx, ref.caller_symbol_id, isCall);
        // Rust writes `self::f()` for a function of the current module, also qualified by `self`.
        if (member.how === "unresolved" && ctx.language === "rust" && q === "self") return this.rustPathPick(e, ctx, ref.caller_symbol_id, q, ref.name, isCall);
        return member;
      }
      // A bare name is a binding: in most languages never a member (an object literal's
      // `next: () => next()` calls the outer `next`, not itself).
      let bindings = callTargets(MEMBERS_QUALIFIED.has(ctx.language) ? local.filter((s) => !MEMBER_KINDS.has(s.kind_normalized)) : local, ctx.language, isCall);
      // A type reference passes over the scopes' declarations that are no types: inside class
      // Mutex, `Mutex(const Mutex&)` and `Mutex& operator=(...)` name the class, not its
      // constructors (leveldb's port::Mutex: unresolved, or a guess between the two).
      if (ref.kind === "type") bindings = bindings.filter((s) => canNameType(ctx.language, s.kind_normalized, false));
      // Innermost visible declaration: declared in the caller's scope chain, then top level.
      // (Java and C++ see their class's inherited members as well, before an outer class's.)
      const unqualifiedMembers = inherits && !MEMBERS_QUALIFIED.has(ctx.language);
      // Java and C++: a scope's declarations of the name whose arity the call does not fit are
      // passed over for the next scope (guice's `configure()` inside `configure(Binder)` calls
      // the class's other `configure`, not itself). If none fits anywhere, a Java call is an
      // inherited library method's (guice's `loadClass(name)` in a URLClassLoader that declares
      // `loadClass(name, resolve)`): unresolved; in C++ (a default argument may be declared
      // elsewhere, a macro may hide one) the first, as before.
      const required = isCall ? this.requiredCall(ctx, ref.name, local) : undefined;
      if (required) return required;
      let unfit: SymRow[] | undefined;
      for (const scope of chain) {
        // (In Java a method's own name is no binding of its body: it names the class's methods, the
        // method and its overloads, at the class's scope; javapoet's `writeTo(directory.toPath())`
        // inside `writeTo(File)` was an exact call of itself, not of `writeTo(Path)`. Nor is a
        // constructor's: a bare `ClassName` is the class, and a parameter `ClassName enclosing`
        // of its constructor was no reference to it.)
        const visible = bindings.filter((s) =>
          ctx.language === "java"
            ? s.kind_normalized !== "ctor" && (s.parent_symbol_id === scope || (s.symbol_id === scope && s.kind_normalized !== "method"))
            : s.parent_symbol_id === scope || s.symbol_id === scope,
        );
        const fitting = fitCall(visible);
        if (fitting.length > 0) return pick(fitting, "exact");
        if (visible.length > 0) unfit ??= visible;
        if (unqualifiedMembers && (TYPE_KINDS.has(ctx.kinds.get(scope) ?? "") || ctx.bases.has(scope))) {
          const up = this.inheritedPick(ctx, scope, e, isCall, true);
          if (up) return up;
        }
      }
      if (unfit) return ctx.language === "java" ? UNRESOLVED : pick(unfit, "exact");
      const owned = ctx.owners.size > 0 ? this.ownerMember(ctx, chain.length > 0 ? chain : this.chain(ctx, ref.caller_symbol_id), e, ref, isCall, true) : undefined;
      if (owned) return owned;
      const top = bindings.filter((s) => s.parent_symbol_id === null || CONTAINER_KINDS.has(s.parent_kind ?? ""));
      if (top.length > 0) return pick(top, "exact");
      // (Of the kinds a call can name: `import static ..MathUtils.pow10;` imports jackson-core's
      // field pow10 and method pow10(int) both, and `pow10(len)` calls the method.)
      const named = this.viaImports(ctx, ref.name, null);
      const imported = named && named.length > 0 ? callTargets(named, ctx.language, isCall) : named;
      if (imported && imported.length > 0) return pick(imported, "imported");
      if (imported) return UNRESOLVED;
      return this.unqualifiedGlobal(e, ctx);
    }
    if (ctx.language === "rust" && /^(crate|super|self)(::|$)/.test(q)) {
      const r = this.rustPathPick(e, ctx, ref.caller_symbol_id, q, ref.name, isCall);
      if (r.how !== "unresolved") return r;
    }
    // Rust: a path is relative to the module it is written in, so `output::print()` beside
    // `mod output;` is `self::output::print()` (it was unresolved while the `self::` and
    // `crate::` spellings resolved). Only when the head is a child module declared in this file
    // (a `use`d name of the same spelling cannot coexist with it), and only the items of that
    // module's own file or of this one: `crate::` names are per crate, and a workspace's other
    // crates have a `crate::error` of their own (ripgrep's tests/util.rs `error::Error` is std's).
    if (ctx.language === "rust" && RUST_RELATIVE_PATH.test(q)) {
      const head = q.split("::")[0] as string;
      const childFqn = this.rustModulePath(ctx, ref.caller_symbol_id, `self::${head}`);
      if (this.entry(head).all.some((s) => s.kind_normalized === "module" && s.display_fqn === childFqn && s.file_id === ref.file_id)) {
        const under = rustChildDir(ctx.path, this.modules.rust.declaredRoot(ctx.path));
        const mine = (s: SymRow): boolean => s.file_id === ref.file_id || s.path === `${under}${head}.rs` || s.path.startsWith(`${under}${head}/`);
        const r = this.rustPathPick(e, ctx, ref.caller_symbol_id, `self::${q}`, ref.name, isCall, mine);
        if (r.how !== "unresolved") return r;
      }
    }
    // Python spells it `super()` (or `super(Cls, self)`).
    if (q === "super" || (ctx.language === "python" && /^super\(.*\)$/s.test(q))) {
      // super.m(): a member of a base class, never the override in the enclosing class.
      if (inherits) {
        for (const scope of this.chain(ctx, ref.caller_symbol_id)) {
          if (!TYPE_KINDS.has(ctx.kinds.get(scope) ?? "") && !ctx.bases.has(scope)) continue;
          const up = this.inheritedPick(ctx, scope, e, isCall);
          if (up) return up;
          // Every base a library's (click's `class ClickException(Exception)`, `BytesIOCopy(io.BytesIO)`):
          // so is the member, not a guess among the repository's same-named ones.
          const bases = ctx.bases.get(scope) ?? [];
          if (bases.length > 0 && bases.every((b) => this.libraryType(ctx, b))) return UNRESOLVED;
          break;
        }
      }
      return this.memberPick(e, ctx, ref.caller_symbol_id, isCall, new Set(this.chain(ctx, ref.caller_symbol_id)));
    }
    // `['get', 'set', 'has'].forEach(...)`, `", ".join(...)`: a member of the runtime's Array or
    // str. (axios's 16 such forEach calls were `heuristic` calls of InterceptorManager.forEach.)
    if ((TS_FAMILY.has(ctx.language) || ctx.language === "python") && literalValue(q)) return UNRESOLVED;
    // Qualified: a module alias, a type name (static access), or an instance member.
    const found = this.viaImports(ctx, ref.name, q);
    // (Of the kinds the reference can name: a Java read is no method, a Java call no field.)
    const viaImport = found && found.length > 0 ? callTargets(found, ctx.language, isCall) : found;
    if (viaImport && viaImport.length > 0) return pick(viaImport, "imported");
    // The qualifier starts with an imported module or name that holds no such member in the
    // repository (`http.HandlerFunc` with net/http, `path.join`): whatever it is lives outside,
    // and a same-named member elsewhere would be a wrong edge.
    if (viaImport) return UNRESOLVED;
    if (e.all.length === 0) return UNRESOLVED;
    // Java: a class by its full name, `org.jsoup.nodes.Comment` (jsoup's W3CDom writes its own
    // classes so beside org.w3c.dom's): a class of that package, as an import would make it. The
    // name alone was a guess among every `Comment` (jsoup's Token.Comment, two enumerators), and
    // 74 such type references of jsoup were unresolved. A package the repository does not hold
    // (`java.util.List`) is a library's.
    if (ctx.language === "java" && JAVA_PACKAGE.test(q) && !q.startsWith("this.")) {
      const files = this.resolveModule(ctx, `${q}.*`);
      const rows = files.length > 0 ? e.all.filter((s) => files.includes(s.file_id) && s.parent_symbol_id === null) : [];
      if (rows.length > 0) return pick(rows, "imported");
      if (files.length > 0 || JAVA_LIBRARY_ROOTS.has(q.slice(0, q.indexOf(".")))) return UNRESOLVED;
    }
    // `new T().m()` and `T::m` / `T.m`: the type written in the qualifier.
    const ctor = /^new\s+([\w$.:]+)/.exec(q);
    const lastQ = (ctor ? (ctor[1] as string) : q).split(/\.|::|->/).filter(Boolean).pop() ?? q;
    let ofType = e.byParent.get(lastQ) ?? [];
    // Rust: `StyleComponentList::from_str(..)`, `Config::default()`: a method of one of the type's
    // trait impls (`<StyleComponentList as FromStr>::from_str`) when it has no inherent one. In
    // the type's own file it was a guess among every impl's `from_str` there (bat's style.rs
    // tests: 14 calls ambiguous between StyleComponent's and StyleComponentList's).
    if (ctx.language === "rust" && ofType.length === 0) {
      const implOf = `<${lastQ} as `;
      ofType = e.members.filter((s) => (s.parent ?? "").startsWith(implOf));
    }
    const typed = callTargets(ofType, ctx.language, isCall);
    if (typed.length > 0) {
      const sameFile = typed.filter((s) => s.file_id === ref.file_id);
      if (sameFile.length > 0) return pick(sameFile, "exact");
      // Java's `StringUtils.isBlank(cs)` in StringUtils' package: the package's one class of
      // that name, as sure as an import (commons-lang's Validate.java and the package's tests
      // were guesses, and renaming isBlank needed --allow-heuristic).
      if (ctx.language === "java" && q === lastQ) {
        const files = this.javaPackageFiles(ctx);
        const inPackage = typed.filter((s) => files.has(s.file_id));
        if (inPackage.length > 0 && inPackage.every((s) => s.file_id === (inPackage[0] as SymRow).file_id && s.parent_symbol_id === (inPackage[0] as SymRow).parent_symbol_id)) return pick(inPackage, "imported");
      }
      // (The key says which candidates callTargets kept: a Rust write's are never methods.)
      return this.memo(e, `t\0${lastQ}\0${posix.dirname(ctx.path)}\0${isCall ? ctx.language : ""}\0${current.refNotMethod ? "v" : ""}`, () => nearPick(typed, ctx));
    }
    // `Math.max`, `String::from`, `new StringBuilder().append`: a type the repository does not
    // declare (capitalised, as these languages name types; not an ALL_CAPS constant) is a
    // library's, and so is its member, whatever same-named member the repository has.
    const written = writtenType(q);
    if (TYPE_NAMED.has(ctx.language) && written !== undefined && this.entry(written).all.length === 0) return UNRESOLVED;
    return this.memberPick(e, ctx, ref.caller_symbol_id, isCall);
  }

  /**
   * C++: in a member function defined outside its class (`void registry::init() { handler_; }`,
   * in the class's namespace block or not), a name of the class's members, or of its bases'. Such
   * a body has no class around it in its file, so its class's fields were unresolved and a bare
   * `handler_` went to another class's out-of-class `logger::handler_` (spdlog's registry-inl.h).
   * The class is found by its name: `exact` in the same file, else `heuristic` (through includes).
   */
  private ownerMember(ctx: FileCtx, chain: string[], e: NameEntry, ref: RefRow, isCall: boolean, bare: boolean): Outcome | undefined {
    let owner: string | undefined;
    for (const scope of chain) {
      // (A class or struct around the body answers first: the scope chain has looked there.)
      if (TYPE_KINDS.has(ctx.kinds.get(scope) ?? "")) return undefined;
      owner = ctx.owners.get(scope);
      if (owner !== undefined) break;
    }
    if (owner === undefined || e.members.length === 0) return undefined;
    // A name that is not called is no method (C++ names one bare only to call it).
    const own = fitCall(callTargets((e.byParent.get(owner) ?? []).filter((s) => isCall || !(bare && BODY_KINDS.has(s.kind_normalized))), ctx.language, isCall));
    if (own.length > 0) {
      const here = own.filter((s) => s.file_id === ref.file_id);
      return here.length > 0 ? pick(here, "exact") : nearPick(own, ctx);
    }
    for (const t of this.entry(owner).all) {
      if (!TYPE_KINDS.has(t.kind_normalized)) continue;
      const up = this.inheritedPick(this.ctx(t.file_id), t.symbol_id, e, isCall, bare);
      if (up) return t.file_id === ref.file_id ? up : { ...up, how: weaker(up.how, "heuristic") };
    }
    return undefined;
  }

  /** A Go member of `type` (declared in `dir`) promoted from the types it embeds. */
  private promoted(ctx: FileCtx, type: string, dir: string, e: NameEntry, isCall: boolean): Outcome | undefined {
    let library = false;
    for (const t of this.entry(type).all) {
      if (t.kind_normalized !== "struct" || posix.dirname(t.path) !== dir) continue;
      const tctx = this.ctx(t.file_id);
      const up = this.inherited(tctx, t.symbol_id, e, isCall, false, new Set());
      if (up) return pick(up.rows, up.how);
      library ||= (tctx.bases.get(t.symbol_id) ?? []).some((b) => this.libraryType(tctx, b));
    }
    // Found in none of the repository's types it embeds, the member may be a library type's
    // (`m.Lock()` with sync.Mutex embedded): not another type's of the same name.
    return library ? UNRESOLVED : undefined;
  }

  /** The receiver type's name when `q` is the receiver of the Go method the reference is in. */
  private receiverType(ctx: FileCtx, caller: string | null, q: string): string | undefined {
    for (const scope of this.chain(ctx, caller)) {
      const r = ctx.receivers.get(scope);
      if (r !== undefined) return r[0] === q ? r[1] : undefined;
    }
    return undefined;
  }

  /**
   * A member named like `e` that the type `typeId` (of ctx's file) inherits: the first of its
   * bases, in the order they are written, that declares one or inherits one (a superclass before
   * the interfaces, Python's bases left to right). A base is found as its file spells it (its own
   * types, its imports, its package), and the outcome is as sure as the weakest such step.
   */
  private inheritedPick(ctx: FileCtx, typeId: string, e: NameEntry, isCall: boolean, bare = false): Outcome | undefined {
    const found = this.inherited(ctx, typeId, e, isCall, bare, new Set());
    return found && pick(found.rows, found.how);
  }

  private inherited(ctx: FileCtx, typeId: string, e: NameEntry, isCall: boolean, bare: boolean, seen: Set<string>): { rows: SymRow[]; how: Resolution } | undefined {
    if (seen.has(typeId) || seen.size >= 32) return undefined;
    seen.add(typeId);
    for (const base of this.baseTypes(ctx, typeId)) {
      // (A bare name that is not called is no method in Java or C++, where a method is named
      // bare only to call it.)
      const own = callTargets(
        membersOfType(e.members, base.row, ctx.language).filter((s) => isCall || !bare || s.kind_normalized !== "method"),
        ctx.language,
        isCall,
      );
      // A read or write of a name that is a field and a method (Java allows both) is the field.
      const fields = isCall ? [] : own.filter((s) => s.kind_normalized === "field");
      if (own.length > 0) return { rows: fields.length > 0 ? fields : own, how: base.how };
      const up = this.inherited(this.ctx(base.row.file_id), base.row.symbol_id, e, isCall, bare, seen);
      if (up) return { rows: up.rows, how: weaker(base.how, up.how) };
    }
    return undefined;
  }

  /** The types `typeId` extends or implements, each as its file's references would resolve it. */
  private baseTypes(ctx: FileCtx, typeId: string): { row: SymRow; how: Resolution }[] {
    const key = `${ctx.id}\0${typeId}`;
    let out = this.baseCache.get(key);
    if (out) return out;
    out = [];
    for (const written of ctx.bases.get(typeId) ?? []) out.push(...this.typesWritten(ctx, ctx.parents.get(typeId) ?? null, written, typeId));
    if (this.baseCache.size > 20_000) this.baseCache.clear();
    this.baseCache.set(key, out);
    return out;
  }

  /**
   * Whether a one-capital name (`B`) is a class ctx's file sees within `scope` (its own or an
   * import, not a guess through an include): receiverTypeName takes such a name for a type
   * parameter otherwise.
   */
  private seenClass(ctx: FileCtx, scope: string | null): (name: string) => boolean {
    return (name) => this.typesWritten(ctx, scope, name, null).some((t) => t.how !== "heuristic");
  }

  /**
   * The types a type name written in ctx's file denotes (`Base`, `pkg.Base`, `ns::Base`), seen
   * from `scope`, as the file's references of that name resolve; never `self` (a class named like
   * its base). Empty when the repository declares none there.
   */
  private typesWritten(ctx: FileCtx, scope: string | null, written: string, self: string | null, aliases = false): { row: SymRow; how: Resolution }[] {
    const isType = (s: SymRow): boolean => isTypeRow(s) || (aliases && s.kind_normalized === "type");
    const out: { row: SymRow; how: Resolution }[] = [];
    const cut = Math.max(written.lastIndexOf("."), written.lastIndexOf("::"));
    const name = cut < 0 ? written : written.slice(written.charAt(cut) === "." ? cut + 1 : cut + 2);
    const qualifier = cut < 0 ? null : written.slice(0, cut);
    // A type of the same file (a nested class extending its outer one): no lookup needed, and
    // the lookup's bare-name rule would see the class's constructors beside it.
    const here = qualifier === null ? (this.entry(name).byFile.get(ctx.id) ?? []).filter((s) => isType(s) && s.symbol_id !== self) : [];
    if (here.length === 1) return [{ row: here[0] as SymRow, how: "exact" }];
    const r = this.resolveRef({ id: 0, file_id: ctx.id, name, kind: "type", qualifier, caller_symbol_id: scope, arity: null, receiver_type: null });
    const ids = r.target !== null ? [r.target] : (r.candidates ?? []);
    const how: Resolution = r.how === "exact" || r.how === "imported" ? r.how : "heuristic";
    for (const id of ids) {
      // (Under another name when imported under an alias: `import { Router as Base }`.)
      let row = this.entry(name).all.find((s) => s.symbol_id === id);
      if (!row) {
        this.nameOfStmt ??= this.db.prepare("SELECT name FROM symbols WHERE symbol_id = ?").pluck();
        const real = this.nameOfStmt.get(id) as string | undefined;
        row = real === undefined ? undefined : this.entry(real).all.find((s) => s.symbol_id === id);
      }
      if (row && isType(row) && row.symbol_id !== self) out.push({ row, how: ids.length > 1 ? "heuristic" : how });
    }
    return out;
  }

  /**
   * `this.f.m()`, `self.f.m`, Go's `m.f.X()` in a method of m's type, Java's `f.m()`: when f is a
   * field of the enclosing type (or one it inherits) declared of a type, m is that type's member
   * (or one it inherits). A type the repository does not declare is a library's, and so is m.
   * Undefined when the qualifier is not such a field, or its type's members do not say.
   */
  private throughField(ctx: FileCtx, ref: RefRow, e: NameEntry, q: string, isCall: boolean): Outcome | undefined {
    // (Checked before the qualifier is split, and before any field's name is looked up: this
    // runs for every qualified reference, and most qualifiers are other values.)
    const bare = ctx.language === "java" || ctx.language === "cpp";
    if (ctx.language === "go" ? ctx.receivers.size === 0 : !bare && !SELF_QUALIFIERS.has(q.slice(0, q.indexOf(".")))) return undefined;
    const segs = (ctx.language === "cpp" ? q.replaceAll("->", ".") : q).split(".");
    if (segs.length > 4 || !segs.every((seg) => /^[A-Za-z_$][\w$]*$/.test(seg))) return undefined;
    let receiver: string | undefined;
    let path: string[];
    if (ctx.language === "go") {
      receiver = segs.length > 1 && ctx.receivers.size > 0 ? this.receiverType(ctx, ref.caller_symbol_id, segs[0] as string) : undefined;
      if (receiver === undefined) return undefined;
      path = segs.slice(1);
    } else if (segs.length > 1 && SELF_QUALIFIERS.has(segs[0] as string)) path = segs.slice(1);
    // Java and C++ name their own fields bare: `f.m()`, `f.g.m()`, `sink_->flush()`.
    else if (bare) path = segs;
    else return undefined;
    const isField = (s: SymRow): boolean => s.kind_normalized === "field";
    const first = this.entry(path[0] as string);
    if (first.members.length === 0) return undefined;
    let fields: SymRow[] = [];
    if (receiver !== undefined) {
      const dir = posix.dirname(ctx.path);
      fields = (first.byParent.get(receiver) ?? []).filter((s) => isField(s) && posix.dirname(s.path) === dir);
    } else {
      for (const scope of this.chain(ctx, ref.caller_symbol_id)) {
        const kind = ctx.kinds.get(scope) ?? "";
        if (!TYPE_KINDS.has(kind) && !ctx.bases.has(scope)) continue;
        if (kind === "impl") {
          // Rust: `self.f` in `impl T` (or `impl Trait for T`) is a field of the struct T,
          // declared in this file if T is.
          const type = this.implTarget(scope);
          const named = first.members.filter((s) => isField(s) && s.parent === type);
          const here = named.filter((s) => s.file_id === ctx.id);
          fields = here.length > 0 ? here : named;
          break;
        }
        fields = first.members.filter((s) => s.parent_symbol_id === scope && isField(s));
        if (fields.length === 0) fields = (this.inherited(ctx, scope, first, false, false, new Set())?.rows ?? []).filter(isField);
        break;
      }
      // A C++ method defined out of its class (`void logger::flush() { sink_->flush(); }`, in
      // another file than the class) has no enclosing scope: its class is the one it is named by.
      if (fields.length === 0 && ctx.language === "cpp" && ref.caller_symbol_id !== null) {
        this.parentNameStmt ??= this.db.prepare("SELECT parent FROM symbols WHERE symbol_id = ? AND parent_symbol_id IS NULL").pluck();
        const owner = this.parentNameStmt.get(ref.caller_symbol_id) as string | null | undefined;
        if (owner) {
          const classes = new Set(this.entry(owner).all.filter((c) => TYPE_KINDS.has(c.kind_normalized) && c.language === "cpp").map((c) => c.symbol_id));
          fields = first.members.filter((s) => isField(s) && classes.has(s.parent_symbol_id ?? ""));
        }
      }
    }
    return this.alongFields(ctx, fields, path, e, isCall, "exact");
  }

  /**
   * The member `e` at the end of `path`, a path of fields whose first step has the rows `fields`:
   * each field's declared type gives the next step, as sure as the weakest step and `how`.
   */
  private alongFields(ctx: FileCtx, fields: SymRow[], path: string[], e: NameEntry, isCall: boolean, how: Resolution): Outcome | undefined {
    for (let i = 0; ; i++) {
      if (fields.length !== 1) return undefined;
      const f = fields[0] as SymRow;
      const fctx = this.ctx(f.file_id);
      const cLike = fctx.language === "cpp" || fctx.language === "c";
      // (C++: `std::unique_ptr<T> p` is T's, `const Foo &f` Foo's, a template's parameter no type.)
      const written = this.declaredType(f.symbol_id);
      const declared = written && cLike ? receiverTypeName(fctx.language, written) : written;
      if (!declared) return undefined;
      const types = this.typesWritten(fctx, f.parent_symbol_id, declared, null);
      // (In C/C++ only a namespace's type is a library's: `Handler& h` may be a template's parameter.)
      if (types.length === 0) return this.libraryType(fctx, declared) && (!cLike || declared.includes("::")) ? UNRESOLVED : undefined;
      // The next field along the path, or the member itself: declared in the type or inherited.
      const last = i === path.length - 1;
      const found = this.memberOfTypes(types, last ? e : this.entry(path[i + 1] as string), ctx.language, isCall, !last);
      // A repository type that neither declares nor inherits the member holds it from a library
      // base (gin's `c.Writer.Header()`: ResponseWriter embeds http.ResponseWriter), as for a
      // typed local (throughLocal): no same-named member of another type (it was Context.Header).
      if (!found) return last ? this.missingMember(ctx, types) : undefined;
      how = weaker(how, found.how);
      if (last) return pick(found.rows, how);
      fields = found.rows;
    }
  }

  private declaredStmt: ReturnType<DB["prepare"]> | undefined;
  private parentNameStmt: ReturnType<DB["prepare"]> | undefined;

  /** A symbol's declared_type: a field's or variable's type, a function's return type, what an alias names. */
  private declaredType(symbolId: string): string | null | undefined {
    this.declaredStmt ??= this.db.prepare("SELECT declared_type FROM symbols WHERE symbol_id = ?").pluck();
    return this.declaredStmt.get(symbolId) as string | null | undefined;
  }

  /**
   * The members named like `want` of the first of `types` that declares or inherits one, as sure
   * as the way to that type and to the member (`fieldsOnly`: its fields, a path's next step;
   * else what a call or read of it can reach).
   */
  private memberOfTypes(types: { row: SymRow; how: Resolution }[], want: NameEntry, language: string, isCall: boolean, fieldsOnly: boolean): { rows: SymRow[]; how: Resolution } | undefined {
    const isField = (s: SymRow): boolean => s.kind_normalized === "field";
    for (const t of types) {
      const own = membersOfType(want.members, t.row, language);
      const rows = fieldsOnly ? own.filter(isField) : callTargets(own, language, isCall);
      if (rows.length > 0) return { rows, how: t.how };
      const up = this.inherited(this.ctx(t.row.file_id), t.row.symbol_id, want, !fieldsOnly && isCall, false, new Set());
      const upRows = up ? (fieldsOnly ? up.rows.filter(isField) : up.rows) : [];
      if (up && upRows.length > 0) return { rows: upRows, how: weaker(t.how, up.how) };
      if (language === "rust" && !fieldsOnly) {
        const defaults = this.traitDefaults(t.row, want);
        if (defaults.length > 0) return { rows: defaults, how: t.how };
      }
    }
    return undefined;
  }

  /**
   * Rust: the methods named like `want` that a trait the type implements (an `impl Trait for T`
   * the index holds as `<T as Trait>`) gives it with a default body, which its impl does not
   * override (membersOfType found no `<T as Trait>::m`). `d.double()` on a known Circle, whose
   * `impl Area for Circle` has only `area`, was unresolved ("dynamic_receiver"): the default
   * `Area::double` runs.
   */
  private traitDefaults(type: SymRow, want: NameEntry): SymRow[] {
    return want.members.filter((s) => s.language === "rust" && s.kind_normalized === "method" && s.parent !== null && s.parent_kind === "trait" && this.hasImpl(`<${type.name} as ${s.parent}>`));
  }

  private implStmt: ReturnType<DB["prepare"]> | undefined;
  private readonly impls = new Map<string, boolean>();

  /** Whether an impl block of that name (`<T as Trait>`) is indexed (candidates leave impl blocks out). */
  private hasImpl(name: string): boolean {
    let hit = this.impls.get(name);
    if (hit === undefined) {
      this.implStmt ??= this.db.prepare("SELECT 1 FROM symbols WHERE name = ? AND kind_normalized = 'impl' LIMIT 1").pluck();
      hit = this.implStmt.get(name) !== undefined;
      if (this.impls.size >= 20_000) this.impls.clear();
      this.impls.set(name, hit);
    }
    return hit;
  }

  /**
   * `s.m()` where s is a parameter or local variable declared of a type (receiver_type): m is a
   * member of that type, or one it inherits. A type the repository does not declare (Java's
   * `String`, Go's `*http.Request`), an array, a primitive, or a repository type that neither
   * declares nor inherits m (Java's `equals` from Object, a method of an embedded library type)
   * is outside, and so is m: no same-named member of another type (`className.substring(1)` was
   * a `heuristic` call of commons-lang's static StringUtils.substring). Undefined when the
   * declared type says nothing (a type parameter, a form not read here).
   */
  private throughLocal(ctx: FileCtx, ref: RefRow, e: NameEntry, written: string, isCall: boolean): Outcome | undefined {
    // `s.f.g.m()`: s is the local, its type's fields lead to m (extraction records s's type for a
    // path of fields from it). (`self.x.m()`: x's own type, from the class's `self.x = ...`, not
    // self's.)
    const q = ref.qualifier as string;
    const dot = FIELD_PATH.test(q) && !SELF_QUALIFIERS.has(q.slice(0, q.indexOf("."))) ? q.indexOf(".") : -1;
    // `x = make()`: x is of make's declared return type (valueTypes). Go: `w :=
    // httptest.NewRecorder()`: a library package's function returns a library type (w.Header()
    // was a guess among the repository's Header methods); a repository function's result type
    // (`s := NewServer()`) is the local's.
    if (written.endsWith("()") || isChainMarker(written)) {
      if (ctx.language === "go" && this.externalHead(ctx, written)) return UNRESOLVED;
      const r = this.valueTypes(ctx, ref.caller_symbol_id, written);
      if (dot < 0 || r === null || r === "library") return this.memberOfValue(r, e, ctx.language, isCall);
      // (gin's `c.Request.Header` with `c, _ := CreateTestContext(w)`: Context's field Request,
      // then its type's Header; it was Context's own Header.)
      return this.alongPath(ctx, r.types, q.slice(dot + 1), e, isCall, r.how);
    }
    const type = receiverTypeName(ctx.language, written, this.seenClass(ctx, ref.caller_symbol_id));
    if (type === null) return UNRESOLVED;
    if (type === undefined) return undefined;
    // A Go method's receiver has rules of its own (below: its type's package, then embedding).
    if (ctx.receivers.size > 0 && this.receiverType(ctx, ref.caller_symbol_id, dot < 0 ? q : q.slice(0, dot)) !== undefined) return undefined;
    const key = `${ctx.id}\0${ref.caller_symbol_id ?? ""}\0${type}`;
    let types = this.localTypes.get(key);
    if (types === undefined) {
      types = this.typesWritten(ctx, ref.caller_symbol_id, type, null);
      if (this.localTypes.size >= 20_000) this.localTypes.clear();
      this.localTypes.set(key, types);
    }
    // C and C++: macros and templates hide from extraction what a type declares, and a name no
    // symbol has may be a template's parameter or a macro: what is not found here is left to the
    // other rules.
    const cautious = ctx.language === "c" || ctx.language === "cpp";
    // C++: an alias is the type it names, as the alias's file writes it (googletest's
    // `ThreadLocalValues& values` is a std::map: values.end() was a heuristic call of
    // NativeArray::end).
    let named = type;
    let namedIn = ctx;
    for (let hop = 0, scope = ref.caller_symbol_id; hop < 4 && cautious && types.length === 0; hop++) {
      const found = this.typesWritten(namedIn, scope, named, null, true);
      const alias = found.length === 1 && found[0]?.row.kind_normalized === "type" ? found[0] : undefined;
      if (alias === undefined) break;
      const written = this.declaredType(alias.row.symbol_id);
      // (`std::shared_ptr<ITracker>` is ITracker's, `std::vector<T>` std::vector's.)
      const aliased = written ? receiverTypeName(ctx.language, written) : undefined;
      if (!aliased) break;
      named = aliased;
      namedIn = this.ctx(alias.row.file_id);
      scope = alias.row.parent_symbol_id;
      types = this.typesWritten(namedIn, scope, aliased, null).map((t) => ({ row: t.row, how: weaker(alias.how, t.how) }));
    }
    if (dot >= 0) {
      if (types.length === 0) return cautious || !this.libraryType(ctx, type) ? undefined : UNRESOLVED;
      return this.alongPath(ctx, types, q.slice(dot + 1), e, isCall, "exact");
    }
    if (types.length === 0) {
      // Rust: a trait of the repository implemented for a library type (`impl PathExt for Path`)
      // gives it methods the repository declares.
      if (ctx.language === "rust") {
        const last = type.slice(type.lastIndexOf(":") + 1);
        const ext = callTargets(e.members.filter((s) => (s.parent ?? "").startsWith(`<${last} as `)), ctx.language, isCall);
        if (ext.length > 0) return pick(ext, "heuristic");
      }
      // (A library type's `->` may reach a repository type, an iterator's: only a call of a
      // namespace's type, `std::string`, `::std::vector<T>`, is known to be outside.)
      if (cautious) return ref.kind === "call" && /::/.test(named) && this.libraryType(namedIn, named) ? UNRESOLVED : undefined;
      return this.libraryType(ctx, type) ? UNRESOLVED : undefined;
    }
    const found = e.members.length > 0 ? this.memberOfTypes(types, e, ctx.language, isCall, false) : undefined;
    if (found) return pick(found.rows, found.how);
    return this.missingMember(ctx, types);
  }

  /** The member `e` at the end of `fields` (`f.g`), a path of fields from a value of `types`, as sure as `how` and each step. */
  private alongPath(ctx: FileCtx, types: { row: SymRow; how: Resolution }[], fields: string, e: NameEntry, isCall: boolean, how: Resolution): Outcome | undefined {
    const path = fields.split(".");
    const first = this.entry(path[0] as string);
    const found = first.members.length > 0 ? this.memberOfTypes(types, first, ctx.language, false, true) : undefined;
    return found && this.alongFields(ctx, found.rows, path, e, isCall, weaker(how, found.how));
  }

  /**
   * A member that the repository's `types` neither declare nor inherit: a library base's, or none
   * (unresolved). C and C++ say nothing, macros and templates hiding what a type declares.
   */
  private missingMember(ctx: FileCtx, types: { row: SymRow }[]): Outcome | undefined {
    if (ctx.language === "c" || ctx.language === "cpp") return undefined;
    // (A Go alias, `type A = B`, is extracted like a defined type and has B's methods, which are
    // not its own: a member missing there says nothing.)
    if (ctx.language === "go" && types.every((t) => t.row.kind_normalized === "type")) return undefined;
    return UNRESOLVED;
  }

  /** Whether `written` (`pkg.F()`, `pkg.T`) is qualified by an import of a module outside the repository. */
  private externalHead(ctx: FileCtx, written: string): boolean {
    return this.importOf(ctx, written.slice(0, written.indexOf(".")))?.external === true;
  }

  /**
   * The import that binds `name` in ctx's file (a module or a name imported from one), and
   * whether its module is outside the repository (no file of it found, and a library's
   * specifier); undefined when no import binds the name.
   */
  private importOf(ctx: FileCtx, name: string): { source: string; external: boolean } | undefined {
    const h = this.importIndex(ctx).heads.get(name);
    return h === undefined ? undefined : { source: h.im.source, external: this.resolveModule(ctx, h.im.source).length === 0 && this.externalModule(ctx, h.im.source) };
  }

  /**
   * `app.route()` where the file imports app, a module-level variable of another file declared
   * (or assigned a constructor call) of a type: route is a member of that type, as the type's
   * name reads in the variable's file. A library type's members are outside; a type of the
   * repository without the member says nothing here (an attribute set at run time).
   */
  private throughImportedInstance(ctx: FileCtx, e: NameEntry, q: string, isCall: boolean): Outcome | undefined {
    // (By file and qualifier: most import-bound qualifiers are modules and libraries, `React.x`,
    // `path.y`, each asked for once per member name otherwise.)
    const key = `${ctx.id}\0${q}`;
    let r = this.instanceTypes.get(key);
    if (r === undefined) {
      r = this.importedInstanceType(ctx, q);
      if (this.instanceTypes.size >= 20_000) this.instanceTypes.clear();
      this.instanceTypes.set(key, r);
    }
    return this.memberOfValue(r === null || r === "library" ? r : { types: r.types, how: weaker("imported", r.how) }, e, ctx.language, isCall);
  }

  /**
   * The member `e` of a value of the types `valueTypes` gave: a library type's is outside; a
   * repository type that neither declares nor inherits it says nothing here (the value's type was
   * found by the rules, which may have missed an overload or a more specific type).
   */
  private memberOfValue(r: ValueTypes, e: NameEntry, language: string, isCall: boolean): Outcome | undefined {
    if (r === null) return undefined;
    if (r === "library") return UNRESOLVED;
    const found = e.members.length > 0 ? this.memberOfTypes(r.types, e, language, isCall, false) : undefined;
    return found ? pick(found.rows, weaker(r.how, found.how)) : undefined;
  }

  /**
   * What a value written `written` in ctx's file (within `scope`) holds: the types of a declared
   * type as the file names them, or for `f()` what f returns (returnedTypes). A builtin type
   * called (Python's `set()`, `dict()`) or a library type is "library"; null when the writing
   * says nothing here.
   */
  private valueTypes(ctx: FileCtx, scope: string | null, written: string): ValueTypes {
    const marked = readChainMarker(written);
    if (marked !== undefined) return this.chainValue(ctx, scope, marked.chain, marked.receiverType, marked.chain.steps.length, marked.awaited);
    if (written.endsWith("()")) {
      const callee = written.slice(0, -2);
      return receiverTypeName(ctx.language, callee) === null ? "library" : this.returnedTypes(ctx, scope, callee);
    }
    const type = receiverTypeName(ctx.language, written, this.seenClass(ctx, scope));
    if (type === null) return "library";
    if (type === undefined) return null;
    const types = this.typesWritten(ctx, scope, type, null);
    return types.length > 0 ? { types, how: "exact" } : this.libraryType(ctx, type) ? "library" : null;
  }

  /**
   * The declared return type of the function `callee` (`make`, `db.connect`) called in ctx's file
   * within `scope`, when the call resolves to one function for sure (exact or imported), as the
   * function's file names it (valueTypes).
   */
  private returnedTypes(ctx: FileCtx, scope: string | null, callee: string, receiverType: string | null = null, awaited = false): ValueTypes {
    const key = `${ctx.id}\0${scope ?? ""}\0${callee}\0${receiverType ?? ""}\0${awaited ? "await" : ""}`;
    let r = this.returned.get(key);
    if (r !== undefined) return r;
    r = null;
    const cut = callee.lastIndexOf(".");
    const name = callee.slice(cut + 1);
    const o = this.resolveRef({ id: 0, file_id: ctx.id, name, kind: "call", qualifier: cut < 0 ? null : callee.slice(0, cut), caller_symbol_id: scope, arity: null, receiver_type: receiverType });
    const f = o.target !== null && (o.how === "exact" || o.how === "imported") ? this.entry(name).all.find((s) => s.symbol_id === o.target) : undefined;
    if (f && (f.kind_normalized === "fn" || f.kind_normalized === "method")) {
      // (A return type is a type's name, never another call's `f()`: extraction reads it as one.)
      const declared = awaitedType(this.declaredType(f.symbol_id) ?? "", awaited) || null;
      // (`where(): this`, `-> Self`: the method's own type.)
      const owner = declared && SELF_TYPES.has(declared) && f.parent !== null ? this.entry(f.parent).all.find((s) => s.symbol_id === f.parent_symbol_id && isTypeRow(s)) : undefined;
      const v = owner ? { types: [{ row: owner, how: "exact" as Resolution }], how: "exact" as Resolution } : declared ? this.returnValue(f, declared) : null;
      r = v === null || v === "library" ? v : { types: v.types, how: weaker(v.how, o.how) };
    } else if (ctx.language === "go" && o.target === null && o.how === "unresolved" && receiverType !== null && this.libraryReceiver(ctx, scope, receiverType)) {
      // Go: a method of a library type's value gives a library value: `resp, err :=
      // client.Do(req)` with `client *http.Client`, `inf.ModTime()` with `inf, _ := os.Stat(p)`;
      // their members (`resp.Header.Get`, `inf.ModTime().String()`) were guesses among the
      // repository's Get and String methods. (A repository type's member promoted from an
      // embedded library type may be a generic's, `graph.Graph[string, *Vertex]`'s `Vertex()`,
      // which gives a repository type: left unknown.)
      r = "library";
    } else if (ctx.language === "python" && o.target !== null && (o.how === "exact" || o.how === "imported")) {
      // A Python class is called to make one: `sessions.Session()` in a chain (`with
      // sessions.Session() as s` reads `sessions.Session().__enter__()`) is a Session.
      const made = this.entry(name).all.find((s) => s.symbol_id === o.target && isTypeRow(s));
      if (made) r = { types: [{ row: made, how: o.how }], how: o.how };
    }
    if (this.returned.size >= 20_000) this.returned.clear();
    this.returned.set(key, r);
    return r;
  }

  private readonly returned = new Map<string, ValueTypes>();

  /**
   * Whether a Go receiver, as written (`*http.Client`) or as the marker of the call that made it
   * (`os.Stat()`), is a library's value: a type the repository does not declare and a library
   * names, or a library package's function's result. Generic types are not (`atomic.Pointer[T]`).
   */
  private libraryReceiver(ctx: FileCtx, scope: string | null, written: string): boolean {
    if (written.includes("[")) return false;
    if (written.endsWith("()")) return /^[A-Za-z_]\w*\.[A-Za-z_]\w*\(\)$/.test(written) && this.externalHead(ctx, written);
    const type = receiverTypeName(ctx.language, written);
    return typeof type === "string" && this.typesWritten(ctx, scope, type, null).length === 0 && this.libraryType(ctx, type);
  }

  /**
   * The member `e` of what a chain of calls gives: `repo.createQueryBuilder("u").where("a")` with
   * repo a `Repository` is QueryBuilder's `where` when createQueryBuilder is declared to return a
   * QueryBuilder, and the next link's too when `where` returns `this`. Each call's target must be
   * one method (or several declaring one return type) of the types so far, as the other rules
   * find it for the first call; its declared return type, as its own file names it, is the next
   * value. A library function's or type's result has library members (`expect(x).to` with
   * `expect` from an npm package); a link the repository does not say (no return type written,
   * a type parameter, a member it does not declare) leaves the reference to the other rules.
   */
  private throughChain(ctx: FileCtx, ref: RefRow, e: NameEntry, chain: Chain, isCall: boolean): Outcome | undefined {
    if (e.all.length === 0) return undefined;
    return this.memberOfValue(this.chainValue(ctx, ref.caller_symbol_id, chain, ref.receiver_type ?? null, chain.steps.length), e, ctx.language, isCall);
  }

  /**
   * What the chain's head and its first `n` links give. Each link's reference asks for the value
   * of the links before it, so a chain of k links is walked once, not k times: by file, scope,
   * receiver type and the links' names (their arguments say nothing of the types).
   */
  private chainValue(ctx: FileCtx, scope: string | null, chain: Chain, receiverType: string | null, n: number, awaited = false): ValueTypes {
    const first = chain.ctor || chain.headCall ? -1 : chain.steps.findIndex((s) => s.call);
    if (n > first + 1) {
      const key = `${ctx.id}\0${scope ?? ""}\0${receiverType ?? ""}\0${awaited ? "await " : ""}${chain.ctor ? "new " : ""}${chain.head}${chain.headCall ? "()" : ""}${chain.steps
        .slice(0, n)
        .map((s) => (s.call ? `.${s.name}()` : `.${s.name}`))
        .join("")}`;
      let v = this.chainValues.get(key);
      if (v === undefined) {
        const before = this.chainValue(ctx, scope, chain, receiverType, n - 1);
        v = before === null || before === "library" ? before : this.stepValue(before, chain.steps[n - 1] as ChainStep, ctx.language, awaited);
        if (this.chainValues.size >= 20_000) this.chainValues.clear();
        this.chainValues.set(key, v);
      }
      return v;
    }
    // (`await new T()` is a T, as `await` of anything not a promise is itself.)
    if (chain.ctor) return this.valueTypes(ctx, scope, chain.head);
    if (chain.headCall) {
      // `expect(x)` with expect imported from a library; Python's `Client()` makes a Client.
      // (A package of the repository that did not resolve to a file is no library: its members are the repository's.)
      const imported = this.importOf(ctx, chain.head);
      if (imported?.external && !(TS_FAMILY.has(ctx.language) && this.modules.ts.ownPackage(imported.source))) return "library";
      const made = ctx.language === "python" && typeof receiverTypeName(ctx.language, chain.head) === "string" ? this.typesWritten(ctx, scope, chain.head, null) : [];
      return made.length > 0 ? { types: made, how: "exact" } : this.returnedTypes(ctx, scope, chain.head, null, awaited);
    }
    // The first call is a reference like any other (a local's, a field's, an import's, a type's
    // static method): the rules find its target, whose return type starts the chain.
    return this.returnedTypes(ctx, scope, [chain.head, ...chain.steps.slice(0, first + 1).map((s) => s.name)].join("."), receiverType, awaited);
  }

  private readonly chainValues = new Map<string, ValueTypes>();

  /** What reading or calling the member `step` of a value of `v`'s types gives (chainValue). */
  private stepValue(v: { types: { row: SymRow; how: Resolution }[]; how: Resolution }, step: ChainStep, language: string, awaited = false): ValueTypes {
    const want = this.entry(step.name);
    const found = want.members.length > 0 ? this.memberOfTypes(v.types, want, language, step.call, !step.call) : undefined;
    if (!found) return null;
    const declared = new Set(found.rows.map((r) => this.declaredType(r.symbol_id) ?? ""));
    const written = awaitedType(declared.size === 1 ? ([...declared][0] as string) : "", awaited);
    if (written === "" || written.endsWith("()")) return null;
    const how = weaker(v.how, found.how);
    // (`where(): this`, Rust's `-> Self`, Python's `-> Self`: the value's own types.)
    if (SELF_TYPES.has(written)) return { types: v.types, how };
    const next = this.returnValue(found.rows[0] as SymRow, written);
    return next === null || next === "library" ? next : { types: next.types, how: weaker(how, next.how) };
  }

  /**
   * What a call of the function `f` declared to return `written` gives (valueTypes, as f's file
   * names the type). In TypeScript and JavaScript a bare name that no symbol has, that f's file
   * does not import and that is no global of the runtime is a type parameter (typeorm's
   * `create(): Entity`): nothing known, where valueTypes would say library. (Java's are one
   * capital, which says nothing already; `String` is java.lang's.)
   */
  private returnValue(f: SymRow, written: string): ValueTypes {
    const ctx = this.ctx(f.file_id);
    const name = receiverTypeName(ctx.language, written);
    if (TS_FAMILY.has(ctx.language) && typeof name === "string" && !name.includes(".") && !TS_GLOBAL_TYPES.has(name) && this.entry(name).all.length === 0 && !this.importIndex(ctx).heads.has(name)) return null;
    return this.valueTypes(ctx, f.parent_symbol_id, written);
  }

  /** The types of the module-level instance `q` imported into ctx's file (valueTypes of its declared type, in its file). */
  private importedInstanceType(ctx: FileCtx, q: string): ValueTypes {
    const rows = this.viaImports(ctx, q, null);
    if (!rows || rows.length !== 1) return null;
    const v = rows[0] as SymRow;
    if ((v.kind_normalized !== "var" && v.kind_normalized !== "const") || v.parent_symbol_id !== null) return null;
    const declared = this.declaredType(v.symbol_id);
    return declared ? this.valueTypes(this.ctx(v.file_id), null, declared) : null;
  }

  private readonly instanceTypes = new Map<string, ValueTypes>();

  /** typesWritten of a local's declared type, by file, scope and type (a file declares many locals of a few types). */
  private readonly localTypes = new Map<string, { row: SymRow; how: Resolution }[]>();

  /** The type a Rust impl block is for: `Printer` of `impl Printer` and of `impl Display for Printer`. */
  private implTarget(implId: string): string | undefined {
    this.nameOfStmt ??= this.db.prepare("SELECT name FROM symbols WHERE symbol_id = ?").pluck();
    const name = this.nameOfStmt.get(implId) as string | undefined;
    return name === undefined ? undefined : (/^<(.+) as .+>$/s.exec(name)?.[1] ?? name);
  }

  /**
   * A type name written in ctx's file that is a library's: qualified by an import of a module
   * outside the repository (`viewport.Model`), or a name no symbol of the repository has.
   */
  private libraryType(ctx: FileCtx, written: string): boolean {
    const cut = Math.max(written.lastIndexOf("."), written.lastIndexOf("::"));
    if (cut < 0) return this.entry(written).all.length === 0;
    const imported = this.importOf(ctx, written.slice(0, written.search(/\.|::/)));
    if (imported) return imported.external;
    const name = written.slice(written.charAt(cut) === "." ? cut + 1 : cut + 2);
    return this.entry(name).all.length === 0;
  }

  private readonly baseCache = new Map<string, { row: SymRow; how: Resolution }[]>();

  private nameOfStmt: ReturnType<DB["prepare"]> | undefined;

  private memo(e: NameEntry, key: string, fn: () => Outcome): Outcome {
    // An outcome holds for calls of one argument count (pick() narrows overloads by it), and for
    // one set of kinds the reference can name (a TypeScript type, call or read: see refNever and
    // refValue).
    const kinds = current.refValue ? "\0r" : current.refNever === TS_NOT_TYPES ? "\0t" : current.refNever === TS_NOT_CALLED ? "\0c" : current.refNotAssoc ? "\0a" : "";
    const k = (current.callArity === null ? key : `${key}\0${current.callArity}`) + kinds;
    let r = e.memo.get(k);
    if (!r) {
      r = fn();
      e.memo.set(k, r);
    }
    return r;
  }

  /**
   * A symbol declared inside a function body (flag `local`) is visible only from within that
   * body: a class local to one test is not what another test's `ctx.invoke()` calls.
   */
  private visibleFrom(s: SymRow, ctx: FileCtx, caller: string | null): boolean {
    if (!s.flags || !s.flags.split(",").includes("local")) return true;
    if (s.file_id !== ctx.id || caller === null) return false;
    const chain = new Set(this.chain(ctx, caller));
    for (let a = s.parent_symbol_id; a; a = ctx.parents.get(a) ?? null) if (chain.has(a)) return true;
    return false;
  }

  /** `x.m()` on a value of unknown type: a member named m, preferably in this file or one it imports. */
  private memberPick(e: NameEntry, ctx: FileCtx, caller: string | null, isCall: boolean, exclude: Set<string> = NO_IDS): Outcome {
    if (e.members.length === 0) return UNRESOLVED;
    if (!ctx.reach) {
      // (A Java import names a class, `import a.b.C`: its file, not the package's others.)
      // (Python's `from . import sessions` names a module: requests' api.py reaches sessions.py.)
      const imported = (i: ImportInfo): number[] =>
        ctx.language === "java" && i.names.length > 0 && !i.names.some((n) => n.name === "*")
          ? i.names.flatMap((n) => this.resolveModule(ctx, `${i.source}.${n.name}`))
          : ctx.language === "python"
            ? [...this.resolveModule(ctx, i.source), ...i.names.filter((n) => n.name !== "*").flatMap((n) => this.resolveModule(ctx, `${i.source}${i.source.endsWith(".") ? "" : "."}${n.name}`))]
            : this.resolveModule(ctx, i.source);
      const reach = new Set<number>([ctx.id, ...ctx.imports.flatMap(imported)]);
      // A Go package is its directory, a Java package every directory of that path (main and
      // test source roots): their other files are reachable without an import.
      const same: number[] = [];
      if (ctx.language === "go") this.modules.files.dirFiles(posix.dirname(ctx.path), ".go", same);
      else if (ctx.language === "java") this.modules.java.packageFiles(posix.dirname(ctx.path), ctx.javaPackage, same);
      for (const id of same) reach.add(id);
      ctx.reach = reach;
    }
    const reach = ctx.reach;
    // A constructor named like its class (C++, Java) is called by the class's name, never as a
    // member of a value or of another scope (`Catch::Equals(...)` is no `Impl::Equals::Equals`).
    e.memberOf ??= e.members.filter((s) => !(s.kind_normalized === "ctor" && s.parent === s.name));
    const members = e.memberOf;
    // Fields give way to methods among the candidates in reach (a method nobody here can see
    // does not make a reachable field uncallable).
    // (Never one whose arity a Java or C++ call cannot call: see pick.)
    const reachable = fitCall(
      callTargets(
        members.filter((s) => reach.has(s.file_id) && !exclude.has(s.parent_symbol_id ?? "") && this.visibleFrom(s, ctx, caller)),
        ctx.language,
        isCall,
      ),
    );
    // A field declared of a named type holds data (a function-typed one, zustand's `setState: (s)
    // => void`, records none): a call reaches it only when no method of that name exists.
    // requests' `session.request()` was tied to the annotation `request: PreparedRequest` of an
    // imported module's Response, while the method called, Session.request, sat out of reach.
    if (isCall && reachable.length > 0 && reachable.every((s) => s.kind_normalized === "field" && (this.declaredType(s.symbol_id) ?? null) !== null)) {
      const callable = members.filter((s) => s.kind_normalized !== "field" && !exclude.has(s.parent_symbol_id ?? ""));
      if (callable.length > 0) return { target: null, how: "ambiguous", candidates: [...callable, ...reachable].slice(0, MAX_CANDIDATES).map((s) => s.symbol_id) };
    }
    if (reachable.length > 0) {
      // (A super call knows its receiver: the base class, whose own method it means.)
      const name = reachable[0]?.name ?? "";
      const universal = exclude === NO_IDS && (UNIVERSAL_MEMBERS[ctx.language]?.has(name) === true || BUILTIN_MEMBERS[ctx.language]?.has(name) === true);
      const r = universal ? AMBIGUOUS : pick(reachable, "heuristic");
      // `self._dict.items()` inside `def items(self)`: a method calling its own name on another
      // value is delegation as often as recursion (`child.render()`), so it is no guess to state.
      if (r.target === null || r.target === caller) return { target: null, how: "ambiguous", candidates: reachable.slice(0, MAX_CANDIDATES).map((s) => s.symbol_id) };
      return r;
    }
    // Members only of files this one does not import: the receiver's type is unknown and most
    // likely a library's (`map.get()`), so list them rather than guess.
    const rest = fitCall(
      callTargets(
        members.filter((s) => !exclude.has(s.parent_symbol_id ?? "")),
        ctx.language,
        isCall,
      ),
    );
    if (rest.length === 0) return UNRESOLVED;
    return { target: null, how: "ambiguous", candidates: rest.slice(0, MAX_CANDIDATES).map((s) => s.symbol_id) };
  }

  /** The files of a Java file's package, in every source root (cached on the file's context). */
  private javaPackageFiles(ctx: FileCtx): Set<number> {
    if (!ctx.packageFiles) {
      const same: number[] = [];
      this.modules.java.packageFiles(posix.dirname(ctx.path), ctx.javaPackage, same);
      ctx.packageFiles = new Set(same);
    }
    return ctx.packageFiles;
  }

  /**
   * A bare name neither declared in the file nor imported. In module languages (TS/JS, Python,
   * Rust) it cannot name another file's symbol: it is a local, a parameter or a builtin, so it
   * stays unresolved rather than being wired to a same-named stranger. Go and Java see their
   * package (the directory) without imports; C and C++ see whatever headers brought in.
   */
  private unqualifiedGlobal(e: NameEntry, ctx: FileCtx): Outcome {
    if (e.globals.length === 0) return UNRESOLVED;
    const dir = posix.dirname(ctx.path);
    switch (ctx.language) {
      case "go": {
        // The package is the directory: one package-level function of that name there is the one
        // a bare call means (Go has no overloading; a local, resolved before, would shadow it; an
        // external test's or an ignored file's own declaration of the name would be a second
        // candidate). echo's `getRawQueryParam(q, name)` in its own package's test file was a
        // guess, and deleting the function said it "may" be used "on values whose type the index
        // does not know". (A type named so stays a guess, and what is reached through it.)
        const pkg = e.globals.filter((s) => posix.dirname(s.path) === dir);
        const call = pkg.length === 1 && (pkg[0] as SymRow).kind_normalized === "fn";
        return pkg.length > 0 ? pick(pkg, call ? "imported" : "heuristic") : UNRESOLVED;
      }
      case "java": {
        // The package, whose classes live in each source root's directory of its path (a test
        // sees its package's main classes without an import).
        const files = this.javaPackageFiles(ctx);
        const pkg = e.globals.filter((s) => files.has(s.file_id));
        // One class of that name in the package is the one the name means (a single-type import
        // or a class in scope, which would shadow it, resolved before): Java imports its
        // package's classes implicitly. commons-lang's `StringUtils.isBlank(cs)` in Validate.java
        // and in the package's tests was a guess, so renaming isBlank needed --allow-heuristic.
        return pkg.length > 0 ? pick(pkg, pkg.length === 1 ? "imported" : "heuristic") : UNRESOLVED;
      }
      case "c":
      case "cpp":
        return this.memo(e, `g\0${dir}`, () => nearPick(e.globals, ctx));
      default:
        return UNRESOLVED;
    }
  }

  /**
   * Loads the candidates of many names in one query (an incremental run resolves a few thousand
   * references with a few hundred names: one query each cost more than the resolving).
   */
  prefetch(names: Iterable<string>): void {
    const missing = [...new Set(names)].filter((n) => !this.nameCache.has(n));
    if (missing.length < 2) return;
    this.remember(missing, this.byNames.all(JSON.stringify(missing)) as SymTuple[]);
  }

  /** Resolves the given references and stores the outcome (inside the caller's transaction). */
  resolveRows(refs: Iterable<RefRow>): number {
    let n = 0;
    const list = Array.isArray(refs) ? (refs as RefRow[]) : [...refs];
    this.prefetch(list.map((r) => r.name));
    for (const ref of list) {
      const r = this.resolveRef(ref);
      n++;
      this.update.run(r.target, r.how, r.candidates ? JSON.stringify(r.candidates) : null, ref.id);
    }
    return n;
  }

  refsOfFiles(fileIds: number[]): RefRow[] {
    const st = this.db.prepare(`SELECT ${REF_COLUMNS} FROM refs WHERE file_id = ?`);
    return fileIds.flatMap((id) => st.all(id) as RefRow[]);
  }

  /**
   * References in `fileIds` that reach a symbol through an import binding of one of `names` or
   * of a default export, by their own name or by their qualifier's head (`import { a as b }`:
   * references say `b`, or `b.x`; `import { Input }; Input::Stdin`): what such a binding denotes
   * depends on the imported module's symbols of that name, which references under another local
   * name cannot be found by.
   */
  boundRefs(fileIds: number[], names: Set<string>): RefRow[] {
    return this.refsThroughBindings(fileIds, (_source, n) => n.name !== "*" && (names.has(n.name) || n.name === "default"));
  }

  /**
   * References in `fileIds` through any binding of an import whose specifier mentions one of
   * `stems` or is made of dots and slashes (importersOf's test): whether such a specifier denotes
   * an indexed file decides whether the reference may be guessed elsewhere or names nothing.
   */
  refsThroughImportsOf(fileIds: number[], stems: string[]): RefRow[] {
    const mentions = (source: string): boolean => /^[./]*$/.test(source) || stems.some((s) => s !== "" && source.includes(s));
    return this.refsThroughBindings(fileIds, mentions, mentions);
  }

  private refsThroughBindings(
    fileIds: number[],
    binds: (source: string, n: { name: string; alias?: string }) => boolean,
    whole?: (source: string) => boolean,
  ): RefRow[] {
    const out: RefRow[] = [];
    for (const id of fileIds) {
      // (A superset of what importIndex binds: every binding, not only the first of a name.)
      const locals = new Set<string>();
      for (const im of this.importsOf.all(id) as { source: string; names: string }[]) {
        const list = JSON.parse(im.names) as { name: string; alias?: string }[];
        // `import os`, `use a::b`, `#include`: the module itself under its last segment.
        if (list.length === 0 && whole?.(im.source)) {
          const c = this.ctx(id);
          const last = this.moduleHead(c.language, c.path, im.source);
          if (last) locals.add(last);
        }
        for (const n of list) {
          if (!binds(im.source, n)) continue;
          // (An unnamed wildcard finds only the module's symbols of the reference's name, which
          // came or went with the file and are refsNamed's.)
          if (n.name !== "*") locals.add(n.alias ?? n.name);
          else if (n.alias !== undefined) locals.add(n.alias);
        }
      }
      if (locals.size === 0) continue;
      for (const r of this.refsOfFiles([id])) {
        const q = r.qualifier && r.qualifier.length > 0 ? r.qualifier : null;
        const head = qualifierHead(q);
        // An import statement's own reference has the specifier as its qualifier and the local name.
        if (((q === null || r.kind === "import") && locals.has(r.name)) || (head !== null && locals.has(head))) out.push(r);
      }
    }
    return out;
  }

  /**
   * References of the Go files (outside `excludeFiles`) that import directory `dir`'s package and
   * that its name can decide: qualified by one of `names` (`a.F()`), named one (the package read
   * as a value, the import's own reference), or on a receiver declared of a type qualified by one;
   * every reference of theirs when `names` is undefined (the name it had is not known).
   */
  refsThroughGoPackage(dir: string, names: Set<string> | undefined, excludeFiles: Set<number>): RefRow[] {
    const found: number[] = [];
    const out: RefRow[] = [];
    const path = this.modules.go.importPath(dir);
    const importers = path === undefined ? this.importersOf([`${dir}/_.go`]) : (this.db.prepare("SELECT DISTINCT file_id FROM imports WHERE source = ?").pluck().all(path) as number[]);
    for (const id of importers) {
      if (excludeFiles.has(id)) continue;
      const c = this.ctx(id);
      if (c.language !== "go") continue;
      const reaches = (this.importsOf.all(id) as { source: string }[]).some((im) => {
        found.length = 0;
        this.modules.go.resolve(c.path, im.source, found);
        return found.some((f) => posix.dirname(this.modules.files.pathOf(f) ?? "") === dir);
      });
      if (!reaches) continue;
      for (const r of this.refsOfFiles([id])) {
        const head = qualifierHead(r.qualifier);
        // (Or a receiver declared of one of its types: `cmd := &cli.Command{}; cmd.Run()`.)
        const typed = r.receiver_type !== null && (r.receiver_type.match(/[\p{L}_][\p{L}\p{N}_]*/gu) ?? []).some((w) => names?.has(w));
        if (names === undefined || names.has(r.name) || (head !== null && names.has(head)) || typed) out.push(r);
      }
    }
    return out;
  }

  /** How many candidate symbols (impl blocks are none) have this name. */
  symbolCount(name: string): number {
    return this.db.prepare("SELECT count(*) FROM symbols WHERE name = ? AND kind_normalized != 'impl'").pluck().get(name) as number;
  }

  /** References whose qualifier is written as one of the type names `names` (writtenType), outside `excludeFiles`. */
  refsWrittenType(names: Set<string>, excludeFiles: Set<number>): RefRow[] {
    if (names.size === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT ${REF_COLUMNS} FROM refs WHERE qualifier IN (SELECT value FROM json_each(@names)) OR qualifier LIKE 'new%'
         OR EXISTS (SELECT 1 FROM json_each(@names) j WHERE refs.qualifier LIKE '%::' || j.value)`,
      )
      .all({ names: JSON.stringify([...names]) }) as RefRow[];
    return rows.filter((r) => !excludeFiles.has(r.file_id) && r.qualifier !== null && names.has(writtenType(r.qualifier) ?? "\0"));
  }

  refsTargeting(ids: string[], excludeFiles: Set<number>): RefRow[] {
    const st = this.db.prepare(`SELECT ${REF_COLUMNS} FROM refs WHERE target_symbol_id = ?`);
    return ids.flatMap((n) => (st.all(n) as RefRow[]).filter((r) => !excludeFiles.has(r.file_id)));
  }

  /**
   * Files with an import whose specifier can denote one of `paths` (a superset): it mentions the
   * file's stem or its directory's name (an `index.ts`, `__init__.py`, `mod.rs`, a Go or Java
   * package), or is made of dots and slashes only (`from "."`, `from ..`).
   */
  importersOf(paths: string[]): number[] {
    const st = this.db.prepare("SELECT DISTINCT file_id FROM imports WHERE instr(source, ?) > 0").pluck();
    const out = new Set<number>();
    for (const stem of moduleStems(paths)) {
      for (const id of st.all(stem) as number[]) out.add(id);
    }
    for (const id of this.db.prepare("SELECT DISTINCT file_id FROM imports WHERE source NOT GLOB '*[^./]*'").pluck().all() as number[]) out.add(id);
    return [...out];
  }

  /**
   * Files whose types extend (or implement) a type named in `names`, directly or through other
   * types of such files: what their members inherit depends on those types.
   */
  subclassFiles(names: Set<string>, affected: Set<string> = new Set(names)): number[] {
    const rows = this.db.prepare("SELECT file_id, name, bases FROM symbols WHERE bases IS NOT NULL").raw(true).all() as [number, string, string][];
    for (const n of names) affected.add(n);
    const files = new Set<number>();
    for (let grew = true; grew; ) {
      grew = false;
      for (const [file, name, bases] of rows) {
        if (!bases.split(",").some((b) => affected.has(b.split(/\.|::/).pop() as string))) continue;
        files.add(file);
        if (!affected.has(name)) {
          affected.add(name);
          grew = true;
        }
      }
    }
    return [...files];
  }

  /** Names of the fields declared of one of `types` (by the type's last segment). */
  fieldsOfTypes(types: Set<string>): string[] {
    const rows = this.db.prepare("SELECT name, declared_type FROM symbols WHERE declared_type IS NOT NULL").raw(true).all() as [string, string][];
    return [...new Set(rows.filter(([, t]) => types.has(t.split(/\.|::/).pop() as string)).map(([n]) => n))];
  }

  /** References through a field named in `fields`: qualified by it (`f.m()`) or by a path through it (`this.f.m()`, `this.f.g.m()`). */
  refsThroughFields(fields: Set<string>, excludeFiles: Set<number>): RefRow[] {
    const rows = this.db
      .prepare(
        `SELECT ${REF_COLUMNS} FROM refs WHERE qualifier IN (SELECT value FROM json_each(@names))
         OR EXISTS (SELECT 1 FROM json_each(@names) j WHERE refs.qualifier LIKE '%' || j.value || '%')`,
      )
      .all({ names: JSON.stringify([...fields]) }) as RefRow[];
    return rows.filter((r) => !excludeFiles.has(r.file_id) && r.qualifier !== null && r.qualifier.split(".").some((seg) => fields.has(seg)));
  }

  /**
   * References outside `excludeFiles` whose receiver is declared of a type named in `names` (by its
   * last segment), or of a qualified type (`pkg.T`, `ns::T`) in one of the files `qualifiedIn`:
   * what those denote depends on the symbols of that name, and on the files an import reaches.
   */
  refsOfReceiverTypes(names: Set<string>, excludeFiles: Set<number>, qualifiedIn: Set<number> = new Set()): RefRow[] {
    if (names.size === 0 && qualifiedIn.size === 0) return [];
    const rows = this.db.prepare(`SELECT ${REF_COLUMNS} FROM refs WHERE receiver_type IS NOT NULL`).all() as RefRow[];
    return rows.filter((r) => {
      if (excludeFiles.has(r.file_id)) return false;
      let written = r.receiver_type as string;
      // A local assigned a chain (`const repo = ds.getRepository(Post)`): by the type the chain
      // starts from (its links' names are refsThroughChains').
      for (let m = readChainMarker(written); m !== undefined; m = readChainMarker(written)) {
        if (m.receiverType === null) return false;
        written = m.receiverType;
      }
      // `x = make()`: by the function's name (its return type changed), or the type it returns
      // now (its bases changed, or it came; one that went left its targets, refsTargeting).
      if (written.endsWith("()")) {
        const callee = written.slice(0, -2);
        if (names.has(callee.slice(callee.lastIndexOf(".") + 1))) return true;
        const now = names.size > 0 ? this.returnedTypes(this.ctx(r.file_id), r.caller_symbol_id, callee) : null;
        return now !== null && now !== "library" && now.types.some((t) => names.has(t.row.name));
      }
      // (A one-capital name may be a class now, or no longer: seenClass decides on resolving.)
      const name = receiverTypeName(this.ctx(r.file_id).language, written, () => true);
      if (typeof name !== "string") return false;
      const last = name.split(/\.|::/).pop() as string;
      return names.has(last) || (qualifiedIn.has(r.file_id) && last !== name);
    });
  }

  /**
   * References outside `excludeFiles` qualified by a chain of calls (`repo.createQueryBuilder("u")
   * .where("a")`) whose head or links name one of `names`: a member, function or variable of that
   * name came, went or changed its declared type, so what the chain gives may have changed.
   */
  refsThroughChains(names: Set<string>, excludeFiles: Set<number>): RefRow[] {
    if (names.size === 0) return [];
    // (And a local assigned a chain, `const repo = ds.getRepository(Post)`: its receiver type is the chain's marker.)
    const rows = this.db.prepare(`SELECT ${REF_COLUMNS} FROM refs WHERE qualifier LIKE '%(%' OR substr(receiver_type, 1, 1) = char(2)`).all() as RefRow[];
    const through = (c: Chain): boolean => names.has(c.head.slice(c.head.lastIndexOf(".") + 1)) || c.steps.some((x) => names.has(x.name));
    return rows.filter((r) => {
      if (excludeFiles.has(r.file_id) || !CHAIN_LANGUAGES.has(this.ctx(r.file_id).language)) return false;
      const c = r.qualifier !== null && r.qualifier.includes("(") ? chainOf(r.qualifier) : undefined;
      if (c !== undefined && through(c)) return true;
      for (let m = readChainMarker(r.receiver_type ?? ""); m !== undefined; m = readChainMarker(m.receiverType ?? "")) if (through(m.chain)) return true;
      return false;
    });
  }

  refsNamed(names: string[], excludeFiles: Set<number>): RefRow[] {
    const st = this.db.prepare(`SELECT ${REF_COLUMNS} FROM refs WHERE name = ?`);
    return names.flatMap((n) => (st.all(n) as RefRow[]).filter((r) => !excludeFiles.has(r.file_id)));
  }

  /**
   * Resolves the references with ids in (from, to], in id (file) order, and returns the outcomes
   * that are not 'unresolved', which is how a cold index stored every reference.
   */
  resolveUnit(from: number, to: number): ResolvedUnit {
    this.unitStmt ??= this.db.prepare(`SELECT id, file_id, ${UNIT_KEY} FROM refs WHERE id > @from AND id <= @to ORDER BY id`).raw(true);
    const st = this.unitStmt;
    const params = { from, to };
    const out: ResolvedUnit = { ids: [], targets: [], hows: [], candidates: [], count: 0 };
    // Rows as arrays into one reused RefRow (resolveRef keeps no reference to it): a unit's
    // objects were most of the worker's garbage. A file's references repeat (the same call or
    // read in one function), and an outcome depends only on what the key holds, so a repeat
    // costs a lookup (45% of the references on the bench corpus).
    const ref: RefRow = { id: 0, file_id: -1, name: "", kind: "", qualifier: null, caller_symbol_id: null, arity: null, receiver_type: null };
    const seen = new Map<string, { how: string; target: string | null; candidates: string | null }>();
    // In pages: fewer rows alive at once are less for the collector to copy (-20% CPU of the scan).
    for (let at = from; at < to; at += PAGE_REFS) {
      params.from = at;
      params.to = Math.min(to, at + PAGE_REFS);
      // Each row's four inputs come as one key (UNIT_KEY), split only when not seen before.
      const page = st.all(params) as [number, number, string][];
      // The candidates of the page's names not in the cache, in one query: a cold index holds
      // no copy of the symbol table, and one query a name cost more than the resolving.
      const names = new Set<string>();
      for (const row of page) names.add(row[2].slice(0, row[2].indexOf("\0")));
      this.prefetch(names);
      for (const row of page) {
        out.count++;
        if (row[1] !== ref.file_id) seen.clear();
        ref.id = row[0];
        ref.file_id = row[1];
        const key = row[2];
        let o = seen.get(key);
        if (o === undefined) {
          const parts = key.split("\0");
          if (parts.length === 7) {
            const nulls = Number(parts[4]);
            const arity = Number(parts[5]);
            ref.name = parts[0] as string;
            ref.kind = parts[1] as string;
            ref.qualifier = nulls & 1 ? null : (parts[2] as string);
            ref.caller_symbol_id = nulls & 2 ? null : (parts[3] as string);
            ref.arity = arity >= 0 ? arity : null;
            ref.receiver_type = nulls & 4 ? null : (parts[6] as string);
          } else {
            // A NUL inside a column: the key is ambiguous, so the row is read whole and its
            // outcome not remembered.
            Object.assign(ref, this.refById(ref.id));
          }
          const r = this.resolveRef(ref);
          o = { how: r.how, target: r.target, candidates: r.candidates ? JSON.stringify(r.candidates) : null };
          if (parts.length === 7) seen.set(key, o);
        }
        if (o.how === "unresolved") continue;
        out.ids.push(ref.id);
        out.targets.push(o.target);
        out.hows.push(o.how);
        out.candidates.push(o.candidates);
      }
    }
    return out;
  }

  private unitStmt: ReturnType<DB["prepare"]> | undefined;

  private refByIdStmt: ReturnType<DB["prepare"]> | undefined;

  private refById(id: number): Pick<RefRow, "name" | "kind" | "qualifier" | "caller_symbol_id" | "arity" | "receiver_type"> {
    this.refByIdStmt ??= this.db.prepare("SELECT name, kind, qualifier, caller_symbol_id, arity, receiver_type FROM refs WHERE id = ?");
    return this.refByIdStmt.get(id) as Pick<RefRow, "name" | "kind" | "qualifier" | "caller_symbol_id" | "arity" | "receiver_type">;
  }
}

/**
 * The types a value has, each as sure as it was found and all of them as `how` (the way to the
 * value); "library" when they are a library's; null when unknown (Resolver.valueTypes).
 */
type ValueTypes = { types: { row: SymRow; how: Resolution }[]; how: Resolution } | "library" | null;

/** Languages whose module-level variables carry the type they were made of (extract.ts moduleTypes). */
const MODULE_INSTANCE_LANGUAGES = new Set(["python", "javascript", "typescript", "tsx"]);
const TS_FAMILY = new Set(["typescript", "tsx", "javascript"]);
/** Types of the JavaScript runtime and the DOM that a return type names without importing them. */
const TS_GLOBAL_TYPES = new Set([
  "Promise", "PromiseLike", "Array", "ReadonlyArray", "Map", "ReadonlyMap", "Set", "ReadonlySet", "WeakMap", "WeakSet", "Date", "RegExp", "Error", "TypeError",
  "Iterable", "Iterator", "IterableIterator", "AsyncIterable", "AsyncIterator", "AsyncIterableIterator", "Generator", "AsyncGenerator", "ArrayBuffer", "SharedArrayBuffer",
  "DataView", "Uint8Array", "Int8Array", "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
  "Buffer", "URL", "URLSearchParams", "Request", "Response", "Headers", "FormData", "Blob", "File", "ReadableStream", "WritableStream", "AbortController", "AbortSignal",
  "Event", "EventTarget", "Element", "HTMLElement", "Node", "Document", "Window", "Function", "Object", "String", "Number", "Boolean", "Symbol", "JSON", "Math",
]);
/**
 * The type an `await` of a value declared `written` gives: `Promise<User>` and `PromiseLike<User>`
 * give User; any other type is its own (an await of a value that is no promise is the value).
 * Unchanged without `awaited`.
 */
function awaitedType(written: string, awaited: boolean): string {
  if (!awaited) return written;
  const m = /^(?:Promise|PromiseLike)<(.+)>$/s.exec(written.trim());
  return m ? (m[1] as string).trim() : written;
}

/** Return types that are the method's own type (TypeScript's `this`, Rust's and Python's `Self`). */
const SELF_TYPES = new Set(["this", "Self", "typing.Self", "typing_extensions.Self"]);
/** Languages whose chains of calls resolution follows (extraction gives their first call's receiver type: FIELD_PATHS there). */
const CHAIN_LANGUAGES = new Set(["go", "java", "typescript", "tsx", "javascript", "python", "rust"]);

/** A Java package name as a qualifier: two or more lowercase segments (`org.jsoup.nodes`). */
const JAVA_PACKAGE = /^[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+$/;
/** Package roots only the JDK uses. */
const JAVA_LIBRARY_ROOTS = new Set(["java", "javax", "jdk", "sun"]);

/**
 * What resolution reads of a reference, as one string: name, kind, qualifier and caller joined by
 * NUL, then which of the nullable ones are NULL (1: qualifier, 2: caller, 4: receiver type), then
 * the arity (-1: none) and the receiver's type.
 * One string a row instead of four and their concatenation: the bench corpus's resolution took
 * 3.4-3.5 s instead of 3.4-3.7 s (a worker alone, 3 interleaved runs).
 */
const UNIT_KEY =
  "name || char(0) || kind || char(0) || ifnull(qualifier, '') || char(0) || ifnull(caller_symbol_id, '') || char(0) || ((qualifier IS NULL) + 2 * (caller_symbol_id IS NULL) + 4 * (receiver_type IS NULL)) || char(0) || ifnull(arity, -1) || char(0) || ifnull(receiver_type, '')";

/**
 * Candidate symbols a resolver caches (MAGELLAN_RESOLVE_CACHE_SYMBOLS: tests make it tiny). A cold
 * index used to load the symbols of one name range at a time and read every reference once per
 * range; looking a page's new names up instead reads each reference once. Resolution of the 76 MB
 * mixed tree (66,410 symbols) took 3.36-3.39 s instead of 4.02-4.05 s, of effect + rxjs (53,635)
 * 1.99-2.06 s instead of 2.06-2.10 s. The bound is what a cold index's peak allows: a cache
 * emptied when full thrashes below the repository's size (effect + rxjs at 40,000: 2.53 s); at
 * 100,000 a 180 MB tree of 138,740 symbols peaked at 397 MB, at 70,000 at 382 MB (resolution
 * 9.2 s instead of 8.5 s).
 */
const RESOLVE_CACHE_SYMBOLS = Number(process.env.MAGELLAN_RESOLVE_CACHE_SYMBOLS) || 70_000;

/** Reference rowids read at once by resolveUnit (MAGELLAN_RESOLVE_PAGE_REFS: tests cut files in pages). */
const PAGE_REFS = Number(process.env.MAGELLAN_RESOLVE_PAGE_REFS) || 4000;

/** Outcomes of one unit of a cold index's resolution: only references that did not stay 'unresolved'. */
export interface ResolvedUnit {
  ids: number[];
  targets: (string | null)[];
  hows: string[];
  candidates: (string | null)[];
  /** References looked at, 'unresolved' ones included. */
  count: number;
}

/** A Rust path of plain segments that does not start at `crate`, `super` or `self` (nor a generic or `<T as Trait>`). */
const RUST_RELATIVE_PATH = /^(?!(?:crate|super|self)(?:::|$))[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*$/;

