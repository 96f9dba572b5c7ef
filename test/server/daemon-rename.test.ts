/**
 * splice's rename language servers inside the daemon: the first rename starts pyright, the
 * daemon keeps it (a CLI process closes it so that it can exit), the next rename reuses it and
 * still sees a module written by something else in between. Real bins, real daemon, real pyright.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, it } from "node:test";
import { REPO_ROOT, runTool, tempDir } from "../support/run.js";

const ENV = { LLMTOOLS_DAEMON_IDLE_TIMEOUT: "120" };
const roots: string[] = [];

after(async () => {
  for (const root of roots) await runTool("llmtools", ["daemon", "stop", "--root", root], { env: ENV });
});

interface RenameStep {
  engine: string;
  engine_timing?: { warm: boolean };
  locations: { file: string }[];
}

async function rename(root: string, file: string, symbol: string, to: string): Promise<RenameStep> {
  const r = await runTool("splice", ["rename", "--file", file, "--symbol", symbol, "--to", to], { cwd: root, env: ENV });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stderr, /in-process/, "the rename ran in the daemon");
  const step = (r.json as { result: { steps: RenameStep[] } }).result.steps[0];
  assert.ok(step, r.stdout);
  return step;
}

/** Command lines of the daemon's live child processes. */
function children(pid: number): string[] {
  const out: string[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(`${d} ${readFileSync(`/proc/${d}/cmdline`, "utf8").replace(/\0/g, " ")}`);
    } catch {
      // the process ended while it was read
    }
  }
  return out;
}

it("the daemon keeps pyright warm between renames, and the warm server sees files written since", async () => {
  const root = tempDir("llmtools-daemon-rename-");
  cpSync(join(REPO_ROOT, "test", "fixtures", "splice-rename", "py"), root, { recursive: true });
  execFileSync("git", ["init", "-q", root]);
  roots.push(root);
  const started = await runTool("llmtools", ["daemon", "start", "--root", root], { env: ENV });
  assert.equal(started.code, 0, started.stdout + started.stderr);
  const pid = (started.json as { data: { pid: number } }).data.pid;

  const first = await rename(root, "shop/models.py", "cheapest", "lowest");
  assert.equal(first.engine, "pyright");
  assert.equal(first.engine_timing?.warm, false);
  const servers = children(pid).filter((c) => /pyright/.test(c));
  // pyright as the rename engine, and as the validation checker: the daemon keeps both
  assert.ok(servers.length >= 1, `pyright kept by the daemon after the rename: ${children(pid).join("; ")}`);

  // another tool writes a module that uses the renamed function
  writeFileSync(join(root, "report.py"), "from shop.models import lowest, load_products\n\nprint(lowest(load_products([])))\n");
  const second = await rename(root, "shop/models.py", "lowest", "cheapest_one");
  assert.equal(second.engine_timing?.warm, true, "the second rename reused the server");
  assert.equal(second.locations.filter((l) => l.file === "report.py").length, 2, JSON.stringify(second.locations));
  assert.match(readFileSync(join(root, "report.py"), "utf8"), /import cheapest_one, load_products\n\nprint\(cheapest_one\(/);
  assert.deepEqual(
    children(pid).filter((c) => /pyright/.test(c)),
    servers,
    "the same pyright processes served both renames (none started, none stopped)",
  );
});
