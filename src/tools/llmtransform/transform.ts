/**
 * llmtransform as a plain function: request -> outcome. Reads the file, checks the checksum,
 * plans the edits (plan.ts) and commits the result through the shared change pipeline
 * (src/change/): under a lock every writer of the toolset honours, the file is re-read and must
 * still hold the bytes the plan was made from, then a temp file is renamed over it. Every failure
 * leaves the file's bytes as they were.
 */
import { W_OK, X_OK } from "node:constants";
import { accessSync, lstatSync, readFileSync, realpathSync, statSync, type Stats } from "node:fs";
import { isUtf8 } from "node:buffer";
import { basename, dirname, relative, sep } from "node:path";
import { EXIT, type ExitCode, ToolError } from "../../contract/errors.js";
import type { Diagnostic } from "../../contract/schema.js";
import type { LlmtransformResult } from "../../contract/tools/llmtransform.js";
import { assertWritablePath, commitChange } from "../../change/index.js";
import { checksum } from "../../text/checksum.js";
import { resolveInRoot } from "../../text/root.js";
import { utf16Bom } from "../../text/utf16.js";
import { CODES, TOOL } from "./codes.js";
import { planEdits } from "./plan.js";
import type { EditRequest } from "./request.js";

export interface TransformOptions {
  /** Real absolute workspace root. */
  root: string;
  cwd?: string;
  /** Compute everything, write nothing. */
  dryRun?: boolean;
  /** Apply the valid edits and report the others (default: all or nothing). */
  partial?: boolean;
  /** Test hook: runs after the temp file is written and synced, before the re-check and rename. */
  beforeRename?: (tempPath: string) => void;
}

export interface TransformOutcome {
  status: "ok" | "partial" | "error";
  message: string;
  exitCode: ExitCode;
  result: LlmtransformResult;
  error?: Diagnostic;
  diagnostics: Diagnostic[];
}

