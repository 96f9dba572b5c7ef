/**
 * The one change pipeline (docs/change-pipeline.md). Every writer of the toolset - llmtransform,
 * llmfilewrite, splice - plans all new bytes in memory, validates them, and commits them here.
 */
export { commitChange } from "./commit.js";
export { assertWritablePath } from "./paths.js";
export { recover, recoverChanges, refuseIfShared, type RecoveryFailure } from "./recover.js";
export { listOperations, undoOperation } from "./undo.js";
export type { ChangeCommit, ChangeRequest, CommitOptions, CommittedFile, OperationInfo, PlannedFile } from "./types.js";
