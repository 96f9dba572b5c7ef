/**
 * Resolution of a reference to the symbol it names: lexical scope first, then what the file
 * imports, then a unique global name. Every edge records how it was resolved; when several
 * symbols could be meant, none is chosen and all are listed (`ambiguous`), so an edge is never
 * silently wired to the wrong same-named symbol.
 */
import { posix } from "node:path";
import type { DB } from "./db.js";

export type Resolution = "exact" | "imported" | "heuristic" | "ambiguous" | "unresolved";

interface SymRow {
  symbol_id: string;
  file_id: number;
  path: string;
  name: string;
  kind_normalized: string;
  parent: string | null;
  parent_symbol_id: string | null;
  parent_kind: string | null;
}

interface RefRow {
  id: number;
  file_id: number;
  name: string;
  kind: string;
  qualifier: string | null;
  caller_symbol_id: string | null;
}

interface ImportInfo {
  source: string;
  names: { name: string; alias?: string }[];
}

interface FileCtx {
  id: number;
  path: string;
  language: string;
  imports: ImportInfo[];
  /** symbol_id -> parent_symbol_id, for the scope chain of a caller */
  parents: Map<string, string | null>;
}

const SELF_QUALIFIERS = new Set(["this", "self", "Self", "cls", "super"]);
/** Kinds whose members are reachable unqualified from anywhere in the file or package. */
const CONTAINER_KINDS = new Set(["module", "namespace"]);
const MAX_CANDIDATES = 10;

const TS_EXTS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

export class Resolver {
  private readonly byName;
  private readonly fileById;
  private readonly fileByPath;
  private readonly importsOf;
  private readonly parentsOf;
  private readonly filesLike;
  private readonly update;
  private readonly nameCache = new Map<string, SymRow[]>();
  private readonly moduleCache = new Map<string, number[]>();
  private readonly ctxCache = new Map<number, FileCtx>();

  constructor(private readonly db: DB) {
    this.byName = db.prepare(
      `SELECT s.symbol_id, s.file_id, f.path, s.name, s.kind_normalized, s.parent, s.parent_symbol_id,
              p.kind_normalized AS parent_kind
       FROM symbols s JOIN files f ON f.id = s.file_id
       LEFT JOIN symbols p ON p.symbol_id = s.parent_symbol_id
       WHERE s.name = ? ORDER BY f.path, s.byte_start`,
    );
    this.fileById = db.prepare("SELECT id, path, language FROM files WHERE id = ?");
    this.fileByPath = db.prepare("SELECT id FROM files WHERE path = ?").pluck();
    this.importsOf = db.prepare("SELECT source, names FROM imports WHERE file_id = ?");
    this.parentsOf = db.prepare("SELECT symbol_id, parent_symbol_id FROM symbols WHERE file_id = ?");
    this.filesLike = db.prepare("SELECT id, path FROM files WHERE path = ? OR path LIKE ? ESCAPE '\\'");
    this.update = db.prepare("UPDATE refs SET target_symbol_id = ?, resolution = ?, candidates = ? WHERE id = ?");
  }

  private lookup(name: string): SymRow[] {
    let rows = this.nameCache.get(name);
    if (!rows) {
      rows = this.byName.all(name) as SymRow[];
      this.nameCache.set(name, rows);
    }
    return rows;
  }

