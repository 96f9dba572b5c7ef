/**
 * A real process that runs llmtransform's request -> outcome function on command (IPC), so that
 * a test can start two writers on the same file at the same instant hundreds of times in a few
 * seconds. Inert unless started by test/llmtransform/concurrent.test.ts (env + IPC channel).
 */
import { ToolError } from "../../src/contract/errors.js";
import { transform } from "../../src/tools/llmtransform/transform.js";

interface Job {
  id: number;
  root: string;
  file: string;
  expected: string;
  insert: string;
}

if (process.env.LLMTOOLS_RACE_WORKER === "1" && process.send) {
  process.on("message", (job: Job) => {
    void (async () => {
      let reply: { id: number; status: string; code?: string; written?: boolean };
      try {
        const out = await transform(
          { file_path: job.file, expected_checksum: job.expected, edits: [{ byte_start: 0, byte_end: 0, new_content: job.insert }] },
          { root: job.root, cwd: job.root },
        );
        reply = { id: job.id, status: out.status, written: out.result.written };
      } catch (e) {
        reply = { id: job.id, status: "error", code: e instanceof ToolError ? e.code : String(e) };
      }
      process.send?.(reply);
    })();
  });
  process.send({ ready: true });
}
