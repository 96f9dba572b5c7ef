/**
 * Go: `gofmt -e` on stdin for syntax, then `go vet` on the file's package with `-overlay`, which
 * makes the go command read the new content in place of the file's path without writing it.
 * When `go` is not installed (as on the reference machine) the gate reports that it did not run.
 */
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { ChangeCheck, ChangeCheckContext, ChangeFileInput, Raw } from "../change.js";
import { findUp, runProcess, which, withTempDir } from "../process.js";
import { ContentPositions } from "../positions.js";
import type { CheckerOutcome } from "../types.js";
import { absent, failed, timedOut, type CheckContext } from "./common.js";

const LOCATED = /^(.*?\.go):(\d+):(\d+): (.*)$/;

function parse(ctx: CheckContext, pos: ContentPositions, text: string, isOurs: (f: string) => boolean, source: string): CheckerOutcome["diagnostics"] {
  const out: CheckerOutcome["diagnostics"] = [];
  for (const line of text.split("\n")) {
    const m = LOCATED.exec(line.trim());
    if (!m) continue;
    const ln = Number(m[2]);
    if (isOurs(m[1] as string)) {
      const start = pos.byteOfLineByteCol(ln, Number(m[3]));
      out.push({ level: "error", message: m[4] as string, file: ctx.relPath, ...pos.fromBytes(start, start), code: source, source });
    } else {
      out.push({ level: "error", message: `${m[4] as string} (at ${m[1] as string}:${ln})`, file: m[1] as string, code: source, source });
    }
  }
  return out;
}

export async function checkGo(ctx: CheckContext, content: Uint8Array, pos: ContentPositions): Promise<CheckerOutcome> {
  const go = which("go", ctx.env);
  if (!go) return absent(ctx, "go", "Install Go (https://go.dev/dl or Debian: apt-get install golang-go) to type-check Go files.");
  const gofmt = which("gofmt", ctx.env);
  const diagnostics: CheckerOutcome["diagnostics"] = [];
  const ran: string[] = [];
  if (gofmt) {
    const r = await runProcess(gofmt, ["-e"], { input: content, timeoutMs: ctx.timeoutMs, env: ctx.env });
    if (r.timedOut) return timedOut(ctx, "gofmt -e");
    ran.push("gofmt -e");
    diagnostics.push(...parse(ctx, pos, r.stderr, (f) => f === "<standard input>", "gofmt"));
    if (diagnostics.length > 0) return { ran: ran.join(" + "), diagnostics };
  }
  const dir = dirname(ctx.abs);
  if (!existsSync(dir)) return { ran: ran.join(" + ") || "go (nothing to vet: new directory)", diagnostics };
  return withTempDir("llmfilewrite-go-", async (tmp) => {
    const copy = join(tmp, "content.go");
    writeFileSync(copy, content);
    const overlay = join(tmp, "overlay.json");
    writeFileSync(overlay, JSON.stringify({ Replace: { [ctx.abs]: copy } }));
    const r = await runProcess(go, ["vet", `-overlay=${overlay}`, "."], { cwd: dir, timeoutMs: ctx.timeoutMs, env: { ...ctx.env, GOFLAGS: "" } });
    if (r.timedOut) return timedOut(ctx, "go vet");
    ran.push("go vet -overlay");
    const isOurs = (f: string): boolean => resolve(dir, f) === ctx.abs || resolve(dir, f) === copy;
    diagnostics.push(...parse(ctx, pos, r.stderr, isOurs, "go vet"));
    if (r.status !== 0 && diagnostics.length === 0) return failed(ctx, "go vet", r.stderr || `exit ${r.status}`);
    return { ran: ran.join(" + "), diagnostics };
  });
}

const BUILD_LINE = /^(?:vet: )?(\S.*?\.go):(\d+):(\d+): (.*)$/;

/**
 * Go over a whole change: `go build -overlay ./...` of each touched module (every package, so a
 * caller in a package the change did not touch that no longer compiles counts) and `go vet
 * -overlay` of the touched packages that already have a directory (vet cannot enter one that
 * exists only in the overlay), once with the before contents and once with the after contents.
 * A deleted file is an empty overlay entry. Files outside any module get the per-file check.
 */
