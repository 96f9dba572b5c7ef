/**
 * Whole-change validation (issue 15, issue 18): every file of a change is judged at once, before
 * against after, so that what was already wrong never blocks and what the change breaks always
 * does, in the files it touched and in the files it did not touch but breaks (callers of a
 * changed signature). Nothing is written to the user's files: checkers see the new content
 * through overlays (TypeScript's compiler host, go's -overlay, pyright's open documents) or
 * private temp copies.
 *
 * Gates: (1) tree-sitter, where only ERROR/MISSING nodes the after-content has and the
 * before-content had not count; (2) the project's checker per touched language, once over the
 * changed set, diagnostics diffed before -> after. The verdict is `validated` only when every
 * touched language's checker ran and nothing new broke; a checker that is absent, crashed or
 * timed out makes it `unchecked` (a warning says why), or `rejected` under requireChecker.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { languageForPath, languageInfo, type LanguageId } from "../lang/registry.js";
import type { CheckContext, Companion } from "./checkers/common.js";
import { FILE_CHECKERS } from "./checkers/registry.js";
import { ContentPositions } from "./positions.js";
import { dependencyGaps, type DependencyGap } from "./dependencies.js";
import { CONFIG_NOT_APPLIED, MISSING_DEPENDENCY, NOT_COMPILED } from "./notes.js";
import { ValidationSession } from "./session.js";
import { treeSitterGate } from "./treesitter.js";
import type { CheckerOutcome, ValidationDiagnostic } from "./types.js";

export interface ChangeFileInput {
  /** Root-relative, `/`-separated. */
  path: string;
  /** null: a file no checker knows (it is written as is, and counts for no language). */
  language: LanguageId | null;
  /** The bytes the change was planned against; null when the file does not exist yet. */
  before: Uint8Array | null;
  /** The bytes the change writes; null when it deletes the file. */
  after: Uint8Array | null;
}

export interface ChangeValidationRequest {
  root: string;
  files: ChangeFileInput[];
  /** Budget of each checker run, in milliseconds (default 60 s). */
  timeoutMs?: number;
  /** An absent/crashed/timed-out checker rejects the change instead of leaving it unchecked. */
  requireChecker?: boolean;
  /** Reuse warm checkers (TypeScript programs, pyright) across changes; made and disposed here otherwise. */
  session?: ValidationSession;
  /**
   * Names the change renames: a finding after it that names `to` where the before-state's named
   * `from` is that same finding, unless it says a name does not resolve (see diffFindings).
   */
  renames?: { from: string; to: string }[];
}

export interface CheckerRun {
  language: LanguageId;
  /** What ran, with its scope (`typescript 5.4.5 (the project's own) …`, `go vet -overlay ./...`). */
  checker: string;
  version?: string;
  status: "ran" | "absent" | "failed" | "timeout";
  reason?: string;
}

export interface ChangeValidationReport {
  validation: "validated" | "unchecked" | "rejected";
  checkers: CheckerRun[];
  /** New errors and warnings: tree-sitter nodes the before-content had not, and the checkers' delta before -> after. */
  introduced: ValidationDiagnostic[];
  /** How many of the after-content's findings were already there before (they do not block). */
  pre_existing_count: number;
  /** Checker absent/failed/timed out, parser limits the real checker overruled, scope notes. */
  warnings: ValidationDiagnostic[];
  /** The after-content's findings that were already there before (pre_existing: true), located on the new bytes. */
  pre_existing?: ValidationDiagnostic[];
}

export type Raw = Omit<ValidationDiagnostic, "pre_existing">;

/** What a language's checker made of the whole change: its findings before and after. */
export interface ChangeCheck {
  run: CheckerRun;
  before: Raw[];
  after: Raw[];
  /** Scope notes (e.g. a Rust file not in the `mod` tree), reported as warnings. */
  notes: Raw[];
  /**
   * When the checker did not run to the end on some files only, those files (the others were
   * checked); absent: every file of the language.
   */
  uncheckedFiles?: string[];
}

export interface ChangeCheckContext {
  root: string;
  files: ChangeFileInput[];
  timeoutMs: number;
  session: ValidationSession;
  env: NodeJS.ProcessEnv;
}

