import { type Dirent, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { createRequire } from "node:module";
import type { Ignore } from "ignore";
import type ignoreFactory from "ignore";
import { gitWorkTree, isInside, toRelative } from "./root.js";
import type { WarmCache } from "./warm-cache.js";

// require(), not import: ESM's import of a CommonJS package lexes its source for named exports,
// which costs more start-up time than the whole package's own load.
const ignore = createRequire(import.meta.url)("ignore") as typeof ignoreFactory;

export interface WalkOptions {
  /** Real absolute workspace root; every `rel` is relative to it. */
  root: string;
  /** Absolute files or directories inside the root to walk; default: the root. */
  start?: string[];
  /** Include hidden files and directories (names starting with `.`); `.git` is never walked. */
  hidden?: boolean;
  /** Ignore .gitignore, .ignore and .git/info/exclude. */
  noIgnore?: boolean;
  /**
   * Sources of ignore rules left out, as ripgrep's finer flags: `vcs` (--no-ignore-vcs: .gitignore,
   * .git/info/exclude, git's global excludes), `dot` (--no-ignore-dot: .ignore), `exclude`
   * (--no-ignore-exclude: .git/info/exclude), `global` (--no-ignore-global: git's global excludes).
   */
  ignoreOff?: { vcs?: boolean; dot?: boolean; exclude?: boolean; global?: boolean };
  /**
   * ripgrep `--glob` semantics: gitignore-style patterns; a plain glob whitelists (when any is
   * given, a file must match one), `!glob` excludes; a later glob overrides an earlier one; a
   * match overrides hidden and ignore rules, as in ripgrep.
   */
  globs?: string[];
  /**
   * ripgrep `--iglob`: as `globs`, matched ignoring case. rg 13 adds every --iglob after every
   * --glob, whatever their order on the command line, so an --iglob that matches decides.
   */
  iglobs?: string[];
  /**
   * The directory the command runs in. ripgrep matches `globs` and `iglobs` against each path as
   * it walks it from there (`./click/core.py` in `src/`, `../tests/a.py` for `../tests`), not
   * from the repository's top, so `-g 'click/*.py'` run in `src/` takes `src/click/core.py`, as
   * rg does. Unset, or outside the root: paths from the root.
   */
  cwd?: string;
  /** ripgrep `--max-depth`: descend at most this many levels below each start (0: the start itself, a file only). */
  maxDepth?: number;
  /**
   * ripgrep's file types (-t/-T) as their globs, matched on a file's name, never a directory's:
   * with `include`, a file must match one (a match also takes a hidden file, as in ripgrep), and a
   * file matching an `exclude` glob is left out. Globs and ignore rules decide first.
   */
  types?: { include: string[]; exclude: string[] };
  /** Told about every entry left out for a reason other than ignore rules. */
  /**
   * ripgrep `-L/--follow`: walk into symbolic links as into what they name, when that lies inside
   * the root (a link out is skipped as a symlink, as every path out of the root is refused); a
   * link back to a directory above it (a loop) is skipped, as rg skips it.
   */
  follow?: boolean;
  /** `special`: a start path that is neither a regular file nor a directory (a FIFO, socket or device), never opened. */
  onSkip?: (rel: string, reason: "symlink" | "unreadable" | "special") => void;
  /**
   * Told about each file as the walk finds it, so a consumer can start on it while the walk goes
   * on: within one start, in path order (what walkFiles returns); start after start, without
   * de-duplication, for several.
   */
  onFile?: (entry: WalkEntry) => void;
  /**
   * A long-lived process's cache: directory listings and rule files come from it (each checked
   * by a fresh stat), and compiled rules are reused. Same walk, same answer, fewer syscalls.
   */
  cache?: WarmCache;
}

export interface WalkEntry {
  abs: string;
  rel: string;
}

const SEP = sep.charCodeAt(0);

/**
 * One directory's ignore rules, by source, highest precedence first: `.rgignore`, `.ignore`,
 * `.gitignore`, `.git/info/exclude`, git's global excludes. ripgrep ranks the sources before the
 * directories: a rule of a higher source anywhere decides before one of a lower source, however
 * near (a root `.ignore` with `!keep.log` takes `sub/keep.log` although `sub/.gitignore` says
 * `*.log`), and within a source the nearest directory's matching rule decides.
 */
interface Level {
  base: string;
  sets: (Ignore | undefined)[];
  /** The directory holds `.git`: git's sources of the directories above it do not apply here. */
  isGitTop: boolean;
}

/** Indexes into Level.sets; from GIT on, the sources that stop at a repository's top. */
const GIT = 2;
const SOURCES = 5;

/** A level's identity for the warm cache's keys. */
function levelKey(l: Level): string {
  return `${l.base}:${l.sets.map((ig) => (ig ? igId(ig) : "-")).join(",")}`;
}

/**
 * The files a search should visit, in path order. Follows ripgrep's defaults so match sets can
 * be compared with it: .gitignore counts only inside a git work tree, .ignore always; a
 * directory that is ignored is not entered (as in git, a negation cannot re-include its
 * contents); hidden entries and symlinks met during the walk are skipped; a file named
 * explicitly in `start` is always taken.
 */
export function walkFiles(options: WalkOptions): WalkEntry[] {
  // The walk is synchronous: the cache is the walk's for its whole run.
  warm = options.cache;
  try {
    return walk(options);
  } finally {
    warm = undefined;
  }
}

let warm: WarmCache | undefined;

function walk(options: WalkOptions): WalkEntry[] {
  const { root } = options;
  globalExcludes = undefined;
  globFrom = undefined;
  followed = undefined;
  const off = options.ignoreOff ?? {};
  // Indexes into Level.sets: .rgignore, .ignore, .gitignore, .git/info/exclude, global excludes.
  sourcesOff = [false, Boolean(off.dot), Boolean(off.vcs), Boolean(off.vcs || off.exclude), Boolean(off.vcs || off.global)];
  const globs = compileGlobs(options.globs ?? [], options.iglobs ?? [], options.types);
  const base = globs?.ig || globs?.iig ? globBase(root, options.cwd) : undefined;
  const out: WalkEntry[] = [];
  const starts = options.start && options.start.length > 0 ? options.start : [root];
  // A single start whose walk is kept also keeps its sorted list.
  let kept: WalkMemo | undefined;
  for (const start of starts) {
    let st;
    try {
      st = statSync(start);
    } catch {
      options.onSkip?.(toRelative(root, start), "unreadable");
      continue;
    }
    if (!st.isDirectory() && !st.isFile()) {
      // Opening a FIFO waits for a writer, forever: such a path is named, not read.
      options.onSkip?.(toRelative(root, start), "special");
      continue;
    }
    if (!st.isDirectory()) {
      const entry = { abs: start, rel: toRelative(root, start) };
      out.push(entry);
      options.onFile?.(entry);
      continue;
    }
    const levels = options.noIgnore ? [] : ancestorLevels(start);
    const inGit = gitWorkTree(start) !== undefined;
    const rel = toRelative(root, start);
    // As rg names the start from the current directory: `..`, `../tests`, or nothing for itself.
    globFrom = base === undefined || base === "" ? undefined : { start: rel, spelled: posix.relative(base, rel) };
    if (options.follow) followed = new Set([realpathSync(start)]);
    if (!warm?.isTrusting() || options.follow) {
      walkDir(start, rel, levels, inGit, options, globs, out, 0);
      continue;
    }
    // Trusted (the watcher vouches for the tree): a walk that took every listing and rules file
    // on trust, with no listing changed since, finds what it found last time.
    const key = `${start}\0${rel}\0${inGit ? 1 : 0}${options.hidden ? 1 : 0}${options.noIgnore ? 1 : 0}${options.maxDepth ?? ""}\0${filterKey(options)}\0${levels.map(levelKey).join("\0")}`;
    const memo = warm.walks.get(key) as WalkMemo | undefined;
    if (memo && warm.walkStillValid(memo.version)) {
      for (const [r, why] of memo.skips) options.onSkip?.(r, why);
      for (const e of memo.files) {
        out.push(e);
        options.onFile?.(e);
      }
      if (starts.length === 1) kept = memo;
      continue;
    }
    const version = warm.walkVersion();
    const uses = warm.untrustedUses;
    const first = out.length;
    const skips: WalkMemo["skips"] = [];
    const onSkip = options.onSkip;
    const own: WalkOptions = {
      ...options,
      onSkip: (r, why) => {
        skips.push([r, why]);
        onSkip?.(r, why);
      },
    };
    walkDir(start, rel, levels, inGit, own, globs, out, 0);
    if (warm.walkStillValid(version) && warm.untrustedUses === uses) {
      if (warm.walks.size > 1000) warm.walks.clear();
      const made: WalkMemo = { version, files: out.slice(first), skips };
      warm.walks.set(key, made);
      if (starts.length === 1) kept = made;
    }
  }
  if (kept) return (kept.sorted ??= sortedUnique(out)).slice();
  return sortedUnique(out);
}

function sortedUnique(out: WalkEntry[]): WalkEntry[] {
  out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  // A file reachable from two start points is listed once.
  return out.filter((e, i) => i === 0 || out[i - 1]?.rel !== e.rel);
}

interface Globs {
  ig?: Ignore;
  /** --iglob rules: consulted first, since rg 13 adds them after the --glob ones. */
  iig?: Ignore;
  hasWhitelist: boolean;
  typeInclude?: Ignore;
  typeExclude?: Ignore;
}

/**
 * Gitignore-style rules matched case-sensitively, as git (core.ignorecase is false on Linux) and
 * ripgrep match them: `ignore` folds case by default, so `Build/` in a .gitignore hid `build/`,
 * and rg's type `cpp` (`*.[ChH]`) took every `.c` file.
 */
function rules(text: string | string[], ignorecase = false): Ignore {
  return ignore({ allowRelativePaths: true, ignorecase }).add(text);
}

/**
 * `{a,b}` alternation, which ripgrep's globs have (`-g '*.{c,h}'`) and gitignore rules, and so the
 * `ignore` package, do not: the glob becomes one glob per alternative, in order. A brace inside
 * `[...]` or escaped is literal, and so is one without its closing brace; groups may nest.
 */
export function expandBraces(glob: string): string[] {
  if (glob.startsWith("!")) return expandBraces(glob.slice(1)).map((g) => `!${g}`);
  let open = -1;
  let depth = 0;
  const commas: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") i++;
    else if (c === "[") {
      // A class runs to the next "]" (a "]" right after "[" or "[!" is a member).
      let j = i + 1;
      if (glob[j] === "!" || glob[j] === "^") j++;
      if (glob[j] === "]") j++;
      const close = glob.indexOf("]", j);
      if (close !== -1) i = close;
    } else if (c === "{") {
      if (depth++ === 0) open = i;
    } else if (c === "," && depth === 1) commas.push(i);
    else if (c === "}" && depth > 0 && --depth === 0) {
      const head = glob.slice(0, open);
      const tail = glob.slice(i + 1);
      const cuts = [open, ...commas, i];
      const out: string[] = [];
      for (let k = 0; k + 1 < cuts.length; k++) {
        for (const alt of expandBraces(glob.slice((cuts[k] as number) + 1, cuts[k + 1]))) {
          for (const rest of expandBraces(tail)) out.push(head + alt + rest);
        }
      }
      return out;
    }
  }
  return [glob];
}

