/**
 * A private tree that stands for the workspace with a change applied: real directories along
 * the paths to changed files, their other entries symlinks to the originals, changed files
 * written with their new bytes, deleted ones absent. A checker that opens files by path (gcc's
 * quoted includes, go vet on go1.19, which ignores `-overlay` for the vetted package's own
 * files) then reads the change without a byte of the workspace being written. C/C++ and Go use it.
 */
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface Mirror {
  root: string;
  /** Root-relative paths whose bytes in the mirror are the change's. */
  changed: Set<string>;
}

/**
 * `files`: root-relative paths with the bytes they hold in the mirror (null: absent). The tree is
 * made in `at` (an absent or empty directory) or in a new temp directory named `prefix…`; the
 * caller removes it.
 */
export function mirrorTree(root: string, files: { path: string; bytes: Uint8Array | null }[], where: { prefix?: string; at?: string } = {}): Mirror {
  const top = where.at ?? mkdtempSync(join(tmpdir(), where.prefix ?? "llmtools-mirror-"));
  const changed = new Set(files.map((f) => f.path));
  const dirs = new Set<string>([""]);
  for (const f of files) for (let d = dirname(f.path); d !== "." && d !== ""; d = dirname(d)) dirs.add(d);
  for (const d of [...dirs].sort()) {
    const real = d ? join(root, d) : root;
    mkdirSync(d ? join(top, d) : top, { recursive: true });
    let entries: string[] = [];
    try {
      entries = readdirSync(real);
    } catch {
      // a directory the change creates
    }
    for (const n of entries) {
      const rel = d ? `${d}/${n}` : n;
      if (changed.has(rel) || dirs.has(rel) || n === ".git") continue;
      symlinkSync(join(real, n), join(top, rel));
    }
  }
  for (const f of files) if (f.bytes !== null) writeFileSync(join(top, f.path), f.bytes);
  return { root: top, changed };
}
