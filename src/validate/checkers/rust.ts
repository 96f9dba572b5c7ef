/**
 * Rust. A file that belongs to a cargo package is checked with `cargo check` on a temporary
 * copy of the package (its workspace when it inherits from one) with the new content in place:
 * the real tree, its target/ included, is never touched, and the copy goes afterwards. Copying
 * is fine for the small crates an agent edits; a package over COPY_LIMIT bytes falls back to
 * rustc on the file alone, and says so. A file outside any package gets `rustc --emit=metadata`
 * on stdin, output into a temp directory: as a binary when it is a program's root (main.rs,
 * build.rs, under bin/ or examples/), else as a library.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { findUp, readdirSafe, runProcess, which, withTempDir } from "../process.js";
import { ContentPositions } from "../positions.js";
import type { CheckerOutcome, Level } from "../types.js";
import { absent, failed, timedOut, type CheckContext } from "./common.js";
import { NOT_COMPILED } from "../notes.js";

const COPY_LIMIT = 50 * 1024 * 1024;
const SKIP = new Set(["target", ".git", "node_modules"]);

interface RustSpan {
  file_name: string;
  byte_start: number;
  byte_end: number;
  line_start: number;
  line_end?: number;
  /** 1-based, in characters. */
  column_start?: number;
  column_end?: number;
  is_primary: boolean;
}
interface RustDiagnostic {
  message: string;
  code: { code: string } | null;
  level: string;
  spans: RustSpan[];
}

const LEVEL: Record<string, Level> = { error: "error", "error: internal compiler error": "error", warning: "warning", note: "note", help: "note" };

function treeSize(dir: string, limit: number): number {
  let total = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (total > limit) return;
      if (SKIP.has(e.name)) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) total += statSync(p).size;
    }
  };
  walk(dir);
  return total;
}

