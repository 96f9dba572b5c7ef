/**
 * The pieces splice is built on, in one place: the change pipeline (src/change/), whole-change
 * validation (src/validate/change.ts) and the rename engines (./rename/).
 */
export { assertWritablePath, commitChange, listOperations, recoverChanges, undoOperation } from "../../change/index.js";
export type { ChangeCommit, PlannedFile } from "../../change/index.js";
export { validateChange } from "../../validate/change.js";
export type { ChangeValidationReport, CheckerRun } from "../../validate/change.js";
export { disposeTypeScriptServices, planRename } from "./rename/index.js";
export type { RenameLocation, RenamePlan } from "./rename/index.js";
