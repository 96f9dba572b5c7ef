/**
 * Where `export --output` and `impact --export FILE` may write. They obey the contract's safety
 * rules like every writer: inside the root, never in `.git/` or the tools' own state (the index
 * itself lives in `.magellan/`), never through a symlink that leads out. An export does not
 * replace a source file the index holds either: a mistyped `--output src/app.py` would lose it.
 */
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { assertWritablePath } from "../../change/paths.js";
import { changeError } from "../../change/errors.js";
import { EXIT } from "../../contract/errors.js";
import type { DB } from "../../graph/db.js";
import { resolveInRoot } from "../../text/root.js";
import { TOOL } from "./common.js";

export function exportTarget(db: DB | undefined, root: string, userPath: string, cwd?: string): { abs: string; rel: string } {
  const { abs } = resolveInRoot(TOOL, root, userPath, cwd);
  const rel = assertWritablePath(root, abs, TOOL);
  if (db?.prepare("SELECT 1 FROM files WHERE path = ?").get(rel) !== undefined) {
    throw changeError(TOOL, "path_forbidden", `${rel} is a source file of the index: an export would replace it; nothing written`, "Write the export to a path of its own (e.g. graph.json), or omit the path to print it.", { exitCode: EXIT.usage });
  }
  const target = join(root, rel);
  // An index kept elsewhere with --db (its log and shared memory beside it) is no export target either.
  const dbFile = db?.name;
  if (dbFile && [dbFile, `${dbFile}-wal`, `${dbFile}-shm`].some((f) => resolve(f) === target)) {
    throw changeError(TOOL, "path_forbidden", `${rel} is the index itself; nothing written`, "Write the export to a path of its own (e.g. graph.json).", { exitCode: EXIT.usage });
  }
  // A new directory for the export is made, as llmfilewrite makes one for a new file.
  mkdirSync(dirname(target), { recursive: true });
  return { abs: target, rel };
}