/** The directory to copy: the package, or its workspace when the manifest inherits from it. */
function cargoRoot(ctx: CheckContext): { pkg: string; copyRoot: string } | undefined {
  const found = findUp(dirname(ctx.abs), ctx.root, ["Cargo.toml"]);
  if (!found) return undefined;
  const manifest = readFileSync(found.file, "utf8");
  let copyRoot = found.dir;
  if (/\.workspace\s*=\s*true|workspace\s*=\s*\{|^\s*\[package\][^[]*\bworkspace\s*=/m.test(manifest) && found.dir !== ctx.root) {
    const ws = findUp(dirname(found.dir), ctx.root, ["Cargo.toml"]);
    if (ws && /^\s*\[workspace\]/m.test(readFileSync(ws.file, "utf8"))) copyRoot = ws.dir;
  }
  return { pkg: found.dir, copyRoot };
}

/**
 * The package a changed file is checked with by `cargo check` on a copy (its directory), when it
 * is: a file of the package's mod tree in a package small enough to copy. The change's files of
 * one package are checked in one run per version (change.ts); undefined: the file goes alone.
 */
export function cargoGroup(root: string, abs: string, sizes: Map<string, number>): string | undefined {
  const pkg = cargoRoot({ root, abs } as CheckContext);
  if (!pkg || !inModTree(pkg.pkg, abs)) return undefined;
  let size = sizes.get(pkg.copyRoot);
  if (size === undefined) {
    size = treeSize(pkg.copyRoot, COPY_LIMIT);
    sizes.set(pkg.copyRoot, size);
  }
  return size <= COPY_LIMIT ? pkg.pkg : undefined;
}

/**
 * Whether the crate reaches `abs` through `mod` declarations: a crate root or target file itself,
 * or a file its parent module declares (`mod name;`, or a #[path] naming it). One level: the
 * parent is taken to be in the tree.
 */
function inModTree(pkgDir: string, abs: string): boolean {
  const rel = relative(pkgDir, abs);
  const parts = rel.split("/");
  if (parts[0] !== "src" || /^src\/(lib|main)\.rs$/.test(rel) || rel.startsWith("src/bin/")) return true;
  const file = parts[parts.length - 1] as string;
  const isModRs = file === "mod.rs";
  const dir = dirname(abs);
  const name = isModRs ? basename(dir) : file.replace(/\.rs$/, "");
  const parentDir = isModRs ? dirname(dir) : dir;
  const parents = parentDir === join(pkgDir, "src") ? [join(parentDir, "lib.rs"), join(parentDir, "main.rs")] : [`${parentDir}.rs`, join(parentDir, "mod.rs")];
  const decl = new RegExp(`(^|[^\\w])mod\\s+(r#)?${name}\\s*;`, "m");
  for (const p of parents) {
    let text: string;
    try {
      text = readFileSync(p, "utf8");
    } catch {
      continue;
    }
    if (decl.test(text) || text.includes(`"${basename(abs)}"`)) return true;
  }
  return false;
}

/**
 * `base`: the directory cargo's (or rustc's) file names are relative to; `toReal` maps a path
 * under it to the path it stands for (the copy's files to the workspace's), so that a finding in
 * another file of the crate is named root-relative, like every checker's, and placed in it.
 */
function convert(ctx: CheckContext, pos: ContentPositions, items: RustDiagnostic[], isOurs: (file: string) => boolean, base: string, source: string, toReal: (abs: string) => string = (a) => a): CheckerOutcome["diagnostics"] {
  const out: CheckerOutcome["diagnostics"] = [];
  const others = new Map<string, ContentPositions | null>();
  const positionsOf = (abs: string): ContentPositions | null => {
    if (!others.has(abs)) {
      let p: ContentPositions | null = null;
      try {
        p = new ContentPositions(readFileSync(abs));
      } catch {
        // a file rustc names but we cannot read (a macro's <anon>, a gone temp)
      }
      others.set(abs, p);
    }
    return others.get(abs) ?? null;
  };
  for (const d of items) {
    const level = LEVEL[d.level];
    if (!level) continue;
    // The closing tallies ("aborting due to 2 previous errors") repeat what was said.
    if (d.spans.length === 0 && /^(aborting due to|could not compile|\d+ warnings? emitted)/.test(d.message)) continue;
    const code = d.code?.code ?? source;
    const span = d.spans.find((s) => s.is_primary) ?? d.spans[0];
    if (!span) {
      out.push({ level, message: d.message, file: ctx.relPath, code, source });
    } else if (isOurs(span.file_name)) {
      out.push({ level, message: d.message, file: ctx.relPath, ...pos.fromBytes(span.byte_start, span.byte_end), code, source });
    } else {
      const inBase = resolve(base, span.file_name);
      const real = toReal(inBase);
      if (real.startsWith(`${ctx.root}/`)) {
        // A file of the workspace (another file of the crate): root-relative, at the span.
        const p = positionsOf(inBase);
        const at = p && span.byte_end <= p.bytes.length ? p.fromBytes(span.byte_start, span.byte_end) : { start_line: span.line_start, ...(span.column_start ? { start_col: span.column_start - 1 } : {}) };
        out.push({ level, message: d.message, file: real.slice(ctx.root.length + 1), ...at, code, source });
      } else out.push({ level, message: `${d.message} (at ${span.file_name}:${span.line_start})`, file: span.file_name, code, source });
    }
  }
  return out;
}

function parseJsonLines(text: string, cargo: boolean): RustDiagnostic[] {
  const out: RustDiagnostic[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const v = JSON.parse(line) as { reason?: string; message?: RustDiagnostic } & RustDiagnostic;
      if (cargo) {
        if (v.reason === "compiler-message" && v.message) out.push(v.message);
      } else if (typeof v.message === "string" && Array.isArray(v.spans)) out.push(v);
    } catch {
      // not a diagnostic line
    }
  }
  return out;
}

/**
 * The source files (absolute) the dep-info files under `targetDir` name: every `.rs` a target
 * of the check compiled. Their paths are relative to the workspace cargo ran in (`base`).
 */
function compiledSources(targetDir: string, base: string): Set<string> {
  const out = new Set<string>();
  // The targets' in debug/deps (examples' in debug/examples), a build script's in
  // debug/build/<package>-<hash>/.
  const files: string[] = [];
  const debug = join(targetDir, "debug");
  for (const sub of ["deps", "examples"]) for (const n of readdirSafe(join(debug, sub))) if (n.endsWith(".d")) files.push(join(debug, sub, n));
  for (const b of readdirSafe(join(debug, "build"))) for (const n of readdirSafe(join(debug, "build", b))) if (n.endsWith(".d")) files.push(join(debug, "build", b, n));
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    // `out.d: a.rs b.rs` (a space in a name is written `\ `), then one `a.rs:` line a file.
    for (const line of text.split("\n")) {
      const colon = line.indexOf(": ");
      if (colon < 0 || !line.slice(0, colon).endsWith(".d")) continue;
      for (const f of line.slice(colon + 2).split(/(?<!\\) /)) if (f.endsWith(".rs")) out.add(resolve(base, f.replace(/\\ /g, " ")));
    }
  }
  return out;
}

