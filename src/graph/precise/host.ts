/**
 * The precise service of a long-lived process, when it has one: the daemon and the MCP server
 * set it at start; a CLI process never does, and answers `--precise` in-process instead. The
 * CLI's modules find the daemon's service here because, inside the daemon, they are the daemon's
 * own module instances (src/server/runner.ts).
 */
import type { PreciseService } from "./service.js";

let shared: PreciseService | undefined;

export function setSharedPrecise(service: PreciseService | undefined): void {
  shared = service;
}

export function sharedPrecise(): PreciseService | undefined {
  return shared;
}
