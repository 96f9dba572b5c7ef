/**
 * Rename accuracy against the ground truth, on a real repository given by path (not run in CI):
 *
 *   node dist/bench/rename-accuracy.js ts <repo> [--count 20] [--tsconfig tsconfig.json] [--diagnostics full|touched]
 *   node dist/bench/rename-accuracy.js py <repo> [--count 10] [--under src]
 *
 * TypeScript: exported functions, classes, interfaces and type aliases are sampled in a fixed
 * order (sha1 of file:name, kinds taken in turn). For each, splice's planRename is compared with
 * a language service built here from scratch on the repository's root tsconfig (its own host,
 * not splice's code path), findRenameLocations with providePrefixAndSuffixTextForRename; then
 * the rename is applied in memory and the project's pre-emit diagnostics (syntactic, semantic,
 * global, options: what `tsc --noEmit` prints, less declaration-emit diagnostics) are compared
 * with those before, by file, line and code (messages name the renamed symbol). On a project
 * too large to check 2 x N times in the time there is, `--diagnostics touched` compares the
 * syntactic and semantic diagnostics of the files the rename changed only.
 *
 * Python: top-level public functions and classes, against a pyright-langserver session driven
 * here directly (textDocument/rename), then `pyright --outputjson` before and after on a copy.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import ts from "typescript";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { planRename } from "../src/tools/splice/rename/index.js";
import type { RenameLocation } from "../src/tools/splice/rename/index.js";

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const warn = (line: string): void => void process.stderr.write(`${line}\n`);
const args = process.argv.slice(2);
const mode = args[0];
const repo = resolve(args[1] ?? ".");
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? (args[i + 1] ?? dflt) : dflt;
};
const rel = (abs: string): string => relative(repo, abs).split(sep).join("/");
const sha = (s: string): string => createHash("sha1").update(s).digest("hex");
const key = (l: { file: string; byte_start: number; byte_end: number; new_text: string }): string => `${l.file}:${l.byte_start}-${l.byte_end}=>${l.new_text}`;

interface Candidate {
  file: string;
  name: string;
  kind: string;
  charStart: number;
}

/** Sampled in turn from each kind's hash-ordered list: deterministic, spread over the tree. */
function sample(cands: Candidate[], count: number): Candidate[] {
  const byKind = new Map<string, Candidate[]>();
  for (const c of cands) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);
  for (const list of byKind.values()) list.sort((a, b) => (sha(`${a.file}:${a.name}`) < sha(`${b.file}:${b.name}`) ? -1 : 1));
  const out: Candidate[] = [];
  const kinds = [...byKind.keys()].sort();
  for (let i = 0; out.length < count && kinds.some((k) => (byKind.get(k)?.length ?? 0) > i); i++) {
    for (const k of kinds) {
      const c = byKind.get(k)?.[i];
      if (c && out.length < count) out.push(c);
    }
  }
  return out;
}

function byteOf(text: string, charPos: number): number {
  return Buffer.byteLength(text.slice(0, charPos));
}

function applyAll(read: (f: string) => string, locs: { file: string; byte_start: number; byte_end: number; new_text: string }[]): Map<string, string> {
  const byFile = new Map<string, typeof locs>();
  for (const l of locs) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
  const out = new Map<string, string>();
  for (const [f, ls] of byFile) {
    let b = Buffer.from(read(f));
    for (const l of [...ls].sort((x, y) => y.byte_start - x.byte_start)) b = Buffer.concat([b.subarray(0, l.byte_start), Buffer.from(l.new_text), b.subarray(l.byte_end)]);
    out.set(f, b.toString("utf8"));
  }
  return out;
}

