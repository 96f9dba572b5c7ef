/**
 * refs/callers/callees answered with a long-lived process's precise service (the daemon, the MCP
 * server), whose language service lives in a worker thread and answers asynchronously.
 *
 * `refs` asks its resolver synchronously, one reference at a time. Which references it asks
 * about does not depend on the answers, so it runs first with a resolver that only notes the
 * questions; the worker answers them as one batch; and `refs` runs again with the answers. The
 * result is the in-process `--precise` answer, byte for byte (the same PreciseTs answers the
 * same questions). When the service cannot answer within its budget (its program is still
 * building, or it died) the answer is the index's, `data.precise.status` says so, and a
 * diagnostic tells when to ask again.
 */
import type { Diagnostic } from "../../contract/schema.js";
import { MAGELLAN_CODES } from "../../graph/codes.js";
import type { PreciseService, Question } from "../../graph/precise/service.js";
import type { Answer } from "./common.js";
import { TOOL } from "./common.js";
import { type PreciseReport, type PreciseResolver, type RefsRequest, refs } from "./queries.js";

/** How long a default (implicit) precise answer waits for a language service that is still building. */
export const PRECISE_WAIT_ENV = "LLMTOOLS_PRECISE_WAIT_MS";
export const DEFAULT_PRECISE_WAIT_MS = 2000;
/** How long any precise answer waits for a built service (or an explicit --precise for a building one). */
const ANSWER_WAIT_MS = 120_000;

function envMs(name: string, fallback: number): number {
  const v = process.env[name];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : fallback;
}

/**
 * `explicit`: the caller asked for precise (`--precise`): it waits for the build, as an
 * in-process run does. Otherwise (precise by default) it waits LLMTOOLS_PRECISE_WAIT_MS (2000).
 */
export async function refsWithService(req: RefsRequest, service: PreciseService, explicit: boolean): Promise<Answer<Record<string, unknown>>> {
  let root: string | undefined;
  const questions: Question[] = [];
  const noting = (r: string): PreciseResolver => {
    root = r;
    return {
      refresh: () => undefined,
      definition: (rel, byte) => {
        questions.push([rel, byte]);
        return undefined;
      },
    };
  };
  // The rich parts (context lines, checksums, relationships) do not change the questions: this
  // pass leaves them out, and usage errors (no such symbol) are thrown here as in-process.
  refs({ ...req, context: undefined, checksums: false, callers: false, callees: false, precise: noting });
  // No definition matched, or nothing in a TS/JS file to ask (another language, no reference):
  // the compiler has nothing to add. Asked for, the answer is the precise one (asking nothing);
  // by default, the index's one, as in-process (without a report of a mode that had nothing to do).
  if (root === undefined || questions.length === 0) return explicit ? refs({ ...req, precise: noting }) : refs(req);
  const warmWaitMs = explicit ? ANSWER_WAIT_MS : envMs(PRECISE_WAIT_ENV, DEFAULT_PRECISE_WAIT_MS);
  const a = await service.ask(root, questions, { warmWaitMs, answerWaitMs: ANSWER_WAIT_MS });
  if (a.state === "answered") {
    const byPlace = new Map<string, (typeof a.answers)[number]>();
    questions.forEach(([rel, byte], i) => byPlace.set(`${byte}:${rel}`, a.answers[i] ?? null));
    const answering: PreciseResolver = {
      refresh: () => undefined,
      definition: (rel, byte) => byPlace.get(`${byte}:${rel}`) ?? undefined,
    };
    return refs({ ...req, precise: () => answering });
  }
  const plain = refs({ ...req, precise: undefined });
  const report: PreciseReport = { status: a.state === "warming" ? "warming" : "unavailable", asked: 0, compiler: 0, rejected: 0, external: 0, no_answer: 0 };
  plain.data.precise = report;
  const diagnostic: Diagnostic =
    a.state === "warming"
      ? {
          tool: TOOL,
          level: "warning",
          code: MAGELLAN_CODES.precise_warming,
          message: `precise resolution is warming: the TypeScript language service is building its program (waited ${a.waited_ms} ms), so these references are the index's (labels exact/imported/heuristic/ambiguous, none compiler)`,
          remediation: "Retry in a few seconds for compiler-checked targets (data.precise.status becomes answered), pass --precise to wait for the build, or --no-precise for the index's answer without this note.",
        }
      : {
          tool: TOOL,
          level: "warning",
          code: MAGELLAN_CODES.precise_unavailable,
          message: `precise resolution is unavailable: ${a.message}; these references are the index's (none labelled compiler)`,
          remediation: "Retry in a few seconds (a new language service is started); pass --no-precise for the index's answer without this note.",
        };
  plain.diagnostics.push(diagnostic);
  return plain;
}
