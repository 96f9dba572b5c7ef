import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MdselDocumentIndex, MdselErrorEntry, MdselSelectMatch, MdselUnresolved } from "../../src/contract/tools/mdsel.js";
import type { Span } from "../../src/contract/schema.js";
import { REPO_ROOT, runTool, type RunOptions } from "../support/run.js";

export const FIXTURES = join(REPO_ROOT, "test", "fixtures", "mdsel");
export const SEED = join(FIXTURES, "seed");

export interface Envelope<D> {
  schema_version: string;
  execution_id: string;
  tool: string;
  success: boolean;
  command: string;
  timestamp: string;
  data: D | null;
  partial_results?: unknown[];
  unresolved_selectors?: string[];
  warnings?: string[];
  errors?: MdselErrorEntry[];
}
export interface IndexData {
  documents: MdselDocumentIndex[];
  summary: { total_documents: number; total_nodes: number; total_selectors: number };
}
export interface SelectData {
  matches: MdselSelectMatch[];
  unresolved: MdselUnresolved[];
}

/** Runs the built mdsel CLI (schema-validated by runTool) and returns exit code and envelope. */
export async function mdsel<D>(args: string[], opts: RunOptions = {}): Promise<{ code: number; env: Envelope<D>; stdout: string; stderr: string }> {
  const r = await runTool("mdsel", args, opts);
  return { code: r.code, env: r.json as Envelope<D>, stdout: r.stdout, stderr: r.stderr };
}

export const index = (args: string[], opts: RunOptions = {}) => mdsel<IndexData>(["index", ...args], opts);
export const select = (args: string[], opts: RunOptions = {}) => mdsel<SelectData>(["select", ...args], opts);

/** CONTRACT.md invariant: the span's bytes are the text the result talks about. */
export function spanText(file: string, span: Span): string {
  return readFileSync(file).subarray(span.byte_start, span.byte_end).toString("utf8");
}