/**
 * Whether a glob is a rule at all: gitignore syntax, which ripgrep's globs follow, makes an empty
 * line (trailing whitespace trimmed unless escaped) or a `#` comment nothing, so `-g ''` is no
 * whitelist that leaves every file out (rg lists every file with it).
 */
export function isGlobRule(glob: string): boolean {
  const t = glob.replace(/(?<!\\)\s+$/u, "");
  return t !== "" && !t.startsWith("#");
}

function compileGlobs(allGlobs: string[], allIglobs: string[], types: WalkOptions["types"]): Globs | undefined {
  const globs = allGlobs.filter(isGlobRule);
  const iglobs = allIglobs.filter(isGlobRule);
  const inc = types?.include ?? [];
  const exc = types?.exclude ?? [];
  if (globs.length === 0 && iglobs.length === 0 && inc.length === 0 && exc.length === 0) return undefined;
  return {
    ...(globs.length > 0 ? { ig: rules(globs.flatMap(expandBraces)) } : {}),
    ...(iglobs.length > 0 ? { iig: rules(iglobs.flatMap(expandBraces), true) } : {}),
    hasWhitelist: [...globs, ...iglobs].some((g) => !g.startsWith("!")),
    ...(inc.length > 0 ? { typeInclude: rules(inc) } : {}),
    ...(exc.length > 0 ? { typeExclude: rules(exc) } : {}),
  };
}

