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
 *
 * When something before the list is learnt only at the end (llmsearch's and llmastsearch's
 * `partial`: a file that runs past its time budget may come after thousands of matches), the stream spools: the
 * items go, as their final text, to an anonymous temporary file, and `finish` writes the final
 * envelope's text before the list, copies the spool in 1 MiB chunks (to an output that takes each
 * before the next is read: a pipe's reader may be slower than the disk), then the rest. The answer
 * then sits in the page cache rather than on the heap.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { Chunked } from "../text/json-document.js";

/** Stands for the streamed list inside the envelope; JSON.stringify writes it as one string item. */
export const LIST_MARK = "\u0000llmtools:streamed-list\u0000";
const QUOTED_MARK = JSON.stringify(LIST_MARK);
/** The spool is copied out in reads of this size. */
const COPY = 1024 * 1024;

/** Takes the document's text, and returns once it is handed over (src/cli/stdout.ts's stdoutWriter). */
export type ListOut = (chunk: string | Uint8Array) => void;

export interface ListStreamOptions {
  /** Hold the items in a temporary file until `finish`, whose envelope may then change what precedes the list. */
  spool?: boolean;
}

/**
 * An unlinked temporary file (on Windows, where an open file cannot lose its name, removed at
 * close). Without a writable temporary directory the items are held in memory, as they were
 * before the list was streamed: a larger footprint, the same answer.
 */
class Spool {
  private readonly fd: number | undefined;
  private readonly path: string | undefined;
  private readonly held: Buffer[] = [];
  private size = 0;

  constructor() {
    const path = join(tmpdir(), `llmtools-spool-${process.pid}-${randomBytes(6).toString("hex")}`);
    try {
      this.fd = openSync(path, "wx+", 0o600);
    } catch {
      this.fd = undefined;
      return;
    }
    if (process.platform === "win32") this.path = path;
    else {
      // Nameless from now on: a run that is killed leaves nothing behind.
      unlinkSync(path);
      this.path = undefined;
    }
  }

  append(text: string): void {
    const bytes = Buffer.from(text, "utf8");
    if (this.fd === undefined) this.held.push(bytes);
    else for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at, this.size + at);
    this.size += bytes.length;
  }

  /** The spooled bytes in order; each chunk is a fresh buffer, so a writer may keep it. */
  *chunks(): Generator<Buffer> {
    if (this.fd === undefined) {
      yield* this.held;
      return;
    }
    for (let at = 0; at < this.size; ) {
      const chunk = Buffer.allocUnsafe(Math.min(COPY, this.size - at));
      let got = 0;
      while (got < chunk.length) {
        const n = readSync(this.fd, chunk, got, chunk.length - got, at + got);
        if (n === 0) throw new Error("ListStream: the spool file ended early");
        got += n;
      }
      yield chunk;
      at += got;
    }
  }

  dispose(): void {
    this.held.length = 0;
    if (this.fd === undefined) return;
    closeSync(this.fd);
    if (this.path !== undefined) {
      try {
        unlinkSync(this.path);
      } catch {
        // Already gone: nothing to clean.
      }
    }
  }
}

export class ListStream {
  private prefix: string | undefined;
  /** The prefix is written with the first item: a list that stays empty is printed whole on close. */
  private prefixOut = false;
  private indent = "";
  private items = 0;
  /** The text of the document (or, spooling, of its items) on its way out in ~64 KB writes. */
  private readonly chunks: Chunked;
  private closed = false;
  private readonly spooling: boolean;
  private spool: Spool | undefined;

  constructor(
    private readonly pretty: boolean,
    private readonly out: ListOut,
    options: ListStreamOptions = {},
  ) {
    this.spooling = options.spool === true;
    this.chunks = new Chunked((text) => {
      if (this.spooling) (this.spool ??= new Spool()).append(text);
      else this.out(text);
    });
  }

  get opened(): boolean {
    return this.prefix !== undefined;
  }

  /** Closed or aborted: the document is complete. */
  get ended(): boolean {
    return this.closed;
  }

  /**
   * Writes the envelope's text up to its list; `envelope` holds LIST_MARK as the list's only item.
   * Spooling, nothing is written yet, and only the list's place (its depth) must stay the same.
   */
  open(envelope: unknown): void {
    if (this.prefix !== undefined) throw new Error("ListStream: opened twice");
    const [before] = this.split(envelope);
    this.prefix = before;
    // --pretty: the marker's line starts with the items' indentation.
    this.indent = this.indentOf(before);
  }

