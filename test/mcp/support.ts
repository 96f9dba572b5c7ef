/** A small real TypeScript workspace and SDK clients of the built `llmtools mcp` bin. */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { REPO_ROOT, binPath, tempDir } from "../support/run.js";

/** magellan's TypeScript fixture under src/, a strict tsconfig, and a Markdown document. */
export function workspace(): string {
  const dir = tempDir("mcp-ws-");
  mkdirSync(join(dir, "src"));
  const from = join(REPO_ROOT, "test/fixtures/magellan/multi/ts");
  for (const f of readdirSync(from)) copyFileSync(join(from, f), join(dir, "src", f));
  copyFileSync(join(REPO_ROOT, "test/fixtures/llmfilewrite/ts-project/tsconfig.json"), join(dir, "tsconfig.json"));
  writeFileSync(
    join(dir, "README.md"),
    "# Widgets\n\nIntro paragraph.\n\n## Install\n\nRun the installer.\n\n```sh\nnpm install widgets\n```\n\n## Usage\n\nCall `render()`.\n",
  );
  return dir;
}

export async function stdioClient(args: string[], roots?: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: binPath("llmtools"), args: ["mcp", ...args], stderr: "pipe", env: { ...process.env } as Record<string, string> });
  const client = new Client({ name: "llmtools-test", version: "1.0.0" }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  if (roots) {
    const { ListRootsRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((r) => ({ uri: `file://${r}`, name: "ws" })) }));
  }
  await client.connect(transport);
  return client;
}

export type Structured = Record<string, unknown> & { data: Record<string, unknown>; cursor?: string; diagnostics?: { code: string; message: string }[] };

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent: Structured }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Structured };
}

export function errorCode(r: { structuredContent: Structured }): string | undefined {
  const d = r.structuredContent.diagnostics?.[0] ?? (r.structuredContent.error as { code: string } | undefined);
  return d?.code;
}
