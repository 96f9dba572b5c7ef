/**
 * C and C++: `gcc`/`g++ -fsyntax-only` on the content fed through stdin (nothing written), in
 * the file's directory, with the include paths, defines and standard that the project's
 * compile_commands.json gives for this file (or its neighbours) when there is one.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { ChangeCheck, ChangeCheckContext, Raw } from "../change.js";
import { findUp, runProcess, which } from "../process.js";
import { mirrorTree, type Mirror } from "../mirror.js";
import { ContentPositions } from "../positions.js";
import type { CheckerOutcome, Level } from "../types.js";
import { absent, failed, timedOut, type CheckContext } from "./common.js";
import { walkFiles } from "../../text/walk.js";

interface GccLocation {
  caret?: { file: string; line: number; "byte-column": number };
  finish?: { file: string; line: number; "byte-column": number };
}
interface GccDiagnostic {
  kind: string;
  message: string;
  option?: string;
  locations?: GccLocation[];
  children?: GccDiagnostic[];
}

/**
 * gcc's diagnostics, each one at the top level. gcc 12's JSON puts a fatal error that follows a
 * warning among that warning's children (where only notes belong): a new header of CLI11 with
 * `#pragma once` ("#pragma once in main file") and an include gcc could not find came back as
 * one warning, so the fatal error was not seen, nothing after the include was checked, and the
 * file was called validated.
 */
function topLevel(parsed: GccDiagnostic[]): GccDiagnostic[] {
  return parsed.flatMap((d) => [d, ...topLevel((d.children ?? []).filter((c) => c.kind !== "note"))]);
}

interface CompileCommand {
  directory: string;
  file: string;
  arguments?: string[];
  command?: string;
}

/** Flags worth carrying over from a compile command: they change what parses and resolves. */
/**
 * Without a compilation database: the workspace's `include/` and `src/` directories, where most
 * C and C++ projects keep what their build passes as -I (spdlog's `<spdlog/common.h>` in
 * include/, libuv's "uv.h" in include/ and "uv-common.h" in src/). Without them gcc stopped at
 * the first include and checked nothing, and clangd linked no use in another file to its symbol.
 */
export function guessedIncludeFlags(root: string): string[] {
  const flags: string[] = [];
  for (const d of ["include", "src"]) {
    try {
      if (statSync(join(root, d)).isDirectory()) flags.push("-I", join(root, d));
    } catch {
      // no such directory
    }
  }
  // And the root itself for quoted includes only: leveldb spells its own headers from the root
  // (`#include "util/coding.h"` in util/, db/, table/), and a valid new file there was rejected
  // for "util/coding.h: No such file or directory". (-iquote: a root-level header never stands
  // for a system one in `#include <…>`.)
  flags.push("-iquote", root);
  return flags;
}

function projectFlags(ctx: CheckContext): { flags: string[]; from?: string } {
  const dir = dirname(ctx.abs);
  const found = findUp(dir, ctx.root, ["compile_commands.json", "build/compile_commands.json"]);
  if (!found) return { flags: guessedIncludeFlags(ctx.root) };
  let entries: CompileCommand[];
  try {
    entries = JSON.parse(readFileSync(found.file, "utf8")) as CompileCommand[];
  } catch {
    return { flags: [] };
  }
  if (!Array.isArray(entries) || entries.length === 0) return { flags: [] };
  // `directory` is absolute in what CMake writes; a relative one is taken from the file's folder.
  const base = (e: CompileCommand): string => resolve(dirname(found.file), e.directory ?? ".");
  const abs = (e: CompileCommand): string => (isAbsolute(e.file) ? e.file : resolve(base(e), e.file));
  const entry = entries.find((e) => abs(e) === ctx.abs) ?? entries.find((e) => dirname(abs(e)) === dir) ?? entries[0];
  if (!entry) return { flags: [] };
  const argv = entry.arguments ?? splitCommand(entry.command ?? "");
  const cwd = base(entry);
  const flags: string[] = [];
  const withPath = new Set(["-I", "-isystem", "-iquote", "-include", "-idirafter"]);
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    const joined = [...withPath].find((p) => a.startsWith(p) && a.length > p.length);
    if (withPath.has(a) && i + 1 < argv.length) {
      flags.push(a, resolve(cwd, argv[++i] as string));
    } else if (joined) {
      flags.push(joined, resolve(cwd, a.slice(joined.length)));
    } else if (a === "-D" || a === "-U") {
      flags.push(a, argv[++i] as string);
    } else if (a.startsWith("-std=")) {
      // A C standard means nothing to g++ and the reverse: keep it only for the same language.
      if (/\+\+/.test(a) === (ctx.language === "cpp")) flags.push(a);
    } else if (/^-(D|U|f(no-)?(exceptions|rtti|signed-char|unsigned-char)|m32|m64)/.test(a)) {
      flags.push(a);
    }
  }
  return { flags, from: found.file };
}

