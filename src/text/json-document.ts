/**
 * A JSON document written while its long parts are produced (magellan export: five lists, or one
 * CSV text, of a graph that need not fit in memory). The bytes are exactly `JSON.stringify` of the
 * whole document (or its `--pretty` form, 2 spaces): the document is given as a template whose
 * long parts are slot marks, the template's text between the marks is written as is, and each
 * slot's items are stringified one by one at the indentation the whole document would give them.
 *
 * The text after the last slot (an envelope's diagnostics) is taken from the template passed to
 * `close`, so it may change until then; the text before it may not, and `close` checks that.
 * src/cli/stream.ts does the same for one list that is pushed item by item, and can spool it; this
 * one holds several lists and a string, each filled from an iterable. Both write through Chunked.
 */

/** Text is gathered into writes of about this size. */
const CHUNK = 64 * 1024;

/** Gathers text into ~64 KB writes. */
export class Chunked {
  private parts: string[] = [];
  private size = 0;

  constructor(private readonly out: (text: string) => void) {}

  push(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK) this.flush();
  }

  /** Drops what is gathered and not yet written. */
  clear(): void {
    this.parts = [];
    this.size = 0;
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join("");
    this.parts = [];
    this.size = 0;
    this.out(text);
  }
}

function mark(i: number): string {
  return `\u0000llmtools:export-slot:${i}\u0000`;
}

/** A list filled by `JsonDocument.list`: put it in the template where the list goes. */
export function listSlot(i: number): string[] {
  return [mark(i)];
}

/** A string filled by `JsonDocument.text`, piece by piece. */
export function textSlot(i: number): string {
  return mark(i);
}

interface Slot {
  kind: "list" | "text";
  /** The template's text from the end of the previous slot up to this one's opening `[` or `"`. */
  lead: string;
  /** --pretty: the indentation of the list's items. */
  indent: string;
  /** The template's text that ends a non-empty list (`\n    ]` pretty, `]` compact). */
  end: string;
}

export class JsonDocument {
  private slots: Slot[] = [];
  /** The template's text up to the end of its last slot: `close` checks that it did not change. */
  private head = "";
  private next = 0;
  /** The slot being filled, and how many items it got so far. */
  private filling: { slot: Slot; items: number } | undefined;
  private state: "new" | "open" | "ended" = "new";
  private readonly out: Chunked;

  constructor(
    private readonly pretty: boolean,
    write: (text: string) => void,
  ) {
    this.out = new Chunked(write);
  }

  get opened(): boolean {
    return this.state !== "new";
  }

  /** Closed (or aborted): the document is complete. */
  get ended(): boolean {
    return this.state === "ended";
  }

  /** Takes the template (slot marks 0, 1, ... in this order); writes nothing yet. */
  open(template: unknown): void {
    if (this.state !== "new") throw new Error("JsonDocument: opened twice");
    const text = this.stringify(template);
    let from = 0;
    for (let i = 0; ; i++) {
      const quoted = JSON.stringify(mark(i));
      const at = text.indexOf(quoted, from);
      if (at < 0) break;
      const after = at + quoted.length;
      const before = text.slice(from, at);
      const bracket = before.trimEnd().endsWith("[") ? before.lastIndexOf("[") : -1;
      if (bracket >= 0) {
        const close = text.indexOf("]", after);
        this.slots.push({ kind: "list", lead: before.slice(0, bracket + 1), indent: before.slice(bracket + 1).replace(/^\n/, ""), end: text.slice(after, close + 1) });
        from = close + 1;
      } else {
        this.slots.push({ kind: "text", lead: before, indent: "", end: "" });
        from = after;
      }
    }
    if (this.slots.length === 0) throw new Error("JsonDocument: the template holds no slot");
    this.head = text.slice(0, from);
    this.state = "open";
  }

  /** Fills the next slot, a list, with `items` as they come; returns how many there were. */
  list(items: Iterable<unknown>): number {
    const state = this.begin("list");
    const sep = this.pretty ? `\n${state.slot.indent}` : "";
    for (const item of items) {
      const text = this.pretty ? JSON.stringify(item, null, 2).replace(/\n/g, sep) : JSON.stringify(item);
      this.out.push(state.items++ === 0 ? sep + text : `,${sep}${text}`);
    }
    this.endSlot();
    return state.items;
  }

  /** Fills the next slot, a string, with the concatenation of `pieces`. */
  text(pieces: Iterable<string>): void {
    this.begin("text");
    for (const piece of pieces) {
      const quoted = JSON.stringify(piece);
      this.out.push(quoted.slice(1, quoted.length - 1));
    }
    this.endSlot();
  }

  /** Writes the rest of the final template (every slot filled) and a newline. */
  close(template: unknown): void {
    if (this.state !== "open" || this.filling || this.next < this.slots.length) throw new Error("JsonDocument: close before every slot was filled");
    const text = this.stringify(template);
    if (!text.startsWith(this.head)) throw new Error("JsonDocument: the template changed before its last slot after it was opened");
    this.out.push(`${text.slice(this.head.length)}\n`);
    this.out.flush();
    this.state = "ended";
  }

  /** `close`, as src/cli/output.ts's printResult ends a streamed document. */
  finish(template: unknown): Promise<void> {
    this.close(template);
    return Promise.resolve();
  }

  /**
   * A failure while the document was written: the slot being filled ends where it got to, the
   * slots not reached stay empty, and the rest comes from `template` (which says what failed).
   */
  abort(template: unknown): void {
    if (this.state !== "open") return;
    if (this.filling) this.endSlot();
    while (this.next < this.slots.length) {
      if ((this.slots[this.next] as Slot).kind === "list") this.list([]);
      else this.text([]);
    }
    this.close(template);
  }

  private begin(kind: Slot["kind"]): { slot: Slot; items: number } {
    const slot = this.slots[this.next];
    if (this.state !== "open" || this.filling || !slot) throw new Error("JsonDocument: no slot left to fill");
    if (slot.kind !== kind) throw new Error(`JsonDocument: slot ${this.next} is a ${slot.kind}, not a ${kind}`);
    this.out.push(kind === "list" ? slot.lead : `${slot.lead}"`);
    this.filling = { slot, items: 0 };
    return this.filling;
  }

  private endSlot(): void {
    const f = this.filling as { slot: Slot; items: number };
    // An empty list is `[]` in both forms.
    this.out.push(f.slot.kind === "text" ? `"` : f.items > 0 ? f.slot.end : "]");
    this.filling = undefined;
    this.next++;
  }

  private stringify(v: unknown): string {
    return this.pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v);
  }
}
