import type { z } from "zod";
import { QueryErrorResponseSchema } from "../../src/contract/schema.js";
import { LlmtransformResponseSchema } from "../../src/contract/tools/llmtransform.js";
import { mdselSchema } from "../mdsel/pick.js";
import { LlmastsearchResponseSchema } from "../../src/contract/tools/llmastsearch.js";

/**
 * Which contract schema a tool's output must satisfy, given its argv and exit code. Each tool
 * adds one entry to `registry` when it lands; an unregistered tool fails the test loudly.
 */
export type Picker = (args: string[], exitCode: number) => z.ZodType;

/** For query tools: the data schema on success, ErrorResponse on failure. */
export function queryPicker(ok: (args: string[]) => z.ZodType): Picker {
  return (args, exitCode) => (exitCode === 1 || exitCode === 2 ? QueryErrorResponseSchema : ok(args));
}

const registry: Record<string, Picker> = {
  mdsel: mdselSchema,
  llmtransform: () => LlmtransformResponseSchema,
  llmastsearch: queryPicker(() => LlmastsearchResponseSchema),
  // one line per tool, e.g.  llmsearch: queryPicker(() => LlmsearchResponseSchema),
};

export function schemaFor(tool: string, args: string[], exitCode: number): z.ZodType {
  const pick = registry[tool];
  if (!pick) throw new Error(`no contract schema registered for tool '${tool}' in test/support/schemas.ts`);
  return pick(args, exitCode);
}
