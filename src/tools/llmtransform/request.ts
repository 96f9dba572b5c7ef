/**
 * Turns what the user gave (flags, an edits file, a request on stdin) into one canonical edit
 * request. Legacy names of CONTRACT.md "Input compatibility" are mapped here and nowhere else,
 * so the rest of the tool only ever sees the standard names.
 */
import type { z } from "zod";
import { EXIT, ToolError } from "../../contract/errors.js";
import { type LlmtransformRequest, LlmtransformRequestSchema } from "../../contract/tools/llmtransform.js";
import { SCHEMA_VERSION } from "../../contract/version.js";
import { normalizeChecksum } from "../../text/checksum.js";
import { CODES } from "./codes.js";

export type EditInput = LlmtransformRequest["edits"][number];

export interface EditRequest {
  execution_id?: string;
  file_path: string;
  /** Canonical `sha256:<hex>`. */
  expected_checksum: string;
  edits: EditInput[];
}

export interface RequestSources {
  /** The parsed JSON that arrived (from --edits or stdin): a whole request, or just the edits array. */
  document?: { value: unknown; origin: string };
  /** --file */
  file?: string;
  /** --expected-checksum */
  expectedChecksum?: string;
  /** Whether two spellings name the same file (e.g. `./a.ts` and `a.ts`); default: string equality. */
  samePath?: (a: string, b: string) => boolean;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function usage(code: string, error: string, message: string, remediation: string): ToolError {
  return new ToolError({ code, error, message, remediation, exitCode: EXIT.usage });
}

function invalid(message: string, remediation = "Send {file_path, expected_checksum, edits: [{byte_start, byte_end, new_content}]}; see 'llmtransform --help'."): ToolError {
  return usage(CODES.invalid_request, "invalid_request", message, remediation);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Moves the value of each legacy alias onto the standard key. Two spellings of one field that
 * disagree are refused rather than guessed between.
 */
function takeAliases(obj: Record<string, unknown>, standard: string, aliases: string[], where: string): void {
  for (const alias of aliases) {
    if (!(alias in obj)) continue;
    const v = obj[alias];
    delete obj[alias];
    if (standard in obj && obj[standard] !== v) {
      throw usage(
        CODES.request_conflict,
        "request_conflict",
        `${where}: '${alias}' (${JSON.stringify(v)}) and '${standard}' (${JSON.stringify(obj[standard])}) disagree`,
        `Give the field once, under its standard name '${standard}'.`,
      );
    }
    obj[standard] = v;
  }
}

/** seed 03's llmastsearch positions: `start: {row, column}` with a 1-based row. */
function takePoint(edit: Record<string, unknown>, key: "start" | "end", where: string): void {
  if (!(key in edit)) return;
  const p = edit[key];
  delete edit[key];
  if (!isObject(p)) throw invalid(`${where}.${key}: expected an object {row, column}`);
  for (const k of Object.keys(p)) {
    if (k !== "row" && k !== "column") throw invalid(`${where}.${key}: unknown field '${k}' (expected row, column)`);
  }
  const lineKey = `${key}_line`;
  const colKey = `${key}_col`;
  if ("row" in p) {
    edit[`${key}.row`] = p.row;
    takeAliases(edit, lineKey, [`${key}.row`], where);
  }
  if ("column" in p) {
    edit[`${key}.column`] = p.column;
    takeAliases(edit, colKey, [`${key}.column`], where);
  }
}

function normalizeEdit(raw: unknown, i: number, filePath: string | undefined, samePath: (a: string, b: string) => boolean): unknown {
  const where = `edits[${i}]`;
  if (!isObject(raw)) throw invalid(`${where}: expected an object, got ${JSON.stringify(raw)?.slice(0, 60)}`);
  const edit: Record<string, unknown> = { ...raw };
  takeAliases(edit, "new_content", ["replacement"], where);
  takeAliases(edit, "start_line", ["line_start", "line_number"], where);
  takeAliases(edit, "start_col", ["col_start", "column_number"], where);
  takeAliases(edit, "end_line", ["line_end"], where);
  takeAliases(edit, "end_col", ["col_end"], where);
  takePoint(edit, "start", where);
  takePoint(edit, "end", where);
  // A span copied from another tool's output (llmsearch, magellan) names its range exactly.
  if ("span" in edit) {
    const span = edit.span;
    delete edit.span;
    if (!isObject(span)) throw invalid(`${where}.span: expected a span object`);
    if (typeof span.file_path === "string" && filePath !== undefined && !samePath(span.file_path, filePath)) {
      throw usage(
        CODES.request_conflict,
        "request_conflict",
        `${where}.span names file '${span.file_path}' but the request edits '${filePath}'`,
        "Send one request per file; each edit's span must lie in the request's file.",
      );
    }
    edit.span_byte_start = span.byte_start;
    edit.span_byte_end = span.byte_end;
    takeAliases(edit, "byte_start", ["span_byte_start"], where);
    takeAliases(edit, "byte_end", ["span_byte_end"], where);
    // Its lines and columns are checked against its bytes like the edit's own (E108): a span
    // whose positions and bytes disagree was not read from this file as it is.
    for (const k of ["start_line", "start_col", "end_line", "end_col"] as const) {
      if (span[k] === undefined) continue;
      edit[`span_${k}`] = span[k];
      takeAliases(edit, k, [`span_${k}`], where);
    }
  }
  return edit;
}

function describeZodError(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((iss) => `${iss.path.length ? iss.path.join(".").replace(/\.(\d+)/g, "[$1]") : "(request)"}: ${iss.message}`)
    .join("; ");
}

/**
 * Builds the canonical request from the sources, in this precedence: a field may come from a
 * flag or from the document, and when it comes from both they must agree.
 */
export function buildRequest(src: RequestSources): EditRequest {
  const samePath = src.samePath ?? ((a, b) => a === b);
  let obj: Record<string, unknown>;
  const doc = src.document;
  if (doc === undefined) {
    throw usage(
      CODES.usage,
      "invalid_arguments",
      "no edits given",
      "Pass --edits edits.json (an array of {byte_start, byte_end, new_content}, or a whole request), or pipe the request JSON on stdin.",
    );
  }
  if (Array.isArray(doc.value)) obj = { edits: doc.value };
  else if (isObject(doc.value)) obj = { ...doc.value };
  else throw invalid(`${doc.origin}: expected a JSON object (the request) or an array (the edits)`);

  takeAliases(obj, "file_path", ["file"], "request");
  takeAliases(obj, "execution_id", ["operation_id"], "request");
  takeAliases(obj, "schema_version", ["version"], "request");

  if (src.file !== undefined) {
    if (typeof obj.file_path === "string" && !samePath(obj.file_path, src.file)) {
      throw usage(
        CODES.request_conflict,
        "request_conflict",
        `--file '${src.file}' and the request's file_path '${obj.file_path}' name different files`,
        "Drop --file, or make it name the same file as the request.",
      );
    }
    obj.file_path ??= src.file;
  }
  if (src.expectedChecksum !== undefined) {
    const flag = normalizeChecksum(src.expectedChecksum);
    if (flag === undefined) throw badChecksum(src.expectedChecksum, "--expected-checksum");
    if (typeof obj.expected_checksum === "string" && normalizeChecksum(obj.expected_checksum) !== flag) {
      throw usage(
        CODES.request_conflict,
        "request_conflict",
        `--expected-checksum ${flag} and the request's expected_checksum ${obj.expected_checksum} disagree`,
        "Give the checksum once, either as the flag or in the request.",
      );
    }
    obj.expected_checksum = flag;
  }
  if (obj.file_path === undefined) {
    throw usage(CODES.usage, "invalid_arguments", "no file to edit", "Pass --file PATH, or put file_path in the request.");
  }
  if (obj.expected_checksum === undefined) {
    const f = typeof obj.file_path === "string" ? obj.file_path : "FILE";
    throw usage(
      CODES.missing_checksum,
      "missing_checksum",
      "expected_checksum is required: llmtransform only edits the exact bytes the edits were computed against",
      `Get the checksum of the bytes you read, e.g. \`sha256sum ${f}\`, and pass it as --expected-checksum sha256:<hex> (bare hex is accepted too) or as "expected_checksum" in the request.`,
    );
  }
  if (!Array.isArray(obj.edits)) throw invalid(`${doc.origin}: 'edits' must be an array`);
  const filePath = typeof obj.file_path === "string" ? obj.file_path : undefined;
  obj.edits = obj.edits.map((e, i) => normalizeEdit(e, i, filePath, samePath));

  const parsed = LlmtransformRequestSchema.safeParse(obj);
  if (!parsed.success) throw invalid(`${doc.origin}: ${describeZodError(parsed.error)}`);
  const req = parsed.data;

  if (req.schema_version !== undefined) {
    const major = /^(\d+)\./.exec(req.schema_version)?.[1];
    if (major !== SCHEMA_VERSION.split(".")[0]) {
      throw usage(
        CODES.unsupported_version,
        "unsupported_version",
        `request schema_version ${req.schema_version} is not supported (this llmtransform speaks ${SCHEMA_VERSION})`,
        `Write the request for schema ${SCHEMA_VERSION}, or drop schema_version.`,
      );
    }
  }
  if (req.execution_id !== undefined && !UUID_V4.test(req.execution_id)) {
    throw invalid(`execution_id '${req.execution_id}' is not a UUID v4`, "Omit execution_id (a fresh one is made) or pass a UUID v4.");
  }
  const sum = normalizeChecksum(req.expected_checksum);
  if (sum === undefined) throw badChecksum(req.expected_checksum, "expected_checksum");
  req.edits.forEach((e, i) => {
    const where = `edits[${i}]`;
    if ((e.start_line === undefined) !== (e.start_col === undefined)) {
      throw invalid(`${where}: start_line and start_col go together`);
    }
    if ((e.end_line === undefined) !== (e.end_col === undefined)) {
      throw invalid(`${where}: end_line and end_col go together`);
    }
    if (e.byte_start === undefined && e.start_line === undefined) {
      throw invalid(`${where}: no start (give byte_start, or start_line and start_col)`);
    }
    if (e.byte_end === undefined && e.end_line === undefined) {
      throw invalid(`${where}: no end (give byte_end, or end_line and end_col)`);
    }
  });
  const out: EditRequest = { file_path: req.file_path, expected_checksum: sum, edits: req.edits };
  if (req.execution_id !== undefined) out.execution_id = req.execution_id.toLowerCase();
  return out;
}

function badChecksum(value: string, where: string): ToolError {
  return usage(
    CODES.invalid_checksum,
    "invalid_checksum",
    `${where} '${value}' is not a SHA-256 checksum`,
    "Pass sha256:<64 hex> or the bare 64 hex digits, e.g. from `sha256sum FILE`.",
  );
}
