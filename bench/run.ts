/**
 * `npm run bench`: runs every bench/<name>.bench.ts suite (discovered by folder listing, so a
 * tool adds its rows without editing this file) and prints one table, each row side by side
 * with the peer tool named in its issue, measured in the same run.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BenchRow } from "./lib.js";

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const dir = fileURLToPath(new URL("./", import.meta.url));
  const suites = readdirSync(dir)
    .filter((f) => f.endsWith(".bench.js"))
    .sort()
    .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)));
  const rows: BenchRow[] = [];
  for (const f of suites) {
    process.stderr.write(`bench: ${f}\n`);
    const mod = (await import(new URL(`./${f}`, import.meta.url).href)) as { run: () => Promise<BenchRow[]> };
    try {
      rows.push(...(await mod.run()));
    } catch (e) {
      rows.push({ suite: f.replace(/\.bench\.js$/, ""), case: "(suite failed)", ours: NaN, note: String(e instanceof Error ? e.message : e) });
      process.exitCode = 1;
    }
  }
  printTable(rows);
}

function fmt(n: number | undefined, unit: string): string {
  if (n === undefined) return "";
  if (Number.isNaN(n)) return "n/a";
  return `${n < 10 ? n.toFixed(2) : n.toFixed(0)}${unit}`;
}

function printTable(rows: BenchRow[]): void {
  const header = ["suite", "case", "ours", "peer", "peer time", "ratio", "target", "peak RSS", "verdict", "note"];
  const body = rows.map((r) => {
    const ratio = r.peerMs !== undefined && r.peerMs > 0 ? r.ours / r.peerMs : undefined;
    let verdict = "";
    if (r.maxRatio !== undefined && ratio !== undefined) verdict = ratio <= r.maxRatio ? "PASS" : "FAIL";
    else if (r.maxMs !== undefined) verdict = r.ours <= r.maxMs ? "PASS" : "FAIL";
    const target = r.maxRatio !== undefined ? `<= ${r.maxRatio}x` : r.maxMs !== undefined ? `<= ${r.maxMs}ms` : "";
    return [
      r.suite,
      r.case,
      fmt(r.ours, r.unit ?? "ms"),
      r.peer ?? "",
      fmt(r.peerMs, "ms"),
      ratio === undefined ? "" : `${ratio.toFixed(2)}x`,
      target,
      r.peakRssMb === undefined ? "" : `${r.peakRssMb.toFixed(0)} MB`,
      verdict,
      r.note ?? "",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  process.stdout.write(`${line(header)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|\n`);
  for (const row of body) process.stdout.write(`${line(row)}\n`);
}

await main();
