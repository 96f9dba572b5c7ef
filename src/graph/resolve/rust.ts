/** Rust `use` paths: `crate::`, `super::`, `self::` and the package's own crate name, to module files. */
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { FileLookup } from "./files.js";

export class RustModules {
  private readonly cargoPackages = new Map<string, { crate: string; lib: string } | null>();

  constructor(private readonly files: FileLookup) {}

  resolve(fromPath: string, source: string, out: number[]): void {
    const dir = posix.dirname(fromPath);
    const tryPath = (p: string): boolean => this.files.tryPath(p, out);
    const segs = source.split("::").filter((s) => s !== "*" && s !== "{" && s !== "}");
    let baseDir: string;
    const declared = this.declaredRoot(fromPath);
    const srcRoot = fromPath.includes("src/") ? fromPath.slice(0, fromPath.lastIndexOf("src/") + 4) : declared ? posix.dirname(declared) : "";
    if (segs[0] === "crate") {
      baseDir = srcRoot.replace(/\/$/, "");
      segs.shift();
    } else if (segs[0] === "super") {
      baseDir = posix.dirname(dir);
      while (segs[0] === "super") segs.shift();
    } else if (segs[0] === "self") {
      baseDir = dir;
      segs.shift();
    } else {
      baseDir = srcRoot.replace(/\/$/, "");
      // `use hexyl::Printer` in the package's binary (src/main.rs, src/bin/, examples/, tests/)
      // names the package's library crate by its name (`-` written `_`).
      // So does a path dependency's name in a package of a workspace (ripgrep's core writes
      // `use grep::printer::...` and `ignore::WalkBuilder` for its crates/grep and crates/ignore).
      const pkg = this.cargoPackage(dir);
      const lib = pkg && segs[0] === pkg.crate ? pkg.lib : this.pathDependency(dir, segs[0] ?? "");
      if (lib !== undefined) {
        segs.shift();
        baseDir = posix.dirname(lib);
        let found = false;
        for (let n = segs.length; n >= 1 && !found; n--) {
          const p = [baseDir, ...segs.slice(0, n)].filter((x) => x && x !== ".").join("/");
          found = tryPath(`${p}.rs`) || tryPath(`${p}/mod.rs`);
        }
        if (!found) tryPath(lib);
        segs.length = 0;
      }
    }
    // The longest prefix of the path that names a file: `a::b::Item` -> a/b.rs or a/b/mod.rs.
    for (let n = segs.length; n >= 1; n--) {
      const p = [baseDir, ...segs.slice(0, n)].filter(Boolean).join("/");
      if (tryPath(`${p}.rs`) || tryPath(`${p}/mod.rs`)) return;
    }
    // No module file below it names the path: the item is in the module the path starts from
    // (`use crate::LibItem` in src/colors.rs: lib.rs; `super::*` in src/tests.rs: the crate root).
    // A bare path whose head is no other crate is relative to this module (Rust 2018): `use
    // a::Foo` of an inline `mod a` in main.rs (it was unresolved, while `crate::a::Foo` resolved).
    const anchored = !this.external(source);
    const relative = !anchored && !this.externCrate(dir, segs[0] ?? "");
    // A child module's file, the path being relative to the module it is written in: config/mod.rs's
    // `pub use parse::parse_line` is config/parse.rs's (it was looked for as src/parse.rs).
    if (relative && segs.length > 0 && out.length === 0) {
      const base = rustChildDir(fromPath, declared);
      for (let n = segs.length; n >= 1; n--) {
        const p = `${base}${segs.slice(0, n).join("/")}`;
        if (tryPath(`${p}.rs`) || tryPath(`${p}/mod.rs`)) return;
      }
    }
    if (anchored || (relative && segs.length > 0 && out.length === 0)) {
      const probe: number[] = [];
      const from = relative ? `self::${source}` : source;
      for (const m of startModules(fromPath, from, (p) => this.files.tryPath(p, probe), declared)) tryPath(m);
    }
  }

  external(source: string): boolean {
    return !/^(crate|self|super)(::|$)/.test(source);
  }

  private readonly manifests = new Map<string, { dir: string; text: string } | null>();

