import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import {
  DiagnosticSchema,
  ErrorResponseSchema,
  MatchSchema,
  QueryErrorResponseSchema,
  ReferenceMatchSchema,
  SpanSchema,
  SymbolMatchSchema,
} from "./schema.js";

/**
 * Every published schema by file name. Core shapes are listed here; each tool's shapes live in
 * `contract/tools/<tool>.ts`, which exports `schemas: Record<string, z.ZodType>` and is found by
 * folder listing, so adding a tool never edits this file.
 */
export async function allSchemas(): Promise<Map<string, z.ZodType>> {
  const out = new Map<string, z.ZodType>([
    ["span", SpanSchema],
    ["diagnostic", DiagnosticSchema],
    ["error-response", ErrorResponseSchema],
    ["match", MatchSchema],
    ["symbol-match", SymbolMatchSchema],
    ["reference-match", ReferenceMatchSchema],
    ["query-error-response", QueryErrorResponseSchema],
  ]);
  const dir = fileURLToPath(new URL("./tools/", import.meta.url));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .sort();
  for (const f of files) {
    const mod = (await import(new URL(`./tools/${f}`, import.meta.url).href)) as { schemas?: Record<string, z.ZodType> };
    for (const [name, schema] of Object.entries(mod.schemas ?? {})) {
      if (out.has(name)) throw new Error(`schema name '${name}' defined twice (contract/tools/${f})`);
      out.set(name, schema);
    }
  }
  return out;
}

/** The JSON text of each schema file, deterministic so a drift check can compare bytes. */
export async function renderSchemas(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [name, schema] of await allSchemas()) {
    const json = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" });
    const doc = { $id: `https://llmtools.local/schemas/${name}.schema.json`, title: name, ...json };
    out.set(`${name}.schema.json`, `${JSON.stringify(doc, null, 2)}\n`);
  }
  return out;
}
