/**
 * Rust: `mod m;` -> m.rs or m/mod.rs beside the declaring file (in its own directory for a
 * non-root file), `#[path = "..."]` relative to the declaring file's directory; `use` paths
 * through the crate (`crate::`, `super::`, `self::`), the package's own crate name and every
 * workspace member's crate name (Cargo.toml files above the sources); include!/include_str!.
 */
import { posix } from "node:path";
import { RustModules } from "../resolve/rust.js";
import type { RepoFiles } from "./repo.js";
import { ASSET, type DepOutcome, type DepRow, EXTERNAL, outcome, UNRESOLVED } from "./types.js";

export class RustImports {
  private readonly modules;
  private crates: Map<string, string> | undefined;

  constructor(private readonly repo: RepoFiles) {
    this.modules = new RustModules(repo);
  }

  /** Crate name (as paths write it) -> its root file, for every Cargo package that holds sources. */
  private crateMap(): Map<string, string> {
    if (this.crates) return this.crates;
    const out = new Map<string, string>();
    const dirs = new Set<string>();
    for (const f of this.repo.byPath.values()) {
      if (f.language !== "rust") continue;
      for (let d = posix.dirname(f.path); ; d = posix.dirname(d)) {
        dirs.add(d);
        if (d === ".") break;
      }
    }
    for (const d of [...dirs].sort()) {
      if (this.repo.readConfig(d === "." ? "Cargo.toml" : `${d}/Cargo.toml`) === undefined) continue;
      const pkg = this.modules.cargoPackage(d);
      if (pkg && !out.has(pkg.crate)) out.set(pkg.crate, pkg.lib);
    }
    this.crates = out;
    return out;
  }

  resolve(from: string, dep: DepRow): DepOutcome {
    const spec = dep.spec;
    if (spec === null) return UNRESOLVED;
    const dir = posix.dirname(from);
    const out: number[] = [];
    if (dep.form === "mod") {
      if (dep.path_attr !== null) {
        this.repo.tryPath(posix.join(dir, dep.path_attr), out);
        return outcome(out, UNRESOLVED);
      }
      const base = posix.basename(from);
      const own = /^(mod|lib|main)\.rs$/.test(base) || /(^|\/)(src\/bin|examples|tests|benches)$/.test(dir) ? dir : posix.join(dir, base.replace(/\.rs$/, ""));
      if (!this.repo.tryPath(posix.join(own, `${spec}.rs`), out)) this.repo.tryPath(posix.join(own, spec, "mod.rs"), out);
      return outcome(out, UNRESOLVED);
    }
    if (dep.form === "include") {
      this.repo.tryPath(posix.join(dir, spec), out);
      return outcome(out, ASSET.test(spec) || /\.(rs|in)$/.test(spec) === false ? { status: "asset", targets: [] } : UNRESOLVED);
    }
    // use: one path, or a group `a::{b, c::{d, e}}`: each path of the group.
    const paths = expandUse(spec);
    const results = paths.map((p) => this.usePath(from, p));
    const targets = results.flatMap((r) => r.targets);
    if (targets.length > 0) return outcome(targets, UNRESOLVED);
    return results.some((r) => r.status === "unresolved") ? UNRESOLVED : EXTERNAL;
  }

  private usePath(from: string, spec: string): DepOutcome {
    const out: number[] = [];
    const path = spec.replace(/::(self|\*)$/, "");
    const head = path.split("::")[0] as string;
    if (/^(crate|self|super)$/.test(head)) {
      // (No module file below it names the path: RustModules gives the module it starts from.)
      this.modules.resolve(from, path, out);
      return outcome(out, UNRESOLVED);
    }
    const lib = this.crateMap().get(head);
    if (lib === undefined) return EXTERNAL;
    const segs = path.split("::").slice(1);
    const libDir = posix.dirname(lib);
    for (let n = segs.length; n >= 1 && out.length === 0; n--) {
      const p = posix.join(libDir, ...segs.slice(0, n));
      if (!this.repo.tryPath(`${p}.rs`, out)) this.repo.tryPath(`${p}/mod.rs`, out);
    }
    if (out.length === 0) this.repo.tryPath(lib, out);
    return outcome(out, UNRESOLVED);
  }
}

/** `a::{b, c::{d, e}, self}` (aliases already dropped) -> `a::b`, `a::c::d`, `a::c::e`, `a`. */
export function expandUse(spec: string): string[] {
  const s = spec.replace(/\s+/g, "");
  const open = s.indexOf("{");
  if (open < 0) return [s];
  const prefix = s.slice(0, open).replace(/::$/, "");
  // The group's items, split at top-level commas.
  const body = s.slice(open + 1, s.lastIndexOf("}"));
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      items.push(body.slice(start, i));
      start = i + 1;
    }
  }
  items.push(body.slice(start));
  const out: string[] = [];
  for (const it of items.filter(Boolean)) {
    const item = it;
    if (item === "self") out.push(prefix);
    else for (const p of expandUse(item)) out.push(prefix ? `${prefix}::${p}` : p);
  }
  return out;
}
