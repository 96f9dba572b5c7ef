import { ToolError } from "../../src/contract/errors.js";

/** For assert.rejects: a ToolError with this code (and a message matching `message`). */
export function isToolError(e: unknown, code: string, message?: RegExp): boolean {
  if (!(e instanceof ToolError)) throw e;
  if (e.code !== code) throw new Error(`expected ${code}, got ${e.code}: ${e.message}`);
  if (message && !message.test(e.message)) throw new Error(`message '${e.message}' does not match ${message}`);
  if (!e.remediation) throw new Error("no remediation");
  return true;
}
