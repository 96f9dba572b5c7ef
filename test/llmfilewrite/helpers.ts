import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { ValidationDiagnostic } from "../../src/validate/types.js";
import { REPO_ROOT, tempDir } from "../support/run.js";

export const FIXTURES = join(REPO_ROOT, "test", "fixtures", "llmfilewrite");

/** A private copy of a fixture project, as its own git work tree (the default workspace root). */
const made: string[] = [];

export function project(name: string): string {
  const dir = tempDir(`lfw-${name}-`);
  made.push(dir);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}

/** Every file under `dir` (relative, sorted), .git excluded: what a run may have left behind. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".git") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * The checkers' private temp directories currently in `dir` (default: the system temp dir). A
 * test that counts them gives its run a TMPDIR of its own, so that the checkers of tests running
 * beside it are not counted.
 */
export function checkerTempDirs(dir: string = tmpdir()): string[] {
  return readdirSync(dir).filter((n) => n.startsWith("llmfilewrite-"));
}

/** A diagnostic as llmfilewrite prints it: the gates' own shape. */
export type Diag = ValidationDiagnostic;

export interface Envelope {
  status: string;
  message: string;
  result?: {
    path: string;
    language: string;
    validation: "validated" | "unchecked" | "rejected";
    checkers: { language: string; checker: string; version?: string; status: string; reason?: string }[];
    lsp_used: string;
    checksum: string;
    diagnostics: Diag[];
    checkers_run: string[];
    written: boolean;
    overwritten: boolean;
    dry_run: boolean;
    removed_temps?: string[];
  };
  error?: { code: string; message: string; remediation?: string };
}

/** 1-based line of the first line of `content` containing `needle` (tests locate by text). */
export function lineOf(content: string, needle: string): number {
  const i = content.split("\n").findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`'${needle}' not in content`);
  return i + 1;
}

/** A scratch directory removed with the projects. */
export function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
}

/** Removes the project copies this test file made (call from `after`). */
export function removeProjects(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}
