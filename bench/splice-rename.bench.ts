/**
 * splice rename, engine part: a rename touching 50 files / 100 references (issue 15's target:
 * <= 2 s including validation with a warm checker; the cold figure beside it). A generated
 * TypeScript project of 50 modules that each import one function and call it once, in a fresh
 * process: the first planRename builds the language service (cold), the next ones reuse it
 * (warm): once with nothing changed, once after the first rename was written to disk (51 files
 * with new mtimes, re-parsed). The same shape in Python through pyright, kept warm between
 * renames as the daemon keeps it (setLanguageServerReuse). Validation is measured by the splice
 * suite, not here.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, type BenchRow } from "./lib.js";

const FILES = 50;

function makeTs(root: string): void {
  mkdirSync(join(root, "src", "features"), { recursive: true });
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", strict: true, noEmit: true }, include: ["src"] }));
  writeFileSync(join(root, "src", "lib.ts"), "export function computeTotal(values: number[]): number {\n  return values.reduce((a, b) => a + b, 0);\n}\n");
  for (let i = 0; i < FILES; i++) {
    writeFileSync(
      join(root, "src", "features", `feature${i}.ts`),
      `import { computeTotal } from "../lib";\n\nexport function feature${i}(xs: number[]): string {\n  const n = computeTotal(xs) * ${i};\n  return String(n);\n}\n`,
    );
  }
}

function makePy(root: string): void {
  mkdirSync(join(root, "app", "features"), { recursive: true });
  writeFileSync(join(root, "app", "__init__.py"), "");
  writeFileSync(join(root, "app", "features", "__init__.py"), "");
  writeFileSync(join(root, "app", "lib.py"), "def compute_total(values: list[int]) -> int:\n    return sum(values)\n");
  for (let i = 0; i < FILES; i++) {
    writeFileSync(join(root, "app", "features", `feature${i}.py`), `from app.lib import compute_total\n\n\ndef feature${i}(xs: list[int]) -> str:\n    return str(compute_total(xs) * ${i})\n`);
  }
}

const SCRIPT = (dist: string, root: string, file: string, language: string, name: string, second: string): string => `
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { planRename, setLanguageServerReuse, disposeLanguageServers } from ${JSON.stringify(join(dist, "src/tools/splice/rename/index.js"))};
setLanguageServerReuse(true);
const root = ${JSON.stringify(root)};
const target = (name) => {
  const text = readFileSync(join(root, ${JSON.stringify(file)}));
  const s = text.indexOf(name);
  return { file: ${JSON.stringify(file)}, language: ${JSON.stringify(language)}, name, byte_start: s, byte_end: s + Buffer.byteLength(name) };
};
const out = {};
let t = performance.now();
const plan = await planRename({ root, target: target(${JSON.stringify(name)}), newName: ${JSON.stringify(second)} });
out.cold = performance.now() - t;
out.files = new Set(plan.locations.map((l) => l.file)).size;
out.refs = plan.locations.length;
t = performance.now();
await planRename({ root, target: target(${JSON.stringify(name)}), newName: ${JSON.stringify(second)} });
out.warm = performance.now() - t;
// write the first rename, as a commit would, then rename the new name back
const byFile = new Map();
for (const l of plan.locations) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
for (const [f, ls] of byFile) {
  let b = readFileSync(join(root, f));
  for (const l of ls.sort((a, b) => b.byte_start - a.byte_start)) b = Buffer.concat([b.subarray(0, l.byte_start), Buffer.from(l.new_text), b.subarray(l.byte_end)]);
  writeFileSync(join(root, f), b);
}
t = performance.now();
await planRename({ root, target: target(${JSON.stringify(second)}), newName: ${JSON.stringify(name)} });
out.warmAfterWrite = performance.now() - t;
await disposeLanguageServers();
console.log(JSON.stringify(out));
`;

function measure(root: string, file: string, language: string, name: string, second: string): { cold: number; warm: number; warmAfterWrite: number; files: number; refs: number } {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", SCRIPT(join(REPO_ROOT, "dist"), root, file, language, name, second)], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`rename bench failed: ${r.stderr.slice(0, 2000)}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}") as { cold: number; warm: number; warmAfterWrite: number; files: number; refs: number };
}

export async function run(): Promise<BenchRow[]> {
  const work = mkdtempSync(join(tmpdir(), "splice-rename-bench-"));
  const rows: BenchRow[] = [];
  try {
    const tsRoot = join(work, "ts");
    makeTs(tsRoot);
    const t = measure(tsRoot, "src/lib.ts", "typescript", "computeTotal", "sumAll");
    const shape = `${t.files} files / ${t.refs} locations`;
    rows.push({ suite: "splice-rename", case: `typescript cold (${shape})`, ours: t.cold, note: "fresh process: loads typescript, builds the language service" });
    rows.push({ suite: "splice-rename", case: `typescript warm, unchanged (${shape})`, ours: t.warm, maxMs: 2000 });
    rows.push({ suite: "splice-rename", case: `typescript warm, after writing the rename (${shape})`, ours: t.warmAfterWrite, maxMs: 2000 });
    const pyRoot = join(work, "py");
    makePy(pyRoot);
    const p = measure(pyRoot, "app/lib.py", "python", "compute_total", "sum_all");
    const pshape = `${p.files} files / ${p.refs} locations`;
    rows.push({ suite: "splice-rename", case: `python/pyright cold (${pshape})`, ours: p.cold, note: "server start, workspace analysis, capture check" });
    rows.push({ suite: "splice-rename", case: `python/pyright warm, unchanged (${pshape})`, ours: p.warm, maxMs: 2000, note: "setLanguageServerReuse(true), as the daemon" });
    rows.push({ suite: "splice-rename", case: `python/pyright warm, after writing the rename (${pshape})`, ours: p.warmAfterWrite, maxMs: 2000 });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