/** Shell-like split of a compile command (quotes and backslashes), enough for CMake output. */
function splitCommand(cmd: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quote: string | undefined;
  let any = false;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < cmd.length) cur += cmd[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      any = true;
    } else if (c === "\\" && i + 1 < cmd.length) {
      cur += cmd[++i];
      any = true;
    } else if (/\s/.test(c)) {
      if (any || cur) out.push(cur);
      cur = "";
      any = false;
    } else cur += c;
  }
  if (any || cur) out.push(cur);
  return out;
}

const LEVEL: Record<string, Level> = { error: "error", "fatal error": "error", warning: "warning", note: "note" };

/**
 * What C itself forbids and gcc before 14 only warns about (gcc 14 makes them errors by
 * default): a call of an undeclared function, implicit int, pointer/integer and incompatible
 * pointer conversions. zlib's `inflate_fast` renamed without its prototype in inffast.h left
 * calls of an undeclared `inflate_quick`, which gcc 12 called a warning, and the change was
 * written as validated.
 */
const C_PERMERRORS = new Set(["-Wimplicit-function-declaration", "-Wimplicit-int", "-Wint-conversion", "-Wincompatible-pointer-types", "-Wreturn-mismatch", "-Wdeclaration-missing-parameter-type"]);

/**
 * `mirror` (see src/validate/mirror.ts): compile in the workspace as the change leaves it,
 * instead of the disk, as if the file lived at `root/relPath`, so that every quoted include, from
 * the file or from a header it includes, finds the changed headers' new bytes.
 */
