/**
 * Java: `javac` on a copy of the content in a private temp directory, class files into that
 * directory too (-d), with the project's source root on -sourcepath so the file's imports of
 * its own project resolve. Nothing is written next to the source; the temp directory goes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import { runProcess, which, withTempDir } from "../process.js";
import { ContentPositions } from "../positions.js";
import type { CheckerOutcome } from "../types.js";
import { absent, failed, timedOut, type CheckContext } from "./common.js";

/**
 * The source root: the file's directory minus the package path, when they agree; else the
 * nearest directory above the file that holds the package's directory, else the Maven/Gradle
 * source set above the file (`…/src/<set>/java`), else the file's directory.
 */
export function sourceRoot(abs: string, text: string): string {
  const dir = dirname(abs);
  const m = /^\s*package\s+([\w.]+)\s*;/m.exec(text);
  if (!m) return dir;
  const suffix = `/${(m[1] as string).split(".").join("/")}`;
  if (dir.endsWith(suffix)) return dir.slice(0, dir.length - suffix.length);
  // A misplaced file (see PACKAGE_MISPLACED): the nearest directory above it that holds its
  // package's directory, else the source set it is in.
  for (let up = dirname(dir); up !== dirname(up); up = dirname(up)) {
    if (existsSync(`${up}${suffix}`)) return up;
    if (existsSync(join(up, ".git"))) break;
  }
  return /^(.*\/src\/[^/]+\/java)(?:\/|$)/.exec(dir)?.[1] ?? dir;
}

/**
 * The code of a Java file whose package line does not match its directory: javapoet's
 * `package com.squareup.javapoet;` written to src/main/java/com/squareup/W31Util.java. javac
 * compiles it given by name, but the project's other classes (javac's source path, an IDE) look
 * for it where the package says. It was rejected for "cannot find symbol: class CodeBlock" (the
 * source path guessed from the file's directory held none of its package), which said nothing
 * of the real mistake.
 */
export const PACKAGE_MISPLACED = "LLMFILEWRITE_E108";

/** A warning at the package line when it does not match the file's directory under its source root. */
function misplacedPackage(abs: string, relPath: string, root: string, srcRoot: string, pos: ContentPositions): CheckerOutcome["diagnostics"][number] | undefined {
  const m = /^(\s*package\s+)([\w.]+)\s*;/m.exec(codeOnly(pos.text));
  if (!m) return undefined;
  const pkg = m[2] as string;
  const suffix = `/${pkg.split(".").join("/")}`;
  const dir = dirname(abs);
  if (dir.endsWith(suffix)) return undefined;
  const rel = (p: string): string => (p === root ? "." : p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p);
  const expected = srcRoot !== dir ? ` (expected ${rel(join(srcRoot, ...pkg.split("."), basename(abs)))})` : "";
  const start = Buffer.byteLength(pos.text.slice(0, m.index + (m[1] as string).length));
  return {
    level: "warning",
    message: `package ${pkg} does not match the file's directory ${rel(dir)}${expected}: the project's other classes look for it where the package says; move the file or change its package line`,
    ...pos.fromBytes(start, start + Buffer.byteLength(pkg)),
    file: relPath,
    code: PACKAGE_MISPLACED,
    source: "javac",
  };
}

const HEADER = /^(.*?):(\d+): (error|warning): (.*)$/;

/** The text with comments, string, char and text-block literals blanked (offsets kept). */
function codeOnly(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) => m.replace(/[^\n]/g, " "));
}

/** The names of the top-level classes, interfaces, enums, records and annotation types a Java text declares. */
export function topLevelTypes(text: string): string[] {
  const code = codeOnly(text);
  const out: string[] = [];
  let depth = 0;
  const re = /[{}]|(?<![\w$.])(?:class|interface|enum|record)\s+([\p{L}_$][\p{L}\p{N}_$]*)/gu;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    if (m[0] === "{") depth++;
    else if (m[0] === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0) out.push(m[1] as string);
  }
  return out;
}

/**
 * The other files of the content's package, under its source root, that declare one of its
 * top-level types. With -sourcepath alone javac takes a type from the file on the command line
 * and never reads the file the source root already declares it in, so a new Util2.java holding
 * javapoet's `class Util` was "validated" where compiling the source set (Maven) fails with
 * "duplicate class". Compiled before the content, they make javac report the duplicate at it.
 */
