/**
 * Go: `gofmt -e` for syntax, then, in a module, `go build -overlay ./...` of the module (the
 * overlay makes the go command compile the new content in place of the file's path without
 * writing it) and `go vet` of the touched packages in a mirror of the workspace with the change
 * written (src/validate/mirror.ts): go1.19's vet ignores `-overlay` for the vetted package's own
 * files (it opens them by path: "no such file or directory" for a new file, the old bytes for a
 * changed one), and `go build` compiles no test files, so only the mirror lets vet type-check a
 * new `_test.go` and see its findings in the new code. A vet run that fails without saying where
 * (exit status, no located line) is `checker.failed`, never a pass. Outside any module the file
 * is vetted alone in a throwaway module. When `go` is not installed the gate says it did not run.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { ChangeCheck, ChangeCheckContext, ChangeFileInput, Raw } from "../change.js";
import { NOT_COMPILED } from "../notes.js";
import { mirrorTree } from "../mirror.js";
import { findUp, readdirSafe, runProcess, which, withTempDir } from "../process.js";
import { ContentPositions } from "../positions.js";
import { clipText } from "../../text/clip.js";
import type { CheckerOutcome } from "../types.js";
import { absent, failed, timedOut, type CheckContext } from "./common.js";

const LOCATED = /^(.*?\.go):(\d+):(\d+): (.*)$/;

function parseGofmt(ctx: CheckContext, pos: ContentPositions, text: string): CheckerOutcome["diagnostics"] {
  const out: CheckerOutcome["diagnostics"] = [];
  for (const line of text.split("\n")) {
    const m = LOCATED.exec(line.trim());
    if (!m || m[1] !== "<standard input>") continue;
    const start = pos.byteOfLineByteCol(Number(m[2]), Number(m[3]));
    out.push({ level: "error", message: m[4] as string, file: ctx.relPath, ...pos.fromBytes(start, start), code: "gofmt", source: "gofmt" });
  }
  return out;
}

const GO_INSTALL = "Install Go (https://go.dev/dl or Debian: apt-get install golang-go) to type-check Go files.";

/** One file on its own (validateContent): its findings with this content, whatever the disk holds. */
export async function checkGo(ctx: CheckContext, content: Uint8Array, pos: ContentPositions): Promise<CheckerOutcome> {
  const go = which("go", ctx.env);
  if (!go) return absent(ctx, "go", GO_INSTALL);
  const gofmt = which("gofmt", ctx.env);
  const ran: string[] = [];
  if (gofmt) {
    const r = await runProcess(gofmt, ["-e"], { input: content, timeoutMs: ctx.timeoutMs, env: ctx.env });
    if (r.timedOut) return timedOut(ctx, "gofmt -e");
    ran.push("gofmt -e");
    const syntax = parseGofmt(ctx, pos, r.stderr);
    if (syntax.length > 0) return { ran: ran.join(" + "), diagnostics: syntax };
  }
  const cctx: ChangeCheckContext = { root: ctx.root, files: [], timeoutMs: ctx.timeoutMs, session: ctx.session, env: ctx.env };
  const input: ChangeFileInput = { path: ctx.relPath, language: "go", before: null, after: content };
  const mod = findUp(dirname(ctx.abs), ctx.root, ["go.mod"]);
  if (!mod) return vetAlone(go, cctx, input, content);
  return withTempDir("llmfilewrite-go-", async (tmp) => {
    const r = await moduleFindings(go, cctx, mod.dir, [input], "after", tmp);
    // The new file's own imports that do not load are its errors; any other load error leaves
    // the file unchecked.
    if (!Array.isArray(r) && (r.loadErrors?.length ?? 0) > 0) return { ran: `go list (module ${relative(ctx.root, mod.dir) || "."})`, diagnostics: r.loadErrors as CheckerOutcome["diagnostics"] };
    if (!Array.isArray(r)) return r.status === "timeout" ? timedOut(ctx, r.checker) : failed(ctx, r.checker, r.reason);
    ran.push(`go build ./... + go vet (module ${relative(ctx.root, mod.dir) || "."})`);
    return { ran: ran.join(" + "), diagnostics: r };
  });
}