export async function checkRust(ctx: CheckContext, content: Uint8Array, pos: ContentPositions): Promise<CheckerOutcome> {
  const pkg = cargoRoot(ctx);
  if (pkg && treeSize(pkg.copyRoot, COPY_LIMIT) <= COPY_LIMIT) {
    const cargo = which("cargo", ctx.env);
    if (!cargo) return absent(ctx, "cargo", "Install Rust (rustup or Debian: apt-get install cargo).");
    return withTempDir("llmfilewrite-cargo-", async (tmp) => {
      const copy = join(tmp, "ws");
      cpSync(pkg.copyRoot, copy, { recursive: true, filter: (src) => !SKIP.has(src.slice(src.lastIndexOf("/") + 1)) || src === pkg.copyRoot });
      const target = join(copy, relative(pkg.copyRoot, ctx.abs));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
      // The change's other files of the copy, in this version (see CheckContext.companions).
      for (const c of ctx.companions ?? []) {
        const rel = relative(pkg.copyRoot, c.abs);
        if (rel.startsWith("..") || isAbsolute(rel)) continue;
        const at = join(copy, rel);
        if (c.content === null) rmSync(at, { force: true });
        else {
          mkdirSync(dirname(at), { recursive: true });
          writeFileSync(at, c.content);
        }
      }
      const manifest = join(copy, relative(pkg.copyRoot, pkg.pkg), "Cargo.toml");
      // A file no `mod` declares yet is invisible to cargo: it would "pass" unchecked. It is
      // attached to the crate root of the copy (#[path]) so that it is compiled with the crate,
      // and the result says so; without a crate root it cannot be, and the result says that.
      let scope = "";
      const notes: CheckerOutcome["diagnostics"] = [];
      // (Asked of the copy: a companion may be the parent module that declares the file.)
      if (!inModTree(join(copy, relative(pkg.copyRoot, pkg.pkg)), target)) {
        const pkgCopy = join(copy, relative(pkg.copyRoot, pkg.pkg));
        const crateRoot = [join(pkgCopy, "src", "lib.rs"), join(pkgCopy, "src", "main.rs")].find((f) => existsSync(f));
        if (crateRoot) {
          appendFileSync(crateRoot, `\n#[path = ${JSON.stringify(target)}]\n#[allow(dead_code, unused)]\nmod __llmtools_not_in_mod_tree;\n`);
          scope = `; ${relative(ctx.root, ctx.abs)} is not in the mod tree: checked as a module attached to the crate root`;
        } else scope = `; ${relative(ctx.root, ctx.abs)} is not in the mod tree and the package has no src/lib.rs or src/main.rs: NOT compiled`;
        notes.push({ level: "warning", message: `${relative(ctx.root, ctx.abs)} is not declared by any \`mod\` of its crate yet${crateRoot ? ": it was checked as a module attached to the crate root (paths through super:: may differ once it is declared where it belongs)" : ", and the crate has no root file to attach it to: cargo did NOT compile it"}. Declare it with \`mod ${basename(ctx.abs, ".rs")};\` in its parent module.`, file: ctx.relPath, code: "checker.scope", source: "validate" });
      }
      const r = await runProcess(cargo, ["check", "--message-format=json", "--quiet", "--all-targets", "--manifest-path", manifest], {
        cwd: copy,
        timeoutMs: ctx.timeoutMs,
        // No retries of a failed download: without a network cargo retried for 11 s a run (ripgrep's
        // dependencies) before the check could say it was not done; with one, a download still works.
        env: { ...ctx.env, CARGO_TARGET_DIR: join(tmp, "target"), CARGO_TERM_COLOR: "never", CARGO_NET_RETRY: ctx.env.CARGO_NET_RETRY ?? "0" },
      });
      if (r.timedOut) return timedOut(ctx, "cargo check");
      const items = parseJsonLines(r.stdout, true);
      const toReal = (abs: string): string => (abs === copy || abs.startsWith(`${copy}/`) ? pkg.copyRoot + abs.slice(copy.length) : abs);
      const diagnostics = convert(ctx, pos, items, (f) => resolve(copy, f) === target, copy, "cargo", toReal);
      if (r.status !== 0 && !diagnostics.some((d) => d.level === "error")) return failed(ctx, "cargo check", r.stderr || `exit ${r.status}`);
      const where = relative(ctx.root, pkg.pkg) || ".";
      // rustc's dep-info lists every source file a target compiled: a module behind a `cfg` or an
      // off feature (rust-lang/log's src/kv/, `#[cfg(feature = "kv")]`) is in none, and a type
      // error there passed as validated.
      if (r.status === 0 && scope === "" && !compiledSources(join(tmp, "target"), copy).has(target)) {
        notes.push({ level: "warning", message: `unchecked: cargo check --all-targets compiled no target that includes ${ctx.relPath} (a module behind a cfg, or a feature that is off by default)`, file: ctx.relPath, code: NOT_COMPILED, source: "validate" });
      }
      if (scope.includes("NOT compiled")) return { diagnostics: [...notes, { level: "warning", message: `checker failed: cargo check could not compile ${ctx.relPath}, which is in no mod tree`, file: ctx.relPath, code: "checker.failed", source: "validate" }] };
      return { ran: `cargo check (temporary copy of package ${where}${scope})`, diagnostics: [...notes, ...diagnostics] };
    });
  }
  const rustc = which("rustc", ctx.env);
  if (!rustc) return absent(ctx, "rustc", "Install Rust (rustup or Debian: apt-get install rustc).");
  return withTempDir("llmfilewrite-rustc-", async (tmp) => {
    // A program's root (main.rs, build.rs, a file under bin/ or examples/) is a binary: checked
    // as a library, its `fn main` would be dead code and a missing one would pass.
    const crateType = isProgram(ctx.relPath) ? "bin" : "lib";
    const args = ["--edition", "2021", "--crate-type", crateType, "--crate-name", "llmfilewrite_check", "--emit=metadata", "-o", join(tmp, "out.rmeta"), "--error-format=json", "-"];
    const r = await runProcess(rustc, args, { cwd: tmp, input: content, timeoutMs: ctx.timeoutMs, env: ctx.env });
    if (r.timedOut) return timedOut(ctx, "rustc");
    const items = parseJsonLines(r.stderr, false);
    const diagnostics = convert(ctx, pos, items, (f) => f === "<anon>", tmp, "rustc");
    if (r.status !== 0 && !diagnostics.some((d) => d.level === "error")) return failed(ctx, "rustc", r.stderr || `exit ${r.status}`);
    const why = pkg ? "package too large to copy; file checked alone" : "file outside any cargo package";
    return { ran: `rustc --crate-type ${crateType} --emit=metadata (${why})`, diagnostics };
  });
}

/** Whether a .rs file outside a package is a program's crate root rather than a library's. */
export function isProgram(relPath: string): boolean {
  const parts = relPath.split("/");
  const name = parts[parts.length - 1] as string;
  return name === "main.rs" || name === "build.rs" || parts.slice(0, -1).some((p) => p === "bin" || p === "examples");
}
