/**
 * Loading one workspace file for the payload commands: path safety, bytes, language and the
 * per-file outcome seed 04 reports (`ok` / `skipped` / `failed`) instead of failing the call.
 */
import { readFileSync, statSync } from "node:fs";
import type Parser from "tree-sitter";
import { commonCode } from "../../contract/codes.js";
import { EXIT, ToolError } from "../../contract/errors.js";
import { isBinary } from "../../text/binary.js";
import { clipText } from "../../text/clip.js";
import { decodeBytes, type DecodedText } from "../../text/decode.js";
import { LineIndex } from "../../text/lines.js";
import { resolveInRoot } from "../../text/root.js";
import { languageForPath, languageInfo, parse, refineLanguage, type LanguageInfo } from "../../lang/registry.js";
import { hasSyntaxErrors } from "../../lang/grammar-lags.js";
import { ExtractionBudgetError, parseDeadline } from "../../lang/budget.js";
import { CODEINTEL_TOOL } from "./codes.js";
import { NativeModuleError } from "../../contract/native.js";

export interface Outcome {
  status: "ok" | "skipped" | "failed";
  reason?: string;
  error_summary?: string;
}

export interface LoadedFile {
  rel: string;
  bytes: Buffer;
  language: LanguageInfo;
  decoded: DecodedText;
  lines: LineIndex;
  tree: Parser.Tree;
  outcome: Outcome;
}

/** Files past this size are skipped, as an indexer would, rather than parsed for seconds. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export type Loaded = { ok: true; file: LoadedFile } | { ok: false; rel: string; outcome: Outcome };

function bounded(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 300 ? `${clipText(one, 297)}...` : one;
}

/**
 * Resolves and parses `userPath`. Errors that concern the request (outside the root, missing
 * file, a directory) throw; conditions of the file itself (unknown language, binary, too
 * large, unreadable) come back as an outcome so the payload can still be printed.
 */
export function loadFile(root: string, userPath: string): Loaded {
  const { abs, rel } = resolveInRoot(CODEINTEL_TOOL, root, userPath);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new ToolError({
      code: commonCode(CODEINTEL_TOOL, "file_not_found"),
      error: "file_not_found",
      message: `no such file: ${rel}`,
      remediation: "Pass --file an existing file, relative to the workspace root or the current directory.",
      exitCode: EXIT.failure,
    });
  }
  if (!st.isFile()) {
    throw new ToolError({
      code: commonCode(CODEINTEL_TOOL, "invalid_request"),
      error: "not_a_file",
      message: `${rel} is not a regular file`,
      remediation: "Pass --file a file, not a directory.",
      exitCode: EXIT.usage,
    });
  }
  return loadEntry(abs, rel, st.size);
}

/** Loads a file already known to be inside the root (from the walk). */
export function loadEntry(abs: string, rel: string, size?: number): Loaded {
  const language = languageForPath(rel);
  if (!language) return { ok: false, rel, outcome: { status: "skipped", reason: "unsupported_language" } };
  if ((size ?? statSync(abs).size) > MAX_FILE_BYTES) {
    return { ok: false, rel, outcome: { status: "skipped", reason: "file_too_large", error_summary: `larger than ${MAX_FILE_BYTES} bytes` } };
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    return { ok: false, rel, outcome: { status: "failed", reason: `read_failed (${language.id})`, error_summary: bounded((e as Error).message) } };
  }
  if (isBinary(bytes)) return { ok: false, rel, outcome: { status: "skipped", reason: "binary_file" } };
  const decoded = decodeBytes(bytes);
  const id = refineLanguage(language.id, rel, decoded.text);
  let tree: Parser.Tree;
  try {
    tree = parse(id, decoded.text, parseDeadline());
  } catch (e) {
    // An add-on that never loaded is the install's fault, not this file's: the run says so.
    if (e instanceof NativeModuleError) throw e;
    // (A parse past its time budget: skipped, as the index skips it.)
    if (e instanceof ExtractionBudgetError) return { ok: false, rel, outcome: { status: "skipped", reason: "too_large_to_index", error_summary: e.message } };
    return { ok: false, rel, outcome: { status: "failed", reason: `parse_failed (${language.id})`, error_summary: bounded((e as Error).message) } };
  }
  const outcome: Outcome = { status: "ok" };
  if (hasSyntaxErrors(tree.rootNode)) {
    outcome.reason = "syntax_errors";
    outcome.error_summary = "tree-sitter recovered from syntax errors; ERROR nodes and MISSING ones (is_missing: true; ast-query --kinds MISSING) are in the tree";
  }
  if (!decoded.valid) {
    outcome.reason = outcome.reason ? `${outcome.reason}, invalid_utf8` : "invalid_utf8";
  }
  return { ok: true, file: { rel, bytes, language: languageInfo(id), decoded, lines: new LineIndex(bytes), tree, outcome } };
}
