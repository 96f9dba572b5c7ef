/**
 * The MCP server, warm, through the SDK's own Client over stdio (the round trip an agent pays):
 * symbol find and references p50, and a whole-project text search and AST kind query against
 * ripgrep and ast-grep run as whole processes on the same project in the same run, with
 * `node -e 0` beside them. The project: LLMTOOLS_BENCH_TS_PROJECT (a directory; docs/mcp.md's
 * figures use typeorm's sources, ~3,500 .ts files), else bench/corpus.ts's TypeScript corpus.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { countLines, typescriptCorpus } from "./corpus.js";
import { type BenchRow, ourBin, REPO_ROOT, timeCommand } from "./lib.js";

const AST_GREP = join(REPO_ROOT, "node_modules", ".bin", "ast-grep");
const WARM_CALLS = 50;
const PROCESS_RUNS = 5;
/** Search calls, each followed by one ripgrep process. */
const SEARCH_PAIRS = 15;
/** Names tried in turn: the first the index knows is the one measured. */
const SYMBOLS = (process.env.LLMTOOLS_BENCH_SYMBOLS ?? "EntityManager,Observable,Effect,pipe").split(",");

type Result = CallToolResult & { structuredContent?: { data?: Record<string, unknown> } };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/**
 * A tool call and a peer process, one after the other, `n` times: both see the same load
 * (the machine is shared; series run apart can differ by 2x on load alone).
 */
async function interleaved(client: Client, name: string, args: Record<string, unknown>, peer: { cmd: string; args: string[]; cwd: string }, n: number): Promise<{ p50: number; peerP50: number; last: Result }> {
  const ours: number[] = [];
  const theirs: number[] = [];
  let last: Result | undefined;
  await client.callTool({ name, arguments: args });
  spawnSync(peer.cmd, peer.args, { cwd: peer.cwd, maxBuffer: 1 << 30 });
  for (let i = 0; i < n; i++) {
    let t0 = process.hrtime.bigint();
    last = (await client.callTool({ name, arguments: args })) as Result;
    ours.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (last.isError) throw new Error(`${name} failed: ${JSON.stringify(last.structuredContent).slice(0, 500)}`);
    t0 = process.hrtime.bigint();
    const r = spawnSync(peer.cmd, peer.args, { cwd: peer.cwd, maxBuffer: 1 << 30 });
    theirs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.error) throw r.error;
  }
  return { p50: median(ours), peerP50: median(theirs), last: last as Result };
}

async function timed(client: Client, name: string, args: Record<string, unknown>, n: number): Promise<{ p50: number; last: Result }> {
  const runs: number[] = [];
  let last: Result | undefined;
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    last = (await client.callTool({ name, arguments: args })) as Result;
    runs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (last.isError) throw new Error(`${name} failed: ${JSON.stringify(last.structuredContent).slice(0, 500)}`);
  }
  return { p50: median(runs), last: last as Result };
}

export async function run(): Promise<BenchRow[]> {
  const project = process.env.LLMTOOLS_BENCH_TS_PROJECT ?? typescriptCorpus();
  const { files, lines } = countLines(project, [".ts", ".mts", ".cts"]);
  const nodeFloor = timeCommand(process.execPath, ["-e", "0"], { runs: 10 }).medianMs;
  const client = new Client({ name: "llmtools-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: ourBin("llmtools"), args: ["mcp", "--root", project], stderr: "ignore" }));
  const rows: BenchRow[] = [];
  const base = `${files} .ts files, ${lines} lines; node -e 0 = ${nodeFloor.toFixed(0)} ms`;
  try {
    const t0 = Date.now();
    await timed(client, "magellan_index", {}, 1);
    const indexMs = Date.now() - t0;

    let symbol: string | undefined;
    for (const s of SYMBOLS) {
      const r = (await client.callTool({ name: "magellan_find", arguments: { name: s } })) as Result;
      if (!r.isError && ((r.structuredContent?.data?.matches as unknown[]) ?? []).length > 0) {
        symbol = s;
        break;
      }
    }
    if (!symbol) throw new Error(`none of ${SYMBOLS.join(", ")} is defined in ${project}; set LLMTOOLS_BENCH_SYMBOLS`);
    const find = await timed(client, "magellan_find", { name: symbol }, WARM_CALLS);
    rows.push({ suite: "mcp", case: `magellan_find '${symbol}' (warm round trip, p50)`, ours: find.p50, maxMs: 5, note: `${base}; index (incremental) ${indexMs} ms` });
    const refs = await timed(client, "magellan_refs", { name: symbol }, WARM_CALLS);
    const nrefs = (refs.last.structuredContent?.data?.count as number | undefined) ?? 0;
    rows.push({ suite: "mcp", case: `magellan_refs '${symbol}' (warm, p50)`, ours: refs.p50, maxMs: 15, note: `${nrefs} references, first page of max_tokens 4000` });

    const pattern = "TODO";
    const search = await interleaved(client, "llmsearch", { pattern }, { cmd: "rg", args: ["--json", pattern, "."], cwd: project }, SEARCH_PAIRS);
    rows.push({
      suite: "mcp",
      case: `llmsearch '${pattern}' whole project (warm, p50)`,
      ours: search.p50,
      peer: "rg --json (process, interleaved)",
      peerMs: search.peerP50,
      maxRatio: 0.5,
      note: `${search.last.structuredContent?.data?.total_count as number} matches in ${search.last.structuredContent?.data?.files_searched as number} files; ${SEARCH_PAIRS} pairs; load ${loadavg()[0]?.toFixed(1)}`,
    });

    // A regex with no literal to prefilter on: every file goes to the search threads.
    const regex = "\\b[A-Z]\\w+Error\\(";
    const searchRe = await interleaved(client, "llmsearch", { pattern: regex }, { cmd: "rg", args: ["--json", regex, "."], cwd: project }, SEARCH_PAIRS);
    rows.push({
      suite: "mcp",
      case: `llmsearch regex '${regex}' whole project (warm, p50)`,
      ours: searchRe.p50,
      peer: "rg --json (process, interleaved)",
      peerMs: searchRe.peerP50,
      maxRatio: 0.5,
      note: `${searchRe.last.structuredContent?.data?.total_count as number} matches; load ${loadavg()[0]?.toFixed(1)}`,
    });

    const query = "(class_declaration) @c";
    const first = await timed(client, "llmastsearch", { query, language: "typescript" }, 1);
    // Trees the first call's threads parsed are parsed again on the server's idle time.
    await new Promise((r) => setTimeout(r, 5000));
    const ast = await timed(client, "llmastsearch", { query, language: "typescript" }, 10);
    const sg = timeCommand(AST_GREP, ["scan", "--inline-rules", "id: bench\nlanguage: ts\nrule: {kind: class_declaration}", "--json=stream", "."], { cwd: project, runs: PROCESS_RUNS });
    const sgCount = sg.stdout.split("\n").filter((l) => l.trim()).length;
    rows.push({
      suite: "mcp",
      case: "llmastsearch kind class_declaration (warm, p50)",
      ours: ast.p50,
      peer: "ast-grep scan (process)",
      peerMs: sg.medianMs,
      maxRatio: 0.5,
      note: `matches ours ${ast.last.structuredContent?.data?.total_matches as number} / ast-grep ${sgCount}; first call ${first.p50.toFixed(0)} ms`,
    });
  } finally {
    await client.close();
  }
  return rows;
}
