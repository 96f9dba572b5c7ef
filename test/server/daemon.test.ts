/**
 * The warm daemon as users meet it: real bins, a real daemon process per workspace, a real Unix
 * socket. Each test copies test/fixtures/server/ws into a fresh git work tree and stops its
 * daemon at the end (and every daemon it starts has a short idle timeout besides).
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import { DIST, REPO_ROOT, runTool, startTool, tempDir } from "../support/run.js";
import { normal, until } from "./helpers.js";

const FIXTURE = join(REPO_ROOT, "test", "fixtures", "server", "ws");
const ENV = { LLMTOOLS_DAEMON_IDLE_TIMEOUT: "120" };
const roots: string[] = [];

after(async () => {
  for (const root of roots) await runTool("llmtools", ["daemon", "stop", "--root", root], { env: ENV });
});

/** A fresh copy of the fixture as a git work tree, indexed. */
async function workspace(): Promise<string> {
  const root = tempDir("llmtools-daemon-");
  cpSync(FIXTURE, root, { recursive: true });
  mkdirSync(join(root, ".git"));
  roots.push(root);
  const r = await runTool("magellan", ["index", "--no-daemon"], { cwd: root });
  assert.equal(r.code, 0, r.stderr);
  return root;
}

interface DaemonData {
  state: string;
  pid?: number;
  note?: string;
  socket?: string;
  package_version?: string;
  requests_served?: number;
  index?: { stale_files: number };
}

async function daemon(root: string, sub: "start" | "stop" | "status", extra: string[] = []): Promise<DaemonData> {
  const r = await runTool("llmtools", ["daemon", sub, "--root", root, ...extra], { env: ENV });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return (r.json as { data: DaemonData }).data;
}

