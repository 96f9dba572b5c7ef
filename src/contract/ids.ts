import * as crypto from "node:crypto";

/**
 * SHA-256 as hex in one call. `crypto.hash` (Node >= 20.12) skips the Hash object, which is a
 * large share of the cost when an answer carries hundreds of ids.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: "hex") => string }).hash;
function sha256hex(data: string | Buffer): string {
  return oneShot ? oneShot("sha256", data, "hex") : crypto.createHash("sha256").update(data).digest("hex");
}

let scratch = Buffer.alloc(512);
/** The path whose UTF-8 bytes open `scratch` (most calls hash spans of one file), and their length. */
let scratchPath: string | undefined;
let scratchPathBytes = 0;
/** The key's bytes in `scratch` for that path (a Buffer view costs an object per call). */
let scratchKey = scratch.subarray(0, 18);

/**
 * Writes n (a safe integer >= 0) as 8 bytes big-endian, without a BigInt. Plain byte stores (a
 * Uint8Array store keeps the low 8 bits): Buffer#writeUInt32BE validates its arguments in
 * JavaScript on every call, a measurable share of a large `mdsel index`.
 */
function writeU64be(b: Buffer, n: number, at: number): void {
  const hi = Math.floor(n / 0x100000000);
  const lo = n >>> 0;
  b[at] = hi >>> 24;
  b[at + 1] = hi >>> 16;
  b[at + 2] = hi >>> 8;
  b[at + 3] = hi;
  b[at + 4] = lo >>> 24;
  b[at + 5] = lo >>> 16;
  b[at + 6] = lo >>> 8;
  b[at + 7] = lo;
}

/**
 * CONTRACT.md: SHA-256(utf8(file_path) ‖ ":" ‖ u64be(byte_start) ‖ ":" ‖ u64be(byte_end)),
 * the first 8 bytes. This is Magellan's real algorithm, not seed 01's decimal-string prose.
 */
export function spanId(filePath: string, byteStart: number, byteEnd: number): string {
  if (filePath !== scratchPath) {
    const need = Buffer.byteLength(filePath, "utf8") + 18;
    if (scratch.length < need) scratch = Buffer.alloc(need * 2);
    scratchPathBytes = scratch.write(filePath, 0, "utf8");
    scratchKey = scratch.subarray(0, scratchPathBytes + 18);
    scratchPath = filePath;
  }
  const n = scratchPathBytes;
  scratch[n] = 0x3a;
  writeU64be(scratch, byteStart, n + 1);
  scratch[n + 9] = 0x3a;
  writeU64be(scratch, byteEnd, n + 10);
  return sha256hex(scratchKey).slice(0, 16);
}

/**
 * Deterministic: the same question (tool + what was asked) on the same bytes (span_id)
 * gives the same id, so an agent can refer to a match across calls. NUL separators keep
 * ("ab","c") and ("a","bc") apart.
 */
export function matchId(tool: string, spanIdValue: string, question: string): string {
  return sha256hex(`${tool}\0${spanIdValue}\0${question}`).slice(0, 16);
}

/**
 * CONTRACT.md: 16 hex of SHA-256(language ":" identity ":" disambiguator), identity being
 * `file_path:kind:scoped_name`. Positions are deliberately absent so the id survives edits
 * elsewhere in the file.
 */
export function symbolId(language: string, identity: string, disambiguator: string | number): string {
  return sha256hex(`${language}:${identity}:${String(disambiguator)}`).slice(0, 16);
}

export function executionId(): string {
  return crypto.randomUUID();
}

/** RFC 3339 in UTC with a `Z`, without milliseconds (seed examples show whole seconds). */
export function timestamp(now: Date = new Date()): string {
  // toISOString always ends in ".sssZ"; a cut, not a regex: this runs once per answer, cold.
  return `${now.toISOString().slice(0, -5)}Z`;
}
