/**
 * `llmtools daemon start|stop|status`: the data of their query envelopes (command "daemon <sub>").
 * docs/daemon.md explains each field.
 */
import { z } from "zod";
import { queryResponseSchema } from "../schema.js";

const uint = z.number().int().nonnegative();

export const DaemonIndexSchema = z
  .object({
    /** The magellan index the daemon keeps fresh (it only keeps one that exists). */
    db_path: z.string(),
    /** Files changed on disk that the index does not hold yet, as far as the watcher knows. */
    stale_files: uint,
    indexed_cycles: uint,
    last_cycle_ms: uint,
    last_error: z.string().optional(),
    watching: z.boolean(),
  })
  .strict();

/** The TypeScript language services of precise refs/callers/callees, one worker thread per root. */
export const DaemonPreciseSchema = z
  .object({
    workers: z.array(
      z
        .object({
          root: z.string(),
          /** warming: building its program (no batch answered yet); ready: warm. */
          state: z.enum(["warming", "ready"]),
          thread_id: uint,
          started_at: z.string(),
          /** The first batch's time, the program build included. */
          build_ms: uint.optional(),
          batches: uint,
          queued: uint,
          /** The worker's V8 heap after its last batch. */
          heap_used_bytes: uint.optional(),
        })
        .strict(),
    ),
    workers_started: uint,
    /** Workers that died (crash, out of memory, SIGUSR2) and were replaced on the next question. */
    worker_deaths: uint,
    /** Workers replaced because a tsconfig/jsconfig they were built from changed. */
    config_restarts: uint,
    /** Workers ended because their heap passed LLMTOOLS_PRECISE_MAX_HEAP_MB after a batch. */
    memory_restarts: uint,
    /** Workers ended after LLMTOOLS_PRECISE_IDLE_S without a question. */
    idle_releases: uint,
    /** Answers given from the index because the service was warming or unavailable. */
    fallbacks: uint,
    /** Batches answered on the watcher's word, without a stat of every file of the programs. */
    trusted_batches: uint,
  })
  .strict();

export const DaemonDataSchema = z
  .object({
    state: z.enum(["running", "stopped", "not_running"]),
    root: z.string(),
    /** not_running: why, when a daemon of another build answered and stopped. */
    note: z.string().optional(),
    already_running: z.boolean().optional(),
    pid: z.number().int().positive().optional(),
    socket: z.string().optional(),
    package_version: z.string().optional(),
    protocol: uint.optional(),
    started_at: z.string().optional(),
    /** 0: the daemon runs until stopped. */
    idle_timeout_ms: uint.optional(),
    requests_served: uint.optional(),
    requests_active: uint.optional(),
    rss_bytes: uint.optional(),
    heap_used_bytes: uint.optional(),
    index: DaemonIndexSchema.optional(),
    precise: DaemonPreciseSchema.optional(),
  })
  .strict();

export const DaemonResponseSchema = queryResponseSchema(DaemonDataSchema);

export const schemas = { "daemon-response": DaemonResponseSchema };
