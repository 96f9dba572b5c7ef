/** What the daemon's tests share. */

/** stdout with the two fields that differ between any two runs blanked. */
export function normal(stdout: string): string {
  return stdout.replace(/"execution_id":"[^"]*"/g, '"execution_id":""').replace(/"timestamp":"[^"]*"/g, '"timestamp":""');
}

/** Polls `fn` until it gives a value, failing after `ms` with what was awaited. */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
