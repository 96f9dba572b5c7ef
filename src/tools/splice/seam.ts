/**
 * The pieces splice is built on, in one place: the change pipeline (src/change/), whole-change
 * validation (src/validate/change.ts) and the rename engines (./rename/). Validation and the
 * rename engines load on first use: with the TypeScript compiler and the JSON-RPC client behind
 * them they were most of a run's start-up, and a dry run that fails to find its symbol, `log`,
 * `undo` never need them.
 */
import type { ChangeValidationReport, ChangeValidationRequest } from "../../validate/change.js";
import type * as RenameModule from "./rename/index.js";
import type { RenamePlan, RenameRequest } from "./rename/index.js";

export { assertWritablePath, commitChange, listOperations, recover, recoverChanges, refuseIfShared, undoOperation } from "../../change/index.js";
export type { ChangeCommit, PlannedFile } from "../../change/index.js";
export type { ChangeValidationReport, CheckerRun } from "../../validate/change.js";
export { CONFIG_NOT_APPLIED, MISSING_DEPENDENCY, NOT_COMPILED } from "../../validate/notes.js";
export type { RenameLocation, RenamePlan } from "./rename/index.js";

export async function validateChange(req: ChangeValidationRequest): Promise<ChangeValidationReport> {
  return (await import("../../validate/change.js")).validateChange(req);
}

let rename: typeof RenameModule | undefined;

export async function planRename(req: RenameRequest): Promise<RenamePlan> {
  rename ??= await import("./rename/index.js");
  return rename.planRename(req);
}

/** Stops the language services a rename started (a CLI run ends; a daemon keeps them). */
export function disposeTypeScriptServices(): void {
  rename?.disposeTypeScriptServices();
}
