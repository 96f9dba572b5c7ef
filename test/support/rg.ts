/**
 * The real ripgrep (rg 13 at /usr/bin/rg), run on the same tree as llmsearch, its answers put in
 * the shapes llmsearch's tests compare: sets of `path:byte_start:byte_end`, sets of `path:line`,
 * per-file counts, file lists. Without rg these helpers fail, they do not skip.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

export interface RgRun {
  status: number;
  stdout: string;
  stderr: string;
}

export function rgRun(cwd: string, args: string[]): RgRun {
  const r = spawnSync("rg", ["--no-config", ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  assert.ok(!r.error, `ripgrep (rg) is required for this test and could not run: ${String(r.error)}`);
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function ok(r: RgRun, args: string[]): RgRun {
  assert.ok(r.status === 0 || r.status === 1, `rg ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  return r;
}

function clean(path: string): string {
  return path.replace(/^\.\//, "");
}

interface RgJsonMatch {
  type: string;
  data: { path: { text: string }; line_number: number; absolute_offset: number; lines: { text: string }; submatches: { start: number; end: number }[] };
}

/** `rg --json ARGS`: every submatch as `path:start:end`, and every matched line as `path:line` (rg -v's lines have no submatch). */
export function rgJson(cwd: string, args: string[]): { spans: Set<string>; lines: Set<string> } {
  const r = ok(rgRun(cwd, ["--json", ...args]), args);
  const spans = new Set<string>();
  const lines = new Set<string>();
  for (const line of r.stdout.split(/\r?\n/)) {
    if (!line) continue;
    const msg = JSON.parse(line) as RgJsonMatch;
    if (msg.type !== "match") continue;
    const path = clean(msg.data.path.text);
    // A multiline match message covers several lines: each of them is a matched line.
    const n = msg.data.lines.text.replace(/\n$/, "").split("\n").length;
    for (let k = 0; k < n; k++) lines.add(`${path}:${msg.data.line_number + k}`);
    for (const sm of msg.data.submatches) spans.add(`${path}:${msg.data.absolute_offset + sm.start}:${msg.data.absolute_offset + sm.end}`);
  }
  return { spans, lines };
}

/** `rg --with-filename ARGS` with -c or --count-matches: path -> count. */
export function rgCounts(cwd: string, args: string[]): Map<string, number> {
  const r = ok(rgRun(cwd, ["--with-filename", ...args]), args);
  const out = new Map<string, number>();
  for (const line of r.stdout.split(/\r?\n/)) {
    if (!line) continue;
    const at = line.lastIndexOf(":");
    out.set(clean(line.slice(0, at)), Number(line.slice(at + 1)));
  }
  return out;
}

/** `rg ARGS` printing one path a line (--files, -l): sorted. */
export function rgPaths(cwd: string, args: string[]): string[] {
  const r = ok(rgRun(cwd, args), args);
  // rg --crlf ends each printed line with \r\n.
  return r.stdout
    .split(/\r?\n/)
    .filter((l) => l.length > 0)
    .map(clean)
    .sort();
}