async function runTs(): Promise<void> {
  const count = Number(opt("count", "20"));
  const configPath = resolve(repo, opt("tsconfig", "tsconfig.json"));
  const t0 = performance.now();
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => warn(ts.flattenDiagnosticMessageText(d.messageText, "\n")) });
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const options = { ...parsed.options, noEmit: true, incremental: false, composite: false, declaration: false };
  const files = parsed.fileNames.filter((f) => !f.includes("/node_modules/"));
  // The reference: a language service with a host of its own over the disk plus an overlay.
  const overlay = new Map<string, string>();
  const versions = new Map<string, number>();
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => files,
    getScriptVersion: (f) => String(versions.get(f) ?? 0),
    getScriptSnapshot: (f) => {
      const t = overlay.get(f) ?? ts.sys.readFile(f);
      return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
    },
    getCurrentDirectory: () => repo,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => overlay.has(f) || ts.sys.fileExists(f),
    readFile: (f) => overlay.get(f) ?? ts.sys.readFile(f),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    getProjectReferences: () => parsed.projectReferences,
  };
  const ls = ts.createLanguageService(host);

  // Pre-emit diagnostics through a semantic-diagnostics builder: after a rename only the files
  // it affects are checked again.
  const compilerHost = ts.createCompilerHost(options);
  const baseRead = compilerHost.readFile.bind(compilerHost);
  const baseGet = compilerHost.getSourceFile.bind(compilerHost);
  const sfCache = new Map<string, ts.SourceFile | undefined>();
  compilerHost.readFile = (f) => overlay.get(f) ?? baseRead(f);
  // A builder needs each file's version: the hash of its text, as tsc's incremental host sets it.
  const versioned = (sf: ts.SourceFile | undefined): ts.SourceFile | undefined => {
    if (sf) (sf as ts.SourceFile & { version: string }).version = sha(sf.text);
    return sf;
  };
  compilerHost.getSourceFile = (f, lv, onErr, create) => {
    if (overlay.has(f)) return versioned(ts.createSourceFile(f, overlay.get(f)!, lv));
    if (!sfCache.has(f)) sfCache.set(f, versioned(baseGet(f, lv, onErr, create)));
    return sfCache.get(f);
  };
  let builder: ts.SemanticDiagnosticsBuilderProgram | undefined;
  const diagnostics = (): Map<string, number> => {
    builder = ts.createSemanticDiagnosticsBuilderProgram(files, options, compilerHost, builder);
    const all = [...builder.getOptionsDiagnostics(), ...builder.getGlobalDiagnostics(), ...builder.getSyntacticDiagnostics(), ...builder.getSemanticDiagnostics()];
    const out = new Map<string, number>();
    for (const d of all) {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      const k = `${d.file ? rel(d.file.fileName) : "-"}:${line}:TS${d.code}`;
      out.set(k, (out.get(k) ?? 0) + 1);
    }
    return out;
  };
  const diagMode = opt("diagnostics", "full");
  const tBefore = performance.now();
  const before = diagMode === "full" ? diagnostics() : new Map<string, number>();
  say(`# ${rel(configPath) || configPath}: ${files.length} files, ${[...before.values()].reduce((a, b) => a + b, 0)} diagnostics before (${Math.round(performance.now() - tBefore)} ms), typescript ${ts.version}`);

  const cands: Candidate[] = [];
  for (const f of files) {
    if (f.endsWith(".d.ts") || !/\.(ts|tsx|mts|cts)$/.test(f)) continue;
    const sf = ts.createSourceFile(f, ts.sys.readFile(f) ?? "", ts.ScriptTarget.Latest, true);
    const seen = new Set<string>();
    for (const st of sf.statements) {
      const exported = ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (!exported) continue;
      const kind = ts.isFunctionDeclaration(st) ? "function" : ts.isClassDeclaration(st) ? "class" : ts.isInterfaceDeclaration(st) ? "interface" : ts.isTypeAliasDeclaration(st) ? "type" : undefined;
      const name = (st as ts.DeclarationStatement).name;
      if (!kind || !name || !ts.isIdentifier(name) || seen.has(name.text)) continue;
      seen.add(name.text);
      cands.push({ file: f, name: name.text, kind, charStart: name.getStart(sf) });
    }
  }
  const picked = sample(cands, count);
  let exact = 0;
  let sameDiags = 0;
  const cold: number[] = [];
  const warm: number[] = [];
  for (const c of picked) {
    const text = ts.sys.readFile(c.file) ?? "";
    const start = byteOf(text, c.charStart);
    const newName = `${c.name}Renamed`;
    const target = { file: rel(c.file), language: c.file.endsWith("x") ? ("tsx" as const) : ("typescript" as const), name: c.name, byte_start: start, byte_end: start + Buffer.byteLength(c.name) };
    let ours: RenameLocation[] = [];
    let err = "";
    const t1 = performance.now();
    try {
      const plan = await planRename({ root: repo, target, newName });
      ours = plan.locations;
      (plan.timing?.warm ? warm : cold).push(performance.now() - t1);
    } catch (e) {
      err = (e as Error).message;
    }
    const ref = (ls.findRenameLocations(c.file, c.charStart, false, false, { providePrefixAndSuffixTextForRename: true }) ?? []).map((l) => {
      const t = ts.sys.readFile(l.fileName) ?? "";
      const s = byteOf(t, l.textSpan.start);
      return { file: rel(l.fileName), byte_start: s, byte_end: s + Buffer.byteLength(t.slice(l.textSpan.start, l.textSpan.start + l.textSpan.length)), new_text: `${l.prefixText ?? ""}${newName}${l.suffixText ?? ""}` };
    });
    const a = new Set(ours.map(key));
    const b = new Set(ref.map(key));
    const missing = [...b].filter((k) => !a.has(k));
    const extra = [...a].filter((k) => !b.has(k));
    const same = !err && missing.length === 0 && extra.length === 0;
    if (same) exact++;
    // Diagnostics after the rename (the reference's locations when ours failed: nothing to apply).
    let diagSame = false;
    if (!err && diagMode === "touched") {
      // The files the rename changed, checked by the reference service before and after.
      const touched = [...new Set(ours.map((l) => join(repo, l.file)))];
      const diagOf = (): string[] =>
        touched
          .flatMap((f) => [...ls.getSyntacticDiagnostics(f), ...ls.getSemanticDiagnostics(f)])
          .map((d) => `${d.file ? rel(d.file.fileName) : "-"}:${d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0}:TS${d.code}`)
          .sort();
      const b0 = diagOf();
      for (const [f, t] of applyAll((f) => ts.sys.readFile(join(repo, f)) ?? "", ours)) {
        overlay.set(join(repo, f), t);
        versions.set(join(repo, f), (versions.get(join(repo, f)) ?? 0) + 1);
      }
      const a0 = diagOf();
      overlay.clear();
      for (const f of touched) versions.set(f, (versions.get(f) ?? 0) + 1);
      diagSame = JSON.stringify(a0) === JSON.stringify(b0);
      if (diagSame) sameDiags++;
      else say(`    diagnostics changed in touched files: before ${b0.length}, after ${a0.length}`);
    } else if (!err && diagMode === "full") {
      for (const [f, t] of applyAll((f) => ts.sys.readFile(join(repo, f)) ?? "", ours)) {
        overlay.set(join(repo, f), t);
      }
      const after = diagnostics();
      const delta = [...new Set([...before.keys(), ...after.keys()])].filter((k) => (before.get(k) ?? 0) !== (after.get(k) ?? 0));
      diagSame = delta.length === 0;
      if (diagSame) sameDiags++;
      else say(`    diagnostics changed: ${delta.slice(0, 5).join(", ")}`);
      overlay.clear();
      diagnostics();
    }
    const files = new Set(ours.map((l) => l.file)).size;
    say(`${same ? "same" : "DIFF"} ${diagSame ? "diag=" : "diag!"} ${c.kind.padEnd(9)} ${rel(c.file)}:${c.name} -> ${ours.length} locations in ${files} files (${Math.round(performance.now() - t1)} ms)${err ? ` ERROR ${err}` : ""}${missing.length ? ` missing ${missing.slice(0, 3).join(" ")}` : ""}${extra.length ? ` extra ${extra.slice(0, 3).join(" ")}` : ""}`);
  }
  const med = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;
  say(`# ${exact}/${picked.length} renames equal to the language service's locations; ${sameDiags}/${picked.length} with unchanged diagnostics; planRename cold ${cold.map((x) => Math.round(x)).join("/")} ms, warm median ${Math.round(med(warm))} ms; total ${Math.round((performance.now() - t0) / 1000)} s`);
}

