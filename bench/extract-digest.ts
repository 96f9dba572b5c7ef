/**
 * Digest of extraction output, per language, over the real corpora: the check that a rewrite of
 * the tree-sitter queries (src/lang/queries) or of src/lang/extract.ts changes nothing. Prints,
 * per language, the file count, fact counts and a sha256 over every file's facts in path order,
 * plus the CPU time of compiling the query, of parsing and of matching (extraction over parsed
 * trees). Not a bench row: run it before and after a change and compare the digests.
 *
 *   node dist/bench/extract-digest.js [--lang ts,cpp] [--dump DIR] [--no-bench-corpus]
 *
 * Corpora: $EXTRACT_CORPORA (default /work/corpora)/<language> and .bench-corpus/typescript.
 * A file's language is its extension's (`.h` refined by content as the indexer does); --dump
 * writes each file's facts as JSON under DIR so two runs can be diffed file by file.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { decodeBytes } from "../src/text/decode.js";
import { extractFromTree, queryFor } from "../src/lang/extract.js";
import { parseSource } from "../src/lang/preprocess.js";
import { languageByName, languageForPath, refineLanguage, type LanguageId } from "../src/lang/registry.js";
import { CORPUS_DIR } from "./corpus.js";

interface Args {
  langs: Set<LanguageId> | undefined;
  dump: string | undefined;
  benchCorpus: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { langs: undefined, dump: undefined, benchCorpus: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--lang") {
      args.langs = new Set(
        (argv[++i] ?? "").split(",").map((n) => {
          const info = languageByName(n);
          if (!info) throw new Error(`unknown language ${n}`);
          return info.id;
        }),
      );
    } else if (a === "--dump") args.dump = argv[++i];
    else if (a === "--no-bench-corpus") args.benchCorpus = false;
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
}

function cpuMs(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

interface Stats {
  files: number;
  symbols: number;
  references: number;
  imports: number;
  hash: ReturnType<typeof createHash>;
  compileMs: number;
  parseMs: number;
  matchMs: number;
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  // Paths are hashed relative to their corpus root, so a checkout elsewhere digests the same.
  const roots: [string, string][] = [["corpora", process.env.EXTRACT_CORPORA ?? "/work/corpora"]];
  if (args.benchCorpus) roots.push(["bench-corpus", join(CORPUS_DIR, "typescript")]);
  const files: [string, string][] = [];
  for (const [label, dir] of roots) {
    if (!existsSync(dir)) continue;
    const found: string[] = [];
    walk(dir, found);
    for (const f of found) files.push([f, `${label}/${relative(dir, f)}`]);
  }
  const stats = new Map<LanguageId, Stats>();
  for (const [path, shown] of files) {
    const info = languageForPath(path);
    if (!info) continue;
    const bytes = readFileSync(path);
    const decoded = decodeBytes(bytes);
    const id = refineLanguage(info.id, path, decoded.text);
    if (args.langs && !args.langs.has(id)) continue;
    let s = stats.get(id);
    if (!s) {
      const t = process.cpuUsage();
      queryFor(id);
      s = { files: 0, symbols: 0, references: 0, imports: 0, hash: createHash("sha256"), compileMs: cpuMs(t), parseMs: 0, matchMs: 0 };
      stats.set(id, s);
    }
    // extractFacts in two timed halves: parse, then the query matching and fact building.
    let t = process.cpuUsage();
    const tree = parseSource(id, decoded.text);
    s.parseMs += cpuMs(t);
    t = process.cpuUsage();
    const facts = extractFromTree(id, tree, decoded);
    s.matchMs += cpuMs(t);
    (tree as unknown as { delete?: () => void }).delete?.();
    const json = JSON.stringify(facts);
    s.files++;
    s.symbols += facts.symbols.length;
    s.references += facts.references.length;
    s.imports += facts.imports.length;
    s.hash.update(`${shown}\n${json}\n`);
    if (args.dump) {
      const out = join(args.dump, `${shown}.json`);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, JSON.stringify(facts, null, 1));
    }
  }
  for (const [id, s] of [...stats].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    process.stdout.write(
      `${[
        id.padEnd(10),
        `files=${s.files}`,
        `sym=${s.symbols}`,
        `ref=${s.references}`,
        `imp=${s.imports}`,
        `digest=${s.hash.digest("hex").slice(0, 16)}`,
        `compile=${s.compileMs.toFixed(0)}ms`,
        `parse=${s.parseMs.toFixed(0)}ms`,
        `match=${s.matchMs.toFixed(0)}ms`,
      ].join(" ")}\n`,
    );
  }
}

main();
