/** Error codes of the MCP server's own faults (the tools keep theirs). */
import { commonCode, errorCode } from "../contract/codes.js";

export const MCP_TOOL = "llmtools";

export const MCP_CODES = {
  usage: commonCode(MCP_TOOL, "usage"),
  path_outside_root: commonCode(MCP_TOOL, "path_outside_root"),
  invalid_root: commonCode(MCP_TOOL, "invalid_root"),
  invalid_request: commonCode(MCP_TOOL, "invalid_request"),
  internal: commonCode(MCP_TOOL, "internal"),
  bad_cursor: errorCode(MCP_TOOL, "E101"),
  no_root: errorCode(MCP_TOOL, "E102"),
  arguments_too_large: errorCode(MCP_TOOL, "E103"),
  /** Warning: a write succeeded but the code graph could not take it in (magellan_index does). */
  index_not_refreshed: errorCode(MCP_TOOL, "E104"),
} as const;
