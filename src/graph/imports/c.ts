/**
 * C/C++ `#include`: "x" beside the including file, then the include paths; <x> the include
 * paths only. Include paths come from compile_commands.json (at the root or in build/): the
 * file's own entry, and for a header every entry's paths. Without one, the paths are guessed
 * from the build files of every directory that holds C or C++ code (-I flags in Makefiles and
 * Makefile.am, include_directories() and target_include_directories() in CMakeLists.txt, each
 * relative to its own directory; those of the including file's directory and its ancestors
 * first) and include/ directories, then, for "x", from the one file of the repository whose path
 * ends with x (or the nearest, when several do); the edges found so are labelled guessed.
 */
import { posix } from "node:path";
import type { RepoFiles } from "./repo.js";
import { type DepOutcome, type DepRow, EXTERNAL, outcome, UNRESOLVED } from "./types.js";

interface IncludePaths {
  guessed: boolean;
  perFile: Map<string, string[]>;
  all: string[];
  /** Guessed: the include directories each directory's build files declare. */
  byDir: Map<string, string[]>;
}

/** Build files whose include directories are read when there is no compilation database. */
export const BUILD_FILES = ["Makefile", "makefile", "GNUmakefile", "Makefile.am", "CMakeLists.txt", "meson.build"];
const CMAKE_KEYWORDS = /^(PUBLIC|PRIVATE|INTERFACE|SYSTEM|BEFORE|AFTER)$/;

/**
 * The C library's and POSIX's headers: `#include "stdio.h"` (David Gay's dtoa in jq, and older
 * code) finds them where <stdio.h> would once the repository has none of that name.
 */
const SYSTEM_HEADERS = new Set(
  (
    "assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal stdalign stdarg stdatomic stdbool stddef stdint stdio stdlib stdnoreturn string tgmath threads time uchar wchar wctype " +
    "aio arpa/inet dirent dlfcn fcntl fnmatch glob grp iconv langinfo libgen netdb netinet/in netinet/tcp poll pthread pwd regex sched semaphore spawn strings syslog termios unistd utime wordexp " +
    "sys/ioctl sys/mman sys/resource sys/select sys/socket sys/stat sys/time sys/times sys/types sys/uio sys/un sys/utsname sys/wait windows winsock2 ws2tcpip io direct malloc"
  )
    .split(" ")
    .map((h) => `${h}.h`),
);

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
      this.paths = { guessed: false, perFile, all: [...all].sort(), byDir: new Map() };
      return this.paths;
    }
    // Guesses: the build files of the directories that hold C or C++ code and of their ancestors.
    const byDir = new Map<string, string[]>();
    for (const d of this.codeDirs()) {
      const declared = new Set<string>();
      for (const build of BUILD_FILES) {
        const t = this.repo.readConfig(d === "." ? build : `${d}/${build}`);
        if (t !== undefined) for (const p of buildIncludeDirs(t, d)) declared.add(p);
      }
      const found = [...declared].filter((p) => this.repo.dirs.has(p));
      if (found.length > 0) byDir.set(d, found);
      for (const p of found) all.add(p);
    }
    for (const d of this.repo.dirs.keys()) if (posix.basename(d) === "include") all.add(d);
    this.paths = { guessed: true, perFile, all: [...all].filter((d) => this.repo.dirs.has(d)).sort(), byDir };
    return this.paths;
  }

  /** Directories holding a C or C++ file, and their ancestors. */
  private codeDirs(): string[] {
    const dirs = new Set<string>(["."]);
    for (const f of this.repo.byId.values()) {
      if (f.language !== "c" && f.language !== "cpp") continue;
      for (let d = posix.dirname(f.path); d !== "." && !dirs.has(d); d = posix.dirname(d)) dirs.add(d);
    }
    return [...dirs].sort();
  }

  /** Guessed include paths in the order a file of `dir` tries them: its own and its ancestors' build files' first. */
  private guessedOrder(inc: IncludePaths, dir: string): string[] {
    let order = this.orders.get(dir);
    if (order) return order;
    const near: string[] = [];
    for (let d = dir; ; d = posix.dirname(d)) {
      for (const p of inc.byDir.get(d) ?? []) if (!near.includes(p)) near.push(p);
      if (d === ".") break;
    }
    order = [...near, ...inc.all.filter((p) => !near.includes(p))];
    this.orders.set(dir, order);
    return order;
  }

  private readonly orders = new Map<string, string[]>();

  /** The file a quoted include names by its path's end, when one of them is nearest the including file. */
  private bySuffix(from: string, spec: string): number[] {
    const found: number[] = [];
    if (!this.repo.suffixMatch(spec, found) || found.length === 1) return found;
    // Several: the ones sharing the longest directory prefix with the including file, if one.
    const a = posix.dirname(from).split("/");
    const shared = found.map((id) => {
      const b = posix.dirname(this.repo.pathOf(id) ?? "").split("/");
      let k = 0;
      while (k < a.length && k < b.length && a[k] === b[k]) k++;
      return k;
    });
    const best = Math.max(...shared);
    const nearest = found.filter((_, i) => shared[i] === best);
    return nearest.length === 1 ? nearest : [];
  }

  resolve(from: string, dep: DepRow): DepOutcome {
    const spec = dep.spec;
    if (spec === null) return UNRESOLVED;
    const out: number[] = [];
    if (dep.form === "include" && this.repo.tryPath(posix.join(posix.dirname(from), spec), out)) return outcome(out, UNRESOLVED);
    const inc = this.includePaths();
    const dirs = inc.perFile.get(from) ?? (inc.guessed ? this.guessedOrder(inc, posix.dirname(from)) : inc.all);
    for (const d of dirs) if (this.repo.tryPath(posix.join(d, spec), out)) return outcome(out, UNRESOLVED, inc.guessed);
    if (dep.form === "system") return EXTERNAL;
    // "x" that no include path places: without a compilation database, the repository's file
    // whose path ends with x (fmt's tests include "gtest/gtest.h" from test/gtest/, jq's fuzzers
    // "jv.h" from src/), else a C library header the compiler would find next, else unresolved
    // (a header the build generates, a library's that is not installed here).
    if (inc.guessed) {
      const near = this.bySuffix(from, spec);
      if (near.length > 0) return outcome(near, UNRESOLVED, true);
    }
    return SYSTEM_HEADERS.has(spec) ? EXTERNAL : UNRESOLVED;
  }
}