  private ctx(fileId: number): FileCtx {
    let c = this.ctxCache.get(fileId);
    if (!c) {
      const f = this.fileById.get(fileId) as { id: number; path: string; language: string };
      const imports = (this.importsOf.all(fileId) as { source: string; names: string }[]).map((i) => ({
        source: i.source,
        names: JSON.parse(i.names) as { name: string; alias?: string }[],
      }));
      const parents = new Map<string, string | null>();
      for (const r of this.parentsOf.all(fileId) as { symbol_id: string; parent_symbol_id: string | null }[]) {
        parents.set(r.symbol_id, r.parent_symbol_id);
      }
      c = { id: fileId, path: f.path, language: f.language, imports, parents };
      if (this.ctxCache.size > 256) this.ctxCache.clear();
      this.ctxCache.set(fileId, c);
    }
    return c;
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
    const key = `${ctx.path}\0${source}`;
    const hit = this.moduleCache.get(key);
    if (hit) return hit;
    const ids: number[] = [];
    const tryPath = (p: string): boolean => {
      const id = this.fileByPath.get(posix.normalize(p)) as number | undefined;
      if (id !== undefined) ids.push(id);
      return id !== undefined;
    };
    const dir = posix.dirname(ctx.path);
    const lang = ctx.language;
    if (lang === "typescript" || lang === "tsx" || lang === "javascript") {
      if (source.startsWith(".")) {
        const base = posix.join(dir, source);
        const stem = base.replace(/\.(m|c)?js$|\.jsx$/, "");
        const found =
          tryPath(base) ||
          TS_EXTS.some((e) => tryPath(stem + e)) ||
          TS_EXTS.some((e) => tryPath(`${base}/index${e}`));
        void found;
      }
    } else if (lang === "python") {
      const m = /^(\.*)(.*)$/.exec(source) as RegExpExecArray;
      const dots = (m[1] as string).length;
      const rest = (m[2] as string).split(".").filter(Boolean).join("/");
      const bases: string[] = [];
      if (dots > 0) {
        let d = dir;
        for (let i = 1; i < dots; i++) d = posix.dirname(d);
        bases.push(d);
      } else {
        bases.push("");
        // A source root other than the workspace root: the importing file's ancestors.
        let d = dir;
        while (d !== "." && d !== "") {
          bases.push(d);
          d = posix.dirname(d);
        }
      }
      for (const b of bases) {
        const p = rest ? (b ? `${b}/${rest}` : rest) : b;
        if (!p) continue;
        if (tryPath(`${p}.py`) || tryPath(`${p}.pyi`) || tryPath(`${p}/__init__.py`)) break;
      }
    } else if (lang === "c" || lang === "cpp") {
      if (!tryPath(posix.join(dir, source))) this.suffixMatch(source, ids);
    } else if (lang === "java") {
      const parts = source.replace(/\.\*$/, "").split(".");
      if (source.endsWith(".*")) this.dirMatch(parts.join("/"), ".java", ids);
      else if (!this.suffixMatch(`${parts.join("/")}.java`, ids)) {
        // `import a.b.C.member` (static import): the class file is one segment up.
        this.suffixMatch(`${parts.slice(0, -1).join("/")}.java`, ids);
      }
    } else if (lang === "go") {
      this.dirMatch(source, ".go", ids);
    } else if (lang === "rust") {
      const segs = source.split("::").filter((s) => s !== "*" && s !== "{" && s !== "}");
      let baseDir: string;
      const srcRoot = ctx.path.includes("src/") ? ctx.path.slice(0, ctx.path.lastIndexOf("src/") + 4) : "";
      if (segs[0] === "crate") {
        baseDir = srcRoot.replace(/\/$/, "");
        segs.shift();
      } else if (segs[0] === "super") {
        baseDir = posix.dirname(dir);
        while (segs[0] === "super") segs.shift();
      } else if (segs[0] === "self") {
        baseDir = dir;
        segs.shift();
      } else baseDir = srcRoot.replace(/\/$/, "");
      // The longest prefix of the path that names a file: `a::b::Item` -> a/b.rs or a/b/mod.rs.
      for (let n = segs.length; n >= 1; n--) {
        const p = [baseDir, ...segs.slice(0, n)].filter(Boolean).join("/");
        if (tryPath(`${p}.rs`) || tryPath(`${p}/mod.rs`)) break;
      }
    }
    this.moduleCache.set(key, ids);
    return ids;
  }

  private suffixMatch(suffix: string, out: number[]): boolean {
    const like = `%/${suffix.replace(/[\\%_]/g, (c) => `\\${c}`)}`;
    const rows = this.filesLike.all(suffix, like) as { id: number }[];
    for (const r of rows) out.push(r.id);
    return rows.length > 0;
  }

