/**
 * Differential check for parser-path changes: records, for every Markdown file under the given
 * roots, a digest of what mdsel makes of it (the `index` output, every block's type, range,
 * parent and preview, heading texts and sections), so two builds can be compared file by file.
 *
 *   node dist/test/mdsel/differential.js record <impl-dir> <out.jsonl> <root>...
 *   node dist/test/mdsel/differential.js compare <a.jsonl> <b.jsonl>
 *
 * `impl-dir` is a built src/tools/mdsel folder (e.g. a copy of the previous build's). Under
 * `node --test` (no arguments) it does nothing; the committed tests hold the small real-file
 * cases, this is the large sweep run by hand before a parser change is committed.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

interface Impl {
  readMarkdownFile(abs: string, shown: string): Buffer;
  buildDocument(bytes: Buffer, ns: string, path: string): Promise<unknown>;
  indexDocument(doc: unknown): unknown;
}

type Doc = {
  blocks: { type: string; start: number; end: number; parent: number; topLevel: boolean }[];
  headings: { text: string; start: number; end: number; sectionEnd: number; parent: number; depth: number }[];
  blockPreview(b: unknown): string;
  rootPreview(): string;
};

export async function loadImpl(dir: string): Promise<Impl> {
  const url = (f: string): string => pathToFileURL(join(resolve(dir), f)).href;
  const d = (await import(url("document.js"))) as Pick<Impl, "readMarkdownFile" | "buildDocument">;
  const i = (await import(url("index-command.js"))) as Pick<Impl, "indexDocument">;
  return { readMarkdownFile: d.readMarkdownFile, buildDocument: d.buildDocument, indexDocument: i.indexDocument };
}

/** Everything mdsel derives from one file, as one canonical string. */
export async function describe(impl: Impl, abs: string): Promise<string> {
  let doc: Doc;
  try {
    const bytes = impl.readMarkdownFile(abs, abs);
    doc = (await impl.buildDocument(bytes, "doc", "doc.md")) as Doc;
  } catch (e) {
    const entry = (e as { entry?: { code?: string } }).entry;
    return JSON.stringify({ error: entry?.code ?? String(e) });
  }
  return JSON.stringify({
    index: impl.indexDocument(doc),
    root: doc.rootPreview(),
    headings: doc.headings.map((h) => [h.depth, h.text, h.start, h.end, h.sectionEnd, h.parent]),
    blocks: doc.blocks.map((b) => [b.type, b.start, b.end, b.parent, b.topLevel, doc.blockPreview(b)]),
  });
}

export function markdownFiles(root: string, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(root, e.name);
    if (e.isDirectory()) markdownFiles(p, out);
    else if (e.isFile() && /\.(md|markdown)$/i.test(e.name)) out.push(p);
  }
  return out;
}

async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  if (cmd === "record") {
    const [dir, outFile, ...roots] = rest;
    const impl = await loadImpl(dir as string);
    const files = roots.flatMap((r) => markdownFiles(resolve(r))).sort();
    const lines: string[] = [];
    for (const f of files) {
      const digest = createHash("sha256").update(await describe(impl, f)).digest("hex").slice(0, 16);
      lines.push(JSON.stringify({ file: f, digest }));
    }
    writeFileSync(outFile as string, `${lines.join("\n")}\n`);
    process.stdout.write(`${files.length} files recorded to ${outFile}\n`);
  } else if (cmd === "compare") {
    const read = (f: string): Map<string, string> =>
      new Map(
        readFileSync(f, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { file: string; digest: string })
          .map((r) => [r.file, r.digest]),
      );
    const a = read(rest[0] as string);
    const b = read(rest[1] as string);
    let same = 0;
    const differ: string[] = [];
    for (const [f, d] of a) {
      if (b.get(f) === d) same++;
      else differ.push(f);
    }
    process.stdout.write(`${a.size} files: ${same} identical, ${differ.length} different\n`);
    for (const f of differ.slice(0, 50)) process.stdout.write(`  ${f}\n`);
    process.exitCode = differ.length === 0 ? 0 : 1;
  }
}

if (process.argv[2] === "record" || process.argv[2] === "compare") await main(process.argv.slice(2));
