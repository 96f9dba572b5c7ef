import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RenameLocation, RenameTarget } from "../../src/tools/splice/rename/index.js";
import type { LanguageId } from "../../src/lang/registry.js";
import { REPO_ROOT, tempDir } from "../support/run.js";

export const FIXTURES = join(REPO_ROOT, "test", "fixtures", "splice-rename");

/** A scratch copy of a fixture, so that tools writing caches or indexes never touch the repo. */
export function copyFixture(name: string): string {
  const dir = tempDir(`splice-rename-${name}-`);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/** The target whose name is `name`, found as the `nth` match of `context` (which holds `name`). */
export function targetAt(root: string, file: string, language: LanguageId, context: string, name: string, nth = 0): RenameTarget {
  const bytes = readFileSync(join(root, file));
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = bytes.indexOf(context, at + 1);
    if (at < 0) throw new Error(`'${context}' not found ${nth + 1} times in ${file}`);
  }
  const start = at + Buffer.from(context).indexOf(name);
  return { file, language, name, byte_start: start, byte_end: start + Buffer.byteLength(name) };
}

/** The files after applying the locations (from the end of each file). */
export function applyLocations(root: string, locations: RenameLocation[], write = false, overlays?: Map<string, Uint8Array>): Map<string, string> {
  const byFile = new Map<string, RenameLocation[]>();
  for (const l of locations) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
  const out = new Map<string, string>();
  for (const [file, locs] of byFile) {
    let bytes: Buffer = Buffer.from(overlays?.get(file) ?? readFileSync(join(root, file)));
    for (const l of [...locs].sort((a, b) => b.byte_start - a.byte_start)) {
      if (bytes.subarray(l.byte_start, l.byte_end).toString("utf8") !== l.old_text) throw new Error(`old_text mismatch at ${file}:${l.byte_start}`);
      bytes = Buffer.concat([bytes.subarray(0, l.byte_start), Buffer.from(l.new_text), bytes.subarray(l.byte_end)]);
    }
    out.set(file, bytes.toString("utf8"));
    if (write) writeFileSync(join(root, file), bytes);
  }
  return out;
}