const BUILD_LINE = /^(vet: )?(\S.*?\.go):(\d+):(\d+): (.*)$/;

interface Bad {
  status: "timeout" | "failed";
  reason: string;
  checker: string;
  /** Load errors the go command placed in the touched files themselves (an import the change added). */
  loadErrors?: Raw[];
}

/**
 * The module's packages as `go list -e` loads them with the overlay: the directories of those
 * that load with their dependencies, and of those that do not, with the first error. Undefined
 * when go list timed out.
 */
async function unloadable(go: string, modDir: string, overlay: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ ok: string[]; bad: Map<string, string> } | undefined> {
  const r = await runProcess(go, ["list", "-e", `-overlay=${overlay}`, "-f", '{{.Dir}}{{"\\t"}}{{.Incomplete}}{{"\\t"}}{{if .Error}}{{.Error}}{{end}}{{range .DepsErrors}}{{.Err}}{{"\\t"}}{{end}}', "./..."], { cwd: modDir, timeoutMs, env });
  if (r.timedOut) return undefined;
  const ok: string[] = [];
  const bad = new Map<string, string>();
  for (const line of r.stdout.split("\n")) {
    const [dir, incomplete, ...errs] = line.split("\t");
    if (!dir) continue;
    if (incomplete === "true") bad.set(dir, clipText(errs.find((e) => e.trim() !== "")?.trim().replace(/\s+/g, " ") ?? "incomplete", 300));
    else ok.push(dir);
  }
  return { ok, bad };
}


/**
 * What the go command finds in module `modDir` when `files` hold their `phase` bytes:
 * `go build -overlay ./...` in the module (every package, so a caller in a package the change
 * did not touch that no longer compiles counts), then, when it compiles, `go vet` of the touched
 * packages (test files included) run in a mirror of the workspace holding those bytes.
 */