  /** The Cargo.toml nearest above directory `dir` (its directory and text), read once per directory. */
  private nearestManifest(dir: string): { dir: string; text: string } | null {
    const root = this.files.root;
    if (root === undefined) return null;
    const hit = this.manifests.get(dir);
    if (hit !== undefined) return hit;
    let found: { dir: string; text: string } | null;
    try {
      found = { dir, text: readFileSync(join(root, dir, "Cargo.toml"), "utf8") };
    } catch {
      found = dir === "." || dir === "" || dir === "/" ? null : this.nearestManifest(posix.dirname(dir));
    }
    this.manifests.set(dir, found);
    return found;
  }

  private readonly externs = new Map<string, Set<string>>();

  /**
   * Whether `head`, the first segment of a path written in a file of directory `dir`, names a
   * crate outside the repository: the standard ones, or a dependency of the nearest Cargo.toml
   * (`[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`, `[dependencies.name]`,
   * also per target; `-` written `_`).
   */
  externCrate(dir: string, head: string): boolean {
    if (head === "std" || head === "core" || head === "alloc") return true;
    let names = this.externs.get(dir);
    if (names === undefined) {
      names = new Set(cargoDependencies(this.nearestManifest(dir)?.text ?? "").map((d) => d.key));
      this.externs.set(dir, names);
    }
    return names.has(head);
  }

  private readonly pathDeps = new Map<string, Map<string, string>>();

  /**
   * The root file of the repository's crate that `head` names as a Cargo path dependency of the
   * package holding `dir`: `ignore = { path = "crates/ignore" }`, a `[dependencies.ignore]` table
   * with a `path`, or `ignore = { workspace = true }` (`ignore.workspace = true`) with the path in
   * the workspace's `[workspace.dependencies]`; the key is the name code writes (`-` as `_`).
   * Undefined for a registry or git dependency, and for any other name.
   */
  pathDependency(dir: string, head: string): string | undefined {
    let deps = this.pathDeps.get(dir);
    if (deps === undefined) {
      deps = new Map();
      const manifest = this.nearestManifest(dir);
      if (manifest !== null) {
        let workspace: { dir: string; deps: CargoDependency[] } | null | undefined;
        for (const d of cargoDependencies(manifest.text)) {
          let at: string | undefined;
          if (d.path !== undefined) at = posix.join(manifest.dir, d.path);
          else if (d.inherited) {
            if (workspace === undefined) {
              const ws = this.workspaceManifest(manifest.dir);
              workspace = ws && { dir: ws.dir, deps: cargoDependencies(ws.text, "workspace.dependencies") };
            }
            const wsPath = workspace?.deps.find((w) => w.key === d.key)?.path;
            if (workspace && wsPath !== undefined) at = posix.join(workspace.dir, wsPath);
          }
          // (The package's own manifest: a directory without one is no crate.)
          const depDir = at === undefined ? undefined : posix.normalize(at);
          const lib = depDir === undefined ? undefined : this.cargoPackage(depDir)?.lib;
          // (A dependency at the repository's top, `path = ".."` from a package inside it as
          // log's test_max_level_features has, is "." here: every root file is under it.)
          if (lib !== undefined && depDir !== "." && !lib.startsWith(`${depDir}/`)) continue;
          if (lib !== undefined && !deps.has(d.key)) deps.set(d.key, lib);
        }
      }
      this.pathDeps.set(dir, deps);
    }
    return deps.get(head);
  }

  /** The manifest at or above directory `dir` that declares the workspace (`[workspace]`), or null. */
  private workspaceManifest(dir: string): { dir: string; text: string } | null {
    for (let m = this.nearestManifest(dir); m !== null; m = m.dir === "." || m.dir === "" ? null : this.nearestManifest(posix.dirname(m.dir))) {
      if (/^[ \t]*\[workspace(\.dependencies)?\]/m.test(m.text)) return m;
    }
    return null;
  }

  private readonly declaredRoots = new Map<string, string | undefined>();