export async function checkC(ctx: CheckContext, content: Uint8Array, pos: ContentPositions, mirror?: Mirror, includeFirst?: string): Promise<CheckerOutcome> {
  const compiler = ctx.language === "cpp" ? "g++" : "gcc";
  const bin = which(compiler, ctx.env);
  if (!bin) return absent(ctx, compiler, `Install it (Debian: apt-get install ${compiler === "g++" ? "g++" : "gcc"}).`);
  const inMirror = (p: string): string => (mirror && (p === ctx.root || p.startsWith(`${ctx.root}/`)) ? mirror.root + p.slice(ctx.root.length) : p);
  const fromMirror = (p: string): string => (mirror && (p === mirror.root || p.startsWith(`${mirror.root}/`)) ? ctx.root + p.slice(mirror.root.length) : p);
  const dir = inMirror(dirname(ctx.abs));
  const { flags: projectFlagList, from } = projectFlags(ctx);
  // Include paths inside the workspace point into the mirror (a flag's value is an absolute path).
  // An includer of a changed header is compiled against that header (`includeFirst`, its
  // directory) before any other of its name: uthash keeps copies of its headers in include/ and
  // src/, and the guessed `-I include` made the tests compile the unchanged copy.
  const flagList = includeFirst !== undefined ? ["-I", includeFirst, ...projectFlagList] : projectFlagList;
  const flags = mirror ? flagList.map((f) => (isAbsolute(f) ? inMirror(f) : f)) : flagList;
  const args = [
    "-fsyntax-only",
    "-fdiagnostics-format=json",
    "-x",
    ctx.language === "cpp" ? "c++" : "c",
    ...flags,
    "-iquote",
    dir,
    "-I",
    dir,
    "-",
  ];
  const cwd = existsSync(dir) ? dir : mirror ? mirror.root : ctx.root;
  const r = await runProcess(bin, args, { cwd, input: content, timeoutMs: ctx.timeoutMs, env: ctx.env });
  const ran = `${compiler} -fsyntax-only${from ? ` (flags from ${from.slice(ctx.root.length + 1)})` : ""}`;
  if (r.timedOut) return timedOut(ctx, compiler);
  // The JSON array is one line; the driver may print plain-text lines around it.
  let parsed: GccDiagnostic[] = [];
  const jsonLine = r.stderr.split("\n").find((l) => l.startsWith("["));
  if (jsonLine !== undefined) {
    try {
      parsed = topLevel(JSON.parse(jsonLine) as GccDiagnostic[]);
    } catch {
      return failed(ctx, compiler, r.stderr);
    }
  }
  if (r.status !== 0 && parsed.length === 0) return failed(ctx, compiler, r.stderr || `exit ${r.status}`);
  const diagnostics: CheckerOutcome["diagnostics"] = [];
  for (const d of parsed) {
    const level = ctx.language === "c" && d.option !== undefined && C_PERMERRORS.has(d.option) ? "error" : (LEVEL[d.kind] ?? "error");
    const code = d.option ?? compiler;
    const caret = d.locations?.[0]?.caret;
    const finish = d.locations?.[0]?.finish;
    if (!caret) {
      diagnostics.push({ level, message: d.message, file: ctx.relPath, code, source: compiler });
    } else if (caret.file === "<stdin>") {
      const start = pos.byteOfLineByteCol(caret.line, caret["byte-column"]);
      // gcc's finish is the last byte of the range, inclusive.
      const end = finish && finish.file === "<stdin>" ? pos.byteOfLineByteCol(finish.line, finish["byte-column"] + 1) : Math.min(start + 1, pos.lines.lineEnd(caret.line));
      diagnostics.push({ level, message: d.message, file: ctx.relPath, ...pos.fromBytes(start, end), code, source: compiler });
    } else if (mirror && mirror.changed.has(relative(ctx.root, fromMirror(resolve(dir, caret.file))))) {
      // In a changed header: its own check reports it, at its own lines.
      continue;
    } else {
      const f = fromMirror(resolve(dir, caret.file));
      const rel = f.startsWith(`${ctx.root}/`) ? f.slice(ctx.root.length + 1) : f;
      diagnostics.push({ level, message: `${d.message} (at ${rel}:${caret.line}:${caret["byte-column"]})`, file: rel, start_line: caret.line, start_col: Math.max(0, caret["byte-column"] - 1), code, source: compiler });
    }
  }
  // gcc stops at a fatal error (most often an include it cannot find without the project's
  // compile_commands.json: libuv's `#include "uv.h"` from src/unix/fs.c): nothing after it was
  // checked. Said so, the change is unchecked instead of "validated" for the same fatal error
  // before and after (a new fatal error is still an introduced one).
  const fatal = parsed.find((d) => d.kind === "fatal error");
  if (fatal) {
    diagnostics.push({
      level: "warning",
      message: `checker failed: ${compiler} stopped at a fatal error in ${ctx.relPath} (${fatal.message}), so the code after it was NOT checked${from ? "" : "; the project has no compile_commands.json to give its include paths (CMake: -DCMAKE_EXPORT_COMPILE_COMMANDS=ON; make: bear -- make)"}`,
      file: ctx.relPath,
      code: "checker.failed",
      source: "validate",
    });
  }
  return { ran, diagnostics };
}


const INCLUDER_LIMIT = 50;
const C_SOURCES = /\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|inl)$/i;

/**
 * Files that include the header (directly or through another header): of its directory, and of
 * compile_commands.json, or without one of the workspace, by a quoted spelling relative to the
 * includer or, without a compilation database, one the guessed include paths reach (`include/`,
 * `src/`, the root: guessedIncludeFlags). uthash's tests include "utarray.h" from tests/ with
 * src/ on the include path: a macro change that broke all 16 was validated with none compiled.
 */
