/**
 * Precise refs/callers/callees inside a real daemon: the TypeScript language service runs in the
 * daemon's worker thread (src/graph/precise/service.ts) on test/fixtures/magellan/precise, where
 * the index sees `s.get("a")` and `c.get("b")` as ambiguous between Store.get and Cache.get and
 * the compiler knows `s` is a Store and `c` a Cache. The steps run in order on one daemon.
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { REPO_ROOT, type RunResult, runTool, tempDir } from "../support/run.js";
import { normal, until as waitUntil } from "./helpers.js";

const ENV = { LLMTOOLS_DAEMON_IDLE_TIMEOUT: "120" };

interface Ref {
  resolution: string;
  target_display_fqn?: string;
  span: { file_path: string; start_line: number };
}
interface RefsData {
  references: Ref[];
  precise?: { status: string; asked: number; compiler: number; rejected: number; external: number; no_answer: number };
}
interface Env {
  data: RefsData;
  diagnostics?: { code: string; level: string; message: string; remediation?: string }[];
}
interface PreciseStatus {
  workers: { state: string; thread_id: number; build_ms?: number; batches: number }[];
  workers_started: number;
  worker_deaths: number;
  config_restarts: number;
  fallbacks: number;
  trusted_batches: number;
}

let root: string;
let storeGet: string;
let pid: number;

const mg = (args: string[], env: Record<string, string> = {}): Promise<RunResult> => runTool("magellan", args, { cwd: root, env: { ...ENV, ...env } });
const envOf = (r: RunResult): Env => r.json as Env;
const lines = (r: RunResult): string[] => envOf(r).data.references.map((x) => `${x.span.file_path}:${x.span.start_line}:${x.resolution}`);

async function preciseStatus(): Promise<PreciseStatus> {
  const r = await runTool("llmtools", ["daemon", "status", "--root", root], { env: ENV });
  return (r.json as { data: { precise: PreciseStatus } }).data.precise;
}

/** Precise answers wait on a language service: a longer budget than the daemon's other waits. */
const until = <T>(what: string, fn: () => Promise<T | undefined>): Promise<T> => waitUntil(what, fn, 30_000);

before(async () => {
  root = tempDir("llmtools-precise-");
  cpSync(join(REPO_ROOT, "test", "fixtures", "magellan", "precise"), root, { recursive: true });
  mkdirSync(join(root, ".git"));
  assert.equal((await mg(["index", "--no-daemon"])).code, 0);
  const found = envOf(await mg(["find", "--name", "get", "--no-daemon"])).data as unknown as { matches: { symbol_id: string; parent?: string }[] };
  storeGet = found.matches.find((m) => m.parent === "Store")?.symbol_id as string;
  assert.ok(storeGet);
  const started = await runTool("llmtools", ["daemon", "start", "--root", root], { env: ENV });
  pid = (started.json as { data: { pid: number } }).data.pid;
  assert.ok(pid > 0);
});

after(async () => {
  await runTool("llmtools", ["daemon", "stop", "--root", root], { env: ENV });
});

