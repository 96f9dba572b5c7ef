import { createHash, randomUUID } from "node:crypto";

/** First 8 bytes of a SHA-256 digest as 16 lowercase hex characters. */
function hex16(hash: ReturnType<typeof createHash>): string {
  return hash.digest("hex").slice(0, 16);
}

function u64be(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

/**
 * CONTRACT.md: SHA-256(utf8(file_path) ‖ ":" ‖ u64be(byte_start) ‖ ":" ‖ u64be(byte_end)),
 * the first 8 bytes. This is Magellan's real algorithm, not seed 01's decimal-string prose.
 */
export function spanId(filePath: string, byteStart: number, byteEnd: number): string {
  const h = createHash("sha256");
  h.update(Buffer.from(filePath, "utf8"));
  h.update(":");
  h.update(u64be(byteStart));
  h.update(":");
  h.update(u64be(byteEnd));
  return hex16(h);
}

/**
 * Deterministic: the same question (tool + what was asked) on the same bytes (span_id)
 * gives the same id, so an agent can refer to a match across calls. NUL separators keep
 * ("ab","c") and ("a","bc") apart.
 */
export function matchId(tool: string, spanIdValue: string, question: string): string {
  const h = createHash("sha256");
  h.update(tool);
  h.update("\0");
  h.update(spanIdValue);
  h.update("\0");
  h.update(question);
  return hex16(h);
}

/**
 * CONTRACT.md: 16 hex of SHA-256(language ":" identity ":" disambiguator), identity being
 * `file_path:kind:scoped_name`. Positions are deliberately absent so the id survives edits
 * elsewhere in the file.
 */
export function symbolId(language: string, identity: string, disambiguator: string | number): string {
  const h = createHash("sha256");
  h.update(`${language}:${identity}:${String(disambiguator)}`);
  return hex16(h);
}

export function executionId(): string {
  return randomUUID();
}

/** RFC 3339 in UTC with a `Z`, without milliseconds (seed examples show whole seconds). */
export function timestamp(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z");
}
