/**
 * The envelopes of CONTRACT.md, built once for every adapter (CLI, daemon, MCP server): a query
 * envelope, a mutation envelope (OperationResult), and the error envelope of either kind.
 */
import type { ToolError } from "./errors.js";
import { executionId, timestamp } from "./ids.js";
import type { Diagnostic } from "./schema.js";
import { SCHEMA_VERSION } from "./version.js";

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

export type EnvelopeKind =
  | { kind: "query"; command: string }
  | { kind: "operation"; operationType: string }
  | { kind: "custom"; errorEnvelope: (err: ToolError) => unknown };

/** The envelope a ToolError becomes, for a query tool or a mutation tool. */
export function errorEnvelope(tool: string, kind: EnvelopeKind, err: ToolError): unknown {
  switch (kind.kind) {
    case "query":
      return queryEnvelope(tool, kind.command, err.toErrorResponse(), { partial: err.partial, diagnostics: [err.toDiagnostic(tool), ...err.diagnostics] });
    case "operation":
      return operationEnvelope(tool, kind.operationType, "error", err.message, { error: err.toDiagnostic(tool), diagnostics: err.diagnostics });
    case "custom":
      return kind.errorEnvelope(err);
  }
}