async function moduleFindings(go: string, ctx: ChangeCheckContext, modDir: string, files: ChangeFileInput[], phase: "before" | "after", tmp: string, skipped?: string[]): Promise<Raw[] | Bad> {
  const env = { ...ctx.env, GOFLAGS: "", GO111MODULE: "on" };
  const bytesOf = (f: ChangeFileInput): Uint8Array | null => (phase === "before" ? f.before : f.after);
  const located = phase === "after";
  const replace: Record<string, string> = {};
  const back = new Map<string, ChangeFileInput>();
  files.forEach((f, i) => {
    const abs = join(ctx.root, f.path);
    const bytes = bytesOf(f);
    back.set(abs, f);
    if (bytes === null) {
      if (existsSync(abs)) replace[abs] = "";
      return;
    }
    const copy = join(tmp, `${phase}-${i}.go`);
    writeFileSync(copy, bytes);
    replace[abs] = copy;
    back.set(copy, f);
  });
  const overlay = join(tmp, `${phase}.json`);
  writeFileSync(overlay, JSON.stringify({ Replace: replace }));
  const buildOf = (pkgs: string[]): ReturnType<typeof runProcess> => runProcess(go, ["build", `-overlay=${overlay}`, "-o", "/dev/null", ...pkgs], { cwd: modDir, timeoutMs: ctx.timeoutMs, env });
  let build = await buildOf(["./..."]);
  if (build.timedOut) return { status: "timeout", reason: `go build gave no answer within ${Math.round(ctx.timeoutMs / 1000)} s`, checker: "go build" };
  let found = parseBuild(ctx, build.stderr, (p) => resolve(modDir, p), back, located, "go");
  if (build.status !== 0) {
    // A package the go command cannot load (an import missing from GOROOT or the module graph)
    // stops `go build ./...` before it type-checks ANY package: chi (go 1.23, `import "slices"`)
    // under go1.19 printed only "context.go:6:2: package slices is not in GOROOT", before and
    // after alike, so a patch returning `Middlewares(m) + 1` was "validated". The packages that
    // load are built on their own; a touched package that does not load was not checked.
    const blocked = await unloadable(go, modDir, overlay, env, ctx.timeoutMs);
    if (blocked === undefined) return { status: "timeout", reason: `go list gave no answer within ${Math.round(ctx.timeoutMs / 1000)} s`, checker: "go list" };
    if (blocked.bad.size > 0) {
      const touched = [...new Set(files.map((f) => dirname(join(ctx.root, f.path))))];
      const stuck = touched.find((d) => blocked.bad.has(d));
      if (stuck !== undefined) {
        const own = found.filter((d) => files.some((f) => f.path === d.file));
        return {
          status: "failed",
          reason: `go cannot load the package in ${relative(ctx.root, stuck) || "."} (${blocked.bad.get(stuck)}), so no code of it was type-checked`,
          checker: "go build",
          loadErrors: own,
        };
      }
      skipped?.push(...[...blocked.bad].map(([d, e]) => `${relative(modDir, d) || "."} (${e})`));
      if (blocked.ok.length === 0) return found;
      build = await buildOf(blocked.ok.map((d) => `./${relative(modDir, d)}`.replace(/\/$/, "")));
      if (build.timedOut) return { status: "timeout", reason: `go build gave no answer within ${Math.round(ctx.timeoutMs / 1000)} s`, checker: "go build" };
      found = parseBuild(ctx, build.stderr, (p) => resolve(modDir, p), back, located, "go");
    }
    if (build.status !== 0) return found.length > 0 ? found : { status: "failed", reason: clipText((build.stderr || `exit ${build.status}`).trim(), 500), checker: "go build" };
  }
  // go vet opens the vetted package's files by path (go1.19 ignores -overlay for them): it runs
  // in a mirror of the workspace where the touched files hold this phase's bytes.
  const mirror = mirrorTree(ctx.root, files.map((f) => ({ path: f.path, bytes: bytesOf(f) })), { at: join(tmp, `${phase}-tree`) });
  const mirrorMod = join(mirror.root, relative(ctx.root, modDir));
  const pkgDirs = [...new Set(files.map((f) => dirname(join(mirrorMod, relative(modDir, join(ctx.root, f.path))))))];
  const pkgs = pkgDirs.filter((d) => readdirSafe(d).some((n) => n.endsWith(".go"))).map((d) => `./${relative(mirrorMod, d)}`.replace(/\/$/, ""));
  if (pkgs.length === 0) return found;
  const vet = await runProcess(go, ["vet", ...pkgs], { cwd: mirrorMod, timeoutMs: ctx.timeoutMs, env });
  if (vet.timedOut) return { status: "timeout", reason: `go vet gave no answer within ${Math.round(ctx.timeoutMs / 1000)} s`, checker: "go vet" };
  const toReal = (p: string): string => {
    const abs = resolve(mirrorMod, p);
    return abs === mirror.root || abs.startsWith(`${mirror.root}/`) ? ctx.root + abs.slice(mirror.root.length) : abs;
  };
  const vetFound = parseBuild(ctx, vet.stderr, toReal, back, located, "go vet");
  // Only findings vet placed in a file count as an answer: "vet: open …: no such file or
  // directory", a package it could not load, a crash, are a vet that did not check the code.
  if (vet.status !== 0 && vetFound.length === 0) return { status: "failed", reason: `go vet ${pkgs.join(" ")} exited ${vet.status ?? "on a signal"} without a finding in a file: ${clipText((vet.stderr || vet.stdout).trim(), 500)}`, checker: "go vet" };
  return [...found, ...vetFound];
}

