/** Messages between the pool and its search threads (plain data: they are structured-cloned). */
import type { LlmsearchMatch, LlmsearchSkip } from "../../contract/tools/llmsearch.js";
import type { WorkerInit } from "./worker.js";

export interface Batch {
  id: number;
  /** Positions in the walk's path-ordered list, with each file's absolute and relative path. */
  index: number[];
  abs: string[];
  rel: string[];
  /** The files' bytes, when the main thread already holds them (warm cache); else read from disk. */
  bytes?: (Uint8Array | null)[];
}

/** Sets (or, for a reused thread, resets) the job a search thread runs. */
export interface InitMessage {
  t: "init";
  init: WorkerInit;
}

export interface FileResult {
  i: number;
  count: number;
  matches?: LlmsearchMatch[];
  /** `sha256:` of the file's bytes, for files with matches read whole. */
  checksum?: string;
  skip?: Omit<LlmsearchSkip, "file_path">;
}

export interface BatchResult {
  id: number;
  /** Files read through (not skipped) in the batch. */
  searched: number;
  /** Only files with matches or a skip; the rest found nothing. */
  results: FileResult[];
}
