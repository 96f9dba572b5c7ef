import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { gitWorkTree } from "../../text/root.js";

/**
 * Seed 04 `repo_id`: sha256 hex of `git:<root commit>` inside a git repository (so two clones
 * of one repository agree), else of `path:<absolute root>`. With several root commits (merged
 * histories) the oldest one is taken: `rev-list --reverse` lists it first.
 */
export function repoId(root: string): string {
  const commit = gitWorkTree(root) !== undefined ? rootCommit(root) : undefined;
  const key = commit !== undefined ? `git:${commit}` : `path:${root}`;
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function rootCommit(root: string): string | undefined {
  try {
    const out = execFileSync("git", ["-C", root, "rev-list", "--max-parents=0", "--reverse", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const first = out.split("\n")[0]?.trim();
    return first && /^[0-9a-f]{40,64}$/.test(first) ? first : undefined;
  } catch {
    // No commits yet, or git missing: the repository has no identity beyond its path.
    return undefined;
  }
}