  /**
   * The root file of the crate `fromPath` belongs to, when its manifest declares one outside any
   * `src/` (`[[bin]] path = "crates/core/main.rs"`, `[lib] path = ...`): the deepest declared
   * root whose directory holds the file. ripgrep's rg binary is such a crate; without it, every
   * `crate::flags::HiArgs` of crates/core was looked for at the repository's top and unresolved.
   * A `[[test]]`, `[[bench]]` or `[[example]]` root holds the other files of its directory only
   * when the manifest turns that target's discovery off (`autotests = false`): just's and
   * ripgrep's one integration-test crate, tests/lib.rs with `mod alias;`, whose tests/alias.rs
   * reads `use super::*` (otherwise each file of tests/ is a crate of its own). A declared root is
   * its own crate's.
   * Undefined for a file under `src/` (Cargo's layout says where its crate starts) or when none is.
   */
  declaredRoot(fromPath: string): string | undefined {
    if (fromPath.includes("src/")) return undefined;
    if (this.declaredRoots.has(fromPath)) return this.declaredRoots.get(fromPath);
    const manifest = this.nearestManifest(posix.dirname(fromPath));
    let best: string | undefined;
    if (manifest !== null) {
      const tables = cargoTables(manifest.text);
      const pkg = tables.find((t) => t.name === "package")?.body ?? "";
      for (const table of tables) {
        // (A build script is a crate of its own: bat's `build = "build/main.rs"`, whose
        // build/application.rs writes `use crate::util::render_template` for build/util.rs.)
        const target = TARGET_DISCOVERY[table.name];
        if (table.name !== "lib" && table.name !== "bin" && table.name !== "package" && target === undefined) continue;
        const path = cargoKey(table.body, table.name === "package" ? "build" : "path");
        if (!path) continue;
        const root = posix.normalize(posix.join(manifest.dir, path));
        if (root === fromPath) {
          best = root;
          break;
        }
        if (target !== undefined && !new RegExp(`^\\s*${target}\\s*=\\s*false\\b`, "m").test(pkg)) continue;
        const dir = posix.dirname(root);
        if ((dir === "." || fromPath.startsWith(`${dir}/`)) && (!best || dir.length > posix.dirname(best).length)) best = root;
      }
    }
    if (this.declaredRoots.size > 20_000) this.declaredRoots.clear();
    this.declaredRoots.set(fromPath, best);
    return best;
  }

  /**
   * The Cargo package whose Cargo.toml is nearest above directory `dir`: its library crate's name
   * as Rust paths write it and the repository-relative path of its root file ([lib] name/path,
   * else the package name and src/lib.rs). Undefined for a workspace-only manifest.
   */
  cargoPackage(dir: string): { crate: string; lib: string } | undefined {
    const hit = this.cargoPackages.get(dir);
    if (hit !== undefined) return hit ?? undefined;
    let found: { crate: string; lib: string } | null = null;
    const manifest = this.nearestManifest(dir);
    if (manifest !== null) {
      const tables = cargoTables(manifest.text);
      const section = (name: string): string => tables.find((x) => x.name === name)?.body ?? "";
      const pkgName = cargoKey(section("package"), "name");
      const lib = section("lib");
      const name = cargoKey(lib, "name") ?? pkgName;
      if (name) found = { crate: name.replace(/-/g, "_"), lib: posix.join(manifest.dir, cargoKey(lib, "path") ?? "src/lib.rs") };
    }
    this.cargoPackages.set(dir, found);
    return found ?? undefined;
  }
}

/**
 * A Cargo.toml's tables in order, `[name]` and `[[name]]` alike, each with its body: the lines up
 * to the next line that opens a table (`[target.'cfg(unix)'.dependencies]` too), or the end.
 */
