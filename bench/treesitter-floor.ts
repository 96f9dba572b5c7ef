/**
 * What tree-sitter alone costs on the bench tree, before magellan does anything with the result,
 * so the speed table can say how much of a figure is the engine's and how much is ours.
 *
 *   node dist/bench/treesitter-floor.js match <root> <threads>
 *     reads, decodes and parses every indexed file and runs magellan's own queries over it (as
 *     extraction does, through raw-matches.ts), on <threads> worker threads as `magellan index` does,
 *     and throws the matches away: no extraction, no rows, no SQLite. Prints the wall ms.
 *   node dist/bench/treesitter-floor.js compile <language>
 *     loads the language's grammar and compiles its query; prints the ms that took: what every
 *     process that extracts anything pays first (tree-sitter has no way to save a compiled query).
 */
import { readFileSync } from "node:fs";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { queryFor } from "../src/lang/extract.js";
import { maskForParse } from "../src/lang/preprocess.js";
import { rawMatchList, rawMatchesSupported } from "../src/lang/raw-matches.js";
import { type LanguageId, languageForPath, parse } from "../src/lang/registry.js";
import { decodeBytes } from "../src/text/decode.js";
import { walkFiles } from "../src/text/walk.js";

type Task = { abs: string; language: LanguageId };

function matchAll(tasks: Task[]): number {
  let n = 0;
  for (const t of tasks) {
    const tree = parse(t.language, maskForParse(t.language, decodeBytes(readFileSync(t.abs)).text));
    const query = queryFor(t.language);
    // As extraction runs them (src/lang/raw-matches.ts), nothing more.
    n += (rawMatchesSupported() ? rawMatchList(query, tree) : query.matches(tree.rootNode)).length;
    (tree as unknown as { delete?: () => void }).delete?.();
  }
  return n;
}

async function main(): Promise<void> {
  const [mode, arg, threadsArg] = process.argv.slice(2);
  if (mode === "compile") {
    const t0 = performance.now();
    queryFor((arg ?? "typescript") as LanguageId);
    process.stdout.write(`${JSON.stringify({ ms: Math.round(performance.now() - t0) })}\n`);
    return;
  }
  if (mode !== "match" || !arg) throw new Error("usage: treesitter-floor match <root> <threads> | compile <language>");
  const tasks: Task[] = [];
  for (const e of walkFiles({ root: arg })) {
    const lang = languageForPath(e.rel);
    if (lang) tasks.push({ abs: e.abs, language: lang.id });
  }
  const threads = Math.max(1, Number(threadsArg ?? 2));
  const t0 = performance.now();
  let next = 0;
  let matches = 0;
  // Chunks of 24 files handed out as workers ask, as src/graph/pool.ts does.
  await Promise.all(
    Array.from({ length: threads }, async () => {
      const w = new Worker(new URL(import.meta.url), { workerData: true });
      await new Promise<void>((resolve, reject) => {
        const feed = (): void => {
          if (next < tasks.length) w.postMessage(tasks.slice(next, (next += 24)));
          else resolve();
        };
        w.on("message", (n: number) => {
          matches += n;
          feed();
        });
        w.on("error", reject);
        feed();
      });
      await w.terminate();
    }),
  );
  process.stdout.write(`${JSON.stringify({ files: tasks.length, matches, ms: Math.round(performance.now() - t0) })}\n`);
}

if (isMainThread) {
  main().catch((e: unknown) => {
    process.stderr.write(`${String(e)}\n`);
    process.exit(1);
  });
} else if (workerData) {
  // One chunk per turn of the event loop, so tree-sitter's finalizers free the trees (see src/graph/worker.ts).
  parentPort?.on("message", (tasks: Task[]) => setImmediate(() => parentPort?.postMessage(matchAll(tasks))));
}
