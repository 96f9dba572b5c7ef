/**
 * `llmtools mcp --http PORT`: Streamable HTTP on 127.0.0.1 only. Every request must carry the
 * bearer token printed at start (on stderr) and, if it has an Origin, one of this server's own
 * loopback origins; its Host must be this server's loopback address too, so a web page cannot
 * reach it through DNS rebinding. One SDK transport and server per MCP session, all sharing
 * the process's warm state.
 */
import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { type McpState, createMcpServer } from "./server.js";

export interface HttpHandle {
  port: number;
  token: string;
  url: string;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json", ...(status === 401 ? { "www-authenticate": 'Bearer realm="llmtools"' } : {}) });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!m) return false;
  const a = Buffer.from(m[1] as string);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function serveHttp(state: McpState, port: number, token: string = randomBytes(32).toString("base64url")): Promise<HttpHandle> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let hosts: Set<string> = new Set();
  let origins: Set<string> = new Set();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hosts.has(req.headers.host ?? "")) return refuse(res, 403, "Host not allowed: this server answers on its loopback address only");
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return refuse(res, 403, `Origin not allowed: ${origin}`);
    if (!tokenMatches(req.headers.authorization, token)) return refuse(res, 401, "missing or wrong bearer token (printed on stderr when the server started)");
    if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp") return refuse(res, 404, "the MCP endpoint is /mcp");
    const sid = req.headers["mcp-session-id"];
    let transport = typeof sid === "string" ? transports.get(sid) : undefined;
    if (typeof sid === "string" && !transport) return refuse(res, 404, "unknown or expired MCP session; initialize again");
    if (!transport) {
      const t = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, t);
        },
      });
      t.onclose = () => {
        if (t.sessionId) transports.delete(t.sessionId);
      };
      await createMcpServer(state).connect(t);
      transport = t;
    }
    await transport.handleRequest(req, res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      process.stderr.write(`llmtools mcp: http: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      if (!res.headersSent) refuse(res, 500, "internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  hosts = new Set([`127.0.0.1:${actual}`, `localhost:${actual}`]);
  origins = new Set([`http://127.0.0.1:${actual}`, `http://localhost:${actual}`]);
  return {
    port: actual,
    token,
    url: `http://127.0.0.1:${actual}/mcp`,
    close: async () => {
      for (const t of transports.values()) await t.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
