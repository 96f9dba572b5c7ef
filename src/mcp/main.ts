/** `llmtools mcp`: start the server on stdio or HTTP and run until the client goes away. */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { serveHttp } from "./http.js";
import { enableWarmCache } from "../text/warm-cache.js";
import { McpState, checkRoot, createMcpServer } from "./server.js";

export interface RunOptions {
  http?: number;
  roots: string[];
  /** false (--no-precise): refs/callers/callees answer from the index only. */
  precise?: boolean;
  /** false (--no-watch): the code graph takes in outside changes only through magellan_index. */
  watch?: boolean;
}

export async function runMcp(opts: RunOptions): Promise<void> {
  // stdout is the protocol channel on stdio: any stray console.log of a library would corrupt it.
  const toStderr = (...args: unknown[]): void => {
    process.stderr.write(`${args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")}\n`);
  };
  // eslint-disable-next-line no-console -- redirecting console output is the point here
  console.log = console.info = console.debug = toStderr;
  const state = new McpState(opts.roots.map(checkRoot), opts.precise !== false, opts.watch !== false);
  // A server answers many searches: keep listings and contents between them (stat-checked).
  enableWarmCache();
  const stop = new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  try {
    if (opts.http !== undefined) {
      const h = await serveHttp(state, opts.http);
      process.stderr.write(`llmtools mcp: listening on ${h.url}\nllmtools mcp: bearer token: ${h.token}\n`);
      await stop;
      await h.close();
      return;
    }
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once("end", () => resolve());
    });
    await createMcpServer(state).connect(transport);
    await Promise.race([closed, stop]);
  } finally {
    state.dispose();
  }
}
