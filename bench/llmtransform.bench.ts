/**
 * llmtransform: one request of 1,000 edits on a 5 MB real JavaScript file (the first 5 MB of
 * TypeScript's own lib/typescript.js), whole process. No peer tool does this job, so the rows
 * stand alone ("no peer").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checksum } from "../src/text/checksum.js";
import { type BenchRow, REPO_ROOT, ourBin, timeCommand } from "./lib.js";

const SIZE = 5 * 1024 * 1024;
const EDITS = 1000;

export async function run(): Promise<BenchRow[]> {
  const source = readFileSync(join(REPO_ROOT, "node_modules/typescript/lib/typescript.js"));
  const cut = source.lastIndexOf(0x0a, SIZE) + 1;
  const original = source.subarray(0, cut);
  const dir = mkdtempSync(join(tmpdir(), "llmtransform-bench-"));
  try {
    const pristine = join(dir, "pristine.js");
    const target = join(dir, "typescript.js");
    writeFileSync(pristine, original);
    writeFileSync(target, original);
    // 1,000 `return` keywords spread evenly over the file, each given a comment.
    const all: number[] = [];
    const needle = Buffer.from("return ");
    for (let i = original.indexOf(needle); i !== -1; i = original.indexOf(needle, i + needle.length)) all.push(i);
    if (all.length < EDITS) throw new Error(`only ${all.length} 'return ' in the sample`);
    const step = all.length / EDITS;
    const edits = Array.from({ length: EDITS }, (_, k) => {
      const at = all[Math.floor(k * step)] as number;
      return { byte_start: at, byte_end: at + 6, new_content: "return /* edited */" };
    });
    const editsPath = join(dir, "edits.json");
    writeFileSync(editsPath, JSON.stringify(edits));
    const args = ["--root", dir, "--file", target, "--expected-checksum", checksum(original), "--edits", editsPath];
    const bin = ourBin("llmtransform");

    // The dry run first: it leaves the file as it is, so every run's checksum matches.
    const dry = timeCommand(bin, [...args, "--dry-run"], { runs: 5, warmup: 1 });
    if (dry.status !== 0) throw new Error(`llmtransform --dry-run exited ${dry.status}`);
    // Each measured run starts from the pristine bytes (the checksum must match), so the command
    // includes copying 5 MB; `exec` keeps the peak RSS the node process's own.
    const write = timeCommand("sh", ["-c", 'cp "$1" "$2" && shift 2 && exec "$@"', "sh", pristine, target, bin, ...args], {
      runs: 5,
      warmup: 1,
    });
    if (write.status !== 0) throw new Error(`llmtransform exited ${write.status}: ${write.stdout.slice(0, 500)}`);
    const written = readFileSync(target);
    if (written.length !== original.length + EDITS * ("/* edited */".length + 1)) throw new Error("the edited file has an unexpected size");
    const mb = (original.length / 1048576).toFixed(1);
    return [
      {
        suite: "llmtransform",
        case: `${EDITS} edits, ${mb} MB file, atomic write`,
        ours: write.medianMs,
        peakRssMb: write.peakRssMb,
        note: "no peer; includes a 5 MB cp to restore the file",
      },
      {
        suite: "llmtransform",
        case: `${EDITS} edits, ${mb} MB file, --dry-run`,
        ours: dry.medianMs,
        peakRssMb: dry.peakRssMb,
        note: "no peer",
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
