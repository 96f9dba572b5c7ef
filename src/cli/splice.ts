#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS node
/**
 * splice CLI: argv (or a JSON request on stdin) -> request -> src/tools/splice/run.ts -> an
 * OperationResult on stdout. All logic lives in src/tools/splice/.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import { EXIT, ToolError } from "../contract/errors.js";
import { clipText } from "../text/clip.js";
import { operationEnvelope } from "../contract/envelope.js";
import { LogRequestSchema, MutationRequestSchema, StepSchema, UndoRequestSchema, type MutationRequest } from "../contract/tools/splice.js";
import { CODES, TOOL } from "../tools/splice/codes.js";
import { runLog, runMutation, runRecover, runUndo, type SpliceOutcome } from "../tools/splice/run.js";
import { disposeTypeScriptServices } from "../tools/splice/seam.js";
import { baseProgram, collect, runCli } from "./run.js";

const program = baseProgram(TOOL, "Change code by symbol (patch, insert, delete, rename, edit, apply-files, batch), validated by the project's own checkers, all files or none, with undo. Prints an OperationResult (JSON).");

type Opts = Record<string, unknown>;
let chosen: { command: string; opts: Opts } | undefined;

function mutation(cmd: Command): Command {
  return cmd
    .option("--root <dir>", "workspace root (default: the enclosing git work tree, else the current directory)")
    .option("--dry-run", "plan and validate, print the unified diff and the full result; write nothing")
    .option("--expected-checksum <file=sha256>", "precondition FILE=sha256:<hex>; repeatable; a file with other bytes fails the whole change", collect, [])
    .option("--require-checker", "reject the change when a touched language's checker is absent, fails or times out (default: accept as unchecked)")
    .option("--timeout-ms <ms>", "budget for each checker", (v) => Number(v))
    .option("--json", "read the whole request as JSON from stdin instead of flags");
}

function symbolFlags(cmd: Command): Command {
  return cmd
    .option("--file <path>", "file that holds the symbol")
    .option("--symbol <name>", "symbol name; qualified as Class.method or mod::f to pick one of several")
    .option("--symbol-id <id>", "the symbol's id from magellan (picks one symbol exactly)")
    .option("--kind <kind>", "only symbols of this kind (function, method, class, ...)");
}

function contentFlags(cmd: Command): Command {
  return cmd.option("--with <file>", "read the new text from FILE").option("--content <text>", "the new text (default: stdin)");
}

function leaf(name: string, description: string, build: (c: Command) => Command): void {
  const c = build(program.command(name).description(description));
  c.action((opts: Opts) => {
    chosen = { command: name, opts };
  });
}

leaf("patch", "replace a symbol's definition (or only its body with --body)", (c) => mutation(contentFlags(symbolFlags(c))).option("--body", "replace only the body"));
leaf("insert", "add a definition before or after a sibling", (c) =>
  mutation(contentFlags(c.option("--file <path>", "file that holds the sibling").option("--before-symbol <name>", "insert before this symbol").option("--after-symbol <name>", "insert after this symbol").option("--symbol-id <id>", "the sibling's id").option("--kind <kind>", "the sibling's kind"))),
);
leaf("delete", "remove a definition with its doc comment, decorators and the blank line it leaves", (c) => mutation(symbolFlags(c)).option("--force", "delete even when references remain"));
leaf("rename", "rename a symbol and every reference in the workspace", (c) =>
  mutation(symbolFlags(c)).option("--to <name>", "the new name (required; with --json, the request's \"to\")").option("--allow-heuristic", "accept locations found by name only (evidence: heuristic); in Python and JavaScript, also rename the uses on untyped values that the index ties to the member by name (the ones a SPLICE_W214 warning names)"),
);
leaf("edit", "replace text that occurs exactly once in a file (or in a symbol)", (c) =>
  mutation(c.option("--file <path>", "the file").option("--old <text>", "exact text to replace").option("--new <text>", "replacement").option("--symbol <name>", "search only inside this symbol").option("--symbol-id <id>", "search only inside this symbol").option("--kind <kind>", "the symbol's kind")),
);
leaf("apply-files", "replace text in many files, skipping comments and strings", (c) =>
  mutation(c.option("--glob <glob>", "files to change (gitignore-style, from the root)").option("--find <text>", "text (or --regex pattern) to find").option("--replace <text>", "replacement ($1, $<name> with --regex)").option("--regex", "--find is a JavaScript regular expression").option("--include-comments-strings", "also replace inside comments and string literals")),
);
leaf("batch", "run the steps of a plan (JSON or YAML) as ONE change: one validation, one write, one undo", (c) => mutation(c.option("--plan <file>", "plan file: {steps: [...]} or a list of steps; '-' reads stdin")));
leaf("undo", "restore every file of an operation from its backup", (c) =>
  c.option("--root <dir>", "workspace root").option("--operation-id <id>", "the operation to undo").option("--last", "the most recent operation that is still done and is not itself an undo (repeated --last walks back through history)").option("--json", "read the request from stdin"),
);
leaf("log", "list operations (id, time, command, files, status)", (c) => c.option("--root <dir>", "workspace root").option("--limit <n>", "only the last N", (v) => Number(v)));
leaf("recover", "finish or roll back an interrupted operation", (c) => c.option("--root <dir>", "workspace root"));

program.addHelpText(
  "after",
  `
Examples:
  splice patch --file src/lib.rs --symbol function_name --with new_impl.rs
  splice insert --file app.py --after-symbol Cart.total --content $'def count(self):\\n    return len(self.items)'
  splice delete --file src/util.ts --symbol oldHelper
  splice rename --file src/user.ts --symbol User --to Account
  splice edit --file src/a.ts --old 'return 1;' --new 'return 2;'
  splice batch --plan plan.yaml --dry-run
  splice undo --last

Exit codes: 0 ok (also a dry run); 1 failure or rejected change (nothing written); 2 usage; 4 partial.
See docs/splice.md for every flag and error code.`,
);

function usage(message: string, remediation: string): ToolError {
  return new ToolError({ code: CODES.usage, error: "invalid_arguments", message, remediation, exitCode: EXIT.usage });
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path === "-" ? 0 : path, "utf8");
  } catch (e) {
    throw usage(`cannot read ${what} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, `Pass ${what} the path of a readable file.`);
  }
}

function stdinText(): string {
  if (process.stdin.isTTY) return "";
  try {
    return readFileSync(0, "utf8");
  } catch {
    return "";
  }
}

function parseDoc(text: string, origin: string, yaml: boolean): unknown {
  try {
    // yaml loads only for a YAML plan.
    return yaml ? ((createRequire(import.meta.url)("yaml") as typeof Yaml).parse(text) as unknown) : (JSON.parse(text.replace(/^\ufeff/, "")) as unknown);
  } catch (e) {
    const message = (e as Error).message;
    // "Send one document" answered a YAML indentation error too, which one document had.
    const remediation = /multiple documents|Unexpected non-whitespace character after JSON/i.test(message)
      ? "Send one document: a plan is {steps: [...]} or a list of steps."
      : yaml
        ? "Fix the YAML where the message says (line:column): the keys of one step line up under its first key, after `- `; quote text that holds `: ` or starts with a special character, or give it with `with: FILE`."
        : "Fix the JSON where the message says: one object, double-quoted keys and strings, no trailing commas.";
    throw new ToolError({ code: CODES.invalid_request, error: "invalid_request", message: `${origin} is not valid ${yaml ? "YAML" : "JSON"}: ${message}`, remediation, exitCode: EXIT.usage });
  }
}

function validated<T>(schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown, origin: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  // A request is one of several commands: the issues worth naming are those of the branch whose
  // command it is ("(request): Invalid input" named no field).
  type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };
  let found = r.error.issues as Issue[];
  const union = found.length === 1 ? found[0]?.errors : undefined;
  if (union) {
    const branch = union.find((b) => !b.some((i) => i.path.length === 1 && i.path[0] === "command"));
    if (branch) found = branch;
  }
  const name = (path: PropertyKey[]): string => {
    const p = path.join(".");
    // A batch's steps come from --plan, not from a flag of their name.
    if (origin === "flags" && path[0] === "steps") return `--plan${typeof path[1] === "number" ? ` step ${path[1] + 1}` : ""}${path.length > 2 ? ` ${path.slice(2).join(".")}` : ""}`;
    return origin === "flags" && path.length === 1 && typeof path[0] === "string" ? `--${path[0].replace(/_/g, "-")}` : p || "(request)";
  };
  const issues = found.slice(0, 5).map((i) => `${name(i.path)}: ${i.message.replace(/^Invalid input: expected (\w+), received undefined$/, "required")}`);
  throw new ToolError({ code: CODES.invalid_request, error: "invalid_request", message: `${origin}: ${issues.join("; ")}`, remediation: "See docs/splice.md for the request fields (snake_case, one 'command').", exitCode: EXIT.usage });
}

const camel = (k: string): string => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The flags every mutation takes (also beside --json). */
function mutationFlags(o: Opts): Record<string, unknown> {
  const req: Record<string, unknown> = {};
  for (const f of ["root", "dry_run", "require_checker", "timeout_ms"]) if (o[camel(f)] !== undefined) req[f] = o[camel(f)];
  const sums = o.expectedChecksum as string[] | undefined;
  if (sums && sums.length > 0) req.expected_checksum = sums;
  return req;
}

