import { createHash } from "node:crypto";

/** CONTRACT.md: `sha256:<64 hex>` of the raw bytes. */
export function checksum(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Accepts `sha256:<hex>` or bare hex (CONTRACT.md); returns the canonical form or undefined. */
export function normalizeChecksum(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  const hex = v.startsWith("sha256:") ? v.slice(7) : v;
  return /^[0-9a-f]{64}$/.test(hex) ? `sha256:${hex}` : undefined;
}
