/**
 * Where the pipeline may write, checked when the path is named AND again at write time through
 * an open directory handle, so that a directory swapped for a symlink in between cannot redirect
 * the write (issue 18, items 3 and 4).
 */
import { closeSync, constants, existsSync, fsyncSync, mkdirSync, openSync, readlinkSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { EXIT } from "../contract/errors.js";
import { isInside, realExisting } from "../text/root.js";
import { changeError } from "./errors.js";

/** Directories no writer of this toolset may touch: git's own data and the tools' state. */
const FORBIDDEN = new Set([".git", ".magellan", ".splice"]);

/** Linux (and most Unix) expose an open descriptor as a path that names the inode itself, not a re-walk. */
const PROC_FD = existsSync("/proc/self/fd");


function toPosix(rel: string): string {
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** The first forbidden component of a root-relative path, or undefined. Case-insensitive: macOS and Windows volumes are. */
export function forbiddenComponent(rel: string): string | undefined {
  for (const part of rel.split(/[/\\]/)) if (FORBIDDEN.has(part.toLowerCase())) return part;
  return undefined;
}


function outside(tool: string, shown: string, root: string, why: string) {
  return changeError(
    tool,
    "path_outside_root",
    `${shown}: ${why} outside the workspace root ${root}; nothing written`,
    "Name a file inside the workspace root (symlinks must stay inside it too), or pass --root to widen it.",
    { exitCode: EXIT.usage },
  );
}

function forbidden(tool: string, shown: string, part: string) {
  return changeError(
    tool,
    "path_forbidden",
    `${shown}: writing inside ${part}/ is refused; nothing written`,
    part.toLowerCase() === ".git"
      ? "Files under .git (or a worktree's or submodule's .git file) are git's own data: a hook or core.hooksPath there runs code on the next git command. Use git itself to change them."
      : `${part}/ holds the tools' own state; let the tools manage it (e.g. splice undo, magellan index --rebuild).`,
    { exitCode: EXIT.usage },
  );
}

/**
 * Checks that `relOrAbs` may be written by `tool` and returns it root-relative ('/'-separated):
 * inside the root (also after resolving every symlink on the way), not inside `.git`, `.magellan`
 * or `.splice`. A relative path is taken from the root.
 */
export function assertWritablePath(root: string, relOrAbs: string, tool: string): string {
  if (relOrAbs.includes("\0")) {
    throw changeError(tool, "invalid_request", "path contains a NUL byte", "Pass a plain file path.", { exitCode: EXIT.usage });
  }
  if (relOrAbs === "") throw changeError(tool, "invalid_request", "empty path", "Name a file inside the workspace root.", { exitCode: EXIT.usage });
  let abs = isAbsolute(relOrAbs) ? resolve(relOrAbs) : resolve(root, relOrAbs);
  if (!isInside(root, abs)) {
    // The caller may have spelled the root through a symlink to it.
    const real = realExisting(abs);
    if (!isInside(root, real)) throw outside(tool, relOrAbs, root, "path lies");
    abs = join(root, relative(root, real));
  }
  const rel = toPosix(relative(root, abs));
  if (rel === "") throw changeError(tool, "invalid_request", `${relOrAbs} is the workspace root itself, not a file`, "Name a file inside the workspace root.", { exitCode: EXIT.usage });
  const lexical = forbiddenComponent(rel);
  if (lexical) throw forbidden(tool, rel, lexical);
  const real = realExisting(abs);
  if (!isInside(root, real)) throw outside(tool, rel, root, "path resolves (through a symlink)");
  const realBad = forbiddenComponent(toPosix(relative(root, real)));
  if (realBad) throw forbidden(tool, rel, realBad);
  return rel;
}

/**
 * An open directory inside the root. Files are created and renamed through `at(name)`, which on
 * Linux names the directory's inode (/proc/self/fd/N/name), so a path component swapped for a
 * symlink after the check cannot move the write elsewhere.
 */
export class VerifiedDir {
  private constructor(
    readonly fd: number,
    /** Real absolute path of the directory when it was verified. */
    readonly real: string,
  ) {}

  at(name: string): string {
    return PROC_FD ? `/proc/self/fd/${this.fd}/${name}` : join(this.real, name);
  }

  /** Where the directory is now. */
  where(): string {
    return PROC_FD ? readlinkSync(`/proc/self/fd/${this.fd}`) : realpathSync(this.real);
  }

  /** Throws unless the directory is still where it was verified (not moved out of the root). */
  reverify(tool: string, root: string, shown: string): void {
    let now: string;
    try {
      now = this.where();
    } catch {
      now = "(gone)";
    }
    if (now !== this.real) throw outside(tool, shown, root, `its directory moved during the write (now ${now}),`);
  }

  /** Makes the directory's entries (renames, unlinks) durable. */
  sync(): void {
    try {
      fsyncSync(this.fd);
    } catch {
      // Some filesystems refuse fsync on a directory; the renames themselves are atomic.
    }
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }

  /**
   * Opens the parent directory of root-relative `rel` (creating missing directories one at a
   * time through the verified parent when `create`), then checks where the kernel says it is.
   */
  static open(tool: string, root: string, rel: string, create: boolean): VerifiedDir {
    const parts = rel.split("/");
    parts.pop();
    // Deepest existing ancestor first: it is opened by path and verified after the open.
    let depth = parts.length;
    while (depth > 0 && !existsSync(join(root, ...parts.slice(0, depth)))) depth--;
    let dir = VerifiedDir.openVerified(tool, root, join(root, ...parts.slice(0, depth)), rel);
    for (let i = depth; i < parts.length; i++) {
      const name = parts[i] as string;
      if (!create) {
        dir.close();
        throw changeError(tool, "file_not_found", `${rel}: directory ${parts.slice(0, i + 1).join("/")} does not exist`, "Check the path; nothing was written.", { file: rel });
      }
      try {
        mkdirSync(dir.at(name), 0o777);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") {
          dir.close();
          throw e;
        }
      }
      const next = VerifiedDir.openVerified(tool, root, dir.at(name), rel, true);
      dir.close();
      dir = next;
    }
    return dir;
  }

  private static openVerified(tool: string, root: string, path: string, shown: string, noFollow = false): VerifiedDir {
    const flags = constants.O_RDONLY | constants.O_DIRECTORY | (noFollow ? constants.O_NOFOLLOW : 0);
    let fd: number;
    try {
      fd = openSync(path, flags);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ELOOP" || code === "ENOTDIR") throw outside(tool, shown, root, "a directory of the path became a symlink or a file during the write, so it may lead");
      throw e;
    }
    let real: string;
    try {
      real = PROC_FD ? readlinkSync(`/proc/self/fd/${fd}`) : realpathSync(path);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    if (!isInside(root, real)) {
      closeSync(fd);
      throw outside(tool, shown, root, `its directory resolves to ${real},`);
    }
    const bad = forbiddenComponent(toPosix(relative(root, real)));
    if (bad) {
      closeSync(fd);
      throw forbidden(tool, shown, bad);
    }
    return new VerifiedDir(fd, real);
  }
}
