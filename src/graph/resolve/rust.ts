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
    const srcRoot = fromPath.includes("src/") ? fromPath.slice(0, fromPath.lastIndexOf("src/") + 4) : "";
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
      const pkg = this.cargoPackage(dir);
      if (pkg && segs[0] === pkg.crate) {
        segs.shift();
        baseDir = posix.dirname(pkg.lib);
        let found = false;
        for (let n = segs.length; n >= 1 && !found; n--) {
          const p = [baseDir, ...segs.slice(0, n)].filter((x) => x && x !== ".").join("/");
          found = tryPath(`${p}.rs`) || tryPath(`${p}/mod.rs`);
        }
        if (!found) tryPath(pkg.lib);
        segs.length = 0;
      }
    }
    // The longest prefix of the path that names a file: `a::b::Item` -> a/b.rs or a/b/mod.rs.
    for (let n = segs.length; n >= 1; n--) {
      const p = [baseDir, ...segs.slice(0, n)].filter(Boolean).join("/");
      if (tryPath(`${p}.rs`) || tryPath(`${p}/mod.rs`)) break;
    }
  }

  external(source: string): boolean {
    return !/^(crate|self|super)(::|$)/.test(source);
  }

  /**
   * The Cargo package whose Cargo.toml is nearest above directory `dir`: its library crate's name
   * as Rust paths write it and the repository-relative path of its root file ([lib] name/path,
   * else the package name and src/lib.rs). Undefined for a workspace-only manifest.
   */
  cargoPackage(dir: string): { crate: string; lib: string } | undefined {
    const root = this.files.root;
    if (root === undefined) return undefined;
    const hit = this.cargoPackages.get(dir);
    if (hit !== undefined) return hit ?? undefined;
    let found: { crate: string; lib: string } | null = null;
    let text: string | undefined;
    try {
      text = readFileSync(join(root, dir, "Cargo.toml"), "utf8");
    } catch {
      found = dir === "." || dir === "" ? null : (this.cargoPackage(posix.dirname(dir)) ?? null);
    }
    if (text !== undefined) {
      const t = text;
      // The body of a `[name]` table: up to the next table header or the end.
      const section = (name: string): string => {
        const m = new RegExp(`^\\s*\\[${name}\\]\\s*$`, "m").exec(t);
        if (!m) return "";
        const rest = t.slice(m.index + m[0].length);
        const next = /^\s*\[/m.exec(rest);
        return next ? rest.slice(0, next.index) : rest;
      };
      const key = (body: string, k: string): string | undefined => new RegExp(`^\\s*${k}\\s*=\\s*"([^"]+)"`, "m").exec(body)?.[1];
      const pkgName = key(section("package"), "name");
      const lib = section("lib");
      const name = key(lib, "name") ?? pkgName;
      if (name) found = { crate: name.replace(/-/g, "_"), lib: posix.join(dir, key(lib, "path") ?? "src/lib.rs") };
    }
    this.cargoPackages.set(dir, found);
    return found ?? undefined;
  }
}
