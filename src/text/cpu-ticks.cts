/**
 * CPU time from /proc. CommonJS (a .cts file) and builtins only: the daemon client in every bin
 * reads it (src/server/client.cts), and magellan's debug lines too.
 */
import { readFileSync } from "node:fs";

/**
 * A process's or a thread's CPU time so far (user + system) in clock ticks (100 a second on
 * Linux), read from its `stat` file (`/proc/<pid>/stat`, `/proc/self/task/<tid>/stat`); undefined
 * where /proc does not tell (not Linux, no such process).
 */
export function cpuTicks(statFile: string): number | undefined {
  try {
    const stat = readFileSync(statFile, "utf8");
    // (The command name, in parentheses, may hold spaces: the fields are counted after it.)
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(f[11]) + Number(f[12]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}
