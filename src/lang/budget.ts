/**
 * A file beyond what one extraction may cost (nested too deep, or a parse that does not end):
 * the index skips it as `too_large_to_index` with the message as its detail, splice answers
 * SPLICE_E118, the symbols payload an outcome `skipped`. Here, apart from extraction, so that a
 * caller can tell these errors apart without loading the native parser.
 */
export class ExtractionBudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExtractionBudgetError";
  }
}

/**
 * Seconds tree-sitter may spend parsing one file for extraction (MAGELLAN_MAX_PARSE_SECONDS).
 * Its error recovery is quadratic on some text it cannot read: 4,000 generic call signatures on
 * lines of their own (88 KB) took 4.1 s, so 2 MB of them would take half an hour. The largest
 * files the other budgets admit parse in a few seconds; this only stops a parse that would not end.
 */
export const PARSE_SECONDS_BUDGET = Number(process.env.MAGELLAN_MAX_PARSE_SECONDS) || 60;

/** The `performance.now()` time a parse of one file that starts now must end by (registry's parse). */
export function parseDeadline(): number {
  return performance.now() + PARSE_SECONDS_BUDGET * 1000;
}

/** A parse stopped at PARSE_SECONDS_BUDGET. */
export class ParseTimeoutError extends ExtractionBudgetError {
  constructor(seconds: number) {
    super(`tree-sitter took more than ${seconds} s to parse it (MAGELLAN_MAX_PARSE_SECONDS): error recovery on text it cannot read`);
    this.name = "ParseTimeoutError";
  }
}
