/**
 * Token-budgeted pages of a tool's list, and the cursor that resumes one. A cursor is the
 * offset of the next item plus a hash of the question (tool, root, arguments other than the
 * cursor and the budget), signed with this process's key, so it resumes the same question and is
 * refused for any other one instead of silently paging through a different answer.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { EXIT, ToolError } from "../contract/errors.js";
import { MCP_CODES } from "./codes.js";

export const DEFAULT_MAX_TOKENS = 4000;
/** ~4 characters of JSON per token: the usual estimate for English and code. */
const CHARS_PER_TOKEN = 4;

/** Sorted keys, so that the same arguments spelled in another order are the same question. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

export function questionHash(tool: string, root: string, args: Record<string, unknown>): string {
  const { cursor: _c, max_tokens: _m, ...rest } = args;
  return createHash("sha256").update(`${tool}\0${root}\0${canonical(rest)}`).digest("hex").slice(0, 16);
}

/**
 * This process's key for its cursors: a cursor carries a MAC of its offset and question, so one
 * this server did not issue (an offset written by hand, one from a server since restarted) is
 * refused instead of answering an empty page as if the list had ended there.
 */
const CURSOR_KEY = randomBytes(32);

function mac(offset: number, hash: string): string {
  return createHmac("sha256", CURSOR_KEY).update(`${offset}\0${hash}`).digest("base64url").slice(0, 22);
}

export function encodeCursor(offset: number, hash: string): string {
  return Buffer.from(JSON.stringify({ o: offset, h: hash, m: mac(offset, hash) }), "utf8").toString("base64url");
}

/** The offset a cursor resumes at; 0 without one. */
export function decodeCursor(cursor: string | undefined, hash: string): number {
  if (cursor === undefined) return 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const p = parsed as { o?: unknown; h?: unknown; m?: unknown } | undefined;
  const signed = (o: number, h: string, m: unknown): boolean => {
    const want = Buffer.from(mac(o, h));
    const got = Buffer.from(typeof m === "string" ? m : "");
    return got.length === want.length && timingSafeEqual(got, want);
  };
  if (!p || typeof p.o !== "number" || !Number.isSafeInteger(p.o) || p.o < 0 || typeof p.h !== "string" || (p.h === hash && !signed(p.o, p.h, p.m))) {
    throw new ToolError({
      code: MCP_CODES.bad_cursor,
      error: "invalid_cursor",
      message: "cursor is not one this server issued",
      remediation: "Pass the cursor exactly as a previous answer gave it, or omit it for the first page.",
      exitCode: EXIT.usage,
    });
  }
  if (p.h !== hash) {
    throw new ToolError({
      code: MCP_CODES.bad_cursor,
      error: "cursor_mismatch",
      message: "cursor belongs to another question (the tool, root or arguments differ)",
      remediation: "Repeat the exact arguments of the call that returned this cursor, or omit cursor to start over.",
      exitCode: EXIT.usage,
    });
  }
  return p.o;
}

export function tokensOf(v: unknown): number {
  return Math.ceil(JSON.stringify(v).length / CHARS_PER_TOKEN);
}

/**
 * How many items from `offset` fit in the budget, given what the rest of the answer costs:
 * at least one (a page that shows nothing would never advance), at most all.
 */
export function fitItems(items: readonly unknown[], offset: number, budgetTokens: number, overheadTokens: number): number {
  let left = budgetTokens - overheadTokens;
  let n = 0;
  for (let i = offset; i < items.length; i++) {
    const t = tokensOf(items[i]) + 1;
    if (n > 0 && t > left) break;
    left -= t;
    n++;
  }
  return n;
}

/**
 * How many items to ask the tool for so that one page can be filled from `offset`: every item
 * costs at least `minItemTokens`, so no page holds more than budget / that; one more tells
 * whether anything follows.
 */
export function fetchLimit(offset: number, budgetTokens: number, minItemTokens: number): number {
  return offset + Math.ceil(budgetTokens / minItemTokens) + 1;
}