  private dirMatch(dirSuffix: string, ext: string, out: number[]): void {
    const like = `%${dirSuffix.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
    for (const r of this.filesLike.all("\0", like) as { id: number; path: string }[]) {
      const d = posix.dirname(r.path);
      if ((d === dirSuffix || d.endsWith(`/${dirSuffix}`)) && r.path.endsWith(ext)) out.push(r.id);
    }
  }

  /** What the file's imports say about `name` (used as a bare name or as a qualifier). */
  private viaImports(ctx: FileCtx, name: string, qualifier: string | null): SymRow[] | undefined {
    for (const im of ctx.imports) {
      if (qualifier === null) {
        const entry = im.names.find((n) => (n.alias ?? n.name) === name && n.name !== "*");
        const wildcard = im.names.some((n) => n.name === "*" && !n.alias);
        if (!entry && !wildcard) continue;
        const files = this.resolveModule(ctx, im.source);
        if (files.length === 0) {
          if (entry) return [];
          continue;
        }
        const original = entry ? entry.name : name;
        const targetName = original === "default" ? undefined : original;
        const rows = (targetName ? this.lookup(targetName) : files.flatMap((f) => this.defaultExports(f))).filter(
          (s) => files.includes(s.file_id) && (s.parent_symbol_id === null || CONTAINER_KINDS.has(s.parent_kind ?? "")),
        );
        // `import X from './m'` names the default export whatever it is called.
        if (rows.length > 0 || entry) return rows;
      } else {
        const head = qualifier.split(/\.|::/)[0] as string;
        const ns = im.names.find((n) => n.name === "*" && n.alias === head);
        const lastSeg = im.source.split(/[./:]+/).filter(Boolean).pop();
        const moduleAlias = im.names.length === 0 && lastSeg === head;
        const named = im.names.find((n) => (n.alias ?? n.name) === head && n.name !== "*");
        if (!ns && !moduleAlias && !named) continue;
        const files = this.resolveModule(ctx, named && ctx.language === "python" ? `${im.source}.${named.name}` : im.source);
        const all = files.length > 0 ? files : named ? this.resolveModule(ctx, im.source) : [];
        if (all.length === 0) return [];
        return this.lookup(name).filter((s) => all.includes(s.file_id));
      }
    }
    return undefined;
  }

  private defaultExports(fileId: number): SymRow[] {
    const rows = this.db
      .prepare(
        `SELECT s.symbol_id, s.file_id, f.path, s.name, s.kind_normalized, s.parent, s.parent_symbol_id, NULL AS parent_kind
         FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.file_id = ? AND s.flags LIKE '%default_export%'`,
      )
      .all(fileId) as SymRow[];
    return rows;
  }

  resolveRef(ref: RefRow): { target: string | null; how: Resolution; candidates: string[] | null } {
    const ctx = this.ctx(ref.file_id);
    const chain = this.chain(ctx, ref.caller_symbol_id);
    const q = ref.qualifier && ref.qualifier.length > 0 ? ref.qualifier : null;
    const all = this.lookup(ref.name);
    const pick = (rows: SymRow[], how: Resolution) => {
      if (rows.length === 1) return { target: (rows[0] as SymRow).symbol_id, how, candidates: null };
      // Overloads: several declarations of one scoped name in one scope are one symbol.
      const first = rows[0] as SymRow;
      if (rows.every((r) => r.file_id === first.file_id && r.parent_symbol_id === first.parent_symbol_id && r.kind_normalized === first.kind_normalized)) {
        return { target: first.symbol_id, how, candidates: null };
      }
      return { target: null, how: "ambiguous" as Resolution, candidates: rows.slice(0, MAX_CANDIDATES).map((r) => r.symbol_id) };
    };
    if (ref.kind === "import") {
      // The name as an import statement brings it in: the symbol of that name in the target module.
      const im = ctx.imports.find((i) => i.source === q && i.names.some((n) => n.name === ref.name));
      if (!im) return { target: null, how: "unresolved", candidates: null };
      const files = this.resolveModule(ctx, im.source);
      const rows = (ref.name === "default" ? files.flatMap((f) => this.defaultExports(f)) : all).filter(
        (s) => files.includes(s.file_id) && (s.parent_symbol_id === null || CONTAINER_KINDS.has(s.parent_kind ?? "")),
      );
      return rows.length > 0 ? pick(rows, "imported") : { target: null, how: "unresolved", candidates: null };
    }
    if (all.length === 0 && q !== null) return { target: null, how: "unresolved", candidates: null };

    if (q === null || SELF_QUALIFIERS.has(q)) {
      const local = all.filter((s) => s.file_id === ref.file_id);
      if (q !== null) {
        // this.x / self.x: a member of the nearest enclosing type.
        for (const scope of chain) {
          const members = local.filter((s) => s.parent_symbol_id === scope);
          if (members.length > 0) return pick(members, "exact");
        }
      } else {
        // Innermost visible declaration: declared in the caller's scope chain, then top level.
        for (const scope of chain) {
          const visible = local.filter((s) => s.parent_symbol_id === scope || s.symbol_id === scope);
          if (visible.length > 0) return pick(visible, "exact");
        }
        const top = local.filter((s) => s.parent_symbol_id === null || CONTAINER_KINDS.has(s.parent_kind ?? ""));
        if (top.length > 0) return pick(top, "exact");
        const imported = this.viaImports(ctx, ref.name, null);
        if (imported && imported.length > 0) return pick(imported, "imported");
        if (imported) return { target: null, how: "unresolved", candidates: null };
      }
      const globals = all.filter((s) => q !== null || s.parent_symbol_id === null || CONTAINER_KINDS.has(s.parent_kind ?? ""));
      return this.globalPick(globals.length > 0 ? globals : all, ctx, pick);
    }
    // Qualified: a module alias, a type name (static access), or an instance member.
    const viaImport = this.viaImports(ctx, ref.name, q);
    if (viaImport && viaImport.length > 0) return pick(viaImport, "imported");
    // `new T().m()` and `T::m` / `T.m`: the type written in the qualifier.
    const ctor = /^new\s+([\w$.:]+)/.exec(q);
    const lastQ = (ctor ? (ctor[1] as string) : q).split(/\.|::|->/).filter(Boolean).pop() ?? q;
    const typed = all.filter((s) => s.parent === lastQ);
    if (typed.length > 0) {
      const sameFile = typed.filter((s) => s.file_id === ref.file_id);
      if (sameFile.length > 0) return pick(sameFile, "exact");
      return this.globalPick(typed, ctx, pick);
    }
    const members = all.filter((s) => s.parent_symbol_id !== null);
    return this.globalPick(members, ctx, pick);
  }

  private globalPick(
    rows: SymRow[],
    ctx: FileCtx,
    pick: (rows: SymRow[], how: Resolution) => { target: string | null; how: Resolution; candidates: string[] | null },
  ): { target: string | null; how: Resolution; candidates: string[] | null } {
    if (rows.length === 0) return { target: null, how: "unresolved", candidates: null };
    if (rows.length === 1) return pick(rows, "heuristic");
    // Same package (Go, Java) or directory: a strong hint, still reported as heuristic.
    const dir = posix.dirname(ctx.path);
    const near = rows.filter((r) => posix.dirname(r.path) === dir);
    const r = pick(near.length > 0 ? near : rows, "heuristic");
    if (r.how === "ambiguous") return pick(rows, "heuristic");
    return r;
  }

  /** Resolves the given references and stores the outcome (inside the caller's transaction). */
  resolveRows(refs: Iterable<RefRow>): number {
    let n = 0;
    for (const ref of refs) {
      const r = this.resolveRef(ref);
      this.update.run(r.target, r.how, r.candidates ? JSON.stringify(r.candidates) : null, ref.id);
      n++;
    }
    return n;
  }

  refsOfFiles(fileIds: number[]): RefRow[] {
    const st = this.db.prepare("SELECT id, file_id, name, kind, qualifier, caller_symbol_id FROM refs WHERE file_id = ?");
    return fileIds.flatMap((id) => st.all(id) as RefRow[]);
  }

  refsNamed(names: string[], excludeFiles: Set<number>): RefRow[] {
    const st = this.db.prepare("SELECT id, file_id, name, kind, qualifier, caller_symbol_id FROM refs WHERE name = ?");
    return names.flatMap((n) => (st.all(n) as RefRow[]).filter((r) => !excludeFiles.has(r.file_id)));
  }

  /** Every reference, streamed in file order (cold index). */
  *allRefs(): Generator<RefRow> {
    // Pages rather than iterate(): an open cursor would block the updates made between pages.
    let last = 0;
    const page = this.db.prepare("SELECT id, file_id, name, kind, qualifier, caller_symbol_id FROM refs WHERE id > ? ORDER BY id LIMIT 5000");
    for (;;) {
      const rows = page.all(last) as RefRow[];
      if (rows.length === 0) return;
      for (const r of rows) yield r;
      last = (rows[rows.length - 1] as RefRow).id;
    }
  }
}