/**
 * The changed files the go command leaves out of their package on this machine, by their build
 * constraints (`//go:build windows`, a `_windows.go` name): it compiled none of their code, so a
 * type error there passed as validated (`return "no"` in a bool function of a windows-only file).
 * Each is a `checker.not_compiled` note, which leaves the change unchecked.
 */
async function constrainedOut(go: string, ctx: ChangeCheckContext, modDir: string, files: ChangeFileInput[], overlay: string): Promise<Raw[]> {
  const written = files.filter((f) => f.after !== null && f.path.endsWith(".go"));
  if (written.length === 0 || !existsSync(overlay)) return [];
  const dirs = [...new Set(written.map((f) => dirname(join(ctx.root, f.path))))];
  const env = { ...ctx.env, GOFLAGS: "", GO111MODULE: "on" };
  const r = await runProcess(go, ["list", "-e", `-overlay=${overlay}`, "-f", '{{.Dir}}{{range .IgnoredGoFiles}}{{"\t"}}{{.}}{{end}}', ...dirs.map((d) => `./${relative(modDir, d)}`.replace(/\/$/, ""))], { cwd: modDir, timeoutMs: ctx.timeoutMs, env });
  if (r.timedOut || r.status !== 0) return [];
  const ignored = new Set<string>();
  for (const line of r.stdout.split("\n")) {
    const [dir, ...names] = line.split("\t");
    if (dir) for (const n of names) ignored.add(join(dir, n));
  }
  const left = written.filter((f) => ignored.has(join(ctx.root, f.path)));
  if (left.length === 0) return [];
  const platform = await runProcess(go, ["env", "GOOS", "GOARCH"], { timeoutMs: ctx.timeoutMs, env });
  const [goos, goarch] = platform.stdout.trim().split("\n");
  return left.map((f) => ({
      level: "warning" as const,
      message: `unchecked: ${f.path} is left out of its package by its build constraints on this machine (GOOS=${goos ?? "?"}, GOARCH=${goarch ?? "?"}): go did NOT compile it`,
      file: f.path,
      code: NOT_COMPILED,
      source: "validate",
    }));
}

/**
 * Go over a whole change: for each touched module, `moduleFindings` once with the before
 * contents and once with the after contents. Files outside any module are vetted alone.
 */
