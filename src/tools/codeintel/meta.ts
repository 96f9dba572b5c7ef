/**
 * Seed 04's `schema` object and a reader for stored payloads that honours its compatibility
 * rule: a payload is accepted when its name is the family asked for and its `compatible` range
 * includes the version this implementation speaks; payloads written before the `schema`
 * object existed are accepted and given the current one in memory.
 */
import type { z } from "zod";
import { errorCode } from "../../contract/codes.js";
import { EXIT, ToolError } from "../../contract/errors.js";
import {
  AstPayloadSchema,
  AstQueryPayloadSchema,
  SymbolsPayloadSchema,
  type AstPayload,
  type AstQueryPayload,
  type SymbolsPayload,
} from "../../contract/tools/codeintel.js";
import { CODEINTEL_CODES, CODEINTEL_TOOL } from "./codes.js";

export const PAYLOAD_FAMILIES = {
  symbols: { name: "docdex.symbols", version: 1 },
  ast: { name: "docdex.ast", version: 1 },
  ast_query: { name: "docdex.ast_query", version: 1 },
} as const;
export type PayloadFamily = keyof typeof PAYLOAD_FAMILIES;

export interface SchemaMeta<N extends string = string> {
  name: N;
  version: number;
  compatible: { min: number; max: number };
}

export function schemaMeta<F extends PayloadFamily>(family: F): SchemaMeta<(typeof PAYLOAD_FAMILIES)[F]["name"]> {
  const { name, version } = PAYLOAD_FAMILIES[family];
  return { name, version, compatible: { min: version, max: version } };
}

interface PayloadTypes {
  symbols: SymbolsPayload;
  ast: AstPayload;
  ast_query: AstQueryPayload;
}

const BODY: Record<PayloadFamily, z.ZodType> = {
  symbols: SymbolsPayloadSchema,
  ast: AstPayloadSchema,
  ast_query: AstQueryPayloadSchema,
};

function fault(num: string, error: string, message: string, remediation: string): ToolError {
  return new ToolError({ code: errorCode(CODEINTEL_TOOL, num), error, message, remediation, exitCode: EXIT.failure });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Reads a stored payload of `family` (a parsed JSON value, or the JSON text). Rejects a
 * different schema name, a compatibility range that excludes the version implemented here, and
 * a body that does not have the family's shape. The result carries the current `schema` object.
 */
export function readPayload<F extends PayloadFamily>(family: F, input: unknown): PayloadTypes[F] {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input) as unknown;
    } catch (e) {
      throw fault(CODEINTEL_CODES.payload_invalid, "payload_invalid", `stored ${family} payload is not JSON: ${(e as Error).message}`, "Regenerate the payload with the magellan command that produced it.");
    }
  }
  if (!isRecord(value)) {
    throw fault(CODEINTEL_CODES.payload_invalid, "payload_invalid", `stored ${family} payload is not a JSON object`, "Regenerate the payload with the magellan command that produced it.");
  }
  const expected = PAYLOAD_FAMILIES[family];
  const current = schemaMeta(family);
  const meta = value.schema;
  if (meta === undefined) {
    // Legacy payload from before the schema object: accepted, migrated in memory.
    value = { schema: current, ...value };
  } else {
    if (!isRecord(meta) || typeof meta.name !== "string") {
      throw fault(CODEINTEL_CODES.payload_invalid, "payload_invalid", "payload `schema` object has no string `name`", "Regenerate the payload with the magellan command that produced it.");
    }
    if (meta.name !== expected.name) {
      throw fault(
        CODEINTEL_CODES.schema_name_mismatch,
        "schema_name_mismatch",
        `payload schema is '${meta.name}', expected '${expected.name}'`,
        `Read this payload with the reader for '${meta.name}', or regenerate a ${family} payload.`,
      );
    }
    const compat = meta.compatible;
    const min = isRecord(compat) ? compat.min : undefined;
    const max = isRecord(compat) ? compat.max : undefined;
    if (typeof min !== "number" || typeof max !== "number" || !Number.isInteger(min) || !Number.isInteger(max)) {
      throw fault(CODEINTEL_CODES.payload_invalid, "payload_invalid", "payload `schema.compatible` lacks integer `min`/`max`", "Regenerate the payload with the magellan command that produced it.");
    }
    if (expected.version < min || expected.version > max) {
      throw fault(
        CODEINTEL_CODES.schema_incompatible,
        "schema_incompatible",
        `payload ${meta.name} version ${String(meta.version)} is compatible with ${min}..${max}; this reader implements version ${expected.version}`,
        "Reindex with this version of magellan to rewrite the payload in a compatible version.",
      );
    }
    // A newer payload whose range includes our version is read as our version.
    value = { ...value, schema: current };
  }
  const parsed = BODY[family].safeParse(value);
  if (!parsed.success) {
    throw fault(
      CODEINTEL_CODES.payload_invalid,
      "payload_invalid",
      `stored ${family} payload does not have the ${expected.name} shape: ${parsed.error.issues[0]?.message ?? "invalid"} at ${parsed.error.issues[0]?.path.join(".") ?? "?"}`,
      "Regenerate the payload with the magellan command that produced it.",
    );
  }
  return parsed.data as PayloadTypes[F];
}
