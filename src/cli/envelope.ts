import { executionId, timestamp } from "../contract/ids.js";
import type { Diagnostic } from "../contract/schema.js";
import { SCHEMA_VERSION } from "../contract/version.js";

/** CONTRACT.md query envelope: JsonResponse + command + diagnostics. */
export function queryEnvelope(
  tool: string,
  command: string,
  data: unknown,
  extra: { partial?: boolean; diagnostics?: Diagnostic[] } = {},
): Record<string, unknown> {
  const env: Record<string, unknown> = {
    schema_version: SCHEMA_VERSION,
    execution_id: executionId(),
    tool,
    command,
    timestamp: timestamp(),
    partial: extra.partial ?? false,
    data,
  };
  if (extra.diagnostics && extra.diagnostics.length > 0) env.diagnostics = extra.diagnostics;
  return env;
}

export type OperationStatus = "ok" | "error" | "partial" | "approved" | "rejected";

/** CONTRACT.md mutation envelope: seed 02's OperationResult. */
export function operationEnvelope(
  tool: string,
  operationType: string,
  status: OperationStatus,
  message: string,
  extra: { workspace?: string; result?: unknown; error?: Diagnostic; diagnostics?: Diagnostic[] } = {},
): Record<string, unknown> {
  const env: Record<string, unknown> = {
    schema_version: SCHEMA_VERSION,
    execution_id: executionId(),
    tool,
    operation_type: operationType,
    status,
    message,
    timestamp: timestamp(),
  };
  if (extra.workspace !== undefined) env.workspace = extra.workspace;
  if (extra.result !== undefined) env.result = extra.result;
  if (extra.error !== undefined) env.error = extra.error;
  if (extra.diagnostics && extra.diagnostics.length > 0) env.diagnostics = extra.diagnostics;
  return env;
}