function note(code: string, message: string, level: Diagnostic["level"] = "note", file?: string): Diagnostic {
  const d: Diagnostic = { tool: TOOL, level, message, code };
  if (file !== undefined) d.file = file;
  return d;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export async function transform(req: EditRequest, options: TransformOptions): Promise<TransformOutcome> {
  const { abs, rel } = resolveInRoot(TOOL, options.root, req.file_path, options.cwd);
  let st: Stats;
  try {
    st = statSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new ToolError({
        code: CODES.file_not_found,
        error: "file_not_found",
        message: `${rel}: no such file`,
        file: rel,
        remediation: "llmtransform edits existing files only; check the path (relative to the workspace root) or create the file with llmfilewrite.",
      });
    }
    throw ioError(rel, e);
  }
  if (!st.isFile()) {
    throw new ToolError({
      code: CODES.not_regular_file,
      error: "not_regular_file",
      // The root itself is "" relative to it: say so rather than print an empty name.
      message: `${rel || "the workspace root"} is not a regular file${st.isDirectory() ? " (a directory)" : ""}`,
      file: rel,
      remediation: "Name a regular file; directories, devices and pipes cannot be edited.",
    });
  }
  // .git/, .magellan/, .splice/ (and links into them) are never edited, not even in a dry run.
  assertWritablePath(options.root, rel, TOOL);
  // Write through a symlink to its target: renaming over the link would replace the link itself.
  // resolveInRoot has already refused links that lead outside the root.
  let target: string;
  try {
    target = realpathSync(abs);
  } catch (e) {
    throw ioError(rel, e);
  }
  let original: Buffer;
  try {
    original = readFileSync(target);
  } catch (e) {
    throw ioError(rel, e);
  }
  const current = checksum(original);
  if (current !== req.expected_checksum) {
    throw new ToolError({
      code: CODES.checksum_mismatch,
      error: "checksum_mismatch",
      message: `${rel} has changed since the edits were computed: expected ${req.expected_checksum}, found ${current}; nothing written`,
      file: rel,
      note: `current checksum: ${current}`,
      remediation: `Re-read ${rel}, recompute the edits against its current bytes, and retry with --expected-checksum ${current}.`,
    });
  }

  const plan = planEdits(original, rel, req.edits, { partial: options.partial });
  const diagnostics: Diagnostic[] = [];
  const n = req.edits.length;
  const changes = plan.applied > 0 && !plan.output.equals(original);
  const result: LlmtransformResult = {
    type: "edit",
    file_path: rel,
    original_checksum: current,
    final_checksum: current,
    total_byte_shift: plan.applied > 0 ? plan.totalByteShift : 0,
    applied_count: plan.applied,
    skipped_count: plan.skipped,
    error_count: plan.errors,
    dry_run: Boolean(options.dryRun),
    written: false,
    edits: plan.edits,
  };

  if (n === 0) {
    diagnostics.push(note(CODES.no_edits, `no edits in the request; the checksum of ${rel} matched and the file was left untouched`, "note", rel));
  }
  if (isSymlink(abs)) diagnostics.push(note(CODES.symlink_followed, `${rel} is a symlink; edited its target`, "note", rel));
  // A file in another encoding (Latin-1, Windows-1252) keeps its bytes outside the edits, but the
  // new text goes in as UTF-8: its non-ASCII characters then read as other characters there.
  const nonAscii = plan.edits.some((e) => e.status === "applied" && /[^\x00-\x7f]/.test(req.edits[e.index]?.new_content ?? ""));
  if (nonAscii && !utf16Bom(original) && !isUtf8(original)) {
    diagnostics.push({
      ...note(CODES.mixed_encoding, `${rel} is not valid UTF-8 (another encoding, such as Latin-1?) and the new text's non-ASCII characters go in as UTF-8: the file mixes encodings`, "warning", rel),
      remediation: `Re-encode ${rel} as UTF-8 first, or write its non-ASCII characters in the file's own encoding (or as escapes the language allows).`,
    });
  }

  // The bytes go in as given (CRLF untouched), so "\n" in the text of an edit to a CRLF file
  // (jackson-core's mvnw.cmd, spdlog's README.md) leaves it with both line endings: git shows
  // every such line changed on checkout with autocrlf, and cmd.exe misreads labels after LF-only
  // lines. Said, not changed: the caller chose these bytes.
  if (!utf16Bom(original)) {
    const style = lineEndings(original);
    const other = style === "crlf" ? /(?<!\r)\n/ : style === "lf" ? /\r\n/ : undefined;
    const odd = other ? plan.edits.filter((e) => e.status === "applied" && other.test(req.edits[e.index]?.new_content ?? "")).map((e) => e.index) : [];
    if (odd.length > 0) {
      const have = style === "crlf" ? "CRLF (\\r\\n)" : "LF (\\n)";
      const put = style === "crlf" ? "bare LF (\\n)" : "CRLF (\\r\\n)";
      diagnostics.push({
        ...note(CODES.mixed_line_endings, `${rel} ends every line with ${have}, and the new text of ${odd.length === 1 ? "edit" : "edits"} ${odd.join(", ")} has ${put} line breaks: the file now mixes line endings`, "warning", rel),
        remediation: `Write the line breaks of new_content as ${have}, as the rest of ${rel} has them.`,
      });
    }
  }

  if (plan.applied === 0 && plan.errors > 0) {
    const message = options.partial
      ? `none of the ${plural(n, "edit")} to ${rel} is valid; nothing written`
      : `${plural(plan.errors, "invalid edit")} of ${n} to ${rel}; nothing written (all or nothing: pass --partial to apply the valid ones)`;
    return {
      status: "error",
      message,
      exitCode: EXIT.failure,
      result,
      error: invalidEditsDiagnostic(message, rel, plan.edits),
      diagnostics,
    };
  }

  if (plan.applied > 0) result.final_checksum = checksum(plan.output);
  if (changes && !options.dryRun) {
    assertWritable(target, rel);
    if (st.nlink > 1) {
      diagnostics.push(
        note(
          CODES.hard_links,
          `${rel} had ${st.nlink} hard links; the atomic rename gave this name a new file, the other links keep the old bytes`,
          "warning",
          rel,
        ),
      );
    }
    try {
      // The shared change pipeline: a per-file lock held by every writer of the toolset from the
      // re-read through the rename, so two llmtransform calls with the same expected checksum
      // cannot both apply (issue 18.1); the directory is re-checked at write time (18.4).
      const commit = await commitChange(
        { root: options.root, tool: TOOL, command: `edit ${rel}`, files: [{ path: toRootRel(options.root, target), before: original, after: plan.output }] },
        { beforeRename: options.beforeRename ? (temps) => temps.forEach((t) => options.beforeRename?.(t)) : undefined },
      );
      for (const t of commit.removed_temps ?? []) diagnostics.push(note(CODES.stale_temp_removed, `removed ${basename(t)}, left beside ${rel} by an interrupted run`, "note", rel));
    } catch (e) {
      if (e instanceof ToolError) {
        if (e.error === "changed_on_disk") {
          throw new ToolError({
            code: CODES.changed_during_write,
            error: "changed_during_write",
            message: `${rel} was changed by someone else while llmtransform was writing it; nothing written`,
            file: rel,
            note: e.message,
            remediation: `Re-read ${rel}, recompute the edits, and retry with its new checksum.`,
          });
        }
        throw e;
      }
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EACCES" || code === "EPERM" || code === "EROFS") throw readOnly(rel, `cannot write next to ${rel} (${code})`);
      throw ioError(rel, e);
    }
    result.written = true;
  } else if (changes && options.dryRun) {
    const why = writeBlocker(target);
    if (why) diagnostics.push(note(CODES.read_only, `dry run: a real run would fail: ${why}`, "warning", rel));
  } else if (plan.applied > 0) {
    diagnostics.push(note(CODES.no_edits, `the edits leave ${rel} byte-identical; nothing written`, "note", rel));
  }

  const dry = options.dryRun ? "dry run: " : "";
  const verb = options.dryRun ? "would apply" : "applied";
  const tail = options.dryRun ? "; nothing written" : "";
  if (plan.errors > 0) {
    const message = `${dry}${verb} ${plan.applied} of ${n} edits to ${rel}; ${plural(plan.errors, "edit")} rejected${tail}`;
    return { status: "partial", message, exitCode: EXIT.partial, result, diagnostics };
  }
  const message = `${dry}${verb} ${plural(plan.applied, "edit")} to ${rel}${tail}`;
  return { status: "ok", message, exitCode: EXIT.ok, result, diagnostics };
}

