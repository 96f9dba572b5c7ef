/** `magellan index`: build or refresh the graph of a workspace. */
import type { Diagnostic } from "../../contract/schema.js";
import { MAGELLAN_CODES } from "../../graph/codes.js";
import { type IndexResult, indexTree } from "../../graph/ingest.js";
import { type Answer, type Location, TOOL, locateForWrite } from "./common.js";

export interface IndexRequest extends Location {
  rebuild?: boolean;
  maxBytes?: number;
  threads?: number;
  onProgress?: (done: number, total: number) => void;
}

const MAX_LISTED = 20;

export function indexDiagnostics(r: IndexResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of r.parse_recovered.slice(0, MAX_LISTED)) {
    out.push({
      tool: TOOL,
      level: "warning",
      code: MAGELLAN_CODES.parse_recovered,
      message: `tree-sitter could not read all of ${p}; indexed what it recovered (symbols in the unread part may be missing)`,
      file: p,
      // Most such files on real repositories are valid code (C/C++ macros, syntax newer than a
      // grammar): telling the user to fix them would be wrong.
      remediation:
        "If the file compiles, this is the parser's limit (for C and C++ most often a macro it cannot expand, otherwise syntax newer than its grammar) and there is nothing to fix; if it does not, fix the syntax error and re-run 'magellan index'.",
    });
  }
  if (r.parse_recovered.length > MAX_LISTED) {
    out.push({ tool: TOOL, level: "warning", code: MAGELLAN_CODES.parse_recovered, message: `${r.parse_recovered.length - MAX_LISTED} more files tree-sitter could not read all of` });
  }
  const real = r.skipped.filter((s) => s.reason !== "symlink");
  for (const s of real.slice(0, MAX_LISTED)) {
    out.push({
      tool: TOOL,
      level: "warning",
      code: s.reason === "binary" ? MAGELLAN_CODES.binary_file : s.reason === "too_large" ? MAGELLAN_CODES.file_too_large : MAGELLAN_CODES.file_skipped,
      message: `skipped ${s.path}: ${s.reason} (${s.detail})`,
      file: s.path,
      remediation:
        s.reason === "too_large"
          ? "Raise --max-file-size to index it."
          : s.reason === "too_large_to_index" || s.reason === "out_of_memory"
            ? "The file is beyond what one extraction may cost (generated or minified code?); exclude it in .gitignore, or raise MAGELLAN_MAX_PARSE_BYTES / MAGELLAN_MAX_PARSE_TOKENS / MAGELLAN_MAX_PARSE_NODES / MAGELLAN_MAX_PARSE_SECONDS / MAGELLAN_WORKER_HEAP_MB if the memory and time are there."
            : undefined,
    });
  }
  if (real.length > MAX_LISTED) {
    out.push({ tool: TOOL, level: "warning", code: MAGELLAN_CODES.file_skipped, message: `${real.length - MAX_LISTED} more files skipped` });
  }
  return out.map((d) => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as Diagnostic);
}

export async function index(req: IndexRequest): Promise<Answer<Record<string, unknown>>> {
  const { root, dbPath } = locateForWrite(req, req.rebuild === true);
  const r = await indexTree({ root, dbPath, rebuild: req.rebuild, maxBytes: req.maxBytes, threads: req.threads, onProgress: req.onProgress });
  const data = {
    root,
    db_path: dbPath,
    mode: r.mode,
    files_scanned: r.files_scanned,
    files_indexed: r.files_indexed,
    files_unchanged: r.files_unchanged,
    files_removed: r.files_removed,
    files_skipped: r.files_skipped,
    skipped: r.skipped,
    parse_recovered: r.parse_recovered,
    references_resolved: r.references_resolved,
    files: r.files,
    symbols: r.symbols,
    references: r.references,
    calls: r.calls,
    duration_ms: r.duration_ms,
  };
  return { data, diagnostics: indexDiagnostics(r) };
}
