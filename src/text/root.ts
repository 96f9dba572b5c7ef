import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";

/**
 * CONTRACT.md: the workspace root is `--root`, else the enclosing git work tree, else the
 * current directory. Returned as a real path (symlinks resolved) so containment checks compare
 * like with like.
 */
export function findWorkspaceRoot(tool: string, explicit?: string, cwd: string = process.cwd()): string {
  if (explicit !== undefined) {
    const abs = resolve(cwd, explicit);
    let st;
    try {
      st = statSync(abs);
    } catch {
      throw new ToolError({
        code: commonCode(tool, "invalid_root"),
        error: "invalid_root",
        message: `workspace root does not exist: ${explicit}`,
        remediation: "Pass --root an existing directory, or omit it to use the enclosing git work tree.",
        exitCode: EXIT.usage,
      });
    }
    if (!st.isDirectory()) {
      throw new ToolError({
        code: commonCode(tool, "invalid_root"),
        error: "invalid_root",
        message: `workspace root is not a directory: ${explicit}`,
        remediation: "Pass --root a directory.",
        exitCode: EXIT.usage,
      });
    }
    return realpathSync(abs);
  }
  const start = realpathSync(cwd);
  return gitWorkTree(start) ?? start;
}

/** The nearest ancestor (or self) holding `.git` (a directory, or a file for worktrees). */
export function gitWorkTree(from: string): string | undefined {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * What a search given no path searches, as ripgrep does: the current directory when it lies
 * inside the root below it ([cwd]), else the whole root ([]). llmsearch searched the whole root
 * from a subdirectory where rg and llmastsearch search the subdirectory: an agent that cd'd into
 * a package got other packages' matches (logrus/hooks: 502 matches where rg gives 73).
 */
export function searchScope(root: string, cwd: string = process.cwd()): string[] {
  let real: string;
  try {
    real = realpathSync(cwd);
  } catch {
    return [];
  }
  return real !== root && isInside(root, real) ? [real] : [];
}

/** `/`-separated path of `abs` relative to `root` (CONTRACT.md file_path). */
export function toRelative(root: string, abs: string): string {
  const rel = relative(root, abs);
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** Whether `abs` is `root` or lies below it (both already resolved the same way). */
export function isInside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

export interface ResolvedPath {
  /** Absolute path as the user named it (symlinks not resolved). */
  abs: string;
  /** CONTRACT.md file_path: relative to the root, `/` separators. */
  rel: string;
}

/**
 * Resolves a user-supplied path and refuses anything outside the root: `..` escapes, absolute
 * paths elsewhere, and symlinks (of the file or any directory on the way) that lead out.
 * A relative path is taken from the current directory when it exists there, else from the
 * root, since paths printed by the tools are root-relative. When it names two different files,
 * one from each (a root-relative `a/x.txt` an agent got from llmsearch, run from a subdirectory
 * that has its own `a/x.txt`), it is refused: llmtransform edited the subdirectory's copy, and said
 * ok. `./` and `../` say "from here".
 */
export function resolveInRoot(tool: string, root: string, userPath: string, cwd: string = process.cwd()): ResolvedPath {
  if (userPath.includes("\0")) {
    throw new ToolError({
      code: commonCode(tool, "invalid_request"),
      error: "invalid_path",
      message: "path contains a NUL byte",
      remediation: "Pass a plain file path.",
      exitCode: EXIT.usage,
    });
  }
  let abs: string;
  if (isAbsolute(userPath)) abs = resolve(userPath);
  else {
    const fromCwd = resolve(cwd, userPath);
    const fromRoot = resolve(root, userPath);
    const here = existsSync(fromCwd);
    const there = fromRoot !== fromCwd && existsSync(fromRoot);
    abs = here || !there ? fromCwd : fromRoot;
    if (here && there && !/^\.\.?([/\\]|$)/.test(userPath) && realExisting(fromCwd) !== realExisting(fromRoot)) {
      throw new ToolError({
        code: commonCode(tool, "invalid_request"),
        error: "ambiguous_path",
        message: `${userPath} names two files: ${toRelative(root, fromCwd)} (from the current directory) and ${toRelative(root, fromRoot)} (from the workspace root ${root})`,
        remediation: `Pass ./${userPath} for the one below the current directory, or ${fromRoot} for the root-relative one (the tools print root-relative paths).`,
        exitCode: EXIT.usage,
      });
    }
  }
  const outside = (why: string): ToolError =>
    new ToolError({
      code: commonCode(tool, "path_outside_root"),
      error: "path_outside_root",
      message: `${userPath}: ${why} outside the workspace root ${root}`,
      remediation: "Name a file inside the workspace root, or pass --root to widen it.",
      exitCode: EXIT.usage,
    });
  if (!isInside(root, abs)) {
    // The user may have reached the root through a symlinked spelling of it.
    const real = realExisting(abs);
    if (!isInside(root, real)) throw outside("path lies");
    abs = join(root, relative(root, real));
  }
  const real = realExisting(abs);
  if (!isInside(root, real)) throw outside("path resolves (through a symlink)");
  return { abs, rel: toRelative(root, abs) };
}

/** realpath of the longest existing prefix of `abs`, with the missing tail appended. */
export function realExisting(abs: string): string {
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(head);
      return tail.length ? join(real, ...tail.reverse()) : real;
    } catch {
      const up = dirname(head);
      if (up === head) return abs;
      tail.push(head.slice(up.length).replace(/^[/\\]/, ""));
      head = up;
    }
  }
}