export async function checkGoChange(ctx: ChangeCheckContext): Promise<ChangeCheck> {
  const go = which("go", ctx.env);
  const language = "go" as const;
  if (!go) {
    return {
      run: { language, checker: "go", status: "absent", reason: `go was not found on PATH. ${GO_INSTALL}` },
      before: [],
      after: [],
      notes: [],
    };
  }
  const version = await goVersion(go, ctx);
  const modules = new Map<string, ChangeFileInput[]>();
  for (const f of ctx.files) {
    const abs = join(ctx.root, f.path);
    const mod = findUp(dirname(abs), ctx.root, ["go.mod"]);
    const key = mod?.dir ?? "";
    modules.set(key, [...(modules.get(key) ?? []), f]);
  }
  const before: Raw[] = [];
  const after: Raw[] = [];
  const ran: string[] = [];
  const notes: Raw[] = [];
  for (const [modDir, files] of modules) {
    if (!modDir) {
      // Outside any module the go command can only take the file's directory as a package.
      for (const f of files) {
        notes.push({ level: "warning", message: `${f.path} is in no Go module (no go.mod up to the workspace root): its package was checked alone, callers elsewhere were not`, file: f.path, code: "checker.scope", source: "validate" });
        const one = (content: Uint8Array): Promise<CheckerOutcome> => vetAlone(go, ctx, f, content);
        for (const [phase, content] of [["before", f.before], ["after", f.after]] as const) {
          if (content === null) continue;
          const o = await one(content);
          const bad = o?.diagnostics.find((d) => d.code.startsWith("checker."));
          if (bad) return { run: { language, checker: "go vet", version, status: bad.code === "checker.timeout" ? "timeout" : "failed", reason: bad.message }, before, after, notes };
          (phase === "before" ? before : after).push(...(o?.diagnostics ?? []));
          if (o?.ran) ran.push(`${o.ran} (${f.path} alone: no go.mod)`);
        }
      }
      continue;
    }
    const skipped: string[] = [];
    const r = await withTempDir("llmfilewrite-go-", async (tmp) => {
      const b = await moduleFindings(go, ctx, modDir, files, "before", tmp);
      const a = await moduleFindings(go, ctx, modDir, files, "after", tmp, skipped);
      notes.push(...(await constrainedOut(go, ctx, modDir, files, join(tmp, "after.json"))));
      return { b, a };
    });
    // A package that loaded before the change and does not after: the change broke its imports
    // (the go command's own message, at the import, is the finding).
    const introducedLoad = Array.isArray(r.b) && !Array.isArray(r.a) && (r.a.loadErrors?.length ?? 0) > 0;
    if (!introducedLoad && (!Array.isArray(r.b) || !Array.isArray(r.a))) {
      const bad = (!Array.isArray(r.a) ? r.a : r.b) as Bad;
      // viper's `go 1.23.0` under go1.19: "invalid go version '1.23.0': must match format 1.23"
      // reads as a malformed go.mod; the toolchain is what is too old (rename says so too).
      const reason = GO_TOO_OLD.test(bad.reason) ? `${bad.reason} (the go on PATH${version ? `, ${version},` : ""} is older than the module's go.mod asks for: put a Go toolchain at least that new first on PATH)` : `${bad.reason}${goTooOldNote(modDir, version)}`;
      return { run: { language, checker: `go build + go vet (${bad.checker} did not check the code)`, version, status: bad.status, reason }, before, after, notes };
    }
    before.push(...(r.b as Raw[]));
    after.push(...(Array.isArray(r.a) ? r.a : (r.a.loadErrors ?? [])));
    if (skipped.length > 0) {
      notes.push({ level: "warning", file: (files[0] as ChangeFileInput).path, message: `go cannot load ${skipped.length} package(s) of module ${relative(ctx.root, modDir) || "."}, which were not type-checked (callers there included): ${skipped.slice(0, 3).join("; ")}${skipped.length > 3 ? "; …" : ""}`, code: "checker.scope", source: "validate" });
    }
    ran.push(`go build -overlay ./... + go vet in a mirror of the change (module ${relative(ctx.root, modDir) || "."})`);
  }
  return { run: { language, checker: `${version ?? "go"}: ${[...new Set(ran)].join("; ")}`, version, status: "ran" }, before, after, notes };
}

/** What the go command says of a go.mod whose `go` line this toolchain cannot read or does not reach. */
export const GO_TOO_OLD = /invalid go version|requires go >=|go\.mod requires go|newer Go version|toolchain not available/;

/**
 * The `go` line of the go.mod above `dir` (`1.22`) when it asks for a newer Go than `version`
 * (`go1.19.8`, as the go command names itself). A go that old reads urfave/cli's `go 1.22`
 * without a word (only 1.21 and later refuse a newer go line), takes its standard `slices`
 * import for a module's package and fails on the first module it cannot download
 * ("github.com/stretchr/testify@v1.12.0: module lookup disabled"): downloading would not help.
 */
export function goModNewerThan(dir: string, version: string | undefined): string | undefined {
  const have = /^go(\d+(?:\.\d+)*)/.exec(version ?? "")?.[1];
  const mod = findUp(dir, "/", ["go.mod"]);
  if (!have || !mod) return undefined;
  let want: string | undefined;
  try {
    want = /^\s*go\s+(\d+(?:\.\d+)*)\s*(?:\/\/.*)?$/m.exec(readFileSync(mod.file, "utf8"))?.[1];
  } catch {
    return undefined;
  }
  if (!want) return undefined;
  const a = want.split(".").map(Number);
  const b = have.split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0 ? want : undefined;
  }
  return undefined;
}