function isSymlink(abs: string): boolean {
  try {
    return lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

function toRootRel(root: string, abs: string): string {
  const r = relative(root, abs);
  return sep === "/" ? r : r.split(sep).join("/");
}

function invalidEditsDiagnostic(message: string, rel: string, edits: LlmtransformResult["edits"]): Diagnostic {
  const bad = edits.filter((e) => e.error);
  const listed = bad
    .slice(0, 5)
    .map((e) => `${e.error?.code}: ${e.error?.message}`)
    .join("; ");
  return {
    tool: TOOL,
    level: "error",
    message,
    file: rel,
    code: CODES.invalid_edits,
    note: bad.length > 5 ? `${listed}; and ${bad.length - 5} more` : listed,
    remediation: "Fix the edits whose status is \"error\" in result.edits (each says why), or pass --partial to apply the valid ones.",
  };
}

function ioError(rel: string, e: unknown): ToolError {
  return new ToolError({
    code: CODES.io_error,
    error: "io_error",
    message: `${rel}: ${(e as Error).message}`,
    file: rel,
    remediation: "Check that the file is readable and the disk is healthy; the file was not changed.",
  });
}

function readOnly(rel: string, why: string): ToolError {
  return new ToolError({
    code: CODES.read_only,
    error: "read_only",
    message: `${rel} is read-only: ${why}; nothing written`,
    file: rel,
    remediation: "Make the file and its directory writable (e.g. chmod u+w) if it is meant to be edited.",
  });
}

/**
 * Why the file could not be replaced, or undefined. A file or directory without any write bit
 * counts as read-only even for root, who could write it anyway: a 0444 file says "do not edit".
 */
function writeBlocker(target: string): string | undefined {
  const dir = dirname(target);
  let fileMode: number;
  let dirMode: number;
  try {
    fileMode = statSync(target).mode & 0o7777;
    dirMode = statSync(dir).mode & 0o7777;
  } catch {
    // Moved away meanwhile: the commit re-checks everything under its lock and says what happened.
    return undefined;
  }
  if ((fileMode & 0o222) === 0) return `the file's mode is ${fileMode.toString(8).padStart(4, "0")} (no write permission)`;
  if ((dirMode & 0o222) === 0) return `its directory's mode is ${dirMode.toString(8).padStart(4, "0")} (no write permission)`;
  try {
    accessSync(target, W_OK);
    accessSync(dir, W_OK | X_OK);
  } catch (e) {
    return `no write permission (${(e as NodeJS.ErrnoException).code})`;
  }
  return undefined;
}

function assertWritable(target: string, rel: string): void {
  const why = writeBlocker(target);
  if (why) throw readOnly(rel, why);
}

/** "crlf" when every line break of the bytes is CRLF, "lf" when none is, undefined when mixed or none. */
function lineEndings(bytes: Buffer): "crlf" | "lf" | undefined {
  let crlf = 0;
  let lf = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) {
    if (i > 0 && bytes[i - 1] === 13) crlf++;
    else lf++;
    if (crlf > 0 && lf > 0) return undefined;
  }
  return crlf > 0 ? "crlf" : lf > 0 ? "lf" : undefined;
}