export function sameTypeDeclarers(srcRoot: string, abs: string, text: string, skip: Set<string>): string[] {
  const names = new Set(topLevelTypes(text));
  if (names.size === 0) return [];
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(codeOnly(text))?.[1];
  const dir = pkg === undefined ? srcRoot : join(srcRoot, ...pkg.split("."));
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const quick = new RegExp(`\\b(?:class|interface|enum|record)\\s+(?:${[...names].map((n) => n.replace(/\$/g, "\\$")).join("|")})\\b`);
  const out: string[] = [];
  for (const e of entries) {
    const p = join(dir, e);
    if (!e.endsWith(".java") || e === "module-info.java" || e === "package-info.java" || p === abs || skip.has(p)) continue;
    let other: string;
    try {
      other = readFileSync(p, "utf8");
    } catch {
      continue;
    }
    if (quick.test(other) && topLevelTypes(other).some((n) => names.has(n))) out.push(p);
  }
  return out;
}

export async function checkJava(ctx: CheckContext, content: Uint8Array, pos: ContentPositions): Promise<CheckerOutcome> {
  const bin = which("javac", ctx.env);
  if (!bin) return absent(ctx, "javac", "Install a JDK (Debian: apt-get install default-jdk-headless).");
  const srcRoot = sourceRoot(ctx.abs, pos.text);
  return withTempDir("llmfilewrite-javac-", async (tmp) => {
    const copy = join(tmp, "src", basename(ctx.abs));
    mkdirSync(dirname(copy), { recursive: true });
    mkdirSync(join(tmp, "classes"));
    writeFileSync(copy, content);
    // With module-info.java on the source path javac compiles in module mode, and a module
    // declaration that does not resolve here (its `requires` are not on this machine) stops it
    // before it looks at the file: every file would be "rejected" for the project's old error,
    // or, worse, accepted unchecked. The file is checked on a source path of links to the
    // root's entries minus module-info.java, and the result says so.
    let sourcePath = srcRoot;
    const moduleInfo = existsSync(join(srcRoot, "module-info.java")) && basename(ctx.abs) !== "module-info.java";
    const withoutModuleInfo = (dir: string, name: string): string => {
      const links = join(tmp, name);
      mkdirSync(links);
      for (const e of readdirSync(dir)) if (e !== "module-info.java") symlinkSync(join(dir, e), join(links, e));
      return links;
    };
    if (moduleInfo) sourcePath = withoutModuleInfo(srcRoot, "sourcepath");
    // Maven and Gradle: a test source set (src/test/java, src/integrationTest/java) compiles
    // against src/main/java. Without it every use of a main class was "cannot find symbol"
    // before and after, so a broken call in commons-lang's tests (StringUtils.abbreviate with a
    // String for an int) was "validated".
    const set = /^(.*)\/src\/([^/]+)\/java$/.exec(srcRoot);
    const main = set && set[2] !== "main" ? join(set[1] as string, "src", "main", "java") : undefined;
    const withMain = main !== undefined && existsSync(main);
    if (withMain) {
      sourcePath += `${delimiter}${existsSync(join(main, "module-info.java")) ? withoutModuleInfo(main, "mainpath") : main}`;
    }
    // The change's other Java files, in this version, compiled with it: given on the command
    // line, they stand for their disk bytes on the source path (a class the change deletes cannot
    // be hidden from it, and stays).
    const companions = new Map<string, { relPath: string; content: Uint8Array; pos?: ContentPositions }>();
    (ctx.companions ?? []).forEach((c, i) => {
      if (c.content === null || !c.relPath.endsWith(".java") || basename(c.relPath) === "module-info.java") return;
      const at = join(tmp, "companions", String(i), basename(c.relPath));
      mkdirSync(dirname(at), { recursive: true });
      writeFileSync(at, c.content);
      companions.set(at, { relPath: c.relPath, content: c.content });
    });
    // (No cap on the errors: a test source set without its libraries on this machine has
    // hundreds of old ones, and a new error past javac's cap of 100 or 200 went unseen.)
    const twins = sameTypeDeclarers(srcRoot, ctx.abs, pos.text, new Set([...(ctx.companions ?? []).map((c) => c.abs), ...(ctx.alsoCompile ?? [])]));
    const args = ["-d", join(tmp, "classes"), "-implicit:none", "-proc:none", "-encoding", "UTF-8", "-Xmaxerrs", "100000", "-sourcepath", sourcePath, ...twins, copy, ...companions.keys(), ...(ctx.alsoCompile ?? [])];
    const r = await runProcess(bin, args, { cwd: tmp, timeoutMs: ctx.timeoutMs, env: { ...ctx.env, LC_ALL: "C" } });
    if (r.timedOut) return timedOut(ctx, "javac");
    const lines = r.stderr.split("\n");
    const diagnostics: CheckerOutcome["diagnostics"] = [];
    for (let i = 0; i < lines.length; i++) {
      const m = HEADER.exec(lines[i] as string);
      if (!m) continue;
      let file = resolve(tmp, m[1] as string);
      if (moduleInfo && file.startsWith(`${join(tmp, "sourcepath")}/`)) file = join(srcRoot, file.slice(join(tmp, "sourcepath").length + 1));
      if (main !== undefined && file.startsWith(`${join(tmp, "mainpath")}/`)) file = join(main, file.slice(join(tmp, "mainpath").length + 1));
      const line = Number(m[2]);
      const level = m[3] === "warning" ? "warning" : "error";
      let message = m[4] as string;
      let caretCol: number | undefined;
      const caretLine = lines[i + 2];
      if (caretLine !== undefined && /^\s*\^\s*$/.test(caretLine)) {
        caretCol = caretLine.indexOf("^");
        i += 2;
        while (i + 1 < lines.length && /^\s{2}\S/.test(lines[i + 1] as string) && !HEADER.test(lines[i + 1] as string)) {
          message += `\n${(lines[i + 1] as string).trim()}`;
          i++;
        }
      }
      const companion = companions.get(file);
      if (file === copy || companion !== undefined) {
        // A companion's finding is placed as precisely as the file's own: a change of several
        // files of one source set is compiled once per version (change.ts), each file's findings
        // read from that one run.
        const at = companion === undefined ? pos : (companion.pos ??= new ContentPositions(companion.content));
        const start = caretCol === undefined ? at.byteOfLineByteCol(line, 1) : at.byteOfLineCharCol(line, caretCol + 1);
        diagnostics.push({ level, message, file: companion?.relPath ?? ctx.relPath, ...at.fromBytes(start, Math.min(start + 1, at.lines.lineEnd(line))), code: "javac", source: "javac" });
      } else {
        const rel = file.startsWith(`${ctx.root}/`) ? file.slice(ctx.root.length + 1) : file;
        // (The line also in the message: it keeps two findings of one file apart in diffFindings.)
        diagnostics.push({ level, message: `${message} (at ${rel}:${line})`, file: rel, start_line: line, code: "javac", source: "javac" });
      }
    }
    if (r.status !== 0 && !diagnostics.some((d) => d.level === "error")) return failed(ctx, "javac", r.stderr || `exit ${r.status}`);
    const misplaced = misplacedPackage(ctx.abs, ctx.relPath, ctx.root, srcRoot, pos);
    if (misplaced) diagnostics.push(misplaced);
    const where = srcRoot === ctx.root ? "." : srcRoot.slice(ctx.root.length + 1);
    const users = ctx.alsoCompile?.length ? `, with ${ctx.alsoCompile.length} file${ctx.alsoCompile.length === 1 ? "" : "s"} using it` : "";
    const mainWhere = withMain ? ` + ${(main as string).slice(ctx.root.length + 1) || "."}` : "";
    const same = twins.length > 0 ? `, with ${twins.map((t) => basename(t)).join(", ")} declaring the same type` : "";
    return { ran: `javac (sourcepath ${where}${mainWhere}${moduleInfo ? ", module-info.java left out: checked on the class path" : ""}${users}${same})`, diagnostics };
  });
}

const USER_LIMIT = 200;

/**
 * The .java files under the file's source root that name its class (a word match on the simple
 * name): compiled with each version of the file, so that a changed signature's callers count.
 */
export function javaUsers(abs: string, text: string, exclude: Set<string>): string[] {
  const srcRoot = sourceRoot(abs, text);
  const name = basename(abs, ".java");
  if (!/^\w+$/.test(name) || name === "module-info" || name === "package-info") return [];
  const word = new RegExp(`\\b${name}\\b`);
  const out: string[] = [];
  for (const p of javaSources(srcRoot, 20_000)) {
    if (out.length >= USER_LIMIT) break;
    if (basename(p) === "module-info.java" || p === abs || exclude.has(p)) continue;
    try {
      if (word.test(readFileSync(p, "utf8"))) out.push(p);
    } catch {
      // unreadable: not compiled
    }
  }
  return out.sort();
}

/** Java source files under `dir` (build output and hidden directories skipped), at most `limit`. */
export function javaSources(dir: string, limit: number): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= limit) return;
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith(".") && e.name !== "build" && e.name !== "target") walk(p);
      } else if (e.isFile() && e.name.endsWith(".java")) out.push(p);
    }
  };
  walk(dir);
  return out;
}