/**
 * The include directories a build file in `dir` declares (repository-relative): `-I` flags
 * (Makefile, Makefile.am), include_directories() and target_include_directories() (CMake),
 * relative to `dir` unless rooted at the project (`$(top_srcdir)`, `${PROJECT_SOURCE_DIR}`,
 * `${CMAKE_SOURCE_DIR}`); paths naming other variables are left out.
 */
export function buildIncludeDirs(text: string, dir: string): string[] {
  const out: string[] = [];
  const add = (written: string): void => {
    let p = written.replace(/^["']|["']$/g, "");
    const bi = /^\$<BUILD_INTERFACE:(.*)>$/.exec(p);
    if (bi) p = bi[1] as string;
    let base = dir;
    // (libuv's Makefile.am writes `-I$(top_srcdir)/include`; an in-tree build's builddir is the
    // source directory.)
    const rooted = /^(?:\$\((?:abs_)?top_(?:srcdir|builddir)\)|\$\{(?:PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR)\})\/?/.exec(p);
    if (rooted) {
      base = ".";
      p = p.slice(rooted[0].length);
    } else p = p.replace(/^(?:\$\((?:abs_)?(?:srcdir|builddir)\)|\$\(CURDIR\)|\$\{CMAKE_CURRENT_(?:SOURCE|LIST)_DIR\})\/?/, "");
    if (/[$(){}<>]/.test(p) || posix.isAbsolute(p)) return;
    const rel = posix.normalize(posix.join(base, p || "."));
    if (!rel.startsWith("../") && rel !== "..") out.push(rel);
  };
  for (const m of text.matchAll(/-I\s*([\w./$(){}-]+)/g)) add(m[1] as string);
  for (const m of text.matchAll(/\b(target_)?include_directories\s*\(([^)]*)\)/g)) {
    const words = (m[2] as string).replace(/#[^\n]*/g, "").split(/\s+/).filter((x) => x !== "");
    // target_include_directories names its target first.
    for (const w of m[1] ? words.slice(1) : words) if (!CMAKE_KEYWORDS.test(w)) add(w);
  }
  return out;
}
