/**
 * The daemon client's own parts on real sockets and real processes: frames cut out of a byte
 * stream however it arrives, both transports (Node's pipe handles and `net`) against a real
 * daemon and against sockets nobody listens on, and a multi-MB answer relayed by the bins byte
 * for byte through either transport.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type ChannelEvents, openChannel, pipeTransportAvailable, runFrame } from "../../src/server/client.cjs";
import { FRAME_JSON, FRAME_STDERR, FRAME_STDOUT, FrameReader, encodeFrame } from "../../src/server/protocol.cjs";
import { REPO_ROOT, binPath, runTool, startTool, tempDir } from "../support/run.js";
import { z } from "zod";
import { normal } from "./helpers.js";

const FIXTURE = join(REPO_ROOT, "test", "fixtures", "server", "ws");
const ENV = { LLMTOOLS_DAEMON_IDLE_TIMEOUT: "120" };

function framesOf(stream: Buffer, chunk: number): { type: number; payload: Buffer }[] {
  const got: { type: number; payload: Buffer }[] = [];
  // Payloads are views of the reader's buffers: copied, as a consumer that keeps them would.
  const reader = new FrameReader((type, payload) => got.push({ type, payload: Buffer.from(payload) }));
  for (let at = 0; at < stream.length; at += chunk) reader.push(stream.subarray(at, at + chunk));
  return got;
}

describe("frames", () => {
  const big = randomBytes(3 * 1024 * 1024 + 17);
  const sent = [
    { type: FRAME_JSON, payload: Buffer.from(JSON.stringify({ t: "hello", pid: 1 })) },
    { type: FRAME_STDERR, payload: Buffer.alloc(0) },
    { type: FRAME_STDOUT, payload: big },
    { type: FRAME_STDOUT, payload: Buffer.from("tail\n") },
    { type: FRAME_JSON, payload: Buffer.from(JSON.stringify({ t: "exit", code: 4 })) },
  ];
  const stream = Buffer.concat(sent.map((f) => encodeFrame(f.type, f.payload)));

  it("are cut out whole however the stream is chunked (one byte, odd sizes, socket-sized reads, all at once)", () => {
    for (const chunk of [1, 5, 1000, 64 * 1024, stream.length]) {
      // One byte at a time over 3 MB would be slow for nothing: the small frames show the same.
      const input = chunk === 1 ? Buffer.concat(sent.filter((f) => f.payload !== big).map((f) => encodeFrame(f.type, f.payload))) : stream;
      const want = chunk === 1 ? sent.filter((f) => f.payload !== big) : sent;
      const got = framesOf(input, chunk);
      assert.equal(got.length, want.length, `chunk ${chunk}`);
      for (const [i, f] of want.entries()) {
        assert.equal(got[i]?.type, f.type, `chunk ${chunk}, frame ${i}`);
        assert.ok(got[i]?.payload.equals(f.payload), `chunk ${chunk}, frame ${i} payload`);
      }
    }
  });

  it("a corrupt length is an error, not a wait for a frame that never comes", () => {
    const reader = new FrameReader(() => undefined);
    assert.throws(() => reader.push(Buffer.from([0, 0, 0, 0, 0x4a])), /bad frame length 0/);
    assert.throws(() => new FrameReader(() => undefined).push(Buffer.from([0x7f, 0xff, 0xff, 0xff, 0x4a])), /bad frame length/);
  });
});

interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

/** A run request sent over one transport, answered by the daemon. */
function ask(sock: string, pipes: boolean, tool: string, argv: string[], cwd: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const reader = new FrameReader((type, payload) => {
      if (type === FRAME_STDOUT) out.push(Buffer.from(payload));
      else if (type === FRAME_STDERR) err.push(Buffer.from(payload));
      else if (type === FRAME_JSON) {
        const m = JSON.parse(payload.toString("utf8")) as { t: string; code?: number };
        if (m.t === "exit") {
          channel.close();
          resolve({ code: m.code ?? -1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
        } else if (m.t !== "hello" && m.t !== "alive") reject(new Error(`unexpected ${m.t}`));
      }
    });
    const events: ChannelEvents = {
      connect: () => channel.write(runFrame(tool, argv, cwd)),
      data: (d) => reader.push(d),
      error: (code) => reject(new Error(code)),
      end: () => reject(new Error("closed before the exit code")),
    };
    const channel = openChannel(sock, events, pipes);
  });
}