/** A file's verdict by type (see WalkOptions.types); directories have none. */
function typeDecision(globs: Globs | undefined, name: string): "include" | "exclude" | undefined {
  if (!globs) return undefined;
  if (globs.typeExclude && testOwn(globs.typeExclude, name).ignored) return "exclude";
  if (globs.typeInclude) return testOwn(globs.typeInclude, name).ignored ? "include" : "exclude";
  return undefined;
}

/**
 * ripgrep's overrides: a `--glob` match decides before hidden and ignore rules do (a whitelisted
 * path is taken even when gitignored or hidden). Without a match, a file is excluded when any
 * whitelist glob exists; a directory is never excluded for lack of a match.
 */
function globDecision(globs: Globs | undefined, rel: string, isDir: boolean): "include" | "exclude" | undefined {
  if (!globs?.ig && !globs?.iig) return undefined;
  const seen = globPath(rel);
  // The path's own verdict, as ripgrep's overrides: a directory named like a whitelisted file
  // (`-t js` and `commander.js/`) does not take every file under it, and `-g src` names no file.
  const path = isDir ? `${seen}/` : seen;
  for (const ig of [globs.iig, globs.ig]) {
    if (!ig) continue;
    const r = testOwn(ig, path);
    if (r.unignored) return "exclude";
    if (r.ignored) return "include";
  }
  return !isDir && globs.hasWhitelist ? "exclude" : undefined;
}

