import { type CommonFault, commonCode } from "../contract/codes.js";
import { EXIT, type ExitCode, ToolError } from "../contract/errors.js";

/** A pipeline failure, coded for the calling tool (LLMTRANSFORM_E012, SPLICE_E012, ...). */
export function changeError(
  tool: string,
  fault: CommonFault,
  message: string,
  remediation: string,
  extra: { file?: string; note?: string; exitCode?: ExitCode } = {},
): ToolError {
  return new ToolError({
    code: commonCode(tool, fault),
    error: fault,
    message,
    remediation,
    file: extra.file,
    note: extra.note,
    exitCode: extra.exitCode ?? EXIT.failure,
  });
}
