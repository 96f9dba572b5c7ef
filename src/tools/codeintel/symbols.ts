/**
 * The `docdex.symbols` payload for one file. Symbols come from the shared extractor
 * (src/lang/extract.ts), never from a second one; this module only shapes them as seed 04 says.
 */
import type { SymbolsPayload } from "../../contract/tools/codeintel.js";
import type { FileFacts } from "../../lang/extract-types.js";
import type { LanguageId } from "../../lang/registry.js";
import { ExtractionBudgetError } from "../../lang/budget.js";
import { clipText } from "../../text/clip.js";
import { rangeOf } from "./ast.js";
import { schemaMeta } from "./meta.js";
import type { Loaded, LoadedFile, Outcome } from "./source.js";

export type ExtractFn = (language: LanguageId, bytes: Uint8Array) => FileFacts;

/** First line of the definition, without a trailing `{`/`:`, bounded: a display signature. */
function signatureOf(file: LoadedFile, byteStart: number, byteEnd: number): string | undefined {
  const startIdx = file.decoded.toIndex(byteStart);
  const endIdx = file.decoded.toIndex(byteEnd);
  const text = file.decoded.text.slice(startIdx, endIdx);
  const firstLine = (text.split("\n")[0] ?? "").replace(/\r$/, "");
  const sig = firstLine.replace(/\s*[{:]?\s*$/, "").trim();
  if (sig.length === 0) return undefined;
  return sig.length > 200 ? `${clipText(sig, 197)}...` : sig;
}

export function symbolsPayload(repo: string, loaded: Loaded, extract: ExtractFn): SymbolsPayload {
  if (!loaded.ok) return { schema: schemaMeta("symbols"), repo_id: repo, file: loaded.rel, symbols: [], outcome: loaded.outcome };
  const file = loaded.file;
  let facts: FileFacts;
  try {
    facts = extract(file.language.id, file.bytes);
  } catch (e) {
    const msg = clipText((e as Error).message.replace(/\s+/g, " "), 300);
    // (Beyond a work budget is no failure to parse: the index skips such a file with this reason.)
    const outcome = e instanceof ExtractionBudgetError ? { status: "skipped" as const, reason: "too_large_to_index", error_summary: msg } : { status: "failed" as const, reason: `extract_failed (${file.language.id})`, error_summary: msg };
    return { schema: schemaMeta("symbols"), repo_id: repo, file: file.rel, symbols: [], outcome };
  }
  const symbols = facts.symbols.map((s) => {
    const range = rangeOf(file, file.decoded.toIndex(s.range.byte_start), file.decoded.toIndex(s.range.byte_end));
    const symbol_id = `${repo}:${file.rel}#${range.start_line}:${range.start_col}-${range.end_line}:${range.end_col}:${s.kind}:${s.name}`;
    const signature = signatureOf(file, s.range.byte_start, s.range.byte_end);
    return signature === undefined ? { symbol_id, name: s.name, kind: s.kind, range } : { symbol_id, name: s.name, kind: s.kind, range, signature };
  });
  return { schema: schemaMeta("symbols"), repo_id: repo, file: file.rel, symbols, outcome: extractionOutcome(file.outcome, facts.has_errors) };
}

const SYNTAX_ERRORS = "syntax_errors";

/**
 * The symbols come from extraction's parse, which reads C and C++ with their macros and header
 * guards masked and TypeScript with its grammar's gaps repaired (src/lang/preprocess.ts); the
 * loaded file's outcome is of a plain parse (the AST payload's tree). Whether the symbols were
 * read from a tree with syntax errors is extraction's to say: a C header whose only errors were
 * its `extern "C"` guards is no file with syntax errors here, as it is none in `magellan index`.
 */
function extractionOutcome(outcome: Outcome, hasErrors: boolean): Outcome {
  const had = (outcome.reason ?? "").split(", ").includes(SYNTAX_ERRORS);
  if (outcome.status !== "ok" || had === hasErrors) return outcome;
  const reasons = (outcome.reason ?? "").split(", ").filter((r) => r !== "" && r !== SYNTAX_ERRORS);
  if (hasErrors) reasons.unshift(SYNTAX_ERRORS);
  // (An ok file's only summary is the syntax errors' one.)
  const out: Outcome = { status: outcome.status };
  if (reasons.length > 0) out.reason = reasons.join(", ");
  if (hasErrors) out.error_summary = "tree-sitter recovered from syntax errors; the symbols are what it recovered";
  return out;
}