/**
 * The start being walked (root-relative) and how ripgrep, run in WalkOptions.cwd, names it; unset
 * when globs match root-relative paths (no globs, the cwd is the root or outside it).
 */
let globFrom: { start: string; spelled: string } | undefined;

/** WalkOptions.cwd relative to the root ("" for the root itself), or undefined when it lies outside. */
function globBase(root: string, cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  let real: string;
  try {
    real = realpathSync(cwd);
  } catch {
    return undefined;
  }
  return isInside(root, real) ? toRelative(root, real) : undefined;
}

/** A root-relative path as ripgrep would match it: the start as named from the cwd, then the path below it. */
function globPath(rel: string): string {
  if (!globFrom) return rel;
  const below = globFrom.start === "" ? rel : rel.slice(globFrom.start.length + 1);
  return globFrom.spelled === "" ? below : `${globFrom.spelled}/${below}`;
}

function readRules(path: string): string | undefined {
  if (warm) return warm.readRules(path);
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

let globalExcludes: string | null | undefined;

/** The sources of rules this walk leaves out (WalkOptions.ignoreOff), by index into Level.sets. */
let sourcesOff: boolean[] = [];

/**
 * The rules of git's global excludes file, read as ripgrep reads them: `core.excludesFile` of the
 * user's git config ($XDG_CONFIG_HOME/git/config, then ~/.gitconfig, which wins), else
 * $XDG_CONFIG_HOME/git/ignore. Read once per walk, not once per process: the daemon and the MCP
 * server live across edits of those files, and each request brings its own HOME.
 */
export function globalGitExcludes(): string | undefined {
  if (globalExcludes !== undefined) return globalExcludes ?? undefined;
  const home = process.env.HOME ?? "";
  const xdg = process.env.XDG_CONFIG_HOME || (home ? join(home, ".config") : "");
  let file: string | undefined;
  for (const cfg of [xdg ? join(xdg, "git", "config") : "", home ? join(home, ".gitconfig") : ""]) {
    const text = cfg ? readRules(cfg) : undefined;
    if (!text) continue;
    let inCore = false;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      const section = /^\[\s*([^\]\s"]+)/.exec(line);
      if (section) {
        inCore = (section[1] as string).toLowerCase() === "core";
        continue;
      }
      const kv = inCore ? /^excludesfile\s*=\s*(.*?)\s*$/i.exec(line) : null;
      if (kv) file = (kv[1] as string).replace(/^"(.*)"$/, "$1");
    }
  }
  if (file?.startsWith("~/")) file = join(home, file.slice(2));
  if (file === undefined && xdg) file = join(xdg, "git", "ignore");
  globalExcludes = (file && readRules(file)) || null;
  return globalExcludes ?? undefined;
}

/** Rules a directory contributes, by source (see Level): .rgignore, .ignore, .gitignore (inside a git tree), .git/info/exclude and git's global excludes (at a git top). */
function levelFor(dir: string, inGit: boolean, isGitTop: boolean, names?: Set<string>): Level | undefined {
  // `names` (the directory's listing, when the caller has it) spares a failing open per file.
  const read = (name: string): string | undefined => (!names || names.has(name) ? readRules(join(dir, name)) : undefined);
  const texts: (string | undefined)[] = [
    read(".rgignore"),
    read(".ignore"),
    inGit ? read(".gitignore") : undefined,
    inGit && isGitTop ? readRules(join(dir, ".git", "info", "exclude")) : undefined,
    inGit && isGitTop ? globalGitExcludes() : undefined,
  ].map((t, source) => (sourcesOff[source] ? undefined : t));
  // A git top without rules is still a level: it ends the git rules of the directories above.
  if (!isGitTop && texts.every((t) => !t)) return undefined;
  const sets = texts.map((text, source) => {
    if (!text) return undefined;
    if (!warm) return rules(text);
    const key = `${dir}\0${source}\0${text}`;
    let ig = warm.compiled.get(key) as Ignore | undefined;
    if (!ig) {
      if (warm.compiled.size > 50_000) warm.compiled.clear();
      ig = rules(text);
      warm.compiled.set(key, ig);
    }
    return ig;
  });
  return { base: dir, sets, isGitTop };
}

/** Levels of the directories from the git top (if any) down to and including `dir`. */
function ancestorLevels(dir: string): Level[] {
  const top = gitWorkTree(dir);
  const chain: string[] = [];
  let d = dir;
  for (;;) {
    chain.push(d);
    if (top === undefined || d === top) break;
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  chain.reverse();
  const levels: Level[] = [];
  for (const c of top === undefined ? [dir] : chain) {
    const l = levelFor(c, top !== undefined, c === top);
    if (l) levels.push(l);
  }
  return levels;
}

/**
 * The rules' verdict on the path itself, not its parents. The walk never enters an ignored
 * directory, so parents below the start were settled already; the ones above it (a start
 * directory such as node_modules/ that an ancestor's .gitignore excludes) must not count,
 * as in ripgrep, which searches a directory it was pointed at and tests each entry on its own.
 * `ignore`'s public test() always folds in the parents, so its per-path rule scan is used
 * when present (pinned ignore@7), with test() as the fallback.
 */
function testOwn(ig: Ignore, path: string): { ignored: boolean; unignored: boolean } {
  const rules = (ig as unknown as { _rules?: { test?: (p: string, mode: string) => { ignored: boolean; unignored: boolean } } })._rules;
  if (rules && typeof rules.test === "function") return rules.test(path, "regex");
  return ig.test(path);
}

/**
 * The ignore rules' verdict on a path: "ignore", "whitelist" (a `!` rule matched it last) or
 * undefined (no rule matched). ripgrep tells the last two apart: only a path no rule matched is
 * left out for being hidden, so `!/.github/` in ripgrep's own .ignore, or `!.gitignore` in a
 * .gitignore, brings that hidden path in without --hidden.
 */
function ignoreVerdict(levels: Level[], abs: string, isDir: boolean): "ignore" | "whitelist" | undefined {
  for (let source = 0; source < SOURCES; source++) {
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i] as Level;
      const ig = level.sets[source];
      if (ig) {
        // Every level's base is an ancestor of `abs`, so slicing equals path.relative, much cheaper.
        const rel =
          abs.startsWith(level.base) && abs.charCodeAt(level.base.length) === SEP
            ? abs.slice(level.base.length + 1)
            : relative(level.base, abs);
        const r = testOwn(ig, isDir ? `${rel}/` : rel);
        if (r.unignored) return "whitelist";
        if (r.ignored) return "ignore";
      }
      // A nested repository's git rules are its own: the enclosing one's stop at its top.
      if (source >= GIT && level.isGitTop) break;
    }
  }
  return undefined;
}

function walkDir(
  dir: string,
  /** `dir` relative to the root, with `/` separators ("" for the root). */
  dirRel: string,
  parentLevels: Level[],
  inGit: boolean,
  options: WalkOptions,
  globs: Globs | undefined,
  out: WalkEntry[],
  /** Levels of `dir` below its start (0: the start). */
  depth: number,
): void {
  // Its entries would lie deeper than --max-depth.
  if (options.maxDepth !== undefined && depth >= options.maxDepth) return;
  let entries;
  try {
    entries = warm ? warm.readdir(dir) : readdirSync(dir, { withFileTypes: true });
  } catch {
    options.onSkip?.(dirRel, "unreadable");
    return;
  }
  let levels = parentLevels;
  if (!options.noIgnore && !parentLevels.some((l) => l.base === dir)) {
    // A nested repository (submodule, vendored checkout) starts its own git scope.
    let isGitTop = false;
    let hasRules = false;
    for (const e of entries) {
      if (e.name === ".git") isGitTop = true;
      else if (e.name === ".gitignore" || e.name === ".ignore" || e.name === ".rgignore") hasRules = true;
    }
    if (isGitTop || hasRules) {
      const l = levelFor(dir, inGit || isGitTop, isGitTop, new Set(entries.map((e) => e.name)));
      if (l) levels = [...parentLevels, l];
    }
    inGit = inGit || isGitTop;
  }
  // String concatenation instead of join/relative per entry: the walk's hot loop.
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  // Warm: the same listing under the same rules and options decides the same way; replay it.
  let memoKey: string | undefined;
  if (warm && !options.follow) {
    memoKey = `${dir}\0${dirRel}\0${inGit ? 1 : 0}${options.hidden ? 1 : 0}${options.noIgnore ? 1 : 0}\0${filterKey(options)}\0${levels.map(levelKey).join("\0")}`;
    const memo = warm.walkMemo.get(memoKey) as DirMemo | undefined;
    if (memo && memo.entries === entries) {
      for (const [kind, name] of memo.actions) {
        const abs = prefix + name;
        const rel = dirRel === "" ? name : `${dirRel}/${name}`;
        if (kind === SYMLINK) options.onSkip?.(rel, "symlink");
        else if (kind === DIR) walkDir(abs, rel, levels, inGit, options, globs, out, depth + 1);
        else {
          const entry = { abs, rel };
          out.push(entry);
          options.onFile?.(entry);
        }
      }
      return;
    }
  }
  const actions: DirMemo["actions"] = [];
  const listed: FollowedEntry[] = options.follow ? entries.map((e) => followed_(prefix, e)) : entries;
  for (const ent of inPathOrder(listed)) {
    const name = ent.name;
    if (name === ".git") continue;
    const abs = prefix + name;
    const rel = dirRel === "" ? name : `${dirRel}/${name}`;
    let real: string | undefined;
    if (ent.isSymbolicLink()) {
      // -L: a link to a file or directory inside the root is walked as what it names.
      const target = options.follow ? (ent as FollowedEntry).target : undefined;
      if (target === undefined || !isInsideRoot(options.root, target.real) || (target.dir && isLoop(target.real))) {
        if (options.hidden || !name.startsWith(".")) {
          actions.push([SYMLINK, name]);
          options.onSkip?.(rel, "symlink");
        }
        continue;
      }
      real = target.real;
    }
    const isDir = ent.isDirectory();
    if (!isDir && !ent.isFile()) continue;
    const override = globDecision(globs, rel, isDir);
    if (override === "exclude") continue;
    if (override === undefined) {
      // In ripgrep's order: ignore rules, then types, then hidden (which a whitelisting ignore
      // rule or a type's match overrides).
      const verdict = options.noIgnore ? undefined : ignoreVerdict(levels, abs, isDir);
      if (verdict === "ignore") continue;
      const typed = isDir ? undefined : typeDecision(globs, name);
      if (typed === "exclude") continue;
      if (typed === undefined && verdict === undefined && !options.hidden && name.startsWith(".")) continue;
    }
    actions.push([isDir ? DIR : FILE, name]);
    if (isDir && options.follow) {
      // The real directories on the way down: a link back to one of them is a loop.
      const r = real ?? realOf(abs);
      followed?.add(r);
      walkDir(abs, rel, levels, inGit, options, globs, out, depth + 1);
      followed?.delete(r);
    } else if (isDir) walkDir(abs, rel, levels, inGit, options, globs, out, depth + 1);
    else {
      const entry = { abs, rel };
      out.push(entry);
      options.onFile?.(entry);
    }
  }
  if (warm && memoKey !== undefined) {
    if (warm.walkMemo.size > 200_000) warm.walkMemo.clear();
    warm.walkMemo.set(memoKey, { entries, actions } satisfies DirMemo);
  }
}

/** -L: the real paths of the directories from the start down to the one being listed. */
let followed: Set<string> | undefined;

interface FollowedEntry {
  name: string;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
  /** What a symbolic link names (undefined: dangling or unreadable). */
  target?: { real: string; dir: boolean };
}

/** A listing entry as -L sees it: a symbolic link takes the kind of what it names (which also sorts it in path order). */
function followed_(prefix: string, e: Dirent): FollowedEntry {
  if (!e.isSymbolicLink()) return e;
  let target: FollowedEntry["target"];
  try {
    const st = statSync(prefix + e.name);
    if (st.isDirectory() || st.isFile()) target = { real: realpathSync(prefix + e.name), dir: st.isDirectory() };
  } catch {
    target = undefined;
  }
  return { name: e.name, isDirectory: () => target?.dir === true, isFile: () => target?.dir === false, isSymbolicLink: () => true, target };
}

function realOf(abs: string): string {
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

function isLoop(real: string): boolean {
  return followed?.has(real) ?? false;
}

function isInsideRoot(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** What the walk's globs and types are, for the warm cache's keys. */
function filterKey(options: WalkOptions): string {
  return `${(options.globs ?? []).join("\0")}\u0001${(options.iglobs ?? []).join("\0")}\u0001${(options.types?.include ?? []).join("\0")}\u0001${(options.types?.exclude ?? []).join("\0")}\u0001${globFrom ? `${globFrom.start}\0${globFrom.spelled}` : ""}`;
}

const SYMLINK = 0;
const DIR = 1;
const FILE = 2;

/**
 * A listing in the order that makes the walk meet files in path order (what walkFiles returns),
 * so that `onFile` can be consumed as a stream (llmsearch writes each file's matches once it and
 * those before it are searched): a directory sorts as its name with a `/`, which is where its
 * files fall among its siblings ("a-b/x" < "a/x" although "a" < "a-b").
 */
function inPathOrder<T extends { name: string; isDirectory(): boolean }>(entries: T[]): T[] {
  const keyed = entries.map((e) => ({ e, key: e.isDirectory() ? `${e.name}/` : e.name }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.e);
}

/** A whole walk from one start, valid while the cache's walk version holds. */
interface WalkMemo {
  version: number;
  files: WalkEntry[];
  /** files in path order, without duplicates (what walkFiles returns), once asked for. */
  sorted?: WalkEntry[];
  skips: [string, "symlink" | "unreadable" | "special"][];
}

/** One directory's verdicts, valid while the cache hands out the same listing (same array). */
interface DirMemo {
  entries: unknown[];
  actions: [typeof SYMLINK | typeof DIR | typeof FILE, string][];
}

const igIds = new WeakMap<Ignore, number>();
let nextIgId = 0;

/** A compiled rule set's identity: the warm cache hands out one instance per directory and text. */
function igId(ig: Ignore): number {
  let id = igIds.get(ig);
  if (id === undefined) {
    id = nextIgId++;
    igIds.set(ig, id);
  }
  return id;
}

/** At most this many files are walked again to say what hid them (a tree ignored whole, node_modules). */
const EXCLUDED_WALK_CAP = 2000;

/**
 * When a walk found no file: the files the ignore rules and the hidden-file rule kept out under
 * the same options, each counted with up to three examples, found by walking again with that rule
 * lifted (both lifted is what ripgrep -uu would search). An agent told that ignore rules "may"
 * exclude files could not tell whether --no-ignore would help; `-g 'scratch/**'` on a gitignored
 * scratch/ read as a wrong glob. `also`: what else reaches them (`it` or `them`), after the flag.
 */
export function excludedByRules(options: Omit<WalkOptions, "onFile">, also?: (it: string) => string): string[] {
  const out: string[] = [];
  const say = (lift: { hidden?: boolean; noIgnore?: boolean }, what: string, flag: string): void => {
    const examples: string[] = [];
    let n = 0;
    let capped = false;
    const stop = new Error("cap");
    try {
      walkFiles({
        ...options,
        ...lift,
        onFile: (e) => {
          n++;
          if (examples.length < 3 && !examples.includes(e.rel)) examples.push(e.rel);
          if (n >= EXCLUDED_WALK_CAP) throw stop;
        },
      });
    } catch (e) {
      if (e !== stop) throw e;
      capped = true;
    }
    const it = n === 1 ? "it" : "them";
    if (n > 0) out.push(`${capped ? `${n}+` : n} ${n === 1 ? "file is" : "files are"} ${what} (${examples.join(", ")}${n > examples.length ? ", ..." : ""}): ${flag} searches ${it}${also ? `, ${also(it)}` : ""}`);
  };
  if (!options.noIgnore) say({ noIgnore: true }, "ignored by .gitignore, .ignore, .rgignore or .git/info/exclude rules", "--no-ignore");
  if (!options.hidden) say({ hidden: true }, "hidden", "--hidden");
  return out;
}
