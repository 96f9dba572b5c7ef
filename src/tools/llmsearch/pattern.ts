/**
 * llmsearch's patterns: the shared translator (src/text/regex.ts) with its refusals worded as
 * llmsearch's errors (stable codes, exit 2).
 */
import { EXIT, ToolError } from "../../contract/errors.js";
import { type CompiledPattern, type PatternOptions, PatternError, anyOf, canMatchNewline as canMatchNewlineOf, compilePattern as translate, questionOf } from "../../text/regex.js";
import { LLMSEARCH_CODES } from "./codes.js";

export { type CompiledPattern, type PatternOptions, anyOf, questionOf };

function asToolError(e: unknown): unknown {
  if (!(e instanceof PatternError)) return e;
  switch (e.kind) {
    case "unsupported":
      return new ToolError({
        code: LLMSEARCH_CODES.pattern_unsupported,
        error: "pattern_unsupported",
        message: `pattern uses ${e.detail}, which llmsearch's regex engine (JavaScript RegExp) cannot express`,
        remediation: e.remediation,
        exitCode: EXIT.usage,
      });
    case "newline":
      return new ToolError({ code: LLMSEARCH_CODES.pattern_newline, error: "pattern_newline", message: e.detail, remediation: e.remediation, exitCode: EXIT.usage });
    default:
      return new ToolError({
        code: LLMSEARCH_CODES.pattern_syntax,
        error: "pattern_syntax",
        message: e.detail,
        remediation: e.remediation,
        ...(e.translated !== undefined ? { note: `translated to ${e.translated}` } : {}),
        exitCode: EXIT.usage,
      });
  }
}

export function compilePattern(opts: PatternOptions): CompiledPattern {
  try {
    return translate(opts);
  } catch (e) {
    throw asToolError(e);
  }
}

export function canMatchNewline(opts: PatternOptions, compiled: CompiledPattern): boolean {
  try {
    return canMatchNewlineOf(opts, compiled);
  } catch (e) {
    throw asToolError(e);
  }
}
