/** Messages between the pool and its search threads (plain data: they are structured-cloned). */
import type { LlmsearchMatch, LlmsearchSkip } from "../../contract/tools/llmsearch.js";
import type { WorkerInit } from "./worker.js";

/** A thread's shared state: its size in bytes, and where its Int32 count of matches taken in lies (see WorkerInit.state). */
export const STATE_BYTES = 32;
export const STATE_ACKED = 24;

export interface Batch {
  id: number;
  /** Positions in the walk's path-ordered list, with each file's absolute and relative path. */
  index: number[];
  abs: string[];
  rel: string[];
  /** The files' bytes, when the main thread already holds them (warm cache); else read from disk. */
  bytes?: (Uint8Array | null)[];
  /** Main thread only: how many of the batch's files (from its start) were answered in parts. */
  answered?: number;
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
  /**
   * A part of the answer, for the batch's first `upTo` files (those since the previous part): a
   * thread that found many matches sends them before the batch ends, so that neither its heap nor
   * the message holds a batch's worth of matches. Absent on the batch's last message.
   */
  upTo?: number;
  /**
   * The first matches of one file (results holds only it, count 0) while the rest are made; its
   * remaining matches and count come in a later message, the pieces' matches first.
   */
  piece?: true;
  /** Files read through (not skipped) in the batch. */
  searched: number;
  /** Only files with matches or a skip; the rest found nothing. */
  results: FileResult[];
}
