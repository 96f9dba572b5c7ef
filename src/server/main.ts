/**
 * The daemon process (started detached by src/server/client.cts or `llmtools daemon start`):
 * `node dist/src/server/main.js --root <dir> [--idle-timeout <seconds>] [--debounce <ms>] [--replace]`.
 */
import { realpathSync } from "node:fs";
import { parseArgs } from "node:util";
import { Daemon } from "./daemon.js";
import { DEBOUNCE_ENV, DEFAULT_IDLE_TIMEOUT_S, IDLE_TIMEOUT_ENV } from "./settings.js";

const { values } = parseArgs({
  options: {
    root: { type: "string" },
    "idle-timeout": { type: "string" },
    debounce: { type: "string" },
    replace: { type: "boolean" },
  },
  strict: true,
});

const idle = Number(values["idle-timeout"] ?? process.env[IDLE_TIMEOUT_ENV] ?? DEFAULT_IDLE_TIMEOUT_S);
const daemon = new Daemon({
  root: realpathSync(values.root ?? process.cwd()),
  idleTimeoutMs: Number.isFinite(idle) && idle >= 0 ? idle * 1000 : DEFAULT_IDLE_TIMEOUT_S * 1000,
  debounceMs: Number(values.debounce ?? process.env[DEBOUNCE_ENV] ?? 20),
  replace: values.replace,
});
daemon.start().catch((e: unknown) => {
  const already = (e as Error).message === "already running";
  if (!already) daemon.log(`failed to start: ${(e as Error).stack ?? String(e)}`);
  process.exit(already ? 0 : 1);
});