  write(items: readonly unknown[]): void {
    if (this.prefix === undefined || this.closed) throw new Error("ListStream: write outside open/close");
    if (!this.prefixOut && items.length > 0) {
      if (!this.spooling) this.chunks.push(this.prefix);
      this.prefixOut = true;
    }
    for (const item of items) {
      let text = this.pretty ? JSON.stringify(item, null, 2).replace(/\n/g, `\n${this.indent}`) : JSON.stringify(item);
      if (this.items++ > 0) text = (this.pretty ? `,\n${this.indent}` : ",") + text;
      this.chunks.push(text);
    }
  }

  /** Writes the rest of the final envelope (LIST_MARK again in the list's place) and a newline. */
  close(envelope: unknown): void {
    if (this.prefix === undefined || this.closed) throw new Error("ListStream: close without open");
    if (this.spooling) throw new Error("ListStream: a spooled list ends with finish()");
    const [before, after] = this.split(envelope);
    if (before !== this.prefix) throw new Error("ListStream: the envelope changed before its list after it was opened");
    if (this.prefixOut) this.chunks.push(`${after}\n`);
    else this.chunks.push(`${this.withEmptyList(envelope)}\n`);
    this.chunks.flush();
    this.closed = true;
  }

  /**
   * `close`, or when spooling: writes the final envelope's text before the list, the spooled
   * items and the rest (as src/cli/output.ts's printResult ends a streamed document).
   */
  async finish(envelope: unknown): Promise<void> {
    if (!this.spooling) {
      this.close(envelope);
      return;
    }
    if (this.prefix === undefined || this.closed) throw new Error("ListStream: finish without open");
    const [before, after] = this.split(envelope);
    if (this.indentOf(before) !== this.indent) throw new Error("ListStream: the list moved in the envelope after it was opened");
    this.closed = true;
    try {
      this.chunks.flush();
      if (this.prefixOut) {
        this.out(before);
        for (const chunk of this.spool?.chunks() ?? []) this.out(chunk);
        this.out(`${after}\n`);
      } else this.out(`${this.withEmptyList(envelope)}\n`);
    } finally {
      this.spool?.dispose();
      this.spool = undefined;
    }
  }

  /** Spooling: ends without writing anything (the run reports its failure some other way). */
  discard(): void {
    if (this.closed) return;
    this.chunks.clear();
    this.spool?.dispose();
    this.spool = undefined;
    this.closed = true;
  }

  /**
   * A failure after `open`: the document is ended as valid JSON, the list as far as it went, and
   * the error as the envelope's last diagnostics (the fields after the list were never known).
   */
  abort(diagnostic: unknown): void {
    if (this.prefix === undefined || this.closed) return;
    // Nothing of a spooled list is out: the failure can be reported whole instead.
    if (this.spooling) throw new Error("ListStream: a spooled list is discarded, not aborted");
    if (!this.prefixOut) this.chunks.push(this.prefix);
    const close = this.pretty ? `\n${this.indent.slice(2)}]\n  },\n  "diagnostics": [\n    ${JSON.stringify(diagnostic, null, 2).replace(/\n/g, "\n    ")}\n  ]\n}` : `]},"diagnostics":[${JSON.stringify(diagnostic)}]}`;
    this.chunks.push(`${close}\n`);
    this.chunks.flush();
    this.closed = true;
  }

  private indentOf(before: string): string {
    return this.pretty ? before.slice(before.lastIndexOf("\n") + 1) : "";
  }

  /** The envelope's text with an empty list in the marker's place (`[]` in both forms). */
  private withEmptyList(envelope: unknown): string {
    const [before, after] = this.split(envelope);
    // The marker's quotes stand inside "[...]": replace the brackets around it too.
    return `${before.slice(0, before.lastIndexOf("["))}[]${after.slice(after.indexOf("]") + 1)}`;
  }

  private split(envelope: unknown): [string, string] {
    const text = this.pretty ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope);
    const at = text.indexOf(QUOTED_MARK);
    if (at < 0 || text.indexOf(QUOTED_MARK, at + 1) >= 0) throw new Error("ListStream: the envelope must hold the list marker exactly once");
    return [text.slice(0, at), text.slice(at + QUOTED_MARK.length)];
  }
}