/** A mutation request from flags: flag names are the request's field names in camelCase. */
function fromFlags(command: string, o: Opts): unknown {
  const req: Record<string, unknown> = { command, ...mutationFlags(o) };
  const fields = ["file", "symbol", "symbol_id", "kind", "body", "before_symbol", "after_symbol", "force", "to", "allow_heuristic", "old", "new", "glob", "find", "replace", "regex", "include_comments_strings"];
  for (const f of fields) if (o[camel(f)] !== undefined) req[f] = o[camel(f)];
  if (command === "patch" || command === "insert") {
    if (o.with !== undefined && o.content !== undefined) throw usage("give the new text once: --with FILE or --content TEXT", "Drop one of them.");
    const content = o.with !== undefined ? readText(o.with as string, "--with") : o.content !== undefined ? (o.content as string) : stdinText();
    req.content = content;
  }
  if (command === "batch") {
    if (o.plan === undefined) throw usage("batch needs --plan FILE", "Write the steps to a JSON or YAML file: {steps: [{command: patch, ...}, ...]}.");
    const planPath = o.plan as string;
    const text = readText(planPath, "--plan");
    const doc = parseDoc(text, `--plan ${planPath}`, /\.ya?ml$/i.test(planPath) || (planPath === "-" && !text.trimStart().startsWith("{") && !text.trimStart().startsWith("[")));
    const steps = (Array.isArray(doc) ? doc : (doc as { steps?: unknown } | null)?.steps) as unknown;
    if (!Array.isArray(steps)) throw new ToolError({ code: CODES.invalid_plan, error: "invalid_plan", message: `--plan ${planPath}: no list of steps`, remediation: "A plan is {steps: [...]} or a list of steps.", exitCode: EXIT.usage });
    if (steps.length === 0) throw new ToolError({ code: CODES.invalid_plan, error: "invalid_plan", message: `--plan ${planPath}: the plan has no steps`, remediation: "Give at least one step: {steps: [{command: patch, file: ..., symbol: ..., content: ...}]}.", exitCode: EXIT.usage });
    // A step may name its text in a file (`with`), relative to the plan.
    req.steps = steps.map((s: unknown, i: number) => {
      const st = { ...(s as Record<string, unknown>) };
      if (typeof st.with === "string") {
        st.content = readText(resolve(planPath === "-" ? process.cwd() : dirname(planPath), st.with), `step ${i + 1} with`);
        delete st.with;
      }
      validated(StepSchema, st, `--plan ${planPath} step ${i + 1}`);
      return st;
    });
  }
  if (command === "edit" && (req.old === undefined || req.new === undefined || req.file === undefined)) throw usage("edit needs --file, --old and --new", "Give the file, the exact text to replace and its replacement.");
  if (command === "apply-files" && (req.glob === undefined || req.find === undefined || req.replace === undefined)) throw usage("apply-files needs --glob, --find and --replace", "Give the files, the text to find and its replacement.");
  return req;
}

