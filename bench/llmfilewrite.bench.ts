/**
 * llmfilewrite: cold validation (a whole fresh process: node start, checker start, project
 * load, check) of a new file inside a real project, issue 5's speed target being <= 5 s for
 * TypeScript in a project of >= 300k lines. Runs with --dry-run, so the corpus copy stays as is.
 *
 * TypeScript project: bench/corpus.ts's effect + rxjs sources (~395k lines), copied to a temp
 * directory with one tsconfig.json over both (the npm tarballs ship none for effect). Peer: `tsc
 * --noEmit -p` on the same project, what checking "in the project's context" costs without our
 * import-closure program (run once: it is slow).
 * Python project: a copy of eight CPython 3.11 standard-library packages; peer: the pyright CLI
 * on the file written into the copy.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { countLines, typescriptCorpus } from "./corpus.js";
import { REPO_ROOT, type BenchRow, ourBin, timeCommand } from "./lib.js";

const RUNS = 3;

function lfw(root: string, path: string, content: string, expect: "approved" | "rejected"): ReturnType<typeof timeCommand> {
  const t = timeCommand(ourBin("llmfilewrite"), ["--root", root, "--path", path, "--dry-run", "--content", content], { cwd: root, runs: RUNS, warmup: 1 });
  const env = JSON.parse(t.stdout) as { status: string };
  if (env.status !== expect) throw new Error(`llmfilewrite ${path}: expected ${expect}, got ${t.stdout.slice(0, 2000)}`);
  return t;
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const work = mkdtempSync(join(tmpdir(), "lfw-bench-"));
  try {
    // TypeScript
    const tsRoot = join(work, "ts");
    cpSync(typescriptCorpus(), tsRoot, { recursive: true, filter: (p) => !p.endsWith(".tgz") });
    writeFileSync(
      join(tsRoot, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2022", "DOM"],
          strict: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: true,
          noEmit: true,
        },
        include: ["effect/src/**/*.ts", "rxjs/src/**/*.ts"],
      }),
    );
    const { lines, files } = countLines(tsRoot, [".ts"]);
    const effectFile = [
      'import * as Effect from "./Effect.js"',
      'import { pipe } from "./Function.js"',
      "",
      "export const program = pipe(Effect.succeed(20), Effect.map((n) => n + 22))",
      "export const answer: string = Effect.runSync(program)",
      "",
    ].join("\n");
    const t1 = lfw(tsRoot, "effect/src/Answer.ts", effectFile, "rejected");
    rows.push({
      suite: "llmfilewrite",
      case: "TS cold: new effect/src module importing ./Effect.js (TS2322 found)",
      ours: t1.medianMs,
      maxMs: 5000,
      peakRssMb: t1.peakRssMb,
      note: `project ${files} .ts files, ${lines} lines; the import closure is ~330 files`,
    });
    // The same module replaced (--overwrite): the old content is checked too, to tell its errors
    // from new ones, by the same program (only the file itself is parsed and bound again).
    writeFileSync(join(tsRoot, "effect/src/Answer.ts"), effectFile);
    const fixed = effectFile.replace("answer: string", "answer: number");
    const tw = timeCommand(ourBin("llmfilewrite"), ["--root", tsRoot, "--path", "effect/src/Answer.ts", "--overwrite", "--dry-run", "--content", fixed], { cwd: tsRoot, runs: RUNS, warmup: 1 });
    if ((JSON.parse(tw.stdout) as { status: string }).status !== "approved") throw new Error(`llmfilewrite --overwrite: expected approved, got ${tw.stdout.slice(0, 2000)}`);
    rmSync(join(tsRoot, "effect/src/Answer.ts"));
    rows.push({
      suite: "llmfilewrite",
      case: "TS cold: the same effect module replaced (--overwrite: old and new content checked, approved)",
      ours: tw.medianMs,
      maxMs: 5000,
      peakRssMb: tw.peakRssMb,
      note: "one program for both contents",
    });
    const rxFile = [
      'import { Observable } from "../Observable";',
      'import { map } from "../operators/map";',
      'import { filter } from "../operators/filter";',
      "",
      "export function evens(source: Observable<number>): Observable<string> {",
      "  return source.pipe(filter((n) => n % 2 === 0), map((n) => `#${n}`));",
      "}",
      "",
    ].join("\n");
    const t2 = lfw(tsRoot, "rxjs/src/internal/util/evens.ts", rxFile, "approved");
    rows.push({
      suite: "llmfilewrite",
      case: "TS cold: new rxjs/src module importing operators (approved)",
      ours: t2.medianMs,
      maxMs: 5000,
      peakRssMb: t2.peakRssMb,
      note: `same ${lines}-line project`,
    });
    const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    const peer = timeCommand(process.execPath, [tsc, "--noEmit", "-p", join(tsRoot, "tsconfig.json")], { runs: 1, warmup: 0 });
    rows[0] = { ...(rows[0] as BenchRow), peer: "tsc --noEmit -p (whole project)", peerMs: peer.medianMs };

    // Python
    const pyRoot = join(work, "py");
    const stdlib = "/usr/lib/python3.11";
    for (const pkg of ["asyncio", "email", "http", "json", "logging", "urllib", "xml", "concurrent"]) {
      if (existsSync(join(stdlib, pkg))) cpSync(join(stdlib, pkg), join(pyRoot, pkg), { recursive: true, filter: (p) => !p.includes("__pycache__") });
    }
    writeFileSync(join(pyRoot, "pyproject.toml"), '[project]\nname = "stdlib-copy"\nversion = "0"\n');
    const py = countLines(pyRoot, [".py"]);
    const pyFile = [
      "from email.message import EmailMessage",
      "from json import dumps",
      "",
      "",
      "def envelope(subject: str) -> str:",
      "    msg = EmailMessage()",
      '    msg["Subject"] = subject',
      "    return dumps({'subject': msg['Subject']})",
      "",
    ].join("\n");
    const t3 = lfw(pyRoot, "email/envelope.py", pyFile, "approved");
    writeFileSync(join(pyRoot, "email", "envelope.py"), pyFile);
    const pyright = join(REPO_ROOT, "node_modules", "pyright", "index.js");
    const pyPeer = timeCommand(process.execPath, [pyright, "--outputjson", join(pyRoot, "email", "envelope.py")], { cwd: pyRoot, runs: RUNS, warmup: 1 });
    rows.push({
      suite: "llmfilewrite",
      case: "Python cold: new email/ module (approved)",
      ours: t3.medianMs,
      peer: "pyright --outputjson <file>",
      peerMs: pyPeer.medianMs,
      peakRssMb: t3.peakRssMb,
      note: `CPython 3.11 stdlib packages, ${py.files} .py files, ${py.lines} lines; no target`,
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  // The machine is shared: say how busy it was, since a cold check is CPU-bound throughout.
  const load = `load average ${loadavg()[0]?.toFixed(1)} at the end`;
  return rows.map((r) => ({ ...r, note: r.note ? `${r.note}; ${load}` : load }));
}
