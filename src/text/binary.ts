/**
 * ripgrep's rule for files met during a walk: a NUL byte means binary. Text encodings we search
 * (UTF-8, Latin-1, invalid UTF-8) never contain NUL; UTF-16 does and is treated as binary, as
 * ripgrep does without `--encoding`.
 */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.indexOf(0) !== -1;
}

/** Offset of the first NUL, for the "why" of a skip; -1 when there is none. */
export function firstNul(bytes: Uint8Array): number {
  return bytes.indexOf(0);
}