/** Checkers that see the whole change at once; the others run per file (perFileCheck). */
const CHANGE_CHECKERS: Partial<Record<string, () => Promise<(ctx: ChangeCheckContext) => Promise<ChangeCheck>>>> = {
  typescript: async () => (await import("./checkers/typescript-change.js")).checkTypeScriptChange,
  go: async () => (await import("./checkers/go.js")).checkGoChange,
  python: async () => (await import("./checkers/python.js")).checkPythonChange,
  c: async () => (await import("./checkers/c.js")).checkCChange,
  cpp: async () => (await import("./checkers/c.js")).checkCChange,
};


/** One checker serves these languages together (a .tsx file imports a .ts one). */
function checkerGroup(l: LanguageId): string {
  return l === "tsx" || l === "javascript" ? "typescript" : l;
}

/** What makes two findings "the same" wherever the lines moved. */
export function findingKey(d: Raw): string {
  return `${d.source}\u0000${d.code}\u0000${d.level}\u0000${d.file}\u0000${d.message}`;
}

/** A checker's words for a name that resolves to nothing (javac, tsc, pyright, go, gcc, rustc). */
const UNRESOLVED_NAME = /cannot find (symbol|name|function|value|type|module)|does not exist on type|is not defined|is not a known (attribute|member)|cannot access attribute|\bundefined: |undeclared|implicit declaration|has no (member|attribute|field)|no member named|unresolved (name|import|reference)/i;

/**
 * Multiset difference: each finding of `before` excuses one identical finding of `after`, read
 * with a renamed symbol's new name as its old one (pyright's `No overloads for "invoke" match` on
 * a click test line the rename made `call_command`; zlib's inffast.h compiled alone, "expected
 * ';' … before 'inflate_fast'" that became "… 'inflate_quick'" when the rename reached the
 * prototype). Not a finding that says a name does not resolve, outside a C/C++ header gcc
 * compiles on its own (which lacks what its includers give it): a rename that leaves a use naming
 * nothing is what validation is for, even where that use was already failing for want of a
 * library (javapoet's tests, compiled without guava: "cannot find symbol checkState" then
 * "… ensureState").
 */
export function diffFindings(before: Raw[], after: Raw[], renames: { from: string; to: string }[] = []): { introduced: Raw[]; preExisting: Raw[] } {
  const left = new Map<string, number>();
  for (const d of before) left.set(findingKey(d), (left.get(findingKey(d)) ?? 0) + 1);
  const words = renames.filter((r) => r.from !== r.to).map((r) => ({ re: new RegExp(`(?<![\\p{L}\\p{N}_$])${r.to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}_$])`, "gu"), from: r.from }));
  const introduced: Raw[] = [];
  const preExisting: Raw[] = [];
  for (const d of after) {
    let k = findingKey(d);
    const header = (d.source === "gcc" || d.source === "g++") && /\.(h|hh|hpp|hxx|h\+\+|inl|ipp|tpp)$/i.test(d.file);
    if (!left.get(k) && words.length > 0 && (header || !UNRESOLVED_NAME.test(d.message))) {
      const message = words.reduce((m, w) => m.replace(w.re, () => w.from), d.message);
      if (message !== d.message) k = findingKey({ ...d, message });
    }
    const n = left.get(k) ?? 0;
    if (n > 0) {
      left.set(k, n - 1);
      preExisting.push(d);
    } else introduced.push(d);
  }
  return { introduced, preExisting };
}

const CHECKER_STATUS: Record<string, CheckerRun["status"]> = { "checker.absent": "absent", "checker.timeout": "timeout", "checker.failed": "failed" };

/** Splits a per-file outcome into its findings and what it says about the checker itself. */
function splitOutcome(o: CheckerOutcome): { findings: Raw[]; notes: Raw[]; status: CheckerRun["status"]; reason?: string } {
  const findings: Raw[] = [];
  const notes: Raw[] = [];
  let status: CheckerRun["status"] = o.ran ? "ran" : "absent";
  let reason: string | undefined;
  for (const d of o.diagnostics) {
    const s = CHECKER_STATUS[d.code];
    if (s) {
      status = s;
      reason = d.message;
    } else if (d.code === "checker.scope" || d.code === NOT_COMPILED || d.code === CONFIG_NOT_APPLIED) notes.push(d);
    else findings.push(d);
  }
  return { findings, notes, status, reason };
}