/** The error a channel reports for `sock` (undefined when it connects). */
function connectError(sock: string, pipes: boolean): Promise<string | undefined> {
  return new Promise((resolve) => {
    const channel = openChannel(
      sock,
      {
        connect: () => {
          channel.close();
          resolve(undefined);
        },
        data: () => undefined,
        error: (code) => resolve(code),
        end: () => resolve("end"),
      },
      pipes,
    );
  });
}

describe("the client's transports", () => {
  let root = "";
  let sock = "";

  before(async () => {
    root = tempDir("llmtools-client-");
    cpSync(FIXTURE, root, { recursive: true });
    mkdirSync(join(root, ".git"));
    // One file with many matches: an answer of a few MB, many socket reads long.
    const lines = Array.from({ length: 12_000 }, (_, i) => `export const needle${i} = "needle ${i} ${"x".repeat(i % 50)}";`);
    writeFileSync(join(root, "src", "many.ts"), `${lines.join("\n")}\n`);
    const indexed = await runTool("magellan", ["index", "--no-daemon"], { cwd: root });
    assert.equal(indexed.code, 0, indexed.stderr);
    const started = await runTool("llmtools", ["daemon", "start", "--root", root], { env: ENV });
    assert.equal(started.code, 0, started.stderr);
    sock = (started.json as { data: { socket: string } }).data.socket;
  });

  const served = async (): Promise<number> => {
    const r = await runTool("llmtools", ["daemon", "status", "--root", root], { env: ENV });
    return (r.json as { data: { requests_served: number } }).data.requests_served;
  };

  after(async () => {
    if (root) await runTool("llmtools", ["daemon", "stop", "--root", root], { env: ENV });
  });

  it("Node's pipe handles are used on this runtime (else every bin would quietly take the slower net path)", () => {
    assert.equal(pipeTransportAvailable(), true);
  });

  it("both transports get the daemon's answer, the same as in-process", async () => {
    const cold = await runTool("magellan", ["find", "--name", "area", "--no-daemon"], { cwd: root });
    for (const pipes of [true, false]) {
      const a = await ask(sock, pipes, "magellan", ["find", "--name", "area"], root);
      assert.equal(a.code, cold.code, `pipes ${pipes}`);
      assert.equal(normal(a.stdout), normal(cold.stdout), `pipes ${pipes}`);
      assert.equal(a.stderr, cold.stderr, `pipes ${pipes}`);
    }
  });

  it("a node that would warn about process.binding (--pending-deprecation) gets the answer through net, without a warning", async () => {
    const cold = await runTool("magellan", ["find", "--name", "area", "--no-daemon"], { cwd: root });
    const before = await served();
    for (const env of [{ NODE_OPTIONS: "--pending-deprecation" }, { NODE_PENDING_DEPRECATION: "1" }] as Record<string, string>[]) {
      const warm = await runTool("magellan", ["find", "--name", "area"], { cwd: root, env });
      assert.equal(warm.stderr, "", JSON.stringify(env));
      assert.equal(normal(warm.stdout), normal(cold.stdout), JSON.stringify(env));
    }
    assert.equal((await served()) - before, 2, "both runs went through the daemon");
  });

  it("both transports report a missing socket as ENOENT and one without a listener as ECONNREFUSED", async () => {
    const stale = join(root, ".magellan", "stale.sock");
    // A listener killed outright leaves its socket file behind, as a crashed daemon does.
    spawnSync(process.execPath, ["-e", `require("net").createServer().listen(${JSON.stringify(stale)}, () => process.kill(process.pid, "SIGKILL"))`]);
    assert.ok(existsSync(stale));
    for (const pipes of [true, false]) {
      assert.equal(await connectError(join(root, "nothing.sock"), pipes), "ENOENT", `pipes ${pipes}`);
      assert.equal(await connectError(stale, pipes), "ECONNREFUSED", `pipes ${pipes}`);
      assert.equal(await connectError(sock, pipes), undefined, `pipes ${pipes}`);
    }
  });

  it("a multi-MB stdin reaches the tool whole through either transport", async () => {
    // A request the tool must read to the end before it can refuse it (no expected_checksum).
    const content = Array.from({ length: 40_000 }, (_, i) => `line ${i} ${"z".repeat(30)}`).join("\n");
    const input = JSON.stringify({ file_path: "README.md", edits: [{ byte_start: 0, byte_end: 0, new_content: content }] });
    const cold = await runTool("llmtransform", ["--dry-run", "--no-daemon"], { cwd: root, input });
    assert.match(cold.stdout, /expected_checksum is required/);
    const before = await served();
    for (const env of [{}, { LLMTOOLS_DAEMON_NET: "1" }] as Record<string, string>[]) {
      const warm = await runTool("llmtransform", ["--dry-run"], { cwd: root, input, env });
      assert.equal(warm.code, cold.code, JSON.stringify(env));
      assert.equal(normal(warm.stdout), normal(cold.stdout), JSON.stringify(env));
      assert.equal(warm.stderr, cold.stderr, JSON.stringify(env));
    }
    assert.equal((await served()) - before, 2, "both runs went through the daemon");
  });

  it("a multi-MB answer comes out of the bin byte for byte, through either transport", async () => {
    const args = ["-e", "needle\\d+", "src/many.ts"];
    const cold = await runTool("llmsearch", [...args, "--no-daemon"], { cwd: root });
    assert.equal(cold.code, 0, cold.stderr);
    assert.ok(cold.stdout.length > 2 * 1024 * 1024, `answer of ${cold.stdout.length} bytes`);
    const before = await served();
    const [viaPipe, viaNet] = await Promise.all([runTool("llmsearch", args, { cwd: root }), runTool("llmsearch", args, { cwd: root, env: { LLMTOOLS_DAEMON_NET: "1" } })]);
    assert.equal((await served()) - before, 2, "both runs went through the daemon");
    for (const [label, warm] of [
      ["pipe", viaPipe],
      ["net", viaNet],
    ] as const) {
      assert.equal(warm.code, cold.code, label);
      assert.equal(warm.stderr, cold.stderr, label);
      assert.ok(normal(warm.stdout) === normal(cold.stdout), `${label}: ${warm.stdout.length} vs ${cold.stdout.length} bytes`);
    }
  });

  it("an answer past the bytes a bin holds goes out as it comes, the same bytes, through either transport and into a non-blocking pipe", async () => {
    const args = ["-e", "needle\\d+", "src/many.ts"];
    const cold = await runTool("llmsearch", [...args, "--no-daemon"], { cwd: root });
    const hold = { LLMTOOLS_DAEMON_HOLD_BYTES: "65536" };
    const before = await served();
    for (const env of [hold, { ...hold, LLMTOOLS_DAEMON_NET: "1" }] as Record<string, string>[]) {
      const warm = await runTool("llmsearch", args, { cwd: root, env });
      assert.equal(warm.code, cold.code, JSON.stringify(env));
      assert.equal(warm.stderr, cold.stderr, JSON.stringify(env));
      assert.ok(normal(warm.stdout) === normal(cold.stdout), `${JSON.stringify(env)}: ${warm.stdout.length} vs ${cold.stdout.length} bytes`);
    }
    const exec = "import os, sys; os.set_blocking(1, False); os.execv(sys.argv[1], sys.argv[1:])";
    const child = spawn("python3", ["-c", exec, binPath("llmsearch"), ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...hold } });
    const out: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => {
      out.push(b);
      // A slow reader: the bin waits on the full pipe instead of queueing the rest.
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 2);
    });
    const code = await new Promise<number | null>((r) => child.on("close", r));
    assert.equal(code, cold.code);
    assert.ok(normal(Buffer.concat(out).toString("utf8")) === normal(cold.stdout));
    assert.equal((await served()) - before, 3, "all three runs went through the daemon");
  });

  it("a stdout that someone else made non-blocking (EAGAIN on a full pipe) still gets the whole multi-MB answer", async () => {
    const args = ["-e", "needle\\d+", "src/many.ts"];
    const cold = await runTool("llmsearch", [...args, "--no-daemon"], { cwd: root });
    const before = await served();
    // Node's spawn hands a child blocking stdio, so a parent of another kind sets O_NONBLOCK on
    // the pipe and execs the bin: its synchronous write of 4 MB fills the 64 KB pipe at once.
    const exec = "import os, sys; os.set_blocking(1, False); os.execv(sys.argv[1], sys.argv[1:])";
    const child = spawn("python3", ["-c", exec, binPath("llmsearch"), ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    const code = await new Promise<number | null>((r) => child.on("close", r));
    assert.equal((await served()) - before, 1, "the run went through the daemon");
    assert.equal(code, cold.code, Buffer.concat(err).toString("utf8"));
    assert.equal(Buffer.concat(err).toString("utf8"), cold.stderr);
    const stdout = Buffer.concat(out).toString("utf8");
    assert.ok(normal(stdout) === normal(cold.stdout), `${stdout.length} vs ${cold.stdout.length} bytes`);
  });
});