function cargoTables(text: string): { name: string; body: string }[] {
  const headers = [...text.matchAll(/^[ \t]*\[/gm)];
  return headers.map((h, k) => {
    const start = h.index as number;
    let eol = text.indexOf("\n", start);
    if (eol < 0) eol = text.length;
    const name = /^[ \t]*\[\[?[ \t]*([^\]\n]*?)[ \t]*\]/.exec(text.slice(start, eol))?.[1] ?? "";
    return { name, body: text.slice(eol, headers[k + 1]?.index ?? text.length) };
  });
}

/** A table body's string key (`path = "crates/core/main.rs"`). */
function cargoKey(body: string, key: string): string | undefined {
  return new RegExp(`^\\s*${key}\\s*=\\s*"([^"]+)"`, "m").exec(body)?.[1];
}

/** A manifest's dependency: its key as code writes it, its `path`, and whether it takes the workspace's (`workspace = true`). */
interface CargoDependency {
  key: string;
  path?: string;
  inherited: boolean;
}

/**
 * A manifest's dependencies, in `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`
 * (also per target) or `[<table>.<name>]` tables; `-` in a key written `_`. With `only`, the
 * dependencies of that table alone (`workspace.dependencies`).
 */
function cargoDependencies(text: string, only?: string): CargoDependency[] {
  const out: CargoDependency[] = [];
  const norm = (k: string): string => k.replace(/^["']|["']$/g, "").replace(/-/g, "_");
  for (const t of cargoTables(text)) {
    const m = only !== undefined ? (t.name === only ? [] : null) : /(^|\.)(dependencies|dev-dependencies|build-dependencies)(\.([A-Za-z0-9_"'-]+))?$/.exec(t.name);
    if (!m) continue;
    const named = m[4];
    if (named !== undefined) {
      out.push({ key: norm(named), path: cargoKey(t.body, "path"), inherited: /^\s*workspace\s*=\s*true/m.test(t.body) });
      continue;
    }
    for (const line of t.body.split(/\r?\n/)) {
      // `name = "1"`, `name = { path = "…" }`, `name.workspace = true`.
      const kv = /^\s*([A-Za-z0-9_"'-]+)\s*([=.])(.*)$/.exec(line);
      if (!kv) continue;
      const rest = kv[3] as string;
      const inline = kv[2] === "=" ? /^\s*\{(.*)\}/.exec(rest)?.[1] : undefined;
      const path = inline === undefined ? undefined : /(?:^|[,{\s])path\s*=\s*"([^"]+)"/.exec(inline)?.[1];
      const inherited = kv[2] === "." ? /^\s*workspace\s*=\s*true/.test(rest) : inline !== undefined && /(?:^|[,{\s])workspace\s*=\s*true/.test(inline);
      out.push({ key: norm(kv[1] as string), ...(path !== undefined ? { path } : {}), inherited });
    }
  }
  return out;
}

/**
 * The files of the module a `crate::`/`self::`/`super::` path starts from. A crate root (lib.rs,
 * main.rs, src/bin, tests, examples, benches, build.rs) is its own `crate`, and its `super` can
 * only be an inline module's parent, in the same file. A file's `super` is its parent module's
 * file: `a.rs` or `a/mod.rs` for `a/b.rs`, the crate root for `src/x.rs` (lib.rs and main.rs both,
 * when both exist: which one declares the module is in their text, not their names).
 */
export function startModules(from: string, path: string, exists: (p: string) => boolean, declaredRoot?: string): string[] {
  const dir = posix.dirname(from);
  const base = posix.basename(from);
  const head = path.split("::")[0];
  const root = isCrateRoot(from, declaredRoot);
  const roots = (d: string): string[] => [`${d}/lib.rs`, `${d}/main.rs`].map((p) => posix.normalize(p)).filter(exists);
  if (head === "self" || root) return [from];
  if (head === "crate") return from.includes("src/") ? roots(from.slice(0, from.lastIndexOf("src/") + 3)) : declaredRoot ? [declaredRoot] : [];
  if (/^super::super\b/.test(path)) return [];
  const parentDir = base === "mod.rs" ? posix.dirname(dir) : dir;
  if (/(^|\/)src$/.test(parentDir)) return roots(parentDir);
  if (declaredRoot && parentDir === posix.dirname(declaredRoot)) return [declaredRoot];
  return [`${parentDir}.rs`, `${parentDir}/mod.rs`].filter(exists);
}

/** A target table of Cargo.toml and the `[package]` key that turns off its discovery. */
const TARGET_DISCOVERY: Record<string, string> = { test: "autotests", bench: "autobenches", example: "autoexamples" };

/**
 * Whether a file is a crate root: lib.rs or main.rs in src, a file of src/bin, examples, tests or
 * benches (but not one whose directory holds another file declared its crate's root, which
 * declares it a module: tests/alias.rs of tests/lib.rs), build.rs, or the manifest's declared root.
 */
export function isCrateRoot(path: string, declaredRoot?: string): boolean {
  const dir = posix.dirname(path);
  const base = posix.basename(path);
  if (path === declaredRoot) return true;
  const target = /(^|\/)(src\/bin|examples|tests|benches)$/.test(dir) && (declaredRoot === undefined || posix.dirname(declaredRoot) !== dir);
  return (/^(lib|main)\.rs$/.test(base) && /(^|\/)src$/.test(dir)) || target || base === "build.rs";
}

/**
 * The directory (with its trailing slash, empty at the top) where the files of a module's `mod
 * child;` live: beside a crate root or a mod.rs, under a directory of the file's own name
 * otherwise (`src/a.rs`: `src/a/child.rs`).
 */
export function rustChildDir(path: string, declaredRoot: string | undefined): string {
  const dir = posix.dirname(path);
  const base = posix.basename(path);
  const prefix = dir === "." ? "" : `${dir}/`;
  return base === "mod.rs" || isCrateRoot(path, declaredRoot) ? prefix : `${prefix}${base.replace(/\.rs$/, "")}/`;
}