// ---------- Python ----------

function walkPy(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith(".") || e.name === "node_modules" || e.name === "__pycache__") continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walkPy(p, out);
    else if (e.name.endsWith(".py")) out.push(p);
  }
  return out;
}

function pyrightDiagnostics(root: string): Map<string, number> {
  const req = createRequire(import.meta.url);
  const r = spawnSync(process.execPath, [req.resolve("pyright/index.js"), "--outputjson", "-p", root], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 });
  const out = JSON.parse(r.stdout) as { generalDiagnostics: { file: string; severity: string; rule?: string; range: { start: { line: number } } }[] };
  const m = new Map<string, number>();
  for (const d of out.generalDiagnostics) {
    const k = `${relative(root, d.file)}:${d.range.start.line + 1}:${d.severity}:${d.rule ?? ""}`;
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

async function runPy(): Promise<void> {
  const count = Number(opt("count", "10"));
  const under = join(repo, opt("under", "src"));
  const t0 = performance.now();
  const cands: Candidate[] = [];
  for (const f of walkPy(under).sort()) {
    const text = readFileSync(f, "utf8");
    const seen = new Set<string>();
    for (const m of text.matchAll(/^(def|class) ([A-Za-z][A-Za-z0-9_]*)/gm)) {
      // An overloaded function has several defs: one symbol, sampled once.
      if (seen.has(m[2] as string)) continue;
      seen.add(m[2] as string);
      cands.push({ file: f, name: m[2] as string, kind: m[1] === "def" ? "function" : "class", charStart: (m.index ?? 0) + (m[1] as string).length + 1 });
    }
  }
  const picked = sample(cands, count);
  // The reference: pyright-langserver driven directly.
  const req = createRequire(import.meta.url);
  const child = spawn(process.execPath, [req.resolve("pyright/langserver.index.js"), "--stdio"], { cwd: repo, stdio: ["pipe", "pipe", "inherit"] });
  child.stdin.on("error", () => undefined);
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  conn.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => null));
  conn.onRequest("client/registerCapability", () => null);
  conn.onRequest("window/workDoneProgress/create", () => null);
  conn.listen();
  await conn.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(repo).href, workspaceFolders: [{ uri: pathToFileURL(repo).href, name: "repo" }], capabilities: { workspace: { workspaceEdit: { documentChanges: true } } } });
  void conn.sendNotification("initialized", {});

  const copy = mkdtempSync(join(tmpdir(), "rename-accuracy-py-"));
  cpSync(repo, copy, { recursive: true, filter: (s) => !s.includes("/.git") });
  const before = pyrightDiagnostics(copy);
  say(`# ${repo}: ${cands.length} candidates, ${[...before.values()].reduce((a, b) => a + b, 0)} pyright diagnostics before`);
  let exact = 0;
  let sameDiags = 0;
  for (const c of picked) {
    const text = readFileSync(c.file, "utf8");
    const newName = `${c.name}_renamed`;
    const start = byteOf(text, c.charStart);
    const t1 = performance.now();
    let ours: RenameLocation[] = [];
    let err = "";
    try {
      ours = (await planRename({ root: repo, target: { file: rel(c.file), language: "python", name: c.name, byte_start: start, byte_end: start + Buffer.byteLength(c.name) }, newName })).locations;
    } catch (e) {
      err = (e as Error).message;
    }
    const ms = performance.now() - t1;
    const before0 = text.slice(0, c.charStart).split("\n");
    const position = { line: before0.length - 1, character: (before0[before0.length - 1] ?? "").length };
    const uri = pathToFileURL(c.file).href;
    void conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "python", version: 1, text } });
    const edit = (await conn.sendRequest("textDocument/rename", { textDocument: { uri }, position, newName })) as {
      changes?: Record<string, { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]>;
      documentChanges?: { textDocument: { uri: string }; edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[] }[];
    } | null;
    void conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
    const ref: { file: string; byte_start: number; byte_end: number; new_text: string }[] = [];
    const entries = edit?.documentChanges ? edit.documentChanges.map((d) => [d.textDocument.uri, d.edits] as const) : Object.entries(edit?.changes ?? {});
    for (const [u, edits] of entries) {
      const f = fileURLToPath(u);
      const lines = readFileSync(f, "utf8").split("\n");
      const off = (p: { line: number; character: number }): number => Buffer.byteLength(lines.slice(0, p.line).join("\n") + (p.line > 0 ? "\n" : "") + (lines[p.line] ?? "").slice(0, p.character));
      for (const e of edits) ref.push({ file: rel(f), byte_start: off(e.range.start), byte_end: off(e.range.end), new_text: e.newText });
    }
    const a = new Set(ours.map(key));
    const b = new Set(ref.map(key));
    const missing = [...b].filter((k) => !a.has(k));
    const extra = [...a].filter((k) => !b.has(k));
    const same = !err && missing.length === 0 && extra.length === 0;
    if (same) exact++;
    let diagSame = false;
    if (!err) {
      const changed = applyAll((f) => readFileSync(join(repo, f), "utf8"), ours);
      for (const [f, t] of changed) writeFileSync(join(copy, f), t);
      const after = pyrightDiagnostics(copy);
      for (const f of changed.keys()) writeFileSync(join(copy, f), readFileSync(join(repo, f)));
      const delta = [...new Set([...before.keys(), ...after.keys()])].filter((k) => (before.get(k) ?? 0) !== (after.get(k) ?? 0));
      diagSame = delta.length === 0;
      if (diagSame) sameDiags++;
      else say(`    diagnostics changed: ${delta.slice(0, 5).join(", ")}`);
    }
    say(`${same ? "same" : "DIFF"} ${diagSame ? "diag=" : "diag!"} ${c.kind.padEnd(9)} ${rel(c.file)}:${c.name} -> ${ours.length} locations in ${new Set(ours.map((l) => l.file)).size} files (planRename ${Math.round(ms)} ms)${err ? ` ERROR ${err}` : ""}${missing.length ? ` missing ${missing.slice(0, 3).join(" ")}` : ""}${extra.length ? ` extra ${extra.slice(0, 3).join(" ")}` : ""}`);
  }
  await conn.sendRequest("shutdown");
  void conn.sendNotification("exit");
  conn.dispose();
  child.kill();
  rmSync(copy, { recursive: true, force: true });
  say(`# ${exact}/${picked.length} renames equal to pyright's own rename; ${sameDiags}/${picked.length} with unchanged pyright diagnostics; total ${Math.round((performance.now() - t0) / 1000)} s`);
}

if (mode === "ts") await runTs();
else if (mode === "py") await runPy();
else {
  warn("usage: rename-accuracy.js (ts|py) <repo> [--count N] [--tsconfig F] [--under DIR]");
  process.exitCode = 2;
}

