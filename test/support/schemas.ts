import type { z } from "zod";
import { QueryErrorResponseSchema } from "../../src/contract/schema.js";
import { LlmfilewriteResponseSchema } from "../../src/contract/tools/llmfilewrite.js";
import { LlmtransformResponseSchema } from "../../src/contract/tools/llmtransform.js";
import { SpliceResponseSchema } from "../../src/contract/tools/splice.js";
import { mdselSchema } from "../mdsel/pick.js";
import { LlmastsearchResponseSchema } from "../../src/contract/tools/llmastsearch.js";
import { codeintelPicker } from "../codeintel/pick.js";
import { magellanResponseSchema } from "../../src/contract/tools/magellan.js";
import {
  LlmsearchCountResponseSchema,
  LlmsearchFileListResponseSchema,
  LlmsearchTypeListResponseSchema,
  LlmsearchFilesWithoutMatchResponseSchema,
  LlmsearchFilesWithMatchesResponseSchema,
  LlmsearchResponseSchema,
} from "../../src/contract/tools/llmsearch.js";
import { DaemonResponseSchema } from "../../src/contract/tools/daemon.js";

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
  // magellan's graph commands: pass their picker to codeintelPicker(...).
  magellan: codeintelPicker(queryPicker((args) => magellanResponseSchema(args.find((a) => !a.startsWith("-")) ?? ""))),
  llmsearch: queryPicker((args) =>
    args.includes("--type-list")
      ? LlmsearchTypeListResponseSchema
      : args.includes("--files")
      ? LlmsearchFileListResponseSchema
      : args.includes("--files-without-match")
      ? LlmsearchFilesWithoutMatchResponseSchema
      : args.includes("-l") || args.includes("--files-with-matches")
        ? LlmsearchFilesWithMatchesResponseSchema
        : args.includes("--count") || args.includes("-c") || args.includes("--count-matches")
          ? LlmsearchCountResponseSchema
          : LlmsearchResponseSchema,
  ),
  llmfilewrite: () => LlmfilewriteResponseSchema,
  // llmtools daemon start|stop|status (src/server/commands.ts) print envelopes; mcp speaks MCP,
  // and usage errors are query error envelopes.
  llmtools: queryPicker(() => DaemonResponseSchema),
  splice: () => SpliceResponseSchema,
};

export function schemaFor(tool: string, args: string[], exitCode: number): z.ZodType {
  const pick = registry[tool];
  if (!pick) throw new Error(`no contract schema registered for tool '${tool}' in test/support/schemas.ts`);
  return pick(args, exitCode);
}