function envelope(o: SpliceOutcome): Record<string, unknown> {
  return operationEnvelope(TOOL, o.operationType, o.status, o.message, { workspace: o.workspace, result: o.result, error: o.error, diagnostics: o.diagnostics });
}

// Without top-level await, so that the build can bundle this entry as CommonJS.
void runCli(
  program,
  TOOL,
  () => ({ kind: "operation", operationType: chosen?.command ?? "splice" }),
  async () => {
    if (!chosen) throw usage("no command given", "Run 'splice --help' for the commands.");
    const { command, opts } = chosen;
    const commandLine = clipText(`splice ${process.argv.slice(2).filter((a) => a !== "--pretty").join(" ")}`, 500);
    let outcome: SpliceOutcome;
    try {
      // Through the request schema, as the other commands' flags: `--limit -1` listed nothing, ok.
      if (command === "log") outcome = runLog(validated(LogRequestSchema, { command: "log", root: opts.root, limit: opts.limit }, "flags"));
      else if (command === "recover") outcome = runRecover({ root: opts.root as string | undefined });
      else if (command === "undo") {
        const req = opts.json ? validated(UndoRequestSchema, parseDoc(stdinText(), "stdin", false), "stdin") : { command: "undo" as const, root: opts.root as string | undefined, operation_id: opts.operationId as string | undefined, last: opts.last as boolean | undefined };
        outcome = await runUndo(req);
      } else {
        // With --json, the flags given beside it (--dry-run, --root, ...) still count.
        const raw = opts.json ? { command, ...(parseDoc(stdinText(), "stdin", false) as object), ...mutationFlags(opts) } : fromFlags(command, opts);
        const req = validated<MutationRequest>(MutationRequestSchema, raw, opts.json ? "stdin" : "flags");
        try {
          outcome = await runMutation(req, { commandLine });
        } finally {
          // The rename engine keeps language services warm for a long-lived caller; a CLI run ends here.
          disposeTypeScriptServices();
        }
      }
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      const env = operationEnvelope(TOOL, command, "error", e.message, { error: e.toDiagnostic(TOOL) });
      return { envelope: env, exitCode: e.exitCode };
    }
    return { envelope: envelope(outcome), exitCode: outcome.exitCode };
  },
);
