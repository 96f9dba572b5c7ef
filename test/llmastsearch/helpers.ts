import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import type { LlmastsearchDataSchema } from "../../src/contract/tools/llmastsearch.js";
import { REPO_ROOT, tempDir } from "../support/run.js";

export type Data = z.infer<typeof LlmastsearchDataSchema>;
export type Span = Data["matches"][number]["span"];

export const FIXTURES = join(REPO_ROOT, "test", "fixtures", "llmastsearch");

/** A temp copy of a fixture folder, so the walk sees exactly its files. */
export function fixtureCopy(name: string): string {
  const dir = tempDir("llmastsearch-");
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/** Line/col of a byte offset, computed independently of src/text (LF split, byte columns). */
function position(bytes: Buffer, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      start = i + 1;
    }
  }
  return { line, col: offset - start };
}

export function checkSpan(root: string, span: Span): Buffer {
  const bytes = readFileSync(join(root, span.file_path));
  assert.ok(span.byte_start <= span.byte_end && span.byte_end <= bytes.length, `span inside the file: ${JSON.stringify(span)}`);
  const s = position(bytes, span.byte_start);
  const e = position(bytes, span.byte_end);
  assert.deepEqual([span.start_line, span.start_col, span.end_line, span.end_col], [s.line, s.col, e.line, e.col], `line/col of ${JSON.stringify(span)}`);
  return bytes.subarray(span.byte_start, span.byte_end);
}

/** CONTRACT.md invariants for every match: the bytes at each span are the text reported. */
export function checkMatches(root: string, data: Data, opts: { validUtf8?: boolean } = {}): void {
  assert.equal(data.match_count, data.matches.length);
  for (const m of data.matches) {
    assert.equal(m.span.file_path, m.file_path);
    checkSpan(root, m.span);
    for (const c of m.captures) {
      assert.equal(c.span.byte_start, c.byte_start);
      assert.equal(c.span.byte_end, c.byte_end);
      const bytes = checkSpan(root, c.span);
      if (opts.validUtf8 !== false) assert.equal(bytes.toString("utf8"), c.content, `capture @${c.name} content equals its bytes`);
      assert.ok(m.span.byte_start <= c.byte_start && c.byte_end <= m.span.byte_end, "the match span holds its captures");
    }
  }
}

export function names(data: Data, capture?: string): string[] {
  return data.matches.flatMap((m) => m.captures.filter((c) => capture === undefined || c.name === capture).map((c) => c.content));
}

/** Real JavaScript and TypeScript from node_modules, copied so the walk sees a plain folder. */
export function realCode(): string {
  const root = tempDir("llmastsearch-real-");
  const take = (pkgDir: string, dest: string, ext: RegExp, max: number): void => {
    mkdirSync(join(root, dest), { recursive: true });
    const files = readdirSync(pkgDir).filter((f) => ext.test(f)).sort().slice(0, max);
    for (const f of files) cpSync(join(pkgDir, f), join(root, dest, f));
  };
  take(join(REPO_ROOT, "node_modules", "commander", "lib"), "commander", /\.js$/, 20);
  take(join(REPO_ROOT, "node_modules", "commander", "typings"), "commander-types", /\.d\.ts$/, 5);
  take(join(REPO_ROOT, "node_modules", "zod", "v4", "core"), "zod-core", /\.ts$/, 30);
  take(join(REPO_ROOT, "node_modules", "ignore"), "ignore", /\.(js|d\.ts)$/, 5);
  return root;
}