/** The words that say so, or "" (see goModNewerThan). */
export function goTooOldNote(dir: string, version: string | undefined): string {
  const want = goModNewerThan(dir, version);
  return want ? ` (the module's go.mod asks for go ${want}, and the go on PATH is ${version}: an older go reads packages of the newer standard library, such as slices, as modules to download, so no download makes it build; put a Go toolchain at least that new first on PATH)` : "";
}

async function goVersion(go: string, ctx: ChangeCheckContext): Promise<string | undefined> {
  const r = await runProcess(go, ["version"], { timeoutMs: ctx.timeoutMs, env: ctx.env });
  return /go version (go\S+)/.exec(r.stdout)?.[1];
}

/**
 * The go command's located lines (`file:line:col: message`, vet's type errors prefixed `vet: `,
 * continuation lines indented by a tab). Type errors have code `go`, vet's findings `code`. `toReal` maps a path as printed to the absolute path it
 * stands for in the workspace; `back` maps that (or an overlay copy) to the changed file.
 */
function parseBuild(ctx: ChangeCheckContext, text: string, toReal: (printed: string) => string, back: Map<string, ChangeFileInput>, located: boolean, code: string): Raw[] {
  const out: Raw[] = [];
  const seen = new Set<string>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = BUILD_LINE.exec(lines[i] as string);
    if (!m) continue;
    let message = m[5] as string;
    while (i + 1 < lines.length && /^\t/.test(lines[i + 1] as string)) message += `\n${(lines[++i] as string).trim()}`;
    const abs = toReal(m[2] as string);
    const line = Number(m[3]);
    const col = Number(m[4]);
    const k = `${abs}\u0000${line}\u0000${col}\u0000${message}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const f = back.get(abs);
    const file = f ? f.path : relative(ctx.root, abs);
    // vet prefixes the type errors it meets with "vet: ": they are the compiler's kind.
    const c = m[1] ? "go" : code;
    const d: Raw = { level: "error", message, file, code: c, source: c };
    if (f && located && f.after !== null) {
      const pos = new ContentPositions(f.after);
      const start = pos.byteOfLineByteCol(line, col);
      out.push({ ...d, ...pos.fromBytes(start, start) });
    } else out.push({ ...d, start_line: line, start_col: col - 1 });
  }
  return out;
}

/** A file in no module: vetted alone, as the only file of a throwaway module in a temp directory. */
function vetAlone(go: string, ctx: ChangeCheckContext, f: ChangeFileInput, content: Uint8Array): Promise<CheckerOutcome> {
  return withTempDir("llmfilewrite-go-", async (tmp) => {
    const name = f.path.slice(f.path.lastIndexOf("/") + 1);
    writeFileSync(join(tmp, "go.mod"), "module llmfilewrite.check\n\ngo 1.17\n");
    writeFileSync(join(tmp, name), content);
    const r = await runProcess(go, ["vet", "."], { cwd: tmp, timeoutMs: ctx.timeoutMs, env: { ...ctx.env, GOFLAGS: "", GO111MODULE: "on", GOPROXY: "off" } });
    const c: CheckContext = { root: ctx.root, relPath: f.path, abs: join(ctx.root, f.path), language: "go", timeoutMs: ctx.timeoutMs, session: ctx.session, env: ctx.env };
    if (r.timedOut) return timedOut(c, "go vet");
    const back = new Map([[join(tmp, name), { ...f, after: content }]]);
    const diagnostics = parseBuild(ctx, r.stderr, (p) => resolve(tmp, p), back, true, "go vet");
    if (r.status !== 0 && diagnostics.length === 0) return failed(c, "go vet", r.stderr || `exit ${r.status}`);
    return { ran: "go vet", diagnostics };
  });
}