describe("precise resolution in the daemon", () => {
  it("the first question while the service builds: the index's answer at once, status warming and MAGELLAN_E113", async () => {
    // A zero wait: the answer cannot be the worker's, whatever the machine's speed.
    const r = await mg(["callers", "--symbol-id", storeGet], { LLMTOOLS_PRECISE_WAIT_MS: "0" });
    assert.equal(r.code, 0, r.stdout);
    const e = envOf(r);
    assert.deepEqual(lines(r), ["src/use.ts:5:ambiguous", "src/use.ts:10:ambiguous"]);
    assert.equal(e.data.precise?.status, "warming");
    const warn = e.diagnostics?.find((d) => d.code === "MAGELLAN_E113");
    assert.ok(warn, JSON.stringify(e.diagnostics));
    assert.equal(warn.level, "warning");
    assert.match(warn.remediation ?? "", /[Rr]etry in a few seconds/);
    const s = await preciseStatus();
    assert.equal(s.workers_started, 1);
    assert.equal(s.fallbacks, 1);
  });

  it("once built, a refs query is answered by the compiler by default: Store.get keeps s.get and drops c.get", async () => {
    const r = await until("a precise answer", async () => {
      const x = await mg(["callers", "--symbol-id", storeGet]);
      return envOf(x).data.precise?.status === "answered" ? x : undefined;
    });
    assert.deepEqual(lines(r), ["src/use.ts:5:compiler"]);
    assert.deepEqual(envOf(r).data.precise, { status: "answered", asked: 2, compiler: 1, rejected: 1, external: 0, no_answer: 0 });
    assert.ok(!envOf(r).diagnostics?.some((d) => d.code === "MAGELLAN_E113"));
    const refsIn = await mg(["refs", "--name", "format", "--path", "src/other.ts"]);
    assert.deepEqual(lines(refsIn).filter((l) => l.startsWith("src/use.ts:14")), ["src/use.ts:14:compiler"]);
    const s = await preciseStatus();
    assert.equal(s.workers[0]?.state, "ready");
    assert.ok((s.workers[0]?.build_ms ?? -1) >= 0);
  });

  it("--precise and --no-precise make daemon and in-process answers byte-identical; by default they differ", async () => {
    for (const args of [
      ["callers", "--symbol-id", storeGet],
      ["callees", "--name", "fromCache"],
      ["refs", "--name", "format", "--with-callers"],
    ]) {
      for (const flag of ["--precise", "--no-precise"]) {
        const [warm, cold] = await Promise.all([mg([...args, flag]), mg([...args, flag, "--no-daemon"])]);
        assert.equal(warm.code, cold.code, `${args.join(" ")} ${flag}`);
        assert.equal(normal(warm.stdout), normal(cold.stdout), `${args.join(" ")} ${flag}`);
      }
    }
    const [warm, cold] = await Promise.all([mg(["callers", "--symbol-id", storeGet]), mg(["callers", "--symbol-id", storeGet, "--no-daemon"])]);
    assert.deepEqual(lines(warm), ["src/use.ts:5:compiler"]);
    assert.deepEqual(lines(cold), ["src/use.ts:5:ambiguous", "src/use.ts:10:ambiguous"]);
    assert.equal(envOf(cold).data.precise, undefined);
    // Nothing to ask the compiler (nobody calls fromCache): by default the same bytes as in-process.
    const [none, noneCold] = await Promise.all([mg(["callers", "--name", "fromCache"]), mg(["callers", "--name", "fromCache", "--no-daemon"])]);
    assert.equal(normal(none.stdout), normal(noneCold.stdout));
  });

  it("a file edited after the service was built is seen by the next precise answer (same size, so only its text tells)", async () => {
    const use = join(root, "src", "use.ts");
    const before = readFileSync(use, "utf8");
    const after = before.replace("new Cache()", "new Store()");
    assert.notEqual(after, before);
    assert.equal(after.length, before.length);
    writeFileSync(use, after);
    const r = await until("the edit in the precise answer", async () => {
      const x = await mg(["callers", "--symbol-id", storeGet]);
      return lines(x).length === 2 ? x : undefined;
    });
    assert.deepEqual(lines(r), ["src/use.ts:5:compiler", "src/use.ts:10:compiler"]);
    writeFileSync(use, before);
    const back = await until("the edit undone", async () => {
      const x = await mg(["callers", "--symbol-id", storeGet]);
      return lines(x).length === 1 ? x : undefined;
    });
    assert.deepEqual(lines(back), ["src/use.ts:5:compiler"]);
  });

  it("batches answered on the watcher's word (no stat of every file): an edit that keeps size and mtime is in the very next answer", async () => {
    // a first batch lets the watcher cover the programs' directories
    await mg(["callers", "--symbol-id", storeGet]);
    await mg(["callers", "--symbol-id", storeGet]);
    const trustedBefore = (await preciseStatus()).trusted_batches;
    const use = join(root, "src", "use.ts");
    const before = readFileSync(use, "utf8");
    const st = statSync(use);
    writeFileSync(use, before.replace("new Cache()", "new Store()"));
    utimesSync(use, st.atime, st.mtime);
    const r = await mg(["callers", "--symbol-id", storeGet]);
    assert.deepEqual(lines(r), ["src/use.ts:5:compiler", "src/use.ts:10:compiler"]);
    writeFileSync(use, before);
    utimesSync(use, st.atime, st.mtime);
    const back = await mg(["callers", "--symbol-id", storeGet]);
    assert.deepEqual(lines(back), ["src/use.ts:5:compiler"]);
    assert.ok((await preciseStatus()).trusted_batches > trustedBefore, JSON.stringify(await preciseStatus()));
  });

  it("a killed worker is replaced on the next question; a changed tsconfig replaces it too", async () => {
    const first = (await preciseStatus()).workers[0]?.thread_id;
    assert.ok(first !== undefined);
    // SIGUSR2 ends the daemon's language-service workers (terminate: what a crash looks like to it).
    process.kill(pid, "SIGUSR2");
    await until("the worker's death", async () => ((await preciseStatus()).worker_deaths === 1 ? true : undefined));
    assert.equal((await preciseStatus()).workers.length, 0);
    const r = await mg(["callers", "--symbol-id", storeGet, "--precise"]);
    assert.deepEqual(lines(r), ["src/use.ts:5:compiler"]);
    const s = await preciseStatus();
    assert.equal(s.workers_started, 2);
    assert.notEqual(s.workers[0]?.thread_id, first);

    const config = join(root, "tsconfig.json");
    writeFileSync(config, readFileSync(config, "utf8").replace("{", '{\n  "exclude": ["node_modules"],'));
    const again = await mg(["callers", "--symbol-id", storeGet, "--precise"]);
    assert.deepEqual(lines(again), ["src/use.ts:5:compiler"]);
    const t = await preciseStatus();
    assert.equal(t.config_restarts, 1);
    assert.equal(t.workers_started, 3);
    assert.equal(t.worker_deaths, 1);
  });
});

