import type { z } from "zod";
import { MdselEnvelopeSchema, MdselIndexEnvelopeSchema, MdselSelectEnvelopeSchema } from "../../src/contract/tools/mdsel.js";

/** mdsel's envelope by subcommand: the strict index/select shape, the union for usage errors. */
export function mdselSchema(args: string[], exitCode: number): z.ZodType {
  const valueFlags = new Set(["--max-bytes", "--root"]);
  let cmd: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (valueFlags.has(a)) i++;
    else if (!a.startsWith("-")) {
      cmd = a;
      break;
    }
  }
  if (cmd === "index") return MdselIndexEnvelopeSchema;
  if (cmd === "select") return MdselSelectEnvelopeSchema;
  if (exitCode !== 2) throw new Error(`mdsel ${args.join(" ")}: no subcommand but exit ${exitCode}`);
  return MdselEnvelopeSchema;
}