describe("a daemon that dies mid-request", () => {
  it("with stdin of ours unread (a reset, not an end): the bin says it stopped mid-request and finishes in-process with that stdin", async () => {
    const root = tempDir("llmtools-reset-");
    cpSync(FIXTURE, root, { recursive: true });
    mkdirSync(join(root, ".git"));
    mkdirSync(join(root, ".magellan"), { recursive: true });
    // A daemon that answers hello, asks for stdin and never reads (paused from the connection on):
    // closed with the request and the forwarded stdin unread in its queue, it resets the bin's
    // connection (ECONNRESET) instead of ending it.
    const server = createServer({ pauseOnConnect: true }, (s) => {
      s.write(encodeFrame(FRAME_JSON, Buffer.from(JSON.stringify({ t: "hello", pid: process.pid }))));
      s.write(encodeFrame(FRAME_JSON, Buffer.from(JSON.stringify({ t: "stdin" }))));
      sockets.push(s);
    });
    const sockets: Socket[] = [];
    await new Promise<void>((r) => server.listen(join(root, ".magellan", "daemon.sock"), r));
    try {
      const content = "export function halfWritten(): string {\n  return 'complete';\n}\n";
      const { child, closed, stdout, stderr: errText } = startTool("llmfilewrite", ["--path", "src/half.ts"], { cwd: root });
      child.stdin.write(content.slice(0, 20));
      for (let i = 0; i < 100 && sockets.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      // Time for the hello and the forwarded stdin to cross.
      await new Promise((r) => setTimeout(r, 300));
      for (const s of sockets) s.destroy();
      child.stdin.end(content.slice(20));
      const code = await closed;
      const stderr = errText();
      assert.equal(code, 0, stderr);
      assert.equal((JSON.parse(stdout()) as { status: string }).status, "approved");
      assert.match(stderr, /stopped mid-request; running in-process/);
      assert.equal(readFileSync(join(root, "src", "half.ts"), "utf8"), content);
    } finally {
      server.close();
    }
  });
});

describe("a daemon that dies after it started a change", () => {
  it("the change is not run again (it may be on disk already): E018 interrupted; a reader is run again in-process", async () => {
    const root = tempDir("llmtools-interrupted-");
    cpSync(FIXTURE, root, { recursive: true });
    mkdirSync(join(root, ".git"));
    mkdirSync(join(root, ".magellan"), { recursive: true });
    // A daemon that greets (the request has started) and dies without an answer.
    const server = createServer((s) => {
      s.write(encodeFrame(FRAME_JSON, Buffer.from(JSON.stringify({ t: "hello", pid: process.pid }))));
      setTimeout(() => s.destroy(), 100);
    });
    await new Promise<void>((r) => server.listen(join(root, ".magellan", "daemon.sock"), r));
    try {
      const file = join(root, "src", "shapes.ts");
      const before = readFileSync(file, "utf8");
      const OLD = before.split("\n")[0] as string;
      const w = await runTool("splice", ["edit", "--file", "src/shapes.ts", "--old", OLD, "--new", `// once\n${OLD}`], { cwd: root, schema: z.unknown() });
      assert.equal(w.code, 1, w.stdout + w.stderr);
      assert.equal((w.json as { error: { code: string } }).error.code, "SPLICE_E018", w.stdout);
      assert.match(w.stderr, /stopped mid-request; the change is not run again/);
      assert.equal(readFileSync(file, "utf8"), before, "nothing was run here");
      // Splice's journal says whether the dead daemon committed it: nothing here.
      assert.match((w.json as { message: string }).message, /The journal says: no operation of it is in the journal: nothing was written; run it again/);
      // A committed operation of that daemon (its pid), since the request left: do not run it again.
      mkdirSync(join(root, ".splice", "journal"), { recursive: true });
      writeFileSync(
        join(root, ".splice", "journal", "op-1.json"),
        JSON.stringify({ version: 1, operation_id: "op-1", time: new Date(Date.now() + 60_000).toISOString(), tool: "splice", command: "edit", status: "done", owner: { pid: process.pid, start: null, host: "h" }, backup: true, files: [] }),
      );
      const again = await runTool("splice", ["edit", "--file", "src/shapes.ts", "--old", OLD, "--new", `// once\n${OLD}`], { cwd: root, schema: z.unknown() });
      assert.match((again.json as { message: string }).message, /operation op-1 was committed: do not run it again \('splice undo --operation-id op-1' reverts it\)/, again.stdout);
      // A dry run and a reader are safe to run again.
      const dry = await runTool("splice", ["edit", "--file", "src/shapes.ts", "--old", OLD, "--new", `// once\n${OLD}`, "--dry-run"], { cwd: root, schema: z.unknown() });
      assert.equal(dry.code, 0, dry.stdout + dry.stderr);
      assert.match(dry.stderr, /stopped mid-request; running in-process/);
    } finally {
      server.close();
    }
  });
});