describe("the daemon gives a language service's memory back", { concurrency: 2 }, () => {
  /** A fresh indexed copy of the fixture with its own daemon, started with `env`. */
  async function own(env: Record<string, string>): Promise<string> {
    const dir = tempDir("llmtools-precise-mem-");
    cpSync(join(REPO_ROOT, "test", "fixtures", "magellan", "precise"), dir, { recursive: true });
    mkdirSync(join(dir, ".git"));
    assert.equal((await runTool("magellan", ["index", "--no-daemon"], { cwd: dir })).code, 0);
    await runTool("llmtools", ["daemon", "start", "--root", dir], { env: { ...ENV, ...env } });
    return dir;
  }
  const statusOf = async (dir: string): Promise<PreciseStatus> =>
    ((await runTool("llmtools", ["daemon", "status", "--root", dir], { env: ENV })).json as { data: { precise: PreciseStatus & { memory_restarts: number; idle_releases: number } } }).data.precise;
  const stop = (dir: string): Promise<RunResult> => runTool("llmtools", ["daemon", "stop", "--root", dir], { env: ENV });

  it("past LLMTOOLS_PRECISE_MAX_HEAP_MB after a batch, the worker is ended once it has answered", async () => {
    const dir = await own({ LLMTOOLS_PRECISE_MAX_HEAP_MB: "1" });
    try {
      // The daemon's thread never waits on the build: a find sent after the first precise
      // question (which waits for the build) is answered before it.
      let callersDone = 0;
      let findDone = 0;
      const precise = runTool("magellan", ["callees", "--name", "fromCache", "--precise"], { cwd: dir, env: ENV }).then((x) => ((callersDone = Date.now()), x));
      await until("the worker to start", async () => ((await statusOf(dir)).workers_started === 1 ? true : undefined));
      const found = await runTool("magellan", ["find", "--name", "Store"], { cwd: dir, env: ENV }).then((x) => ((findDone = Date.now()), x));
      assert.equal(found.code, 0);
      const r = await precise;
      assert.ok(findDone < callersDone, `find answered ${findDone - callersDone} ms after the precise question`);
      assert.equal((r.json as Env).data.precise?.status, "answered");
      const s = (await until("the worker's end", async () => {
        const x = await statusOf(dir);
        return x.workers.length === 0 ? x : undefined;
      })) as PreciseStatus & { memory_restarts: number };
      assert.equal(s.memory_restarts, 1);
      assert.equal(s.worker_deaths, 0);
    } finally {
      await stop(dir);
    }
  });

  it("after LLMTOOLS_PRECISE_IDLE_S without a question, the worker is ended; the next question starts one", async () => {
    const dir = await own({ LLMTOOLS_PRECISE_IDLE_S: "1" });
    try {
      const ask = (): Promise<RunResult> => runTool("magellan", ["callees", "--name", "fromCache", "--precise"], { cwd: dir, env: ENV });
      assert.equal(((await ask()).json as Env).data.precise?.status, "answered");
      const s = (await until("the idle release", async () => {
        const x = await statusOf(dir);
        return x.workers.length === 0 ? x : undefined;
      })) as PreciseStatus & { idle_releases: number };
      assert.equal(s.idle_releases, 1);
      assert.equal(((await ask()).json as Env).data.precise?.status, "answered");
      assert.equal((await statusOf(dir)).workers_started, 2);
    } finally {
      await stop(dir);
    }
  });
});