function includersOf(root: string, header: string, changed: Set<string>): { file: string; spec: string; guessed: boolean }[] {
  const out: { file: string; spec: string; guessed: boolean }[] = [];
  const candidates = new Set<string>();
  const dir = dirname(header);
  try {
    for (const n of readdirSync(dir)) if (C_SOURCES.test(n)) candidates.add(join(dir, n));
  } catch {
    // a new directory: nothing includes the header yet
  }
  const cc = findUp(dir, root, ["compile_commands.json", "build/compile_commands.json"]);
  // Spellings of a header through the guessed `-I include -I src`.
  const angled = (h: string): string[] => {
    if (cc) return [];
    const rel = relative(root, h);
    return ["include/", "src/"].filter((d) => rel.startsWith(d)).map((d) => rel.slice(d.length));
  };
  // Its quoted spellings: those, and from the root (`-iquote root`).
  const through = (h: string): string[] => (cc ? [] : [relative(root, h), ...angled(h)]);
  if (!cc) {
    for (const e of walkFiles({ root, onSkip() {} })) if (C_SOURCES.test(e.rel)) candidates.add(e.abs);
  }
  if (cc) {
    try {
      for (const e of JSON.parse(readFileSync(cc.file, "utf8")) as CompileCommand[]) {
        const base = resolve(dirname(cc.file), e.directory ?? ".");
        candidates.add(isAbsolute(e.file) ? e.file : resolve(base, e.file));
      }
    } catch {
      // unreadable compile_commands.json: the directory's files only
    }
  }
  // Through other headers too (main.c → queue.h → ring.h): a header that includes it makes its
  // own includers includers, until nothing new is found.
  // Each candidate's quoted #include lines only: without a compilation database every C/C++ file
  // of the workspace is a candidate, and holding their whole text held the tree in memory.
  const texts = new Map<string, string>();
  for (const file of [...candidates].sort()) {
    if (file === header || !file.startsWith(`${root}/`)) continue;
    try {
      const includes = readFileSync(file, "utf8").match(/^\s*#\s*include\s*(?:"[^"\n]*"|<[^>\n]*>)/gm);
      if (includes) texts.set(file, includes.join("\n"));
    } catch {
      // unreadable: not an includer we can compile
    }
  }
  const reached = new Set<string>([header]);
  const found = new Set<string>();
  for (let grew = true; grew && out.length < INCLUDER_LIMIT; ) {
    grew = false;
    for (const [file, text] of texts) {
      if (found.has(file)) continue;
      const spelled = (open: string, close: string) => (spec: string): boolean => new RegExp(`^\\s*#\\s*include\\s*${open}${spec.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${close}`, "m").test(text);
      const includes = spelled('"', '"');
      // `#include <nlohmann/byte_container_with_subtype.hpp>` reaches include/ as -I does: a header
      // library spells its own headers so (nlohmann/json, spdlog, fmt), and with only quoted
      // includes counted, a change to one was compiled alone, never instantiated: a renamed method
      // that 317 test files call was validated.
      const includesAngled = spelled("<", ">");
      let guessed = false;
      const via = [...reached].find((h) => includes(relative(dirname(file), h)) || (guessed = through(h).some(includes) || angled(h).some(includesAngled)));
      if (via === undefined) continue;
      found.add(file);
      grew = true;
      if (/\.(h|hh|hpp|hxx|inl)$/i.test(file)) reached.add(file);
      if (!changed.has(file)) out.push({ file, spec: relative(dirname(file), via), guessed });
      if (out.length >= INCLUDER_LIMIT) break;
    }
  }
  return out;
}

/**
 * C/C++ over a whole change: each changed file before and after (gcc -fsyntax-only), and each
 * file that includes a changed header compiled against the header's before and after content,
 * so that a declaration change that breaks an includer is introduced.
 */
export async function checkCChange(ctx: ChangeCheckContext): Promise<ChangeCheck> {
  const language = ctx.files[0]?.language === "cpp" ? "cpp" : "c";
  const compiler = language === "cpp" ? "g++" : "gcc";
  const before: Raw[] = [];
  const after: Raw[] = [];
  const notes: Raw[] = [];
  const names = new Set<string>();
  let bad: { status: "absent" | "timeout" | "failed"; reason: string } | undefined;
  // The changed files a run that did not finish stood for (an includer's, its header): the
  // others were compiled and compared.
  const missed = new Set<string>();
  const changed = new Set(ctx.files.map((f) => join(ctx.root, f.path)));
  const run = async (relPath: string, content: Uint8Array, mirror?: Mirror, includeFirst?: string, owner: string = relPath): Promise<Raw[]> => {
    const c: CheckContext = { root: ctx.root, relPath, abs: join(ctx.root, relPath), language: /\.c$/.test(relPath) ? "c" : /\.(cc|cpp|cxx|c\+\+|hh|hpp|hxx)$/i.test(relPath) ? "cpp" : language, timeoutMs: ctx.timeoutMs, session: ctx.session, env: ctx.env };
    const o = await checkC(c, content, new ContentPositions(content), mirror, includeFirst);
    if (o.ran) names.add(o.ran);
    const out: Raw[] = [];
    for (const d of o.diagnostics) {
      if (d.code === "checker.absent" || d.code === "checker.timeout" || d.code === "checker.failed") {
        bad ??= { status: d.code === "checker.absent" ? "absent" : d.code === "checker.timeout" ? "timeout" : "failed", reason: d.message };
        missed.add(owner);
      } else out.push(d);
    }
    return out;
  };
  // The before phase is the disk (a change is planned against it); the after phase compiles in
  // a mirror of the workspace with the change applied, so that a changed .c file sees the
  // changed headers, including those it reaches through an unchanged header (async.c →
  // async.h → hiredis.h): a quoted include is looked up beside its includer first, never in a
  // directory given on the command line, so an overlay at the stdin's spelling is not enough.
  const mirror = ctx.files.some((f) => f.after !== null) ? mirrorTree(ctx.root, ctx.files.map((f) => ({ path: f.path, bytes: f.after })), { prefix: "llmtools-cc-" }) : undefined;
  const headers = ctx.files.filter((f) => /\.(h|hh|hpp|hxx|inl)$/i.test(f.path));
  let includers = 0;
  let capped = false;
  // A compile whose after phase finds nothing needs no before phase: only after-findings can be
  // introduced or pre-existing, and the before phase of the same file holds every one it could
  // match. The usual change compiles clean, and a header library's (nlohmann/json: up to 50
  // includers, a second or more each) takes half the time.
  // One finding at one place is one finding, whichever compile reached it: an error in a header
  // that 3 of spdlog's includers reach (spdlog-inl.h:53, a call clangd's rename left) was listed
  // 3 times in `introduced` and the message (and once more from the compile of the header
  // itself when it is an includer too). Each phase keeps the first of each; the before and
  // after phases are deduplicated alike, so a header's old error still excuses its new copy.
  const seen = { before: new Set<string>(), after: new Set<string>() };
  const once = (phase: "before" | "after", ds: Raw[]): Raw[] =>
    ds.filter((d) => {
      // (A compile of the header itself gives the message bare; one of an includer adds where.)
      const k = [d.source, d.code, d.level, d.file, d.message.replace(/ \(at [^()]*:\d+:\d+\)$/, ""), d.start_line ?? "", d.start_col ?? ""].join("\u0000");
      if (seen[phase].has(k)) return false;
      seen[phase].add(k);
      return true;
    });
  const both = async (owner: string, relPath: string, f: { before: Uint8Array | null; after: Uint8Array | null }, first?: string): Promise<void> => {
    let found = 1;
    if (f.after !== null && mirror) {
      const a = await run(relPath, f.after, mirror, first, owner);
      after.push(...once("after", a));
      found = a.length;
    }
    if (f.before !== null && found > 0) before.push(...once("before", await run(relPath, f.before, undefined, first, owner)));
  };
  try {
    for (const f of ctx.files) await both(f.path, f.path, f);
    for (const h of headers) {
      const abs = join(ctx.root, h.path);
      const incs = includersOf(ctx.root, abs, changed);
      if (incs.length >= INCLUDER_LIMIT) capped = true;
      for (const inc of incs) {
        includers++;
        const relInc = relative(ctx.root, inc.file);
        const content = readFileSync(inc.file);
        // (Through the guessed include paths, the header's own directory: see checkC's includeFirst.)
        const first = inc.guessed ? dirname(abs) : undefined;
        await both(h.path, relInc, { before: h.before === null ? null : content, after: h.after === null ? null : content }, first);
      }
    }
  } finally {
    if (mirror) rmSync(mirror.root, { recursive: true, force: true });
  }
  const checker = `${[...names][0] ?? compiler}${includers ? `; ${includers} file${includers === 1 ? "" : "s"} including the changed header${headers.length === 1 ? "" : "s"} recompiled against ${headers.length === 1 ? "it" : "them"}${capped ? ` (at most ${INCLUDER_LIMIT} per header: its other includers were NOT compiled)` : ""}` : ""}`;
  if (bad) return { run: { language, checker, status: bad.status, reason: bad.reason }, before, after, notes, uncheckedFiles: [...missed].sort() };
  return { run: { language, checker, status: "ran" }, before, after, notes };
}
