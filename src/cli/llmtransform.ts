#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * llmtransform CLI: argv/stdin -> EditRequest -> transform() -> OperationResult on stdout.
 * All logic lives in src/tools/llmtransform/; this file only gathers input and prints.
 */
import { readFileSync, writeSync } from "node:fs";
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { findWorkspaceRoot, resolveInRoot } from "../text/root.js";
import { TOOL } from "../tools/llmtransform/codes.js";
import { buildRequest, type RequestSources } from "../tools/llmtransform/request.js";
import { transform } from "../tools/llmtransform/transform.js";
import { operationEnvelope } from "../contract/envelope.js";
import { baseProgram, runCli } from "./run.js";

/** Test-only: pause this long (ms) after the temp file is synced, before the rename. */
const PAUSE_ENV = "LLMTRANSFORM_TEST_PAUSE_BEFORE_RENAME_MS";

const program = baseProgram(
  TOOL,
  "Apply byte-range edits to one file, all or nothing, only if the file still has the checksum the edits were computed against. Atomic write; prints an OperationResult (JSON).",
)
  .option("--file <path>", "file to edit (relative to the workspace root or the current directory); or file_path in the request")
  .option(
    "--edits <path>",
    "JSON file holding the edits array [{byte_start, byte_end, new_content}] or a whole request; '-' reads it from stdin. Without --edits the request is read from stdin",
  )
  .option("--expected-checksum <sha256>", "checksum of the file the edits were computed against: sha256:<hex> or bare hex (`sha256sum FILE`); or expected_checksum in the request")
  .option("--dry-run", "compute and report everything (final checksum, new spans), write nothing")
  .option("--partial", "apply the valid edits even if some are invalid, report the others (status partial, exit 4); default is all or nothing")
  .option("--root <dir>", "workspace root (default: the enclosing git work tree, else the current directory); nothing outside it is edited")
  .addHelpText(
    "after",
    `
Request (stdin or --edits):
  {"file_path": "src/a.ts", "expected_checksum": "sha256:<hex>",
   "edits": [{"byte_start": 10, "byte_end": 14, "new_content": "text"}], "execution_id": "<uuid v4, optional>"}
  byte_start inclusive, byte_end exclusive, UTF-8 bytes of the file as stored; byte_start == byte_end inserts.
  An end may instead be given as start_line/start_col, end_line/end_col (1-based line, 0-based byte column),
  or as a "span" object copied from llmsearch/magellan output. Legacy names accepted: file, replacement,
  operation_id, version, line_start, line_number, col_start, column_number, line_end, col_end,
  start.row/start.column, end.row/end.column.
  Edits may not overlap; insertions at one offset go in request order, before a range starting there.

Output: OperationResult {status ok|partial|error, result {type:"edit", file_path, final_checksum,
  total_byte_shift, applied_count, skipped_count, error_count, edits[{match_id, span, status,
  before_checksum, after_checksum, new_span, error?}]}}; new_span is where the new text lies in the
  final file. before/after_checksum: sha256 of the replaced bytes / of the new bytes.

Exit codes:
  0  all edits applied (or would be, with --dry-run; also an empty edits list)
  1  failure, nothing written: checksum mismatch, invalid edit (without --partial), read-only file,
     file changed during the write, file busy (another writer holds its lock), file not found
  2  usage: bad flags, malformed request, missing checksum, path outside the workspace root or
     inside .git/, .magellan/, .splice/
  4  partial: --partial applied some edits and rejected others

Example:
  llmtransform --file src/a.ts --expected-checksum "$(sha256sum src/a.ts | cut -d' ' -f1)" --edits edits.json
`,
  );

interface Options {
  file?: string;
  edits?: string;
  expectedChecksum?: string;
  dryRun?: boolean;
  partial?: boolean;
  root?: string;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string, origin: string): unknown {
  try {
    // Editors on Windows like to start JSON files with a BOM, which JSON.parse refuses.
    return JSON.parse(text.replace(/^\ufeff/, "")) as unknown;
  } catch (e) {
    throw new ToolError({
      code: commonCode(TOOL, "invalid_request"),
      error: "invalid_request",
      message: `${origin} is not valid JSON: ${(e as Error).message}`,
      remediation: "Send one JSON document: a request object, or (with --file) an array of edits.",
      exitCode: EXIT.usage,
    });
  }
}

async function readDocument(opts: Options): Promise<RequestSources["document"]> {
  if (opts.edits !== undefined && opts.edits !== "-") {
    let text: string;
    try {
      text = readFileSync(opts.edits, "utf8");
    } catch (e) {
      throw new ToolError({
        code: commonCode(TOOL, "usage"),
        error: "invalid_arguments",
        message: `cannot read --edits ${opts.edits}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        remediation: "Pass --edits the path of a JSON file, or '-' to read the edits from stdin.",
        exitCode: EXIT.usage,
      });
    }
    return { value: parseJson(text, `--edits ${opts.edits}`), origin: `--edits ${opts.edits}` };
  }
  if (opts.edits === undefined && process.stdin.isTTY) return undefined;
  const text = await readStdin();
  if (text.trim() === "") return undefined;
  return { value: parseJson(text, "stdin"), origin: "stdin" };
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// Without top-level await, so that the build can bundle this entry as CommonJS (see scripts/bundle.ts);
// runCli reports every failure itself.
void runCli(program, TOOL, { kind: "operation", operationType: "edit" }, async (p) => {
  const opts = p.opts<Options>();
  const root = findWorkspaceRoot(TOOL, opts.root);
  // `a` is a path the request carries (a span's or the request's file_path): tools print them
  // relative to the root, whatever the directory this runs in. `b` is the one to edit: if it is
  // ambiguous, that is the error to report, not a conflict between the two.
  const samePath = (a: string, b: string): boolean => {
    if (a === b) return true;
    const target = resolveInRoot(TOOL, root, b).abs;
    try {
      return resolveInRoot(TOOL, root, a, root).abs === target;
    } catch {
      return false;
    }
  };
  const request = buildRequest({
    document: await readDocument(opts),
    file: opts.file,
    expectedChecksum: opts.expectedChecksum,
    samePath,
  });
  const pauseMs = Number(process.env[PAUSE_ENV] ?? "0");
  const beforeRename =
    pauseMs > 0
      ? (temp: string): void => {
          writeSync(2, `${TOOL}: test hook: paused ${pauseMs} ms before renaming ${temp}\n`);
          sleepSync(pauseMs);
        }
      : undefined;
  let envelope: Record<string, unknown>;
  let exitCode;
  try {
    const outcome = await transform(request, { root, dryRun: opts.dryRun, partial: opts.partial, beforeRename });
    envelope = operationEnvelope(TOOL, "edit", outcome.status, outcome.message, {
      workspace: root,
      result: outcome.result,
      error: outcome.error,
      diagnostics: outcome.diagnostics,
    });
    exitCode = outcome.exitCode;
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    envelope = operationEnvelope(TOOL, "edit", "error", e.message, { workspace: root, error: e.toDiagnostic(TOOL) });
    exitCode = e.exitCode;
  }
  // seed 03: the response carries the caller's execution_id when the request names one.
  if (request.execution_id !== undefined) envelope.execution_id = request.execution_id;
  return { envelope, exitCode };
});
