import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ignore, { type Ignore } from "ignore";
import { gitWorkTree, toRelative } from "./root.js";

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
   * ripgrep `--glob` semantics: gitignore-style patterns; a plain glob whitelists (when any is
   * given, a file must match one), `!glob` excludes; a later glob overrides an earlier one; a
   * match overrides hidden and ignore rules, as in ripgrep.
   */
  globs?: string[];
  /** Told about every entry left out for a reason other than ignore rules. */
  onSkip?: (rel: string, reason: "symlink" | "unreadable") => void;
}

export interface WalkEntry {
  abs: string;
  rel: string;
}

interface Level {
  base: string;
  ig: Ignore;
}

/**
 * The files a search should visit, in path order. Follows ripgrep's defaults so match sets can
 * be compared with it: .gitignore counts only inside a git work tree, .ignore always; a
 * directory that is ignored is not entered (as in git, a negation cannot re-include its
 * contents); hidden entries and symlinks met during the walk are skipped; a file named
 * explicitly in `start` is always taken.
 */
export function walkFiles(options: WalkOptions): WalkEntry[] {
  const { root } = options;
  const globs = compileGlobs(options.globs ?? []);
  const out: WalkEntry[] = [];
  const starts = options.start && options.start.length > 0 ? options.start : [root];
  for (const start of starts) {
    let st;
    try {
      st = statSync(start);
    } catch {
      options.onSkip?.(toRelative(root, start), "unreadable");
      continue;
    }
    if (!st.isDirectory()) {
      out.push({ abs: start, rel: toRelative(root, start) });
      continue;
    }
    const levels = options.noIgnore ? [] : ancestorLevels(start);
    walkDir(start, levels, gitWorkTree(start) !== undefined, options, globs, out);
  }
  out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  // A file reachable from two start points is listed once.
  return out.filter((e, i) => i === 0 || out[i - 1]?.rel !== e.rel);
}

interface Globs {
  ig: Ignore;
  hasWhitelist: boolean;
}

function compileGlobs(globs: string[]): Globs | undefined {
  if (globs.length === 0) return undefined;
  return { ig: ignore({ allowRelativePaths: true }).add(globs), hasWhitelist: globs.some((g) => !g.startsWith("!")) };
}

/**
 * ripgrep's overrides: a `--glob` match decides before hidden and ignore rules do (a whitelisted
 * path is taken even when gitignored or hidden). Without a match, a file is excluded when any
 * whitelist glob exists; a directory is never excluded for lack of a match.
 */
function globDecision(globs: Globs | undefined, rel: string, isDir: boolean): "include" | "exclude" | undefined {
  if (!globs) return undefined;
  const r = globs.ig.test(isDir ? `${rel}/` : rel);
  if (r.unignored) return "exclude";
  if (r.ignored) return "include";
  return !isDir && globs.hasWhitelist ? "exclude" : undefined;
}

function readRules(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Rules a directory contributes: .gitignore (inside a git tree), then .ignore, which wins. */
function levelFor(dir: string, inGit: boolean, isGitTop: boolean): Level | undefined {
  const parts: string[] = [];
  if (inGit && isGitTop) {
    const exclude = readRules(join(dir, ".git", "info", "exclude"));
    if (exclude) parts.push(exclude);
  }
  if (inGit) {
    const gi = readRules(join(dir, ".gitignore"));
    if (gi) parts.push(gi);
  }
  const ig2 = readRules(join(dir, ".ignore"));
  if (ig2) parts.push(ig2);
  if (parts.length === 0) return undefined;
  return { base: dir, ig: ignore({ allowRelativePaths: true }).add(parts.join("\n")) };
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

function isIgnored(levels: Level[], abs: string, isDir: boolean): boolean {
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i] as Level;
    const rel = relative(level.base, abs);
    const r = level.ig.test(isDir ? `${rel}/` : rel);
    if (r.unignored) return false;
    if (r.ignored) return true;
  }
  return false;
}

function walkDir(
  dir: string,
  parentLevels: Level[],
  inGit: boolean,
  options: WalkOptions,
  globs: Globs | undefined,
  out: WalkEntry[],
): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    options.onSkip?.(toRelative(options.root, dir), "unreadable");
    return;
  }
  let levels = parentLevels;
  if (!options.noIgnore && !parentLevels.some((l) => l.base === dir)) {
    // A nested repository (submodule, vendored checkout) starts its own git scope.
    const isGitTop = entries.some((e) => e.name === ".git");
    const l = levelFor(dir, inGit || isGitTop, isGitTop);
    if (l) levels = [...parentLevels, l];
    inGit = inGit || isGitTop;
  }
  for (const ent of entries) {
    const name = ent.name;
    if (name === ".git") continue;
    const abs = join(dir, name);
    const rel = toRelative(options.root, abs);
    if (ent.isSymbolicLink()) {
      if (options.hidden || !name.startsWith(".")) options.onSkip?.(rel, "symlink");
      continue;
    }
    const isDir = ent.isDirectory();
    if (!isDir && !ent.isFile()) continue;
    const override = globDecision(globs, rel, isDir);
    if (override === "exclude") continue;
    if (override === undefined) {
      if (!options.hidden && name.startsWith(".")) continue;
      if (!options.noIgnore && isIgnored(levels, abs, isDir)) continue;
    }
    if (isDir) walkDir(abs, levels, inGit, options, globs, out);
    else out.push({ abs, rel });
  }
}
