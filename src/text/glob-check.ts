/**
 * ripgrep's verdict on a --glob/--iglob before any file is walked: rg 13 parses each one with the
 * globset crate and stops with "error parsing glob" (exit 2) where the `ignore` package, which
 * matches our globs, accepts anything and quietly matches nothing. This follows globset 0.4's
 * parser (as the `ignore` crate's gitignore lines feed it) for the errors only, with rg's words.
 */
import { statSync } from "node:fs";
import { join } from "node:path";

/** Why rg would refuse `glob` (its message after "error parsing glob '...': "), or undefined. */
export function globError(glob: string): string | undefined {
  // The gitignore line rules ripgrep's override globs go through first.
  let line = glob;
  if (line.startsWith("#")) return undefined;
  if (!line.endsWith("\\ ")) line = line.replace(/\s+$/u, "");
  if (line === "") return undefined;
  if (line.startsWith("\\!") || line.startsWith("\\#")) line = line.slice(1);
  else {
    if (line.startsWith("!")) line = line.slice(1);
    if (line.startsWith("/")) line = line.slice(1);
  }
  if (line.endsWith("/")) {
    line = line.slice(0, -1);
    if (line.endsWith("\\")) line = line.slice(0, -1);
  }
  const chars = [...line];
  let inAlternates = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "\\") {
      if (i + 1 >= chars.length) return "dangling '\\'";
      i++;
    } else if (c === "{") {
      if (inAlternates) return "nested alternate groups are not allowed";
      inAlternates = true;
    } else if (c === "}") inAlternates = false;
    else if (c === "[") {
      const r = classEnd(chars, i + 1);
      if (typeof r === "string") return r;
      i = r;
    }
  }
  if (inAlternates) return "unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)";
  return undefined;
}

/**
 * Why a -g glob is refused, as the message and remediation both searches give: rg's parse error
 * (rg stops on it), or a bare `!`, which rg reads as excluding every file. An empty answer for a
 * glob that matched nothing because it could not be read would mislead; undefined when it is fine.
 */
export function globRefusal(glob: string, flag: string): { message: string; remediation: string } | undefined {
  const why = globError(glob);
  if (why !== undefined) {
    return {
      message: `error parsing glob '${glob}' (${flag}): ${why}`,
      remediation: "Fix the glob as ripgrep would need it: close each [class] and {alternate,group} (groups do not nest), end on no lone '\\'; match a literal '[' or '{' with '[[]' or '[{]'.",
    };
  }
  if (glob.replace(/\s+$/u, "") === "!") {
    return {
      message: `the glob '${glob}' (${flag}) is a '!' with nothing to exclude: ripgrep reads it as a glob that excludes every file`,
      remediation: "Name what to exclude after the '!' (e.g. -g '!*.min.js'), or drop the glob (an empty shell variable after '!' gives this).",
    };
  }
  return undefined;
}

/** globset's parse_class from just after `[`: the index of the closing `]`, or the error. */
function classEnd(chars: string[], from: number): number | string {
  let i = from;
  if (chars[i] === "!" || chars[i] === "^") i++;
  let first = true;
  let inRange = false;
  let last = "";
  for (; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === "]" && !first) return i;
    if (c === "-" && !first && !inRange) inRange = true;
    else if (inRange) {
      if ((c.codePointAt(0) as number) < (last.codePointAt(0) as number)) return `invalid range; '${last}' > '${c}'`;
      inRange = false;
    } else last = c;
    first = false;
  }
  return "unclosed character class; missing ']'";
}

/**
 * An include glob that is the plain name of a directory (`-g src`, `globs: ["src"]`) matches no
 * file, as in rg, since a glob is matched on each file's path: the hint names the glob that takes
 * the files under it, for the empty answer's reason. `dirs`: where the glob is matched from.
 * Two more spellings match no file in rg for the same reason and get the glob that does: a leading
 * `./` (`./src/**`: paths are matched without it) and a trailing `/` (a glob ending in a slash
 * matches directories only).
 */
export function directoryGlobHint(globs: readonly string[], dirs: readonly string[]): string | undefined {
  const includes = globs.filter((g) => !g.startsWith("!"));
  const isDir = (g: string): boolean => !/[*?[{\\]/u.test(g) && dirs.some((d) => statSync(join(d, g), { throwIfNoEntry: false })?.isDirectory() ?? false);
  const dotted = includes.find((g) => /^(?:\.\/+)+[^/]/u.test(g));
  if (dotted !== undefined) {
    const rest = dotted.replace(/^(?:\.\/+)+/u, "");
    const fixed = isDir(rest) ? `${rest.replace(/\/+$/u, "")}/**` : rest.replace(/\/+$/u, "");
    return `'${dotted}' starts with './', and a glob is matched on paths without it: --glob '${fixed}'`;
  }
  const named = includes.filter(isDir);
  if (named.length > 0) {
    const g = named[0]!.replace(/\/+$/u, "");
    return `'${g}' names a directory, and a glob matches files: --glob '${g}/**' takes the files under it (or name ${g} as a path)`;
  }
  const slashed = includes.find((g) => /[^/]\/+$/u.test(g));
  if (slashed !== undefined) return `'${slashed}' ends in '/', so it matches directories only, and a glob picks files: --glob '${slashed.replace(/\/+$/u, "")}'`;
  return undefined;
}
