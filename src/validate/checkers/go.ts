/**
 * Go: `gofmt -e` on stdin for syntax, then `go vet` on the file's package with `-overlay`, which
 * makes the go command read the new content in place of the file's path without writing it.
 * When `go` is not installed (as on the reference machine) the gate reports that it did not run.
 */
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { runProcess, which, withTempDir } from "../process.js";
import type { ContentPositions } from "../positions.js";
import type { CheckerOutcome } from "../types.js";
import { absent, failed, timedOut, type CheckContext } from "./common.js";

const LOCATED = /^(.*?\.go):(\d+):(\d+): (.*)$/;

function parse(ctx: CheckContext, pos: ContentPositions, text: string, isOurs: (f: string) => boolean, source: string): CheckerOutcome["diagnostics"] {
  const out: CheckerOutcome["diagnostics"] = [];
  for (const line of text.split("\n")) {
    const m = LOCATED.exec(line.trim());
    if (!m) continue;
    const ln = Number(m[2]);
    if (isOurs(m[1] as string)) {
      const start = pos.byteOfLineByteCol(ln, Number(m[3]));
      out.push({ level: "error", message: m[4] as string, file: ctx.relPath, ...pos.fromBytes(start, start), code: source, source });
    } else {
      out.push({ level: "error", message: `${m[4] as string} (at ${m[1] as string}:${ln})`, file: m[1] as string, code: source, source });
    }
  }
  return out;
}

export async function checkGo(ctx: CheckContext, content: Uint8Array, pos: ContentPositions): Promise<CheckerOutcome> {
  const go = which("go", ctx.env);
  if (!go) return absent(ctx, "go", "Install Go (https://go.dev/dl or Debian: apt-get install golang-go) to type-check Go files.");
  const gofmt = which("gofmt", ctx.env);
  const diagnostics: CheckerOutcome["diagnostics"] = [];
  const ran: string[] = [];
  if (gofmt) {
    const r = await runProcess(gofmt, ["-e"], { input: content, timeoutMs: ctx.timeoutMs, env: ctx.env });
    if (r.timedOut) return timedOut(ctx, "gofmt -e");
    ran.push("gofmt -e");
    diagnostics.push(...parse(ctx, pos, r.stderr, (f) => f === "<standard input>", "gofmt"));
    if (diagnostics.length > 0) return { ran: ran.join(" + "), diagnostics };
  }
  const dir = dirname(ctx.abs);
  if (!existsSync(dir)) return { ran: ran.join(" + ") || "go (nothing to vet: new directory)", diagnostics };
  return withTempDir("llmfilewrite-go-", async (tmp) => {
    const copy = join(tmp, "content.go");
    writeFileSync(copy, content);
    const overlay = join(tmp, "overlay.json");
    writeFileSync(overlay, JSON.stringify({ Replace: { [ctx.abs]: copy } }));
    const r = await runProcess(go, ["vet", `-overlay=${overlay}`, "."], { cwd: dir, timeoutMs: ctx.timeoutMs, env: { ...ctx.env, GOFLAGS: "" } });
    if (r.timedOut) return timedOut(ctx, "go vet");
    ran.push("go vet -overlay");
    const isOurs = (f: string): boolean => resolve(dir, f) === ctx.abs || resolve(dir, f) === copy;
    diagnostics.push(...parse(ctx, pos, r.stderr, isOurs, "go vet"));
    if (r.status !== 0 && diagnostics.length === 0) return failed(ctx, "go vet", r.stderr || `exit ${r.status}`);
    return { ran: ran.join(" + "), diagnostics };
  });
}
