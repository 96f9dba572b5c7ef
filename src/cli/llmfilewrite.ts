#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
import { readFileSync } from "node:fs";
import { Option } from "commander";
import { commonCode } from "../contract/codes.js";
import { EXIT, ToolError } from "../contract/errors.js";
import { findWorkspaceRoot } from "../text/root.js";
import { TOOL, writeFile } from "../tools/llmfilewrite/index.js";
import { ValidationSession } from "../validate/index.js";
import { baseProgram, runCli } from "./run.js";
import { operationEnvelope } from "../contract/envelope.js";

// Interrupted runs exit through process.exit so checker children and temp copies are cleaned.
process.once("SIGTERM", () => process.exit(143));
process.once("SIGINT", () => process.exit(130));

const program = baseProgram(TOOL, "Create or replace a source file only after tree-sitter and the project's own checker accept it.")
  .option("--path <path>", "file to write (relative to the current directory or the workspace root); required")
  .addOption(new Option("--file <path>", "legacy name of --path").hideHelp())
  .option("--language <lang>", "language: auto (by extension) or typescript, tsx, javascript, python, c, cpp, java, rust, go; only for a path whose extension names no language (or cpp for a .h): one that disagrees with the extension is refused (E107)", "auto")
  .option("--content <text>", "the new content (otherwise --from, otherwise stdin)")
  .option("--from <file>", "read the new content from this file (any location; it is only read)")
  .option("--overwrite", "allow replacing an existing file (without it an existing file is refused and left unchanged)")
  .option("--expected-checksum <sha256>", "replace only if the existing file has this checksum (sha256:<hex> or bare hex)")
  .addOption(new Option("--reject-on <level>", "reject on introduced errors, or on introduced errors and warnings (an unchecked file's included; parser.limit and checker.scope notes, which say the code was checked, are not)").choices(["error", "warning"]).default("error"))
  .option("--timeout <seconds>", "time budget of each checker (TypeScript service, pyright, gcc, javac, cargo/rustc, go) in seconds; a checker that runs out is reported as a warning", "60")
  .option("--require-checker", "reject (write nothing) when the language's checker is absent, crashed or timed out, instead of writing the file as validation \"unchecked\"")
  .option("--dry-run", "validate and report, write nothing")
  .option("--root <dir>", "workspace root (default: enclosing git work tree, else the current directory)")
  .addHelpText(
    "after",
    `
Gates, in order: tree-sitter syntax (ERROR/MISSING nodes); the project's checker on the new
content as if at its path (TypeScript compiler API with the project's own typescript when it
has one, pyright, gcc/g++ -fsyntax-only, javac, cargo check, go build + go vet); diagnostics
the old content already had are marked pre_existing and do not reject, and errors the change
causes in files that import this one count. When the checker ran and accepted the file, a
tree-sitter complaint is a "parser.limit" warning (the grammar lags the language, or a C macro).

result.validation: "validated" (the checker ran, nothing new is wrong), "unchecked" (the
checker was absent, crashed or timed out: written on syntax alone, a warning says why; use
--require-checker to reject instead), or "rejected".

Output: one JSON OperationResult on stdout, status "approved" or "rejected" ("error" on a
refusal such as an existing file without --overwrite or a checksum mismatch).
Exit codes: 0 approved (written, or validated with --dry-run), 1 rejected or refused,
2 invalid arguments or usage (including a path outside the workspace root).`,
  );

function usage(message: string, remediation: string): ToolError {
  return new ToolError({ code: commonCode(TOOL, "usage"), error: "invalid_arguments", message, remediation, exitCode: EXIT.usage });
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

// Without top-level await, so that the build can bundle this entry as CommonJS (see scripts/bundle.ts);
// runCli reports every failure itself.
void runCli(program, TOOL, { kind: "operation", operationType: "create" }, async (p) => {
  const o = p.opts<{
    path?: string;
    file?: string;
    language: string;
    content?: string;
    from?: string;
    overwrite?: boolean;
    expectedChecksum?: string;
    rejectOn: "error" | "warning";
    timeout: string;
    dryRun?: boolean;
    requireChecker?: boolean;
    root?: string;
  }>();
  const path = o.path ?? o.file;
  if (path === undefined) throw usage("--path is required", "Pass --path <file> naming the file to write.");
  if (o.content !== undefined && o.from !== undefined) throw usage("--content and --from are mutually exclusive", "Give the content one way: --content, --from, or stdin.");
  const timeout = Number(o.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) throw usage(`--timeout expects a positive number of seconds, got '${o.timeout}'`, "Pass e.g. --timeout 60.");
  const root = findWorkspaceRoot(TOOL, o.root);
  let content: Uint8Array;
  if (o.content !== undefined) content = Buffer.from(o.content, "utf8");
  else if (o.from !== undefined) {
    try {
      content = readFileSync(o.from);
    } catch (e) {
      throw new ToolError({
        code: commonCode(TOOL, "file_not_found"),
        error: "file_not_found",
        message: `cannot read --from ${o.from}: ${(e as Error).message}`,
        remediation: "Pass --from an existing readable file, or give the content with --content or on stdin.",
        exitCode: EXIT.usage,
      });
    }
  } else {
    if (process.stdin.isTTY) throw usage("no content given", "Pass --content <text>, --from <file>, or pipe the content on stdin.");
    content = await readStdin();
  }
  const session = new ValidationSession();
  try {
    const out = await writeFile(
      {
        root,
        path,
        language: o.language,
        content,
        overwrite: Boolean(o.overwrite),
        expectedChecksum: o.expectedChecksum,
        rejectOn: o.rejectOn,
        timeoutMs: Math.round(timeout * 1000),
        dryRun: Boolean(o.dryRun),
        requireChecker: Boolean(o.requireChecker),
      },
      session,
    );
    return {
      envelope: operationEnvelope(TOOL, "create", out.status, out.message, { workspace: root, result: out.result }),
      exitCode: out.status === "approved" ? EXIT.ok : EXIT.failure,
    };
  } finally {
    session.dispose();
  }
});
