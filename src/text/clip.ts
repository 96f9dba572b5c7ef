/**
 * Text cut short for a preview, a snippet or a message. A cut at a fixed count of UTF-16 units
 * can fall between the two halves of a surrogate pair (an emoji, a CJK extension character):
 * the lone half makes JSON that strict parsers (jq) and UTF-8 encoders reject, and
 * JSON.stringify writes it as the six characters `\ud83d`. A cut inside a grapheme is milder
 * but still shows a flag as a letter, an emoji without its skin tone, a letter without its
 * accent. So the cut is made at the last grapheme boundary within the limit, which stays a
 * count of UTF-16 units because that is what the schemas bound (`z.string().max(n)`).
 */

let segmenter: Intl.Segmenter | undefined;

function graphemes(s: string): Iterable<Intl.SegmentData> {
  return (segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(s);
}

/** Below U+0300 nothing extends, joins or prepends, so a cut between two such units splits no grapheme (bar CR LF). */
function plainCut(s: string, at: number): boolean {
  const before = s.charCodeAt(at - 1);
  const after = s.charCodeAt(at);
  return before < 0x300 && after < 0x300 && !(before === 0x0d && after === 0x0a);
}

/** The longest start of `s` that is whole graphemes and at most `max` UTF-16 units. */
export function clipText(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 0) return "";
  if (plainCut(s, max)) return s.slice(0, max);
  // Whether `max` is a boundary depends on the code point after it, which may be two units.
  let end = 0;
  for (const g of graphemes(s.slice(0, max + 2))) {
    const next = g.index + g.segment.length;
    if (next > max) break;
    end = next;
  }
  return s.slice(0, end);
}

/** The longest end of `s` that is whole graphemes and at most `max` UTF-16 units. */
export function clipTextStart(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 0) return "";
  const from = s.length - max;
  if (plainCut(s, from)) return s.slice(from);
  // Whether a point is a boundary can depend on everything before it (a run of regional indicators), so the whole text is segmented.
  for (const g of graphemes(s)) if (g.index >= from) return s.slice(g.index);
  return "";
}
