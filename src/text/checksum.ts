import { createHash } from "node:crypto";

/** Checksums of byte arrays that are never written again ("" until first asked). */
const frozen = new WeakMap<Uint8Array, string>();

/**
 * Declares that `bytes` is never modified (the warm cache's copies of files), so its checksum
 * is computed once however often it is asked for.
 */
export function freezeChecksum(bytes: Uint8Array): void {
  if (!frozen.has(bytes)) frozen.set(bytes, "");
}

/** CONTRACT.md: `sha256:<64 hex>` of the raw bytes. */
export function checksum(bytes: Uint8Array): string {
  const known = frozen.get(bytes);
  if (known) return known;
  const sum = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (known === "") frozen.set(bytes, sum);
  return sum;
}

/** Accepts `sha256:<hex>` or bare hex (CONTRACT.md); returns the canonical form or undefined. */
export function normalizeChecksum(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  const hex = v.startsWith("sha256:") ? v.slice(7) : v;
  return /^[0-9a-f]{64}$/.test(hex) ? `sha256:${hex}` : undefined;
}
