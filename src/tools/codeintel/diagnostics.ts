/** What the code-intelligence payloads say beside their data, for the CLI and the MCP server alike. */
import type { Diagnostic } from "../../contract/schema.js";
import { MAGELLAN_CODES } from "../../graph/codes.js";
import { CODEINTEL_TOOL } from "./codes.js";

/** A file's outcome that is not `ok` (unsupported, skipped, failed), as a diagnostic. */
export function outcomeDiagnostics(file: string, outcome: { status: string; reason?: string; error_summary?: string } | undefined): Diagnostic[] {
  if (!outcome || outcome.status === "ok") return [];
  return [
    {
      tool: CODEINTEL_TOOL,
      level: outcome.status === "failed" ? "error" : "warning",
      message: `${file}: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ""}${outcome.error_summary ? `: ${outcome.error_summary}` : ""}`,
      file,
      code: outcome.reason === "unsupported_language" ? "MAGELLAN_E186" : outcome.status === "failed" ? "MAGELLAN_E187" : "MAGELLAN_E188",
      remediation:
        outcome.reason === "unsupported_language"
          ? "Only files of the registry's languages (rust, python, c, cpp, java, javascript, typescript, tsx, go) have symbols and trees."
          : outcome.reason === "too_large_to_index"
            ? "The file is beyond what one extraction may cost (generated code?); read or search its text instead (llmsearch)."
            : "The file could not be parsed as source text; see the outcome.",
    },
  ];
}

/** The symbols payload's diagnostics: its outcome's, and why a file that parsed has no symbol. */
export function symbolsDiagnostics(payload: { file: string; symbols: unknown[]; outcome?: { status: string; reason?: string; error_summary?: string } }): Diagnostic[] {
  const out = outcomeDiagnostics(payload.file, payload.outcome);
  if (out.length === 0 && payload.symbols.length === 0) {
    out.push({
      tool: CODEINTEL_TOOL,
      level: "note",
      code: MAGELLAN_CODES.no_matches,
      message: `${payload.file} defines no symbol: it has no function, type, class, method, field or module-level variable definition (declarations without a body, such as C prototypes, and local variables are not symbols)`,
      file: payload.file,
    });
  }
  return out;
}