export async function checkGoChange(ctx: ChangeCheckContext): Promise<ChangeCheck> {
  const go = which("go", ctx.env);
  const language = "go" as const;
  if (!go) {
    return {
      run: { language, checker: "go", status: "absent", reason: "go was not found on PATH. Install Go (https://go.dev/dl or Debian: apt-get install golang-go) to type-check Go files." },
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
    const r = await withTempDir("llmfilewrite-go-", async (tmp) => {
      const phase = async (which: "before" | "after"): Promise<Raw[] | { status: "timeout" | "failed"; reason: string }> => {
        const replace: Record<string, string> = {};
        const back = new Map<string, ChangeFileInput>();
        files.forEach((f, i) => {
          const abs = join(ctx.root, f.path);
          const bytes = which === "before" ? f.before : f.after;
          back.set(abs, f);
          if (bytes === null) {
            if (existsSync(abs)) replace[abs] = "";
            return;
          }
          const copy = join(tmp, `${which}-${i}.go`);
          writeFileSync(copy, bytes);
          replace[abs] = copy;
          back.set(copy, f);
        });
        const overlay = join(tmp, `${which}.json`);
        writeFileSync(overlay, JSON.stringify({ Replace: replace }));
        const env = { ...ctx.env, GOFLAGS: "", GO111MODULE: "on" };
        const build = await runProcess(go, ["build", `-overlay=${overlay}`, "-o", "/dev/null", "./..."], { cwd: modDir, timeoutMs: ctx.timeoutMs, env });
        if (build.timedOut) return { status: "timeout", reason: `go build gave no answer within ${Math.round(ctx.timeoutMs / 1000)} s` };
        const pkgs = [...new Set(files.map((f) => dirname(join(ctx.root, f.path))).filter((d) => existsSync(d)))].map((d) => `./${relative(modDir, d)}`.replace(/\/$/, ""));
        let vetOut = "";
        if (build.status === 0 && pkgs.length > 0) {
          const vet = await runProcess(go, ["vet", `-overlay=${overlay}`, ...pkgs], { cwd: modDir, timeoutMs: ctx.timeoutMs, env });
          if (vet.timedOut) return { status: "timeout", reason: `go vet gave no answer within ${Math.round(ctx.timeoutMs / 1000)} s` };
          vetOut = vet.stderr;
        }
        const found = parseBuild(ctx, modDir, build.stderr + "\n" + vetOut, back, which === "after");
        if (build.status !== 0 && found.length === 0) return { status: "failed", reason: (build.stderr || `exit ${build.status}`).trim().slice(0, 500) };
        return found;
      };
      const b = await phase("before");
      const a = await phase("after");
      return { b, a };
    });
    if (!Array.isArray(r.b) || !Array.isArray(r.a)) {
      const bad = (!Array.isArray(r.a) ? r.a : r.b) as { status: "timeout" | "failed"; reason: string };
      return { run: { language, checker: "go build + go vet -overlay", version, status: bad.status, reason: bad.reason }, before, after, notes };
    }
    before.push(...r.b);
    after.push(...r.a);
    ran.push(`go build ./... + go vet (module ${relative(ctx.root, modDir) || "."}, -overlay)`);
  }
  return { run: { language, checker: `${version ?? "go"}: ${[...new Set(ran)].join("; ")}`, version, status: "ran" }, before, after, notes };
}

async function goVersion(go: string, ctx: ChangeCheckContext): Promise<string | undefined> {
  const r = await runProcess(go, ["version"], { timeoutMs: ctx.timeoutMs, env: ctx.env });
  return /go version (go\S+)/.exec(r.stdout)?.[1];
}

function parseBuild(ctx: ChangeCheckContext, modDir: string, text: string, back: Map<string, ChangeFileInput>, located: boolean): Raw[] {
  const out: Raw[] = [];
  const seen = new Set<string>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = BUILD_LINE.exec(lines[i] as string);
    if (!m) continue;
    let message = m[4] as string;
    while (i + 1 < lines.length && /^\t/.test(lines[i + 1] as string)) message += `\n${(lines[++i] as string).trim()}`;
    const abs = resolve(modDir, m[1] as string);
    const line = Number(m[2]);
    const col = Number(m[3]);
    const k = `${abs}\u0000${line}\u0000${col}\u0000${message}`;
    if (seen.has(k)) continue;
    seen.add(k);
    const f = back.get(abs);
    const file = f ? f.path : relative(ctx.root, abs);
    const d: Raw = { level: "error", message, file, code: "go", source: "go" };
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
    const diagnostics = parseBuild(ctx, tmp, r.stderr, back, true);
    if (r.status !== 0 && diagnostics.length === 0) return failed(c, "go vet", r.stderr || `exit ${r.status}`);
    return { ran: "go vet", diagnostics };
  });
}
