/** Rich span extensions of seed 01: SpanContext, SpanChecksums, SpanRelationships. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DB } from "../../graph/db.js";
import { type RefRecord, type SymbolRecord, callees, callers, importsOfFile, spanOf } from "../../graph/read.js";

export interface RichOptions {
  context?: number;
  checksums?: boolean;
  callers?: boolean;
  callees?: boolean;
}

export function wantsRich(o: RichOptions): boolean {
  return o.context !== undefined || Boolean(o.checksums || o.callers || o.callees);
}

/** Reads each file once per answer. */
export class FileCache {
  private readonly files = new Map<string, Buffer | null>();
  constructor(private readonly root: string) {}
  get(path: string): Buffer | null {
    if (!this.files.has(path)) {
      try {
        this.files.set(path, readFileSync(join(this.root, path)));
      } catch {
        this.files.set(path, null);
      }
    }
    return this.files.get(path) ?? null;
  }
}

function sha(b: Uint8Array): string {
  return `sha256:${createHash("sha256").update(b).digest("hex")}`;
}

function lineStarts(buf: Buffer): number[] {
  const starts = [0];
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) starts.push(i + 1);
  return starts;
}

function lineText(buf: Buffer, starts: number[], line: number): string {
  const s = starts[line - 1] as number;
  const e = line < starts.length ? (starts[line] as number) - 1 : buf.length;
  return buf.subarray(s, e).toString("utf8").replace(/\r$/, "");
}

export function spanExtras(
  cache: FileCache,
  path: string,
  r: { byte_start: number; byte_end: number; start_line: number; end_line: number },
  o: RichOptions,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o.context === undefined && !o.checksums) return out;
  const buf = cache.get(path);
  if (!buf || r.byte_end > buf.length) return out;
  if (o.context !== undefined) {
    const starts = lineStarts(buf);
    const n = o.context;
    // The start after a final newline begins no line: it gave every file's last context a blank
    // line more than the file has (ripgrep and llmsearch give none).
    const lines = buf.length > 0 && starts[starts.length - 1] === buf.length ? starts.length - 1 : starts.length;
    const last = Math.min(r.end_line, lines);
    const range = (a: number, b: number): string[] => {
      const xs: string[] = [];
      for (let l = Math.max(1, a); l <= Math.min(b, lines); l++) xs.push(lineText(buf, starts, l));
      return xs;
    };
    out.context = { before: range(r.start_line - n, r.start_line - 1), selected: range(r.start_line, last), after: range(last + 1, last + n) };
  }
  if (o.checksums) {
    out.checksums = { checksum_before: sha(buf.subarray(r.byte_start, r.byte_end)), file_checksum_before: sha(buf) };
  }
  return out;
}

/** A call site as a contract Span (the call's bytes), with the symbol at the other end of it. */
function related(r: RefRecord, side: "caller" | "callee"): Record<string, unknown> {
  const id = side === "caller" ? r.caller_symbol_id : r.target_symbol_id;
  return {
    symbol: side === "caller" ? (r.caller_name ?? "<top level>") : r.name,
    ...(id ? { symbol_id: id } : {}),
    resolution: r.resolution,
    span: spanOf(r.path, r),
  };
}

export function relationships(db: DB, s: SymbolRecord, o: RichOptions, exportsOfFile: (fileId: number) => string[]): Record<string, unknown> {
  if (!o.callers && !o.callees) return {};
  return {
    relationships: {
      callers: o.callers ? callers(db, s.symbol_id).map((r) => related(r, "caller")) : [],
      callees: o.callees ? callees(db, s.symbol_id).map((r) => related(r, "callee")) : [],
      imports: importsOfFile(db, s.file_id),
      exports: exportsOfFile(s.file_id),
    },
  };
}