/** A daemon of another install of the package (the same code under another version number) serving `root`. */
async function otherVersionDaemon(root: string): Promise<{ old: ChildProcess; pkg: { version: string } }> {
  const other = tempDir("llmtools-other-");
  cpSync(join(DIST, "src"), join(other, "dist", "src"), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  writeFileSync(join(other, "package.json"), JSON.stringify({ ...pkg, version: `${pkg.version}-other` }));
  symlinkSync(join(REPO_ROOT, "node_modules"), join(other, "node_modules"));
  const old = spawn(process.execPath, [join(other, "dist", "src", "server", "main.js"), "--root", root, "--idle-timeout", "60"], { stdio: "ignore", detached: true });
  old.unref();
  const sock = join(root, ".magellan", "daemon.sock");
  await until("the other version's daemon", async () => (existsSync(`${sock}.json`) ? true : undefined));
  return { old, pkg };
}

/** Waits until no index run holds the index (meta index_running): a daemon's catch-up run. */
function indexIdle(root: string): Promise<unknown> {
  return until("the daemon's index run to end", async () => {
    const db = new Database(join(root, ".magellan", "code.db"), { readonly: true });
    try {
      const v = db.prepare("SELECT value FROM meta WHERE key = 'index_running'").pluck().get() as string | undefined;
      return v === undefined || v === "0" ? true : undefined;
    } finally {
      db.close();
    }
  });
}

/**
 * Until the daemon is idle: its watcher ready and its start-up catch-up run done (it answers while
 * they start, and CI once asked in between: the catch-up began under the answer, which then said
 * partial), nothing stale, no index run in the index's meta, and all of it twice in a row.
 */
async function daemonIdle(root: string): Promise<void> {
  let last: number | undefined;
  await until("the daemon to be idle", async () => {
    await indexIdle(root);
    const s = (await daemon(root, "status")) as DaemonData & { index?: { watching?: boolean; indexed_cycles?: number } };
    const cycles = s.index?.watching === true && s.index.stale_files === 0 && (s.index.indexed_cycles ?? 0) >= 1 ? s.index.indexed_cycles : undefined;
    const steady = cycles !== undefined && cycles === last;
    last = cycles;
    return steady ? true : undefined;
  });
  await indexIdle(root);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Command lines of every tool, run from `cwd` (relative to the root). */
const LINES: { tool: string; args: string[]; cwd?: string; input?: string; raw?: boolean }[] = [
  { tool: "magellan", args: ["find", "--name", "area"] },
  { tool: "magellan", args: ["find", "--name", "Circle", "--with-context", "1", "--with-checksums"] },
  // Precise by default in the daemon only (docs/daemon.md): --no-precise asks both for the index's answer.
  { tool: "magellan", args: ["refs", "--name", "totalArea", "--with-callers", "--no-precise"] },
  { tool: "magellan", args: ["query", "--file", "format.ts"], cwd: "src/util" },
  { tool: "magellan", args: ["find", "--name", "are", "--match", "prefix", "--limit", "1"] },
  { tool: "magellan", args: ["status"] },
  { tool: "magellan", args: ["files", "--symbols"] },
  { tool: "magellan", args: ["find", "--name"] },
  { tool: "magellan", args: ["symbols", "--file", "src/area.ts"] },
  { tool: "magellan", args: ["nonsense"] },
  { tool: "magellan", args: ["--help"], raw: true },
  { tool: "llmsearch", args: ["-e", "area", "-C", "1"] },
  { tool: "llmsearch", args: ["-e", "TODO", "-g", "*.md", "--count"] },
  { tool: "llmsearch", args: ["-e", "size", "."], cwd: "src" },
  { tool: "llmsearch", args: ["-e", "(unclosed"] },
  { tool: "llmsearch", args: ["--version"], raw: true },
  { tool: "llmastsearch", args: ["--language", "typescript", "--query", "(class_declaration name: (type_identifier) @name)"] },
  { tool: "llmastsearch", args: ["--language", "typescript", "--query", "(oops"] },
  { tool: "mdsel", args: ["index", "README.md"] },
  { tool: "mdsel", args: ["select", "h2.1", "README.md", "docs/guide.md"] },
  { tool: "mdsel", args: ["select", "--nope"] },
  { tool: "llmtransform", args: ["--dry-run"], input: JSON.stringify({ file_path: "src/util/format.ts", edits: [{ byte_start: 0, byte_end: 3, new_content: "//!" }] }) },
  { tool: "llmfilewrite", args: ["--path", "src/extra.ts", "--dry-run"], input: "export const extra: number = 1;\n" },
  { tool: "llmfilewrite", args: ["--path", "src/bad.ts", "--dry-run", "--content", "export const bad: number = 'x';\n"] },
];

// Each test has its own workspace and daemon: they run side by side.
describe("the daemon", { concurrency: 4 }, () => {
  it("start, status and stop: one daemon per root, a 0600 socket, gone after stop", async () => {
    const root = await workspace();
    assert.equal((await daemon(root, "status")).state, "not_running");
    const started = await daemon(root, "start");
    assert.equal(started.state, "running");
    assert.ok(started.pid !== undefined && alive(started.pid));
    const sock = started.socket as string;
    assert.equal(sock, join(root, ".magellan", "daemon.sock"));
    assert.ok(statSync(sock).isSocket());
    assert.equal(statSync(sock).mode & 0o777, 0o600);
    // start answers once the watcher is set up: a save right after it is never missed.
    assert.equal((started.index as { watching?: boolean } | undefined)?.watching, true);
    const again = await daemon(root, "start");
    assert.equal(again.pid, started.pid, "a second start finds the running daemon");
    const status = await daemon(root, "status");
    assert.equal(status.pid, started.pid);
    assert.equal(status.index?.stale_files, 0);
    assert.equal((await daemon(root, "stop")).state, "stopped");
    assert.ok(!existsSync(sock));
    await until("the daemon to exit", async () => (alive(started.pid as number) ? undefined : true));
    assert.equal((await daemon(root, "status")).state, "not_running");
  });

  it("every tool prints the same bytes through the daemon as in-process (execution_id and timestamp aside)", async () => {
    const root = await workspace();
    await daemon(root, "start");
    const before = (await daemon(root, "status")).requests_served as number;
    for (const [i, line] of LINES.entries()) {
      const cwd = join(root, line.cwd ?? "");
      const opts = { cwd, input: line.input, raw: line.raw };
      const [warm, cold, env] = await Promise.all([
        runTool(line.tool, line.args, opts),
        runTool(line.tool, [...line.args, "--no-daemon"], opts),
        // The environment variable bypasses the daemon as the flag does (checked on a few lines).
        i % 8 === 0 ? runTool(line.tool, line.args, { ...opts, env: { LLMTOOLS_NO_DAEMON: "1" } }) : undefined,
      ]);
      const label = `${line.tool} ${line.args.join(" ")}`;
      assert.equal(warm.code, cold.code, label);
      assert.equal(normal(warm.stdout), normal(cold.stdout), label);
      if (env) assert.equal(normal(env.stdout), normal(cold.stdout), label);
      assert.equal(warm.stderr, cold.stderr, label);
    }
    const served = (await daemon(root, "status")).requests_served as number;
    assert.equal(served - before, LINES.length, "each warm run went through the daemon");
    assert.ok(!existsSync(join(root, "src", "extra.ts")), "dry runs wrote nothing");
  });

  it("a write through the daemon is in the index when it returns; an outside save is found within a bound", async () => {
    const root = await workspace();
    await daemon(root, "start");
    const w = await runTool("llmfilewrite", ["--path", "src/volume.ts"], { cwd: root, input: "export function cubeVolume(side: number): number {\n  return side ** 3;\n}\n" });
    assert.equal(w.code, 0, w.stdout);
    const found = await runTool("magellan", ["find", "--name", "cubeVolume"], { cwd: root });
    assert.equal((found.json as { data: { matches: unknown[] } }).data.matches.length, 1);

    // An editor's save, not through any tool.
    const t0 = Date.now();
    writeFileSync(join(root, "src", "extra.ts"), "export function sphereVolume(r: number): number {\n  return (4 / 3) * Math.PI * r ** 3;\n}\n");
    await until(
      "the saved symbol",
      async () => {
        const r = await runTool("magellan", ["find", "--name", "sphereVolume"], { cwd: root });
        // Until the watcher has seen the save, the answer is E104 (no such symbol), without matches.
        return (r.json as { data: { matches?: unknown[] } }).data.matches?.length === 1 ? true : undefined;
      },
      5000,
    );
    assert.ok(Date.now() - t0 < 5000);
    const status = await daemon(root, "status");
    assert.equal(status.index?.stale_files, 0);
  });

  it("while the index lags behind a save, answers carry the freshness note; magellan queries catch up first", async () => {
    const root = await workspace();
    // A long quiet period keeps the save pending in the watcher.
    await runTool("llmtools", ["daemon", "start", "--root", root], { env: { ...ENV, LLMTOOLS_DAEMON_DEBOUNCE_MS: "60000" } });
    writeFileSync(join(root, "src", "util", "format.ts"), "export function formatVolume(v: number): string {\n  return `${v} m3`;\n}\n");
    await until("the watcher to see the save", async () => ((await daemon(root, "status")).index?.stale_files === 1 ? true : undefined));
    const search = await runTool("llmsearch", ["-e", "formatVolume"], { cwd: root });
    const notes = (search.json as { diagnostics?: { level: string; code: string; message: string }[] }).diagnostics ?? [];
    assert.deepEqual(
      notes.map((d) => [d.level, d.code]),
      [["note", "LLMSEARCH_E090"]],
    );
    assert.match(notes[0]?.message ?? "", /1 file changed on disk is not in the magellan index yet/);
    const find = await runTool("magellan", ["find", "--name", "formatVolume"], { cwd: root });
    assert.equal((find.json as { data: { matches: unknown[] } }).data.matches.length, 1);
    assert.equal((find.json as { diagnostics?: unknown[] }).diagnostics, undefined, "caught up: no note, no STALE_INDEX");
    assert.equal((await daemon(root, "status")).index?.stale_files, 0);
    // The graph's commands catch up too.
    writeFileSync(join(root, "src", "util", "area.ts"), "export function formatArea(a: number): string {\n  return `${a} m2`;\n}\n");
    await until("the watcher to see the second save", async () => ((await daemon(root, "status")).index?.stale_files === 1 ? true : undefined));
    const reach = await runTool("magellan", ["reachable", "--symbol", "formatArea"], { cwd: root });
    assert.equal(reach.code, 0, reach.stdout);
    assert.equal((await daemon(root, "status")).index?.stale_files, 0);
  });

  it("a killed daemon's socket is detected, the run falls back in-process, and a new daemon replaces it", async () => {
    const root = await workspace();
    const first = await daemon(root, "start");
    // Killed inside its catch-up index run, it would leave the index marked as being updated, and
    // every answer after partial (rightly; CI saw exit 4): the socket is what this test is about.
    // Not the index's meta alone: read before the catch-up began, it said idle, and the kill then
    // landed inside the run (CI saw exit 4 again); daemonIdle waits for the catch-up to be done.
    await daemonIdle(root);
    process.kill(first.pid as number, "SIGKILL");
    await until("the daemon to die", async () => (alive(first.pid as number) ? undefined : true));
    const cold = await runTool("magellan", ["find", "--name", "formatArea", "--no-daemon"], { cwd: root });
    const r = await runTool("magellan", ["find", "--name", "formatArea"], { cwd: root });
    assert.equal(r.code, 0);
    assert.equal(normal(r.stdout), normal(cold.stdout));
    assert.match(r.stderr, /stale socket\); running in-process/);
    const next = await until("a replacement daemon", async () => {
      const s = await daemon(root, "status");
      return s.state === "running" ? s : undefined;
    });
    assert.notEqual(next.pid, first.pid);
  });

  it("a daemon of another package version is replaced by one of this version", async () => {
    const root = await workspace();
    const { old, pkg } = await otherVersionDaemon(root);
    const cold = await runTool("llmsearch", ["-e", "Square", "--no-daemon"], { cwd: root });
    const r = await runTool("llmsearch", ["-e", "Square"], { cwd: root });
    assert.equal(normal(r.stdout), normal(cold.stdout));
    assert.match(r.stderr, /another version .*-other/);
    const next = await until("this version's daemon", async () => {
      const s = await daemon(root, "status");
      return s.state === "running" && s.package_version === pkg.version ? s : undefined;
    });
    assert.notEqual(next.pid, old.pid);
    await until("the old daemon to exit", async () => (alive(old.pid as number) ? undefined : true));
  });

  it("status meeting a daemon of another version says why it finds none running", async () => {
    const root = await workspace();
    const { old } = await otherVersionDaemon(root);
    const s = await daemon(root, "status");
    assert.equal(s.state, "not_running");
    assert.match(String(s.note), /another version or build \(.*-other, pid \d+\) answered and stopped.*llmtools daemon start/);
    await until("the old daemon to exit", async () => (alive(old.pid as number) ? undefined : true));
  });

  it("a daemon killed mid-request: the CLI finishes the work in-process, with its stdin, and says so on stderr only", async () => {
    const root = await workspace();
    const d = await daemon(root, "start");
    const content = "export function halfWritten(): string {\n  return 'complete';\n}\n";
    const { child, closed, stdout: out, stderr } = startTool("llmfilewrite", ["--path", "src/half.ts"], { cwd: root });
    child.stdin.write(content.slice(0, 20));
    // The daemon is running the request (waiting for the rest of stdin) when it is killed.
    await until("the request to start in the daemon", async () => {
      const s = await runTool("llmtools", ["daemon", "status", "--root", root]);
      return (s.json as { data: { requests_active?: number } }).data.requests_active === 1 ? true : undefined;
    });
    // A request counts as active from its arrival; its greeting leaves with the daemon's ask for
    // stdin (or after 30 ms). Killed before that, the client rightly says the daemon "closed the
    // connection" (CI saw it once under load): this test is about a daemon that had greeted.
    await new Promise((r) => setTimeout(r, 500));
    process.kill(d.pid as number, "SIGKILL");
    await new Promise((r) => setTimeout(r, 200));
    child.stdin.end(content.slice(20));
    const code = await closed;
    const stdout = out();
    assert.equal(code, 0, stdout + stderr());
    assert.equal((JSON.parse(stdout) as { status: string }).status, "approved");
    assert.match(stderr(), /stopped mid-request; running in-process/);
    assert.equal(readFileSync(join(root, "src", "half.ts"), "utf8"), content);
  });

  it("a client killed mid-search: the daemon stops the search instead of running on with nobody to answer", async () => {
    const root = await workspace();
    await daemon(root, "start");
    // '(a+)+b' backtracks exponentially on a line of 40 'a's without a 'b' (the 'b' on line 1
    // lets the file past the literal prefilter): with a 10-minute budget per file, the search
    // would hold a core, and the cwd gate every request from another directory waits on, for 10 minutes.
    writeFileSync(join(root, "slow.txt"), `b\n${"a".repeat(40)}c\n`);
    const active = async (): Promise<number | undefined> => {
      const st = await runTool("llmtools", ["daemon", "status", "--root", root]);
      return (st.json as { data: { requests_active?: number } }).data.requests_active;
    };
    const { child, closed } = startTool("llmsearch", ["-e", "(a+)+b", "--timeout", "600000", "slow.txt"], { cwd: root });
    await until("the search to run in the daemon", async () => ((await active()) === 1 ? true : undefined));
    child.kill("SIGKILL");
    await closed;
    await until("the daemon to drop the search", async () => ((await active()) === 0 ? true : undefined), 60_000);
    // A request from another directory, which would have waited behind the search, is answered.
    const r = await runTool("llmsearch", ["-e", "size", "."], { cwd: join(root, "src") });
    assert.equal(r.code, 0, r.stderr);
    assert.ok((r.json as { data: { match_count: number } }).data.match_count > 0);
  });

  it("--daemon starts a daemon when none runs; a hung daemon is killed and replaced, never waited on", async () => {
    const root = await workspace();
    const cold = await runTool("magellan", ["refs", "--name", "formatArea", "--no-precise", "--no-daemon"], { cwd: root });
    const r = await runTool("magellan", ["refs", "--name", "formatArea", "--no-precise", "--daemon"], { cwd: root, env: ENV });
    // The new daemon's catch-up index run may still be going (CI saw it under load): its answer
    // then rightly carries the STALE_INDEX note and partial; the references are the same.
    const refsOf = (out: string): unknown => (JSON.parse(out) as { data: { references: unknown } }).data.references;
    assert.deepEqual(refsOf(r.stdout), refsOf(cold.stdout));
    const d = await daemon(root, "status");
    assert.equal(d.state, "running");
    // Stopped in the middle of its own index run, the daemon would leave the index marked as
    // being updated by a live process, and every answer partial (rightly): stop it when idle.
    const idle = (): Promise<unknown> => daemonIdle(root);
    await idle();
    // Once it is idle, its answer is the in-process one, byte for byte.
    const warm = await runTool("magellan", ["refs", "--name", "formatArea", "--no-precise"], { cwd: root, env: ENV });
    assert.equal(normal(warm.stdout), normal(cold.stdout));
    // (A request may start its catch-up run again: CI stopped the daemon inside one.)
    await idle();
    process.kill(d.pid as number, "SIGSTOP");
    const t0 = Date.now();
    const hung = await runTool("magellan", ["refs", "--name", "formatArea", "--no-precise"], { cwd: root, env: { LLMTOOLS_DAEMON_CONNECT_TIMEOUT_MS: "500" } });
    assert.ok(Date.now() - t0 < 10_000);
    assert.equal(normal(hung.stdout), normal(cold.stdout));
    assert.match(hung.stderr, /hung\); running in-process/);
    await until("the hung daemon to be killed", async () => (alive(d.pid as number) ? undefined : true));
  });

  it("a client that finds the daemon busy with another client's long request runs in-process and leaves it running", async () => {
    const root = await workspace();
    const d = await daemon(root, "start");
    writeFileSync(join(root, "slow.ts"), Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};\n`).join(""));
    const cold = await runTool("magellan", ["find", "--name", "formatArea", "--no-daemon"], { cwd: root });
    // The first client's search holds the daemon's loop for 6 s from about its start.
    const first = startTool("llmastsearch", ["-q", "(program (_) @a (_) @b (_) @c)", "--timeout", "6000", "slow.ts"], { cwd: root, env: ENV });
    await new Promise((r) => setTimeout(r, 1500));
    const second = await runTool("magellan", ["find", "--name", "formatArea"], { cwd: root, env: { ...ENV, LLMTOOLS_DAEMON_CONNECT_TIMEOUT_MS: "1000" } });
    // (The daemon's own index run of slow.ts may be held up by the search too: partial or not, the same symbols.)
    const matchesOf = (out: string): unknown => (JSON.parse(normal(out)) as { data: unknown }).data;
    assert.deepEqual(matchesOf(second.stdout), matchesOf(cold.stdout));
    assert.match(second.stderr, /busy with another request \(not hung\), left running; running in-process/);
    assert.equal(await first.closed, 4);
    // The first client's answer came from the daemon, which was not killed under it.
    assert.equal(first.stderr(), "");
    assert.ok(alive(d.pid as number), "the daemon lives on");
  });

  it("concurrent clients from several directories share one daemon and each gets its own answer", async () => {
    const root = await workspace();
    await daemon(root, "start");
    const lines = LINES.filter((l) => ["magellan", "llmsearch", "mdsel"].includes(l.tool) && !l.raw);
    const cold = await Promise.all(lines.map((l) => runTool(l.tool, [...l.args, "--no-daemon"], { cwd: join(root, l.cwd ?? "") })));
    const warm = await Promise.all([...lines, ...lines].map((l) => runTool(l.tool, l.args, { cwd: join(root, l.cwd ?? "") })));
    warm.forEach((w, i) => {
      const c = cold[i % lines.length] as { stdout: string; code: number };
      assert.equal(w.code, c.code);
      assert.equal(normal(w.stdout), normal(c.stdout), `${lines[i % lines.length]?.tool} ${lines[i % lines.length]?.args.join(" ")}`);
    });
  });

  it("the daemon exits after its idle timeout and removes its socket", async () => {
    const root = await workspace();
    const d = await daemon(root, "start", ["--idle-timeout", "1"]);
    await until("idle shutdown", async () => (alive(d.pid as number) ? undefined : true), 8000);
    assert.ok(!existsSync(d.socket as string));
  });
});
