/**
 * One JSON document whose one long list is written while it is produced, so that a CLI's memory
 * does not grow with its answer (llmastsearch `(identifier) @i` over typeorm: 121 MB of JSON, which
 * held as one envelope cost 670 MB of RSS; ast-grep streams the same in 26 MB).
 *
 * The bytes are exactly `JSON.stringify(envelope)` (or its `--pretty` form) of the envelope the
 * CLI would have printed whole: the envelope is built once with the list replaced by a marker, its
 * text before the marker is written on `open`, each item as it comes, and on `close` the text after
 * the marker of the final envelope (counts and diagnostics are known only then). Everything before
 * the list must be known at `open`; `close` checks that it did not change.
 */
/** Stands for the streamed list inside the envelope; JSON.stringify writes it as one string item. */
export const LIST_MARK = "\u0000llmtools:streamed-list\u0000";
const QUOTED_MARK = JSON.stringify(LIST_MARK);
/** Items are gathered into writes of about this size. */
const CHUNK = 64 * 1024;

export class ListStream {
  private prefix: string | undefined;
  /** The prefix is written with the first item: a list that stays empty is printed whole on close. */
  private prefixOut = false;
  private indent = "";
  private items = 0;
  private buffered: string[] = [];
  private bufferedBytes = 0;
  private closed = false;

  constructor(
    private readonly pretty: boolean,
    private readonly out: (text: string) => void,
  ) {}

  get opened(): boolean {
    return this.prefix !== undefined;
  }

  /** Closed or aborted: the document is complete. */
  get ended(): boolean {
    return this.closed;
  }

  /** Writes the envelope's text up to its list; `envelope` holds LIST_MARK as the list's only item. */
  open(envelope: unknown): void {
    if (this.prefix !== undefined) throw new Error("ListStream: opened twice");
    const [before] = this.split(envelope);
    this.prefix = before;
    // --pretty: the marker's line starts with the items' indentation.
    this.indent = this.pretty ? before.slice(before.lastIndexOf("\n") + 1) : "";
  }

  write(items: readonly unknown[]): void {
    if (this.prefix === undefined || this.closed) throw new Error("ListStream: write outside open/close");
    if (!this.prefixOut && items.length > 0) {
      this.buffered.push(this.prefix);
      this.prefixOut = true;
    }
    for (const item of items) {
      let text = this.pretty ? JSON.stringify(item, null, 2).replace(/\n/g, `\n${this.indent}`) : JSON.stringify(item);
      if (this.items++ > 0) text = (this.pretty ? `,\n${this.indent}` : ",") + text;
      this.buffered.push(text);
      this.bufferedBytes += text.length;
      if (this.bufferedBytes >= CHUNK) this.flush();
    }
  }

  /** Writes the rest of the final envelope (LIST_MARK again in the list's place) and a newline. */
  close(envelope: unknown): void {
    if (this.prefix === undefined || this.closed) throw new Error("ListStream: close without open");
    const [before, after] = this.split(envelope);
    if (before !== this.prefix) throw new Error("ListStream: the envelope changed before its list after it was opened");
    if (this.prefixOut) this.buffered.push(`${after}\n`);
    else this.buffered.push(`${this.text(envelope, [])}\n`);
    this.flush();
    this.closed = true;
  }

  /**
   * A failure after `open`: the document is ended as valid JSON, the list as far as it went, and
   * the error as the envelope's last diagnostics (the fields after the list were never known).
   */
  abort(diagnostic: unknown): void {
    if (this.prefix === undefined || this.closed) return;
    if (!this.prefixOut) this.buffered.push(this.prefix);
    const close = this.pretty ? `\n${this.indent.slice(2)}]\n  },\n  "diagnostics": [\n    ${JSON.stringify(diagnostic, null, 2).replace(/\n/g, "\n    ")}\n  ]\n}` : `]},"diagnostics":[${JSON.stringify(diagnostic)}]}`;
    this.buffered.push(`${close}\n`);
    this.flush();
    this.closed = true;
  }

  private flush(): void {
    if (this.buffered.length === 0) return;
    this.out(this.buffered.join(""));
    this.buffered = [];
    this.bufferedBytes = 0;
  }

  /** The envelope's text with `list` in the marker's place. */
  private text(envelope: unknown, list: unknown[]): string {
    const [before, after] = this.split(envelope);
    const empty = this.pretty ? JSON.stringify(list, null, 2) : JSON.stringify(list);
    // The marker's quotes stand inside "[...]": replace the brackets around it too.
    const open = before.lastIndexOf("[");
    const close = after.indexOf("]");
    return before.slice(0, open) + empty + after.slice(close + 1);
  }

  private split(envelope: unknown): [string, string] {
    const text = this.pretty ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope);
    const at = text.indexOf(QUOTED_MARK);
    if (at < 0 || text.indexOf(QUOTED_MARK, at + 1) >= 0) throw new Error("ListStream: the envelope must hold the list marker exactly once");
    return [text.slice(0, at), text.slice(at + QUOTED_MARK.length)];
  }
}
