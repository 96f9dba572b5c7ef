/** The one change pipeline's shapes (docs/change-pipeline.md). Every writer of the toolset speaks them. */

export interface PlannedFile {
  /** Root-relative, '/'-separated. */
  path: string;
  /** Bytes the change was planned against; null = the file must not exist (create). */
  before: Uint8Array | null;
  /** Bytes to write; null = delete the file. */
  after: Uint8Array | null;
  /** Permission bits for a created file (an existing file keeps its own mode and owner). */
  mode?: number;
}

export interface ChangeRequest {
  /** Absolute real path of the workspace root. */
  root: string;
  /** "llmtransform" | "llmfilewrite" | "splice": error codes are prefixed by it. */
  tool: string;
  /** What the journal and `splice log` record, e.g. "rename --symbol foo --to bar". */
  command: string;
  files: PlannedFile[];
  /** Keep the before-bytes under .splice/backups/<operation_id>/ for undo (splice: true). */
  backup?: boolean;
  /** Default: a fresh UUID v4. */
  operationId?: string;
}

export interface CommittedFile {
  path: string;
  before_checksum: string | null;
  after_checksum: string | null;
}

export interface ChangeCommit {
  operation_id: string;
  files: CommittedFile[];
}

/** Optional knobs of commitChange beyond the request (tests, benchmarks, the CLI's test hooks). */
export interface CommitOptions {
  /** How long to wait for another writer's lock before failing with file_busy (default 10 s, env LLMTOOLS_LOCK_TIMEOUT_MS). */
  lockTimeoutMs?: number;
  /** Test hook: runs after every temp file is written and synced, before the first rename. */
  beforeRename?: (tempPaths: string[]) => void;
  /** Set by undoOperation: the operation this change undoes (recorded in the journal; `undo --last` skips undos). */
  undoOf?: string;
  /** Test hook: runs after the i-th file (0-based) is renamed into place (or deleted). */
  afterEachRename?: (index: number) => void;
}

export interface OperationInfo {
  operation_id: string;
  time: string;
  tool: string;
  command: string;
  files: string[];
  status: string;
}
