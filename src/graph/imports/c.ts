/**
 * C/C++ `#include`: "x" beside the including file, then the include paths; <x> the include
 * paths only. Include paths come from compile_commands.json (at the root or in build/): the
 * file's own entry, and for a header every entry's paths. Without one, the paths are guessed
 * from the build files (-I flags in Makefiles, include_directories() in CMakeLists.txt, and
 * include/ directories), and the edges found through them are labelled guessed.
 */
import { posix } from "node:path";
import type { RepoFiles } from "./repo.js";
import { type DepOutcome, type DepRow, EXTERNAL, outcome, UNRESOLVED } from "./types.js";

interface IncludePaths {
  guessed: boolean;
  perFile: Map<string, string[]>;
  all: string[];
}

export class CImports {
  private paths: IncludePaths | undefined;

  constructor(private readonly repo: RepoFiles) {}

  private relDir(dir: string): string | undefined {
    const root = this.repo.root.replace(/\\/g, "/").replace(/\/$/, "");
    const abs = posix.isAbsolute(dir) ? posix.normalize(dir) : posix.normalize(posix.join(root, dir));
    if (abs === root) return ".";
    return abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : undefined;
  }

  private includePaths(): IncludePaths {
    if (this.paths) return this.paths;
    const perFile = new Map<string, string[]>();
    const all = new Set<string>();
    let text: string | undefined;
    for (const c of ["compile_commands.json", "build/compile_commands.json"]) {
      text = this.repo.readConfig(c);
      if (text !== undefined) break;
    }
    if (text !== undefined) {
      let entries: { directory?: string; file?: string; command?: string; arguments?: string[] }[] = [];
      try {
        entries = JSON.parse(text) as typeof entries;
      } catch {
        entries = [];
      }
      const root = this.repo.root.replace(/\\/g, "/");
      for (const e of Array.isArray(entries) ? entries : []) {
        const dir = e.directory ?? root;
        const args = e.arguments ?? (e.command ?? "").split(/\s+/);
        const incs: string[] = [];
        for (let i = 0; i < args.length; i++) {
          const a = args[i] as string;
          const m = /^-(I|iquote|isystem)(.*)$/.exec(a);
          if (!m) continue;
          const p = m[2] ? m[2] : (args[++i] ?? "");
          const rel = this.relDir(posix.isAbsolute(p) ? p : posix.join(dir, p));
          if (rel !== undefined) incs.push(rel);
        }
        const file = e.file ? this.relDir(posix.isAbsolute(e.file) ? e.file : posix.join(dir, e.file)) : undefined;
        if (file !== undefined) perFile.set(file, incs);
        for (const i of incs) all.add(i);
      }
      this.paths = { guessed: false, perFile, all: [...all].sort() };
      return this.paths;
    }
    // Guesses: -I flags and include_directories() in the build files, and include/ directories.
    // (Automake's Makefile.am writes `-I$(top_srcdir)/src`; CMake's target_include_directories
    // `$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>`: libuv's src/unix/internal.h includes
    // "uv-common.h" from src/.)
    const rootVar = /^\$\((?:abs_)?(?:top_)?(?:srcdir|CURDIR|builddir)\)\/?|^\$\{(?:CMAKE_(?:CURRENT_)?SOURCE_DIR|PROJECT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR)\}\/?/;
    for (const build of ["Makefile", "makefile", "GNUmakefile", "Makefile.am", "CMakeLists.txt", "meson.build"]) {
      const t = this.repo.readConfig(build);
      if (t === undefined) continue;
      for (const m of t.matchAll(/-I\s*([\w./$(){}-]+)/g)) {
        const p = (m[1] as string).replace(rootVar, "");
        if (!/[$(){}]/.test(p)) all.add(posix.normalize(p || "."));
      }
      for (const m of t.matchAll(/include_directories\s*\(([^)]*)\)/g)) {
        for (const p of (m[1] as string).split(/\s+/).filter((x) => x && !/^(PUBLIC|PRIVATE|INTERFACE|SYSTEM|BEFORE|AFTER)$/.test(x))) {
          const q = p
            .replace(/^"|"$/g, "")
            .replace(/^\$<BUILD_INTERFACE:(.*)>$/, "$1")
            .replace(rootVar, "");
          if (!/[$(){}<>]/.test(q)) all.add(posix.normalize(q || "."));
        }
      }
    }
    for (const d of this.repo.dirs.keys()) if (posix.basename(d) === "include") all.add(d);
    this.paths = { guessed: true, perFile, all: [...all].filter((d) => this.repo.dirs.has(d)).sort() };
    return this.paths;
  }

  resolve(from: string, dep: DepRow): DepOutcome {
    const spec = dep.spec;
    if (spec === null) return UNRESOLVED;
    const out: number[] = [];
    if (dep.form === "include" && this.repo.tryPath(posix.join(posix.dirname(from), spec), out)) return outcome(out, UNRESOLVED);
    const inc = this.includePaths();
    const dirs = inc.perFile.get(from) ?? inc.all;
    for (const d of dirs) if (this.repo.tryPath(posix.join(d, spec), out)) return outcome(out, UNRESOLVED, inc.guessed);
    // A quoted include of a repository header we cannot place is unresolved; <x> is the system's.
    return dep.form === "system" ? EXTERNAL : UNRESOLVED;
  }
}
