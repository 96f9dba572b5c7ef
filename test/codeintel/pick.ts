import type { z } from "zod";
import {
  MagellanAstQueryResponseSchema,
  MagellanAstResponseSchema,
  MagellanSymbolsResponseSchema,
} from "../../src/contract/tools/codeintel.js";
import { type Picker, queryPicker } from "../support/schemas.js";

const BY_COMMAND: Record<string, z.ZodType> = {
  symbols: MagellanSymbolsResponseSchema,
  ast: MagellanAstResponseSchema,
  "ast-query": MagellanAstQueryResponseSchema,
};

/**
 * The magellan picker for the seed 04 subcommands (symbols, ast, ast-query); every other
 * magellan command goes to `others` (the graph commands' picker).
 */
export function codeintelPicker(others?: Picker): Picker {
  return (args, exitCode) => {
    const command = args.find((a) => !a.startsWith("-"));
    const schema = command !== undefined ? BY_COMMAND[command] : undefined;
    if (schema) return queryPicker(() => schema)(args, exitCode);
    if (others) return others(args, exitCode);
    throw new Error(`no contract schema registered for 'magellan ${command ?? ""}' in test/support/schemas.ts`);
  };
}
