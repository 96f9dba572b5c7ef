import { distance } from "fastest-levenshtein";

export const MAX_SUGGESTIONS = 5;

/**
 * The candidates closest to `wanted` by edit distance, at most five; ties keep the candidates'
 * own (document) order, so "h2[99]" suggests h2[0]..h2[4] in order.
 */
export function rankSuggestions(wanted: string, candidates: Iterable<string>, max = MAX_SUGGESTIONS): string[] {
  const scored: { s: string; d: number; i: number }[] = [];
  const seen = new Set<string>();
  let i = 0;
  for (const s of candidates) {
    if (seen.has(s)) continue;
    seen.add(s);
    scored.push({ s, d: distance(wanted, s), i: i++ });
  }
  scored.sort((a, b) => a.d - b.d || a.i - b.i);
  return scored.slice(0, max).map((x) => x.s);
}
