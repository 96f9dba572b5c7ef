import { COMMON_CODES, errorCode } from "../../contract/codes.js";
import type { MdselErrorEntry } from "../../contract/tools/mdsel.js";

export const TOOL = "mdsel";

/** Stable codes: shared faults use the common numbers, mdsel's own start at E100. */
export const MDSEL_CODES = {
  usage: errorCode(TOOL, COMMON_CODES.usage),
  file_not_found: errorCode(TOOL, COMMON_CODES.file_not_found),
  io_error: errorCode(TOOL, COMMON_CODES.io_error),
  binary_file: errorCode(TOOL, COMMON_CODES.binary_file),
  file_too_large: errorCode(TOOL, COMMON_CODES.file_too_large),
  internal: errorCode(TOOL, COMMON_CODES.internal),
  invalid_utf8: errorCode(TOOL, "E101"),
  invalid_selector: errorCode(TOOL, "E102"),
  selector_not_found: errorCode(TOOL, "E103"),
  namespace_not_found: errorCode(TOOL, "E104"),
  parser_failed: errorCode(TOOL, "E105"),
  no_documents: errorCode(TOOL, "E106"),
  // The common number, as every tool and the MCP server's own root check give it: the CLI said
  // MDSEL_E107 where MCP said MDSEL_E001 for the same refusal (E107 stays retired).
  outside_root: errorCode(TOOL, COMMON_CODES.path_outside_root),
} as const;

export type ErrorEntry = MdselErrorEntry;

/** An expected per-file or per-selector failure; becomes one ErrorEntry, never a crash. */
export class MdselFault extends Error {
  constructor(readonly entry: ErrorEntry) {
    super(entry.message);
    this.name = "MdselFault";
  }
}
