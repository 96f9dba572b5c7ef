/** The daemon's tunables, shared by its entry and `llmtools daemon start`. */
/** Seconds without a request before the daemon exits (0: never). */
export const IDLE_TIMEOUT_ENV = "LLMTOOLS_DAEMON_IDLE_TIMEOUT";
export const DEFAULT_IDLE_TIMEOUT_S = 1800;
/** Milliseconds of quiet after a file event before the index is refreshed (default 20). */
export const DEBOUNCE_ENV = "LLMTOOLS_DAEMON_DEBOUNCE_MS";
