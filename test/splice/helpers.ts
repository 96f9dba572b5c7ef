import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { MutationRequest } from "../../src/contract/tools/splice.js";
import { runMutation, type SpliceOutcome } from "../../src/tools/splice/run.js";
import { REPO_ROOT, tempDir } from "../support/run.js";

export const FIXTURES = join(REPO_ROOT, "test", "fixtures", "splice");

/** A private copy of a fixture project, as its own git work tree (the default workspace root). */
export function project(name: string): string {
  const dir = tempDir(`splice-${name}-`);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}

export function read(dir: string, rel: string): string {
  return readFileSync(join(dir, rel), "utf8");
}

/** Every source file under `dir` with its bytes (state dirs and .git excluded): what a run may have changed. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".git" || e.name === ".magellan" || e.name === ".splice" || e.name === "target") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return out;
}

export async function splice(root: string, req: MutationRequest): Promise<SpliceOutcome> {
  return runMutation({ ...req, root } as MutationRequest, { cwd: root });
}

export type Result = {
  written: boolean;
  validation: string;
  files: { file_path: string; before_checksum: string | null; after_checksum: string | null; lines_added: number; lines_removed: number; changed_spans: { byte_start: number; byte_end: number; span_id: string }[] }[];
  introduced: { file: string; message: string; code: string; source: string }[];
  checkers: { language: string; checker: string; status: string }[];
  steps: Record<string, unknown>[];
  diff?: string;
  operation_id?: string;
};

export function resultOf(o: SpliceOutcome): Result {
  return o.result as unknown as Result;
}