const RANK: Record<CheckerRun["status"], number> = { ran: 0, failed: 1, timeout: 2, absent: 3 };

/**
 * A checker that knows one file at a time, run on each file's before and after content. A file
 * the change creates has no before; what the checker then reports in OTHER files (a broken
 * module-info.java, a header) is compared with the same checker's findings on an existing
 * neighbour of the same language, so that the project's old errors are not the new file's fault.
 */
async function perFileCheck(language: LanguageId, ctx: ChangeCheckContext): Promise<ChangeCheck> {
  const check = await FILE_CHECKERS[language]();
  const before: Raw[] = [];
  const after: Raw[] = [];
  const names = new Set<string>();
  const notes = new Map<string, Raw>();
  let status: CheckerRun["status"] = "ran";
  let reason: string | undefined;
  const changed = new Set(ctx.files.map((f) => f.path));
  const changedAbs = new Set(ctx.files.map((f) => join(ctx.root, f.path)));
  const run = async (relPath: string, content: Uint8Array, alsoCompile?: string[], companions?: Companion[], own: Set<string> = new Set([relPath])): Promise<Raw[]> => {
    const c: CheckContext = { root: ctx.root, relPath, abs: join(ctx.root, relPath), language, timeoutMs: ctx.timeoutMs, session: ctx.session, env: ctx.env, alsoCompile, companions };
    const o = await check(c, content, new ContentPositions(content));
    const s = splitOutcome(o);
    // A companion's findings are its own run's to report (else each would count once per file).
    if (companions) s.findings = s.findings.filter((d) => own.has(d.file) || !changed.has(d.file));
    // One finding reported twice (cargo checks the lib and its test build) is one finding.
    const seen = new Set<string>();
    s.findings = s.findings.filter((d) => {
      const k = `${findingKey(d)}\u0000${d.byte_start ?? ""}\u0000${d.byte_end ?? ""}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    if (o.ran) names.add(o.ran);
    for (const n of s.notes) notes.set(n.message, n);
    if (RANK[s.status] > RANK[status]) {
      status = s.status;
      reason = s.reason;
    }
    return s.findings;
  };
  const java = language === "java" ? await import("./checkers/java.js") : undefined;
  const rust = language === "rust" ? await import("./checkers/rust.js") : undefined;
  const javaUsers = java?.javaUsers;
  const companionsOf = (f: ChangeFileInput, version: "before" | "after"): Companion[] | undefined =>
    ctx.files.length > 1 ? ctx.files.filter((o) => o !== f).map((o) => ({ relPath: o.path, abs: join(ctx.root, o.path), content: o[version] })) : undefined;
  let single = ctx.files;
  if ((java || rust) && ctx.files.length > 1) {
    // Java, Rust: the changed files of one source root (one cargo package), each compiled with
    // all the others already (companions), are compiled together once per version, and each
    // file's findings are read from that run. One run per file and version compiled the same
    // files again and again: a rename of commons-cli's Option.hasArg over 24 files was 48 javac
    // runs, four minutes; xsv's get_args over 21 files 42 cargo runs on copies of the package.
    const groups = new Map<string, ChangeFileInput[]>();
    const sizes = new Map<string, number>();
    for (const f of ctx.files) {
      if (f.before === null || f.after === null) continue;
      const abs = join(ctx.root, f.path);
      const key = java ? java.sourceRoot(abs, new TextDecoder().decode(f.before)) : rust?.cargoGroup(ctx.root, abs, sizes);
      if (key === undefined) continue;
      groups.set(key, [...(groups.get(key) ?? []), f]);
    }
    const grouped = new Set<ChangeFileInput>();
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      const rep = group[0] as ChangeFileInput;
      const own = new Set(group.map((f) => f.path));
      const users = java ? [...new Set(group.flatMap((f) => java.javaUsers(join(ctx.root, f.path), new TextDecoder().decode(f.before as Uint8Array), changedAbs)))].sort() : undefined;
      before.push(...(await run(rep.path, rep.before as Uint8Array, users, companionsOf(rep, "before"), own)));
      after.push(...(await run(rep.path, rep.after as Uint8Array, users, companionsOf(rep, "after"), own)));
      for (const f of group) grouped.add(f);
    }
    single = ctx.files.filter((f) => !grouped.has(f));
  }
  for (const f of single) {
    // Java: the classes that use a changed class are compiled with both of its versions.
    const users = javaUsers && f.before !== null ? javaUsers(join(ctx.root, f.path), new TextDecoder().decode(f.before), changedAbs) : undefined;
    // Each version of the file is checked with the same version of the change's other files:
    // checked against their disk bytes (the before), a correct rename across two files was
    // rejected (Rust's `use area::circle_area`, Java's callers in another class).
    const companions = (version: "before" | "after"): Companion[] | undefined => companionsOf(f, version);
    if (f.before !== null) before.push(...(await run(f.path, f.before, users, companions("before"))));
    if (f.after === null) continue;
    const found = await run(f.path, f.after, users, companions("after"));
    after.push(...found);
    const elsewhere = [...new Set(found.filter((d) => d.file !== f.path && !changed.has(d.file)).map((d) => d.file))].sort();
    if (f.before === null && language === "java" && elsewhere.length > 0) {
      // A new class that uses StringUtil makes javac compile StringUtil.java, and its old errors
      // (jsoup: `org.jspecify.annotations` is not on this machine) were the new file's: a valid
      // new class was rejected. The baseline is those same files compiled without the new class
      // (its package line alone in its place), so only what the new class causes counts.
      const pkg = /^\s*package\s+[\w.]+\s*;/m.exec(new TextDecoder().decode(f.after))?.[0] ?? "";
      const had = new Set(names);
      const base = await run(f.path, new TextEncoder().encode(`${pkg.trim()}\n`), elsewhere.map((p) => join(ctx.root, p)));
      for (const n of [...names]) if (!had.has(n)) names.delete(n);
      before.push(...base.filter((d) => d.file !== f.path && !changed.has(d.file)));
    } else if (f.before === null && found.some((d) => d.file !== f.path)) {
      const neighbour = existingNeighbour(ctx.root, f.path, language, changed);
      if (neighbour) {
        const base = await run(neighbour.path, neighbour.bytes);
        before.push(...base.filter((d) => d.file !== neighbour.path && !changed.has(d.file)));
      }
    }
  }
  const checker = [...names].join("; ") || languageInfo(language).name;
  const out: CheckerRun = { language, checker, status };
  if (reason !== undefined) out.reason = reason;
  return { run: out, before, after, notes: [...notes.values()] };
}

// Static imports only: a dynamic import() has no loader in the bundled CLIs (scripts/bundle.ts),
// which run from a V8 code cache (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
function existingNeighbour(root: string, rel: string, language: LanguageId, exclude: Set<string>): { path: string; bytes: Uint8Array } | undefined {
  const dir = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
  let names: string[];
  try {
    names = readdirSync(join(root, dir)).sort();
  } catch {
    return undefined;
  }
  for (const n of names) {
    const p = dir ? `${dir}/${n}` : n;
    if (exclude.has(p) || n === "module-info.java" || languageForPath(p)?.id !== language) continue;
    try {
      return { path: p, bytes: readFileSync(join(root, p)) };
    } catch {
      // unreadable: try the next
    }
  }
  return undefined;
}

/** Tree-sitter's new ERROR/MISSING nodes per file (only those the before-content had not). */
function syntaxDelta(f: ChangeFileInput): { introduced: Raw[]; preExisting: Raw[] } {
  if (f.after === null || f.language === null) return { introduced: [], preExisting: [] };
  const afterPos = new ContentPositions(f.after);
  const after: Raw[] = [...treeSitterGate(f.language, afterPos, f.path).diagnostics];
  if (!afterPos.decoded.valid) {
    after.push({ level: "error", message: "content is not valid UTF-8; checkers would see replacement characters, not these bytes", file: f.path, code: "content.invalid_utf8", source: "validate" });
  }
  const before: Raw[] = [];
  if (f.before !== null) {
    const pos = new ContentPositions(f.before);
    before.push(...treeSitterGate(f.language, pos, f.path).diagnostics);
    if (!pos.decoded.valid) before.push({ level: "error", message: "content is not valid UTF-8; checkers would see replacement characters, not these bytes", file: f.path, code: "content.invalid_utf8", source: "validate" });
  }
  return diffFindings(before, after);
}

function parserLimit(d: Raw, checker: string, language: LanguageId): Raw {
  const native = language === "c" || language === "cpp";
  const why = native ? "most often a macro the parser cannot expand or an #if/#else it reads both ways" : "the grammar lags the language";
  return {
    ...d,
    level: "warning",
    code: "parser.limit",
    message: `parser limit, not an error in the code: tree-sitter could not parse this (${why}), and ${checker.replace(/ \(.*$/, "")} accepted the file. Tree-sitter said: ${d.message}`,
  };
}

function uncheckedWarning(run: CheckerRun, files: string[]): Raw {
  const what = run.status === "absent" ? "is absent" : run.status === "timeout" ? "timed out" : "failed";
  return {
    level: "warning",
    message: `unchecked: the ${languageInfo(run.language).name} checker ${what}, so ${files.join(", ")} ${files.length === 1 ? "was" : "were"} NOT checked beyond syntax. ${run.reason ?? ""}`.trim(),
    file: files[0] ?? "",
    code: `checker.${run.status}`,
    source: "validate",
  };
}

/** One warning per file and missing package, placed at its first error, for the errors it stands for. */
function missingDependencyWarnings(gaps: Map<Raw, DependencyGap>): ValidationDiagnostic[] {
  const byKey = new Map<string, { gap: DependencyGap; errors: Raw[] }>();
  for (const [e, g] of gaps) {
    const k = `${e.file}\u0000${g.name}`;
    byKey.set(k, { gap: g, errors: [...(byKey.get(k)?.errors ?? []), e] });
  }
  return [...byKey.values()].map(({ gap, errors }) => {
    const first = errors[0] as Raw;
    const { level: _l, message: _m, code: _c, source: _s, ...place } = first;
    return {
      ...place,
      level: "warning",
      message: `unchecked: ${gap.name} (${gap.declared}) is not installed here, so what ${first.file} uses of it was NOT checked (${errors.length} checker error(s) say only that, first: ${first.message.split("\n")[0]}). Install the project's dependencies (${gap.remedy}) for a full check.`,
      code: MISSING_DEPENDENCY,
      source: "validate",
      pre_existing: false,
    };
  });
}

export async function validateChange(req: ChangeValidationRequest): Promise<ChangeValidationReport> {
  const own = req.session === undefined;
  const session = req.session ?? new ValidationSession();
  const timeoutMs = req.timeoutMs ?? 60_000;
  try {
    const report: ChangeValidationReport = { validation: "validated", checkers: [], introduced: [], pre_existing_count: 0, warnings: [], pre_existing: [] };
    const old = (ds: Raw[]): void => {
      report.pre_existing_count += ds.length;
      report.pre_existing?.push(...ds.map((d) => ({ ...d, pre_existing: true })));
    };
    const groups = new Map<string, ChangeFileInput[]>();
    for (const f of req.files) {
      if (f.language === null) continue;
      const g = checkerGroup(f.language);
      groups.set(g, [...(groups.get(g) ?? []), f]);
    }
    // The checkers start first (each in its own process or worker) and work while tree-sitter
    // parses here.
    const checks = [...groups].map(async ([group, files]) => {
      const ctx: ChangeCheckContext = { root: req.root, files, timeoutMs, session, env: session.env };
      const whole = CHANGE_CHECKERS[group];
      return { group, files, check: whole ? await (await whole())(ctx) : await perFileCheck(files[0]?.language as LanguageId, ctx) };
    });
    const syntax = new Map<string, Raw[]>();
    try {
      for (const f of req.files) {
        const d = syntaxDelta(f);
        old(d.preExisting);
        if (d.introduced.length > 0) syntax.set(f.path, d.introduced);
      }
    } catch (e) {
      // The checkers register their workers and servers with the session as they start: let
      // them, so that disposing the session stops them instead of leaving them to hold the
      // process open (a parser that failed to load, issue 18).
      await Promise.allSettled(checks);
      throw e;
    }
    const depCache = new Map<string, DependencyGap | null>();
    const ranBy = new Map<string, string>();
    // The lines of the errors the real checker found in each file it ran on and rejected.
    const checkerErrorLines = new Map<string, number[]>();
    for (const { files, check } of await Promise.all(checks)) {
      report.checkers.push(check.run);
      report.warnings.push(...check.notes.map((d) => ({ ...d, pre_existing: false })));
      if (check.run.status !== "ran") {
        // Only the files the checker did not get through: leveldb's rename of Slice::ToString over
        // 16 files said all 16 were "NOT checked beyond syntax" because g++ stopped at a missing
        // gmock header in one of them, while the other 15 were compiled and compared.
        const missed = check.uncheckedFiles?.length ? check.uncheckedFiles : files.map((f) => f.path);
        report.warnings.push({ ...uncheckedWarning(check.run, missed), pre_existing: false });
      }
      const d = diffFindings(check.before, check.after, req.renames);
      old(d.preExisting.filter((x) => x.level !== "note"));
      if (check.run.status === "ran") {
        const gaps = new Map<Raw, DependencyGap>();
        for (const f of files) if (f.after !== null) for (const [e, g] of dependencyGaps(req.root, f.path, f.after, d.introduced, depCache)) gaps.set(e, g);
        if (gaps.size > 0) {
          d.introduced = d.introduced.filter((x) => !gaps.has(x));
          report.warnings.push(...missingDependencyWarnings(gaps));
        }
      }
      for (const x of d.introduced) {
        if (x.level === "note") continue;
        report.introduced.push({ ...x, pre_existing: false });
      }
      if (check.run.status === "ran") {
        for (const f of files) {
          const errors = d.introduced.filter((x) => x.level === "error" && x.file === f.path);
          if (errors.length === 0) ranBy.set(f.path, check.run.checker);
          else checkerErrorLines.set(f.path, errors.map((x) => x.start_line ?? 0));
        }
      }
    }
    // Tree-sitter's word yields to the real checker's: a file it ran on and accepted keeps the
    // parser's complaints as warnings (issue 18: `export type * from './a'`, C macros).
    for (const f of req.files) {
      const found = syntax.get(f.path);
      if (!found || f.language === null) continue;
      const checker = ranBy.get(f.path);
      const near = checkerErrorLines.get(f.path) ?? [];
      for (const d of found) {
        if (checker !== undefined && d.source === "tree-sitter") report.warnings.push({ ...parserLimit(d, checker, f.language), pre_existing: false });
        // The real checker's error for the same mistake (gcc's "expected ';' before 'return'"
        // on the next line, tree-sitter's "missing `;`" at the end of this one) is the one
        // reported: one mistake counted as two errors sent agents after a second one.
        else if (d.source === "tree-sitter" && d.start_line !== undefined && near.some((l) => Math.abs(l - (d.start_line as number)) <= 2)) continue;
        else report.introduced.push({ ...d, pre_existing: false });
      }
    }
    // A file of no known language had no checker: the change is not "validated" for it.
    const unknown = req.files.filter((f) => f.language === null && f.after !== null).map((f) => f.path);
    if (unknown.length > 0) {
      report.warnings.push({
        level: "warning",
        message: `unchecked: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} of no language a checker knows, so ${unknown.length === 1 ? "it was" : "they were"} NOT checked`,
        file: unknown[0] as string,
        code: "checker.none_for_file_type",
        source: "validate",
        pre_existing: false,
      });
    }
    // A checker that ran but left a file out of what it compiled (Go build constraints, a Rust cfg) did not
    // check it: the change is no more validated for that file than with no checker. Nor did one
    // that ran without the project's configuration (a tsconfig `extends` not installed): it
    // checked against other rules than the project's.
    const unchecked = unknown.length > 0 || report.checkers.some((c) => c.status !== "ran") || report.warnings.some((d) => d.code === NOT_COMPILED || d.code === CONFIG_NOT_APPLIED || d.code === MISSING_DEPENDENCY);
    if (report.introduced.some((d) => d.level === "error")) report.validation = "rejected";
    else if (unchecked) report.validation = req.requireChecker ? "rejected" : "unchecked";
    return report;
  } finally {
    if (own) session.dispose();
  }
}
